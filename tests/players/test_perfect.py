"""The perfect player: game theory's winning moves, and search where theory stops."""

import time

import pytest
from theory import grundy_split_value, mover_wins, small_games

from games import GrundysGame, Nim, NimState
from games.grid import ConnectFour, TicTacToe
from games.tree import Fig52Game
from players import PLAYER, perfect_player, solve
from players.perfect import grundy_value, theory_move


@pytest.mark.parametrize('game, state', [case for case in small_games()
                                         if not case[0].terminal_test(case[1])],
                         ids=lambda item: repr(item) if not isinstance(item, NimState) else
                         f'{item.to_move}{item.board}')
def test_perfect_leaves_a_lost_position_whenever_it_can(game, state):
    move = perfect_player(game, state)
    assert move in game.actions(state)
    after = game.result(state, move)
    if mover_wins(game, state):
        assert game.terminal_test(after) and game.utility(after, state.to_move) > 0 or \
            not game.terminal_test(after) and not mover_wins(game, after)
    engine_value = solve(game, state).value
    assert engine_value == (1 if mover_wins(game, state) else -1)


def test_larger_positions_by_theory_in_microseconds():
    cases = [(Nim((2, 4, 6, 8, 10, 12, 14), misere=True), (2, 4, 6, 8, 10, 12, 14)),
             (Nim((9, 17, 33, 65)), (9, 17, 33, 65)),
             (Nim((30, 41, 52), max_take=7), (30, 41, 52)),
             (GrundysGame(60), (60, 23, 17))]
    for game, piles in cases:
        state = NimState('P1', piles)
        start = time.perf_counter()
        move = perfect_player(game, state)
        assert time.perf_counter() - start < 0.1
        after = game.result(state, move)
        assert not mover_wins(game, after) or not mover_wins(game, state)


def test_sprague_grundy_values_agree():
    assert [grundy_value(pile) for pile in range(40)] == [grundy_split_value(p) for p in range(40)]


def test_theory_stops_where_it_should():
    capped_misere = Nim((3, 4), misere=True, max_take=2)
    assert theory_move(capped_misere, capped_misere.initial) is NotImplemented
    assert theory_move(TicTacToe(), TicTacToe().initial) is NotImplemented


def test_perfect_takes_states_without_a_board():
    # AIMA's tests pass a tree's bare node names; theory_move used to read state.board first.
    game = Fig52Game()
    assert theory_move(game, 'A') is NotImplemented
    assert perfect_player(game, 'A') == 'a1' and perfect_player(game, 'B') == 'b1'


@pytest.mark.parametrize('game', [TicTacToe(), TicTacToe(3, 3, 2)])
def test_perfect_plays_the_solved_move_elsewhere(game):
    state = game.result(game.initial, (1, 1))
    assert perfect_player(game, state) == solve(game, state).move


def test_perfect_is_registered():
    assert PLAYER['perfect'] is perfect_player
    game = ConnectFour(4, 4, 3)
    state = game.initial
    for move in [(1, 1), (2, 1), (1, 2), (2, 2)]:
        state = game.result(state, move)
    assert perfect_player(game, state) == (1, 3)
