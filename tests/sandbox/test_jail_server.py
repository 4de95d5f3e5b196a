"""The jail server: every jail, at each level, forked from a clean process, so that
a player finds nothing of the trusted side in its memory, cannot foretell the
dice, hits its process limit, and finds nothing that another jail or an earlier
game left; reused jails start each game afresh."""

import json
import os
import time

import pytest
from places import TESTS
from jails import BWRAP_PROBLEM, LEVELS, adopting_orphans, round_robin

import players
import tournament
import variants
from games import referee
from players.sandbox import jail, servers
from players.remote import player_code
from players import grading

pytestmark = pytest.mark.slow


PRYING = os.path.join(TESTS, 'prying_players.py')
STUDENTS = os.path.join(TESTS, 'students')


def prying(name):
    return f'{PRYING}:{name}'


def details(records, name):
    """The forfeit details of the games that name lost by its own fault."""
    return {record.detail for record in records if record.forfeit == name}


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_finds_nothing_of_the_referee_in_its_memory(tmp_path, level):
    codes = {name: player_code.read_player(name) for name in (prying('snoop'), 'random')}
    records = round_robin(tmp_path, codes, variant='dice-nim', jobs=1, sandbox=level)
    told = details(records, prying('snoop'))
    assert told and all(detail.startswith('RuntimeError: found [] ') for detail in told), told


@pytest.mark.parametrize('level', LEVELS)
def test_a_player_cannot_foretell_the_dice(tmp_path, level):
    codes = {name: player_code.read_player(name) for name in (prying('prophet'), 'random')}
    game = 'dicenim(piles=(20, 20, 20), sides=6)'
    records = round_robin(tmp_path, codes, variant=game, jobs=1, sandbox=level)
    told = details(records, prying('prophet'))
    assert told and all(detail.startswith('RuntimeError: prophecy failed') for detail in told)


@pytest.mark.parametrize('level', LEVELS)
def test_a_fork_bomb_stops_at_the_process_limit(tmp_path, level):
    codes = {name: player_code.read_player(name) for name in (prying('fork_bomb'), 'random')}
    records = round_robin(tmp_path, codes, variant='simple-nim', jobs=1, sandbox=level)
    started = [int(detail.split()[2]) for detail in details(records, prying('fork_bomb'))]
    assert started and all(0 <= count < jail.Limits.processes for count in started)


@pytest.mark.parametrize('level', [pytest.param('process', marks=pytest.mark.skipif(
    os.geteuid() != 0, reason="a process jail of an ordinary user shares the user's /tmp"))]
    + LEVELS[1:])
def test_nothing_one_jail_writes_is_seen_by_the_next_game_or_the_other_jail(tmp_path, level):
    if os.path.exists('/tmp/aima-mark'):
        os.remove('/tmp/aima-mark')
    codes = {'a': player_code.read_player(prying('marker')), 'b': player_code.read_player(prying('marker'))}
    records = round_robin(tmp_path, codes, variant='simple-nim', jobs=1, sandbox=level)
    assert len(records) == 2
    assert all(record.termination == referee.NORMAL for record in records), records
    assert not os.path.exists('/tmp/aima-mark')


def test_perfect_plays_connect_four_the_same_whatever_the_jobs(tmp_path, capsys):
    runs = []
    for jobs in (1, 2):
        path = tmp_path / f'jobs{jobs}.json'
        assert tournament.main(['--players', 'perfect,ab2', '--variants', 'connect4',
                                '--openings', '18', '--games', '2', '--jobs', str(jobs),
                                '--json', str(path)]) == 0
        runs.append([(game['first'], game['moves'], game['score'])
                     for game in json.loads(path.read_text())['games']])
    capsys.readouterr()
    assert runs[0] == runs[1] and len(runs[0]) == 4


def test_loading_a_clocked_player_forgets_the_tables_of_the_last_game():
    """A clocked player's move depends on how far it searches in its time, and so on
    what its tables hold: loaded for a new game, it starts with none."""
    game = variants.make('tictactoe')
    player = players.load_player('ab-clock')
    player(game, game.initial)
    cold = player.stats['nodes']
    player(game, game.initial)
    assert player.stats['nodes'] < cold  # warm tables answer for the search
    players.load_player('ab-clock')(game, game.initial)
    assert player.stats['nodes'] == cold


def test_a_jail_starts_within_ten_milliseconds_at_each_level():
    """Not a timed test of speed (see players/bench/benchmark_tournament.py): only that a jail is
    forked by a server that already runs, not started afresh."""
    for level in ('process',) + (('bwrap',) if BWRAP_PROBLEM is None else ()):
        with jail.Jail('players.sandbox.jail_server:probe', level) as warm:
            assert warm.receive(30) == {'probe': True}
        server = servers.server(level, ('games',))
        started = time.perf_counter()
        with jail.Jail('players.sandbox.jail_server:probe', level) as probe:
            assert probe.receive(30) == {'probe': True}
        assert servers.server(level, ('games',)) is server
        assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('student', ['forges_its_record.py', 'reaches_for_the_model.py'])
def test_a_student_that_forges_the_record_or_reaches_for_the_models_gets_no_credit(level,
                                                                                  student):
    settings = grading.Settings(functions=('alpha_beta_search',), variants=('tictactoe',),
                                timeout=5, move_timeout=1, sandbox=level)
    with adopting_orphans():
        report = grading.grade(os.path.join(STUDENTS, student), settings)
    assert report.points == 0 and report.results, report.lines()
