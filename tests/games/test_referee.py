"""The referee: who moves, checked moves, forfeits and private copies."""

import pytest

from games import ConnectFour, Fig52Game, Nim, PlayerQuit, TicTacToe, referee


def first_move(game, state):
    return game.actions(state)[0]


def test_records_a_normal_game():
    record = referee.play(Nim(piles=(2,)), [first_move, first_move])
    assert record.moves == [(1, 1), (1, 1)] and record.plies == 2
    assert record.termination == referee.NORMAL and record.winner == 1
    assert record.utilities == (-1, 1) and record.score(1) == 1.0 and record.score(0) == 0.0


def test_asks_to_move_who_moves():
    """Figure 5.2: MAX then MIN; the referee follows to_move, not a blind rotation."""
    record = referee.play(Fig52Game(), [first_move, first_move])
    assert record.seats == ('MAX', 'MIN') and record.moves == ['a1', 'b1']


@pytest.mark.parametrize('bad, termination', [
    (lambda game, state: (9, 9), referee.ILLEGAL),
    (lambda game, state: None, referee.ILLEGAL),
    (lambda game, state: 1 / 0, referee.ERROR),
])
def test_a_faulty_player_forfeits(bad, termination):
    record = referee.play(TicTacToe(), [first_move, bad])
    assert record.termination == termination and record.offender == 1
    assert record.winner == 0 and record.detail


def test_a_player_cannot_change_the_referees_state():
    def vandal(game, state):
        dict.__setitem__(state.board, (3, 3), 'O')  # bypasses the read-only board
        game.initial = None
        return game.actions(state)[0]
    record = referee.play(TicTacToe(), [vandal, first_move], max_plies=2)
    assert (3, 3) not in record.final_state.board


def test_max_plies_adjudicates_a_draw():
    record = referee.play(ConnectFour(), [first_move, first_move], max_plies=3)
    assert record.termination == referee.ADJUDICATED and record.winner is None and record.plies == 3


def test_a_quitting_player_ends_the_game():
    def quitter(game, state):
        raise PlayerQuit('bye')
    with pytest.raises(PlayerQuit):
        referee.play(Nim(), [quitter, first_move])


def test_play_game_refuses_an_illegal_move():
    from games import IllegalMoveError
    with pytest.raises(IllegalMoveError):
        Nim(piles=(2,)).play_game(lambda game, state: (1, 3), first_move)
