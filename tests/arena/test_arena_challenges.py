"""Challenges, without the web: a challenge plays the pairs asked for between the
student's version and the opponent, in jails at each level, a hostile bot losing only
its own games; a student may ask for so many an hour; classmates are opponents only
where the course allows it; their games count on the leaderboard only where it says
so, and only while both versions are on the ladder; and a challenge holds the ladder
while it plays."""

from dataclasses import replace

import pytest
from arena_server import version_that_plays
from jails import LEVELS

from players.arena.challenges import Challenges, Opponent, challenge_games, counted_games
from players.arena.ladder_loop import Ladder
from players.arena.leaderboard import board_rows
from players.arena.records import DONE, Records
from players.arena.settings import ArenaSettings, ChallengeRules
from players.tournaments.match import Rules
from players.tournaments.workers import WorkerPool

HANGS = 'def player(game, state):\n    while True:\n        pass\n'
CRASHES = 'import os\ndef player(game, state):\n    os._exit(3)\n'


def arena(tmp_path, level='process', variants=('tictactoe', 'nim'), **rules):
    """An arena's settings, records, ladder (not started) and challenges."""
    settings = ArenaSettings(str(tmp_path), variants, {'ab1': 'ab1'},
                             rules=Rules(move_timeout=1, sandbox=level),
                             challenges=ChallengeRules(**rules))
    records = Records(str(tmp_path / 'arena.sqlite'))
    ladder = Ladder(settings, records, lambda: WorkerPool(2), in_flight=2)
    return settings, records, ladder, Challenges(settings, records, ladder)


def playing(records):
    """Each student's version on the ladder, by number."""
    return {student: version.number for student, version in records.playing().items()}


def played(settings, challenges, challenge):
    """Play a challenge as the challenges' thread would; return its games."""
    challenges.play(challenge)
    return challenge_games(settings, challenge.id)[0]


@pytest.mark.parametrize('level', LEVELS)
def test_a_challenge_plays_its_pairs_and_a_hostile_bot_loses_only_its_own(tmp_path, level):
    settings, records, ladder, challenges = arena(tmp_path, level, classmates=True)
    try:
        version_that_plays(records, tmp_path, 'alice')
        for student, source in (('bob', HANGS), ('carol', CRASHES)):
            version_that_plays(records, tmp_path, student, source)
        [_, bob, carol] = [opponent for opponent in challenges.opponents('alice')]
        against_ab1 = challenges.ask('alice', Opponent('ab1', 'ab1'), 'tictactoe', 2)
        games = played(settings, challenges, against_ab1)
        assert len(games) == 4 and records.challenge(against_ab1.id).status == DONE
        assert [game.names.index('alice') for game in games] == [0, 1, 0, 1]
        assert all(game.forfeit is None for game in games)
        for hostile in (bob, carol):
            games = played(settings, challenges, challenges.ask('alice', hostile, 'nim', 1))
            assert [game.forfeit for game in games] == [hostile.name] * 2
    finally:
        ladder.executor.shutdown()


def test_a_student_may_ask_for_so_many_an_hour_and_only_what_the_course_allows(tmp_path):
    settings, records, ladder, challenges = arena(tmp_path, an_hour=2, pairs=3)
    try:
        ab1 = Opponent('ab1', 'ab1')
        with pytest.raises(ValueError, match='none of your versions plays yet'):
            challenges.ask('alice', ab1, 'nim', 1)
        version_that_plays(records, tmp_path, 'alice')
        version_that_plays(records, tmp_path, 'bob')
        assert challenges.opponents('alice') == [ab1]  # no classmates unless allowed
        for variant, pairs, error in (('chess', 1, 'choose a variant of the ladder'),
                                      ('nim', 4, 'from 1 to 3 game pairs'),
                                      ('nim', 0, 'from 1 to 3 game pairs')):
            with pytest.raises(ValueError, match=error):
                challenges.ask('alice', ab1, variant, pairs)
        challenges.ask('alice', ab1, 'nim', 1)
        challenges.ask('alice', ab1, 'nim', 1)
        with pytest.raises(ValueError, match='2 challenges an hour at most: the next in 60 min'):
            challenges.ask('alice', ab1, 'nim', 1)
        assert challenges.ask('bob', ab1, 'nim', 1).student == 'bob'  # each their own
        assert [challenge.student for challenge in records.challenges()] == \
            ['bob', 'alice', 'alice']
        closed = Challenges(replace(settings, challenges=ChallengeRules(an_hour=0)), records,
                            ladder)
        with pytest.raises(ValueError, match='this course has no challenges'):
            closed.ask('bob', ab1, 'nim', 1)
    finally:
        ladder.executor.shutdown()


def test_games_count_where_the_course_says_while_both_versions_are_on_the_ladder(tmp_path):
    for count in (False, True):
        folder = tmp_path / str(count)
        folder.mkdir()
        settings, records, ladder, challenges = arena(folder, variants=('nim',), classmates=True,
                                                      count=count)
        try:
            version_that_plays(records, folder, 'alice')
            version_that_plays(records, folder, 'bob')
            [_, bob] = challenges.opponents('alice')
            played(settings, challenges, challenges.ask('alice', bob, 'nim', 1))
            counted = list(counted_games(settings, records, playing(records)))
            assert len(counted) == (2 if count else 0)
            ladder.play_once()  # 3 pairings' 6 games, and the challenge's if they count
            assert board_rows(settings, records)[1] == 6 + len(counted)
            version_that_plays(records, folder, 'bob')  # bob's new version: old games stop counting
            assert not list(counted_games(settings, records, playing(records)))
        finally:
            ladder.executor.shutdown()


def test_a_held_ladder_begins_no_game_until_released(tmp_path):
    settings, records, ladder, challenges = arena(tmp_path)
    try:
        version_that_plays(records, tmp_path, 'alice')
        ladder.hold()
        assert ladder.play_once() == 0
        ladder.release()
        assert ladder.play_once() == 4  # alice and ab1, on two variants
    finally:
        ladder.executor.shutdown()
