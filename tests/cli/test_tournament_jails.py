"""The tournament command with hostile players: its results files, the processes
it leaves, and bubblewrap's view of the filesystem."""

import json
import os
import sqlite3
import stat
import subprocess
import sys
import textwrap

import pytest
from places import ROOT

from players.sandbox import level_choice

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(ROOT, 'tests', 'hostile_players.py')
SMALL = ['--variants', 'nim(piles=(2, 3))', '--move-timeout', '2', '--jobs', '2']
ADOPTING = textwrap.dedent('''
    import ctypes, os, subprocess, sys, time
    ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # adopt every orphan of the run
    status = subprocess.run(sys.argv[1:]).returncode
    for _ in range(40):  # processes killed at the end take a moment to go
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        left = open(f'/proc/self/task/{os.getpid()}/children').read().split()
        if not left:
            break
        time.sleep(0.05)
    print(f'status {status}; left {left}')
''')
"""Runs a command and then says which of its processes (and theirs) are still alive."""


def tournament(*args, cwd=ROOT):
    """Run tournament.py under a parent that adopts its orphans; return what it
    printed, having checked that it succeeded and left no process behind."""
    done = subprocess.run([sys.executable, '-c', ADOPTING, sys.executable,
                           os.path.join(ROOT, 'tournament.py'), *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)
    assert done.stdout.rstrip().endswith('status 0; left []'), done.stdout[-300:] + done.stderr
    return done.stdout


def records(db):
    connection = sqlite3.connect(db)
    rows = connection.execute('SELECT "index", first, second, score, termination FROM games '
                              'ORDER BY "index"').fetchall()
    connection.close()
    return rows


@pytest.mark.skipif(os.geteuid() != 0, reason='only a jail started by root has a user of its own')
def test_results_files_in_a_shared_folder_are_out_of_a_players_reach(tmp_path_factory):
    """The tamperer finds --db and --json on its parents' command lines and tries to
    rewrite, delete, rename or replace them with folders, in a folder anyone may
    write to (like /tmp); the results are whole and the same as with a plain player."""
    shared = tmp_path_factory.mktemp('shared')
    os.chmod(shared, 0o1777)
    for parent in shared.parents:  # let the jail's user reach the shared folder
        if str(parent).startswith('/tmp/'):
            os.chmod(parent, os.stat(parent).st_mode | stat.S_IXOTH)
    runs = {}
    for name in ('tamperer', 'first'):
        db, report = shared / f'{name}.sqlite', shared / f'{name}.json'
        tournament('--players', f'hostile={HOSTILE}:{name},random,ab2', *SMALL,
                   '--sandbox', 'process', '--db', str(db), '--json', str(report))
        with open(report) as file:
            assert len(json.load(file)['games']) == 6
        runs[name] = records(db)
    assert runs['tamperer'] == runs['first']
    assert not [path for path in os.listdir(shared) if not path.endswith(('.sqlite', '.json'))]


def test_a_player_that_forks_and_hides_leaves_nothing_behind():
    out = tournament('--players', f'{HOSTILE}:lingerer,random', *SMALL, '--sandbox', 'process')
    assert 'Forfeits' not in out or 'lingerer' not in out.split('Forfeits')[1].split('\n\n')[0]


@pytest.mark.skipif(level_choice.problem('bwrap') is not None,
                    reason=f'bubblewrap cannot jail here: {level_choice.problem("bwrap")}')
def test_under_bwrap_a_player_cannot_read_another_players_file_or_write_the_db(tmp_path):
    """The snoop plays an illegal move, and so forfeits, only if it could read the
    other player's file or open the --db for writing."""
    db = tmp_path / 'run.sqlite'
    snoop = tmp_path / 'snoop.py'
    snoop.write_text(textwrap.dedent(f'''
        def player(game, state):
            for path, mode in (({HOSTILE!r}, 'r'), ({str(db)!r}, 'r+b'), ({str(db)!r}, 'w')):
                try:
                    open(path, mode).close()
                    return (99, 99)
                except OSError:
                    pass
            return game.actions(state)[0]
    '''))
    out = tournament('--players', f'{snoop},{HOSTILE}:first,random', *SMALL, '--sandbox', 'bwrap',
                     '--db', str(db))
    assert 'Jails: bwrap' in out
    rows = records(db)
    assert len(rows) == 6 and all(row[4] == 'normal' for row in rows)
