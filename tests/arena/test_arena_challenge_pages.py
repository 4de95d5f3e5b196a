"""Challenges over HTTP, served as an instructor serves the arena: only an opponent of
the list (no forged key, no classmate where the course does not allow it), a number
of pairs the course allows and so many an hour; a form without its CSRF header is
refused; a classmate sees nothing of another's challenges; and a server killed with
kill -9 in the middle of a challenge plays the rest of it, each game once, when it
starts again."""

import sqlite3
import time

import httpx
import pytest

from arena_server import COURSE, GOOD, ArenaServer, csrf, signed_in

pytestmark = pytest.mark.slow

SLOW = 'import time\ndef player(game, state):\n    time.sleep(0.1)\n' \
       '    return game.actions(state)[0]\n'
"""A bot that thinks a tenth of a second a move: its games last half a second or more."""


def opponents(client: httpx.Client, student: str, form: str = 'challenge') -> dict[str, str]:
    """The opponents the student's page offers in a form: {name shown: key}."""
    page = client.get(f'/students/{student}').text
    page = page[page.index(f'id="{form}"'):]
    select = page[page.index('<select name="opponent">'):]
    select = select[:select.index('</select>')]
    return {option.split('>', 1)[1].split('<', 1)[0]: option.split('"', 2)[1]
            for option in select.split('<option value=')[1:]}


def wait_done(client: httpx.Client, address: str, timeout: float = 60) -> str:
    """Wait until a challenge's page says it is done; return the page."""
    ends = time.monotonic() + timeout
    while time.monotonic() < ends:
        page = client.get(address).text
        if '<span id="challenge-status">done</span>' in page:
            return page
        time.sleep(0.05)
    raise TimeoutError(f'{address} not done in {timeout} s')


@pytest.fixture(scope='module')
def server(tmp_path_factory):
    """An arena of two challenges an hour, of two pairs at most, and no classmates as
    opponents; alice and bob have each a version that plays, carol none."""
    arena = ArenaServer(tmp_path_factory.mktemp('challenges'), staff=None,
                        arena_table='challenges-an-hour = 2\nchallenge-pairs = 2\n').start()
    try:
        numbers = {student: arena.submit(student, GOOD.encode())['number']
                   for student in ('alice', 'bob')}
        for student, number in numbers.items():
            assert arena.verdict(student, number)['status'] == 'plays', student
        yield arena
    finally:
        arena.close()


def test_only_the_listed_opponents_so_many_an_hour_and_no_one_elses(server):
    with signed_in(server, 'alice') as alice, signed_in(server, 'bob') as bob:
        offered = opponents(alice, 'alice')
        assert list(offered) == ['random', 'ab2']  # no classmate: the course does not allow it

        def ask(client, student, **form):
            return client.post(f'/students/{student}/challenges', data=form,
                               headers=csrf(client))
        good = {'opponent': offered['ab2'], 'variant': 'tictactoe', 'pairs': '1'}
        for change, error in (({'opponent': 'ab2'}, 'choose an opponent from the list'),
                              ({'opponent': offered['ab2'][::-1]}, 'choose an opponent'),
                              ({'pairs': '3'}, 'from 1 to 2 game pairs'),
                              ({'pairs': '1e9'}, 'as a whole number'),
                              ({'variant': 'chess'}, 'choose a variant of the ladder')):
            answer = ask(alice, 'alice', **{**good, **change})
            assert answer.status_code == 400 and error in answer.json()['error'], change
        assert alice.post('/students/alice/challenges', data=good).status_code == 403
        assert ask(bob, 'alice', **good).status_code == 404  # not bob's page
        address = ask(alice, 'alice', **good).json()['go']
        page = wait_done(alice, address)
        replays = [part.split('"', 1)[0] for part in page.split('href="')[1:]
                   if '/games/' in part]
        assert len(replays) == 2 and alice.get(replays[0]).status_code == 200
        for path in (address, replays[0]):  # bob sees nothing of alice's challenge
            assert bob.get(path).status_code == 404
            assert bob.get(path.replace('/alice/', '/bob/')).status_code == 404
        ask(alice, 'alice', **good)
        refused = ask(alice, 'alice', **good)
        assert refused.status_code == 400
        assert refused.json()['error'] == '2 challenges an hour at most: the next in 60 min'


def test_only_the_student_plays_their_game_in_the_browser(server):
    with signed_in(server, 'alice') as alice, signed_in(server, 'carol') as carol:
        offered = opponents(alice, 'alice', 'play')
        assert list(offered) == ['version 1', 'random', 'ab2']
        assert list(opponents(carol, 'carol', 'play')) == ['random', 'ab2']  # no version
        good = {'opponent': offered['random'], 'variant': 'tictactoe', 'seat': 'first'}
        for change in ({'opponent': 'random'}, {'seat': 'third'}, {'variant': 'chess'}):
            answer = alice.post('/students/alice/play', data={**good, **change},
                                headers=csrf(alice))
            assert answer.status_code == 400 and answer.json()['error'], change
        assert carol.post('/students/alice/play', data=good, headers=csrf(carol)).status_code \
            == 404
        address = alice.post('/students/alice/play', data=good, headers=csrf(alice)).json()[
            'go']
        for path in (address, address + '.json', address + '/replay'):
            assert carol.get(path).status_code == 404
        for path in (address + '/move', address + '/resign'):
            assert carol.post(path, data={'move': '0'}, headers=csrf(carol)).status_code == 404
        view = alice.get(address + '.json').json()
        while view['status'] != 'your move':
            time.sleep(0.05)
            view = alice.get(address + '.json').json()
        for forged in ({'move': '²', 'ply': '0'}, {'move': '0', 'ply': '¹'},
                       {'move': '0'}, {'move': '0', 'ply': '1'}):
            answer = alice.post(address + '/move', data=forged, headers=csrf(alice))
            assert answer.status_code == 200 and answer.json()['made'] == [], forged
        while view['status'] != 'over':
            if view['status'] == 'your move':
                view = alice.post(address + '/move', data={'move': '0', 'ply': view['ply']},
                                  headers=csrf(alice)).json()
            else:
                time.sleep(0.05)
                view = alice.get(address + '.json').json()
        assert view['names'] == ['Alice Liddell', 'random']
        assert alice.get(view['replay']).status_code == 200
        assert carol.get(view['replay']).status_code == 404


def test_killed_in_the_middle_of_a_challenge_it_plays_the_rest_once(tmp_path):
    course = COURSE.replace('players = ["random", "ab2"]', 'players = ["ab2"]')
    server = ArenaServer(tmp_path, course=course, staff=None).start()
    path = tmp_path / 'arena' / 'challenges' / '1.sqlite'
    try:
        assert server.verdict('alice', server.submit('alice', SLOW.encode())['number'])[
            'status'] == 'plays'
        with signed_in(server, 'alice') as alice:
            offered = opponents(alice, 'alice')
            assert alice.post('/students/alice/challenges', headers=csrf(alice), data={
                'opponent': offered['ab2'], 'variant': 'tictactoe', 'pairs': '2'}).json() == {
                    'go': '/students/alice/challenges/1'}
        ends = time.monotonic() + 60
        while not path.exists() or stored(path) < 1:
            assert time.monotonic() < ends, 'no game of the challenge in 60 s'
            time.sleep(0.05)
        server.kill()
        assert stored(path) < 4  # of the 2 pairs' 4 games
        server.start()
        with signed_in(server, 'alice') as alice:
            wait_done(alice, '/students/alice/challenges/1')
        with sqlite3.connect(path) as connection:
            indices = [row[0] for row in connection.execute('SELECT "index" FROM games')]
        assert sorted(indices) == list(range(4))
    finally:
        server.close()


def stored(path) -> int:
    """The games a challenge's results file holds (none while the file is being made)."""
    try:
        with sqlite3.connect(path) as connection:
            return connection.execute('SELECT COUNT(*) FROM games').fetchone()[0]
    except sqlite3.OperationalError:  # no table yet
        return 0


RAISES = ('SECRET = "BOB_SECRET"\ndef player(game, state):\n'
          '    raise ValueError("told only to bob: " + SECRET)\n')
"""A classmate's bot whose error message holds what only its author may read."""


def test_a_classmate_is_a_key_of_ones_own_and_forfeits_in_general_terms(tmp_path):
    server = ArenaServer(tmp_path, arena_table='challenge-classmates = true\n', staff=None).start()
    try:
        numbers = {student: server.submit(student, source.encode(), name)['number']
                   for student, source, name in (('alice', GOOD, 'mine.py'),
                                                 ('bob', RAISES, 'bob_hw3.py'),
                                                 ('carol', GOOD, 'mine.py'))}
        for student, number in numbers.items():
            assert server.verdict(student, number)['status'] == 'plays', student
        with signed_in(server, 'alice') as alice, signed_in(server, 'bob') as bob, \
                signed_in(server, 'carol') as carol:
            assert bob.post('/students/bob/pseudonym', data={'pseudonym': 'Cobbler'},
                            headers=csrf(bob)).status_code == 200
            offered = opponents(alice, 'alice')
            assert list(offered) == ['random', 'ab2', 'Cobbler', 'Carol']
            assert opponents(carol, 'carol')['Cobbler'] != offered['Cobbler']  # a key each
            address = alice.post('/students/alice/challenges', headers=csrf(alice), data={
                'opponent': offered['Cobbler'], 'variant': 'tictactoe', 'pairs': '1'}).json()['go']
            page = wait_done(alice, address)
            replays = [part.split('"', 1)[0] for part in page.split('href="')[1:]
                       if '/games/' in part]
            for shown in [page, *(alice.get(replay).text for replay in replays)]:
                for secret in ('BOB_SECRET', 'told only to bob', 'bob_hw3', 'Builder', 'bob'):
                    assert secret not in shown.replace('/students/alice', ''), secret
            assert 'Cobbler forfeited: its code failed' in alice.get(replays[0]).text
            assert alice.get(address.replace('/1', '/9223372036854775808')).status_code == 404
            assert bob.post('/students/bob/pseudonym', data={'pseudonym': 'Tinker'},
                            headers=csrf(bob)).status_code == 200
            assert opponents(alice, 'alice')['Tinker'] != offered['Cobbler']  # not followed
    finally:
        server.close()
