"""Connect Four's compiled kernel (players/search/_connect4.c) beside its reference, the
pure Python search of players/search/connect4.py: the same values, moves and encoded
states, exact values from a table too small for the search, the arguments it
refuses, the boards it leaves to Python, and the setting that turns it off.
(test_connect4 runs each of its tests with both.)"""

import os
import random
import signal
import subprocess
import sys

import pytest

from games.grid import ConnectFour
from players.search import connect4
from players.bench.speed import connect_four_positions
from players.search.connect4 import Shape, Solver

from test_connect4 import NOT_BUILT, near_the_end, slow_value

compiled = connect4.compiled
pytestmark = pytest.mark.skipif(compiled is None, reason=NOT_BUILT)


def test_the_compiled_kernel_finds_the_values_and_moves_of_the_pure_search():
    """Random positions of the benchmark's sets and of other boards: the same value
    and the same first best move from a table of either kind."""
    rng = random.Random(4)
    cases = [(ConnectFour(), state) for moves in (28, 22, 18)
             for _, state in connect_four_positions(moves, 8)]
    cases += [(game, near_the_end(game, rng, empty)) for game, empty in
              [(ConnectFour(5, 4), 16), (ConnectFour(4, 7), 18), (ConnectFour(6, 5), 20)] * 3]
    for game, state in cases:
        shape = Shape.of(game.h, game.v)
        position = shape.encode(state)
        pure = Solver(shape, {}).best_move(*position)
        assert Solver(shape, compiled.Table(game.h, game.v)).best_move(*position) == pure


def test_a_compiled_table_too_small_for_the_search_still_gives_exact_values():
    """Entries pushed out of a table of 8 slots cost searching again, never a wrong value
    (on test_connect4's positions further from the end, whose values it may have found)."""
    game = ConnectFour(5, 4)
    shape = Shape.of(5, 4)
    rng = random.Random(29)
    for _ in range(4):
        state = near_the_end(game, rng, 12)
        solver = Solver(shape, compiled.Table(5, 4, bits=3))
        assert solver.value(*shape.encode(state)) == slow_value(game, state)


@pytest.mark.parametrize('arguments', [(1 << 60, 1 << 60, 1, 0, 0, None),  # off the board
                                       (1, 0, 1, 0, 0, None),   # a stone not on the board's mask
                                       (0, 0, 0, 2, 0, None),   # alpha not a value
                                       (0, 0, 42, 0, 0, None),  # more moves than squares
                                       (-1, 0, 0, 0, 0, None),
                                       (0, 0, 0, 0, 0, 'soon')])
def test_the_compiled_kernel_refuses_what_is_not_a_position_of_its_board(arguments):
    with pytest.raises((ValueError, TypeError, OverflowError)):
        compiled.Table(7, 6).negamax(*arguments)


def test_the_compiled_kernel_encodes_a_state_as_the_shape_does():
    rng = random.Random(6)
    states = [(ConnectFour(), state) for moves in (1, 9, 30)
              for _, state in connect_four_positions(moves, 4)]
    states += [(game, near_the_end(game, rng, empty)) for game, empty in
               [(ConnectFour(5, 4), 10), (ConnectFour(4, 7), 3), (ConnectFour(15, 3), 20)]]
    for game, state in states + [(ConnectFour(), ConnectFour().initial)]:
        table = compiled.Table(game.h, game.v)
        assert table.encode(state.board, state.to_move) == Shape.of(game.h, game.v).encode(state)


@pytest.mark.parametrize('board', [{(8, 1): 'X'}, {(1, 7): 'X'}, {(0, 1): 'X'}, {(1, 0): 'O'},
                                   {(1,): 'X'}, {'a1': 'X'}, {(1, 'a'): 'X'}, [((1, 1), 'X')]])
def test_the_compiled_kernel_refuses_a_board_not_of_its_shape(board):
    with pytest.raises((ValueError, TypeError)):
        compiled.Table(7, 6).encode(board, 'X')


@pytest.mark.parametrize('arguments', [(1 << 60, 1 << 60, 1, None), (1, 0, 1, None),
                                       (0, 0, 42, None), (0, 0, 0, 'soon'), (0, 0, 0)])
def test_the_compiled_kernel_refuses_to_value_what_is_not_a_position_of_its_board(arguments):
    with pytest.raises((ValueError, TypeError)):
        compiled.Table(7, 6).value(*arguments)


@pytest.mark.parametrize('h, v', [(16, 3), (8, 7), (0, 6)])
def test_a_board_the_compiled_kernel_cannot_hold_is_searched_in_pure_python(h, v):
    with pytest.raises(ValueError):
        compiled.Table(h, v)
    if h:
        assert connect4.new_table(Shape.of(h, v)) == {}


def test_the_environment_can_turn_the_compiled_kernel_off():
    check = 'import players.search.connect4 as c4; print(c4.kernel is None, c4.compiled is None)'
    for setting, expected in (('1', 'True False'), ('', 'False False')):
        environment = dict(os.environ, AIMA_GAMES_PURE_PYTHON=setting)
        assert subprocess.run([sys.executable, '-c', check], env=environment, text=True,
                              capture_output=True, check=True).stdout.split() == expected.split()


def test_a_signal_stops_a_compiled_search_and_leaves_its_table_right():
    """A signal's handler (Ctrl-C's KeyboardInterrupt, here an alarm's) runs while
    the kernel searches, and what it raises ends the search."""
    def stop(signum, frame):
        raise TimeoutError
    shape, table = Shape.of(7, 6), compiled.Table(7, 6)
    before = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(TimeoutError):
            Solver(shape, table).value(0, 0, 0)  # the empty board: minutes of search
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    game = ConnectFour()
    state = near_the_end(game, random.Random(2), 11)
    assert Solver(shape, table).value(*shape.encode(state)) == slow_value(game, state)


@pytest.mark.parametrize('method, arguments', [('negamax', (0, 0, 0, 0, 0, None)),
                                               ('value', (0, 0, 0, None)), ('encode', ({}, 'X'))])
def test_a_table_never_made_is_refused(method, arguments):
    with pytest.raises(ValueError, match='never made'):
        getattr(compiled.Table.__new__(compiled.Table), method)(*arguments)
