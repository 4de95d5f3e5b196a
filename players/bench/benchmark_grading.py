"""Benchmark: grading a class. Makes a class of FILES students' files, a share of
which hang in every function and a share of which have a slow player (2 s a
move, inside the 10 s limit), grades them with `check`'s machinery JOBS at a
time, and prints the wall time, the median and slowest file of the class, and
the time per well-behaved, slow and hanging file. Not part of the test suite;
run it by hand:

    python players/bench/benchmark_grading.py                 # 200 files, 10% hanging, 5% slow, 2 jobs
    python players/bench/benchmark_grading.py --files 20      # a quick look
"""

import argparse
import inspect
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from players.sandbox import level_choice  # noqa: E402
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

SLOW = '''

import time as _time
_searching_player = player


def player(game, state):
    _time.sleep(2)
    return _searching_player(game, state)
'''
"""A correct file whose player thinks 2 s a move."""


def make_class(folder: str, files: int, hang_share: float, slow_share: float) -> dict:
    """Write the class's files; return the kind of each ('good', 'slow' or 'hangs')."""
    good = inspect.getsource(textbook) + PLAYER
    texts = {'good': good, 'slow': good + SLOW, 'hangs': HANGS}
    kinds = {}
    for number in range(files):
        kind = 'good'
        if hang_share and number % round(1 / hang_share) == 0:
            kind = 'hangs'
        elif slow_share and number % round(1 / slow_share) == 1:
            kind = 'slow'
        name = f'student{number:03d}.py'
        with open(os.path.join(folder, name), 'w') as file:
            file.write(texts[kind])
        kinds[name] = kind
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--files', type=int, default=200)
    parser.add_argument('--hang-share', type=float, default=0.1)
    parser.add_argument('--slow-share', type=float, default=0.05)
    parser.add_argument('--jobs', type=int, default=2)
    parser.add_argument('--timeout', type=float, default=10.0)
    parser.add_argument('--move-timeout', type=float, default=10.0)
    parser.add_argument('--sandbox', default='auto', choices=level_choice.choices())
    args = parser.parse_args()
    settings = grading.Settings(timeout=args.timeout, move_timeout=args.move_timeout,
                                sandbox=level_choice.resolve(args.sandbox))
    with tempfile.TemporaryDirectory() as folder:
        kinds = make_class(folder, args.files, args.hang_share, args.slow_share)
        files = batch.collect([folder])
        counts = {kind: list(kinds.values()).count(kind) for kind in ('good', 'slow', 'hangs')}
        print(f'{len(files)} files ({counts["slow"]} with a slow player, {counts["hangs"]} '
              f'hanging), {args.jobs} jobs; {settings.describe()}', flush=True)
        started = time.perf_counter()
        reports = list(batch.grade_all(files, settings, args.jobs))
        wall = time.perf_counter() - started
    full = sum(r.passed for r in reports)
    print(f'wall time: {wall:.1f} s ({wall / 60:.1f} min) for {len(reports)} files; '
          f'{full} with full marks')
    every = [report.seconds for report in reports]
    print(f'the class: median file {statistics.median(every):.2f} s, slowest {max(every):.1f} s')
    for kind, label in (('good', 'a well-behaved file'), ('slow', 'a file with a slow player'),
                        ('hangs', 'a hanging file')):
        seconds = [r.seconds for r in reports if kinds[os.path.basename(r.file)] == kind]
        if seconds:
            print(f'{label}: median {statistics.median(seconds):.2f} s, slowest '
                  f'{max(seconds):.1f} s')


if __name__ == '__main__':
    main()
