#!/usr/bin/env python3
"""Benchmark the arena's challenges while its ladder plays (not a test; pytest does not
collect it).

    python -m players.bench.benchmark_challenges               # 20 students, 20 challenges
    python players/bench/benchmark_challenges.py --students 10 --challenges 5

Serves a course as benchmark_arena does (tic-tac-toe, random and ab2, jobs = 2, 1 s a
move). Every student hands in a bot, so that the ladder has hundreds of games to play;
then, while it plays them, students sign in and ask for challenges against ab2 (one
game pair on tic-tac-toe), one every --every seconds. For each, it prints how long
from the POST until the challenge's page showed its first game (polled every 20 ms:
an upper bound on its first move, a tic-tac-toe game lasting milliseconds), beside
the goal."""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

from players.bench.arena_course import (  # noqa: E402  (after the path is set)
    MET, percentile, served, signed_in)

FIRST_GAME_GOAL = 2.0
"""The goal: a challenge's first game within 2 s of asking (its first move sooner)."""


def challenge(url: str, student: str, token: str) -> float:
    """Sign in as the student, ask for a challenge against ab2 and return how long until
    its page showed a game."""
    with signed_in(url, token) as client:
        page = client.get(f'/students/{student}').text
        key = page.split('<option value="')[1:]
        ab2 = next(option.split('"')[0] for option in key if option.split('>')[1].startswith('ab2<'))
        started = time.perf_counter()
        answer = client.post(f'/students/{student}/challenges', data={
            'opponent': ab2, 'variant': 'tictactoe', 'pairs': '1'}).json()
        if 'go' not in answer:
            sys.exit(f'{student} could not ask for a challenge: {answer}')
        while time.perf_counter() < started + 60:
            if '/games/' in client.get(answer['go']).text:  # a replay's link: a game ended
                return time.perf_counter() - started
            time.sleep(0.02)
    sys.exit(f"{student}'s challenge showed no game in 60 s")


def ladder_games(folder: str) -> int:
    """Return the games the ladder has stored."""
    try:
        with sqlite3.connect(os.path.join(folder, 'arena', 'games.sqlite')) as connection:
            return connection.execute('SELECT COUNT(*) FROM games').fetchone()[0]
    except sqlite3.Error:
        return 0


def main() -> None:
    """Parse the options, serve the course, measure, print and stop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--students', type=int, default=20, help='the class (default 20)')
    parser.add_argument('--challenges', type=int, default=20, help='challenges (default 20)')
    parser.add_argument('--every', type=float, default=1.0, help='seconds between two')
    args = parser.parse_args()
    with served(args.students, 'challenge-bench-') as (folder, url, students):
        before = ladder_games(folder)
        times = []
        for number in range(args.challenges):
            student = sorted(students)[number % len(students)]
            times.append(challenge(url, student, students[student]))
            time.sleep(args.every)
        print(f'{args.students} students handed in; while the ladder played '
              f'{ladder_games(folder) - before} games, {len(times)} challenges against ab2 '
              f'(one pair of tic-tac-toe each), one every {args.every:g} s')
        print(f'challenge to its first game on its page: median {statistics.median(times):.2f} '
              f's, p95 {percentile(times, .95):.2f} s, max {max(times):.2f} s (goal ≤ '
              f'{FIRST_GAME_GOAL:g} s: {MET[max(times) <= FIRST_GAME_GOAL]})')

if __name__ == '__main__':
    main()
