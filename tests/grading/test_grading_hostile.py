"""Students' files that attack the grader itself: a jail that ends between two
requests, a forged answer whose move nests 700 lists deep, a forged to_move label
5,000 lists deep, a forged answer to loading the file, a jail gone before its
player's first game and a player that answers twice. Each fails its own checks
with the reason, at each jail level, and the grader goes on: the report,
Gradescope's results and a class's grades are written, and an honest student's
grade beside the attackers (all those graded with the same options, in one class) is
what it is alone; a classmate whose file's name is too long for its report still
gets one."""

import json
import os
import re

import pytest
from jails import LEVELS
from places import ROOT

from command_line import run

pytestmark = pytest.mark.slow

EXITS = '''
import json
import os

calls = []


def alpha_beta_search(state, game):
    """Answers its second search itself, then closes the grader's requests and exits."""
    calls.append(state)
    move = game.actions(state)[0]
    if len(calls) == 2:
        os.close(3)
        done = {'type': 'search_done', 'move': move, 'error': None, 'not_implemented': False,
                'stopped': False, 'reference': None}
        os.write(4, (json.dumps(done) + '\\n').encode())
        os._exit(0)
    return move
'''

DEEP_MOVE = '''
import json
import os
import time


def alpha_beta_search(state, game):
    """Writes the grader an answer of its own, a move nested 700 lists deep."""
    move = 0
    for _ in range(700):
        move = [move]
    done = {'type': 'search_done', 'move': move, 'error': None, 'not_implemented': False,
            'stopped': False, 'reference': None}
    os.write(4, (json.dumps(done) + '\\n').encode())
    time.sleep(60)
'''

DEEP_LABEL = '''
import json
import os
import sys


class GameOfNim:
    """Answers the grader's questions about it itself, each request as it comes: at
    every position, to_move names a player whose label is 5,000 lists deep, and that
    player's utility."""

    initial = None

    def __init__(self, **options):
        pass

    def to_move(self, state):
        frame = sys._getframe()
        while 'request' not in frame.f_locals:
            frame = frame.f_back
        request = frame.f_locals['request']
        while 'channel' not in frame.f_locals:
            frame = frame.f_back
        label = '[' * 5000 + ']' * 5000
        while True:
            asked = request['positions'] if isinstance(request, dict) else request.positions
            lines = [{'type': 'said', 'positions': [{'to_move': label, 'utilities': [[label, 1]]}],
                      'reference': None} for _ in asked]
            lines.append({'type': 'rules_done', 'error': None, 'reference': None})
            os.write(4, ''.join(json.dumps(line) + '\\n' for line in lines).encode())
            request = frame.f_locals['channel'].receive()
'''

GONE = '''
import os

os.close(3)  # the grader's requests: its jail ends as soon as it has loaded


def player(game, state):
    return game.actions(state)[0]
'''

TWICE = '''
import json
import os


def player(game, state):
    """Answers each request for a move twice: first itself, then as a player does."""
    move = game.actions(state)[0]
    os.write(4, (json.dumps(ANSWER) + '\\n').encode())
    return move
'''

FORGED_LOAD = '''
import os

# the grader's answer to loading it, of the wrong shape
os.write(4, b'{"type": "loaded", "defined": 5, "reference": null}\\n')


def alpha_beta_search(state, game):
    return game.actions(state)[0]
'''

SENDS = """
import json
import os
import time


def alpha_beta_search(state, game):
    \"\"\"Writes the grader an answer of its own to its search, then waits.\"\"\"
    os.write(4, (json.dumps(MESSAGE) + '\\n').encode())
    time.sleep(60)


class GameOfNim:
    \"\"\"Writes the grader an answer of its own as it is made, then waits.\"\"\"

    def __init__(self, **options):
        alpha_beta_search(None, None)
"""
"""A student's file whose search, or Game class, writes MESSAGE to the grader's pipe."""
DONE = {'type': 'search_done', 'move': 1, 'error': None, 'not_implemented': False,
        'stopped': False, 'reference': None}
"""A finished answer to a search, of the right shape."""
MESSAGES = {
    'wrong kind': {'type': 'loaded', 'defined': [], 'reference': None},
    'missing field': {'type': 'search_done', 'move': 1},
    'wrongly typed field': {**DONE, 'not_implemented': 'yes'},
    'extra field': {**DONE, 'passed': True},
    'unknown kind': {'type': 'verdict', 'passed': True},
    'wrongly typed perft': {'type': 'perft_done', 'perft': ['4', 9], 'error': None,
                            'reference': None},
}
"""The messages of the wrong kind or shape a student's file writes (see SENDS)."""
SEARCH = ['--functions', 'alpha_beta_search', '--variants', 'nim']
GAME = ['--game', 'GameOfNim(piles=(3, 1))', '--reference', 'nim(piles=(3, 1))']
ONE_PILE = ['--functions', 'player', '--variants', 'nim(piles=(20,))']
"""Where the player to move takes the pile, and games can end before a player's first move."""
GARBLED = 'the process ended without an answer (the jail sent '
ATTACKS = {
    'exits between requests': (EXITS, SEARCH, 'alpha_beta_search on deep-pruning',
                               'the process ended without an answer (its process exited '
                               'with status 0); does the code call os._exit'),
    'forged move 700 deep': (DEEP_MOVE, SEARCH, 'alpha_beta_search on fig52',
                             'the process ended without an answer (sent a message nested '
                             "deeper than 64 lists or objects); does the code write to the "
                             "grader's pipe?"),
    'forged label 5,000 deep': (DEEP_LABEL, GAME, 'GameOfNim.utility',
                                'after (1, 3); (2, 1): no player that its to_move names plays '
                                "as the reference's 'P1'"),
    'forged load answer': (FORGED_LOAD, SEARCH, 'alpha_beta_search on fig52',
                           'cannot load attacker.py: the jail sent something that is not the '
                           'answer to loading the file'),
    'gone before its games': (GONE, ['--functions', 'player', '--variants', 'nim'],
                              'player: legal moves',
                              'the process ended without an answer (its process exited'),
    **{f'an extra {kind}': (TWICE.replace('ANSWER', answer), ONE_PILE, 'player: legal moves',
                            reason) for kind, answer, reason in [
        ('ready', "{'type': 'ready'}", 'nim(piles=(20,)): playing P1, error after 0 moves: '
                                       'answered {"type":"ready"}, not {"move": ...}'),
        ('move', "{'move': move, 'stats': {}}",  # the last answer of a game, left unread
         'nim(piles=(20,)): playing P2, error after 0 moves: cannot load player: answered '
         '{"move":[1,1],"stats":{}}, not {"type": "ready"}')]},
    **{f'an answer with a {attack}': (SENDS.replace('MESSAGE', repr(MESSAGES[attack])),
                                      GAME if 'perft' in attack else SEARCH,
                                      'GameOfNim.to_move' if 'perft' in attack else
                                      'alpha_beta_search on fig52', GARBLED + reason)
       for attack, reason in {
           'wrong kind': "a 'loaded' message in answer to a 'search' request)",
           'missing field': "a 'search_done' message without exactly the fields error, move, "
                            'not_implemented, reference, stopped: {"type":"search_done",',
           'wrongly typed field': "a 'search_done' message whose not_implemented is not true or "
                                  'false: "yes")',
           'extra field': "a 'search_done' message without exactly the fields",
           'unknown kind': 'a message of no kind the grader knows: {"type":"verdict",',
           'wrongly typed perft': "a 'perft_done' message whose perft is not a list of whole "
                                  'numbers: ["4",9])'}.items()},
}
"""Each attack: the student's file, the options it is graded with, and the check it
fails with how its message starts (a forged label is read as none, so utility finds
no player of the student's that plays as the reference's)."""
GENEROUS = ['--timeout', '10', '--move-timeout', '10']
"""Limits no check here waits out: the attacks fail at once, however busy the machine."""

HONEST = '''
from games import Nim

{alpha_beta}

def player(game, state):
    return game.actions(state)[0]


class GameOfNim(Nim):
    """Nim, as the course's reference plays it."""
'''


def student(folder, source, name):
    """Write a student's file in folder and return its path."""
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(source)
    return str(path)


def honest(folder):
    """Write an honest student's file in folder (the textbook's alpha-beta, a player
    and a right game class) and return its path."""
    with open(os.path.join(ROOT, 'tests', 'students', 'only_alpha_beta.py')) as file:
        return student(folder, HONEST.format(alpha_beta=file.read()), 'honest.py')


def check(*args):
    """Run check with args within GENEROUS limits; return what it did, having made
    sure it printed no traceback."""
    done = run('check', *args, *GENEROUS)
    assert 'Traceback' not in done.stderr, done.stderr
    return done


def failed(checks, name, reason):
    """Assert that the check name among checks (a report's, as JSON) failed with a
    message that starts with reason and says nothing of the grader's own stack."""
    [found] = [result for result in checks if result['check'] == name]
    assert not found['passed'] and found['points'] == 0, found
    assert found['message'].startswith(reason), found['message']
    assert not [result for result in checks if 'RecursionError' in result['message']]


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('attack', ATTACKS)
def test_an_attack_fails_its_check_in_the_report_and_its_gradescope_results(tmp_path, attack,
                                                                            level):
    source, options, name, reason = ATTACKS[attack]
    report, results = tmp_path / 'report.json', tmp_path / 'results.json'
    done = check(student(tmp_path, source, 'attacker.py'), *options, '--sandbox', level,
                 '--json', str(report), '--gradescope', str(results))
    assert done.returncode == 1 and done.stdout.splitlines()[-1].startswith('Total: ')
    failed(json.loads(report.read_text())['checks'], name, reason)
    tests = json.loads(results.read_text())['tests']
    failed([{'check': test['name'], 'passed': test['status'] == 'passed',
             'points': test['score'], 'message': test['output']} for test in tests], name, reason)


def grouped(attacks):
    """The attacks by the options they are graded with, in the order of attacks."""
    groups = {}
    for attack, (_, options, _, _) in attacks.items():
        groups.setdefault(tuple(options), []).append(attack)
    return groups


GROUPS = grouped(ATTACKS)
"""The attacks by the options they are graded with: a class a group and jail level."""


def file_stem(attack):
    """The name, without .py, of the attack's file in its class."""
    return 'attacker_' + re.sub(r'\W+', '_', attack)


LONG_NAME = 'a' * 251
"""The name, without .py, of the honest student's copy in the class graded with SEARCH:
its report, NAME.json, would not fit in a file's name."""


def students(options):
    """The students of the class graded with options, by the names they are given."""
    attackers = {file_stem(attack) for attack in GROUPS[tuple(options)]}
    return attackers | {'honest'} | ({LONG_NAME[:200]} if list(options) == SEARCH else set())


@pytest.fixture(scope='module')
def classes(tmp_path_factory):
    """For a level, the classes of the attacks (see graded_class), graded once each, by
    the options they are graded with."""
    graded = {}

    def report(level):
        if level not in graded:
            graded[level] = {options: graded_class(tmp_path_factory.mktemp('class'), options,
                                                   attacks, level)
                             for options, attacks in GROUPS.items()}
        return graded[level]
    return report


def graded_class(folder, options, attacks, level):
    """Grade, with options at the level, the honest student alone, and then a class of
    the attacks beside the honest student (and, with SEARCH, the honest student's copy
    named LONG_NAME); return the class's exit status, its rows and its reports (as
    JSON) by student, the files of its reports folder, and the report alone."""
    check(honest(folder / 'alone'), *options, '--sandbox', level, '--json',
          str(folder / 'alone.json'))
    for attack in attacks:
        student(folder / 'class', ATTACKS[attack][0], file_stem(attack) + '.py')
    source = open(honest(folder / 'class')).read()
    if list(options) == SEARCH:
        student(folder / 'class', source, LONG_NAME + '.py')
    grades = folder / 'grades'
    done = check(str(folder / 'class'), '--jobs', '2', '--out', str(grades), *options,
                 '--sandbox', level)
    rows = {row['student']: row for row in
            json.loads((grades / 'summary.json').read_text())['students']}
    reports = {name: json.loads((grades / 'reports' / f'{name}.json').read_text())
               for name in rows}
    return {'returncode': done.returncode, 'rows': rows, 'reports': reports,
            'files': sorted(os.listdir(grades / 'reports')),
            'alone': json.loads((folder / 'alone.json').read_text())}


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('attack', ATTACKS)
def test_an_attack_leaves_a_classmates_grade_as_it_is_alone(classes, attack, level):
    _, options, name, reason = ATTACKS[attack]
    graded = classes(level)[tuple(options)]
    rows, expected = graded['rows'], graded['alone']
    assert graded['returncode'] == 1
    assert set(rows) == students(options) and rows['honest']['status'] == 'graded', rows
    failed(graded['reports'][file_stem(attack)]['checks'], name,
           reason.replace('attacker.py', file_stem(attack) + '.py'))
    honest_report = graded['reports']['honest']
    assert (honest_report['points'], honest_report['max_points']) == (
        expected['points'], expected['max_points'])
    assert [_verdict(result) for result in honest_report['checks']] == [
        _verdict(result) for result in expected['checks']]


def _verdict(result):
    """A check's outcome, without its time."""
    return {key: value for key, value in result.items() if key != 'seconds'}


@pytest.mark.parametrize('level', LEVELS)
def test_a_file_name_too_long_for_its_report_costs_no_classmate_a_report(classes, level):
    graded = classes(level)[tuple(SEARCH)]
    rows, files, long = graded['rows'], graded['files'], LONG_NAME[:200]
    for name in ('honest', long):
        assert rows[name]['status'] == 'graded', rows[name]
        assert rows[name]['total'] == rows[name]['max'] > 0, rows[name]
    assert files == sorted(f'{name}.{kind}' for name in rows for kind in ('json', 'txt'))
    assert all(len(name.encode()) <= 255 for name in files)
    assert long + '.json' in files and 'honest.json' in files and 'honest.txt' in files
