"""The class arena under faults, served as an instructor serves it: killed with kill -9
in the middle of its ladder and started again (no upload lost, no game stored twice,
the games under way played again, the ladder finished); two uploads of one student at
once (both kept, in order); hostile uploads over HTTP, one for each limit (each refused
with a line that names it, nothing kept); and students' bots that crash, hang or flood
their output, which cost only their own games, and whose control characters (in their
log, their code and their verdicts) every page shows escaped."""

import io
import os
import re
import socket
import sqlite3
import threading
import time
import urllib.error
import urllib.request
import zipfile

import pytest

from arena_server import COURSE, GOOD, ROSTER, ArenaServer, signed_in
from players.sandbox import level_choice

pytestmark = pytest.mark.slow

SLOW = 'import time\ndef player(game, state):\n    time.sleep(0.1)\n' \
       '    return game.actions(state)[0]\n'
"""A bot that takes a tenth of a second a move, so that its games are under way for a while
and a ladder takes some seconds."""
FLOODS = 'import sys\ndef player(game, state):\n    sys.stderr.write("x" * 10_000_000)\n' \
         '    return game.actions(state)[0]\n'
HANGS = 'def player(game, state):\n    while True:\n        pass\n'
RAW = '\x1b[2J\x07\u202egnp'
"""What a bot writes to clear the screen, ring the bell and make a text read backwards."""
SHOWN = '\\x1b[2J\\x07\\u202egnp'
"""RAW, escaped."""
SHOWN_RAW = re.compile('[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]')
"""What no page holds raw: a C0 or C1 control character but newline, a bidi override or
isolate."""
LOG = RAW + '\nnext line\n'
"""What the bot that crashes writes in its log."""
CRASHES = f'import os\nimport sys\n# {RAW}\ndef player(game, state):\n' \
          f'    sys.stderr.write({LOG!r})\n    os._exit(3)\n'
"""A bot that writes LOG and crashes, RAW in its code too."""


def stored_games(server):
    """Return (index, variant, first, first_digest, second, second_digest, pair, leg,
    seed) of every game in the arena's results file."""
    path = os.path.join(server.folder, 'arena', 'games.sqlite')
    if not os.path.exists(path):
        return []
    with sqlite3.connect(path) as connection:
        return connection.execute(
            'SELECT "index", variant, "first", first_digest, "second", second_digest, pair, '
            'leg, seed FROM games').fetchall()


def wait_for(condition, timeout=60.0, what='the condition'):
    """Wait until condition() is true; fail after timeout seconds."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f'{what} did not happen in {timeout} s')


def test_killed_in_the_middle_of_its_ladder_it_goes_on_where_it_was(tmp_path):
    course = COURSE.replace('players = ["random", "ab2"]', 'players = ["random"]')
    server = ArenaServer(tmp_path, course=course, staff=None).start()
    try:
        numbers = {student: server.submit(student, source.encode())['number']
                   for student, source in (('alice', SLOW), ('bob', GOOD))}
        assert [server.verdict(student, number)['status']
                for student, number in numbers.items()] == ['plays'] * 2
        wait_for(lambda: len(stored_games(server)) >= 3, what='three games')
        checking = server.submit('carol', GOOD.encode())  # its check under way, or queued
        server.kill()
        before = stored_games(server)
        assert 3 <= len(before) < 12  # 4 players: 12 games in all

        server.start()
        wait_for(lambda: len(stored_games(server)) == 12, timeout=90, what='the whole ladder')
        after = stored_games(server)
        identities = [game[1:] for game in after]
        assert len(set(identities)) == len(identities) == 12  # no game stored twice
        assert set(game[1:] for game in before) <= set(identities)  # none lost, none replayed
        assert server.version('carol', checking['number'])['status'] == 'plays'
        assert [server.version(name, 1)['status'] for name in ('alice', 'bob')] == ['plays'] * 2
        assert server.stop() == 0
    finally:
        server.close()


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    """An arena that takes uploads of 1 MB at most, unpacking to 8 MB and 20 files, and
    keeps 3 MB of a student's versions."""
    arena = ArenaServer(tmp_path_factory.mktemp('small'), staff=None,
                        roster=[*ROSTER, ('dan', 'Dan'), ('erin', 'Erin')],
                         course=COURSE + 'submission-files = 20\nsubmission-mb = 8\n',
                         arena_table='upload-mb = 1\nquota-mb = 3\n').start()
    yield arena
    arena.close()


def test_two_uploads_of_one_student_at_once_are_both_kept_in_order(server):
    answers = [None, None]
    sources = [GOOD.replace('my move', f'upload {n}') for n in range(2)]

    def hand_in(n):
        answers[n] = server.submit('bob', sources[n].encode())

    threads = [threading.Thread(target=hand_in, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answer['number'] for answer in answers) == [1, 2]
    versions = [server.verdict('bob', number) for number in (1, 2)]
    assert versions[0]['handed_in'] <= versions[1]['handed_in']
    assert {version['digest'] for version in versions} == {
        answer['digest'] for answer in answers}
    for answer, source in zip(answers, sources):
        folder = os.path.join(server.folder, 'arena', 'uploads', 'bob')
        kept = [name for name in os.listdir(folder) if name.startswith(f'{answer["number"]}-')]
        with open(os.path.join(folder, kept[0], 'mine.py')) as file:
            assert file.read() == source


def zipped(entries):
    """A zip of (name or ZipInfo, content) entries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, 'w', zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries:
            archive.writestr(name, content)
    return buffer.getvalue()


def link(name, target):
    """A zip entry that is a symbolic link to target."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (0o120777 << 16)
    return info, target


HOSTILE = {
    'over the size': (b'#' * (2 * 1024 * 1024), 'mine.py', 'limit'),
    'too many files': (zipped([(f'f{n}.py', 'x = 1\n') for n in range(30)]), 'mine.zip', '30 files'),
    'a zip bomb': (zipped([('player.py', GOOD), ('zeros.bin', b'\0' * (40 * 1024 * 1024))]),
                   'mine.zip', 'MB'),
    'a path out of the folder': (zipped([('player.py', GOOD), ('../../escape.py', 'x = 1')]),
                                 'mine.zip', '..'),
    'an absolute path': (zipped([('player.py', GOOD), ('/tmp/escape.py', 'x = 1')]),
                         'mine.zip', '/tmp/escape.py'),
    'a link': (zipped([('player.py', GOOD), link('secret.py', '/etc/passwd')]), 'mine.zip',
               'link'),
    'no zip at all': (b'PK\x03\x04 not really', 'mine.zip', 'zip'),
    'a name out of the folder': (GOOD.encode(), '../mine.py', 'name'),
}
"""Each hostile upload: its bytes, its name, and a word its refusal must say."""


def test_hostile_uploads_are_refused_naming_the_limit_and_nothing_is_kept(server):
    for what, (data, filename, said) in HOSTILE.items():
        answer = server.submit('alice', data, filename)
        assert 'error' in answer, what
        assert said in answer['error'], (what, answer['error'])
    uploads = os.path.join(server.folder, 'arena', 'uploads')
    assert [name for name in os.listdir(os.path.join(uploads, 'alice'))] == []
    assert not os.path.exists('/tmp/escape.py')
    assert server.submit('alice', GOOD.encode())['number'] == 1  # the first version kept


def test_a_body_over_the_limit_is_refused_before_it_is_read(server, tmp_path):
    with socket.create_connection(('127.0.0.1', server.port), timeout=10) as client:
        client.sendall(f'POST /api/submit?filename=mine.py HTTP/1.1\r\nHost: arena\r\n'
                       f'Authorization: Bearer {server.token("carol")}\r\n'
                       f'Content-Length: {64 * 1024 * 1024}\r\n\r\n'.encode())
        answer = b''  # and not a byte of the 64 MB sent
        while not answer.endswith(b'\r\n0\r\n\r\n') and (chunk := client.recv(4096)):
            answer += chunk  # up to the end of its chunked body
        answer = answer.decode()
    assert answer.startswith('HTTP/1.1 413'), answer
    assert 'over the limit of 1 MB' in answer

    for _ in range(3):  # an upload given up half-way: no one to answer, nothing to log
        with socket.create_connection(('127.0.0.1', server.port), timeout=10) as client:
            client.sendall(f'POST /api/submit?filename=mine.py HTTP/1.1\r\nHost: arena\r\n'
                           f'Authorization: Bearer {server.token("carol")}\r\n'
                           f'Content-Length: 500000\r\n\r\n'.encode() + b'#' * 1000)
    time.sleep(0.5)
    assert 'Traceback' not in open(server.log).read()

    big = tmp_path / 'big.py'
    big.write_bytes(b'#' * (4 * 1024 * 1024))
    done = server.command('submit', server.url, str(big), '--token', server.token('carol'))
    assert done.returncode == 1
    assert done.stderr == 'refused: the upload is over the limit of 1 MB\n'


@pytest.mark.parametrize('level', ['process', 'bwrap'])
def test_bots_that_crash_hang_or_flood_cost_only_their_own_games(tmp_path, level):
    problem = level_choice.problem(level) if level == 'bwrap' else None
    if problem:
        pytest.skip(problem)
    course = f'variants = ["tictactoe"]\nplayers = []\nmove-timeout = 1\njobs = 2\n' \
             f'sandbox = "{level}"\n'  # the four students alone: 12 games
    roster = [('alice', 'Alice'), ('bob', 'Bob'), ('carol', 'Carol'), ('dan', 'Dan')]
    server = ArenaServer(tmp_path, course=course, roster=roster, staff=None).start()
    try:
        numbers = {student: server.submit(student, source.encode())['number'] for student, source
                   in (('alice', GOOD), ('bob', FLOODS), ('carol', HANGS), ('dan', CRASHES))}
        for student, number in numbers.items():
            assert server.verdict(student, number)['status'] == 'plays', student
        wait_for(lambda: len(stored_games(server)) == 12, timeout=120, what='the whole ladder')
        path = os.path.join(server.folder, 'arena', 'games.sqlite')
        with sqlite3.connect(path) as connection:
            games = connection.execute('SELECT "first", "second", score, forfeit, termination, '
                                       'length(stderr_first), length(stderr_second) '
                                       'FROM games').fetchall()
        for first, second, score, forfeit, termination, *logs in games:
            if {'carol', 'dan'} & {first, second}:  # one of the two that hang or crash forfeits
                assert forfeit in ('carol', 'dan'), (first, second, forfeit)
            else:  # the others play their games out, bob's flood of output drained
                assert forfeit is None and termination == 'normal', (first, second, termination)
        floods = [logs[(first, second).index('bob')]
                  for first, second, _, _, _, *logs in games if 'bob' in (first, second)]
        assert set(floods) <= {0, 4097} and 4097 in floods  # 4096 characters kept, and the mark
        assert urllib.request.urlopen(server.url + '/', timeout=10).status == 200
        broken = server.submit('dan', f'raise ValueError({RAW!r})\n'.encode())['number']
        assert server.verdict('dan', broken)['status'] == 'cannot play'
        with signed_in(server, 'dan') as dan:
            listed = re.findall(r'href="(/students/dan/games/\w+)"',
                                dan.get('/students/dan/games').text)
            game = next(page for page in (dan.get(path).text for path in listed)
                        if '<pre id="log">' in page)  # a game where dan made a move
            pages = {'game': game, 'code': dan.get('/students/dan/versions/1').text,
                     'student': dan.get('/students/dan').text}
        assert f'<pre id="log">{SHOWN}\nnext line\n' in pages['game']  # its lines kept
        assert f'# {SHOWN}\n' in pages['code'] and f'ValueError: {SHOWN}' in pages['student']
        for name, page in pages.items():
            assert not SHOWN_RAW.findall(page), name
    finally:
        server.close()


def test_a_link_alone_signs_no_one_in_and_signing_out_ends_every_session(server):
    import httpx
    alice, bob = server.token('alice'), server.token('bob')
    with httpx.Client(base_url=server.url) as browser:
        page = browser.get(f'/signin/{alice}')  # opened by a link on another site, say
        assert page.status_code == 200 and 'Sign in as Alice Liddell' in page.text
        assert 'arena_session' not in browser.cookies
        assert browser.get('/students/alice').status_code == 303
        assert browser.post(f'/signin/{alice}').status_code == 403  # no CSRF header
        signed = browser.post(f'/signin/{alice}',
                              headers={'x-csrftoken': browser.cookies['csrftoken']})
        assert signed.json() == {'go': '/students/alice'}
        assert browser.get('/students/alice').status_code == 200
        kept = browser.cookies['arena_session']
        lured = browser.get(f'/signin/{bob}')  # another's link changes nothing
        assert 'This browser is signed in as Alice Liddell' in lured.text
        assert browser.get('/students/alice').status_code == 200
        assert browser.get('/students/bob').status_code == 404
        assert browser.post('/logout', headers={
            'x-csrftoken': browser.cookies['csrftoken']}).json() == {'go': '/'}
    with httpx.Client(base_url=server.url, cookies={'arena_session': kept}) as stolen:
        assert stolen.get('/students/alice').status_code == 303  # the old cookie is no use


def test_a_student_keeps_versions_up_to_the_quota_and_is_told_of_files_by_their_names(server):
    padded = GOOD.encode() + b'#' * 900_000 + b'\n'
    answers = [server.submit('dan', padded) for _ in range(4)]
    assert [answer.get('number') for answer in answers[:3]] == [1, 2, 3]
    assert answers[3]['error'] == ('your versions hold 3.6 MB with this one; a student may '
                                   'keep 3 MB: ask your instructor')
    unreadable = server.submit('erin', b'\xff\xfe not UTF-8', 'mine.py')
    verdict = server.verdict('erin', unreadable['number'])['verdict']
    assert 'mine.py' in verdict and server.folder not in verdict and 'uploads' not in verdict
