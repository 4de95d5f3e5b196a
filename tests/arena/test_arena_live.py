"""Games in the browser, without the web: each refereed in a process of its own, the
player in its jail at each level (one that hangs or crashes loses only its game), the
person on their clock (who may run out of time, or resign), a forged move, or one
sent again, changing nothing; at most so many at once and one a student; each finished game kept and
replayable, with the person's time in its record; a reason the student's own code wrote
given to the page escaped."""

import time

import pytest
from arena_server import version_that_plays
from jails import LEVELS

from players.arena.challenges import Opponent
from players.arena.live_games import OVER, YOUR_MOVE, LiveGames
from players.arena.records import Records
from players.arena.settings import ArenaSettings, PlayRules
from players.tournaments.match import Rules

HANGS = 'def player(game, state):\n    while True:\n        pass\n'
CRASHES = 'import os\ndef player(game, state):\n    os._exit(3)\n'
RAISES = "def player(game, state):\n    raise ValueError('\\x1b[2J\\x07\\u202egnp')\n"
"""A bot whose error clears the screen, rings the bell and makes a text read backwards."""


def arena(tmp_path, level='process', **play):
    settings = ArenaSettings(str(tmp_path), ('tictactoe', 'nim(piles=(1, 2))'), {'ab1': 'ab1'},
                             rules=Rules(move_timeout=1, sandbox=level), play=PlayRules(**play))
    records = Records(str(tmp_path / 'arena.sqlite'))
    for student in ('alice', 'bob'):
        records.add_student(student, student.title())
    return settings, records, LiveGames(settings, records)


def bot(tmp_path, name, source):
    path = tmp_path / f'{name}.py'
    path.write_text(source)
    return Opponent(name, str(path))


def turn(game, timeout=30.0):
    """Wait for the person's move or the end; return the status."""
    with game.lock:
        game.lock.wait_for(lambda: game.status in (YOUR_MOVE, OVER), timeout)
        return game.status


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_that_hangs_or_crashes_loses_only_its_game(tmp_path, level):
    settings, records, live = arena(tmp_path, level)
    for name, source, reason in (('hangs', HANGS, 'You won (timeout: it ran out of time).'),
                                 ('crashes', CRASHES, 'You won (error: its code failed).')):
        game = live.start('alice', bot(tmp_path, name, source), 'tictactoe', 0)
        assert turn(game) == YOUR_MOVE and len(game.choices) == 9
        live.move(game, 4, len(game.made), wait=30)
        assert turn(game) == OVER and game.result == reason, game.result
    own = bot(tmp_path, 'version 1', RAISES)  # her own version: its reason is hers to read
    game = live.start('alice', own, 'tictactoe', 0)
    assert turn(game) == YOUR_MOVE
    live.move(game, 4, 0, wait=30)
    assert turn(game) == OVER and game.result.startswith('You won (error: ') \
        and 'its code failed' not in game.result, game.result
    shown = game.plain()['result']  # as the page's script shows it: escaped
    assert 'ValueError: \\x1b[2J\\x07\\u202egnp' in shown
    assert not [char for char in '\x1b\x07\u202e' if char in shown]
    [_, (second, crashed, _), (first, hung, kept)] = live.finished('alice')
    assert (first, second) == (1, 2) and hung.forfeit == 'hangs' == hung.second
    assert hung.moves == [[2, 2]] and kept.specs['alice'] == 'a person in the browser'


def test_the_person_plays_on_their_clock_may_resign_and_forges_nothing(tmp_path):
    settings, records, live = arena(tmp_path, move_seconds=1.0)
    game = live.start('alice', Opponent('ab1', 'ab1'), 'nim(piles=(1, 2))', 1)
    assert turn(game) == YOUR_MOVE and game.made and game.made[0][0] == 0  # ab1 moved first
    for forged, ply in ((-1, 1), (len(game.choices), 1), (10 ** 9, 1), (0, 0), (0, 2)):
        live.move(game, forged, ply, wait=0.1)  # no such move, or a move of another ply
        assert game.status == YOUR_MOVE and len(game.made) == 1
    with game.lock:  # the person waits out their clock
        assert game.lock.wait_for(lambda: game.status == OVER, 10)
    assert game.result == 'You lost (timeout: no move within 1 s).'
    game = live.start('alice', Opponent('ab1', 'ab1'), 'tictactoe', 0)
    assert turn(game) == YOUR_MOVE
    time.sleep(0.3)
    live.move(game, 0, 0, wait=30)
    assert turn(game) == YOUR_MOVE
    live.resign(game)
    assert turn(game) == OVER and game.result == 'You lost (error: resigned).'
    record = live.finished('alice')[0][1]
    assert record.moves_first == 1 and record.time_first >= 0.3  # the person's clock


def test_one_game_a_student_and_so_many_at_once(tmp_path):
    settings, records, live = arena(tmp_path, games=1)
    ab1 = Opponent('ab1', 'ab1')
    game = live.start('alice', ab1, 'tictactoe', 0)
    with pytest.raises(ValueError, match='finish or resign the game you are playing first'):
        live.start('alice', ab1, 'tictactoe', 0)
    with pytest.raises(ValueError, match='1 games are being played in the browser'):
        live.start('bob', ab1, 'tictactoe', 0)
    with pytest.raises(ValueError, match='choose a variant of the ladder'):
        live.start('bob', ab1, 'chess', 0)
    assert turn(game) == YOUR_MOVE
    live.resign(game)
    assert turn(game) == OVER
    assert live.start('bob', ab1, 'tictactoe', 0).number == 1  # a number of bob's own
    (tmp_path / 'none').mkdir()
    _, _, closed = arena(tmp_path / 'none', games=0)
    with pytest.raises(ValueError, match='this course has no games in the browser'):
        closed.start('alice', ab1, 'tictactoe', 0)
    live.stop()


def test_whom_a_student_may_play(tmp_path):
    settings, records, live = arena(tmp_path)
    assert live.opponents('alice') == [Opponent('ab1', 'ab1')]
    version = version_that_plays(records, tmp_path, 'alice')
    assert live.opponents('alice') == [Opponent('version 1', version.path, 1),
                                       Opponent('ab1', 'ab1')]
    assert live.opponents('bob') == [Opponent('ab1', 'ab1')]  # classmates only where allowed
