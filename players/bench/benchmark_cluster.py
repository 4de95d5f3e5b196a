#!/usr/bin/env python3
"""Benchmark the Dask executor against the local one (not a test; pytest does not collect it).

    python players/bench/benchmark_cluster.py              # needs the dask extra
    python players/bench/benchmark_cluster.py --repeat 3

Runs the same tournaments with --jobs 2 on the local executor (two worker
processes) and with --executor dask (a LocalCluster of two workers, started by
the run itself: a cold start, as a user's run has it), the runs interleaved so
that both see the same background load, and prints the wall time and the
throughput of each, side by side: on a heavy tournament (most games with MCTS),
on a light one (many short games, where the cost of each game's trip through the
scheduler shows), and on two games (the cost of starting the cluster)."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOURNAMENTS = {
    'heavy': (['--players', 'mcts,ab3,random', '--variants', 'tictactoe', 'misere-nim',
               '--games', '25', '--openings', '2'], 300),
    'light': (['--players', 'random,ab1', '--variants', 'simple-nim', '--games', '200'], 400),
    'start': (['--players', 'random,ab1', '--variants', 'simple-nim'], 2),
}
"""Each tournament's options and its number of games."""
EXECUTORS = {'local': ['--jobs', '2'], 'dask': ['--jobs', '2', '--executor', 'dask']}


def wall_time(*args: str) -> float:
    """Run python tournament.py with args; return its wall time in seconds."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, 'tournament.py', *args], cwd=ROOT,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if done.returncode:
        sys.exit(f'tournament {" ".join(args)} failed: {done.stderr}')
    return time.perf_counter() - started


def main() -> None:
    """Print the benchmark's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=2, help='runs of each case (best kept)')
    args = parser.parse_args()
    if importlib.util.find_spec('distributed') is None:
        sys.exit("needs Dask's distributed: pip install -e '.[dask]'")
    print(f'CPUs usable: {len(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}; '
          f'load average before: {os.getloadavg()[0]:.2f} (other work slows the figures)')
    print(f'wall time, best of {args.repeat}, and games per second (local: --jobs 2; '
          'dask: --executor dask --jobs 2, a LocalCluster of 2 workers)')
    for name, (options, games) in TOURNAMENTS.items():
        best = {executor: float('inf') for executor in EXECUTORS}
        for _ in range(args.repeat):
            for executor, extra in EXECUTORS.items():
                best[executor] = min(best[executor], wall_time(*options, *extra))
        figures = '   '.join(f'{executor} {seconds:5.1f} s {games / seconds:6.1f} games/s'
                             for executor, seconds in best.items())
        print(f'  {name} ({games} games: {" ".join(options)})\n    {figures}   '
              f'dask/local time: {best["dask"] / best["local"]:.2f}')


if __name__ == '__main__':
    main()
