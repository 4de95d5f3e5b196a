"""The rules of every game: moves, terminal test, utility, misère, display."""

import pytest

from games import Board, GameState, GrundysGame, IllegalMoveError, Nim, NimState, TreeGame
from games.grid import ConnectFour, Gomoku, TicTacToe
from games.tree import Fig52Game


def play_moves(game, moves, state=None):
    """Return the state after playing moves from state (default: the start)."""
    state = game.initial if state is None else state
    for move in moves:
        state = game.result(state, move)
    return state


class TestNim:
    def test_moves_take_from_one_pile(self):
        game = Nim(piles=(1, 2))
        assert game.actions(game.initial) == [(1, 1), (2, 1), (2, 2)]
        assert game.result(game.initial, (2, 2)) == NimState(to_move='P2', board=(1, 0))

    def test_max_take_caps_a_take(self):
        game = Nim(piles=(5,), max_take=3)
        assert game.actions(game.initial) == [(1, 1), (1, 2), (1, 3)]
        with pytest.raises(IllegalMoveError):
            game.result(game.initial, (1, 4))

    @pytest.mark.parametrize('move', [(1, 0), (3, 1), (0, 1), (1, 2), 'x', (1,), None, (1.0, 1)])
    def test_illegal_moves_are_refused(self, move):
        game = Nim(piles=(1, 2))
        with pytest.raises(IllegalMoveError):
            game.result(game.initial, move)

    def test_normal_play_last_to_move_wins(self):
        game = Nim(piles=(2,))
        end = play_moves(game, [(1, 2)])
        assert game.terminal_test(end)
        assert game.utility(end, 'P1') == 1 and game.utility(end, 'P2') == -1

    def test_misere_last_to_move_loses(self):
        game = Nim(piles=(2,), misere=True)
        end = play_moves(game, [(1, 2)])
        assert game.utility(end, 'P1') == -1 and game.utility(end, 'P2') == 1

    def test_simple_nim(self):
        game = Nim(piles=(12,), misere=True, max_take=3)
        state = play_moves(game, [(1, 3)] * 3 + [(1, 2)])
        assert state.board == (1,) and state.to_move == 'P1'
        end = game.result(state, (1, 1))
        assert game.utility(end, 'P1') == -1

    @pytest.mark.parametrize('kwargs', [dict(piles=(-1,)), dict(piles=()), dict(piles=(1.5,)),
                                        dict(max_take=0)])
    def test_bad_parameters(self, kwargs):
        with pytest.raises(ValueError):
            Nim(**kwargs)

    def test_repr_is_its_spec(self):
        assert repr(Nim(piles=(1, 3, 5, 7), misere=True)) == 'nim(piles=(1, 3, 5, 7), misere=True)'


class TestGrundysGame:
    def test_splits_into_unequal_piles(self):
        game = GrundysGame(pile=7)
        assert game.actions(game.initial) == [(1, 1), (1, 2), (1, 3)]
        assert game.result(game.initial, (1, 3)).board == (4, 3)

    def test_piles_of_one_and_two_cannot_split(self):
        game = GrundysGame(pile=4)
        state = game.result(game.initial, (1, 1))  # (3, 1)
        state = game.result(state, (1, 1))  # (2, 1, 1)
        assert game.terminal_test(state)
        assert game.utility(state, 'P1') == -1  # P1 is to move and cannot: P1 loses
        with pytest.raises(IllegalMoveError):
            game.result(game.initial, (1, 2))  # 2 + 2 is not unequal


class TestTicTacToe:
    def test_start(self):
        game = TicTacToe()
        assert len(game.actions(game.initial)) == 9 and game.initial.to_move == 'X'

    def test_row_wins(self):
        game = TicTacToe()
        end = play_moves(game, [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1)])
        assert game.terminal_test(end)
        assert game.utility(end, 'X') == 1 and game.utility(end, 'O') == -1

    def test_diagonal_wins_for_o(self):
        game = TicTacToe()
        end = play_moves(game, [(1, 2), (1, 1), (2, 1), (2, 2), (1, 3), (3, 3)])
        assert game.utility(end, 'O') == 1

    def test_full_board_draw(self):
        game = TicTacToe()
        end = play_moves(game, [(1, 1), (2, 2), (3, 3), (1, 2), (3, 2), (3, 1), (1, 3), (2, 3), (2, 1)])
        assert game.terminal_test(end) and game.utility(end, 'X') == 0

    def test_taken_square_is_illegal_not_ignored(self):
        game = TicTacToe()
        state = game.result(game.initial, (2, 2))
        with pytest.raises(IllegalMoveError):
            game.result(state, (2, 2))

    def test_board_cannot_be_changed(self):
        game = TicTacToe()
        state = game.result(game.initial, (2, 2))
        with pytest.raises(TypeError):
            state.board[(1, 1)] = 'O'
        assert state.board.copy() == {(2, 2): 'X'}

    def test_aima_style_states_work(self):
        game = TicTacToe()
        state = GameState(to_move='O', utility=0, board={(1, 1): 'X'},
                          moves=[(x, y) for x in (1, 2, 3) for y in (1, 2, 3) if (x, y) != (1, 1)])
        assert game.result(state, (2, 2)).board == Board({(1, 1): 'X', (2, 2): 'O'})

    def test_evaluate_favours_the_centre(self):
        game = TicTacToe()
        centre, edge = game.result(game.initial, (2, 2)), game.result(game.initial, (1, 2))
        assert game.evaluate(centre, 'X') > game.evaluate(edge, 'X') > 0
        assert -1 < game.evaluate(centre, 'O') < 0

    def test_k_larger_than_board(self):
        with pytest.raises(ValueError):
            TicTacToe(h=3, v=3, k=4)


class TestConnectFour:
    def test_first_player_has_seven_moves(self):
        game = ConnectFour()
        assert game.actions(game.initial) == [(x, 1) for x in range(1, 8)]

    def test_pieces_drop_and_columns_fill(self):
        game = ConnectFour()
        state = play_moves(game, [(4, y) for y in range(1, 7)])
        assert all(square[0] != 4 for square in game.actions(state))
        assert len(game.actions(state)) == 6
        assert game.parse_move('3', state) == (3, 1)
        with pytest.raises(ValueError):
            game.parse_move('4', state)

    def test_four_in_a_column_wins(self):
        game = ConnectFour()
        end = play_moves(game, [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3), (1, 4)])
        assert game.terminal_test(end) and game.utility(end, 'X') == 1

    def test_floating_square_is_illegal(self):
        game = ConnectFour()
        with pytest.raises(IllegalMoveError):
            game.result(game.initial, (1, 2))


class TestFig52:
    def test_tree(self):
        game = Fig52Game()
        assert game.actions(game.initial) == ['a1', 'a2', 'a3']
        b = game.result(game.initial, 'a1')
        assert game.to_move(b) == 'MIN'
        leaf = game.result(b, 'b2')
        assert game.terminal_test(leaf) and game.utility(leaf, 'MAX') == 12

    def test_bare_node_names_work(self):
        game = Fig52Game()
        assert game.actions('C') == ['c1', 'c2', 'c3'] and game.to_move('C') == 'MIN'

    def test_numbered_nodes_are_described_as_text(self):
        game = TreeGame({1: {'a': 2}}, {2: 5}, initial=1)
        assert game.describe_state(game.initial) == '1'
        assert game.describe_state(game.result(game.initial, 'a')) == '2'


def test_display_shows_piles_and_grid(capsys):
    Nim(piles=(2, 3)).display(Nim(piles=(2, 3)).initial)
    ttt = TicTacToe()
    ttt.show(ttt.result(ttt.initial, (1, 3)))
    out = capsys.readouterr().out
    assert ' 1 | o o (2)' in out and ' 2 | o o o (3)' in out
    assert ' 3 X . .' in out and '   1 2 3' in out
    ttt.display(ttt.result(ttt.initial, (1, 3)))  # AIMA's: a line for each x
    assert capsys.readouterr().out == '. . X \n. . . \n. . . \n'


def test_gomoku_takes_any_empty_square_and_nothing_else():
    """Its actions put the squares near the stones first; any empty square is legal,
    wherever it is, and a taken or missing square is not."""
    game = Gomoku(9, 9, 5)
    state = play_moves(game, [(5, 5), (5, 6)])
    assert (1, 9) not in game.near(state.board)
    assert game.result(state, (1, 9)).board[(1, 9)] == 'X'
    for illegal in [(5, 5), (10, 1), (0, 3), [1, 9], 'a1']:
        with pytest.raises(IllegalMoveError):
            game.result(state, illegal)
        with pytest.raises(IllegalMoveError):
            game.check_move(state, illegal)


def test_a_gomoku_whose_actions_are_its_own_is_held_to_them():

    class NearOnly(Gomoku):
        def actions(self, state):
            return [square for square in state.moves if square in self.near(state.board)]
    game = NearOnly(9, 9, 5)
    state = play_moves(game, [(5, 5)])
    for rule in (game.result, game.check_move):
        with pytest.raises(IllegalMoveError):
            rule(state, (1, 9))
