"""The benchmark, every figure a cold start: each solve runs in a fresh Python
process that has imported the libraries and never searched, and the clock runs
from its first call, so building a board's tables is counted (a library's
import is not, for any solver).

Three tables: the engine's solve against the textbook's alpha_beta_search and,
when installed, easyAI and OpenSpiel, on start positions; Connect Four solved
on random positions beside Pascal Pons' C++ solver; the abN players' first
move on the empty Connect Four board."""

from __future__ import annotations

import gc
import multiprocessing
import random
import os
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections import namedtuple
from contextlib import contextmanager

from games.base import Game
from games.nim import GrundysGame, Nim
from games.grid import ConnectFour, TicTacToe

from players.search import engine
from players.search.shared import SearchStats
from .peers import PEERS, Unsupported, preload
from players.textbook import alpha_beta_search

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

PONS_MEDIANS = {32: 3.5e-6, 28: 2e-6, 24: 11e-6, 20: 55e-6, 16: 0.64e-3}
"""Pascal Pons' C++ solver (weak solve, no opening book, its table reset before
each position): median seconds on 40 random positions with this many moves
played, as measured in issue 13 (used when the bench is not given his solver)."""

CONNECT_FOUR_SEED = 13
CONNECT_FOUR_COUNT = 40
"""The seed of the random Connect Four positions, and how many per set."""

FIRST_MOVES = (8, 12)
"""The abN players timed on the empty Connect Four board."""

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


def timed(solve, args: tuple, limit: float) -> tuple:
    """Call solve(*args) -> (value, nodes) and return (value, nodes, seconds), or
    ('stopped', limit) past limit seconds, or ('unsupported', message). A value
    that is a function is called after the clock stops. The garbage left so far
    is collected before the clock starts, so no solver pays for another's."""
    gc.collect()
    try:
        with time_limit(limit):
            start = time.perf_counter()
            value, nodes = solve(*args)
            seconds = time.perf_counter() - start
    except TimeLimit:
        return ('stopped', limit)
    except Unsupported as error:
        return ('unsupported', str(error))
    return (value() if callable(value) else value, nodes, seconds)


def _child(connection, solve, args: tuple, limit: float) -> None:
    """Run timed in a fresh process and send back what it returns (the libraries
    the solver uses imported first, so that its time counts no import)."""
    preload(solve)
    connection.send(timed(solve, args, limit))
    connection.close()


def cold(solve, args: tuple, limit: float) -> tuple:
    """Return what timed(solve, args, limit) returns, run in a fresh Python process
    (spawned: it imports the modules, then calls solve for the first time)."""
    context = multiprocessing.get_context('spawn')
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, solve, args, limit), daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(limit + 30):
            return ('stopped', limit)
        return receiver.recv()
    except EOFError:
        return ('unsupported', 'the solver\'s process died')
    finally:
        receiver.close()
        process.join(5)
        if process.is_alive():
            process.kill()
            process.join()


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
    """Solve the start: (value, nodes)."""
    solution = engine.solve(game)
    return solution.value, solution.nodes


def _textbook(game: Game) -> tuple:
    """Solve the start with AIMA's alpha_beta_search: (value of its move, nodes);
    the value is a function, so that the engine's check of it is not timed."""
    counted = _Counted(game)
    move = alpha_beta_search(game.initial, counted)
    return (lambda: -engine.solve(game, game.result(game.initial, move)).value), counted.nodes


def measure(name: str, solve, game: Game, limit: float, repeat: int = 3, run=cold) -> Measure:
    """Time solve(game) -> (value, nodes), each run a cold start (run(solve, args,
    limit) gives its outcome): the best of up to repeat runs, repeating only
    runs under a second, stopping any run at limit seconds."""
    best = value = nodes = None
    for _ in range(repeat):
        outcome = run(solve, (game,), limit)
        if outcome[0] == 'stopped':
            return Measure(name, None, None, limit, f'stopped after {limit:g} s')
        if outcome[0] == 'unsupported':
            return Measure(name, None, None, None, outcome[1])
        value, nodes, seconds = outcome
        best = seconds if best is None else min(best, seconds)
        if seconds > 1:
            break
    return Measure(name, value, nodes, best, '')


def run(limit: float = 60.0, positions=POSITIONS, peers: bool = True, run=cold):
    """Measure every solver on every position, each run a cold start (run gives
    its outcome, as cold does); yield (position name, [Measure, ...])."""
    solvers = [(ENGINE, _engine), (TEXTBOOK, _textbook)]
    if peers:
        solvers += list(PEERS.items())
    for name, game in positions:
        yield name, [measure(solver, solve, game, limit, run=run) for solver, solve in solvers]


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


def connect_four_positions(moves: int, count: int = CONNECT_FOUR_COUNT,
                           seed: int = CONNECT_FOUR_SEED) -> list:
    """Return count (columns played, state) of Connect Four: moves random legal moves
    from the empty board, the same for a seed; never a finished game, nor one where
    the side to move can win at once (Pons' solver leaves those out)."""
    game, rng = ConnectFour(), random.Random(f'{seed}/{moves}')
    found: list[tuple] = []
    while len(found) < count:
        state, columns = game.initial, ''
        for _ in range(moves):
            move = rng.choice(game.actions(state))
            state, columns = game.result(state, move), columns + str(move[0])
            if game.terminal_test(state):
                break
        else:
            mover = game.to_move(state)
            if not any(game.utility(game.result(state, move), mover) > 0
                       for move in game.actions(state)):
                found.append((columns, state))
    return found


def _connect_four_value(game: Game, state) -> tuple:
    """Find the value of a position (a weak solve): (value, nodes)."""
    stats = SearchStats()
    result = engine.value(game, state, stats)
    return result, stats.nodes


ConnectFourSet = namedtuple('ConnectFourSet', 'moves, values, seconds, nodes, stopped')
ConnectFourSet.__doc__ = """The cold solves of one set of Connect Four positions: moves
played, the values, seconds and nodes of the positions solved, and how many were stopped."""


def run_connect_four(limit: float = 60.0, sets=tuple(PONS_MEDIANS), count: int = CONNECT_FOUR_COUNT,
                     run=cold):
    """Solve each set of random Connect Four positions, each in a cold process;
    yield a ConnectFourSet per set."""
    game = ConnectFour()
    for moves in sets:
        values, seconds, nodes, stopped = [], [], [], 0
        for _, state in connect_four_positions(moves, count):
            outcome = run(_connect_four_value, (game, state), limit)
            if outcome[0] in ('stopped', 'unsupported'):
                stopped += 1
                continue
            values.append(outcome[0])
            nodes.append(outcome[1])
            seconds.append(outcome[2])
        yield ConnectFourSet(moves, values, seconds, nodes, stopped)


def pons_medians(solver: str, sets=tuple(PONS_MEDIANS), count: int = CONNECT_FOUR_COUNT) -> dict:
    """Run Pascal Pons' solver on each set's positions and return {moves played:
    median seconds}. solver is the path of a c4solver built from his source, of a
    version that prints each position's microseconds after its score and nodes
    (his "Part 13" commit, 68a1da6, or an earlier one); it runs as a weak solve
    (-w) in an empty folder, so without an opening book, and resets its table
    before each position."""
    medians = {}
    with tempfile.TemporaryDirectory() as folder:
        for moves in sets:
            lines = ''.join(columns + '\n' for columns, _ in connect_four_positions(moves, count))
            output = subprocess.run([os.path.abspath(solver), '-w'], input=lines, text=True,
                                    capture_output=True, cwd=folder, check=True).stdout
            medians[moves] = statistics.median(
                int(line.split()[3]) for line in output.splitlines()) / 1e6
    return medians


def _duration(seconds: float) -> str:
    """Seconds as µs, ms or s, three figures or so."""
    if seconds < 1e-3:
        return f'{seconds * 1e6:.3g} µs'
    if seconds < 1:
        return f'{seconds * 1e3:.3g} ms'
    return f'{seconds:.3g} s'


def connect_four_row(result: ConnectFourSet, medians: dict = PONS_MEDIANS) -> list:
    """A table row for one set: Pons' median (from medians, by moves played), the
    engine's median and the ratio, the engine's largest time, the median nodes,
    and the positions solved."""
    pons = medians.get(result.moves)
    solved = len(result.seconds)
    median = statistics.median(result.seconds) if solved else None
    return [result.moves, _duration(pons) if pons else '–',
            _duration(median) if median is not None else '–',
            f'{median / pons:,.0f}x' if solved and pons else '–',
            _duration(max(result.seconds)) if solved else '–',
            f'{statistics.median(result.nodes):,.0f}' if solved else '–',
            f'{solved}/{solved + result.stopped}',
            ' '.join(f'{sum(v == value for v in result.values)}{name}'
                     for value, name in ((1, 'W'), (0, 'D'), (-1, 'L')))]


CONNECT_FOUR_HEADERS = ['moves played', 'Pons, median', 'engine, median (cold)', 'ratio',
                        'engine, max', 'nodes, median', 'solved', 'values (side to move)']


def _first_move(game: Game, depth: int) -> tuple:
    """Choose abN's first move on the empty board: (move, nodes)."""
    stats = SearchStats()
    move = engine.search(game, game.initial, depth, stats=stats).move
    return move, stats.nodes


def run_first_moves(limit: float = 60.0, depths=FIRST_MOVES, run=cold) -> list:
    """Time the abN players' first move on the empty Connect Four board, cold;
    return rows (player, move, nodes, ms)."""
    game, table = ConnectFour(), []
    for depth in depths:
        outcome = run(_first_move, (game, depth), limit)
        if outcome[0] in ('stopped', 'unsupported'):
            table.append([f'ab{depth}', '–', '–', f'{outcome[0]} ({outcome[1]})'])
        else:
            move, nodes, seconds = outcome
            table.append([f'ab{depth}', game.describe_move(move), f'{nodes:,}',
                          f'{seconds * 1000:.0f}'])
    return table


FIRST_MOVE_HEADERS = ['player', 'first move', 'nodes', 'ms (cold)']
