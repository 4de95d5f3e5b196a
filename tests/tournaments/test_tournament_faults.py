"""Hostile players in a tournament: each loses only its own games, gains nothing
over a player that plays its first legal move, changes no other game, and leaves
no process behind."""

import os
from dataclasses import replace
from functools import partial

import pytest
from places import TESTS
from jails import GENEROUS, VARIANT, adopting_orphans, outcome, round_robin

import players
import variants
from games import referee
from players.remote import player_code
from players.remote.jailed_player import LOAD_SECONDS
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
"""The move time limit of the games of a player that hangs, which waits it out."""
OTHERS = ['random', 'ab2']
ROOT = os.geteuid() == 0


def spec(name):
    return f'{HOSTILE}:{name}'


def codes_of(*specs):
    return {name: player_code.read_player(name) for name in specs}


def points(records, name):
    return sum(record.score if record.first == name else 1 - record.score
               for record in records if name in (record.first, record.second))


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
HANGS = {spec(name) for name, (termination, _) in FORFEITS.items()
         if termination == referee.TIMEOUT}
"""The hostile players that wait a move's time limit out: their games have TIMEOUT."""
HOSTILES = list(FORFEITS) + HARMLESS + ['saboteur']
"""Every hostile player of the one run that they all play in."""
AS_FIRST = HARMLESS + ['saboteur']
"""The hostile players whose games are compared with those of the first-move player."""


def gauntlets(names, others=OTHERS):
    """The games of each of names (specs) against each of others, with the seeds of
    a round robin of it and others, then the games of others between themselves;
    numbered in order."""
    games = [game for name in names
             for game in schedule([name, *others], [VARIANT], 1, seed=0, gauntlet=name)]
    games += schedule(others, [VARIANT], 1, seed=0)
    return [replace(game, index=index) for index, game in enumerate(games)]


def play_within_limit(game, rules, **kwargs):
    """Play a scheduled game by rules, each move within TIMEOUT if a player of HANGS
    plays in it (it waits that out), else within rules' own limit."""
    if {game.first, game.second} & HANGS:
        rules = replace(rules, move_timeout=TIMEOUT)
    return play_scheduled_game(game, rules=rules, **kwargs)


@pytest.fixture(scope='module')
def runs(tmp_path_factory):
    """Four runs, one after the other on the same two workers, with their processes
    adopted (none may outlive them): plain, OTHERS alone; as_first, the gauntlets
    of AS_FIRST, each of them playing the first-move player's code; hostile, every
    hostile player's gauntlet; small, first against counts_nodes and dies.
    Returns each run's records by index, by the run's name."""
    folder = tmp_path_factory.mktemp('faults')
    first = player_code.read_player(spec('first'))
    small = [spec('counts_nodes'), spec('dies')]
    plans = {'plain': (codes_of(*OTHERS), gauntlets([])),
             'as_first': ({**{spec(name): first for name in AS_FIRST}, **codes_of(*OTHERS)},
                          gauntlets(map(spec, AS_FIRST))),
             'hostile': (codes_of(*map(spec, HOSTILES), *OTHERS), gauntlets(map(spec, HOSTILES))),
             'small': (codes_of(spec('first'), *small), gauntlets([spec('first')], small))}
    rules = Rules(move_timeout=GENEROUS, sandbox='process')
    found = {}
    with adopting_orphans():
        with WorkerPool(2, hard_timeout=2 * LOAD_SECONDS + GENEROUS + 5) as executor:
            for name, (codes, games) in plans.items():
                job = partial(play_within_limit, rules=rules, players=codes,
                              make_game=variants.make, load_player=players.load_player)
                store = Store(str(folder / f'{name}.sqlite'), RunSettings(players=()))
                run(games, job, executor, store, in_flight=4)
                found[name] = {record.index: record for record in store.records()}
                store.close()
                assert sorted(found[name]) == list(range(len(games))), name
    return found


def games_of(records, name):
    """The records of the games that name plays in."""
    return [record for record in records.values() if name in (record.first, record.second)]


def game_of(records, first, second):
    """The record of the game of first (in the first seat) against second."""
    [record] = [r for r in records.values() if (r.first, r.second) == (first, second)]
    return record


@pytest.mark.parametrize('name', HOSTILES)
def test_a_hostile_player_gains_nothing_and_changes_no_other_game(runs, name):
    """Every hostile player plays in one run: each checks its own games, and that
    the games of OTHERS between themselves are those of a run without hostiles."""
    plain, as_first, hostile = runs['plain'], runs['as_first'], runs['hostile']
    theirs = [outcome(r) for r in hostile.values() if not {r.first, r.second} - set(OTHERS)]
    assert theirs == [outcome(r) for r in plain.values()], name
    records = games_of(hostile, spec(name))
    assert len(records) == 2 * len(OTHERS), name
    if name in FORFEITS:
        assert points(records, spec(name)) == 0, name
    else:
        assert points(records, spec(name)) <= points(as_first.values(), spec(name)), name
    for record in records:
        if name in FORFEITS:
            termination, detail = FORFEITS[name]
            assert record.forfeit == spec(name) and record.termination == termination, name
            assert detail in record.detail, name
        elif name in HARMLESS:
            assert record.termination == referee.NORMAL, name
    if name in HARMLESS:
        assert [outcome(r) for r in records] == [
            outcome(r) for r in games_of(as_first, spec(name))], name
    assert not os.path.exists('/tmp/aima-games-pwned')  # the forger's pickle never ran


def test_nodes_that_players_report_are_totalled(runs):
    record = game_of(runs['small'], spec('counts_nodes'), spec('first'))
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


def test_a_forfeit_on_a_later_move_keeps_the_moves_before_it(runs):
    """The second player dies on its first move, after the first player's move."""
    record = game_of(runs['small'], spec('first'), spec('dies'))
    assert record.moves == [[1, 1]]
    assert record.forfeit == spec('dies') and record.score == 1


def test_a_game_stored_twice_by_two_runs_on_one_file_is_kept_once(runs, tmp_path):
    """Two runs resuming the same --db at once may both finish a game; the first record stays."""
    record = runs['plain'][0]
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
