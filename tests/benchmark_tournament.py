#!/usr/bin/env python3
"""Benchmark the tournament runner (not a test; pytest does not collect it).

    python tests/benchmark_tournament.py            # all three figures
    python tests/benchmark_tournament.py --skip-default

Prints the default run's wall time, the --jobs 1 against --jobs 2 speed-up on a
tournament of at least 200 games, and the peak memory (resident set) of runs of
growing size, which should stay flat because records stream to the store."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEEDUP = ['--players', 'mcts,ab3,random', '--variants', 'tictactoe', 'misere-nim',
           '--games', '25', '--openings', '2']
"""3 players, 3 pairings, 2 variants, 25 pairs of 2 games: 300 games, most with mcts."""
MEMORY = ['--players', 'random,ab1', '--variants', 'simple-nim']


def timed_run(*args: str) -> tuple[float, float, float]:
    """Run python tournament.py with args; return its wall time in seconds, the CPU
    seconds of it and its workers, and the peak resident memory in MB of its
    largest process."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, 'tournament.py', *args], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        sys.exit(f'tournament {" ".join(args)} failed: {process.stderr.read().decode()}')
    return seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> None:
    """Print the benchmark's figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--skip-default', action='store_true', help='skip the default run')
    parser.add_argument('--repeat', type=int, default=3, help='runs of each speed-up case')
    args = parser.parse_args()
    print(f'CPUs usable: {len(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}; '
          f'load average before: {os.getloadavg()[0]:.2f} (other work slows the figures)')
    if not args.skip_default:
        seconds, cpu, _ = timed_run()
        print(f'default run (python tournament.py): {seconds:.1f} s ({cpu:.1f} CPU s)')
    print(f'speed-up on 300 games ({" ".join(SPEEDUP)}), best of {args.repeat}, '
          'the runs interleaved so that both see the same background load:')
    runs: dict[int, list] = {1: [], 2: []}
    for _ in range(args.repeat):
        for jobs in runs:
            runs[jobs].append(timed_run(*SPEEDUP, '--jobs', str(jobs)))
    best = {jobs: min(times) for jobs, times in runs.items()}
    for jobs, (seconds, cpu, _) in best.items():
        print(f'  --jobs {jobs}: {seconds:.1f} s wall, {cpu:.1f} CPU s')
    print(f'  speed-up: {best[1][0] / best[2][0]:.2f}x')
    for pairs in (250, 1000, 4000):
        seconds, _, megabytes = timed_run(*MEMORY, '--games', str(pairs), '--jobs', '2')
        print(f'memory, {2 * pairs} games: peak {megabytes:.0f} MB ({seconds:.1f} s)')


if __name__ == '__main__':
    main()
