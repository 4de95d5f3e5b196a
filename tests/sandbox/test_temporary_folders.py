"""Every file and folder a run makes in the temporary folder (tempfile's: TMPDIR)
is gone once it has ended and its processes with it: a run that ends normally,
by an error, by Ctrl-C or killed, at each jail level, and a worker lost mid-game.
Each test gives the run a fresh temporary folder of its own, so that other tests
running meanwhile do not disturb the count."""

import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest
from places import ROOT

from players.sandbox import jail
from players.tournaments.workers import WorkerLost, WorkerPool

from jails import LEVELS, adopting_orphans

pytestmark = pytest.mark.slow

FIRST = os.path.join(ROOT, 'tests', 'hostile_players.py') + ':first'
PLAYERS = ['--players', f'random,ab1,{FIRST}', '--variants', 'simple-nim']
"""Registry players, jailed at the process level, and a file player, at the level asked."""
WAIT_SECONDS = 60
"""The longest to wait for a run to start its jail servers (it takes well under a second)."""


def tournament(tmp_path, *args, stop=None):
    """Run python tournament.py with args and a temporary folder of its own; with
    stop, a signal, send it to the run's process group once the run has printed its
    header (its results file is open) and a jail server has made its folder (as a
    terminal's Ctrl-C does; SIGKILL goes to the run alone, and its workers are
    lost). Return the run's exit status and what is left in the temporary folder
    once the run and all it started have ended."""
    temporary = tmp_path / 'tmp'
    temporary.mkdir()
    made = os.stat(temporary).st_mtime_ns
    with adopting_orphans():
        process = subprocess.Popen(
            [sys.executable, 'tournament.py', *args], cwd=ROOT, start_new_session=True,
            env={**os.environ, 'TMPDIR': str(temporary)}, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True)
        if stop is not None:
            process.stdout.readline()
            deadline = time.monotonic() + WAIT_SECONDS
            while (not any(name.startswith('jail-server-') for name in os.listdir(temporary))
                   and process.poll() is None and time.monotonic() < deadline):
                time.sleep(0.01)
            assert process.poll() is None, 'the run ended before it was stopped; make it longer'
            if stop == signal.SIGKILL:
                process.kill()
            else:
                os.killpg(process.pid, stop)
        process.communicate()
    assert os.stat(temporary).st_mtime_ns != made, 'the run made nothing in TMPDIR'
    return process.returncode, sorted(os.listdir(temporary))


@pytest.mark.parametrize('level', LEVELS)
def test_a_run_that_ends_leaves_nothing(tmp_path, level):
    assert tournament(tmp_path, *PLAYERS, '--sandbox', level) == (0, [])


def test_a_run_that_stops_on_an_error_leaves_nothing(tmp_path):
    broken = tmp_path / 'broken.py'
    broken.write_text("raise ImportError('no such thing')\n")
    assert tournament(tmp_path, '--players', f'ab1,{FIRST},{broken}', '--strict') == (2, [])


@pytest.mark.parametrize('stop, level, status', [
    (signal.SIGINT, 'process', 130),
    pytest.param(signal.SIGKILL, 'bwrap', -signal.SIGKILL, marks=LEVELS[-1].marks)])
def test_a_run_stopped_by_ctrl_c_or_killed_leaves_nothing(tmp_path, stop, level, status):
    assert tournament(tmp_path, *PLAYERS, '--games', '2000', '--sandbox', level,
                      stop=stop) == (status, [])


def lost_after_a_jail_starts(level):
    """In a worker: start a jail, see it answer, and end the worker without a word."""
    with jail.Jail('players.sandbox.jail_server:probe', level) as probe:
        probe.receive(WAIT_SECONDS)
        os._exit(9)


@pytest.mark.parametrize('level', LEVELS)
def test_a_worker_lost_with_its_jails_leaves_nothing(tmp_path, monkeypatch, level):
    monkeypatch.setattr(tempfile, 'tempdir', str(tmp_path))  # the forked worker's too
    made = os.stat(tmp_path).st_mtime_ns
    with adopting_orphans():
        with WorkerPool(1) as pool:
            with pytest.raises(WorkerLost):
                pool.submit(lost_after_a_jail_starts, level).result()
    assert os.listdir(tmp_path) == []
    assert level == 'bwrap' or os.stat(tmp_path).st_mtime_ns != made, 'nothing made in TMPDIR'
