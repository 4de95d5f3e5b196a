"""Grading a whole class from the command line: a folder of files in parallel, one
summary (CSV and JSON) and each student's report; Gradescope's results format and
an autograder bundle run against a fake autograder folder; instructors' own cases;
positions named in messages that `tree --position` accepts."""

import contextlib
import csv
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest
from places import ROOT

import variants
from players.grading import treedraw
from players.grading import CaseError, load_cases
import command_line

pytestmark = pytest.mark.slow

STUDENTS = os.path.join(ROOT, 'tests', 'students')
FAST = ['--timeout', '1', '--move-timeout', '1', '--sandbox', 'process']


def run(*args):
    """Run the command line with args in this process, from the project's folder as
    python tournament.py would run there; return what it did."""
    with contextlib.chdir(ROOT):
        return command_line.run(*args)


def test_one_file(tmp_path):
    report = tmp_path / 'report.json'
    result = run('check', os.path.join(STUDENTS, 'only_alpha_beta.py'), '--functions',
                 'alpha_beta_search', '--variants', 'nim', '--json', str(report), *FAST)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.replace('\n  ', ' ').splitlines()  # wrapped lines joined
    assert lines[0].startswith('Grading ') and '1 s for each move of the player' in lines[0]
    assert lines[-1] == 'Total: 5/5 points, 5 of 5 checks passed'
    data = json.loads(report.read_text())
    assert data['passed'] and data['by_function'] == {'alpha_beta_search': 5}


def test_a_class_folder(tmp_path):
    """Three students, one of whom cannot be loaded: a row and a report each."""
    folder = tmp_path / 'class'
    folder.mkdir()
    for name in ('eager_children.py', 'keyerror.py'):
        shutil.copy(os.path.join(STUDENTS, name), folder / name)
    (folder / 'broken.py').write_text('def minmax_decision(state, game:\n')
    out = tmp_path / 'grades'
    result = run('check', str(folder), '--jobs', '2', '--out', str(out),
                 '--functions', 'minmax_decision,alpha_beta_search', '--variants', 'nim', *FAST)
    assert result.returncode == 1, result.stderr
    assert 'broken: 0/10, cannot load: SyntaxError' in result.stdout
    with open(out / 'summary.csv') as file:
        rows = {row['student']: row for row in csv.DictReader(file)}
    assert set(rows) == {'broken', 'eager_children', 'keyerror'}
    assert rows['eager_children']['total'] == rows['eager_children']['max'] == '10'
    assert rows['eager_children']['minmax_decision'] == '5'
    assert rows['keyerror']['total'] == '0' and rows['keyerror']['status'] == 'graded'
    assert rows['broken']['max'] == '10' and rows['broken']['status'].startswith('cannot load')
    summary = json.loads((out / 'summary.json').read_text())
    assert [row['student'] for row in summary['students']] == ['broken', 'eager_children',
                                                              'keyerror']
    report = (out / 'reports' / 'keyerror.txt').read_text()
    assert "raised KeyError: 'MIN' (keyerror.py, line 9, in min_value)" in report
    assert json.loads((out / 'reports' / 'broken.json').read_text())['load_error']


def test_gradescope_results(tmp_path):
    cases = tmp_path / 'cases.json'
    cases.write_text(json.dumps({'cases': [
        {'name': 'secret', 'tree': {'A': ['B', 'C'], 'B': ['B1', 'B2'], 'C': ['C1']},
         'utilities': {'B1': 1, 'B2': 2, 'C1': 0}, 'visibility': 'hidden',
         'functions': ['alpha_beta_search']}]}))
    results, report = tmp_path / 'results.json', tmp_path / 'report.json'
    result = run('check', os.path.join(STUDENTS, 'only_alpha_beta.py'), '--gradescope',
                 str(results), '--json', str(report), '--cases', str(cases), '--variants',
                 'nim', *FAST)
    assert result.returncode == 1, result.stderr
    data = json.loads(results.read_text())
    assert json.loads(report.read_text())['points'] == data['score']
    assert data['score'] == sum(test['score'] for test in data['tests']) == 6
    assert {'execution_time', 'output', 'visibility', 'stdout_visibility', 'leaderboard'} <= set(data)
    secret = [test for test in data['tests'] if test['name'] == 'alpha_beta_search on secret']
    assert secret == [{'name': 'alpha_beta_search on secret', 'number': '2.6', 'score': 1,
                       'max_score': 1, 'status': 'passed', 'output': secret[0]['output'],
                       'tags': ['alpha_beta_search'], 'visibility': 'hidden'}]
    missing = [test for test in data['tests'] if test['tags'] == ['player']]
    assert missing and all(test['status'] == 'failed' and test['score'] == 0 for test in missing)
    assert 'Not defined: minmax_decision, alpha_beta_cutoff_search, player' in data['output']
    assert data['leaderboard'][0] == {'name': 'Points', 'value': 6, 'order': 'desc'}


def test_gradescope_bundle_runs_against_a_fake_autograder(tmp_path):
    bundle = tmp_path / 'autograder.zip'
    made = run('gradescope-bundle', str(bundle), '--functions', 'minmax_decision',
               '--variants', 'nim', '--timeout', '2', '--sandbox', 'process')
    assert made.returncode == 0, made.stderr
    root = tmp_path / 'autograder'
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        assert {'setup.sh', 'run_autograder', 'project/tournament.py',
                'project/players/textbook.py', 'project/setup.cfg', 'project/pyproject.toml',
                'project/players/search/_connect4.c'} <= set(names)
        assert not [name for name in names if name.endswith(('.so', '.pyc'))]  # built there
        archive.extractall(root / 'source')
    (root / 'submission').mkdir()
    shutil.copy(os.path.join(STUDENTS, 'eager_children.py'), root / 'submission' / 'mine.py')
    script = root / 'source' / 'run_autograder'
    script.chmod(0o755)
    env = dict(os.environ, AUTOGRADER_ROOT=str(root),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ['PATH'])
    done = subprocess.run(['bash', str(script)], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    data = json.loads((root / 'results' / 'results.json').read_text())
    assert data['score'] == 5 and len(data['tests']) == 5
    assert all(test['status'] == 'passed' for test in data['tests'])
    (root / 'submission' / 'helper.py').write_text('x = 1\n')  # a module beside it: graded
    subprocess.run(['bash', str(script)], capture_output=True, env=env, timeout=120, check=True)
    assert json.loads((root / 'results' / 'results.json').read_text())['score'] == 5
    shutil.copy(os.path.join(STUDENTS, 'eager_children.py'), root / 'submission' / 'other.py')
    subprocess.run(['bash', str(script)], capture_output=True, env=env, timeout=120, check=True)
    data = json.loads((root / 'results' / 'results.json').read_text())
    assert data['score'] == 0 and 'found helper.py, mine.py, other.py' in data['output']


def test_case_files_are_checked(tmp_path):
    path = tmp_path / 'cases.json'
    path.write_text(json.dumps({'cases': [
        {'name': 'endgame', 'variant': 'tictactoe', 'position': '2 2; 1 1; 1 3; 3 1; 2 1',
         'visibility': 'after_published'},
        {'name': 'piles', 'variant': 'nim', 'position': 'P2: 1 2', 'd': [0, 1]}]}))
    cases = load_cases(str(path))
    assert [(case.name, case.function) for case in cases] == [
        ('endgame', 'minmax_decision'), ('endgame', 'alpha_beta_search'),
        ('piles (d=0)', 'alpha_beta_cutoff_search'), ('piles (d=1)', 'alpha_beta_cutoff_search')]
    assert cases[0].visibility == 'after_published' and cases[2].state.to_move == 'P2'
    for entry, error in (({'name': 'x', 'tree': {'A': ['B']}, 'utilities': {}}, 'leaves'),
                         ({'name': 'x', 'variant': 'nim', 'positon': '1'}, "unknown key 'positon'"),
                         ({'name': 'x', 'variant': 'nim', 'visibility': 'secret'}, 'visibility'),
                         ({'name': 'x', 'variant': 'tictactoe'}, 'more than 3000 states')):
        path.write_text(json.dumps({'cases': [entry]}))
        with pytest.raises(CaseError, match=error):
            load_cases(str(path))
    result = run('check', 'players/grading/template.py', '--cases', str(path))
    assert result.returncode == 2 and 'more than 3000 states' in result.stderr


@pytest.mark.parametrize('args, error', [
    (['check', 'no/such.py'], "no such file or folder 'no/such.py'"),
    (['check', 'players/grading/template.py', '--json', 'no/such/dir/r.json'], 'no such folder'),
    (['check', 'players/grading/template.py', '--functions', 'minimax'], "unknown function 'minimax'"),
    (['check', 'players/grading/template.py', '--variants', 'chess'], 'unknown variant'),
    (['check', 'tests/students', '--json', 'r.json'], '--json is for one file'),
    (['check', 'players/grading/template.py', '--gradescope', 'r.json', '--out', 'o'],
     '--out is for a class'),
    (['check', 'players/grading/template.py', '--cases', 'no/cases.json'], 'cannot read the case file'),
])
def test_check_usage_errors(args, error):
    result = run(*args)
    assert result.returncode == 2 and error in result.stderr and not result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_named_positions_are_what_tree_takes():
    """A position check names ('P2: 1 2 2', a tic-tac-toe state by its moves) is read
    back by tree --position as the same state, and tree's title names its root."""
    nim = variants.make('misere-nim')
    state = treedraw.start_position(nim, 'P2: 1 2 2')
    assert state.board == (1, 2, 2) and state.to_move == 'P2'
    assert treedraw.start_position(nim, 'P2:1,2,2') == state
    ttt = variants.make('tictactoe')
    assert dict(treedraw.start_position(ttt, '3 1; 3 2; 2 3').board) == {
        (3, 1): 'X', (3, 2): 'O', (2, 3): 'X'}
    result = run('tree', 'misere-nim', '--position', 'P2: 1 2 2', '--algorithm', 'minimax')
    assert result.returncode == 0 and 'from P2: 1 2 2: minimax to the end' in result.stdout
