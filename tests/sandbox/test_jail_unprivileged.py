"""Bubblewrap's jails for an ordinary user, as on a course server where the instructor
is not root: bubblewrap works, and a jail leaves nothing for the next one to find
(what bubblewrap makes for the server is read-only). Run as root, the test takes an
ordinary user (nobody) with the system's Python and a copy of the packages."""

import os
import shutil
import subprocess
import tempfile

import pytest
from places import ROOT

from players.sandbox import level_choice

PYTHON = '/usr/bin/python3'
PROBE = '''import os


def probe(channel):
    """Say which marks an earlier jail left, and leave them where it can."""
    copy = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    places = ('/mark', '/dev/mark', '/dev/shm/mark', os.path.join(copy, 'mark'))
    found = [path for path in places if os.path.exists(path)]
    for path in places:
        try:
            with open(path, 'w') as file:
                file.write('left by an earlier jail')
        except OSError:
            pass
    channel.send({'found': found})
'''
TWO_JAILS = '''import sys
sys.path.insert(0, sys.argv[1])
from players.sandbox.jail import Jail
from players.sandbox.level_choice import problem
print(problem('bwrap'))
for _ in range(2):
    with Jail('players.sandbox.marks:probe', 'bwrap', packages=('games',)) as marked:
        print(marked.receive(30))
'''


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which('setpriv') is None
                    or not os.path.exists(PYTHON) or level_choice.problem('bwrap') is not None,
                    reason='needs root (to become nobody), setpriv, the system Python and '
                    'bubblewrap working here')
def test_an_ordinary_users_jails_work_and_share_nothing():
    copy = tempfile.mkdtemp(prefix='aima-unprivileged-')
    try:
        for package in ('games', 'players', 'variants'):
            shutil.copytree(os.path.join(ROOT, package), os.path.join(copy, package),
                            ignore=shutil.ignore_patterns('__pycache__'))
        with open(os.path.join(copy, 'players', 'sandbox', 'marks.py'), 'w') as file:
            file.write(PROBE)
        subprocess.run(['chmod', '-R', 'a+rX', copy], check=True)
        done = subprocess.run(
            ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', PYTHON, '-B', '-c',
             TWO_JAILS, copy], capture_output=True, text=True, timeout=120, cwd=copy,
            env={'PATH': '/usr/bin:/bin', 'HOME': copy, 'TMPDIR': copy})
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ['None', "{'found': []}", "{'found': []}"]
        assert not os.path.exists(os.path.join(copy, 'mark'))
    finally:
        shutil.rmtree(copy)
