"""What students are told of their versions: a version that cannot play, its first
games and its first forfeit on the ladder, each once a version however often the
server starts, on the student's page and by e-mail where the course has a mail
server (a server that is down costs nothing but a line on serve's standard error)."""

import time

import pytest
from arena_server import BROKEN, GOOD, ArenaServer, signed_in
from fake_smtp import FakeSMTP

from games.referee import Termination
from players.arena.leaderboard import Board, BoardRow
from players.arena.mail import Mailer, MailSettings
from players.arena.notices import CANNOT_PLAY, FIRST_GAMES, FORFEITED, Notices
from players.arena.records import CANNOT_PLAY as VERDICT_CANNOT_PLAY, Records, Version
from players.arena.telling import Teller
from players.tournaments.ranking import Standing
from players.tournaments.record import GameRecord


def wait_for(condition, timeout=10.0):
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, 'not in time'
        time.sleep(0.02)


def test_a_notice_is_told_once_a_version_and_kind_and_stays_told(tmp_path):
    notices = Notices(str(tmp_path / 'notices.sqlite'))
    assert notices.tell('alice', 1, CANNOT_PLAY, 'Version 1 cannot play: x') is not None
    assert notices.tell('alice', 1, CANNOT_PLAY, 'again') is None
    assert notices.tell('alice', 2, CANNOT_PLAY, 'Version 2 cannot play: y') is not None
    notices.close()
    again = Notices(str(tmp_path / 'notices.sqlite'))  # a server started again
    assert again.tell('alice', 2, CANNOT_PLAY, 'again') is None
    assert [(notice.text, notice.seen) for notice in again.of('alice')] == [
        ('Version 2 cannot play: y', False), ('Version 1 cannot play: x', False)]
    again.seen('alice')
    assert all(notice.seen for notice in again.of('alice')) and again.of('bob') == []
    again.close()


def standing(player, rank, games, forfeits=0):
    return Standing(rank, player, 0, 50, games, 0, 0, games, 0.0, 0.0, 0.0, forfeits)


def test_the_teller_writes_and_mails_each_thing_once_naming_others_as_shown(tmp_path):
    records = Records(str(tmp_path / 'arena.sqlite'))
    records.add_student('alice', 'Alice', 'alice@example.edu')
    records.add_student('bob', 'Bob Secret-Name')
    records.set_pseudonym('bob', 'Builder')
    notices = Notices(str(tmp_path / 'notices.sqlite'))
    with FakeSMTP() as smtp:
        mailer = Mailer(MailSettings('127.0.0.1', smtp.port, 'arena@example.edu'))
        teller = Teller(records, notices, mailer, 'https://arena.example.edu')
        broken = Version('alice', 1, 0.0, 'd', 'mine.py', '/x', VERDICT_CANNOT_PLAY,
                         "SyntaxError: expected ':' (mine.py, line 1)", '', '')
        teller.verdict(broken)
        teller.verdict(broken)  # told once
        forfeit = GameRecord(
            index=0, variant='tictactoe', first='bob', second='alice', pair=0, leg=0, seed=0,
            score=1.0, termination=Termination.TIMEOUT, detail='no move within 2 s',
            forfeit='alice', moves=[4], opening=0, plies=1, time_first=0.0, time_second=2.0,
            moves_first=1, moves_second=0, nodes_first=None, nodes_second=None)
        board = Board(1, (BoardRow(standing('bob', 1, 2), 'Builder', 'bob', 1),
                          BoardRow(standing('alice', 2, 2, 1), 'Alice', 'alice', 2),
                          BoardRow(standing('ab2', 3, 0), 'ab2', None, None)), 4)
        for _ in range(2):
            teller.boarded(board, {'alice': forfeit})
        mailer.stop(timeout=10)
        assert mailer.failed == 0
    told = {notice.kind: notice.text for notice in notices.of('alice')}
    assert told == {
        CANNOT_PLAY: "Version 1 (mine.py) cannot play: SyntaxError: expected ':' (mine.py, line 1)",
        FIRST_GAMES: 'Version 2 played its first 2 games on the ladder: rank 2 of 3, Elo 0.',
        FORFEITED: 'Version 2 forfeited a game of tictactoe against Builder: no move within '
                   '2 s. Its replay is among your games.'}
    assert [notice.kind for notice in notices.of('bob')] == [FIRST_GAMES]  # no address: no mail
    assert sorted(message['Subject'] for message in smtp.messages) == [
        'Arena: version 1: cannot play', 'Arena: version 2: first games',
        'Arena: version 2: forfeited']
    assert {message['To'] for message in smtp.messages} == {'alice@example.edu'}
    body = smtp.messages[0].get_payload(decode=True).decode()
    assert 'https://arena.example.edu/students/alice' in body and 'Secret-Name' not in str(
        [message.as_string() for message in smtp.messages])


def test_a_mail_server_that_is_down_costs_a_line_and_nothing_else(tmp_path, capsys):
    with FakeSMTP() as smtp:
        port = smtp.port  # free once the server is closed
    mailer = Mailer(MailSettings('127.0.0.1', port, 'arena@example.edu'))
    mailer.send('alice@example.edu', 'Arena: version 1: cannot play', 'text')
    mailer.stop(timeout=30)
    assert mailer.failed == 1
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(f'arena: could not e-mail alice@example.edu through 127.0.0.1:{port}: ')


CRASHES = 'import os\ndef player(game, state):\n    os._exit(3)\n'
"""A bot that loads, and ends its process at its first move."""


@pytest.mark.slow
def test_a_served_arena_tells_a_student_on_their_page_and_by_mail(tmp_path):
    with FakeSMTP() as smtp:
        server = ArenaServer(tmp_path, roster=[('alice', 'Alice', 'alice@example.edu'),
                                               ('bob', 'Bob', '')], staff=None,
                             arena_table=f'mail-server = "127.0.0.1:{smtp.port}"\n'
                                         'mail-from = "arena@example.edu"\n').start()
        try:
            handed_in = [(student, server.submit(student, source.encode())['number'])
                         for student, source in (('alice', BROKEN), ('alice', CRASHES),
                                                 ('bob', GOOD))]
            for student, number in handed_in:
                server.verdict(student, number)
            wait_for(lambda: len(smtp.messages) == 3, timeout=60)
            with signed_in(server, 'alice') as alice:
                page = alice.get('/students/alice').text
                assert page.count('<li class="new"') == 3
                assert 'Version 1 (mine.py) cannot play: SyntaxError' in page
                assert 'Version 2 forfeited a game of tictactoe against' in page
                assert alice.get('/students/alice').text.count('<li class="new"') == 0  # seen
                assert alice.get('/students/bob').status_code == 404
        finally:
            server.close()
    assert sorted(message['Subject'] for message in smtp.messages) == [
        'Arena: version 1: cannot play', 'Arena: version 2: first games',
        'Arena: version 2: forfeited']
    assert {message['To'] for message in smtp.messages} == {'alice@example.edu'}
