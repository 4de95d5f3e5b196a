"""A course served for the arena's benchmarks (benchmark_arena, benchmark_challenges,
benchmark_play), as an instructor serves one: its roster and tournament.toml written
in a folder, `tournament.py serve` started there and stopped as Ctrl-C stops it, the
students' bots handed in from a terminal; and the figures the benchmarks share."""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any, Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BOT = ('def player(game, state):  # {student}, version {number}\n'
       '    return game.actions(state)[{pick}]\n')
"""A student's bot: version 1 plays the first legal move, version 2 the last."""

MET: dict[bool | None, str] = {True: 'met', False: 'NOT MET', None: '–'}
"""How a goal reads: met, not met, or none."""


def make_course(folder: str, args: argparse.Namespace) -> str:
    """Write the course folder's roster and tournament.toml; return the arena's address."""
    with socket.socket() as probe:  # a port no one listens on now
        probe.bind(('127.0.0.1', 0))
        port = probe.getsockname()[1]
    with open(os.path.join(folder, 'roster.csv'), 'w', newline='') as file:
        csv.writer(file).writerows([('id', 'name')] + [
            (f's{number:03d}', f'Student {number}') for number in range(args.students)])
    with open(os.path.join(folder, 'tournament.toml'), 'w') as file:  # JSON lists are TOML's
        file.write(f'variants = {json.dumps(args.variants)}\nplayers = '
                   f'{json.dumps(args.players.split(","))}\nmove-timeout = {args.move_timeout:g}\n'
                   f'jobs = {args.jobs}\nexecutor = "{args.executor}"\n\n[arena]\n'
                   f'roster = "roster.csv"\nport = {port}\n')
    return f'http://127.0.0.1:{port}'


def start_server(folder: str, url: str) -> subprocess.Popen:
    """Start `tournament.py serve` in the course folder; return it once it answers."""
    with open(os.path.join(folder, 'serve.log'), 'ab') as log:
        process = subprocess.Popen([sys.executable, os.path.join(ROOT, 'tournament.py'), 'serve'],
                                   cwd=folder, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    ends = time.monotonic() + 60
    while time.monotonic() < ends and process.poll() is None:
        try:
            urllib.request.urlopen(url + '/', timeout=2).close()
            return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    sys.exit(f'serve did not start:\n{open(os.path.join(folder, "serve.log")).read()}')


def stop_server(process: subprocess.Popen) -> int:
    """Stop the server as Ctrl-C does (its process group); return its exit status."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
    try:
        return process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return process.wait()


def cpu_seconds(pid: int) -> float:
    """Return the CPU time a process has used, user and system."""
    with open(f'/proc/{pid}/stat') as file:
        fields = file.read().rpartition(')')[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile of values (share from 0 to 1)."""
    return sorted(values)[max(0, min(len(values) - 1, round(share * len(values) + 0.5) - 1))]


def hand_in_all(url: str, tokens: dict[str, str]) -> None:
    """Hand in a bot for every student, over the terminal's route, and wait for the verdicts."""
    for student, token in tokens.items():
        request = urllib.request.Request(
            f'{url}/api/submit?filename=bot.py', BOT.format(student=student, number=1, pick=0)
            .encode(), {'Authorization': f'Bearer {token}'})
        urllib.request.urlopen(request, timeout=60).close()
    import httpx
    for student, token in tokens.items():
        ends = time.monotonic() + 120
        while httpx.get(f'{url}/api/versions/1', headers={'Authorization': f'Bearer {token}'},
                        timeout=60).json().get('checking'):
            if time.monotonic() > ends:
                sys.exit(f'no verdict for {student} in 120 s')
            time.sleep(0.2)


@contextlib.contextmanager
def signed_in(url: str, token: str) -> Iterator[Any]:
    """An httpx client signed in by a student's link and its form, as a browser is, with
    the header that carries its CSRF cookie set for the forms it posts."""
    import httpx
    with httpx.Client(base_url=url, timeout=60) as client:
        client.get(f'/signin/{token}')
        client.headers['x-csrftoken'] = client.cookies['csrftoken']
        client.post(f'/signin/{token}')
        yield client


def tokens(folder: str) -> dict[str, str]:
    """Return each student's sign-in token, from the links the server wrote."""
    with open(os.path.join(folder, 'arena', 'links.csv'), newline='') as file:
        return {row['id']: row['link'].rpartition('/signin/')[2] for row in csv.DictReader(file)}


@contextlib.contextmanager
def served(students: int, prefix: str) -> Iterator[tuple[str, str, dict[str, str]]]:
    """Serve a course of students (tic-tac-toe, random and ab2, jobs = 2, 1 s a move)
    in a new folder, each student's bot handed in and checked; give its folder, its
    address and the students' tokens; then stop the server, say how, and remove the
    folder. Without httpx, say what to install and exit."""
    if importlib.util.find_spec('httpx') is None:
        sys.exit("needs httpx: pip install -e '.[test]'")
    course = argparse.Namespace(students=students, variants=['tictactoe'],
                                players='random,ab2', move_timeout=1.0, jobs=2, executor='local')
    folder = tempfile.mkdtemp(prefix=prefix)
    try:
        url = make_course(folder, course)
        server = start_server(folder, url)
        try:
            found = tokens(folder)
            hand_in_all(url, found)
            yield folder, url, found
        finally:
            print(f'the server stopped by SIGINT, with exit status {stop_server(server)}')
    finally:
        shutil.rmtree(folder, ignore_errors=True)
