"""A tournament from Python, with no command line: settings in, typed standings and
records out."""

import pytest

from players.tournaments.match import Rules
from players.tournaments.ranking import Standing
from players.tournaments.record import GameRecord
from players.tournaments.schedule import count_games
from players.tournaments.tournament import Tournament

pytestmark = pytest.mark.slow


def test_a_tournament_runs_from_python_and_returns_typed_results(tmp_path):
    tournament = Tournament(['random', 'ab2'], ['simple-nim'],
                            Rules(move_timeout=5, sandbox='process'), games=2, seed=1,
                            db=str(tmp_path / 'run.sqlite'))
    outcome = tournament.run()
    scheduled = count_games(['random', 'ab2'], ['simple-nim'], 2)
    assert outcome.played == len(outcome.records) == scheduled == 4  # 2 pairs, seats swapped
    assert all(isinstance(record, GameRecord) for record in outcome.records)
    assert [record.index for record in outcome.records] == [0, 1, 2, 3]
    assert {record.termination for record in outcome.records} == {'normal'}
    assert list(outcome.standings) == ['simple-nim', None]
    points = {standing.player: standing.points for standing in outcome.overall}
    assert all(isinstance(standing, Standing) for standing in outcome.overall)
    assert points['ab2'] >= points['random'] and sum(points.values()) == 4
    assert outcome.overall[0].rank == 1 and outcome.overall[0].games == 4
    again = Tournament(['random', 'ab2'], ['simple-nim'], Rules(move_timeout=5), games=2,
                       seed=1, db=str(tmp_path / 'run.sqlite')).run()
    assert (again.played, again.reused) == (0, 4)  # the same players' code: nothing to play
    assert again.records == outcome.records
