"""The arena's games on a Dask cluster, as a course runs them through a term: the
ladder played by a cluster's workers, a worker joining and another killed in the
middle of it, every game stored once and none forfeited, and the server stopped
cleanly."""

import importlib.util
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from arena_server import COURSE, ROSTER, ArenaServer

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    importlib.util.find_spec('distributed') is None,
    reason="needs Dask's distributed: pip install -e '.[dask]'")]

SLOW = 'import time\ndef player(game, state):\n    time.sleep(0.03)\n' \
       '    return game.actions(state)[0]\n'
"""A bot whose games last long enough for workers to come and go while they play."""


def dask(*args: str, folder) -> subprocess.Popen:
    """Start a Dask command (`dask scheduler`, `dask worker`) in a session of its own."""
    return subprocess.Popen([sys.executable, '-m', 'dask', *args], cwd=folder,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env={**os.environ, 'TMPDIR': str(folder)}, start_new_session=True)


def worker(file: str, folder) -> subprocess.Popen:
    return dask('worker', '--scheduler-file', file, '--nworkers', '1', '--nthreads', '1',
                '--no-dashboard', folder=folder)


def games(server: ArenaServer) -> list[tuple]:
    path = os.path.join(server.folder, 'arena', 'games.sqlite')
    if not os.path.exists(path):
        return []
    with sqlite3.connect(path) as connection:
        return connection.execute('SELECT "index", forfeit FROM games').fetchall()


def scheduler_address(file: str, timeout: float = 60) -> str:
    """Wait for the scheduler to write its file; return its address."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        try:
            with open(file) as opened:
                return json.load(opened)['address']
        except (OSError, ValueError, KeyError):  # not written yet, or half-written
            time.sleep(0.05)
    raise TimeoutError(f'no scheduler file {file} in {timeout} s')


def test_a_cluster_plays_the_ladder_while_workers_come_and_go(tmp_path):
    file = str(tmp_path / 'scheduler.json')
    started = [dask('scheduler', '--port', '0', '--dashboard-address', ':0',
                    '--scheduler-file', file, folder=tmp_path)]
    server = None
    try:
        address = scheduler_address(file)
        started.append(worker(file, tmp_path))  # the games wait for it while it starts
        course = COURSE.replace('players = ["random", "ab2"]', 'players = ["random"]') \
            + f'executor = "dask"\nscheduler = "{address}"\n'
        (tmp_path / 'course').mkdir()
        server = ArenaServer(tmp_path / 'course', course=course, roster=ROSTER,
                             staff=None).start()
        numbers = {student: server.submit(student, SLOW.encode())['number']
                   for student in ('alice', 'bob', 'carol')}
        for student, number in numbers.items():
            assert server.verdict(student, number)['status'] == 'plays', student
        ends = time.monotonic() + 120
        while len(games(server)) < 4:
            assert time.monotonic() < ends, 'the ladder played nothing on the cluster'
            time.sleep(0.05)
        whole = 2 * 6  # 4 players: 6 pairings, a pair of games each
        started.append(worker(file, tmp_path))  # a worker joins ...
        os.killpg(started[1].pid, signal.SIGKILL)  # ... and the first is lost mid-ladder
        assert len(games(server)) < whole
        while len(games(server)) < whole:
            assert time.monotonic() < ends, f'{len(games(server))} of {whole} games in 120 s'
            time.sleep(0.05)
        stored = games(server)
        assert sorted(index for index, _ in stored) == list(range(whole))  # each game once
        assert [forfeit for _, forfeit in stored if forfeit] == []  # a lost worker costs none
        assert server.stop() == 0
    finally:
        if server is not None:
            server.close()
        for process in reversed(started):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
