#!/usr/bin/env python3
"""Benchmark the learning environment beside PettingZoo's own board games (not a test;
pytest does not collect it).

    python players/bench/benchmark_learning.py             # 2 rounds, 5 s a measure
    python players/bench/benchmark_learning.py --rounds 3

For tic-tac-toe and Connect Four, it runs PettingZoo's own performance_benchmark (5
seconds of random legal actions, through the AEC loop) on variants.environment(...)
and on PettingZoo's tictactoe_v3 and connect_four_v3, in turn, --rounds times, and
prints the best environment steps a second of each with their ratio (the goal: at
least as fast). It also times a cold start, a new Python process that imports the
environment, makes it and resets it, best of --rounds. It needs the rl and bench
extras: pip install -e '.[rl,bench]'."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import time
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

PAIRS = {'tictactoe': 'tictactoe_v3', 'connect4': 'connect_four_v3'}
"""Each variant and PettingZoo's own environment of the game."""

MAKE = {'ours': "import variants; env = variants.environment('{variant}')",
        'pettingzoo': 'from pettingzoo.classic import {peer}; env = {peer}.env()'}
"""The code that makes each side's environment."""


def steps_a_second(make: str) -> float:
    """Run PettingZoo's performance_benchmark on the environment make makes; return its
    turns (environment steps) a second."""
    from pettingzoo.test import performance_benchmark
    scope: dict[str, object] = {}
    exec(make, scope)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        performance_benchmark(scope['env'])
    line = next(line for line in printed.getvalue().splitlines() if 'turns per second' in line)
    return float(line.split()[0])


def cold_start(make: str) -> float:
    """Return the seconds a new Python process takes to import, make and reset the
    environment make makes."""
    started = time.perf_counter()
    subprocess.run([sys.executable, '-W', 'ignore', '-c', f'{make}; env.reset(seed=0)'],
                   cwd=ROOT, check=True)
    return time.perf_counter() - started


def main() -> None:
    """Measure each pair in turn and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=2, help='measures of each (default 2)')
    rounds = parser.parse_args().rounds
    warnings.simplefilter('ignore')
    print(f'{"game":<10} {"ours (steps/s)":>15} {"PettingZoo":>11} {"ratio":>6}'
          f' {"cold start, ours":>17} {"PettingZoo":>11}')
    for variant, peer in PAIRS.items():
        makes = {side: code.format(variant=variant, peer=peer) for side, code in MAKE.items()}
        speed = {side: 0.0 for side in makes}
        cold = {side: float('inf') for side in makes}
        for _ in range(rounds):
            for side, make in makes.items():
                speed[side] = max(speed[side], steps_a_second(make))
                cold[side] = min(cold[side], cold_start(make))
        print(f'{variant:<10} {speed["ours"]:>15,.0f} {speed["pettingzoo"]:>11,.0f} '
              f'{speed["ours"] / speed["pettingzoo"]:>5.2f}x {cold["ours"]:>16.2f}s '
              f'{cold["pettingzoo"]:>10.2f}s')


if __name__ == '__main__':
    main()
