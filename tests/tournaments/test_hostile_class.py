"""What a class's hostile files found in the trusted side, each of which stopped a
whole run before: a message with a lone surrogate (no character, so it cannot be
stored), a node count too big to store, a submission folder nested two thousand
deep, a file whose name is not in UTF-8, and two students whose names clash in
the grader's reports. Each now costs its own student alone."""

import contextlib
import csv
import json
import os
import subprocess
import sys

import pytest
from jails import LEVELS
from places import ROOT

import command_line
from players.grading import batch
from players.remote import player_code

pytestmark = pytest.mark.slow

HONEST = 'def player(game, state):\n    return game.actions(state)[0]\n'
HOSTILE = {
    'surrogate': "def player(game, state):\n    raise ValueError('lone \\ud800 surrogate')\n",
    'surrogate_at_import': "raise ValueError('at import \\ud800')\n",
    'huge_stats': ("def player(game, state):\n    player.stats = {'nodes': 2 ** 63}\n"
                   "    return game.actions(state)[0]\n"),
}
"""Files whose words, or counts, the trusted side could not store."""
FAST = ['--variants', 'simple-nim', '--move-timeout', '5', '--jobs', '1']


def run(*args):
    """Run the command line in this process from the project's folder."""
    with contextlib.chdir(ROOT):
        return command_line.run(*args)


@contextlib.contextmanager
def deep_folder(top, depth=1200):
    """Make top a submission folder whose player is honest, with folders nested depth
    deep in it (deeper than Python's stack allows a walk to recurse), for the block;
    then remove them from the inside out (pytest's own clean-up would recurse)."""
    os.makedirs(top)
    (top / 'player.py').write_text(HONEST)
    folders = [str(top)]
    for _ in range(depth):
        folders.append(os.path.join(folders[-1], 'd'))
        os.mkdir(folders[-1])
    try:
        yield
    finally:
        for folder in reversed(folders[1:]):
            os.rmdir(folder)


@pytest.mark.parametrize('level', LEVELS)
def test_words_and_counts_no_record_can_hold_cost_their_player_alone(tmp_path, level):
    for name, text in HOSTILE.items():
        (tmp_path / f'{name}.py').write_text(text)
    players = ','.join([*(str(tmp_path / f'{name}.py') for name in HOSTILE), 'random'])
    db, out = str(tmp_path / 'run.sqlite'), tmp_path / 'run.json'
    ran = run('--players', players, *FAST, '--sandbox', level, '--db', db, '--json', str(out))
    assert ran.returncode == 0, ran.stderr
    games = json.loads(out.read_text())['games']
    assert len(games) == 12
    forfeits = {game['forfeit']: game['detail'] for game in games if game['forfeit']}
    assert set(forfeits) == {'surrogate', 'surrogate_at_import'}
    assert 'lone \\ud800 surrogate' in forfeits['surrogate']
    assert 'at import \\ud800' in forfeits['surrogate_at_import']
    assert run('--players', players, *FAST, '--sandbox', level, '--db', db,
               '--resume').returncode == 0


def test_a_folder_nested_too_deep_cannot_play_and_the_others_do(tmp_path):
    with deep_folder(tmp_path / 'class' / 'deep'):
        (tmp_path / 'class' / 'honest.py').write_text(HONEST)
        with pytest.raises(player_code.SubmissionError, match='deep nests folders more than 32'):
            player_code.read_folder(str(tmp_path / 'class' / 'deep'))
        ran = run('--submissions', str(tmp_path / 'class'), '--players', 'random', *FAST,
                  '--sandbox', 'process')
    assert ran.returncode == 0, ran.stderr
    assert 'deep: cannot play: deep nests folders more than 32 deep' in ran.stdout


def test_a_name_not_in_utf8_is_left_out_of_a_run_and_graded_by_its_escape(tmp_path):
    folder = tmp_path / 'class'
    folder.mkdir()
    with open(os.path.join(os.fsencode(folder), b'bad\xffname.py'), 'w') as file:
        file.write(HONEST)
    (folder / 'honest.py').write_text(HONEST)
    ran = run('--submissions', str(folder), '--players', 'random', *FAST, '--sandbox', 'process')
    assert ran.returncode == 0, ran.stderr
    assert "left out '" in ran.stderr and "bad\\xffname.py', whose name is not in UTF-8" \
        in ran.stderr
    assert 'Players: random, honest\n' in ran.stdout
    graded = run('check', str(folder), '--functions', 'player', '--variants', 'nim',
                 '--jobs', '2', '--out', str(tmp_path / 'grades'), '--sandbox', 'process')
    with open(tmp_path / 'grades' / 'summary.csv', encoding='utf-8') as file:
        students = [row['student'] for row in csv.DictReader(file)]
    assert students == ['bad\\xffname', 'honest'], graded.stderr
    assert sorted(os.listdir(tmp_path / 'grades' / 'reports')) == [
        'bad\\xffname.json', 'bad\\xffname.txt', 'honest.json', 'honest.txt']


def test_students_whose_names_clash_get_a_report_each(tmp_path):
    folder = tmp_path / 'subs'
    (folder / 'alice').mkdir(parents=True)
    (folder / 'alice' / 'player.py').write_text(HONEST)
    (folder / 'alice.py').write_text('def player(game, state):\n    return None\n')
    graded = run('check', str(folder), '--functions', 'player', '--variants', 'nim',
                 '--jobs', '2', '--out', str(tmp_path / 'grades'), '--sandbox', 'process')
    with open(tmp_path / 'grades' / 'summary.csv', encoding='utf-8') as file:
        rows = {row['student']: row for row in csv.DictReader(file)}
    assert set(rows) == {'subs-alice', 'subs-alice-2'}, graded.stderr
    assert rows['subs-alice']['total'] != rows['subs-alice-2']['total']
    assert len(os.listdir(tmp_path / 'grades' / 'reports')) == 4


def test_python_m_tournament_in_a_class_folder_imports_no_students_module(tmp_path):
    (tmp_path / 'copy.py').write_text(f"open({str(tmp_path / 'ran')!r}, 'w').close()\n"
                                      "raise SystemExit('a student ran as the tournament')\n")
    ran = subprocess.run([sys.executable, '-m', 'tournament', 'list'], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and not (tmp_path / 'ran').exists(), ran.stderr


def test_a_name_a_student_chose_is_never_given_to_another(tmp_path):
    folder = tmp_path / 'subs'
    (folder / 'bob').mkdir(parents=True)
    (folder / 'bob' / 'player.py').write_text(HONEST)
    (folder / 'bob.py').write_text(HONEST)
    (folder / 'subs-bob.py').write_text('def player(game, state):\n    return None\n')
    names = batch.student_names(batch.collect([str(folder)]))
    assert names[str(folder / 'subs-bob.py')] == 'subs-bob'
    assert {names[str(folder / 'bob')], names[str(folder / 'bob.py')]} == {'subs-bob-2',
                                                                         'subs-bob-3'}
