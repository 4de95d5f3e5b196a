#!/usr/bin/env python3
"""Benchmark the class arena under a class's load (not a test; pytest does not collect it).

    python -m players.bench.benchmark_arena                   # 100 students, 20 hand in, 60 s
    python players/bench/benchmark_arena.py --students 20 --uploaders 5 --seconds 20
    python -m players.bench.benchmark_arena --students 200 --executor dask   # a LocalCluster

Serves a course made in a temporary folder (STUDENTS on the roster, the ladder on
tic-tac-toe with random and ab2, jobs = 2, 1 s a move) with `tournament.py serve`, as an
instructor does. Once the ladder is idle, each page a student polls (/board, /board.json,
their page, versions and games) is timed alone. Then every student signs in with their
link and polls those pages every 1 to 2 s while UPLOADERS of them hand in a bot (POST
/api/submit, then GET /api/versions/N), half of them, once it has played, a new version.
It prints the pages' latency under that load beside the idle figures, an upload's time to
its verdict and a new version's verdict to its first game (in games.sqlite, and on the
student's games page), each beside its goal. The class runs at nice -10 where it may;
how late its event loop woke is printed. --profile SVG: the server's flame graph (py-spy)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import random
import re
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict, namedtuple
from typing import Any, cast

import tabulate

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [ROOT]

from players.arena import game_pages  # noqa: E402  (after the path is set)
from players.bench.arena_course import (  # noqa: E402
    BOT, MET, cpu_seconds, make_course, percentile, start_server, stop_server, tokens)

PAGES = ('/board', '/board.json', '/students/{id}', '/students/{id}/versions.json',
         '/students/{id}/games')
"""The pages a student polls, {id} their own id."""
VERDICT_GOAL, FIRST_GAME_GOAL, PAGE_GOAL = 2.0, 5.0, 0.100
"""The goals: a verdict in a median 2 s, a first game 5 s after it, a page's p95 100 ms."""
POLL_SECONDS, WAIT_SECONDS = 0.1, 60.0  # between verdict polls (games.sqlite: 2x); longest wait
Row = namedtuple('Row', 'variant first first_digest second second_digest pair leg seed')  # an id's
OPTIONS = (('--students', int, 100, 'the class'),
           ('--uploaders', int, 20, 'students who hand in a bot, half of them twice'),
           ('--seconds', float, 60.0, 'how long the class polls, at least'),
           ('--idle-requests', int, 300, 'requests of each page with no load'),
           ('--players', str, 'random,ab2', "the course's own players"),
           ('--jobs', int, 2, "the ladder's worker processes"),
           ('--executor', str, 'local', "the ladder's: local, or dask (a LocalCluster of --jobs)"),
           ('--move-timeout', float, 1.0, 'seconds a move'))


class Games:
    """The arena's games.sqlite, read while watched: when each player's code (its digest)
    was first seen in a game, and the ids of its games."""

    def __init__(self, path: str):
        self.path = path
        self.first_seen: dict[str, dict[str, float]] = defaultdict(dict)
        self.ids: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.known: dict[tuple, str] = {}
        self.watching = False

    def _rows(self) -> list[tuple]:
        try:
            with contextlib.closing(sqlite3.connect(f'file:{self.path}?mode=ro', uri=True)) as db:
                return db.execute('SELECT variant, "first", first_digest, "second", '
                                  'second_digest, pair, leg, seed FROM games').fetchall()
        except sqlite3.Error:  # not made yet, or not yet a results file
            return []

    async def watch(self) -> None:
        """Read the file while watching (each game's id worked out once)."""
        while self.watching:
            rows = await asyncio.to_thread(self._rows)
            now = time.perf_counter()
            for row in rows:
                if row not in self.known:
                    self.known[row] = game_pages.game_id(cast(Any, Row(*row)))
                    for player, digest in ((row[1], row[2]), (row[3], row[4])):
                        self.first_seen[player].setdefault(digest, now)
                        self.ids[player, digest].add(self.known[row])
            await asyncio.sleep(2 * POLL_SECONDS)

    async def new_code(self, player: str, old: set[str]) -> tuple[str, float] | None:
        """Wait for a game of player's with code whose digest is not in old; return the
        digest and when its first game was seen (None after WAIT_SECONDS)."""
        ends = time.perf_counter() + WAIT_SECONDS
        while time.perf_counter() < ends:
            found = sorted((seen, digest) for digest, seen in self.first_seen[player].items()
                           if digest not in old)[:1]
            if found:
                return found[0][::-1]
            await asyncio.sleep(POLL_SECONDS / 2)
        return None


class Class:
    """The simulated class: a client of its own for each student, and what they measured."""

    def __init__(self, url: str, students: dict[str, str]):
        import httpx
        self.tokens = students
        self.clients = {student: httpx.AsyncClient(base_url=url, timeout=60)
                        for student in students}
        self.latency: dict[str, list[float]] = defaultdict(list)
        self.errors: Counter[str] = Counter()
        self.verdicts, self.first_games, self.on_page, self.lag = (
            list[float](), list[float](), list[float](), list[float]())  # seconds
        self.trouble, self.polling = list[str](), True

    async def sign_in(self) -> None:
        """Sign every student in with their link: a session cookie each."""
        for student, client in self.clients.items():
            link = f'/signin/{self.tokens[student]}'
            await client.get(link)  # the link's page sets the form's CSRF cookie
            answer = await client.post(link, headers={'x-csrftoken': client.cookies['csrftoken']})
            if answer.status_code != 200 or 'arena_session' not in client.cookies:
                sys.exit(f'{student} could not sign in: {answer.status_code} {answer.text[:200]}')

    async def get(self, student: str, page: str) -> str:
        """Ask for a page as the student, timed; return its text."""
        started = time.perf_counter()
        try:
            answer = await self.clients[student].get(page.format(id=student))
        except Exception as error:  # counted, and the student polls on
            self.errors[page] += 1
            self.trouble.append(f'{student} {page}: {type(error).__name__}')
            return ''
        self.latency[page].append(time.perf_counter() - started)
        self.errors[page] += answer.status_code != 200
        return answer.text

    async def poll(self, student: str, rng: random.Random) -> None:
        """Poll the leaderboard and the student's own pages every 1 to 2 s, in turns,
        noting how late this process's event loop woke (a delay in every figure)."""
        turn = rng.randrange(len(PAGES))
        await asyncio.sleep(rng.uniform(0, 2))
        while self.polling:
            await self.get(student, PAGES[turn % len(PAGES)])
            turn, pause, started = turn + 1, rng.uniform(1, 2), time.perf_counter()
            await asyncio.sleep(pause)
            self.lag.append(time.perf_counter() - started - pause)

    async def hand_in(self, student: str, number: int) -> float | None:
        """Hand in a bot over the terminal's route; return when its verdict came, if it plays."""
        client, started = self.clients[student], time.perf_counter()
        headers = {'Authorization': f'Bearer {self.tokens[student]}'}
        answer = (await client.post('/api/submit', params={'filename': 'bot.py'}, headers=headers,
                                    content=BOT.format(student=student, number=number,
                                                       pick=0 if number == 1 else -1))).json()
        while answer.get('checking') and time.perf_counter() < started + WAIT_SECONDS:
            await asyncio.sleep(POLL_SECONDS)
            answer = (await client.get(f'/api/versions/{answer["number"]}',
                                       headers=headers)).json()
        if answer.get('status') != 'plays':
            self.trouble.append(f'{student} version {number}: {answer}')
            return None
        self.verdicts.append(time.perf_counter() - started)
        return time.perf_counter()

    async def upload(self, student: str, again: bool, games: Games, rng: random.Random,
                     within: float) -> None:
        """Hand in a bot at a random time within the first seconds; if again, once it
        has played, wait 1 to 3 s and hand in a new version, timing its first game in
        games.sqlite and on the student's games page."""
        await asyncio.sleep(rng.uniform(0, within))
        if await self.hand_in(student, 1) is None or not again:
            return
        checked, old = None, set[str]()
        if await games.new_code(student, old) is not None:  # version 1 has played
            await asyncio.sleep(rng.uniform(1, 3))
            old = set(games.first_seen[student])
            checked = await self.hand_in(student, 2)
        found = await games.new_code(student, old) if checked else None
        if checked is None or found is None:
            self.trouble.append(f'{student}: version 1 or 2 played no game, or 2 had no verdict')
            return
        self.first_games.append(found[1] - checked)
        while time.perf_counter() < checked + WAIT_SECONDS:
            if set(re.findall(r'/games/(\w+)"', await self.get(student, PAGES[4]))) \
                    & games.ids[student, found[0]]:
                self.on_page.append(time.perf_counter() - checked)
                return
            await asyncio.sleep(0.25)


async def idle_latency(url: str, student: str, token: str, count: int,
                       games: Games) -> dict[str, list[float]]:
    """Hand in the student's bot, wait for the ladder to be idle, then time each page
    count times, one request at a time; return the timings by page."""
    alone = Class(url, {student: token})
    await alone.sign_in()
    games.watching = True
    watching = asyncio.ensure_future(games.watch())
    if await alone.hand_in(student, 1) is None:
        sys.exit(f'the first bot does not play: {alone.trouble}')
    print(f'a first upload to its verdict (a worker starting): {alone.verdicts[0]:.2f} s')
    last, steady, ends = -1, 0.0, time.monotonic() + 120
    while steady < 3 and time.monotonic() < ends:  # every game played, and on the board
        board = (await alone.clients[student].get('/board.json')).json()
        steady = steady + 0.5 if board['games'] == last > 0 else 0.0
        last = board['games']
        await asyncio.sleep(0.5)
    games.watching = False
    await watching
    for page in PAGES:
        for _ in range(5 + count):  # the first 5: the template compiled, the connection open
            await alone.get(student, page)
    await asyncio.gather(*[client.aclose() for client in alone.clients.values()])
    return {page: values[5:] for page, values in alone.latency.items()}


async def class_load(url: str, students: dict[str, str], args: argparse.Namespace,
                     games: Games) -> tuple[Class, float]:
    """Let the class poll while the uploaders hand in; return it and the load's length."""
    crowd = Class(url, students)
    await crowd.sign_in()
    rng = random.Random(0)
    started = time.perf_counter()
    games.watching = True
    watching = asyncio.ensure_future(games.watch())
    polling = [asyncio.ensure_future(crowd.poll(student, random.Random(rng.random())))
               for student in students]
    await asyncio.gather(*[crowd.upload(student, number % 2 == 0, games,
                                        random.Random(rng.random()), 0.4 * args.seconds)
                           for number, student in enumerate(sorted(students)[:args.uploaders])])
    await asyncio.sleep(max(0.0, started + args.seconds - time.perf_counter()))
    crowd.polling = games.watching = False
    await asyncio.gather(*polling, watching)
    await asyncio.gather(*[client.aclose() for client in crowd.clients.values()])
    return crowd, time.perf_counter() - started


def print_figures(idle: dict[str, list[float]], crowd: Class, lasted: float,
                  args: argparse.Namespace) -> None:
    """Print each page's latency under load beside its idle figures, then every goal."""
    def ms(values: list[float], share: float) -> str:
        return f'{percentile(values, share) * 1e3:.1f}' if values else '–'

    requests = sum(len(values) for values in crowd.latency.values())
    print(f'\nEach page, idle ({args.idle_requests} requests, one at a time) and under the '
          f'load ({requests / lasted:.0f} requests/s over {lasted:.0f} s), in ms:')
    rows = [[page, ms(idle[page], .5), ms(idle[page], .95), ms(busy, .5), ms(busy, .95),
             len(busy), crowd.errors[page], f'p95 ≤ {PAGE_GOAL * 1e3:.0f}',
             MET[bool(busy) and percentile(busy, .95) <= PAGE_GOAL]]
            for page, busy in ((page, crowd.latency[page]) for page in PAGES)]
    print(tabulate.tabulate(rows, ['Page', 'idle p50', 'idle p95', 'load p50', 'load p95',
                                   'requests', 'errors', 'goal', ''], disable_numparse=True))
    rows = [[measure, f'median {statistics.median(values):.2f} s, max {max(values):.2f} s '
             f'({len(values)})' if values else 'none measured', goal, MET[met] if values else '–']
            for measure, values, goal, met in (
                ('upload to verdict', crowd.verdicts, f'median ≤ {VERDICT_GOAL:g} s',
                 bool(crowd.verdicts) and statistics.median(crowd.verdicts) <= VERDICT_GOAL),
                ("a new version's verdict to its first game in games.sqlite", crowd.first_games,
                 f'each ≤ {FIRST_GAME_GOAL:g} s', max(crowd.first_games, default=0.0)
                 <= FIRST_GAME_GOAL),
                ("... and to it on the student's games page", crowd.on_page, '–', None))]
    print('\n' + tabulate.tabulate(rows, ['Measure', 'Now', 'Goal', ''], disable_numparse=True))
    print(''.join(f'  trouble: {line}\n' for line in crowd.trouble[:10]), end='')


def measure(folder: str, url: str, server: subprocess.Popen, args: argparse.Namespace) -> None:
    """Time the pages idle, then under the class's load; print the figures."""
    students = tokens(folder)
    games = Games(os.path.join(folder, 'arena', 'games.sqlite'))
    probe = sorted(students)[-1]
    idle = asyncio.run(idle_latency(url, probe, students[probe], args.idle_requests, games))
    before = len(games.known)
    spy = subprocess.Popen(['py-spy', 'record', '--pid', str(server.pid), '--gil', '-o',
                            args.profile], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) \
        if args.profile else None
    server_cpu, own = cpu_seconds(server.pid), time.process_time()
    crowd, lasted = asyncio.run(class_load(url, students, args, games))
    server_cpu = cpu_seconds(server.pid) - server_cpu
    if spy is not None:
        spy.send_signal(signal.SIGINT)
        spy.wait(timeout=60)
    played, own = len(games.known) - before, time.process_time() - own
    print(f"under load the server's process used {100 * server_cpu / lasted:.0f}% of a core "
          f'(load average after: {os.getloadavg()[0]:.2f}); the ladder played {played} games '
          f'({60 * played / lasted:.0f} a minute); the class (this process) used {100 * own / lasted:.0f}% '
          f'of a core, its event loop woke late by {percentile(crowd.lag, .5) * 1e3:.1f} ms '
          f'(p50), {percentile(crowd.lag, .95) * 1e3:.1f} ms (p95)')
    print_figures(idle, crowd, lasted, args)


def main() -> None:
    """Parse the options, serve the course, measure, print and stop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for option, kind, default, say in OPTIONS:
        parser.add_argument(option, type=kind, default=default, help=f'{say} (default {default})')
    parser.add_argument('--variants', nargs='+', default=['tictactoe'], help='(tictactoe)')
    parser.add_argument('--profile', metavar='SVG', help="the server's flame graph under load")
    parser.add_argument('--keep', action='store_true', help='keep the course folder; print it')
    args = parser.parse_args()
    if not 0 <= args.uploaders < args.students:
        parser.error('--uploaders must be from 0 to one less than --students')
    if importlib.util.find_spec('httpx') is None:
        sys.exit("needs httpx: pip install -e '.[test]'")
    if args.profile and shutil.which('py-spy') is None:
        sys.exit('--profile needs py-spy: pip install py-spy')
    folder = tempfile.mkdtemp(prefix='arena-bench-')
    try:
        url = make_course(folder, args)
        print(f'CPUs usable: {len(os.sched_getaffinity(0))}; load average before: '
              f'{os.getloadavg()[0]:.2f}; {args.students} students, {args.uploaders} of them hand '
              f'in ({(args.uploaders + 1) // 2} twice); {args.seconds:g} s of load; the ladder on '
              f'{", ".join(args.variants)} with {args.players}, jobs = {args.jobs}, executor '
              f'{args.executor}', flush=True)
        server = start_server(folder, url)
        with contextlib.suppress(OSError):
            os.nice(-10)  # the server started first, at the usual priority
        try:
            measure(folder, url, server, args)
        finally:
            if server.poll() is not None:
                print(f'the server ended:\n{open(os.path.join(folder, "serve.log")).read()}')
            print(f'\nthe server stopped by SIGINT, with exit status {stop_server(server)}')
    finally:
        if args.keep:
            print(f'the course folder is kept: {folder}')
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == '__main__':
    main()
