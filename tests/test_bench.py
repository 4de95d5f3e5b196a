"""The benchmark: every solver's value agrees, slow solvers are stopped, bad options refused."""

import os
import subprocess
import sys
import time

from games import Nim, TicTacToe
from players import bench

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_solver_agrees_on_small_positions():
    positions = [('nim', Nim((1, 2, 3))), ('misère nim', Nim((1, 2, 2), misere=True)),
                 ('ttt', TicTacToe(3, 3, 3))]
    for name, measures in bench.run(limit=20, positions=positions):
        rows = bench.rows(name, measures)
        assert rows[0][:2] == [name, bench.ENGINE]
        for row in rows:
            assert row[-1] == 'yes' or 'not installed' in row[-1], row


def test_a_slow_solver_is_stopped():
    def forever(game):
        while True:
            time.sleep(0.01)
    measure = bench.measure('slow', forever, Nim((1,)), limit=0.2)
    assert measure.value is None and 'stopped after 0.2 s' in measure.note
    # The engine is faster than a stopped solver by at least the limit over its own time.
    ours = bench.Measure(bench.ENGINE, 1, 10, 0.001, '')
    row = bench.rows('nim', [ours, measure])[1]
    assert row[1] == 'slow' and row[-2] == '> 200x' and row[-1] == 'stopped after 0.2 s'


def test_bench_refuses_a_bad_limit():
    done = subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), 'bench',
                           '--limit', 'soon'], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 2 and 'expected seconds' in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_checking_a_value_is_not_timed(monkeypatch):
    # The textbook's value is checked by the engine after the clock stops, not on its time:
    # each reading of this clock takes one second, and the check reads it once.
    clock = iter(range(100))
    monkeypatch.setattr(bench.time, 'perf_counter', lambda: next(clock))

    def solver(game):
        return (lambda: bench.time.perf_counter() and 1), 5
    measure = bench.measure('textbook', solver, Nim((1,)), limit=5, repeat=1)
    assert measure.value == 1 and measure.seconds == 1
