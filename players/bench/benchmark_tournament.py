#!/usr/bin/env python3
"""Benchmark the tournament runner (not a test; pytest does not collect it).

    python players/bench/benchmark_tournament.py                    # every figure
    python players/bench/benchmark_tournament.py --goals            # the goals' rows alone
    python players/bench/benchmark_tournament.py --baseline REV     # another anchor commit

Prints the wall time of a class tournament of ten students' files at each jail level,
beside the same run of the anchor commit (b72f42f, the last before jails, unless
--baseline names another; the runs interleaved), the same class handing in folders
(a player.py, a helper module and a data file each) beside single files, what
importing an allowed package (numpy) adds to a jail's start, the default run beside
the anchor's, the --jobs 1 against --jobs 2 speed-up on a tournament of 300 heavy
games, what a jail costs (its start-up a game, at each level, and its protocol a
move, for a Python player and for a program in Python speaking JSON lines), the peak
memory (resident set) of runs of growing size, which should stay flat because records
stream to the store, and last the goals' table: each beside its anchor and its goal."""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time

import tabulate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

import variants  # noqa: E402  (after the path is set)
from players import load_player  # noqa: E402
from players.remote import program  # noqa: E402
from players.remote.jailed_player import Setup, event  # noqa: E402
from players.remote.player_code import read_code, read_player  # noqa: E402
from players.sandbox import level_choice  # noqa: E402
from players.sandbox.allowed import allowed_packages  # noqa: E402

PLAYERS = ','.join(['random', 'minimax', 'perfect'] + [f'ab{n}' for n in range(1, 21)] + ['mcts'])
"""The 24 players of the default run before games of chance came."""
DEFAULT = ['--players', PLAYERS, '--variants', 'simple-nim', 'nim', 'misere-nim', 'nim-limit',
           'split-nim', 'tictactoe']
"""The default run before games of chance: 3312 games, the same on any commit."""
SPEEDUP = ['--players', 'mcts,ab3,random', '--variants', 'tictactoe', 'misere-nim',
           '--games', '25', '--openings', '2']
"""3 players, 3 pairings, 2 variants, 25 pairs of 2 games: 300 games, most with mcts."""
MEMORY = ['--players', 'random,ab1', '--variants', 'simple-nim']
ANCHOR = 'b72f42f'
"""The commit the class tournament is timed against: the last before jails."""
CLASS_GOAL = 1.5
"""The class tournament's goal: at most this many times the anchor's wall time."""
SPEEDUP_GOAL = 1.8
"""The --jobs 2 speed-up's goal: at least this."""
GOAL_HEADERS = ['Measure', 'Anchor', 'Now', 'Ratio', 'Goal', '']  # the goals' table
CLASS_VARIANTS = ['--variants', 'simple-nim', 'tictactoe', 'nim', '--games', '1']
"""The class workload: ten students, random and ab2 on three games, a pair of games a
pairing: 66 pairings x 3 variants x 2 = 396 games."""
STUDENT = os.path.join(ROOT, 'tests', 'students', 'cutoff_correct.py')
"""A student's file with AIMA's alpha-beta with a cut-off, written out."""
PLAYER = '''

def player(game, state):
    me = game.to_move(state)

    def score(s):
        return game.utility(s, me) if game.terminal_test(s) else 0
    return alpha_beta_cutoff_search(state, game, d=DEPTH, eval_fn=score)
'''
"""The player that completes it, the template filled in: alpha-beta to a depth of its
own (0 to 2: one to three plies)."""
FOLDER_PLAYER = '''import json
import os

from search import *  # noqa: F401,F403  (the student's search, a module of the folder)

with open(os.path.join(os.path.dirname(__file__), 'depth.json')) as file:
    DEPTH = json.load(file)
''' + PLAYER
"""The same player as the player.py of a folder, with its search and depth beside it."""
FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'
FIRST_MOVE_PROGRAM = '''#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message['type'] == 'start':
        print('{"type": "ready"}', flush=True)
    elif message['type'] == 'move':
        print(json.dumps({'move': message['legal'][0]}), flush=True)
'''
"""The first-move player as a program of its own (run by the system's python3)."""


def timed_run(*args: str, root: str = ROOT) -> tuple[float, float, float]:
    """Run python tournament.py with args in root; return its wall time in seconds, the CPU
    seconds of it and the children it waited for (workers that are killed at the end, as
    this tree's are, are not counted), and the peak resident memory in MB of its largest process."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, 'tournament.py', *args], cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status):
        errors = process.stderr.read().decode() if process.stderr else ''
        sys.exit(f'tournament {" ".join(args)} failed: {errors}')
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def interleaved(runs: dict, repeat: int) -> dict:
    """Run each of runs (label: (args, root)) repeat times, taking turns, so that
    all see the same background load; return the best (wall, CPU, MB) of each."""
    times: dict = {label: [] for label in runs}
    for _ in range(repeat):
        for label, (args, root) in runs.items():
            times[label].append(timed_run(*args, root=root))
    return {label: min(measured) for label, measured in times.items()}


def default_run(baseline: str | None, repeat: int) -> None:
    """Print the default run's time, beside the baseline commit's when given."""
    if baseline is None:
        seconds, _, _ = timed_run()
        print(f'default run (python tournament.py): {seconds:.1f} s')
        return
    with tempfile.TemporaryDirectory() as folder:
        with worktree(baseline, folder) as old:
            best = interleaved({baseline: (DEFAULT, old), 'this tree': (DEFAULT, ROOT)}, repeat)
    print(f'the default run of 3312 games ({len(PLAYERS.split(","))} players, 6 variants), '
          f'best of {repeat}, interleaved:')
    for label, (seconds, _, _) in best.items():
        print(f'  {label}: {seconds:.1f} s wall')
    print(f'  ratio: {best["this tree"][0] / best[baseline][0]:.2f}x the baseline\'s wall time')


def class_workload(baseline: str | None, repeat: int) -> list[list]:
    """Print the wall time of the class tournament (see CLASS_VARIANTS) at each jail
    level, beside the baseline commit's when given (which may know no levels);
    return a row of GOAL_HEADERS for each level measured beside the baseline."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        specs = []
        with open(STUDENT) as file:
            search = file.read()
        for number in range(10):
            path = os.path.join(folder, f'student{number}.py')
            with open(path, 'w') as file:
                file.write(search + PLAYER.replace('DEPTH', str(number % 3)))
            specs.append(f'{path}:player')
        workload = ['--players', ','.join(specs + ['random', 'ab2']), *CLASS_VARIANTS]
        runs = {f'this tree, {level}': ([*workload, '--sandbox', level], ROOT)
                for level in level_choice.workable()}
        with worktree(baseline, folder) as old:
            if baseline is not None and old is not None:
                runs = {baseline: (workload, old), **runs}
            best = interleaved(runs, repeat)
    print(f'a class tournament (10 students, random and ab2; 396 games), best of {repeat}, '
          'interleaved:')
    for label, (seconds, _, _) in best.items():
        ratio = f' ({seconds / best[baseline][0]:.2f}x {baseline})' if baseline else ''
        print(f'  {label}: {seconds:.1f} s wall{ratio}')
    if not baseline:
        return []
    return [[f'class tournament, 396 games, {label.split(", ")[1]}',
             f'{baseline}: {best[baseline][0]:.1f} s', f'{seconds:.1f} s',
             f'{seconds / best[baseline][0]:.2f}x', f'at most {CLASS_GOAL:g}x',
             _met(seconds / best[baseline][0] <= CLASS_GOAL)]
            for label, (seconds, _, _) in best.items() if label != baseline]


def class_folders(repeat: int) -> None:
    """Print the wall time of the class tournament with each student's player handed
    in as a folder (player.py importing its search from a helper module, and
    reading its depth from a data file) beside the same players as single files,
    at each jail level."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        with open(STUDENT) as file:
            search = file.read()
        files, folders = [], []
        for number in range(10):
            path = os.path.join(folder, f'student{number}.py')
            with open(path, 'w') as file:
                file.write(search + PLAYER.replace('DEPTH', str(number % 3)))
            files.append(path)
            submission = os.path.join(folder, f'handed{number}')
            os.mkdir(submission)
            for name, text in (('search.py', search), ('depth.json', str(number % 3)),
                               ('player.py', FOLDER_PLAYER)):
                with open(os.path.join(submission, name), 'w') as file:
                    file.write(text)
            folders.append(submission)
        runs = {}
        for level in level_choice.workable():
            for kind, specs in (('files', files), ('folders', folders)):
                runs[level, kind] = (['--players', ','.join(specs + ['random', 'ab2']),
                                      *CLASS_VARIANTS, '--sandbox', level], ROOT)
        best = interleaved(runs, repeat)
    print(f'the class tournament handed in as folders, beside single files, best of {repeat}, '
          'interleaved:')
    for level in dict.fromkeys(level for level, _ in best):
        files_time, folders_time = best[level, 'files'][0], best[level, 'folders'][0]
        print(f'  {level}: files {files_time:.1f} s, folders {folders_time:.1f} s wall '
              f'({folders_time / files_time:.2f}x)')


def allowed_import(count: int = 100) -> None:
    """Print what importing an allowed package (numpy) adds to a jail's start (start,
    load the player, kill), at each level: a file player that imports it, beside
    the same player without the import, both in jails that allow it, in turns."""
    try:
        allowed = allowed_packages(('numpy',))
    except ValueError as error:
        print(f'an allowed import: not measured ({error})')
        return
    game = variants.make('nim')
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)
        paths = {'without': os.path.join(folder, 'plain.py'),
                 'with': os.path.join(folder, 'numeric.py')}
        for label, path in paths.items():
            with open(path, 'w') as file:
                file.write(('import numpy\n' if label == 'with' else '') + FIRST_MOVE)
        print(f'a jail that imports numpy (allowed) beside one that does not, median of {count} '
              'starts in turns:')
        for level in level_choice.workable():
            setup = Setup('nim', variants.make, load_player, level, allowed=allowed)
            costs: dict = {label: [] for label in paths}
            for _ in range(count + 1):
                for label, path in paths.items():
                    started = time.perf_counter()
                    player = program.stand_in(read_code(path), setup, '0', [], game=game, seat=0)
                    player.wait_ready()
                    player.close()
                    costs[label].append(time.perf_counter() - started)
            medians = {label: 1000 * statistics.median(times[1:]) for label, times in costs.items()}
            print(f'  {level}: {medians["without"]:.2f} ms without, {medians["with"]:.2f} ms with '
                  f'the import: {medians["with"] - medians["without"]:+.2f} ms a game')


@contextlib.contextmanager
def worktree(revision: str | None, folder: str):
    """Check out revision in a worktree under folder for the block (None: none)."""
    if revision is None:
        yield None
        return
    path = os.path.join(folder, 'baseline')
    subprocess.run(['git', 'worktree', 'add', '--detach', '-q', path, revision], cwd=ROOT,
                   check=True)
    try:
        yield path
    finally:
        subprocess.run(['git', 'worktree', 'remove', '--force', path], cwd=ROOT)


def speedup(repeat: int) -> list:
    """Print the --jobs 1 against --jobs 2 speed-up on 300 heavy games; return its
    row of GOAL_HEADERS."""
    print(f'speed-up on 300 games ({" ".join(SPEEDUP)}), best of {repeat}, interleaved:')
    best = interleaved({jobs: ([*SPEEDUP, '--jobs', str(jobs)], ROOT) for jobs in (1, 2)}, repeat)
    for jobs, (seconds, _, _) in best.items():
        print(f'  --jobs {jobs}: {seconds:.1f} s wall')
    ratio = best[1][0] / best[2][0]
    print(f'  speed-up: {ratio:.2f}x')
    return ['--jobs 2 speed-up, 300 games', f'--jobs 1: {best[1][0]:.1f} s',
            f'{best[2][0]:.1f} s', f'{ratio:.2f}x', f'at least {SPEEDUP_GOAL:g}x',
            _met(ratio >= SPEEDUP_GOAL)]


def _met(met: bool) -> str:
    """The goal column's word: met or not."""
    return 'met' if met else 'NOT MET'


def print_goals(rows: list[list]) -> None:
    """Print the rows of the tournament's speed goals (issue 29), each beside its anchor."""
    print('\nThe goals, each beside its anchor (the engine\'s are printed by '
          'tournament.py bench):')
    print(tabulate.tabulate(rows, GOAL_HEADERS, disable_numparse=True))


def jail_costs(count: int = 200) -> None:
    """Print a jail's start-up cost (start, load the player or start the program,
    close) at each level, and the protocol's cost a move (a question and its
    answer) for a Python player and for a program, measured in turns."""
    game = variants.make('nim')
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o755)  # a process jail started by root runs the program as its own user
        path, program_path = os.path.join(folder, 'first.py'), os.path.join(folder, 'first')
        for name, text in ((path, FIRST_MOVE), (program_path, FIRST_MOVE_PROGRAM)):
            with open(name, 'w') as file:
                file.write(text)
        os.chmod(program_path, 0o755)
        kinds = {'registry player (process)': ('random', 'process'),
                 'file player (process)': (path, 'process'),
                 'program (process)': (program_path, 'process')}
        if level_choice.problem('bwrap') is None:
            kinds['file player (bwrap)'] = (path, 'bwrap')
            kinds['program (bwrap)'] = (program_path, 'bwrap')
        print(f'jail start-up (start, load the player or start the program, kill), median of '
              f'{count}, after a first jail of each kind (which starts its jail server):')
        for label, (spec, level) in kinds.items():
            code, costs = read_code(spec), []
            setup = Setup('nim', variants.make, load_player, level)
            for _ in range(count + 1):
                started = time.perf_counter()
                player = program.stand_in(code, setup, '0', [], game=game, seat=0)
                player.wait_ready()
                player.close()
                costs.append(time.perf_counter() - started)
            print(f'  {label}: {1000 * statistics.median(costs[1:]):.2f} ms')
        moves: dict[str, list[float]] = {label: [] for label in ('Python player', 'program')}
        nim = Setup('nim', variants.make, load_player)
        players = {'Python player': program.stand_in(read_player(path), nim, '0', [], game=game,
                                                     seat=0),
                   'program': program.stand_in(read_code(program_path), nim, '0', [], game=game,
                                               seat=0)}
        for player in players.values():
            player.wait_ready()
        for _ in range(10):  # in turns, so that both see the same load
            for label, player in players.items():
                started = time.perf_counter()
                for _ in range(count):
                    player(game, game.initial)
                moves[label].append((time.perf_counter() - started) / count)
        for player in players.values():
            player.close()
        print(f'protocol a move (a first-move player on nim, {count * 10} moves each, in turns '
              f'of {count}, the median turn):')
        for label, costs in moves.items():
            print(f'  {label}: {1e6 * statistics.median(costs):.0f} µs')
        ratio = statistics.median(moves['program']) / statistics.median(moves['Python player'])
        print(f'  a program\'s move costs {ratio:.2f}x a Python player\'s')
        protocol_in_games({'Python player': path, 'program': program_path})


def protocol_in_games(specs: dict, variant: str = 'gomoku', games: int = 6) -> None:
    """Print a move's time, as the referee measures it, over whole games of variant
    between first-move players, for a Python player and for a program (which is
    sent the whole history, the state and every legal move each time), in turns."""
    from games import referee
    game = variants.make(variant)
    times: dict = {label: [] for label in specs}
    for number in range(games):
        for label, spec in specs.items():
            history: list = []
            player = program.stand_in(read_code(spec), Setup(variant, variants.make, load_player),
                                      str(number), history, game=game, seat=0)
            player.wait_ready()
            played = referee.play(game, [player, lambda game, state: game.actions(state)[0]],
                                  isolate=False, on_move=lambda state, move, after:
                                  history.append(event('move', move)))
            player.end(played)
            player.close()
            times[label] += [seconds for seat, seconds in zip(played.movers, played.times)
                             if seat == 0]
    print(f'a move in whole games of {variant} between first-move players ({games} games '
          f'each, {len(times["program"])} moves), as the referee times it:')
    for label, seconds in times.items():
        print(f'  {label}: {1e6 * statistics.mean(seconds):.0f} µs mean, '
              f'{1e6 * max(seconds):.0f} µs at most')


def main() -> None:
    """Print the benchmark's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--skip-default', action='store_true', help='skip the default run')
    parser.add_argument('--baseline', metavar='REV', default=ANCHOR, help='the commit whose '
                        'class tournament and default run are timed beside this tree\'s, '
                        f'interleaved (default {ANCHOR}, the last before jails)')
    parser.add_argument('--repeat', type=int, default=3, help='runs of each compared case')
    parser.add_argument('--goals', action='store_true', help='only the rows of the goals: '
                        'the class tournament and the --jobs 2 speed-up')
    args = parser.parse_args()
    print(f'CPUs usable: {len(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}; '
          f'load average before: {os.getloadavg()[0]:.2f} (other work slows the figures)')
    goals = class_workload(args.baseline, args.repeat)
    if args.goals:
        print_goals(goals + [speedup(args.repeat)])
        return
    class_folders(args.repeat)
    allowed_import()
    if not args.skip_default:
        default_run(args.baseline, args.repeat)
    goals.append(speedup(args.repeat))
    jail_costs()
    for pairs in (250, 1000, 4000):
        seconds, _, megabytes = timed_run(*MEMORY, '--games', str(pairs), '--jobs', '2')
        print(f'memory, {2 * pairs} games: peak {megabytes:.0f} MB ({seconds:.1f} s)')
    print_goals(goals)


if __name__ == '__main__':
    main()
