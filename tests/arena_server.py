"""A class arena for the tests, served as an instructor serves one: a course folder with
its tournament.toml and roster, and `tournament serve` started in it, in a process of
its own on a free port, until it is stopped (Ctrl-C) or killed (kill -9)."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterator

from places import ROOT
from players.cli.serve_command import ask

ROSTER = [('alice', 'Alice Liddell'), ('bob', 'Bob <b>Builder</b>'), ('carol', 'Carol')]
"""The tests' class: bob's name holds markup, which every page must show as text."""
COURSE = '''variants = ["tictactoe"]
players = ["random", "ab2"]
move-timeout = 2
jobs = 2
'''
"""The tests' course: two of the course's own players on tic-tac-toe."""
STAFF = ('prof', 'correct horse battery')
"""The tests' member of staff and their password."""
GOOD = 'def player(game, state):\n    print("my move from", state.to_move)\n' \
       '    return game.actions(state)[0]\n'
"""A bot that plays (the first legal move) and writes a line of log each move."""
BROKEN = 'def player(game, state)\n    return None\n'
"""A bot with a syntax error on line 1."""
FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'
"""A bot that plays the first legal move, and writes nothing."""
POLL_SECONDS = 0.05
"""How often a test asks a starting server whether its pages answer, or a version
whether its verdict has come."""


def version_that_plays(records, folder, student: str, source: str = FIRST_MOVE):
    """Record a new version of student's that plays (the student added as
    `Student` if new), its code source in a file of its own in folder; return it."""
    records.add_student(student, student.title())
    path = os.path.join(str(folder), f'{student}-{records.next_number(student)}.py')
    with open(path, 'w') as file:
        file.write(source)
    version = records.add_version(student, 'digest', os.path.basename(path), path)
    records.set_verdict(student, version.number, 'plays')
    return records.version(student, version.number)


CHROMIUM = next(filter(None, map(shutil.which, ('chromium', 'chromium-browser'))), None)
"""The system's Chromium, which the browser tests drive (None where it is not installed)."""
FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run',
         '--disable-default-apps', '--mute-audio']
"""Chromium's flags in the tests: headless, quiet, no network of its own."""


@contextlib.contextmanager
def headless_chromium() -> Iterator:
    """The system's Chromium, headless, driven by Playwright (a browser to open
    contexts in); closed at the block's end."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            yield browser
        finally:
            browser.close()


def playwright_or_skip():
    """Return Playwright's sync API; without it, or without Chromium, skip the module
    that asks (the browser tests)."""
    import pytest
    sync_api = pytest.importorskip('playwright.sync_api',
                                   reason='playwright is not installed (pip install playwright)')
    if CHROMIUM is None:
        pytest.skip('Chromium is not installed (apt-get install chromium)',
                    allow_module_level=True)
    return sync_api


@contextlib.contextmanager
def signed_in(server: 'ArenaServer', student: str) -> Iterator:
    """An httpx client signed in as the student, by their link and its form."""
    import httpx
    with httpx.Client(base_url=server.url, timeout=30) as client:
        client.get(f'/signin/{server.token(student)}')
        assert client.post(f'/signin/{server.token(student)}',
                           headers=csrf(client)).status_code == 200
        yield client


def csrf(client) -> dict[str, str]:
    """The header that carries an httpx client's CSRF cookie, as the pages' script sends it."""
    return {'x-csrftoken': client.cookies['csrftoken']}


def free_port() -> int:
    """Return a port no one listens on now."""
    with socket.socket() as probe:
        probe.bind(('127.0.0.1', 0))
        return probe.getsockname()[1]


class ArenaServer:
    """`tournament serve` in a course folder: started by start(), stopped by stop() or
    kill()."""

    def __init__(self, folder: str, course: str = COURSE, arena_table: str = '',
                 roster=ROSTER, staff=STAFF):
        self.folder = str(folder)
        self.port = free_port()
        self.url = f'http://127.0.0.1:{self.port}'
        with open(os.path.join(self.folder, 'roster.csv'), 'w', newline='') as file:
            columns = ('id', 'name', 'email')[:max(len(row) for row in roster)]
            csv.writer(file).writerows([columns, *roster])  # an email column if rows give one
        with open(os.path.join(self.folder, 'tournament.toml'), 'w') as file:
            file.write(course + f'\n[arena]\nroster = "roster.csv"\nport = {self.port}\n'
                       + arena_table)
        self.process: subprocess.Popen | None = None
        self.log = os.path.join(self.folder, 'serve.log')
        if staff:
            done = self.command('serve', '--staff', staff[0], stdin=f'{staff[1]}\n{staff[1]}\n')
            assert done.returncode == 0, done.stderr

    def command(self, *args: str, stdin: str = '', timeout: float = 60) -> subprocess.CompletedProcess:
        """Run the command line in the course folder, as the instructor types it."""
        return subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), *args],
                              cwd=self.folder, input=stdin, capture_output=True, text=True,
                              timeout=timeout)

    def start(self, timeout: float = 30) -> 'ArenaServer':
        """Start serving; return once the pages answer."""
        with open(self.log, 'ab') as log:
            self.process = subprocess.Popen(
                [sys.executable, os.path.join(ROOT, 'tournament.py'), 'serve'], cwd=self.folder,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            if self.process.poll() is not None:
                raise RuntimeError(f'serve ended: {open(self.log).read()}')
            try:
                urllib.request.urlopen(self.url + '/', timeout=2).close()
                return self
            except (urllib.error.URLError, OSError):
                time.sleep(POLL_SECONDS)
        raise RuntimeError(f'serve did not answer in {timeout} s: {open(self.log).read()}')

    def token(self, student: str) -> str:
        """Return a student's sign-in token, from the links file."""
        with open(os.path.join(self.folder, 'arena', 'links.csv'), newline='') as file:
            for row in csv.DictReader(file):
                if row['id'] == student:
                    return row['link'].rpartition('/signin/')[2]
        raise KeyError(student)

    def link(self, student: str) -> str:
        """Return a student's sign-in link."""
        return f'{self.url}/signin/{self.token(student)}'

    def submit(self, student: str, data: bytes, filename: str = 'mine.py') -> dict:
        """Hand in data as the student, over the terminal's route, as submit does (an
        answer that comes before all the data is sent is read); return the answer."""
        return ask(f'{self.url}/api/submit?{urllib.parse.urlencode({"filename": filename})}',
                   {'Authorization': f'Bearer {self.token(student)}'}, data)

    def version(self, student: str, number: int) -> dict:
        """Return a version of a student's, as the terminal's route tells it."""
        request = urllib.request.Request(
            f'{self.url}/api/versions/{number}',
            headers={'Authorization': f'Bearer {self.token(student)}'})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    def verdict(self, student: str, number: int, timeout: float = 60) -> dict:
        """Wait for a version's verdict; return the version."""
        ends = time.monotonic() + timeout
        while time.monotonic() < ends:
            found = self.version(student, number)
            if not found['checking']:
                return found
            time.sleep(POLL_SECONDS)
        raise TimeoutError(f'no verdict for {student} version {number} in {timeout} s')

    def stop(self) -> int:
        """Stop serving as Ctrl-C does; return the exit status."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            raise

    def kill(self) -> None:
        """Kill the server's process, as kill -9 does: what it started is left to
        notice that it is gone."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def close(self) -> None:
        """Stop the server if it runs, and kill anything it left in its process group."""
        if self.process is not None:
            if self.process.poll() is None:
                try:
                    self.stop()
                except subprocess.TimeoutExpired:
                    pass
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
