"""AIMA's games.py as a drop-in: aima-python's test assertions, from the book's
figures and AIMA's documented behaviour, with nothing imported but `from games import *`."""

import subprocess
import sys
import textwrap

import pytest

from games import *  # noqa: F401,F403  (the only import of an AIMA notebook or exercise)

f52 = Fig52Game()  # noqa: F405
ttt = TicTacToe()  # noqa: F405


def gen_state(to_move='X', x_positions=(), o_positions=(), h=3, v=3):
    """A tic-tac-toe state with the given pieces, as aima-python's tests make them."""
    moves = list({(x, y) for x in range(1, h + 1) for y in range(1, v + 1)}
                 - set(x_positions) - set(o_positions))
    board = {**{pos: 'X' for pos in x_positions}, **{pos: 'O' for pos in o_positions}}
    return GameState(to_move=to_move, utility=0, board=board, moves=moves)  # noqa: F405


def test_every_aima_name_is_there():
    for name in ('Game', 'StochasticGame', 'GameState', 'StochasticGameState', 'TicTacToe',
                 'ConnectFour', 'Gomoku', 'Backgammon', 'Fig52Game', 'Fig52Extended',
                 'minmax_decision', 'minimax_decision', 'expect_minmax', 'alpha_beta_search',
                 'alphabeta_search', 'alpha_beta_cutoff_search', 'alphabeta_cutoff_search',
                 'alphabeta_full_search', 'monte_carlo_tree_search', 'query_player',
                 'random_player', 'alpha_beta_player', 'alphabeta_player', 'expect_minmax_player',
                 'expect_min_max_player', 'mcts_player', 'minmax_player', 'play_game', 'random'):
        assert name in globals(), name


AIMA_STAR = ('Backgammon', 'ConnectFour', 'Fig52Extended', 'Fig52Game', 'Game', 'GameState',
             'Gomoku', 'StochasticGame', 'StochasticGameState', 'TicTacToe',
             'alpha_beta_cutoff_search', 'alpha_beta_player', 'alpha_beta_search', 'copy',
             'expect_minmax', 'expect_minmax_player', 'itertools', 'minmax_decision',
             'minmax_player', 'namedtuple', 'np', 'query_player', 'random', 'random_player',
             'vector_add')
"""Every name `from games import *` gives with aima-python's games.py of 2020: its own,
and what it imports (vector_add from its utils)."""


def test_the_star_import_gives_every_name_of_aimas():
    numpy = pytest.importorskip('numpy')
    import collections
    import copy as copy_module
    import itertools as itertools_module
    names: dict = {}
    exec('from games import *', names)
    assert sorted(set(AIMA_STAR) - set(names)) == []
    assert (names['np'], names['copy'], names['itertools']) == (numpy, copy_module,
                                                                 itertools_module)
    assert names['namedtuple'] is collections.namedtuple
    assert names['vector_add']((1, 2), (3, 4)) == (4, 6)
    assert names['vector_add']((1, 2, 3), (1, 1)) == (2, 3)


def test_np_is_absent_without_numpy_and_imported_only_by_the_star_import():
    code = textwrap.dedent('''
        import sys
        import games
        assert 'numpy' not in sys.modules
        sys.modules['numpy'] = None  # as if numpy were not installed
        names = {}
        exec('from games import *', names)
        assert 'np' not in names and 'copy' in names and not hasattr(games, 'np')
        print('ok')''')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout == 'ok\n', done.stderr


def test_figure_5_2():
    for search in (minmax_decision, minimax_decision, alpha_beta_search,  # noqa: F405
                   alphabeta_full_search):  # noqa: F405
        assert [search(node, f52) for node in 'ABCD'] == ['a1', 'b1', 'c1', 'd3']


def test_tic_tac_toe_positions():
    state = gen_state(to_move='X', x_positions=[(1, 1), (3, 3)], o_positions=[(1, 2), (3, 2)])
    assert alphabeta_full_search(state, ttt) == (2, 2)  # noqa: F405
    state = gen_state(to_move='O', x_positions=[(1, 1), (3, 1), (3, 3)],
                      o_positions=[(1, 2), (3, 2)])
    assert alpha_beta_search(state, ttt) == (2, 2)  # noqa: F405
    state = gen_state(to_move='O', x_positions=[(1, 1)], o_positions=[])
    assert alpha_beta_search(state, ttt) == (2, 2)  # noqa: F405


def test_cutoff_search_scores_cut_off_states_by_utility_as_aima_does():
    """AIMA's default eval_fn is the utility, 0 on every board still in play: looking one
    ply ahead from the empty board every square ties, and the first in actions order,
    (1, 1), is chosen (the game's heuristic evaluate would choose the centre)."""
    assert alphabeta_cutoff_search(ttt.initial, ttt, d=0) == (1, 1)  # noqa: F405
    assert alpha_beta_cutoff_search(  # noqa: F405
        ttt.initial, ttt, d=0, eval_fn=lambda s: ttt.evaluate(s, 'X')) == (2, 2)


def test_play_game():
    random.seed('aima-python')  # noqa: F405
    assert play_game(Fig52Game(), alphabeta_player, alphabeta_player) == 3  # noqa: F405
    assert Fig52Game().play_game(alpha_beta_player, alpha_beta_player) == 3  # noqa: F405
    assert ttt.play_game(alpha_beta_player, alpha_beta_player) >= 0  # noqa: F405
    for _ in range(3):
        assert ttt.play_game(alpha_beta_player, random_player) >= 0  # noqa: F405


def test_one_player_takes_every_seat():
    assert Fig52Game().play_game(alpha_beta_player) == 3  # noqa: F405
    assert ttt.play_game(alpha_beta_player) == 0  # noqa: F405
    with pytest.raises(ValueError, match='at least one player'):
        ttt.play_game()


class TwoInARow(Game):  # noqa: F405
    """Three moves to the end; A makes the first two (as a Kalah player may)."""

    players = ('A', 'B')
    initial = 0

    def actions(self, state):
        return ['go']

    def result(self, state, move):
        return state + 1

    def terminal_test(self, state):
        return state == 3

    def to_move(self, state):
        return 'A' if state < 2 else 'B'

    def utility(self, state, player):
        return 1 if player == 'A' else -1


def test_play_game_alternates_whatever_to_move_says_the_referee_follows_it(capsys):
    from games import referee
    asked = []

    def player(name):
        return lambda game, state: asked.append((name, game.to_move(state))) or 'go'

    assert TwoInARow().play_game(player('first'), player('second')) == 1
    assert asked == [('first', 'A'), ('second', 'A'), ('first', 'B')]
    assert capsys.readouterr().out == '3\n'  # the final state, displayed
    asked.clear()
    record = referee.play(TwoInARow(), [player('first'), player('second')])
    assert asked == [('first', 'A'), ('first', 'A'), ('second', 'B')]
    assert record.utilities == (1, -1)


def test_play_game_hands_every_move_to_result_unchecked(capsys):
    """A move that is not legal goes to result, which in AIMA's tic-tac-toe leaves the
    state as it is: the next player moves for the same side."""
    def first(game, state):
        return state.moves[0]

    def off_the_board(game, state):
        return (9, 9)

    assert ttt.play_game(first, off_the_board) == 1  # X: (1, 1), (1, 3), (2, 2), (3, 1)
    assert capsys.readouterr().out == 'X O X \nO X O \nX . . \n'


class Coin(StochasticGame):  # noqa: F405
    """Four tosses of a coin that falls heads nine times in ten."""

    initial = StochasticGameState('A', 0, 0, [], None)  # noqa: F405

    def chances(self, state):
        return ['heads', 'tails']

    def probability(self, chance):
        return 0.9 if chance == 'heads' else 0.1

    def outcome(self, state, chance):
        return state._replace(chance=chance)

    def actions(self, state):
        return [state.chance]

    def result(self, state, move):
        return state._replace(board=state.board + 1, moves=state.moves + [move], chance=None)

    def terminal_test(self, state):
        return state.board == 4

    def utility(self, state, player):
        return 0

    def display(self, state):
        print(state.moves)


def test_a_game_of_chance_draws_each_chance_alike_before_every_move(capsys):
    """As AIMA's play_game does, with random.choice, whatever the probabilities."""
    random.seed(7)  # noqa: F405
    tosses = [random.choice(['heads', 'tails']) for _ in range(4)]  # noqa: F405
    random.seed(7)  # noqa: F405
    assert Coin().play_game(lambda game, state: state.chance) == 0
    assert capsys.readouterr().out == f'{tosses}\n' and 'tails' in tosses


def test_backgammon_is_aimas(capsys):
    """AIMA's chance game: the roll is the state's chance, as steps in the mover's
    direction (W's negative); a move names the points of the checkers it moves."""
    game = Backgammon()  # noqa: F405
    state = game.outcome(game.initial, (6, 5))  # noqa: F405
    assert isinstance(state, StochasticGameState)  # noqa: F405
    assert state.chance == (-6, -5) and game.to_move(state) == 'W'
    assert len(game.chances(game.initial)) == 21 and game.probability((6, 6)) == 1 / 36
    assert game.actions(state)[:4] == [(7, 12), (12, 7), (23, 7), (23, 12)]
    assert game.result(state, (12, 7)).board[6] == {'W': 1, 'B': 0}
    assert state._repr_svg_() is None  # a list of points: Jupyter shows it as text
    game.display(game.initial)
    assert capsys.readouterr().out.startswith('current state : \npoint :  0 \tW :  0     B :  2\n')


def test_expect_minmax_on_a_chance_game():
    """Dice Nim, one pile of 2 and a die of 2 faces, P1 rolled 1: taking 1 is the only
    move; with a 2 rolled, taking both wins at once (the other move leaves the pile of 1)."""
    game = DiceNim(piles=(2,), sides=2)  # noqa: F405
    assert expect_minmax(game.outcome(game.initial, 1), game) == (1, 1)  # noqa: F405
    assert expect_minmax(game.outcome(game.initial, 2), game) == (1, 2)  # noqa: F405
    assert expect_min_max_player(game, game.outcome(game.initial, 2)) == (1, 2)  # noqa: F405


def test_fig52_extended():
    """Nodes 0-39, moves l, m, r; leaves get utilities later, as AIMA's notebook does;
    no initial state, and MAX at the leaves, as AIMA has it."""
    game = Fig52Extended()  # noqa: F405
    assert game.actions(0) == ['l', 'm', 'r'] and game.result(0, 'm') == 2
    assert game.to_move(1) == 'MIN' and game.to_move(4) == 'MAX' and game.to_move(13) == 'MAX'
    assert not hasattr(game, 'initial')
    game.utils = {leaf: leaf for leaf in range(13, 40)}
    assert minmax_decision(0, game) == 'r'  # noqa: F405  (the highest leaves are under r)
    game.utils = {leaf: -leaf for leaf in range(13, 40)}
    assert alpha_beta_search(0, game) == 'l'  # noqa: F405


def test_fig52_game_is_aimas_its_states_the_nodes():
    assert Fig52Game.initial == f52.initial == 'A' and repr(f52) == '<Fig52Game>'  # noqa: F405
    assert f52.result('A', 'a2') == 'C' and f52.to_move('C') == 'MIN'
    assert f52.actions('C') == ['c1', 'c2', 'c3'] and f52.utility('C2', 'MIN') == -4
    with pytest.raises(KeyError):
        f52.result('A', 'b1')


def test_connect_four_is_aimas_numbered_and_printed_as_tic_tac_toe(capsys):
    """AIMA's pieces fall along x to line h, the last line display prints."""
    game = ConnectFour()  # noqa: F405
    assert game.actions(game.initial) == [(7, y) for y in range(1, 7)]
    state = game.result(game.initial, (7, 4))
    assert game.actions(state) == [(6, 4), (7, 1), (7, 2), (7, 3), (7, 5), (7, 6)]
    game.display(state)
    assert capsys.readouterr().out == '. . . . . . \n' * 6 + '. . . X . . \n'
    assert repr(game) == '<ConnectFour>' and isinstance(game, TicTacToe)  # noqa: F405
    assert game.result(state, (1, 1)).board == {(7, 4): 'X', (1, 1): 'O'}  # any empty square


def test_the_registry_keeps_its_own_games():
    import variants
    game = variants.make('connect4')
    assert repr(game) == 'connect4(h=7, v=6, k=4)'
    assert not isinstance(game, ConnectFour)  # noqa: F405
    assert game.actions(game.initial) == [(x, 1) for x in range(1, 8)]
    assert game.parse_move('4', game.initial) == (4, 1)
    assert type(variants.make('tictactoe')) is not TicTacToe  # noqa: F405
    assert type(variants.make('fig52')) is not Fig52Game  # noqa: F405
    assert variants.make('fig52').initial.board == 'A'


def test_tic_tac_toe_is_aimas_lists_dicts_and_illegal_moves_without_effect():
    state = ttt.result(ttt.initial, (2, 2))
    assert ttt.result(state, (2, 2)) is state and ttt.result(state, (5, 5)) is state
    assert type(state.board) is dict and type(state.moves) is list and repr(ttt) == '<TicTacToe>'
    state.moves.remove((1, 1))  # as a student's code may: the state is the student's
    assert (1, 1) not in state.moves and (1, 1) in ttt.initial.moves


def test_gomoku_is_aima_five_in_a_row():
    game = Gomoku()  # noqa: F405
    assert (game.h, game.v, game.k) == (15, 16, 5) and isinstance(game, TicTacToe)  # noqa: F405
    assert game.actions(game.initial)[:3] == [(1, 1), (1, 2), (1, 3)]  # AIMA's order
    state = game.initial
    for move in ((1, 1), (1, 16), (2, 2), (2, 16), (3, 3), (3, 16), (4, 4), (4, 16)):
        state = game.result(state, move)
    assert not game.terminal_test(state)
    state = game.result(state, (5, 5))
    assert game.terminal_test(state) and game.utility(state, 'X') == 1


def test_query_player_reads_a_tuple(monkeypatch, capsys):
    typed = iter(['(1, 2)'])
    monkeypatch.setattr('builtins.input', lambda prompt='': next(typed))
    assert query_player(ttt, ttt.initial) == (1, 2)  # noqa: F405
    typed = iter(['__import__("os").getcwd()', "'a2'"])
    assert query_player(f52, f52.initial) == 'a2'  # noqa: F405  (a folder is no move)
    assert 'illegal move, try again' in capsys.readouterr().out


def test_query_player_evaluates_what_is_typed(monkeypatch, capsys):
    """As aima-python's does: eval among AIMA's names, with game, state and the move
    typed before; a name it does not know is the text typed."""
    typed = iter(['state.moves[4]', 'vector_add((1, 1), (1, 2))', 'max(game.actions(state))',
                  'b9', 'move', "'a3'"])
    monkeypatch.setattr('builtins.input', lambda prompt='': next(typed))
    assert query_player(ttt, ttt.initial) == (2, 2)  # noqa: F405
    assert query_player(ttt, ttt.initial) == (2, 3)  # noqa: F405
    assert query_player(ttt, ttt.initial) == (3, 3)  # noqa: F405
    assert query_player(f52, 'A') == 'a3'  # noqa: F405  ('b9', then 'b9' again, then 'a3')
    assert capsys.readouterr().out.count('illegal move, try again') == 2


def test_query_player_raises_what_eval_raises_but_a_name_error(monkeypatch):
    typed = iter(['2 2'])
    monkeypatch.setattr('builtins.input', lambda prompt='': next(typed))
    with pytest.raises(SyntaxError):
        query_player(ttt, ttt.initial)  # noqa: F405


def test_no_import_cycle_at_start_up():
    code = ('import sys, games; assert "players" not in sys.modules; '
            'from games import alpha_beta_player, query_player; '
            'assert "players" in sys.modules; print(alpha_beta_player.__name__)')
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == 'alpha_beta_player'
    with pytest.raises(ImportError, match='cannot import name'):
        from games import no_such_name  # noqa: F401


def aima_cutoff_search(state, game, d=4):
    """AIMA's alpha_beta_cutoff_search as the book and aima-python give it, with its
    default evaluation, the utility; return its move and its number of result calls."""
    player, calls = game.to_move(state), [0]

    def child(s, a):
        calls[0] += 1
        return game.result(s, a)

    def max_value(s, alpha, beta, depth):
        if depth > d or game.terminal_test(s):
            return game.utility(s, player)
        v = -infinity  # noqa: F405
        for a in game.actions(s):
            v = max(v, min_value(child(s, a), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(s, alpha, beta, depth):
        if depth > d or game.terminal_test(s):
            return game.utility(s, player)
        v = infinity  # noqa: F405
        for a in game.actions(s):
            v = min(v, max_value(child(s, a), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best_score, best_action = -infinity, None  # noqa: F405
    for a in game.actions(state):
        v = min_value(child(state, a), best_score, infinity, 1)  # noqa: F405
        if v > best_score:
            best_score, best_action = v, a
    return best_action, calls[0]


class CountingTicTacToe(TicTacToe):  # noqa: F405
    """Tic-tac-toe that counts its result calls."""

    calls = 0

    def result(self, state, move):
        self.calls += 1
        return super().result(state, move)


@pytest.mark.parametrize('d', [1, 2, 4])
def test_cutoff_search_is_aimas_move_for_move_and_call_for_call(d):
    rng = random.Random(d)  # noqa: F405
    game = CountingTicTacToe()
    for _ in range(25):
        state = game.initial
        for _ in range(rng.randrange(2, 6)):
            state = game.result(state, rng.choice(game.actions(state)))
        if game.terminal_test(state):
            continue
        game.calls = 0
        move = alpha_beta_cutoff_search(state, game, d=d)  # noqa: F405
        assert (move, game.calls) == aima_cutoff_search(state, TicTacToe(), d)  # noqa: F405
