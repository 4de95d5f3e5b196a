"""The grader takes what students hand in: a file, or a folder whose file with the
template's functions imports helper modules and reads data files beside it, graded
in a jail that holds the folder; a class's folder of both; a link is no submission."""

import json
import os
import shutil

import pytest
from places import TESTS

from command_line import run
from players.grading.loading import LoadError, read_submission

SEARCH = os.path.join(TESTS, 'students', 'cutoff_correct.py')
MINE = '''import json
import os

from searches import alpha_beta_cutoff_search  # noqa: F401  (graded as this file's)

with open(os.path.join(os.path.dirname(__file__), 'depth.json')) as file:
    DEPTH = json.load(file)


def player(game, state):
    return alpha_beta_cutoff_search(state, game, d=DEPTH)
'''
"""A student's file that takes its search from a module beside it and its depth from a
data file beside it."""
OPTIONS = ['--functions', 'alpha_beta_cutoff_search,player', '--variants', 'nim',
           '--sandbox', 'process']


@pytest.fixture(scope='module')
def class_folder(tmp_path_factory):
    """A class: alice's file (the search alone), carol's folder (the search in a helper
    module, her player in mine.py, its depth in depth.json) and eve, a link to carol."""
    folder = tmp_path_factory.mktemp('class')
    shutil.copy(SEARCH, folder / 'alice.py')
    (folder / 'carol').mkdir()
    shutil.copy(SEARCH, folder / 'carol' / 'searches.py')
    (folder / 'carol' / 'mine.py').write_text(MINE)
    (folder / 'carol' / 'depth.json').write_text('1')
    os.symlink('carol', folder / 'eve')
    return folder


def test_a_class_of_files_and_folders_is_graded_a_line_each(class_folder, tmp_path):
    done = run('check', str(class_folder), *OPTIONS, '--out', str(tmp_path))
    assert done.returncode == 1, done.stderr  # not everything passes
    rows = {row['student']: row for row in
            json.loads((tmp_path / 'summary.json').read_text())['students']}
    assert set(rows) == {'alice', 'carol', 'eve'}
    alice, carol, eve = rows['alice'], rows['carol'], rows['eve']
    assert carol['alpha_beta_cutoff_search'] == alice['alpha_beta_cutoff_search'] > 0
    assert carol['player'] > 0 == alice['player']  # carol's player played; alice has none
    assert eve['total'] == 0 and eve['status'].startswith('cannot load: eve is a link')
    assert all(f'{name}: ' in done.stdout for name in rows)  # a line each as it is graded


def test_one_folder_is_graded_with_its_helper_module_and_data_file(class_folder):
    done = run('check', f'{class_folder}/carol:', *OPTIONS)
    named = run('check', f'{class_folder}/carol:mine.py', *OPTIONS)
    assert done.stdout.splitlines()[-1] == named.stdout.splitlines()[-1]
    failed = [line for line in done.stdout.splitlines() if line.startswith('FAIL')]
    assert all('player: gauntlet' in line for line in failed), failed  # d=1 may lose
    assert 'PASS 2/2 player: legal moves' in done.stdout


def test_the_entry_is_the_file_no_other_imports(tmp_path):
    shutil.copy(SEARCH, tmp_path / 'searches.py')
    (tmp_path / 'mine.py').write_text(MINE)
    assert read_submission(str(tmp_path)).filename == 'mine.py'
    (tmp_path / 'mine.py').unlink()
    shutil.copy(SEARCH, tmp_path / 'other.py')
    with pytest.raises(LoadError, match='name it player.py; found other.py, searches.py'):
        read_submission(str(tmp_path))
    (tmp_path / 'player.py').write_text(MINE)
    assert read_submission(str(tmp_path)).filename == 'player.py'
