"""Backgammon's rules, checked on positions worked out by hand: doubles, the bar,
hitting, blocked points, bearing off and using as much of the roll as possible."""

import json
import random

import pytest

from games import IllegalMoveError, StochasticGameState, referee, replay
from games.backgammon import Backgammon, BackgammonBoard, pip_counts
from players import PLAYER

GAME = Backgammon()


def position(white: dict, black: dict, bar=(0, 0), off=(0, 0), to_move='W', roll=None):
    """A state with W's and B's checkers given as {point: count}, rolled if roll is given."""
    points = [0] * 24
    for point, count in white.items():
        points[point - 1] = count
    for point, count in black.items():
        points[point - 1] = -count
    state = StochasticGameState(to_move=to_move, utility=0,
                                board=BackgammonBoard(tuple(points), bar, off), moves=(),
                                chance=None)
    return state if roll is None else GAME.outcome(state, roll)


def texts(state):
    """The legal moves in the usual notation."""
    return {GAME.describe_move(move) for move in state.moves}


def test_start_and_pips():
    start = GAME.initial
    assert GAME.is_chance_node(start) and start.to_move == 'W'
    assert pip_counts(start.board) == (167, 167)
    assert sum(count for count in start.board.points if count > 0) == 15


def test_opening_double_sixes_moves_four_times():
    """6-6: 24/18 (two checkers), 13/7 (five) and 8/2 (three) are open; 18/12 and 7/1 are
    B's points and 6 cannot bear off. Four steps from a, b, c with a <= 2, c <= 3:
    4 + 4 + 3 = 11 moves."""
    state = GAME.outcome(GAME.initial, (6, 6))
    assert len(state.moves) == 11
    assert all(len(move) == 4 for move in state.moves)
    assert '24/18 24/18 13/7 13/7' in texts(state)
    assert not any(step in text for text in texts(state) for step in ('18/12', '7/1'))


def test_opening_three_one():
    state = GAME.outcome(GAME.initial, (1, 3))
    assert len(state.moves) == 16
    assert '8/5 6/5' in texts(state) or '6/5 8/5' in texts(state)
    assert GAME.parse_move('8/5 6/5', state) == GAME.parse_move('6/5 8/5', state)
    assert GAME.parse_move('8/5 6/5', state) in state.moves


def test_the_bar_comes_first_and_blocked_points_block_it():
    """W has a checker on the bar; B holds 19-23, so only a 1 enters (on 24)."""
    black = {point: 2 for point in range(19, 24)}
    rolled = position({6: 14}, black, bar=(1, 0), roll=(1, 3))
    assert texts(rolled) == {'bar/24 6/3'}
    assert position({6: 14}, black, bar=(1, 0), roll=(2, 3)).moves == ((),)  # no entry: pass
    two_on_bar = position({6: 13}, black, bar=(2, 0), roll=(1, 3))
    assert texts(two_on_bar) == {'bar/24'}  # the second cannot enter, so nothing else moves


def test_a_hit_sends_the_blot_to_the_bar():
    state = position({13: 1}, {10: 1, 1: 14}, roll=(1, 3))
    move = GAME.parse_move('13/10* 10/9', state)
    after = GAME.result(state, move)
    assert after.board.bar == (0, 1) and after.board.points[9 - 1] == 1
    assert after.board.points[10 - 1] == 0 and after.to_move == 'B' and after.chance is None


def test_black_enters_from_its_bar_on_points_1_to_6():
    state = position({24: 2, 6: 13}, {12: 14}, bar=(0, 1), to_move='B', roll=(2, 5))
    assert all(move[0][0] == 0 for move in state.moves)  # B's bar is point 0
    assert 'bar/2 12/17' in texts(state) and 'bar/5 12/14' in texts(state)


def test_bearing_off():
    """W: two on 6, one on 2, twelve off; 6-5: a 6 bears off from 6, and the 5 must move
    6/1 (a checker remains above the 2, so the 5 cannot bear off from 2)."""
    state = position({6: 2, 2: 1}, {24: 15}, off=(12, 0), roll=(5, 6))
    assert texts(state) == {'6/1 6/off'}
    last = position({3: 1, 1: 1}, {24: 15}, off=(13, 0), roll=(5, 6))
    assert texts(last) == {'3/off 1/off'}  # the higher die bears off from the highest point
    end = GAME.result(last, last.moves[0])
    assert GAME.terminal_test(end) and GAME.utility(end, 'W') == 1 and GAME.utility(end, 'B') == -1


def test_no_bearing_off_before_every_checker_is_home():
    state = position({7: 1, 2: 1}, {24: 15}, off=(13, 0), roll=(1, 2))
    assert not any('off' in text for text in texts(state) if not text.startswith('7/'))
    assert '7/6 2/off' in texts(state)  # once home, the 2 bears off


def test_the_larger_die_when_only_one_can_be_played():
    """W's one checker on 24; B holds 17: 24/22 or 24/19 alone, never both, so the 5."""
    state = position({24: 1}, {17: 2}, off=(14, 13), roll=(2, 5))
    assert texts(state) == {'24/19'}


def test_as_much_of_the_roll_as_possible():
    """W on 24 and 13; B holds 16 and 18: 24/22 then 22/17 (the 5 from 22) uses both dice."""
    state = position({24: 1, 13: 1}, {16: 2, 18: 2, 11: 2, 8: 2}, off=(13, 7), roll=(2, 5))
    assert all(len(move) == 2 for move in state.moves) and state.moves


def test_illegal_moves_and_notation():
    state = GAME.outcome(GAME.initial, (1, 3))
    with pytest.raises(IllegalMoveError):
        GAME.result(state, ((24, 18),))
    with pytest.raises(IllegalMoveError):
        GAME.result(GAME.initial, ())  # the dice are still to be rolled
    with pytest.raises(IllegalMoveError):
        GAME.outcome(GAME.initial, (3, 1))
    for bad in ('24', 'x/y', '', '24-18'):
        with pytest.raises(ValueError):
            GAME.parse_move(bad, state)
    assert GAME.parse_move('((8, 5), (6, 5))', state) in state.moves


def test_random_games_keep_every_checker_and_replay():
    rng = random.Random(11)
    random.seed(11)
    record = referee.play(GAME, [PLAYER['random'], PLAYER['random']], rng=rng)
    assert record.termination == referee.NORMAL and record.winner in (0, 1)
    board = record.final_state.board
    white = sum(c for c in board.points if c > 0) + board.bar[0] + board.off[0]
    black = -sum(c for c in board.points if c < 0) + board.bar[1] + board.off[1]
    assert white == black == 15 and 15 in board.off
    data = json.loads(json.dumps({'moves': record.moves, 'rolls': record.rolls}))
    assert replay(GAME, data['moves'], data['rolls']) == record.final_state


def test_ab1_plays_backgammon():
    state = GAME.outcome(GAME.initial, (1, 3))
    assert PLAYER['ab1'](GAME, state) in state.moves
