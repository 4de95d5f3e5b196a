"""The grader takes what students hand in: a file, or a folder whose file with the
template's functions imports helper modules and reads data files beside it, graded
in a jail that holds the folder; a class's folder of both; a link is no submission.
What a student hands in is read as hostile, on the grader's side: a Python file too
big to parse is taken as data (a folder's helper.py of `x = [a, a, ...]` would take
the grader 700 bytes of memory a byte), a file over a folder's limit is never read
whole, and an entry of a class's folder named with a ':' is graded as itself, never
as the folder its name would name in a spec."""

import json
import os
import shutil
import subprocess
import sys

import pytest
from jails import LEVELS
from places import ROOT, TESTS

from command_line import run
from players.grading.loading import PARSED_BYTES, PARSED_TOTAL, LoadError, read_submission

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


def test_a_file_too_big_to_parse_is_taken_as_data(tmp_path):
    (tmp_path / 'mine.py').write_text(MINE)
    (tmp_path / 'weights.py').write_text('W = [' + '0.5, ' * (PARSED_BYTES // 5) + ']\n')
    assert read_submission(str(tmp_path)).filename == 'mine.py'  # weights.py: never parsed
    (tmp_path / 'mine.py').rename(tmp_path / 'a.py')
    (tmp_path / 'a.py').write_text('import json\n')
    for number in range(PARSED_TOTAL // (PARSED_BYTES - 5000) + 1):  # past the total
        (tmp_path / f'b{number:02}.py').write_text('#' * (PARSED_BYTES - 5000) + '\n')
    with pytest.raises(LoadError) as raised:
        read_submission(str(tmp_path))
    message = str(raised.value)
    assert '\n' not in message and message.endswith(
        f'(b10.py, weights.py not read for imports and functions: over 100 KB, or past 1 MB '
        f'of Python files; name the entry: {tmp_path}:FILE.py)')


PEAK = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:])
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)
sys.exit(done.returncode)
"""
"""A script that runs a command and prints the peak memory of its biggest process
(and of those it waited for), in MiB, after what the command printed."""
RAISES = 'def alpha_beta_search(state, game):\n    raise ValueError({!r})\n'
"""A student's search that says who it is."""


@pytest.mark.slow
@pytest.mark.parametrize('level', LEVELS)
def test_hostile_entries_of_a_class_cost_the_grader_no_memory_and_no_one_else(tmp_path, level):
    folder = tmp_path / 'class'
    for path in ('alice/player.py', 'alice:player.py', 'alice:player.py:player/player.py',
                 'bomb/player.py', 'huge.py'):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(RAISES.format(f'I am {path}'))
    with open(folder / 'bomb' / 'helper.py', 'w') as file:  # 1.4 GB of syntax tree
        file.write('x = [' + 'a,' * 1_000_000 + ']\n')
    with open(folder / 'huge.py', 'ab') as file:
        file.truncate(1 << 40)  # 1 TB, without a block on disk: never read whole
    grades = tmp_path / 'grades'
    done = subprocess.run([sys.executable, '-c', PEAK, sys.executable, 'tournament.py', 'check',
                           str(folder), '--functions', 'alpha_beta_search', '--variants', 'nim',
                           '--sandbox', level, '--out', str(grades)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 1 and 'Traceback' not in done.stderr, done.stderr
    assert int(done.stdout.split()[-1]) < 400  # MiB: 1.4 GB when helper.py was parsed
    rows = {os.path.relpath(row['file'], folder): row for row in
            json.loads((grades / 'summary.json').read_text())['students']}
    assert rows['huge.py']['status'] == ('cannot load: huge.py holds over 32 MB (allow more '
                                         'with --submission-mb)')
    for path, file in (('alice', 'alice/player.py'), ('alice:player.py', 'alice:player.py'),
                       ('alice:player.py:player', 'alice:player.py:player/player.py'),
                       ('bomb', 'bomb/player.py')):
        report = json.loads((grades / 'reports' / f'{rows[path]["student"]}.json').read_text())
        said = {result['message'].partition(' (')[0] for result in report['checks']}
        assert rows[path]['status'] == 'graded' and f"raised ValueError: I am {file}" in said
