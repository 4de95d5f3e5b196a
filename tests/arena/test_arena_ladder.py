"""The arena's background ladder, one round at a time: it plays only what changed, the
games of the newest versions first, a version that can no longer be read cannot play,
and the staff's "play the ladder again" plays every game again."""

import os

from players.arena.ladder_loop import Ladder, newest_first, read_entrants, tournament_of
from players.arena.leaderboard import board_rows
from players.arena.records import PLAYS, Records
from players.arena.settings import ArenaSettings
from players.tournaments.match import Rules
from players.tournaments.schedule import ScheduledGame
from players.tournaments.workers import WorkerPool

FIRST_MOVE = 'def player(game, state):\n    return game.actions(state)[0]\n'


def arena(tmp_path, house=('random', 'ab1')):
    settings = ArenaSettings(str(tmp_path), ('tictactoe',), {name: name for name in house},
                             rules=Rules(move_timeout=2))
    return settings, Records(str(tmp_path / 'arena.sqlite'))


def hand_in(tmp_path, records, student, source=FIRST_MOVE):
    records.add_student(student, student.title())
    path = tmp_path / f'{student}.py'
    path.write_text(source)
    version = records.add_version(student, 'digest', path.name, str(path))
    records.set_verdict(student, version.number, PLAYS)
    return path


def test_the_ladder_plays_only_what_changed_and_all_again_when_asked(tmp_path):
    settings, records = arena(tmp_path)
    ladder = Ladder(settings, records, lambda: WorkerPool(1), in_flight=2)
    try:
        assert ladder.play_once() == 2  # random and ab1, the seats swapped
        assert ladder.play_once() == 0
        hand_in(tmp_path, records, 'alice')
        assert ladder.play_once() == 4  # alice against each, twice
        ladder.rerun()
        assert ladder.play_once() == 6
    finally:
        ladder.executor.shutdown()


def test_a_version_that_cannot_be_read_any_more_cannot_play(tmp_path):
    settings, records = arena(tmp_path)
    path = hand_in(tmp_path, records, 'alice')
    os.remove(path)
    tournament, handed_in = tournament_of(settings, records)
    entered = read_entrants(tournament, settings, records)
    assert entered.broken == {'alice': 'its files can no longer be read'}
    assert handed_in['alice'] > handed_in['random'] == 0


def test_the_games_of_the_newest_versions_come_first():
    games = [ScheduledGame(index, 'nim', first, second, 0, 0, 0)
             for index, (first, second) in enumerate([('a', 'b'), ('a', 'c'), ('b', 'c'),
                                                      ('c', 'a')])]
    handed_in = {'a': 0.0, 'b': 5.0, 'c': 9.0}
    assert [game.index for game in newest_first(games, handed_in)] == [1, 2, 3, 0]


def test_a_row_is_the_version_whose_games_the_ladder_holds(tmp_path):
    settings, records = arena(tmp_path)
    ladder = Ladder(settings, records, lambda: WorkerPool(1), in_flight=2)
    records.add_student('alice', 'Alice')

    def version(number):
        path = tmp_path / f'alice-{number}.py'
        path.write_text(FIRST_MOVE)
        records.set_verdict('alice', records.add_version('alice', 'd', path.name, str(path))
                            .number, PLAYS)

    def row_version():
        [row] = [row for row in board_rows(settings, records)[0] if row.student == 'alice']
        return row.version
    try:
        version(1)
        ladder.play_once()
        assert row_version() == 1
        version(2)  # it plays, and the ladder has not begun again with it yet
        assert records.playing()['alice'].number == 2 and row_version() == 1
        ladder.play_once()
        assert row_version() == 2
    finally:
        ladder.executor.shutdown()
