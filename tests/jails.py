"""What the tests that run jails share: the levels to run at, a parent that adopts
what a run leaves behind, round robins of players' code on worker processes, and a
game's outcome without its timings."""

import contextlib
import ctypes
import os
import sqlite3
import time
from functools import partial

import pytest

import players
import variants
from players.remote.jailed_player import LOAD_SECONDS
from players.sandbox import jail_server, level_choice, servers
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.runner import run
from players.tournaments.schedule import schedule
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
from players.tournaments.workers import WorkerPool

BWRAP_PROBLEM = level_choice.problem('bwrap')
"""Why bubblewrap cannot jail here (None where it can)."""
LEVELS = ['process', pytest.param('bwrap', marks=pytest.mark.skipif(
    BWRAP_PROBLEM is not None, reason=f'bubblewrap cannot jail here: {BWRAP_PROBLEM}'))]
"""The jail levels a test runs at: bwrap where it works."""
GENEROUS = 5.0
"""The move time limit of runs where no player waits it out: no player that answers
at once runs it out, however busy the machine."""
VARIANT = 'nim(piles=(2, 3))'
"""The variant of a round robin unless told."""
ORPHANS_SECONDS = 30
"""The longest the processes a run started may take to end after it (well under a second)."""


@contextlib.contextmanager
def adopting_orphans():
    """Make this process adopt every orphan of what it starts, wait for each to end
    (the orphans of those that end meanwhile too), and fail if any process it
    started (or that they started) is still alive ORPHANS_SECONDS after the end."""
    earlier = set(jail_server._children())  # started by other tests, still ending
    prctl = ctypes.CDLL(None).prctl
    prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    try:
        yield
    finally:
        servers.close_servers()  # this process's jail servers, and every jail they hold
        deadline = time.monotonic() + ORPHANS_SECONDS
        while True:  # processes killed as the run ended take a moment to go
            alive = [pid for pid in jail_server._children()
                     if pid not in earlier and not _reaped(pid)]
            if not alive or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        prctl(36, 0, 0, 0, 0)
    for pid in alive:
        jail_server._kill_group(pid)
        os.waitpid(pid, 0)
    assert not alive, f'processes left after the run: {[_command(pid) for pid in alive]}'


def _command(pid):
    """Return a process's command line, for messages."""
    with open(f'/proc/{pid}/cmdline', 'rb') as file:
        return file.read().replace(b'\0', b' ').decode(errors='replace')


def _reaped(pid):
    """Reap a child that has ended; return False if it is still running."""
    try:
        return os.waitpid(pid, os.WNOHANG)[0] == pid
    except ChildProcessError:
        return True


def round_robin(tmp_path, codes, variant=VARIANT, jobs=2, sandbox='process', timeout=GENEROUS):
    """Play a round robin of the players (name: PlayerCode); return the records."""
    return round_robins(tmp_path, [codes], variant, jobs, sandbox, timeout)[0]


def round_robins(tmp_path, runs, variant=VARIANT, jobs=2, sandbox='process', timeout=GENEROUS):
    """Play a round robin of each set of players (name: PlayerCode) in runs, one
    after the other on the same workers, each move within timeout seconds; return
    each one's records."""
    rules = Rules(move_timeout=timeout, sandbox=sandbox)
    found = []
    with adopting_orphans():
        with WorkerPool(jobs, hard_timeout=2 * LOAD_SECONDS + timeout + 5) as executor:
            for number, codes in enumerate(runs):
                folder = tmp_path / str(number)
                folder.mkdir(parents=True)
                job = partial(play_scheduled_game, rules=rules, players=codes,
                              make_game=variants.make, load_player=players.load_player)
                store = Store(str(folder / 'games.sqlite'), RunSettings(players=()))
                run(schedule(list(codes), [variant], 1, seed=0), job, executor, store,
                    in_flight=2 * jobs)
                found.append(list(store.records()))
                store.close()
    for records in found:
        assert [record.index for record in records] == list(range(len(records)))
    return found


def outcome(record):
    """What a game's result is, without its timings."""
    return {key: getattr(record, key) for key in ('variant', 'first', 'second', 'score',
                                                  'termination', 'forfeit', 'moves')}


def stored(db):
    """How many games a run's --db file holds so far (0 before it has any)."""
    try:
        with sqlite3.connect(f'file:{db}?mode=ro', uri=True) as connection:
            return connection.execute('SELECT COUNT(*) FROM games').fetchone()[0]
    except sqlite3.Error:
        return 0
