#!/usr/bin/env python3
"""Benchmark games in the arena's browser pages while its ladder plays (not a test;
pytest does not collect it).

    python -m players.bench.benchmark_play                  # 4 students, 3 games each
    python players/bench/benchmark_play.py --students 2 --games 1

Serves a course as benchmark_arena does (tic-tac-toe, random and ab2, jobs = 2). Each
student hands in a bot, so that the ladder plays; then the students, at once, each
play --games games of tic-tac-toe in the browser against their own bot, as the page's
script does (POST a move, the answer once the bot has replied). It prints how long a
game takes to start (to the student's first turn), and a move's round trip beside
the goal of 100 ms plus the bot's thinking: the bot plays at once, its thinking the
milliseconds its jail takes to answer, which the round trip includes."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

from players.bench.arena_course import (  # noqa: E402  (after the path is set)
    MET, percentile, served, signed_in)

ROUND_TRIP_GOAL = 0.100
"""The goal: a move's round trip within 100 ms, besides the bot's thinking."""


def play_games(url: str, student: str, token: str, games: int, starts: list[float],
               trips: list[float]) -> None:
    """Sign in as the student and play games against their own bot, the first legal
    move each time, timing each start and each move's round trip."""
    with signed_in(url, token) as client:
        page = client.get(f'/students/{student}').text
        page = page[page.index('id="play"'):]
        own = page.split('<option value="')[1].split('"')[0]  # their own version, listed first
        for _ in range(games):
            started = time.perf_counter()
            address = client.post(f'/students/{student}/play', data={
                'opponent': own, 'variant': 'tictactoe', 'seat': 'first'}).json()['go']
            view = client.get(f'{address}.json').json()
            while view['status'] not in ('your move', 'over'):
                time.sleep(0.01)
                view = client.get(f'{address}.json').json()
            starts.append(time.perf_counter() - started)
            while view['status'] != 'over':
                if view['status'] == 'your move':
                    sent = time.perf_counter()
                    view = client.post(f'{address}/move',
                                       data={'move': '0', 'ply': view['ply']}).json()
                    trips.append(time.perf_counter() - sent)
                else:
                    time.sleep(0.01)
                    view = client.get(f'{address}.json').json()


def main() -> None:
    """Parse the options, serve the course, measure, print and stop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--students', type=int, default=4, help='students at once (default 4)')
    parser.add_argument('--games', type=int, default=3, help='games each (default 3)')
    args = parser.parse_args()
    with served(args.students, 'play-bench-') as (_, url, students):
        starts: list[float] = []
        trips: list[float] = []
        threads = [threading.Thread(target=play_games, args=(
            url, student, token, args.games, starts, trips))
            for student, token in students.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f'{args.students} students at once, {args.games} games of tic-tac-toe each in '
              f'the browser against their own bot, while the ladder plays')
        print(f'a game to its first turn: median {statistics.median(starts):.2f} s, '
              f'max {max(starts):.2f} s ({len(starts)} games)')
        print(f"a move's round trip: median {statistics.median(trips) * 1e3:.0f} ms, p95 "
              f'{percentile(trips, .95) * 1e3:.0f} ms, max {max(trips) * 1e3:.0f} ms '
              f'({len(trips)} moves; goal p95 ≤ {ROUND_TRIP_GOAL * 1e3:.0f} ms: '
              f'{MET[percentile(trips, .95) <= ROUND_TRIP_GOAL]})')

if __name__ == '__main__':
    main()
