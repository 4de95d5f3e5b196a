"""The jails of shipped players that a process keeps for its next games stay its
own: a process forked from it (a tournament's worker) starts without them."""

import os

import pytest
from jails import LEVELS

import players
import variants
from games import TicTacToe, referee
from players.remote import jailed_player
from players.remote.jailed_player import JailedPlayer, Setup, TimeControl, play_with_jails
from players.remote.plain_json import find_move
from players.remote.player_code import PlayerCode


def test_a_forked_child_inherits_no_kept_jail():
    jailed_player._idle.append((('ab2',), 'a jail of the parent'))
    try:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child says how many kept jails it sees
            os.write(write, str(len(jailed_player._idle)).encode())
            os._exit(0)
        os.close(write)
        os.waitpid(pid, 0)
        assert os.read(read, 16) == b'0' and len(jailed_player._idle) == 1
        os.close(read)
    finally:
        jailed_player._idle.clear()


VANDAL = '''
def player(game, state):
    """Keep a count on the game it is shown, which is the same one all game long (as
    in aima-python), scribble on it and on the state, then play the first move."""
    game.turns = getattr(game, 'turns', 0) + 1
    if game.turns != (len(state.board) + 1) // 2:
        raise AssertionError('not the game of my last move')
    move = game.actions(state)[0]
    game.initial, game.utility = None, lambda state, player: 99
    dict.clear(state.board)
    return move
'''
"""The second seat's player of tic-tac-toe, which changes what it is shown."""


@pytest.mark.parametrize('level', LEVELS)
def test_a_jailed_player_keeps_its_game_for_the_game_and_changes_nothing_of_the_jail(level):
    game, history = TicTacToe(), []
    setup = Setup('tictactoe', variants.make, players.load_player, level)
    stand_in = JailedPlayer(PlayerCode('vandal.py:player', VANDAL, 'vandal.py'), setup, '1',
                            history, TimeControl(10.0))
    try:
        record = play_with_jails(game, [first_move, stand_in], history)
    finally:
        stand_in.close()
    expected = referee.play(game, [first_move, first_move])
    assert (record.termination, record.moves) == (referee.NORMAL, expected.moves)


def first_move(game, state):
    """Play the first legal move."""
    return game.actions(state)[0]


@pytest.mark.parametrize('moves, plain, found', [
    ([(1, 2), (2, 1)], [2, 1], (2, 1)),        # the game's own move, not the list
    ([[1, 2], [2, 1]], [2, 1], [2, 1]),        # moves that are lists are found by their text
    ([1, True, 1.0], True, True),              # True is not 1, nor 1 the same as 1.0
    ([1.0, 1], 1, 1),
    (['a', ('a',)], ['a'], ('a',)),
    ([(1, 2)], [2, 1], None),
    (iter([(0, 0), (1, 1)]), [1, 1], (1, 1)),  # any iterable of moves
])
def test_a_plain_move_is_found_among_the_legal_moves_by_its_text(moves, plain, found):
    result = find_move(moves, plain)
    assert result == found and type(result) is type(found)
