"""The arena's background ladder, one round at a time: it plays only what changed, the
games of the newest versions first, a version that can no longer be read cannot play,
and the staff's "play the ladder again" plays every game again."""

import os
import time

from arena_server import version_that_plays

from players.arena.ladder_loop import Ladder, newest_first, read_entrants, tournament_of
from players.arena.leaderboard import board_rows
from players.arena.records import Records
from players.arena.settings import ArenaSettings
from players.tournaments.match import Rules
from players.tournaments.schedule import ScheduledGame
from players.tournaments.workers import WorkerPool

SLOW = 'import time\ndef player(game, state):\n    time.sleep(1)\n' \
       '    return game.actions(state)[0]\n'
"""A bot that thinks a second a move."""


def arena(tmp_path, house=('random', 'ab1')):
    settings = ArenaSettings(str(tmp_path), ('tictactoe',), {name: name for name in house},
                             rules=Rules(move_timeout=2))
    return settings, Records(str(tmp_path / 'arena.sqlite'))


def test_the_ladder_plays_only_what_changed_and_all_again_when_asked(tmp_path):
    settings, records = arena(tmp_path)
    ladder = Ladder(settings, records, lambda: WorkerPool(1), in_flight=2)
    try:
        assert ladder.play_once() == 2  # random and ab1, the seats swapped
        assert ladder.play_once() == 0
        version_that_plays(records, tmp_path, 'alice')
        assert ladder.play_once() == 4  # alice against each, twice
        ladder.rerun()
        assert ladder.play_once() == 6
    finally:
        ladder.executor.shutdown()


def test_a_version_that_cannot_be_read_any_more_cannot_play(tmp_path):
    settings, records = arena(tmp_path)
    os.remove(version_that_plays(records, tmp_path, 'alice').path)
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

    def row_version():
        [row] = [row for row in board_rows(settings, records)[0] if row.student == 'alice']
        return row.version
    try:
        version_that_plays(records, tmp_path, 'alice')
        ladder.play_once()
        assert row_version() == 1
        version_that_plays(records, tmp_path, 'alice')  # plays; the ladder has not begun again
        assert records.playing()['alice'].number == 2 and row_version() == 1
        ladder.play_once()
        assert row_version() == 2
    finally:
        ladder.executor.shutdown()


def move_made(pool: WorkerPool, timeout: float = 60) -> None:
    """Wait until the pool's worker has been sent a game and told of a move in it (its
    first heartbeat after the game was sent, which a move sends)."""
    [worker] = pool._workers
    ends = time.monotonic() + timeout
    while worker.last_beat == 0.0:  # no game sent yet
        assert time.monotonic() < ends, 'no game sent to the worker'
        time.sleep(0.01)
    sent = worker.last_beat
    while worker.last_beat == sent:
        assert time.monotonic() < ends, 'no move made in the game'
        time.sleep(0.01)


def test_a_ladder_stopped_in_the_middle_of_a_game_starts_no_new_workers(tmp_path):
    settings, records = arena(tmp_path)
    made = []

    def make_executor():
        made.append(WorkerPool(1, start_method='spawn'))
        return made[-1]
    ladder = Ladder(settings, records, make_executor, in_flight=2)
    version_that_plays(records, tmp_path, 'alice', SLOW)
    ladder.start()
    try:
        move_made(made[0])  # a game under way, its moves a second each
        ladder.stop(timeout=0.1)  # its executor shut down under the game
        ladder._thread.join(30)
        assert not ladder._thread.is_alive() and len(made) == 1  # no pool started as it stops
    finally:
        for pool in made:
            pool.shutdown(wait=False)
