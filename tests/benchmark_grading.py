"""Benchmark: grading a class. Makes a class of FILES students' files, a share of
which hang in every function, grades them with `check`'s machinery JOBS at a
time, and prints the wall time, the time per well-behaved file and per hanging
file. Not part of the test suite; run it by hand:

    python tests/benchmark_grading.py                 # 200 files, 10% hanging, 2 jobs
    python tests/benchmark_grading.py --files 20      # a quick look
"""

import argparse
import inspect
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games import jail  # noqa: E402
from players import grading, textbook  # noqa: E402
from players.grading import batch  # noqa: E402

PLAYER = '''

def player(game, state):
    me = game.to_move(state)

    def score(s):
        return game.utility(s, me) if game.terminal_test(s) else game.evaluate(s, me)
    return alpha_beta_cutoff_search(state, game, d=2, eval_fn=score)
'''
HANGS = '''
def minmax_decision(state, game):
    while True:
        pass


alpha_beta_search = alpha_beta_cutoff_search = minmax_decision


def player(game, state):
    while True:
        pass
'''


def make_class(folder: str, files: int, hang_share: float) -> list[str]:
    """Write the class's files; return the names of those that hang."""
    good = inspect.getsource(textbook) + PLAYER
    hanging = round(files * hang_share)
    names = []
    for number in range(files):
        name = f'student{number:03d}.py'
        with open(os.path.join(folder, name), 'w') as file:
            file.write(HANGS if number % max(1, files // max(1, hanging)) == 0
                       and len(names) < hanging else good)
        if number % max(1, files // max(1, hanging)) == 0 and len(names) < hanging:
            names.append(name)
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--files', type=int, default=200)
    parser.add_argument('--hang-share', type=float, default=0.1)
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--timeout', type=float, default=10.0)
    parser.add_argument('--move-timeout', type=float, default=10.0)
    parser.add_argument('--sandbox', default='auto', choices=jail.LEVELS)
    args = parser.parse_args()
    settings = grading.Settings(timeout=args.timeout, move_timeout=args.move_timeout,
                                sandbox=jail.resolve_level(args.sandbox))
    jail.prepare_jailer()
    with tempfile.TemporaryDirectory() as folder:
        hanging = set(make_class(folder, args.files, args.hang_share))
        files = batch.collect([folder])
        print(f'{len(files)} files, {len(hanging)} hanging, {args.jobs} jobs; '
              f'{settings.describe()}', flush=True)
        started = time.perf_counter()
        reports = list(batch.grade_all(files, settings, args.jobs))
        wall = time.perf_counter() - started
    good = [r.seconds for r in reports if os.path.basename(r.file) not in hanging]
    bad = [r.seconds for r in reports if os.path.basename(r.file) in hanging]
    full = sum(r.passed for r in reports)
    print(f'wall time: {wall:.1f} s ({wall / 60:.1f} min) for {len(reports)} files; '
          f'{full} with full marks')
    if good:
        print(f'a well-behaved file: median {statistics.median(good):.2f} s, '
              f'slowest {max(good):.2f} s (in a worker, checks made once)')
    if bad:
        print(f'a hanging file: median {statistics.median(bad):.1f} s, slowest {max(bad):.1f} s')


if __name__ == '__main__':
    main()
