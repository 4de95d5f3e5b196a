"""The search engine: exact values against theory, the textbook's moves, bounded caches."""

import random

import pytest
from theory import mover_wins, small_games

from games import GrundysGame, Nim, NimState
from games.grid import ConnectFour, TicTacToe
from games.tree import Fig52Game
from players import (PLAYER, alpha_beta_cutoff_search, alpha_beta_search, make_alpha_beta_player,
                     minmax_decision)
from players.search import engine, shared
from players.search.engine import search, solve
from players.search.positions import ENCODINGS, GamePositions, positions_for


def theory_value(game, state) -> int:
    """+1 if the player to move wins, -1 if not (or the final utility)."""
    if game.terminal_test(state):
        return game.utility(state, game.to_move(state))
    return 1 if mover_wins(game, state) else -1


@pytest.mark.parametrize('game, state', list(small_games()),
                         ids=lambda item: repr(item) if not isinstance(item, NimState) else
                         f'{item.to_move}{item.board}')
def test_solve_and_textbook_agree_with_theory(game, state):
    expected = theory_value(game, state)
    solution = solve(game, state)
    assert solution.value == expected
    if game.terminal_test(state):
        assert solution.move is None
        return
    for move in (solution.move, alpha_beta_search(state, game)):
        child = game.result(state, move)
        assert -theory_value(game, child) == expected, f'{move} from {state}'


def test_solve_move_is_the_first_best_move_in_actions_order():
    game = Nim((1, 2, 3, 3))
    winning = [move for move in game.actions(game.initial)
               if theory_value(game, game.result(game.initial, move)) < 0]
    assert solve(game).move == winning[0]


def test_tic_tac_toe_is_a_draw_and_its_wins_are_found():
    game = TicTacToe()
    assert solve(game).value == 0
    state = game.initial
    for move in [(1, 1), (2, 1), (1, 2)]:
        state = game.result(state, move)
    solution = solve(game, state)
    assert solution.value == -1
    assert solve(game, game.result(state, solution.move)).value == 1
    state = game.result(state, (3, 3))
    assert solve(game, state)[:2] == (1, (1, 3))


def test_a_square_board_solves_alike_under_its_symmetries():
    game = TicTacToe(4, 4, 3)
    state = game.result(game.result(game.initial, (2, 2)), (1, 1))
    mirror = game.result(game.result(game.initial, (3, 3)), (4, 4))
    assert search(game, state, 4).value == search(game, mirror, 4).value


def test_any_game_through_its_public_methods():
    game = Fig52Game()
    assert solve(game)[:2] == (3, 'a1')
    assert search(game, game.initial, 1).move == 'a1'


def textbook_move(game, state, depth, eval_fn=None):
    """alpha_beta_cutoff_search looking depth plies ahead with the registry's evaluation."""
    player = game.to_move(state)

    def evaluate(position):
        if game.terminal_test(position):
            return game.utility(position, player)
        if eval_fn is None:
            return game.evaluate(position, player)
        return eval_fn(game, position, player)
    return alpha_beta_cutoff_search(state, game, d=depth - 1, eval_fn=evaluate)


def random_position(game, rng, plies):
    """The state after up to plies random moves from the start, never a final one
    (where no player is asked to move)."""
    state = game.initial
    for _ in range(plies):
        children = [game.result(state, move) for move in game.actions(state)]
        children = [child for child in children if not game.terminal_test(child)]
        if not children:
            break
        state = rng.choice(children)
    return state


def sample_positions():
    """(game, state, depth) for random Nim variants, Grundy, tic-tac-toe and Connect Four."""
    rng = random.Random(4)
    for _ in range(60):
        piles = tuple(rng.randint(0, 5) for _ in range(rng.randint(1, 4))) + (rng.randint(1, 3),)
        game = Nim(piles, misere=rng.random() < 0.5,
                   max_take=rng.choice([None, None, 2, 3]))
        yield game, random_position(game, rng, rng.randint(0, 3)), rng.randint(1, 5)
    for _ in range(15):
        game = GrundysGame(rng.randint(3, 14))
        yield game, random_position(game, rng, rng.randint(0, 2)), rng.randint(1, 5)
    for _ in range(40):
        game = rng.choice([TicTacToe(), TicTacToe(), TicTacToe(4, 4, 3), TicTacToe(4, 3, 3)])
        yield game, random_position(game, rng, rng.randint(0, 6)), rng.randint(1, 4)
    for _ in range(16):
        game = rng.choice([ConnectFour(), ConnectFour(), ConnectFour(5, 4, 3)])
        yield game, random_position(game, rng, rng.randint(0, 16)), rng.randint(1, 3)


@pytest.mark.parametrize('number, case', list(enumerate(sample_positions())),
                         ids=lambda item: str(item) if isinstance(item, int) else '')
def test_ab_players_choose_the_textbook_move(number, case):
    game, state, depth = case
    player = PLAYER[f'ab{depth}']
    assert player(game, state) == textbook_move(game, state, depth)
    assert set(player.stats) == {'nodes', 'hits', 'depth', 'exact'}
    assert player.stats['depth'] == depth


def by_public_methods(game, state, depth=-1):
    """The engine's value through the game's own methods, without any fast rules."""
    rules = GamePositions(game, game.to_move(state))
    return engine._Search(rules, {}).root(game, state, depth).value


@pytest.mark.parametrize('game, plies', [(TicTacToe(), 2), (TicTacToe(4, 3, 3), 5),
                                         (ConnectFour(4, 4, 3), 3), (ConnectFour(5, 4, 4), 9),
                                         (ConnectFour(), 31)])
def test_fast_rules_value_positions_as_the_games_own_methods_do(game, plies):
    rng = random.Random(plies)
    for _ in range(6):
        state = random_position(game, rng, rng.randint(plies, plies + 3))
        assert solve(game, state).value == by_public_methods(game, state)
        assert search(game, state, 3).value == by_public_methods(game, state, 3)


def lopsided(game, state, player):
    """An evaluation that depends on the order of the piles, against every symmetry."""
    return sum(count * (index + 1) for index, count in enumerate(state.board)) / 100 - 0.5


@pytest.mark.parametrize('piles', [(1, 2, 3), (4, 0, 3, 2), (5, 5)])
def test_a_custom_evaluation_gets_the_textbook_move(piles):
    game = Nim(piles)
    player = make_alpha_beta_player(2, eval_fn=lopsided)
    for depth in (1, 2, 3):
        assert (make_alpha_beta_player(depth, eval_fn=lopsided)(game, game.initial)
                == textbook_move(game, game.initial, depth, lopsided))
    assert player(game, game.initial) == textbook_move(game, game.initial, 2, lopsided)


def test_caches_never_change_a_move():
    games = [Nim((3, 5, 7, 9), misere=True), TicTacToe(), GrundysGame(17)]
    cold = []
    for game in games:
        shared.clear_tables()
        cold.append((solve(game)[:2], search(game, game.initial, 4).move))
    warm = [(solve(game)[:2], search(game, game.initial, 4).move) for game in games]
    assert cold == warm


def test_full_tables_are_emptied_and_values_stay_exact(monkeypatch):
    monkeypatch.setattr(engine, 'TABLE_LIMIT', 100)
    shared.clear_tables()
    for game in [Nim((2, 3, 4, 5), misere=True), GrundysGame(15), TicTacToe()]:
        value = 0 if isinstance(game, TicTacToe) else theory_value(game, game.initial)
        assert solve(game).value == value
        assert all(len(table) <= 100 for table in shared._TABLES.values())


def test_games_with_the_same_name_never_share_a_table():
    normal, misere = Nim((1, 1)), Nim((1, 1), misere=True)
    for _ in range(2):
        assert (solve(normal).value, solve(misere).value) == (-1, 1)


def test_minimax_player_reports_its_search():
    game = Nim((3, 4, 5))
    move = PLAYER['minimax'](game, game.initial)
    assert theory_value(game, game.result(game.initial, move)) == -1
    assert PLAYER['minimax'].stats['nodes'] >= 1


def test_minimax_player_chooses_the_textbook_minmax_move():
    rng = random.Random(9)
    cases = [(TicTacToe(), 4), (TicTacToe(), 5), (Nim((1, 2, 3), misere=True), 1),
             (Nim((2, 2, 3), max_take=2), 0), (GrundysGame(9), 0), (ConnectFour(4, 4, 3), 9)]
    for game, plies in cases:
        for _ in range(3):
            state = random_position(game, rng, plies)
            assert PLAYER['minimax'](game, state) == minmax_decision(state, game)


def test_pile_search_gives_theory_s_values_keeps_them_and_stops_at_its_deadline():
    from players.search.pile_search import pile_search
    from players.search.positions import positions_for
    from players.search.timing import OutOfTime
    for game in (Nim((2, 3, 4), misere=True), Nim((2, 3, 4), max_take=2), GrundysGame(12)):
        positions, table = positions_for(game, game.to_move(game.initial)), {}
        won, counts = pile_search(positions, table, 1000)
        start = positions.encode(game.initial)
        assert won(start) == (1 if mover_wins(game, game.initial) else -1)
        nodes, hits = counts()
        assert won(start) == won(start) and counts() == (nodes + 2, hits + 2)
        assert all(value in (-1, 1) for value in table.values())
        late, _ = pile_search(positions, {}, 1000, deadline=0.0)
        with pytest.raises(OutOfTime):
            for _ in range(2000):
                late(start)


@pytest.mark.parametrize('kind', list(ENCODINGS), ids=lambda kind: kind.__name__)
def test_each_encoding_registered_is_what_a_search_of_its_game_uses(kind):
    game = kind()
    positions = positions_for(game, game.to_move(game.initial))
    assert type(positions).__name__ == ENCODINGS[kind].partition(':')[2]
    assert type(positions_for(game, game.to_move(game.initial), game.evaluate)) is GamePositions


def test_nim_positions_are_the_multisets_of_the_piles_and_a_take_is_one_addition():
    for game, state in small_games():
        if type(game) is not Nim:
            continue
        positions = positions_for(game, game.to_move(state))
        pos = positions.encode(state)
        assert positions.piles(pos) == tuple(sorted(pile for pile in state.board if pile))
        assert positions.plies_left(pos) == sum(state.board)
        children = {positions.encode(game.result(state, move)) for move in game.actions(state)}
        assert set(positions.children(pos, 1)) == children
        for move in game.actions(state):
            assert positions.child(pos, state, move) == positions.encode(game.result(state, move))
    game = Nim((1, 2))
    positions = positions_for(game, 'P1')
    bigger = NimState('P1', (6, 2))  # piles bigger than the game's
    assert positions.piles(positions.encode(bigger)) == (2, 6)
    assert solve(game, bigger).value == theory_value(game, bigger) == 1
    with pytest.raises(ValueError, match='more piles'):
        positions.encode(NimState('P1', (1, 2, 3, 4)))


def test_nim_games_with_the_same_rules_share_a_table_and_stay_exact():
    shared.clear_tables()
    for piles in [(3, 4, 5), (2, 4, 5), (1, 4, 5)]:
        game, stats = Nim(piles, misere=True), shared.SearchStats()
        solution = solve(game, stats=stats)
        assert solution.value == theory_value(game, game.initial)
        assert -theory_value(game, game.result(game.initial, solution.move)) == solution.value
    assert len(shared._TABLES) == 1 and stats.hits is not None and stats.hits > 0
