"""Hostile players in a tournament: each loses only its own games, gains nothing
over a player that plays its first legal move, changes no other game, and leaves
no process behind."""

import os
from dataclasses import replace
from functools import partial

import pytest
from places import TESTS
from jails import GENEROUS, VARIANT, outcome, round_robin, round_robins

import players
import variants
from games import referee
from players.remote import player_code
from players.tournaments.tournament import worker_silence
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.runner import run
from players.tournaments.schedule import schedule
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
from players.tournaments.workers import WorkerPool

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(TESTS, 'hostile_players.py')
TIMEOUT = 0.5
"""The move time limit of the runs of a player that hangs, which waits it out."""
OTHERS = ['random', 'ab2']
ROOT = os.geteuid() == 0


def spec(name):
    return f'{HOSTILE}:{name}'


def codes_of(*specs):
    return {name: player_code.read_player(name) for name in specs}


def points(records, name):
    return sum(record.score if record.first == name else 1 - record.score
               for record in records if name in (record.first, record.second))


@pytest.fixture(scope='module')
def games_without_hostiles(tmp_path_factory):
    return [outcome(record)
            for record in round_robin(tmp_path_factory.mktemp('plain'), codes_of(*OTHERS))]


with open(HOSTILE) as _file:
    BOOM_LINE = 1 + [line.strip() for line in _file].index("raise ValueError('boom')")
FORFEITS = {
    'raises': (referee.ERROR, f'ValueError: boom (hostile_players.py, line {BOOM_LINE})'),
    'illegal': (referee.ILLEGAL, 'illegal move (99, 99)'),
    'returns_none': (referee.ILLEGAL, 'returned no move (None)'),
    'sleeps': (referee.TIMEOUT, f'no move within {TIMEOUT:g} s'),
    'stubborn': (referee.TIMEOUT, f'no move within {TIMEOUT:g} s'),
    'exits': (referee.ERROR, 'SystemExit: 3'),
    'dies': (referee.ERROR, 'exited with status 7'),
    'quitter': (referee.ERROR, 'a move must be plain data'),
    'forger': (referee.ERROR, 'not JSON'),
    'flooder': (referee.ERROR, 'over 65536 bytes'),
    'hog': (referee.ERROR, 'MemoryError'),
}
"""Hostile players that forfeit every game, and how."""
HARMLESS = ['chatty', 'vandal', 'cheats', 'lingerer', 'tamperer'] + (['signaller'] if ROOT else [])
"""Hostile players whose attacks reach nothing: they play as the first-move player does.
(A signaller run by another user than root could signal the test itself.)"""


@pytest.mark.parametrize('name', list(FORFEITS) + HARMLESS + ['saboteur'])
def test_a_hostile_player_gains_nothing_and_changes_no_other_game(tmp_path, name,
                                                                  games_without_hostiles):
    hostile = spec(name)
    timeout = TIMEOUT if FORFEITS.get(name, (None,))[0] == referee.TIMEOUT else GENEROUS
    if name in FORFEITS:  # it scores nothing (asserted below): no first-move run to compare with
        [records] = round_robins(tmp_path, [codes_of(hostile, *OTHERS)], timeout=timeout)
    else:  # the first-move player first, on clean workers
        as_first, records = round_robins(tmp_path, [
            {hostile: player_code.read_player(spec('first')), **codes_of(*OTHERS)},
            codes_of(hostile, *OTHERS)], timeout=timeout)
    theirs = [outcome(r) for r in records if hostile not in (r.first, r.second)]
    assert theirs == games_without_hostiles
    if name in FORFEITS:
        assert points(records, hostile) == 0
    else:
        assert points(records, hostile) <= points(as_first, hostile)
    for record in records:
        if hostile not in (record.first, record.second):
            continue
        if name in FORFEITS:
            termination, detail = FORFEITS[name]
            assert record.forfeit == hostile and record.termination == termination
            assert detail in record.detail
        elif name in HARMLESS:
            assert record.termination == referee.NORMAL
    if name in HARMLESS:
        assert [outcome(r) for r in records] == [outcome(r) for r in as_first]
    assert not os.path.exists('/tmp/aima-games-pwned')  # the forger's pickle never ran


def test_nodes_that_players_report_are_totalled(tmp_path):
    record = round_robin(tmp_path, codes_of(spec('counts_nodes'), spec('first')))[0]
    assert record.nodes_first == 10 * record.moves_first and record.nodes_second is None


def test_a_player_keeping_state_in_its_globals_plays_the_same_whatever_the_jobs(tmp_path):
    """Each game starts a fresh process, so a worker's earlier games change nothing."""
    runs = []
    for jobs in (1, 2):
        (tmp_path / str(jobs)).mkdir()
        codes = codes_of(spec('stateful'), spec('first'), spec('lucky'))
        runs.append([record.moves for record in
                     round_robin(tmp_path / str(jobs), codes, 'nim', jobs)])
    assert runs[0] == runs[1]


def test_a_forfeit_on_a_later_move_keeps_the_moves_before_it(tmp_path):
    """The second player dies on its first move, after the first player's move."""
    record = round_robin(tmp_path, codes_of(spec('first'), spec('dies')))[0]
    assert record.first == spec('first') and record.moves == [[1, 1]]
    assert record.forfeit == spec('dies') and record.score == 1


def test_a_game_stored_twice_by_two_runs_on_one_file_is_kept_once(tmp_path):
    """Two runs resuming the same --db at once may both finish a game; the first record stays."""
    (tmp_path / 'played').mkdir()
    record = round_robin(tmp_path / 'played', codes_of(spec('first'), spec('lucky')))[0]
    store = Store(str(tmp_path / 'shared.sqlite'), RunSettings(players=()))
    store.add(record)
    store.add(replace(record, score=1 - record.score))
    assert list(store.records()) == [record]
    store.close()


def dies_the_first_time(spec_, marker, **kwargs):
    """Play a game, unless marker does not exist yet: then make it and end the worker."""
    if not os.path.exists(marker):
        open(marker, 'w').close()
        os._exit(9)
    return play_scheduled_game(spec_, **kwargs)


def test_a_lost_worker_replays_its_game_and_charges_no_one(tmp_path):
    """A worker lost through no player's fault (here: ended by the test during its
    first game) costs no forfeit: the game is played again."""
    codes = codes_of(spec('first'), spec('lucky'))
    job = partial(dies_the_first_time, marker=str(tmp_path / 'died'), rules=Rules(),
                  players=codes, make_game=variants.make, load_player=players.load_player)
    store = Store(str(tmp_path / 'games.sqlite'), RunSettings(players=()))
    with WorkerPool(1, hard_timeout=30) as executor:
        run(schedule(list(codes), [VARIANT], 1, seed=0), job, executor, store, in_flight=1)
    records = list(store.records())
    assert len(records) == 2 and all(r.termination == referee.NORMAL for r in records)


def test_rules_without_a_move_limit_leave_the_workers_without_a_silence_limit():
    assert worker_silence(Rules(move_timeout=None)) is None
    rules = Rules(move_timeout=1.5)
    assert worker_silence(rules) == 2 * rules.load_seconds() + 1.5 + 5
