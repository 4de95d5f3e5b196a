"""What no jail reaches, whatever kind of player runs in it (a Python file or a
program given alone), at both levels, run from a login session that holds a key
(as an instructor's ssh session may): the kernel's keyrings, the machine's
loopback (where a Dask scheduler listens), the trusted side's processes, the
machine's temporary folders, and the files beside a program given alone. Each
prober plays real tournaments and says what it reached by failing its game
with it."""

import ctypes
import glob
import json
import os
import platform
import re
import shutil
import socket
import subprocess
import sys
import tempfile

import pytest
from jails import LEVELS
from places import ROOT

from players.sandbox import keyrings

pytestmark = pytest.mark.slow

KEY_CALLS = {'x86_64': (248, 250), 'aarch64': (217, 219)}
"""The numbers of add_key and keyctl on the machines the probers know."""
MARK = 'aima-mark-'
"""The start of the name of each file a prober leaves in a temporary folder."""
PROBE = '''
import ctypes, os, platform, random, socket

ADD_KEY, KEYCTL = {key_calls}[platform.machine()]
SESSION, USER, SEARCH = -3, -4, 10


def reached(port, trusted_pid, beside):
    """Return what this jail reaches that it should not, leaving its marks."""
    found = []
    libc = ctypes.CDLL(None, use_errno=True)
    search = lambda ring, name: libc.syscall(KEYCTL, SEARCH, ctypes.c_long(ring), b'user',
                                             name, 0)
    if search(SESSION, b'grading-api-token') > 0:
        found.append('the session key')
    try:
        with open('/proc/keys') as file:
            if 'grading-api-token' in file.read():
                found.append('the session key in /proc/keys')
    except OSError:
        pass
    try:
        with open('/proc/key-users') as file:
            if file.read().strip():
                found.append("the users' key counts")
    except OSError:
        pass
    if search(USER, b'{mark}') > 0:
        found.append('a key of an earlier jail')
    if libc.syscall(ADD_KEY, b'user', b'{mark}', b'x', 1, ctypes.c_long(USER)) > 0:
        found.append('a keyring to keep a key in')
    try:
        socket.create_connection(('127.0.0.1', port), timeout=1).close()
        found.append('the loopback')
    except OSError:
        pass
    if os.path.exists(f'/proc/{{trusted_pid}}/cmdline'):
        found.append('the trusted process')
    for folder in ('/tmp', '/dev/shm', '/var/tmp'):
        try:
            if any(name.startswith('{mark}') for name in os.listdir(folder)):
                found.append(f'a mark in {{folder}}')
            with open(os.path.join(folder, '{mark}' + str(random.random())), 'w') as file:
                file.write('here')
        except OSError:
            pass
    try:
        with open(beside) as file:
            found.append('the file beside it: ' + file.read())
    except OSError:
        pass
    return found
'''
PYTHON_PLAYER = '''{probe}
WHERE = ({port}, {pid}, {beside!r})


def player(game, state):
    raise RuntimeError(f'reached {{reached(*WHERE)}}')
'''
PROGRAM = '''#!/usr/bin/env python3
import json, sys
{probe}
WHERE = ({port}, {pid}, {beside!r})

for line in sys.stdin:
    message = json.loads(line)
    if message['type'] == 'start':
        print(json.dumps({{'type': 'ready'}}), flush=True)
    elif message['type'] == 'move':
        print(f'reached {{reached(*WHERE)}}', file=sys.stderr, flush=True)
        sys.exit(3)
'''
SESSION_KEY = '''
import ctypes, platform, sys
ADD_KEY, KEYCTL = {key_calls}[platform.machine()]
libc = ctypes.CDLL(None, use_errno=True)
if libc.syscall(KEYCTL, 1, None) > 0:  # a session keyring of its own, as pam_keyinit gives
    libc.syscall(ADD_KEY, b'user', b'grading-api-token', b'secret', 6, ctypes.c_long(-3))
import tournament
sys.exit(tournament.main(sys.argv[1:]))
'''


@pytest.fixture
def listening():
    """A server on the machine's loopback, as a Dask scheduler listens; its port."""
    with socket.create_server(('127.0.0.1', 0)) as server:
        yield server.getsockname()[1]


@pytest.fixture
def class_folder():
    """A folder every user may read (as a jail's own user must): the probers, and a
    file of another student's beside them."""
    made = tempfile.mkdtemp(prefix='aima-confined-')
    os.chmod(made, 0o755)
    yield made
    shutil.rmtree(made)
    for leftover in marks():
        os.remove(leftover)


def marks() -> list[str]:
    """The marks probers left in the machine's temporary folders."""
    return [path for folder in ('/tmp', '/dev/shm', '/var/tmp')
            for path in glob.glob(os.path.join(folder, MARK + '*'))]


def write_probers(folder: str, port: int) -> tuple[str, str]:
    """Write the Python prober and the program prober in folder, beside another
    student's file; return their specs."""
    beside = os.path.join(folder, 'bob-secret.txt')
    with open(beside, 'w') as file:
        file.write("bob's program")
    probe = PROBE.format(key_calls=KEY_CALLS, mark=MARK)
    filled = dict(probe=probe, port=port, pid=os.getpid(), beside=beside)
    python_player, program = os.path.join(folder, 'alice.py'), os.path.join(folder, 'carol')
    for path, text in ((python_player, PYTHON_PLAYER), (program, PROGRAM)):
        with open(path, 'w') as file:
            file.write(text.format(**filled))
        os.chmod(path, 0o755)
    return python_player, program


@pytest.mark.skipif(platform.machine() not in KEY_CALLS, reason='the probers know no key calls '
                    f'on {platform.machine()}')
@pytest.mark.parametrize('level', LEVELS)
def test_no_player_reaches_keys_the_network_processes_or_anothers_files(
        class_folder, listening, tmp_path, level):
    if level == 'process' and os.geteuid() != 0:
        pytest.skip('a process jail run by an ordinary user is that user (see docs/fair-play.md)')
    python_player, program = write_probers(class_folder, listening)
    out = tmp_path / 'run.json'
    command = [sys.executable, '-c', SESSION_KEY.format(key_calls=KEY_CALLS),
               '--players', f'alice={python_player},carol={program},random',
               '--variants', 'simple-nim', '--games', '2', '--jobs', '1',
               '--sandbox', level, '--json', str(out)]
    ran = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr
    games = json.loads(out.read_text())['games']
    probed = [game for game in games if game['forfeit'] in ('alice', 'carol')]
    assert len(probed) == 12  # every game has a prober in it, which fails at its move
    said = {(game['forfeit'], re.search(r'reached (\[[^]]*\])|$', game['detail'])[0])
            for game in probed}
    assert said == {('alice', 'reached []'), ('carol', 'reached []')}
    assert not marks()


@pytest.mark.skipif(not keyrings.supported(), reason=f'no key filter on {platform.machine()}')
def test_the_key_filter_fails_only_the_key_calls():
    script = ('import ctypes, errno, os, sys\n'
              'from players.sandbox import confine, keyrings\n'
              'libc = ctypes.CDLL(None, use_errno=True)\n'
              'confine.prctl(confine.PR_SET_NO_NEW_PRIVS, 1)\n'
              'keyrings.shut_off_keys()\n'
              f'for number in {KEY_CALLS[platform.machine()]}:\n'
              '    assert libc.syscall(number, 0, 0, 0, 0, 0) == -1\n'
              '    assert ctypes.get_errno() == errno.ENOSYS\n'
              'print(os.getpid() > 0, open(os.devnull).read() == "")\n')
    ran = subprocess.run([sys.executable, '-c', script], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert (ran.returncode, ran.stdout) == (0, 'True True\n'), ran.stderr


LOOKER = '''
import os

import games


def player(game, state):
    """Say whether the project's packages are there to import, and whether they can
    be written."""
    folder = os.path.dirname(games.__file__)
    try:
        open(os.path.join(folder, 'written.txt'), 'w').close()
        written = 'written'
    except OSError:
        written = 'read-only'
    raise RuntimeError(f'saw {"nim.py" in os.listdir(folder)}, {written}')
'''


@pytest.mark.parametrize('level', LEVELS)
def test_a_project_kept_under_tmp_is_there_for_its_jails_read_only(class_folder, tmp_path,
                                                                    level):
    project = os.path.join(class_folder, 'project')  # under /tmp, which each jail has afresh
    for name in ('games', 'players', 'variants', 'tournament.py'):
        copy = shutil.copytree if name != 'tournament.py' else shutil.copy
        copy(os.path.join(ROOT, name), os.path.join(project, name))
    looker = os.path.join(class_folder, 'looker.py')
    with open(looker, 'w') as file:
        file.write(LOOKER)
    out = tmp_path / 'run.json'
    ran = subprocess.run([sys.executable, 'tournament.py', '--players', f'{looker},random',
                          '--variants', 'simple-nim', '--jobs', '1', '--sandbox', level,
                          '--json', str(out)], cwd=project, capture_output=True, text=True,
                         timeout=300)
    assert ran.returncode == 0, ran.stderr
    details = {game['detail'] for game in json.loads(out.read_text())['games']}
    assert details == {'RuntimeError: saw True, read-only (looker.py, line 16)'}
