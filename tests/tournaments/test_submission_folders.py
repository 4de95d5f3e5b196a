"""A class's real submissions play as they are (issue 25): a folder with its own
modules, subpackage and data files plays from its folder; a single file stays
alone; a run's allowed packages are imported, no other installed one; and
hostile folders (links out, too big, too many files, modules named like the
standard library's or the project's, sitecustomize.py and .pth files, marks
left for the next game, a lingering fork, prying for the run's files, others'
files, /proc, the loopback, abstract sockets and System V IPC, a file and a
folder named as carol's files would be in a spec, a file too big to read) lose
their own games alone, or cannot load, and change no other game, at each jail
level and where jails may not mount anything.

What happens to a folder's modules named like modules the jail imported before
the player (the project's games, the standard json and random: see
players.sandbox.jail_server.PRELOADED): the jail's own are used, never the folder's,
and an error about them says so; a module named like a standard one the jail
did not import (glob.py) is the folder's, for that player alone. Where jails
may not mount (a container without CAP_SYS_ADMIN), a jail sees no file at all
and imports only the modules its server imported: sqlite3 cannot load there.
Nor can it have namespaces of its own there: it shares the machine's network
and System V IPC, which pry does not reach for in that run."""

import ctypes
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import zlib

import pytest
from places import ROOT

from command_line import run
from games import referee
from jails import LEVELS, adopting_orphans
from test_tournament_broken import OPTIONS

pytestmark = pytest.mark.slow

BOOK = {pile: 1 + pile * 7 % 3 if pile > 3 else pile for pile in range(1, 13)}
"""Carol's opening book: how many counters she takes from a pile of simple-nim."""
COLONS = {'carol:player': 'carol:player.py', 'carol:helper': 'carol:helper.py:pick/player.py'}
"""Entries named as carol's player.py and her helper's pick would be in specs, by
their names in the run: each plays its own code, which says what it is."""
FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'
CAROL = {
    'carol/player.py': 'import os\n\nfrom helper import pick\nfrom lib import parse\n\n'
                       "with open(os.path.join(os.path.dirname(__file__), 'book.txt')) as file:\n"
                       '    BOOK = parse(file.read())\n\n\n'
                       'def player(game, state):\n'
                       "    with open('book.txt') as file:  # the working folder is hers\n"
                       '        assert parse(file.read()) == BOOK\n'
                       '    return pick(game, state, BOOK)\n',
    'carol/helper.py': 'def pick(game, state, book):\n'
                       '    take = book[state.board[0]]\n'
                       '    return next(move for move in game.actions(state) if move[1] == take)\n',
    'carol/lib/__init__.py': 'def parse(text):\n'
                             '    return dict(map(int, line.split()) for line in text.split("\\n")'
                             ' if line)\n',
    'carol/book.txt': ''.join(f'{pile} {take}\n' for pile, take in BOOK.items()),
}
"""A submission folder: its helper module, subpackage and opening book."""
SUBMISSIONS = {
    **CAROL,
    'bob.py': FIRST_MOVE,
    'broken.py': 'def player(game, state)\n',
    'dana/player.py': 'import numpy\n\n\ndef player(game, state):\n'
                      '    moves = game.actions(state)\n'
                      '    product = numpy.array([[1, 2], [3, 4]]) @ numpy.eye(2)\n'
                      '    return moves[int(product[1, 0]) % len(moves)]\n',
    'erin/player.py': 'import sqlite3\n\n\ndef player(game, state):\n'
                      "    (index,) = sqlite3.connect(':memory:').execute('select 1').fetchone()\n"
                      '    return game.actions(state)[-index]\n',
    'shadow/json.py': 'def dumps(*args, **options):\n    return "hijacked"\n',
    'shadow/random.py': 'def choice(moves):\n    return moves[-1]\n',
    'shadow/glob.py': 'OWN = True\n',
    'shadow/player.py': 'import glob\nimport json\nimport os\nimport random\n\n\n'
                        'def player(game, state):\n'
                        "    ran = [name for name in ('PTH', 'SITE', 'USER')\n"
                        '           if name in os.environ]\n'
                        "    assert json.dumps([1]) == '[1]' and glob.OWN and not ran\n"
                        "    assert b'\\xe9t\\xe9.txt' in os.listdir(b'.')  # not UTF-8\n"
                        '    return random.choice(game.actions(state))\n',
    'aima/games.py': '"""Games, or adversarial search: an old aima-python games.py."""\n\n'
                     'import random\nfrom collections import namedtuple\n\n'
                     "GameState = namedtuple('GameState', 'to_move, utility, board, moves')\n\n\n"
                     'class Game:\n    def actions(self, state):\n'
                     '        raise NotImplementedError\n\n\n'
                     'def first_legal(game, state):\n    return game.actions(state)[0]\n',
    'aima/player.py': 'import games\nfrom games import Game\n\n\ndef player(game, state):\n'
                      '    return games.first_legal(game, state)\n',
    'forker/player.py': 'import os\nimport time\n\nimport numpy\n\n\n'
                        'def player(game, state):\n'
                        '    if os.fork() == 0:  # a child in a session of its own, lingering\n'
                        '        try:\n'
                        '            os.setsid()\n'
                        '            numpy.ones((2, 2)) @ numpy.ones((2, 2))\n'
                        '            time.sleep(600)\n'
                        '        finally:\n'
                        '            os._exit(0)\n'
                        '    return game.actions(state)[0]\n',
    'linker/player.py': FIRST_MOVE,
    'passwd/player.py': FIRST_MOVE,
    'big/player.py': FIRST_MOVE,
    'many/player.py': FIRST_MOVE,
    **{f'many/data/{number}.txt': f'{number}\n' for number in range(30)},
    **{path: f'def player(game, state):\n    raise RuntimeError("I am {path}")\n'
       for path in COLONS.values()},
    'huge.py': FIRST_MOVE,
}
"""A class's folder of submissions; pry's and shadow's site files, and the links, are
added by write_class, which knows where the run keeps its files."""
FILES = {'alice.py': 'from helper import pick\n\n\ndef player(game, state):\n'
                     '    return pick(game, state)\n',
         'ann.py': 'import os\n\n'
                   "with open(os.path.join(os.path.dirname(__file__), 'book.txt')) as file:\n"
                   '    BOOK = file.read()\n\n\n' + FIRST_MOVE,
         'helper.py': 'def pick(game, state):\n    return game.actions(state)[0]\n',
         'book.txt': '1 1\n'}
"""A folder of single files: alice.py and ann.py are players, each alone."""
PRY = '''import ctypes
import os
import socket

READ = {read!r}
WRITE = {write!r}
REACH = {reach!r}
MARKS = ['mark', os.path.join(os.environ['TMPDIR'], 'mark'), '../mark', '/tmp/mark',
         '/dev/shm/mark']
SEEN = [path for path in MARKS if os.path.exists(path)]
LIBC = ctypes.CDLL(None)
SHARED = REACH is not None and LIBC.shmget(REACH[2], 0, 0) >= 0


def player(game, state):
    found = [f'saw {{path}}' for path in SEEN] + ['saw shared memory'] * SHARED
    for path in MARKS:
        try:
            os.chmod(os.path.dirname(os.path.abspath(path)), 0o777)
        except OSError:
            pass
    for path in MARKS + WRITE:
        try:
            with open(path, 'w') as file:
                file.write('pried')
        except OSError:
            pass
    for path in READ:
        try:
            with open(path, 'rb') as file:
                found.append(f'read {{path}}: {{file.read(40)}}')
        except OSError:
            pass
        try:
            found.append(f'listed {{path}}: {{os.listdir(path)}}')
        except OSError:
            pass
    if REACH is not None:
        LIBC.shmget(REACH[2], 4096, 0o1666)  # for its next game to see
        for family, address in ((socket.AF_INET, ('127.0.0.1', REACH[0])),
                                (socket.AF_UNIX, REACH[1])):
            try:
                with socket.socket(family) as reached:
                    reached.connect(address)
                found.append(f'reached {{address}}')
            except OSError:
                pass
    raise RuntimeError(f'found {{found or "nothing"}}')
'''
"""A submission that leaves marks for its next game in its folder, its working
and its temporary folder and System V shared memory, then looks for the trusted
side's files, others' submissions, its marks and the test's sockets (REACH: a
port on the loopback and an abstract socket, and the shared memory's key; or
None), and says what it found."""
CANNOT_LOAD = {
    'alice': "No module named 'helper' (installed? --allow helper): a jailed player file",
    'ann': "FileNotFoundError: [Errno 2] No such file or directory: 'book.txt' (ann.py, line 3)",
    'big': 'big holds over 1 MB (allow more with --submission-mb)',
    'broken': 'SyntaxError: ',
    'eve': 'eve is a link, not a file or folder of its own (to ',  # carol's: a copy
    'huge': 'huge.py holds over 1 MB (allow more with --submission-mb)',
    'linker': 'linker: book.txt is a link that leads out of the folder (to ',
    'many': 'many has more than 20 files (allow more with --submission-files)',
    'passwd': 'passwd: secret is a link that leads out of the folder (to /etc/passwd)',
}
"""The players of the class run that cannot play, and what their reasons say."""
GOOD = {'random', 'bob', 'carol', 'erin', 'shadow'}
"""The players that play in every run, and whose games the others must not change."""
LIMITS = ['--submission-mb', '1', '--submission-files', '20']
PRIED = 'RuntimeError: found nothing (player.py, line {})'.format(
    next(number for number, line in enumerate(PRY.splitlines(), 1) if 'raise' in line))
"""What pry says in every game, where it finds nothing."""


def write_class(out, reach=None, pry=True):
    """Write the class's folder and the folder of single files in out, with pry
    reaching for reach (see PRY), or without it; return both."""
    subs, files = out / 'subs', out / 'files'
    for folder, written in ((subs, SUBMISSIONS), (files, FILES)):
        for path, text in written.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text)
    read = [str(out / 'run.sqlite'), str(out), str(subs / 'carol' / 'book.txt'), str(subs),
            '../carol/book.txt', '../../carol/book.txt', '../../subs/carol/book.txt',
            '/proc/1/environ', '/proc/1/root/etc/hostname']
    if pry:
        (subs / 'pry').mkdir()
        (subs / 'pry' / 'player.py').write_text(PRY.format(read=read, reach=reach,
                                                           write=written_by_pry(out)))
    for name, path in (('PTH', 'evil.pth'), ('SITE', 'sitecustomize.py'),
                       ('USER', 'usercustomize.py')):
        (subs / 'shadow' / path).write_text(f"import os; os.environ['{name}'] = '1'; "
                                          f"open({str(out / name)!r}, 'w')\n")
    (subs / 'shadow' / os.fsdecode(b'\xe9t\xe9.txt')).write_text('a name in Latin-1')
    os.symlink('carol', subs / 'eve')
    os.symlink('../carol/book.txt', subs / 'linker' / 'book.txt')
    os.symlink('/etc/passwd', subs / 'passwd' / 'secret')
    for path in (subs / 'big' / 'weights.bin', subs / 'huge.py'):
        with open(path, 'ab') as file:
            file.truncate(1 << 40)  # 1 TB, without a block on disk: never read whole
    return subs, files


def remove_shared_memory(key):
    """Remove the System V shared memory of key; return whether there was any."""
    libc = ctypes.CDLL(None)
    found = libc.shmget(key, 0, 0)
    if found >= 0:
        libc.shmctl(found, 0, None)  # IPC_RMID
    return found >= 0


def written_by_pry(out):
    """Return where pry tries to write: outside its jail, each must stay missing."""
    return [str(out / 'pried'), os.path.join(tempfile.gettempdir(), f'pried-{out.name}'),
            f'/tmp/pried-{out.name}']


def by_pairing(games, names):
    """Return the games between names by pairing: their moves, score and ending."""
    return {(game['first'], game['second'], game['pair'], game['leg']):
            (game['moves'], game['score'], game['termination']) for game in games
            if {game['first'], game['second']} <= names}


def forfeits(data, name):
    """Return the games that one player of a run's results forfeited."""
    return [game for game in data['games'] if game['forfeit'] == name]


def games_of(data, name):
    """Return the games of one player of a run's results."""
    return [game for game in data['games'] if name in (game['first'], game['second'])]


def play(*args):
    """Run the tournament command in this process with the tests' options; return
    what it did, having checked that it ended well."""
    done = run(*map(str, args), *OPTIONS)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope='module', params=LEVELS)
def class_run(request, tmp_path_factory):
    """The class with random and two single files beside it, in a temporary folder
    of its own and with its processes adopted (none may outlive it), then the
    good players alone."""
    level, out = request.param, tmp_path_factory.mktemp(f'folders-{request.param}')
    temporary = tmp_path_factory.mktemp(f'tmp-{level}')  # where a run's jail servers are
    key = zlib.crc32(str(out).encode()) & 0x7fffffff
    pry = level == 'bwrap' or os.geteuid() == 0  # else its jail shares the test's files
    with socket.create_server(('127.0.0.1', 0)) as tcp, socket.socket(socket.AF_UNIX) as unix:
        unix.bind(f'\0aima-games-{key}')
        unix.listen()
        subs, files = write_class(out, (tcp.getsockname()[1], f'\0aima-games-{key}', key), pry)
        with pytest.MonkeyPatch.context() as patch, adopting_orphans():
            patch.setattr(tempfile, 'tempdir', str(temporary))  # the run's workers' too
            done = play('--submissions', subs, '--players', f'random,{files}/alice.py,'
                        f'{files}/ann.py', '--allow', 'numpy', *LIMITS, '--sandbox', level,
                        '--json', out / 'run.json', '--db', out / 'run.sqlite')
    left = sorted(os.listdir(temporary)) + ['shared memory'] * remove_shared_memory(key)
    alone = ['random', *(subs / name for name in ('bob.py', 'carol', 'dana', 'erin', 'shadow'))]
    clean = play('--players', ','.join(map(str, alone)), '--sandbox', level,
                 '--json', out / 'clean.json')
    return {'out': out, 'subs': subs, 'done': done, 'left': left, 'clean': clean, 'pry': pry,
            'json': json.loads((out / 'run.json').read_text()),
            'clean_json': json.loads((out / 'clean.json').read_text())}


def test_the_class_plays_to_the_end_listing_who_cannot_play(class_run):
    data, out = class_run['json'], class_run['done'].stdout
    header = out[:out.index('\nVariants:')]
    listed = [line for line in header.splitlines() if ': cannot play: ' in line]
    assert [line.split(':')[0] for line in listed] == sorted(CANNOT_LOAD)
    assert list(data['settings']['broken']) == sorted(CANNOT_LOAD)
    for (name, reason), line in zip(sorted(CANNOT_LOAD.items()), listed):
        assert reason in data['settings']['broken'][name], name
        assert reason[:40] in line and len(line) <= 100  # the line shows why
        assert all(game['termination'] == referee.CANNOT_LOAD for game in games_of(data, name))
    assert data['settings']['broken']['eve'].endswith('/carol)')
    assert class_run['left'] == []  # nothing left in the temporary folder, nor in IPC


def test_a_folder_plays_from_its_folder_by_its_book(class_run):
    for data in (class_run['json'], class_run['clean_json']):
        played = [game for game in games_of(data, 'carol') if not game['forfeit']]
        assert len(played) >= 8 and forfeits(data, 'carol') == []
        for game in played:
            seat = 0 if game['first'] == 'carol' else 1
            for ply, move in enumerate(game['moves']):
                if ply >= game['opening'] and ply % 2 == seat:
                    pile = 12 - sum(earlier[1] for earlier in game['moves'][:ply])
                    assert move == [1, BOOK[pile]]


def test_a_package_is_imported_where_a_run_allows_it(class_run):
    data, clean = class_run['json'], class_run['clean_json']
    games = 2 * (len(data['settings']['players']) - 1)
    for name in ('dana', 'erin', 'forker', 'shadow'):  # numpy, sqlite3 (not preloaded), numpy
        assert forfeits(data, name) == [] and len(games_of(data, name)) == games, name
    assert forfeits(clean, 'erin') == [] and list(clean['settings']['broken']) == ['dana']
    line = next(line for line in class_run['clean'].stdout.splitlines()
                if line.startswith('dana: cannot play: '))
    assert "No module named 'numpy'" in line and '--allow numpy' in line and len(line) <= 100


def test_a_module_named_like_the_projects_is_not_used_and_says_so(class_run):
    lost = forfeits(class_run['json'], 'aima')
    assert len(lost) >= 14 and {game['termination'] for game in lost} == {referee.ERROR}
    assert {game['detail'] for game in lost} == {
        "AttributeError: module 'games' has no attribute 'first_legal' (player.py, line 6); "
        "its folder's games.py is not used: games is the jail's own, imported before the player"}


def test_a_prying_folder_finds_nothing_and_leaves_nothing(class_run):
    if not class_run['pry']:
        pytest.skip("a process-level jail of an ordinary user shares that user's files")
    data, out, subs = class_run['json'], class_run['out'], class_run['subs']
    pried = forfeits(data, 'pry')
    assert len(pried) >= 14 and {game['detail'] for game in pried} == {PRIED}
    missing = [*written_by_pry(out), *(out / name for name in ('PTH', 'SITE', 'USER'))]
    assert [path for path in missing if os.path.exists(path)] == []
    assert sorted(os.listdir(subs / 'pry')) == ['player.py']


def test_an_entry_named_like_a_spec_of_anothers_plays_its_own_code(class_run):
    data = class_run['json']
    for name, path in COLONS.items():
        assert data['settings']['specs'][name] == str(class_run['subs'] / path.split('/')[0])
        lost = forfeits(data, name)
        assert len(lost) >= 14 and name not in data['settings']['broken']
        assert {game['detail'] for game in lost} == {
            f'RuntimeError: I am {path} (player.py, line 2)' if '/' in path
            else f'RuntimeError: I am {path} ({path}, line 2)'}
    assert forfeits(data, 'carol') == []


def test_the_others_play_as_they_would_without_the_hostile(class_run):
    played = by_pairing(class_run['json']['games'], GOOD)
    assert len(played) == 20 and played == by_pairing(class_run['clean_json']['games'], GOOD)


def fallback(out, players, temporary):
    """Run the tournament at the process level as root without the right to mount
    (setpriv), as in a container without CAP_SYS_ADMIN, with a temporary folder of
    its own; return its results."""
    with adopting_orphans():
        done = subprocess.run(
            ['setpriv', '--bounding-set', '-sys_admin', '--inh-caps', '-sys_admin',
             sys.executable, 'tournament.py', '--players', ','.join(map(str, players)),
             '--sandbox', 'process', '--json', str(out), *OPTIONS], cwd=ROOT,
            env={**os.environ, 'TMPDIR': str(temporary)}, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text())


@pytest.fixture(scope='module')
def fallback_run(tmp_path_factory):
    """Good players and pry where jails may not mount anything, so that each is shut
    in an empty folder of its own; and the good players alone."""
    if os.geteuid() != 0 or shutil.which('setpriv') is None:
        pytest.skip('needs root and setpriv (util-linux) to take the right to mount away')
    out = tmp_path_factory.mktemp('folders-fallback')
    subs, _ = write_class(out)
    temporary = tmp_path_factory.mktemp('tmp-fallback')
    good = ['random', subs / 'bob.py', subs / 'carol', subs / 'erin']
    return {'out': out, 'subs': subs, 'json': fallback(out / 'run.json', [*good, subs / 'pry'],
                                                       temporary),
            'left': sorted(os.listdir(temporary)),
            'clean_json': fallback(out / 'clean.json', good, temporary)}


def test_where_jails_may_not_mount_they_see_nothing_and_change_nothing(fallback_run):
    data, out = fallback_run['json'], fallback_run['out']
    assert {game['detail'] for game in forfeits(data, 'pry')} == {PRIED}
    assert [path for path in written_by_pry(out) if os.path.exists(path)] == []
    assert sorted(os.listdir(fallback_run['subs'] / 'pry')) == ['player.py']
    assert fallback_run['left'] == []
    assert list(data['settings']['broken']) == ['erin']  # sqlite3: not imported by the server
    assert data['settings']['broken']['erin'].startswith(
        "ModuleNotFoundError: No module named 'sqlite3': here a jail sees no files")
    good = {'random', 'bob', 'carol'}
    played = by_pairing(data['games'], good)
    assert len(played) == 6 and played == by_pairing(fallback_run['clean_json']['games'], good)
    assert forfeits(data, 'carol') == []


def test_a_submission_not_named_in_utf8_is_left_out_saying_so(tmp_path):
    (tmp_path / os.fsdecode(b'\xe9lodie.py')).write_text(FIRST_MOVE)
    done = run('--submissions', str(tmp_path), '--players', 'random', *OPTIONS)
    assert done.returncode == 2 and done.stdout == '' and done.stderr.count('\n') == 2
    assert "\\xe9lodie.py', whose name is not in UTF-8" in done.stderr
    assert 'holds no submission' in done.stderr  # it was the only one


@pytest.mark.parametrize('level', LEVELS)
def test_an_allowed_package_installed_as_one_file_imports_in_a_jail(tmp_path, level):
    """open-spiel installs its C++ module as one file beside its package (pyspiel.so),
    and mypy-extensions is one .py file: each imports in a jail as it does outside."""
    player = tmp_path / 'spiel.py'
    player.write_text('import mypy_extensions\nimport pyspiel\n\n\n'
                      'def player(game, state):\n    return game.actions(state)[0]\n')
    done = play('--players', f'random,{player}', '--allow', 'open-spiel,mypy-extensions',
                '--sandbox', level)
    assert done.returncode == 0 and 'cannot play' not in done.stdout, done.stdout
