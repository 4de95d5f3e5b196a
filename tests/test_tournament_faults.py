"""Hostile players in a tournament: each fault forfeits its own games and nothing else."""

import os
from functools import partial

import pytest

import players
import variants
from games import referee
from games.tournament.match import Rules, play_match
from games.tournament.runner import run
from games.tournament.schedule import schedule
from games.tournament.store import Store
from games.tournament.workers import SandboxExecutor

HOSTILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'hostile_players.py')
TIMEOUT = 0.5


def spec(name):
    return f'{HOSTILE}:{name}'


def tournament(tmp_path, names, variant='nim(piles=(2, 2))', jobs=2):
    """Play a round robin of the named hostile players; return the records."""
    rules = Rules(move_timeout=TIMEOUT)
    job = partial(play_match, rules=rules, make_game=variants.make, load_player=players.load_player)
    store = Store(str(tmp_path / 'games.sqlite'), {'test': True})
    specs = schedule([spec(name) for name in names], [variant], 1, seed=0)
    with SandboxExecutor(jobs, hard_timeout=TIMEOUT + 0.5) as executor:
        run(specs, job, executor, store, in_flight=2 * jobs)
    records = list(store.records())
    store.close()
    return records


@pytest.mark.parametrize('bad, termination, detail', [
    ('raises', referee.ERROR, 'ValueError: boom'),
    ('illegal', referee.ILLEGAL, 'illegal move (99, 99)'),
    ('returns_none', referee.ILLEGAL, 'None'),
    ('sleeps', referee.TIMEOUT, f'no move within {TIMEOUT:g} s'),
    ('stubborn', referee.TIMEOUT, 'worker killed'),
    ('exits', referee.ERROR, 'SystemExit: 3'),
    ('dies', referee.ERROR, 'exited with status 7'),
    ('cheats', referee.ERROR, 'changed the rules: Nim.terminal_test, Nim.utility'),
])
def test_a_fault_forfeits_only_the_faulty_players_games(tmp_path, bad, termination, detail):
    records = tournament(tmp_path, [bad, 'first', 'lucky'])
    assert len(records) == 6
    for record in records:
        if spec(bad) in (record['first'], record['second']):
            assert record['termination'] == termination and detail in record['detail']
            assert record['forfeit'] == spec(bad)
            assert record['score'] == (0 if record['first'] == spec(bad) else 1)
        else:
            assert record['termination'] == referee.NORMAL and record['forfeit'] is None


def test_a_forfeit_on_a_later_move_keeps_the_moves_before_it(tmp_path):
    """The second player dies on its first move, after the first player's move."""
    record = tournament(tmp_path, ['first', 'dies'])[0]
    assert record['first'] == spec('first') and record['moves'] == [[1, 1]]
    assert record['forfeit'] == spec('dies') and record['score'] == 1


def test_junk_on_stdout_is_harmless(tmp_path, capfd):
    records = tournament(tmp_path, ['chatty', 'first'])
    assert all(r['termination'] == referee.NORMAL and r['forfeit'] is None for r in records)
    out, err = capfd.readouterr()
    assert 'junk' not in out and 'junk' not in err


def test_a_player_scribbling_on_its_copies_changes_nothing(tmp_path):
    """The vandal clears its copy of the board and breaks its copy of the game;
    the games go exactly as if both players just played the first legal move."""
    for variant in ('tictactoe', 'nim(piles=(2, 3))'):
        (tmp_path / variant).mkdir()
        vandal = tournament(tmp_path / variant, ['vandal', 'first'], variant)
        game = variants.make(variant)
        expected = referee.play(game, [players.load_player(spec('first'))] * 2).moves
        for record in vandal:
            assert record['termination'] == referee.NORMAL
            assert record['moves'] == [list(move) for move in expected]


def test_nodes_that_players_report_are_totalled(tmp_path):
    record = tournament(tmp_path, ['counts_nodes', 'first'])[0]
    assert record['nodes_first'] == 10 * record['moves_first'] and record['nodes_second'] is None


def test_a_player_keeping_state_in_its_globals_plays_the_same_whatever_the_jobs(tmp_path):
    """A file's globals last one game, so a worker's earlier games change nothing."""
    runs = []
    for jobs in (1, 2):
        (tmp_path / str(jobs)).mkdir()
        runs.append([record['moves'] for record in
                     tournament(tmp_path / str(jobs), ['stateful', 'first', 'lucky'], 'nim', jobs)])
    assert runs[0] == runs[1]


def test_a_game_stored_twice_by_two_runs_on_one_file_is_kept_once(tmp_path):
    """Two runs resuming the same --db at once may both finish a game; the first record stays."""
    (tmp_path / 'played').mkdir()
    record = tournament(tmp_path / 'played', ['first', 'lucky'])[0]
    store = Store(str(tmp_path / 'shared.sqlite'), {'test': True})
    store.add(record)
    store.add({**record, 'score': 1 - record['score']})
    assert list(store.records()) == [record]
    store.close()
