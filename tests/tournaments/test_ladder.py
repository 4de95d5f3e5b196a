"""The ladder: the same tournament run again on its --db plays only the games of
players that are new or whose code changed, and its tables are a full run's."""

import json
import os
import sqlite3

import pytest
from places import TESTS

import tournament

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(TESTS, 'hostile_players.py')
OPTIONS = ['--variants', 'simple-nim', 'nim(piles=(2, 3))', '--openings', '1', '--jobs', '2',
           '--move-timeout', '5', '--sandbox', 'process']
LUCKY = 'import random\n\ndef player(game, state):\n    return random.choice(game.actions(state))\n'
FIRST = 'def player(game, state):\n    return game.actions(state)[0]\n'
LAST = 'def player(game, state):\n    return game.actions(state)[-1]\n'
RAISES = 'def player(game, state):\n    raise ValueError("boom")\n'


def run(folder, db, out, capsys):
    """Run the tournament of every file in folder, and ab1, on db; return its JSON
    (without timings) and the lines of its report that do not time anything."""
    files = ','.join(str(path) for path in sorted(folder.iterdir()))
    assert tournament.main(['--players', f'{files},ab1', *OPTIONS, '--db', str(db),
                            '--json', str(out)]) == 0
    data = json.loads(out.read_text())
    for game in data['games']:
        for key in ('time_first', 'time_second', 'nodes_first', 'nodes_second'):
            del game[key]
    printed = capsys.readouterr().out
    return data, printed[printed.index('Score % by variant'):]


def without_index(games):
    """The games without their place in the schedule, in their order."""
    return [{key: value for key, value in game.items() if key != 'index'} for game in games]


@pytest.fixture
def class_folder(tmp_path):
    """A folder of two students' files."""
    folder = tmp_path / 'submissions'
    folder.mkdir()
    for name, source in (('alice', LUCKY), ('bob', FIRST)):
        (folder / f'{name}.py').write_text(source)
    return folder


def test_each_run_plays_exactly_the_new_games_and_ends_as_a_full_run(tmp_path, class_folder,
                                                                    capsys):
    db = tmp_path / 'class.sqlite'
    # 3 players: 3 pairings x 2 variants x 2 games
    first, _ = run(class_folder, db, tmp_path / '1.json', capsys)
    assert (first['played'], first['reused']) == (12, 0)
    (class_folder / 'dave.py').write_text(RAISES)  # a third student, hostile
    second, _ = run(class_folder, db, tmp_path / '2.json', capsys)
    assert (second['played'], second['reused']) == (12, 12)  # dave's 3 pairings
    # every earlier game is kept as it was, renumbered in the new schedule
    assert without_index(g for g in second['games'] if 'dave' not in (g['first'], g['second'])) \
        == without_index(first['games'])
    assert all(g['forfeit'] == 'dave' for g in second['games'] if 'dave' in (g['first'],
                                                                              g['second']))
    (class_folder / 'bob.py').write_text(LAST)  # bob changes his file
    third, printed = run(class_folder, db, tmp_path / '3.json', capsys)
    assert (third['played'], third['reused']) == (12, 12)  # bob's 3 pairings again
    assert without_index(g for g in third['games'] if 'bob' not in (g['first'], g['second'])) \
        == without_index(g for g in second['games'] if 'bob' not in (g['first'], g['second']))

    full, full_printed = run(class_folder, tmp_path / 'full.sqlite', tmp_path / 'full.json',
                             capsys)
    assert (full['played'], full['reused']) == (24, 0)
    assert full['games'] == third['games'] and full['standings'] == third['standings']
    assert full_printed == printed


def test_a_removed_file_drops_out_and_a_rerun_plays_nothing(tmp_path, class_folder, capsys):
    db = tmp_path / 'class.sqlite'
    run(class_folder, db, tmp_path / '1.json', capsys)
    again, _ = run(class_folder, db, tmp_path / '2.json', capsys)
    assert (again['played'], again['reused']) == (0, 12)
    (class_folder / 'bob.py').unlink()
    without, printed = run(class_folder, db, tmp_path / '3.json', capsys)
    assert (without['played'], without['reused']) == (0, 4)
    assert 'bob' not in printed and without['settings']['players'] == ['alice', 'ab1']
    with sqlite3.connect(db) as connection:
        assert connection.execute('SELECT COUNT(*) FROM games').fetchone()[0] == 4


def test_settings_of_every_game_still_need_a_new_db(tmp_path, class_folder, capsys):
    db = tmp_path / 'class.sqlite'
    run(class_folder, db, tmp_path / '1.json', capsys)
    files = ','.join(str(path) for path in sorted(class_folder.iterdir()))
    for change, key in ((['--seed', '3'], 'seed'), (['--games', '2'], 'games'),
                        (['--move-timeout', '4'], 'move_timeout')):
        with pytest.raises(SystemExit) as stop:
            tournament.main(['--players', files, *OPTIONS, *change, '--db', str(db)])
        error = capsys.readouterr().err
        assert stop.value.code == 2 and 'holds a different tournament' in error
        assert f'its {key} is' in error and error.count('\n') == 1
