"""Othello, Kalah, Hex and Breakthrough: their rules against OpenSpiel's move counts,
the rules' corners, and the values of small boards against a plain search and theory."""

import pytest

import variants
from games import Breakthrough, Hex, IllegalMoveError, Kalah, Othello
from games.othello import PASS
from players import PLAYER, textbook
from players.search import engine, shared
from players.bench.boards import perft, perft_openspiel

PERFT = {
    'othello(n=8)': ('othello', (4, 12, 56, 244, 1396, 8200, 55092)),
    'kalah(pits=6, seeds=4)': ('mancala', (6, 35, 185, 942, 4690, 23233, 114430, 563055)),
    'hex(n=5)': ('hex(board_size=5)', (25, 600, 13800)),
    'breakthrough(rows=6, columns=6)': ('breakthrough(rows=6,columns=6)', (16, 256, 4308, 71478)),
    'breakthrough(rows=8, columns=8)': ('breakthrough(rows=8,columns=8)', (22, 484, 11132)),
    'breakthrough(rows=3, columns=3)': ('breakthrough(rows=3,columns=3)',
                                        (7, 42, 174, 466, 930, 972, 788)),
    'breakthrough(rows=4, columns=3)': ('breakthrough(rows=4,columns=3)',
                                        (7, 49, 256, 1230, 5940)),
    'breakthrough(rows=3, columns=4)': ('breakthrough(rows=3,columns=4)',
                                        (10, 90, 614, 3088, 12154)),
    'breakthrough(rows=5, columns=3)': ('breakthrough(rows=5,columns=3)',
                                        (7, 49, 273, 1480, 8460)),
    'breakthrough(rows=4, columns=4)': ('breakthrough(rows=4,columns=4)', (10, 100, 814, 6324)),
}
"""For each game, OpenSpiel's game and its move counts from the start (perft: the move
sequences of each length, from 1), as OpenSpiel 2.0.2 (pip install open-spiel)
computes them with players.bench.boards.perft_openspiel; the test computes them again,
every depth, where OpenSpiel is installed."""


def openspiel():
    """The pyspiel module; the test is skipped where OpenSpiel is not installed."""
    return pytest.importorskip('pyspiel',
                               reason='OpenSpiel is not installed (the test and bench extras)')


def openspiel_breakthrough(rows: int, columns: int):
    """The start of OpenSpiel's Breakthrough on a board of rows x columns."""
    name = f'breakthrough(rows={rows},columns={columns})'
    return openspiel().load_game(name).new_initial_state()


@pytest.mark.parametrize('spec', PERFT)
def test_move_counts_from_the_start_equal_openspiels(spec):
    game = variants.make(spec)
    name, counts = PERFT[spec]
    assert [perft(game, game.initial, depth, bulk=True)
            for depth in range(1, len(counts) + 1)] == list(counts)
    start = openspiel().load_game(name).new_initial_state()
    assert [perft_openspiel(start, depth, bulk=True)
            for depth in range(1, len(counts) + 1)] == list(counts)


def play(game, *moves):
    """The state after moves from the start."""
    state = game.initial
    for move in moves:
        state = game.result(state, move)
    return state


def test_othello_flips_lines_passes_and_ends_when_neither_can_place():
    game = Othello(4)
    state = play(game, (4, 2))
    assert state.board[(3, 2)] == 'B' and state.board.count('B') == 4 and state.to_move == 'W'
    moves = [(4, 3), (1, 4), (3, 1), (4, 1), (2, 1), (2, 4), (1, 3), (4, 4)]
    state = play(game, (4, 2), *moves)
    assert game.actions(state) == [PASS] and state.to_move == 'W'
    assert game.parse_move('pass', state) == PASS
    after = game.result(state, PASS)
    assert after.to_move == 'B' and after.board == state.board
    with pytest.raises(IllegalMoveError):
        game.result(after, PASS)
    final = state
    while not game.terminal_test(final):
        final = game.result(final, game.actions(final)[0])
    lead = final.board.count('B') - final.board.count('W')
    assert game.utility(final, 'B') == (lead > 0) - (lead < 0) == -game.utility(final, 'W')


def test_kalah_extra_move_capture_and_the_sweep_at_the_end():
    game = Kalah(pits=6, seeds=4)
    state = game.result(game.initial, 3)  # 4 seeds from pit 3: the last in the store
    assert state.to_move == 'S' and state.board[6] == 1
    # S's last seed lands in its empty pit 2 facing N's pit 5: both go to S's store.
    board = (1, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 7, 0, 9)
    after = game.result(type(state)('S', board), 1)
    assert after.board == (0, 0, 0, 0, 0, 0, 18, 0, 0, 0, 0, 0, 0, 9)
    assert game.terminal_test(after) and game.utility(after, 'S') == 1
    # N's 9 seeds: its store, S's six pits, never S's store, then N's empty pit 2,
    # which captures the seed sown into S's pit 5 facing it.
    board = (0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 9, 17)
    after = game.result(type(state)('N', board), 6)
    assert after == type(state)('S', (1, 1, 1, 1, 0, 2, 20, 1, 0, 0, 0, 0, 0, 20))
    # N's last seeds leave its side empty: the game ends and S keeps its own.
    after = game.result(type(state)('N', (0, 0, 0, 0, 0, 1, 20, 0, 0, 0, 0, 0, 2, 17)), 6)
    assert after.board == (0, 0, 0, 0, 0, 0, 22, 0, 0, 0, 0, 0, 0, 18)
    assert game.terminal_test(after) and game.utility(after, 'N') == -1
    with pytest.raises(IllegalMoveError):
        game.result(game.initial, 7)
    # A pit with more seeds than the whole board starts with (a position set by hand):
    # 27 seeds go round twice (12 a lap: never the pit itself nor N's store) and on
    # to S's pit 4, which then holds 3 and captures nothing.
    after = game.result(type(state)('S', (27,) + (0,) * 5 + (0,) + (1,) * 6 + (0,)), 1)
    assert after.board == (0, 3, 3, 3, 2, 2, 2, 3, 3, 3, 3, 3, 3, 0) and after.to_move == 'N'


def test_a_kalah_state_reads_as_its_tuple_of_counts():
    """The board is kept packed into one number; it reads, copies, pickles and
    prints as the tuple of counts."""
    import pickle
    from games.kalah import KalahState
    state = Kalah(pits=3, seeds=3).result(Kalah(pits=3, seeds=3).initial, 1)
    assert state.board == (0, 4, 4, 1, 3, 3, 3, 0) and state.to_move == 'S'
    assert state == KalahState('S', (0, 4, 4, 1, 3, 3, 3, 0)) and hash(state) == hash(
        KalahState('S', state.board))
    assert pickle.loads(pickle.dumps(state)) == state
    assert repr(state) == "KalahState('S', (0, 4, 4, 1, 3, 3, 3, 0))"
    assert state._replace(to_move='N', board=(1,) * 8).board == (1,) * 8
    with pytest.raises(ValueError, match='unexpected field'):
        state._replace(pits=2)
    with pytest.raises(ValueError, match='counts of seeds from 0'):
        KalahState('S', (1, -1, 0, 0))


def test_hex_joins_sides_and_its_distance_is_a_shortest_path():
    game = Hex(3)
    state = play(game, (2, 1), (1, 1), (2, 2), (1, 2))
    assert not game.terminal_test(state) and game.distance(state, 'B') == 1
    assert game.distance(state, 'W') == 3
    won = game.result(state, (2, 3))
    assert game.terminal_test(won) and game.utility(won, 'B') == 1
    # W's stones at (3, 1) and (1, 3) cut B off along the short diagonal.
    blocked = play(game, (1, 1), (3, 1), (1, 2), (2, 2), (2, 1), (1, 3))
    assert game.distance(blocked, 'B') is None and game.evaluate(blocked, 'W') > 0
    for seed in range(30):
        state = random_position(Hex(6), seed, 12)
        for player in 'BW':
            assert game_distance_plainly(state, player, 6) == Hex(6).distance(state, player)


def game_distance_plainly(state, player, n: int):
    """The fewest empty cells player must fill to join their sides: Dijkstra's search
    over the cells, each own stone costing 0 and each empty cell 1."""
    import heapq
    along = 1 if player == 'B' else 0
    queue = [(0 if state.board.get(cell) == player else 1, cell)
             for cell in ((x, y) for x in range(1, n + 1) for y in range(1, n + 1))
             if cell[along] == 1 and state.board.get(cell) in (None, player)]
    heapq.heapify(queue)
    done = set()
    while queue:
        cost, cell = heapq.heappop(queue)
        if cell in done:
            continue
        done.add(cell)
        if cell[along] == n:
            return cost
        x, y = cell
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
            near = (x + dx, y + dy)
            if 1 <= near[0] <= n and 1 <= near[1] <= n and near not in done \
                    and state.board.get(near) in (None, player):
                heapq.heappush(queue, (cost + (state.board.get(near) != player), near))
    return None


def random_position(game, seed: int, plies: int):
    """A position after up to plies random moves from the start."""
    import random
    rng, state = random.Random(seed), game.initial
    for _ in range(plies):
        if game.terminal_test(state):
            break
        state = game.result(state, rng.choice(list(game.actions(state))))
    return state


def test_breakthrough_moves_captures_and_wins():
    game = Breakthrough(rows=6, columns=3)
    assert len(game.actions(game.initial)) == 7
    opening = (((2, 2), (2, 3)), ((1, 5), (1, 4)), ((2, 3), (2, 4)), ((1, 4), (2, 3)))
    state = play(game, *opening)
    assert ((2, 4), (2, 5)) not in game.actions(state)  # straight ahead only onto empty
    assert ((2, 4), (1, 5)) in game.actions(state) and ((2, 4), (3, 5)) in game.actions(state)
    with pytest.raises(IllegalMoveError):
        game.result(state, ((2, 4), (1, 4)))  # sideways
    state = play(game, *opening, ((2, 4), (3, 5)))
    assert state.board.count('W') == 5 and state.board[(3, 5)] == 'B'
    won = play(game, *opening, ((2, 4), (3, 5)), ((2, 3), (2, 2)), ((3, 5), (2, 6)))
    assert game.terminal_test(won) and game.utility(won, 'B') == 1
    assert game.parse_move('2 2 2 3', game.initial) == ((2, 2), (2, 3))



def test_a_breakthrough_move_is_checked_however_it_is_given():
    """actions' own tuples, equal tuples and lists make the same move; numbers that are
    not whole numbers do not, nor does a move of the player not to move."""
    import pickle
    game = Breakthrough(rows=5, columns=4)
    listed = game.actions(game.initial)[0]
    assert listed == ((1, 1), (1, 2))
    after = game.result(game.initial, listed)
    for same in (((1, 1), (1, 2)), [[1, 1], [1, 2]], game.parse_move('1 1 1 2', game.initial)):
        assert game.result(game.initial, same) == after
    for wrong in (((1.0, 1), (1, 2)), ((True, 1), (1, 2)), ((1, 5), (1, 4)), None, ((1, 1),)):
        with pytest.raises(IllegalMoveError, match='the legal moves include 1 1 1 2'):
            game.result(game.initial, wrong)
    assert after.board[(1, 2)] == 'B' and (1, 1) not in after.board and len(after.board) == 8
    assert pickle.loads(pickle.dumps(after)) == after

def test_breakthrough_boards_are_set_up_as_openspiels_and_too_small_ones_refused():
    """One row of pieces each on fewer than 6 rows, two from 6 up; OpenSpiel's first
    player starts at the top, so its board upside down is ours."""
    for rows in range(2, 10):
        for columns in (2, 3, 5):
            game = Breakthrough(rows=rows, columns=columns)
            lines = str(openspiel_breakthrough(rows, columns)).splitlines()[:rows]
            assert game.initial.board.rows() == [line[1:].upper() for line in lines]
    tiny = Breakthrough(rows=2, columns=2)
    assert all(tiny.utility(tiny.result(tiny.initial, move), 'B') == 1
               for move in tiny.actions(tiny.initial))
    for rows, columns in ((1, 3), (3, 1), (17, 3)):
        with pytest.raises(ValueError, match='must be a whole number from 2 to 16'):
            Breakthrough(rows=rows, columns=columns)


def plain_value(game, state) -> int:
    """The exact value of state for the player to move: the moves tried in turn until
    one wins (the same player's value kept when a move lets them move again), states
    remembered."""
    seen = {}

    def value(state):
        key = (state.to_move, getattr(state.board, 'masks', state.board))
        if key not in seen:
            if game.terminal_test(state):
                best = game.utility(state, state.to_move)
            else:
                best = -1
                for move in game.actions(state):
                    child = game.result(state, move)
                    best = max(best, value(child) if child.to_move == state.to_move
                               else -value(child))
                    if best == 1:
                        break
            seen[key] = best
        return seen[key]
    return value(state)


@pytest.mark.parametrize('spec, expected', [
    ('hex(n=3)', 1), ('othello(n=4)', -1), ('kalah(pits=3, seeds=3)', 1),
    ('breakthrough(rows=4, columns=3)', 1)])
def test_small_boards_are_solved_as_a_plain_search_solves_them(spec, expected):
    game = variants.make(spec)
    assert plain_value(game, game.initial) == expected
    shared.clear_tables()
    solution = engine.solve(game)
    assert solution.value == expected
    child = game.result(game.initial, solution.move)
    same = child.to_move == game.initial.to_move
    assert (plain_value(game, child) if same else -plain_value(game, child)) == expected
    for name in ('minimax', 'perfect'):
        assert PLAYER[name](game, game.initial) == solution.move


def spiel_value(state) -> float:
    """The exact value of an OpenSpiel state for the player to move, by plain_value's
    search over OpenSpiel's own moves and results (for two players who alternate)."""
    seen = {}

    def value(state):
        key = (str(state), state.current_player())
        if key not in seen:
            mover, best = state.current_player(), -1
            for action in state.legal_actions():
                child = state.child(action)
                best = max(best, child.returns()[mover] if child.is_terminal() else -value(child))
                if best == 1:
                    break
            seen[key] = best
        return seen[key]
    return value(state)


@pytest.mark.parametrize('rows, columns, expected', [
    (3, 3, 1), (4, 3, 1), (3, 4, 1), (5, 3, 1), (4, 4, 1), (4, 2, -1)])
def test_small_breakthrough_boards_have_openspiels_values(rows, columns, expected):
    game = Breakthrough(rows=rows, columns=columns)
    shared.clear_tables()
    assert engine.solve(game).value == expected
    assert spiel_value(openspiel_breakthrough(rows, columns)) == expected


def test_hex_is_a_first_player_win_as_strategy_stealing_says():
    """Nash: a second-player win would let the first player steal it with a stone to
    spare, and a full Hex board always has a winner."""
    shared.clear_tables()
    for game in (Hex(3), Hex(4)):
        solution = engine.solve(game)
        assert solution.value == 1
        assert engine.value(game, game.result(game.initial, solution.move)) == -1
        assert PLAYER['minimax'](game, game.initial) == solution.move


@pytest.mark.parametrize('spec, plies', [
    ('othello(n=6)', 6), ('hex(n=4)', 3), ('breakthrough(rows=6, columns=6)', 3),
    ('othello(n=4)', 2)])
def test_alpha_beta_players_choose_the_textbooks_move(spec, plies):
    game = variants.make(spec)
    for seed in range(3):
        state = random_position(game, seed, plies)
        player = game.to_move(state)
        for depth in (1, 2, 3):
            want = textbook.alpha_beta_cutoff_search(
                state, game, d=depth - 1, eval_fn=lambda s: game.utility(s, player)
                if game.terminal_test(s) else game.evaluate(s, player))
            assert engine.search(game, state, depth).move == want, (spec, seed, depth)


def cutoff_value(game, state, depth: int, player) -> float:
    """The value of state for player, depth plies ahead, each side choosing by to_move."""
    if game.terminal_test(state):
        return game.utility(state, player)
    if depth == 0:
        return game.evaluate(state, player)
    values = [cutoff_value(game, game.result(state, move), depth - 1, player)
              for move in game.actions(state)]
    return max(values) if game.to_move(state) == player else min(values)


def test_kalah_searches_let_a_player_move_twice():
    game = Kalah(pits=4, seeds=3)
    for seed in range(4):
        state = random_position(game, seed, 3)
        player = game.to_move(state)
        for depth in (1, 2, 3, 4):
            want = cutoff_value(game, state, depth, player)
            solution = engine.search(game, state, depth)
            assert solution.value == pytest.approx(want)
            child = game.result(state, solution.move)
            assert cutoff_value(game, child, depth - 1, player) == pytest.approx(want)


@pytest.mark.parametrize('spec', ['othello(n=6)', 'kalah(pits=6, seeds=4)', 'hex(n=7)',
                                  'breakthrough(rows=6, columns=6)'])
def test_the_time_managed_players_play_them(spec):
    from players.clocked import make_clocked_alpha_beta_player, make_clocked_mcts_player
    game = variants.make(spec)
    state = random_position(game, 1, 4)
    deepening = make_clocked_alpha_beta_player(seconds=0.1)
    assert deepening(game, state) in game.actions(state)
    assert deepening.stats['depth'] >= 2
    playouts = make_clocked_mcts_player(seconds=0.05)
    assert playouts(game, state) in game.actions(state)
    assert playouts.stats['playouts'] >= 1


def test_perfect_solves_what_fits_in_its_time_and_deepens_otherwise():
    import time

    from players.perfect import solve_in_time
    shared.clear_tables()
    small, big = Othello(4), Othello(8)
    move, stats = solve_in_time(small, small.initial, time.monotonic() + 2)
    assert stats.exact and stats.depth == -1 and move == engine.solve(small).move
    move, stats = solve_in_time(big, big.initial, time.monotonic() + 0.2)
    assert move in big.actions(big.initial) and not stats.exact
    assert stats.depth is not None and stats.depth >= 2
