"""Connect Four's own searches: exact values against a slow search of the game's
own states, the textbook's moves at depth, the game's evaluation, deadlines;
each test twice, with the pure Python search and with the compiled kernel (the
second skipped where the kernel is not built)."""

import random
import subprocess
import sys
import time

import pytest

from games.grid import ConnectFour
from players import PLAYER
from players.search import connect4, engine, shared
from players.search.connect4 import Shape
from players.textbook import alpha_beta_cutoff_search
from players.search.timing import OutOfTime


NOT_BUILT = 'the compiled kernel is not built (no C compiler was found at install)'


@pytest.fixture(params=['pure Python', 'compiled'], autouse=True)
def kernel(request, monkeypatch):
    """The kernel the engine's new tables use: none, then the compiled one."""
    if request.param == 'compiled' and connect4.compiled is None:
        pytest.skip(NOT_BUILT)
    monkeypatch.setattr(connect4, 'kernel', None if request.param == 'pure Python'
                        else connect4.compiled)
    shared.clear_tables()
    yield connect4.kernel
    shared.clear_tables()


SOLVED: dict = {}
"""The values slow_value has found, by board size and state: they depend on no
kernel, so the tests run with each kernel (and test_connect4_kernel's) share them."""


def slow_value(game, state) -> int:
    """The value for the player to move, by plain negamax over the game's own
    states (each remembered once solved): 1 a win, 0 a draw, -1 a loss."""
    memo = SOLVED.setdefault((game.h, game.v, game.k), {})

    def value(state) -> int:
        if game.terminal_test(state):
            return game.utility(state, game.to_move(state))
        if state not in memo:
            memo[state] = max(-value(game.result(state, move)) for move in game.actions(state))
        return memo[state]
    return value(state)


def near_the_end(game, rng, empty: int):
    """A state reached by random moves with empty squares left (at least 1), not over."""
    while True:
        state = game.initial
        while len(state.moves) > empty and not game.terminal_test(state):
            state = game.result(state, rng.choice(game.actions(state)))
        if not game.terminal_test(state):
            return state


def cases():
    """(game, state) near the end of random games on boards of several sizes."""
    rng = random.Random(2024)
    for game, empty, count in [(ConnectFour(), 10, 8), (ConnectFour(), 12, 3),
                               (ConnectFour(5, 4), 11, 5), (ConnectFour(4, 7), 10, 4),
                               (ConnectFour(6, 5), 9, 4)]:
        for _ in range(count):
            yield game, near_the_end(game, rng, empty)


@pytest.mark.parametrize('number, case', list(enumerate(cases())),
                         ids=lambda item: str(item) if isinstance(item, int) else '')
def test_solve_agrees_with_a_slow_search_and_plays_the_first_best_move(number, case):
    game, state = case
    expected = slow_value(game, state)
    shared.clear_tables()
    assert engine.value(game, state) == expected
    solution = solve = engine.solve(game, state)
    assert solve.value == expected
    child_values = [-slow_value(game, game.result(state, move))
                    for move in game.actions(state)]
    assert solution.move == game.actions(state)[child_values.index(expected)]


def test_a_win_at_once_is_found_without_a_search():
    game = ConnectFour()
    state = game.initial
    for column in '112233':  # X has three on the bottom row, and wins at (4, 1)
        state = game.result(state, game.parse_move(column, state))
    stats = shared.SearchStats()
    assert engine.value(game, state, stats) == 1 and stats.nodes == 0


def play(game, columns: str):
    """The state after the moves of a line of column numbers, such as '3344'."""
    state = game.initial
    for column in columns:
        state = game.result(state, game.parse_move(column, state))
    return state


def test_a_move_that_leaves_two_squares_to_block_wins_without_a_search_below():
    game = ConnectFour()
    state = play(game, '3344')  # X's third stone in a row on the bottom leaves 2 and 6 open
    after = game.result(state, (5, 1))
    assert all(any(game.utility(game.result(reply, move), 'X') == 1 for move in game.actions(reply))
               for reply in (game.result(after, move) for move in game.actions(after)))
    stats = shared.SearchStats()
    shared.clear_tables()
    assert engine.value(game, state, stats) == 1
    assert stats.nodes == 1  # the root finds the move while ordering its moves


@pytest.mark.parametrize('game, empty', [(ConnectFour(), 13), (ConnectFour(5, 4), 12),
                                         (ConnectFour(4, 5), 12)])
def test_solve_agrees_with_a_slow_search_further_from_the_end(game, empty):
    rng = random.Random(29)
    for _ in range(4):
        state = near_the_end(game, rng, empty)
        shared.clear_tables()
        assert engine.value(game, state) == slow_value(game, state)


def test_the_table_kept_between_solves_stays_right():
    """Bounds one solve stores are read by the next: solve every state of random
    games, the table kept, and each child of the state too."""
    rng = random.Random(11)
    shared.clear_tables()
    for game, empty in [(ConnectFour(5, 4), 12), (ConnectFour(), 12)]:
        state = near_the_end(game, rng, empty)
        while not game.terminal_test(state):
            for child in [state] + [game.result(state, move) for move in game.actions(state)]:
                if not game.terminal_test(child):
                    assert engine.value(game, child) == slow_value(game, child)
            state = game.result(state, rng.choice(game.actions(state)))


def test_importing_the_engine_makes_no_board_shape():
    """A board's masks are made by its first search, which pays for them (so that a
    cold benchmark counts them), not at import."""
    check = ('import players.search.engine, players.search.connect4 as c4; '
             'assert not c4._SHAPES, c4._SHAPES')
    subprocess.run([sys.executable, '-c', check], check=True)


def random_midgame(game, rng):
    """A state of 8 to 14 random moves that is not over."""
    return near_the_end(game, rng, game.h * game.v - rng.randint(8, 14))


def test_depth_limited_search_chooses_the_textbook_move_with_threats_about():
    rng = random.Random(7)
    for game, depth in [(ConnectFour(), 4)] * 6 + [(ConnectFour(5, 4), 5)] * 4:
        state = random_midgame(game, rng)
        player = game.to_move(state)

        def evaluate(position):
            if game.terminal_test(position):
                return game.utility(position, player)
            return game.evaluate(position, player)
        expected = alpha_beta_cutoff_search(state, game, d=depth - 1, eval_fn=evaluate)
        assert PLAYER[f'ab{depth}'](game, state) == expected


def test_depth_reaching_the_end_is_solved_exactly():
    rng = random.Random(3)
    game = ConnectFour()
    for _ in range(3):
        state = near_the_end(game, rng, 6)
        stats = shared.SearchStats()
        solution = engine.search(game, state, 6, stats=stats)
        assert stats.exact and solution.value == slow_value(game, state)
        assert solution.move == alpha_beta_cutoff_search(state, game, d=5)


def test_the_evaluation_is_the_games_own_to_the_last_bit():
    rng = random.Random(5)
    for game in (ConnectFour(), ConnectFour(5, 4), ConnectFour(4, 7)):
        shape = Shape.of(game.h, game.v)
        evaluate = shape.evaluation()
        for _ in range(20):
            state = near_the_end(game, rng, rng.randint(4, game.h * game.v))
            mine, mask, _ = shape.encode(state)
            assert evaluate(mine, mine ^ mask) == game.evaluate(state, state.to_move)


def test_a_search_past_its_deadline_stops_and_its_tables_stay_right():
    game = ConnectFour()
    state = game.initial
    for column in '44':
        state = game.result(state, game.parse_move(column, state))
    shared.clear_tables()
    start = time.monotonic()
    with pytest.raises(OutOfTime):
        engine.solve(game, state, deadline=start + 0.05)
    assert time.monotonic() - start < 1  # slack for a busy machine: the solve takes far longer
    with pytest.raises(OutOfTime):
        engine.search(game, state, 30, deadline=time.monotonic() + 0.05)
    late = near_the_end(game, random.Random(1), 10)
    assert engine.solve(game, late).value == slow_value(game, late)

