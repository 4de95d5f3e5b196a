"""The arena's records and roster, and serve's and submit's usage errors: a roster read
with one-line errors naming the file and line; tokens kept only as digests, a new
one ending the old; versions numbered in order however many arrive at once; and
every bad setting of serve or submit a one-line error, exit status 2, nothing made."""

import sys
import threading
import time

import pytest
from argon2 import PasswordHasher

from command_line import run
from players.arena import access
from players.arena.access import StaffSignIns, hash_password
from players.arena.fair_queue import FairQueue
from players.arena.names import pseudonym_problem
from players.arena.records import CANNOT_PLAY, PLAYS, Records, fresh_token, token_digest
from players.arena.roster import Enrolled, RosterError, read_roster


def roster(tmp_path, text):
    path = tmp_path / 'roster.csv'
    path.write_text(text)
    return str(path)


def test_a_roster_gives_each_student_an_id_a_name_and_perhaps_an_email(tmp_path):
    path = roster(tmp_path, 'email,id,name\na@x.org,alice,Alice Liddell\n\n,bob,Bob\n')
    assert read_roster(path) == [Enrolled('alice', 'Alice Liddell', 'a@x.org'),
                                 Enrolled('bob', 'Bob', None)]
    assert read_roster(roster(tmp_path, 'id,name\ncarol,Carol\n')) == [Enrolled('carol', 'Carol')]


@pytest.mark.parametrize('text, said', [
    ('', 'is empty'),
    ('id,email\nalice,a@x.org\n', "line 1: no column 'name'"),
    ('id,name\n../etc,Eve\n', "line 2: '../etc' is not an id"),
    ('id,name\nalice,Alice\nalice,Alice again\n', "line 3: the id 'alice' is given twice"),
    ('id,name\nalice,\n', "line 2: the name of 'alice' must be"),
    ('id,name\nalice,Al\x1b[2Jice\n', "line 2: the name of 'alice' must be"),
    ('id,name\n', 'has no students'),
    ('id,name,email\nalice,Alice,alice\n', "line 2: the email of 'alice' is not an e-mail"),
    ('id,name,email\nalice,Alice,"a@x.org, eve@y.org"\n', "line 2: the email of 'alice'"),
])
def test_a_roster_that_cannot_be_read_is_one_line_naming_the_line(tmp_path, text, said):
    path = roster(tmp_path, text)
    with pytest.raises(RosterError) as error:
        read_roster(path)
    assert said in str(error.value) and path in str(error.value)
    assert '\n' not in str(error.value)


def test_a_token_never_begins_as_an_option_would():
    tokens = [fresh_token() for _ in range(2000)]  # one in 32 of Base64's would begin - or _
    assert all(token[0].isalnum() and len(token) == 43 for token in tokens)
    assert len(set(tokens)) == 2000


def test_a_token_is_kept_as_a_digest_and_a_new_one_ends_the_old(tmp_path):
    records = Records(str(tmp_path / 'arena.sqlite'))
    token = records.add_student('alice', 'Alice')
    assert records.add_student('alice', 'Alice L.', 'al@x.org') is None  # added once
    assert records.student('alice').name == 'Alice L.'  # the name and address follow
    assert records.email('alice') == 'al@x.org'
    with open(tmp_path / 'arena.sqlite', 'rb') as file:
        assert token.encode() not in file.read()
    assert records.student_of_token(token).id == 'alice'
    assert records.token_matches('alice', token_digest(token))
    new = records.new_token('alice')
    assert records.student_of_token(token) is None
    assert not records.token_matches('alice', token_digest(token))
    assert records.student_of_token(new).id == 'alice'
    with pytest.raises(KeyError):
        records.new_token('nobody')


def test_versions_handed_in_at_once_are_numbered_in_order_and_the_latest_that_plays_plays(tmp_path):
    records = Records(str(tmp_path / 'arena.sqlite'))
    records.add_student('alice', 'Alice')
    made = []
    threads = [threading.Thread(target=lambda n=n: made.append(
        records.add_version('alice', f'digest{n}', 'mine.py', f'/v{n}'))) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(version.number for version in made) == list(range(1, 9))
    assert [version.number for version in records.versions('alice')] == list(range(1, 9))
    assert records.playing() == {}
    records.set_verdict('alice', 3, PLAYS)
    records.set_verdict('alice', 5, PLAYS)
    records.set_verdict('alice', 6, CANNOT_PLAY, 'SyntaxError')
    assert records.playing()['alice'].number == 5
    assert records.version('alice', 6).verdict == 'SyntaxError'


@pytest.mark.parametrize('course, args, said', [
    ('[arena]\nroster = "roster.csv"\ndeadline = "next friday"\n', [],
     "--deadline: 'next friday' is not a time"),
    ('[arena]\nroster = "roster.csv"\nport = "http"\n', [], 'tournament.toml: arena.port'),
    ('[arena]\nroster = "roster.csv"\ncolour = "blue"\n', [], 'arena.colour: unknown key'),
    ('[arena]\nroster = "missing.csv"\n', [], 'missing.csv: cannot be read'),
    ('', [], 'the arena has no students: give --roster'),
    ('[arena]\nroster = "roster.csv"\n', ['--new-link', 'nobody'], "no student 'nobody'"),
    ('[arena]\nroster = "roster.csv"\nupload-mb = 0\n', [], '--upload-mb must be above 0'),
])
def test_a_bad_setting_of_serve_is_one_line_and_status_2(tmp_path, monkeypatch, course, args,
                                                         said):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'roster.csv').write_text('id,name\nalice,Alice\n')
    (tmp_path / 'tournament.toml').write_text(course)
    done = run('serve', *args)
    assert done.returncode == 2
    assert said in done.stderr and done.stderr.count('\n') == 1, done.stderr
    assert 'Traceback' not in done.stderr


@pytest.mark.parametrize('args, said', [
    (['http://127.0.0.1:9', 'mine.py'], 'give your token'),
    (['http://127.0.0.1:9', 'mine.py', '--token', 'two words'], 'not a token'),
    (['ftp://arena', 'mine.py', '--token', 'abc'], "is not an arena's address"),
    (['http://127.0.0.1:9', 'nothing.py', '--token', 'abc'], "no such file or folder"),
    (['http://127.0.0.1:9', 'mine.py', '--token', 'abc'], 'cannot reach the arena'),
])
def test_a_bad_submit_is_one_line_and_status_2(tmp_path, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv('ARENA_TOKEN', raising=False)
    (tmp_path / 'mine.py').write_text('def player(game, state):\n    return None\n')
    done = run('submit', *args)
    assert done.returncode == 2
    assert said in done.stderr and done.stderr.count('\n') == 1, done.stderr


def test_without_the_web_extra_serve_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, 'uvicorn', None)  # as if it were not installed
    done = run('serve')
    assert done.returncode == 2
    assert "pip install -e '.[web]'" in done.stderr and done.stderr.count('\n') == 1


def test_staff_passwords_cannot_be_guessed_at_speed_nor_names_told_by_time(tmp_path,
                                                                            monkeypatch):
    records = Records(str(tmp_path / 'arena.sqlite'))
    records.set_staff('prof', hash_password('correct horse'))
    sign_ins = StaffSignIns(records)
    assert sign_ins.check('prof', 'correct horse', '10.0.0.1') is None
    timed = {}
    for name in ('prof', 'nobody'):
        started = time.perf_counter()
        assert sign_ins.check(name, 'wrong', '10.0.0.2') == 'no such name and password'
        timed[name] = time.perf_counter() - started
    assert timed['nobody'] > timed['prof'] / 3  # an unknown name is checked as long
    # wrong passwords are counted whatever a check costs: from here on, a cheap argon2
    monkeypatch.setattr(access, '_hasher', PasswordHasher(time_cost=1, memory_cost=8,
                                                          parallelism=1))
    records.set_staff('prof', hash_password('correct horse'))
    for _ in range(5):
        sign_ins.check('prof', 'wrong', '10.0.0.3')
    assert sign_ins.check('prof', 'correct horse', '10.0.0.3') == \
        'too many wrong passwords: wait a minute'  # five wrong from there within the minute
    assert sign_ins.check('prof', 'correct horse', '10.0.0.4') is None  # prof is not locked out


@pytest.mark.parametrize('chosen', [
    'Zorro\u200b', '\u202eevil', 'a\u00a0b', '\u0430b2', 'Victor \u034fVictim', 'Zorro\ufe0f',
    'Zorro\U000E0100', 'Zorro\u2800', 'Zorro\ufffd', 'Olivia\u20dd', 'Oliviɑ', 'O\u01c0ivia',
    'rand\u0d66m', 'Olivia\u00b7', '<img src=x>', ' Zorro2', 'x' * 31,
])
def test_a_pseudonym_is_of_plain_letters_and_digits(chosen):
    assert 'ASCII letters, digits' in pseudonym_problem(chosen, [])


@pytest.mark.parametrize('chosen', [
    'zorro', 'Victor  Victim', 'OIivia', 'OLIVIA', 'VICTOR VICTIM', 'Vlctor Victim',
    'Victor Victirn', 'Jose', 'ab 2', 'a b 2', 'rand0m', 'Victor-Victim', 'Victor_Victim',
    'Victor.Victim', "Victor' Victim", 'Zorro.', 'ab-2', 'mcts', 'Mini-Max', 'ab_13', 'perfect',
    'ab21', 'AB 99', 'abl', 'victim7', 'prof',
])
def test_a_pseudonym_cannot_look_like_another_name_or_a_registry_player(chosen):
    said = pseudonym_problem(chosen, ['Victor Victim', 'Zorro', 'ab2', 'Olivia', 'José',
                                      'random', 'victim7', 'prof'])  # ids and staff too
    assert 'is taken, or looks like a name that is' in said


def test_a_pseudonym_that_looks_like_no_one_is_taken():
    for chosen in ('Zorro the Second', 'Mallory', "O'Neill-2", 'x_y.z', 'Abo', 'Abel'):
        assert pseudonym_problem(chosen, ['Victor Victim', 'Zorro', 'ab2']) is None


def test_the_checks_take_turns_between_students():
    queue = FairQueue()
    for n in range(5):
        queue.put('mallory', f'mallory {n}')
    queue.put('victim', 'victim 0')
    queue.put('alice', 'alice 0')
    assert [queue.get() for _ in range(4)] == ['mallory 0', 'victim 0', 'alice 0', 'mallory 1']
    queue.close()
    assert queue.get() is None


def test_a_student_handing_in_after_a_flood_is_next():
    queue = FairQueue()
    queue.put('mallory', 'mallory 0')
    assert queue.get() == 'mallory 0'  # under way when the rest come
    for n in range(1, 6):
        queue.put('mallory', f'mallory {n}')
    queue.put('victim', 'victim 0')
    assert queue.get() == 'victim 0'


def test_submit_takes_what_a_server_answers_as_hostile(tmp_path, monkeypatch):
    import http.server
    import json as json_

    class Fake(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers['Content-Length']))
            body = json_.dumps({'number': '\x1b]0;PWNED\x07\x1b[31mRED'}).encode()
            self.send_response(200)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    fake = http.server.HTTPServer(('127.0.0.1', 0), Fake)
    threading.Thread(target=fake.handle_request, daemon=True).start()
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'mine.py').write_text('def player(game, state):\n    return None\n')
    done = run('submit', f'http://127.0.0.1:{fake.server_port}', 'mine.py', '--token', 'abc')
    fake.server_close()
    assert done.returncode == 2 and 'did not answer as an arena does' in done.stderr
    assert '\x1b' not in done.stdout + done.stderr
