"""The benchmark: the engine's solve against the textbook's alpha_beta_search
and, when installed, easyAI and OpenSpiel, on the same start positions."""

from __future__ import annotations

import signal
import threading
import time
from collections import namedtuple
from contextlib import contextmanager

from games import Game, GrundysGame, Nim, TicTacToe

from . import engine
from .peers import PEERS, Unsupported
from .textbook import alpha_beta_search

POSITIONS = [
    ('tic-tac-toe 3x3', TicTacToe()),
    ('normal Nim (3, 4, 5)', Nim((3, 4, 5))),
    ('misère Nim (1, 3, 5, 7)', Nim((1, 3, 5, 7), misere=True)),
    ('normal Nim (2, 3, 5, 7)', Nim((2, 3, 5, 7))),
    ('misère Nim (3, 5, 7, 9)', Nim((3, 5, 7, 9), misere=True)),
    ('misère Nim (2, 4, 6, 8, 10)', Nim((2, 4, 6, 8, 10), misere=True)),
    ('normal Nim (4, 6, 8, 10, 12)', Nim((4, 6, 8, 10, 12))),
    ('misère Nim (3, 5, 7, 9, 11, 13)', Nim((3, 5, 7, 9, 11, 13), misere=True)),
    ("Grundy's game 40", GrundysGame(40)),
    ('tic-tac-toe 4x4, 3 in a row', TicTacToe(4, 4, 3)),
]
"""(name, game) of the positions measured: each game's start."""

Measure = namedtuple('Measure', 'solver, value, nodes, seconds, note')
Measure.__doc__ = """One solver on one position: its value (None if it did not finish),
nodes (None if unknown), the best time in seconds (the time limit if it was stopped,
None if it could not run), and a note."""

TEXTBOOK = 'textbook alpha_beta_search'
ENGINE = 'engine solve'


class TimeLimit(Exception):
    """A solver ran past the benchmark's time limit."""


@contextmanager
def time_limit(seconds: float):
    """Raise TimeLimit in the block after seconds (where the platform has SIGALRM)."""
    if not hasattr(signal, 'setitimer') or threading.current_thread() != threading.main_thread():
        yield
        return

    def stop(signum, frame):
        raise TimeLimit

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Counted:
    """A game that counts the states its result method makes (the root counts as one)."""

    def __init__(self, game: Game):
        self.game, self.nodes = game, 1

    def result(self, state, move):
        """The game's result, counted."""
        self.nodes += 1
        return self.game.result(state, move)

    def __getattr__(self, name):
        return getattr(self.game, name)


def _engine(game: Game) -> tuple:
    """Solve the start with a cold table: (value, nodes)."""
    engine.clear_tables()
    solution = engine.solve(game)
    return solution.value, solution.nodes


def _textbook(game: Game) -> tuple:
    """Solve the start with AIMA's alpha_beta_search: (value of its move, nodes);
    the value is a function, so that the engine's check of it is not timed."""
    counted = _Counted(game)
    move = alpha_beta_search(game.initial, counted)
    return (lambda: -engine.solve(game, game.result(game.initial, move)).value), counted.nodes


def measure(name: str, solve, game: Game, limit: float, repeat: int = 3) -> Measure:
    """Time solve(game) -> (value, nodes): the best of up to repeat runs,
    repeating only runs under a second, stopping any run at limit seconds.
    A value that is a function is called after the clock stops."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            with time_limit(limit):
                value, nodes = solve(game)
        except TimeLimit:
            return Measure(name, None, None, limit, f'stopped after {limit:g} s')
        except Unsupported as error:
            return Measure(name, None, None, None, str(error))
        seconds = time.perf_counter() - start
        best = seconds if best is None else min(best, seconds)
        if seconds > 1:
            break
    return Measure(name, value() if callable(value) else value, nodes, best, '')


def run(limit: float = 60.0, positions=POSITIONS, peers: bool = True):
    """Measure every solver on every position; yield (position name, [Measure, ...])."""
    solvers = [(ENGINE, _engine), (TEXTBOOK, _textbook)]
    if peers:
        solvers += list(PEERS.items())
    for name, game in positions:
        engine.solve(game)  # build the game's fixed tables once, untimed
        yield name, [measure(solver, solve, game, limit) for solver, solve in solvers]


def rows(name: str, measures: list) -> list:
    """Table rows for one position: a row per solver, with the speed-up over it
    (at least the time limit over the engine's time for a solver that was stopped)
    and whether its value agrees with the engine's."""
    ours = measures[0]
    result = []
    for measure_ in measures:
        finished = measure_.value is not None
        speed_up = ''
        if measure_ is not ours and measure_.seconds is not None:
            speed_up = f'{"" if finished else "> "}{measure_.seconds / ours.seconds:,.0f}x'
        result.append([
            name, measure_.solver,
            f'{measure_.value:g}' if finished else '–',
            measure_.nodes if finished and measure_.nodes is not None else '–',
            f'{measure_.seconds * 1000:.2f}' if finished else '–',
            f'{measure_.nodes / measure_.seconds:,.0f}' if finished and measure_.nodes else '–',
            speed_up,
            ('yes' if measure_.value == ours.value else 'NO') if finished else measure_.note])
        name = ''
    return result


HEADERS = ['position', 'solver', 'value', 'nodes', 'ms', 'nodes/s', 'engine faster by', 'agrees']
