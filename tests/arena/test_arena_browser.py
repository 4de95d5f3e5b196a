"""The class arena in a real browser (headless Chromium driven by Playwright), as its
users meet it: a student signs in by her link, hands in a broken bot and then a good
one through the page and sees each verdict come, watches the live leaderboard follow
the ladder's games, filters her games, replays one to its end and reads her bot's
log, and chooses a pseudonym (one of markup is refused, the refusal shown as text). Another
student, in a browser of his own and over plain HTTP, can reach none of her pages,
code, games or token. The instructor signs in with the staff password, downloads the
grades and closes the hand-in, after which uploads are refused, from the page and
from a terminal. A form posted without its CSRF header is refused and changes
nothing. A student challenges ab2 from his page and follows the games to their
replays."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

from arena_server import BROKEN, GOOD, STAFF, ArenaServer, headless_chromium, playwright_or_skip

pytestmark = pytest.mark.slow

sync_api = playwright_or_skip()
expect = sync_api.expect

WAIT = 30_000
"""How long (ms) a step waits for the server: a verdict, the ladder's games."""
MARK = '# alice: my own idea, kept from the others'
"""A line only alice's code holds, to look for in what others are shown."""
ALICE_GOOD = GOOD + MARK + '\n'
"""Alice's good bot: GOOD, with her mark."""
BOB_BOT = 'def player(game, state):\n    return game.actions(state)[-1]\n'
"""Bob's bot: the last legal move, and no log."""
MARKUP = '<img src=x onerror=alert(1)>'
"""A pseudonym alice tries first: markup that runs a script if a page takes it for HTML."""
PSEUDONYM = 'Queen of Hearts'
"""Alice's pseudonym."""
HAND_IN_CLOSED = 'the hand-in is closed'


@pytest.fixture(scope='module')
def arena(tmp_path_factory):
    """The class's arena, serving; bob has handed in a bot that plays, from a terminal."""
    server = ArenaServer(tmp_path_factory.mktemp('arena')).start()
    try:
        assert 'number' in server.submit('bob', BOB_BOT.encode(), 'bob.py')
        yield server
    finally:
        server.close()


@pytest.fixture(scope='module')
def chromium(arena):
    """Headless Chromium (closed before the arena stops, so no page holds its stream)."""
    with headless_chromium() as browser:
        yield browser


class Watched:
    """A browser context of one user, whose pages report any dialog (an alert is a
    script the page was made to run), any script error and any refusal by the pages'
    Content-Security-Policy."""

    def __init__(self, browser, **options):
        self.context = browser.new_context(**options)
        self.context.set_default_timeout(WAIT)
        self.trouble: list[str] = []

    def page(self):
        made = self.context.new_page()
        made.on('dialog', lambda dialog: (self.trouble.append(f'dialog: {dialog.message}'),
                                          dialog.dismiss()))
        made.on('pageerror', lambda error: self.trouble.append(f'script error: {error}'))
        made.on('console', lambda message: self.trouble.append(f'refused: {message.text}')
                if 'Content Security Policy' in message.text else None)
        return made

    def cookie_header(self) -> str:
        return '; '.join(f'{cookie["name"]}={cookie["value"]}'
                         for cookie in self.context.cookies())

    def cookie(self, name: str) -> str:
        return next(cookie['value'] for cookie in self.context.cookies()
                    if cookie['name'] == name)

    def close(self) -> None:
        self.context.close()


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirects)


def http(url: str, data: bytes | None = None, headers: dict | None = None,
         method: str | None = None) -> tuple[int, dict, str]:
    """Ask the server over plain HTTP, following no redirect: (status, headers, body)."""
    request = urllib.request.Request(url, data=data, headers=headers or {}, method=method)
    try:
        with OPENER.open(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def multipart(field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    """A form of one file, as a browser posts it: (body, content type)."""
    boundary = 'arena-test-boundary-7f3a'
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; '
            f'filename="{filename}"\r\nContent-Type: text/x-python\r\n\r\n').encode() \
        + content + f'\r\n--{boundary}--\r\n'.encode()
    return body, f'multipart/form-data; boundary={boundary}'


def hand_in(page, source: str, filename: str = 'mine.py') -> None:
    """Choose a file in the page's upload form and press its button."""
    page.locator('#upload input[type=file]').set_input_files(
        files=[{'name': filename, 'mimeType': 'text/x-python', 'buffer': source.encode()}])
    page.locator('#upload button').click()


def verdict_of(page, number: int):
    """The verdict cell of a version in the page's versions table."""
    return page.locator('#versions tbody tr[data-status]').filter(
        has=page.get_by_role('link', name=str(number), exact=True)).locator('td.verdict')


def board_row(page):
    """The leaderboard's row marked as the viewer's."""
    return page.locator('#board tbody tr.mine')


def test_a_students_hand_in_games_and_privacy_and_the_instructors_close(arena, chromium):
    alice = Watched(chromium)
    bob = Watched(chromium)
    staff = Watched(chromium, accept_downloads=True)
    try:
        alice_token, bob_token = arena.token('alice'), arena.token('bob')
        game = alice_hands_in_and_plays(arena, alice)
        bob_cannot_see_alices_things(arena, bob, alice_token, bob_token, game)
        the_instructor_downloads_grades_and_closes(arena, staff, alice)
        assert alice.trouble == bob.trouble == staff.trouble == []
    finally:
        for user in (alice, bob, staff):
            user.close()


def sign_in(page, arena: ArenaServer, student: str, name: str) -> None:
    """Open a student's link: its page names whose it is, and its button signs in."""
    page.goto(arena.link(student))
    expect(page.locator('h1')).to_have_text(f'Sign in as {name}')
    assert page.url == arena.link(student)  # the link alone signs no one in
    page.click('#sign-in button')
    page.wait_for_url(f'{arena.url}/students/{student}')


def staff_sign_in(page, arena: ArenaServer) -> None:
    """Sign in at /login with the staff's name and password; land on /staff."""
    page.goto(f'{arena.url}/login')
    page.locator('#login input[name=name]').fill(STAFF[0])
    page.locator('#login input[name=password]').fill(STAFF[1])
    page.locator('#login button').click()
    page.wait_for_url(f'{arena.url}/staff')


def alice_hands_in_and_plays(arena: ArenaServer, alice: Watched) -> str:
    """Steps 1 to 4, alice's; return the address of one of her games."""
    # 1. her link signs her in; a broken bot's verdict says why it cannot play
    page = alice.page()
    sign_in(page, arena, 'alice', 'Alice Liddell')
    assert page.url == f'{arena.url}/students/alice'
    expect(page.locator('h1')).to_have_text('Alice Liddell')
    expect(page.locator('header .who')).to_have_text('Alice Liddell')
    expect(page.locator('#versions tbody tr')).to_have_count(0)
    hand_in(page, BROKEN)
    broken = verdict_of(page, 1)
    expect(broken).to_contain_text('cannot play', timeout=WAIT)
    expect(broken).to_contain_text('SyntaxError')
    expect(broken).to_contain_text('line 1')
    assert arena.verdict('bob', 1)['status'] == 'plays'  # bob's, from the terminal

    # 2. a good one plays; the leaderboard, open in another tab, follows the ladder live
    board = alice.page()
    board.goto(f'{arena.url}/board')
    expect(board.locator('#board')).to_have_attribute('data-number', re.compile(r'\d+'))
    before = int(board.locator('#games-played').inner_text())
    board.evaluate('window.arenaTestMark = "not reloaded"')
    assert board_row(board).count() == 0
    page.bring_to_front()  # a tab behind another gets no animation frames, which clicks wait for
    hand_in(page, ALICE_GOOD)
    expect(verdict_of(page, 2)).to_have_text('plays', timeout=WAIT)
    expect(verdict_of(page, 1)).to_contain_text('cannot play')
    expect(page.locator('main')).to_contain_text('Playing on the ladder: version 2.')
    mine = board_row(board)
    expect(mine).to_have_count(1, timeout=WAIT)
    expect(mine.locator('td').nth(1)).to_have_text('Alice Liddell')
    expect(mine.locator('td').nth(2)).to_have_text('2')
    # three opponents (random, ab2, bob), a pair of games with each
    expect(mine.locator('td').nth(5)).to_have_text('6', timeout=WAIT)
    assert int(board.locator('#games-played').inner_text()) >= before + 6
    assert board.evaluate('window.arenaTestMark') == 'not reloaded'
    expect(board.locator('#board tbody tr')).to_have_count(4)
    assert board.locator('#board tbody tr:not(.mine)').all_inner_texts() and all(
        'Alice' not in row for row in board.locator('#board tbody tr:not(.mine)')
        .all_inner_texts())
    # her Elo drawn over time, on the leaderboard and on her page; her record against each
    drawn = alice.page()  # the live board stays as it is, not reloaded
    drawn.goto(f'{arena.url}/board')
    expect(drawn.locator('#rating-plot svg text').filter(has_text='Alice Liddell')).to_have_count(1)
    assert drawn.locator('#rating-plot svg circle').count() >= 4
    drawn.close()
    page.bring_to_front()  # clicks wait for animation frames, which a tab behind gets none of
    page.reload()
    expect(page.locator('#rating-plot svg text').filter(has_text='version 2')).to_have_count(1)
    expect(page.locator('#versions td.standing').first).to_contain_text('Elo')

    # 3. her games, filtered; one replayed to its end; her bot's log
    page.get_by_role('link', name='My games').click()
    assert page.url == f'{arena.url}/students/alice/games'
    expect(page.locator('#game-total')).to_have_text('6 games.')
    expect(page.locator('#head-to-head tbody tr td:first-child')).to_have_text(
        ['random', 'ab2', 'Bob <b>Builder</b>'], ignore_case=False)  # a pair with each
    expect(page.locator('#head-to-head tbody tr td:nth-child(2)')).to_have_text(['2'] * 3)
    page.locator('#filters select[name=opponent]').select_option(label='ab2')
    page.locator('#filters button').click()
    expect(page.locator('#game-total')).to_have_text('2 games.')
    assert 'opponent=' in page.url
    expect(page.locator('#filters select[name=opponent] option:checked')).to_have_text('ab2')
    rows = page.locator('#games tbody tr')
    expect(rows).to_have_count(2)
    assert [rows.nth(i).locator('td').nth(2).inner_text() for i in range(2)] == ['ab2', 'ab2']
    assert [rows.nth(i).locator('td').nth(0).inner_text() for i in range(2)] == ['2', '2']
    result = rows.first.locator('td').nth(4).inner_text()
    page.locator('#filters select[name=result]').select_option(result)
    page.locator('#filters button').click()
    expect(page.locator('#filters select[name=result]')).to_have_value(result)
    expect(page.locator('#filters select[name=opponent] option:checked')).to_have_text('ab2')
    assert 1 <= rows.count() <= 2
    for i in range(rows.count()):
        cells = rows.nth(i).locator('td').all_inner_texts()
        assert cells[2:3] == ['ab2'] and cells[4] == result
    cells = rows.first.locator('td').all_inner_texts()
    plies = int(cells[6])
    rows.first.get_by_role('link', name='replay').click()
    game = page.url
    assert re.fullmatch(rf'{re.escape(arena.url)}/students/alice/games/[0-9a-f]+(#game-\d+)?',
                        game)
    ply = page.locator('#ply')
    expect(ply).to_have_text(f'Start ({plies} moves)')
    expect(page.locator('#board svg')).to_have_count(1)
    expect(page.locator('#move-list li')).to_have_count(plies)
    expect(page.locator('#summary')).to_contain_text(
        f'A {result}, playing {cells[3]} with version 2;')
    start = page.locator('#board').inner_html()
    for move in range(1, plies + 1):
        page.locator('#next').click()
        expect(ply).to_contain_text(f'Move {move} of {plies}: ')
    ending = {'win': 'Alice Liddell wins', 'loss': 'ab2 wins', 'draw': 'draw'}[result]
    who, _, last_move = page.locator('#move-list li').last.inner_text().partition(': ')
    assert ply.inner_text() == f'Move {plies} of {plies}: {who} plays {last_move}. {ending}.'
    assert who in ('Alice Liddell', 'ab2')
    assert page.locator('#board').inner_html() != start
    page.keyboard.press('Home')
    expect(ply).to_have_text(f'Start ({plies} moves)')
    page.keyboard.press('End')
    expect(ply).to_contain_text(f'Move {plies} of {plies}: ')
    expect(ply).to_contain_text(f'. {ending}.')
    page.locator('#first').click()
    expect(ply).to_have_text(f'Start ({plies} moves)')
    page.locator('#last').click()
    page.locator('#prev').click()
    expect(ply).to_contain_text(f'Move {plies - 1} of {plies}: ')
    expect(page.locator('#log')).to_contain_text('my move from')
    expect(page.locator('#forfeit')).to_have_count(0)

    # 4. a pseudonym of markup is refused, the refusal shown as text; hers is shown
    # on her page, on the live board and in her games
    page.goto(f'{arena.url}/students/alice')
    page.locator('#pseudonym input[name=pseudonym]').fill(MARKUP)
    page.locator('#pseudonym button').click()
    expect(page.locator('#status')).to_contain_text('a pseudonym has 1 to 30 ASCII letters')
    page.locator('#pseudonym input[name=pseudonym]').fill(PSEUDONYM)
    page.locator('#pseudonym button').click()
    expect(page.locator('h1')).to_have_text(f'Alice Liddell ({PSEUDONYM})')
    expect(page.locator('header .who')).to_have_text(PSEUDONYM)
    expect(page.locator('#pseudonym input[name=pseudonym]')).to_have_value(PSEUDONYM)
    expect(mine.locator('td').nth(1)).to_have_text(PSEUDONYM, timeout=WAIT)
    assert board.evaluate('window.arenaTestMark') == 'not reloaded'
    board.reload()
    expect(board_row(board).locator('td').nth(1)).to_have_text(PSEUDONYM)
    page.goto(game)
    expect(page.locator('h1')).to_contain_text(f'{PSEUDONYM} against ab2')
    page.locator('#last').click()
    if result == 'win':
        expect(ply).to_contain_text(f'{PSEUDONYM} wins')
    expect(page.locator('#move-list')).to_contain_text(PSEUDONYM)
    for shown in (page, board):
        assert shown.locator('img').count() == 0
        assert shown.evaluate('document.querySelectorAll("img").length') == 0
    page.wait_for_timeout(300)  # time for an onerror to fire, had an img been made
    board.close()
    return game.partition('#')[0]


def bob_cannot_see_alices_things(arena: ArenaServer, bob: Watched, alice_token: str,
                                 bob_token: str, game: str) -> None:
    """Step 5: bob, signed in, in a browser and over HTTP; and no one signed in."""
    secrets = (alice_token, MARK, 'return None')
    page = bob.page()
    sign_in(page, arena, 'bob', 'Bob <b>Builder</b>')
    assert page.url == f'{arena.url}/students/bob'
    expect(page.locator('h1')).to_have_text('Bob <b>Builder</b>')
    assert page.locator('h1 b').count() == 0
    alices = [f'{arena.url}/students/alice', f'{arena.url}/students/alice/games',
              game, f'{arena.url}/students/alice/games?result=loss',
              f'{arena.url}/students/alice/versions/1', f'{arena.url}/students/alice/versions/2',
              f'{arena.url}/students/alice/versions.json']
    for url in alices:
        answer = page.goto(url)
        assert answer.status == 404 or page.url in (f'{arena.url}/',
                                                   f'{arena.url}/students/bob'), url
        body = page.content()
        assert not any(secret in body for secret in secrets), url
        assert not any(secret in answer.text() for secret in secrets), url
    # his own pages: the board, his games (one of them against alice) and its replay,
    # which show her by her pseudonym only: not her name, nor her id
    hidden = (*secrets, 'Alice Liddell', 'alice')
    for url in (f'{arena.url}/students/bob', f'{arena.url}/board',
                f'{arena.url}/students/bob/games'):
        page.goto(url)
        assert not [secret for secret in hidden if secret in page.content()], url
    status, _, body = http(f'{arena.url}/board.json', headers={'Cookie': bob.cookie_header()})
    assert status == 200 and PSEUDONYM in json.loads(body)['rows'].__repr__()
    assert not [secret for secret in hidden if secret in body], body
    page.locator('#filters select[name=opponent]').select_option(label=PSEUDONYM)
    page.locator('#filters button').click()
    expect(page.locator('#games tbody tr')).to_have_count(2)
    page.locator('#games tbody tr').first.get_by_role('link', name='replay').click()
    expect(page.locator('#ply')).to_contain_text('Start (')
    expect(page.locator('#log')).to_have_text(
        'Your bot wrote nothing on its standard output or error in this game.')
    assert not [secret for secret in hidden if secret in page.content()]
    assert 'my move from' not in page.content()  # alice's log is hers
    assert page.locator('img').count() == 0

    # over plain HTTP: with bob's session (and his CSRF token), and with no cookies
    cookies = bob.cookie_header()
    csrf = bob.cookie('csrftoken')
    upload, kind = multipart('file', 'mine.py', BOB_BOT.encode())
    posts = [(f'{arena.url}/students/alice/upload', upload, kind),
             (f'{arena.url}/students/alice/pseudonym', b'pseudonym=Bob+was+here',
              'application/x-www-form-urlencoded'),
             (f'{arena.url}/students/alice/link', b'', 'application/x-www-form-urlencoded')]
    for session in ({'Cookie': cookies}, {}):
        for url in alices:
            status, headers, body = http(url, headers=session)
            assert status == 404 or status in (302, 303, 307) and headers['location'] == '/', \
                (url, session, status)
            assert not any(secret in body for secret in secrets), url
        for url, data, content_type in posts:
            sent = {**session, 'Content-Type': content_type}
            if session:
                sent['x-csrftoken'] = csrf
            status, headers, body = http(url, data, sent, 'POST')
            assert status == 404 if session else status == 403, (url, session, status)
            assert not any(secret in body for secret in secrets), url
    # the terminal's routes, with bob's token: his own version, or nothing
    mine = arena.version('bob', 1)
    assert mine['digest'] == hashlib.sha256(BOB_BOT.encode()).hexdigest()
    status, _, body = http(f'{arena.url}/api/versions/2',
                           headers={'Authorization': f'Bearer {bob_token}'})
    assert status == 404 and not any(secret in body for secret in secrets)
    # alice's things are as she left them
    assert arena.version('alice', 2)['digest'] == hashlib.sha256(ALICE_GOOD.encode()).hexdigest()
    status, _, _ = http(f'{arena.url}/api/versions/3',
                        headers={'Authorization': f'Bearer {alice_token}'})
    assert status == 404
    page.goto(f'{arena.url}/board')
    expect(page.locator('#board tbody tr', has_text=PSEUDONYM)).to_have_count(1)
    expect(page.locator('#board tbody tr.mine')).to_contain_text('Bob <b>Builder</b>')


def the_instructor_downloads_grades_and_closes(arena: ArenaServer, staff: Watched,
                                               alice: Watched) -> None:
    """Step 6: the staff's page, the grades, and the hand-in closed."""
    page = staff.page()
    staff_sign_in(page, arena)
    rows = page.locator('#students tbody tr')
    expect(rows).to_have_count(3)
    table = [rows.nth(i).locator('td').all_inner_texts() for i in range(3)]
    assert [row[:3] for row in table] == [['alice', 'Alice Liddell', PSEUDONYM],
                                          ['bob', 'Bob <b>Builder</b>', ''],
                                          ['carol', 'Carol', '']]
    assert [row[3] for row in table] == ['2', '1', '0']
    assert table[0][4] == 'plays' and table[0][5] == '2'
    assert page.locator('#students img, #students b').count() == 0
    expect(page.locator('main')).to_contain_text('Hand-in: open')

    with page.expect_download() as downloading:
        page.locator('#grades-csv').click()
    download = downloading.value
    assert download.suggested_filename == 'grades.csv'
    with open(download.path(), newline='', encoding='utf-8') as file:
        grades = {row['id']: row for row in csv.DictReader(file)}
    assert sorted(grades) == ['alice', 'bob', 'carol']
    assert grades['alice']['version'] == '2' and grades['alice']['games'] == '6'
    assert grades['alice']['pseudonym'] == PSEUDONYM
    assert grades['bob']['version'] == '1' and grades['carol']['version'] == ''
    gradescope = page.evaluate(
        "fetch('/staff/gradescope.csv').then((answer) => answer.text())")
    lines = list(csv.reader(io.StringIO(gradescope)))
    assert lines[0] == ['Name', 'SID', 'Score']
    assert sorted(line[1] for line in lines[1:]) == ['alice', 'bob', 'carol']

    page.locator('#close-hand-in').click()
    expect(page.locator('#open-hand-in')).to_be_visible()
    expect(page.locator('main')).to_contain_text('Hand-in: closed')
    expect(page.locator('#closed')).to_contain_text(HAND_IN_CLOSED)

    # alice's upload is refused, from her page and from a terminal
    mine = alice.page()
    mine.goto(f'{arena.url}/students/alice')
    expect(mine.locator('#closed')).to_have_text(f'{HAND_IN_CLOSED}: no more uploads.')
    hand_in(mine, ALICE_GOOD + '# one more\n')
    expect(mine.locator('#status')).to_have_text(HAND_IN_CLOSED)
    mine.reload()
    expect(mine.locator('#versions tbody tr[data-status]')).to_have_count(2)
    status, _, body = http(f'{arena.url}/api/submit?filename=mine.py', ALICE_GOOD.encode(),
                           {'Authorization': f'Bearer {arena.token("alice")}'}, 'POST')
    assert status == 400 and json.loads(body) == {'error': HAND_IN_CLOSED}
    status, _, _ = http(f'{arena.url}/api/versions/3',
                        headers={'Authorization': f'Bearer {arena.token("alice")}'})
    assert status == 404


def test_a_post_without_its_csrf_header_is_refused_and_changes_nothing(arena, chromium):
    carol, staff = Watched(chromium), Watched(chromium)
    try:
        page = carol.page()
        sign_in(page, arena, 'carol', 'Carol')
        expect(page.locator('h1')).to_have_text('Carol')
        form = ("(field, value) => { const body = new FormData(); body.append(field, value);"
                " return body; }")
        # from her own page, with her cookies but not the header
        for url, script in (
                ('/students/carol/pseudonym',
                 f"fetch('/students/carol/pseudonym', {{method: 'POST', body: ({form})("
                 "'pseudonym', 'Sneaky'), credentials: 'same-origin'}).then((a) => a.status)"),
                ('/students/carol/upload',
                 f"fetch('/students/carol/upload', {{method: 'POST', body: ({form})("
                 "'file', new File(['def player(game, state):\\n    return 1\\n'], 'mine.py')),"
                 " credentials: 'same-origin'}).then((a) => a.status)")):
            assert page.evaluate(script) == 403, url
        # over HTTP with her session and CSRF cookies, without the header; and with a
        # header that is not her cookie's
        upload, kind = multipart('file', 'mine.py', BOB_BOT.encode())
        for extra in ({}, {'x-csrftoken': 'not-the-cookies-token'}):
            for url, data, content_type in (
                    ('/students/carol/pseudonym', b'pseudonym=Sneaky',
                     'application/x-www-form-urlencoded'),
                    ('/students/carol/upload', upload, kind)):
                status, _, _ = http(arena.url + url, data, {
                    'Cookie': carol.cookie_header(), 'Content-Type': content_type, **extra},
                    'POST')
                assert status == 403, (url, extra)
        page.reload()
        expect(page.locator('h1')).to_have_text('Carol')
        expect(page.locator('#pseudonym input[name=pseudonym]')).to_have_value('')
        expect(page.locator('#versions tbody tr')).to_have_count(0)
        status, _, _ = http(f'{arena.url}/api/versions/1',
                            headers={'Authorization': f'Bearer {arena.token("carol")}'})
        assert status == 404

        # the staff's buttons too: closing (or opening) the hand-in, playing it again
        desk = staff.page()
        staff_sign_in(desk, arena)
        state = desk.locator('main p').first.inner_text()
        for url in ('/staff/close', '/staff/rerun'):
            assert desk.evaluate(f"fetch('{url}', {{method: 'POST', body: new FormData(),"
                                 " credentials: 'same-origin'}).then((a) => a.status)") == 403
        desk.reload()
        assert desk.locator('main p').first.inner_text() == state
        assert carol.trouble == staff.trouble == []
    finally:
        carol.close()
        staff.close()


def test_a_student_challenges_ab2_and_follows_the_games_to_their_replays(arena, chromium):
    bob = Watched(chromium)
    try:
        page = bob.page()
        sign_in(page, arena, 'bob', 'Bob <b>Builder</b>')
        expect(page.locator('#challenge select[name=opponent] option')).to_have_text(
            ['random', 'ab2'])  # the course's players; classmates only where it allows them
        page.locator('#challenge select[name=opponent]').select_option(label='ab2')
        page.locator('#challenge input[name=pairs]').fill('2')
        page.locator('#challenge button').click()
        page.wait_for_url(re.compile(rf'{re.escape(arena.url)}/students/bob/challenges/\d+$'))
        challenge = page.url
        expect(page.locator('h1')).to_contain_text('Bob <b>Builder</b> against ab2')
        expect(page.locator('#challenge-status')).to_have_text('done')
        rows = page.locator('#games tbody tr')
        expect(rows).to_have_count(4)
        expect(rows.locator('td:nth-child(2)')).to_have_text(['ab2'] * 4)
        expect(rows.locator('td:nth-child(3)')).to_have_text(['first', 'second'] * 2)
        rows.first.get_by_role('link', name='replay').click()
        expect(page.locator('#summary')).to_contain_text('playing first')
        expect(page.locator('h1')).to_have_text('tictactoe: Bob <b>Builder</b> against ab2')
        page.goto(challenge)  # not back: the page's reloads while it played are history too
        page.get_by_role('link', name='Back to Bob <b>Builder</b>').click()
        expect(page.locator('#challenges tbody tr').first).to_contain_text('ab2')
        assert bob.trouble == []
    finally:
        bob.close()
