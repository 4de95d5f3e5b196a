"""Grading a student's Game class against a reference: GameOfNim classes written as
aima-python's students write them (`from games import *`, list boards in
namedtuples, 'MAX'/'MIN' or 0/1, tuple or list moves), two right and one for each
classic mistake, each failing the check it should and naming the first position
where it differs; and hostile classes that fail their checks without harm to the grader."""

import json
import os
import subprocess
import sys
import zipfile

import pytest
from jails import LEVELS

from command_line import run
from players import grading
from players.sandbox import jail
from players.grading import reference as surveying

pytestmark = pytest.mark.slow

jail.prepare_jailer()

SOLUTION = '''
from games import *


class GameOfNim(Game):
    """Nim on rows of objects: take at least one from a row; whoever takes the last loses."""

    def __init__(self, board=[3, 1]):
        self.initial = GameState(to_move='MAX', utility=0, board=list(board),
                                 moves=self.moves_of(board))

    @staticmethod
    def moves_of(board):
        return [(x, y) for x in range(len(board)) for y in range(1, board[x] + 1)]

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = state.board.copy()
        board[move[0]] -= move[1]
        turn = 'MIN' if state.to_move == 'MAX' else 'MAX'
        utility = (1 if turn == 'MAX' else -1) if sum(board) == 0 else 0
        return GameState(to_move=turn, utility=utility, board=board, moves=self.moves_of(board))

    def utility(self, state, player):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        return len(state.moves) == 0
'''
"""The instructor's solution, as a student's right answer would be written."""

OTHER_LABELS = '''
from games import *


class GameOfNim(Game):
    def __init__(self, board=[3, 1]):
        self.initial = GameState(to_move=0, utility=0, board=board,
                                 moves=[[i, n] for i in range(len(board))
                                        for n in range(1, board[i] + 1)])

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        if move not in state.moves:
            return state
        board = list(state.board)
        board[move[0]] = board[move[0]] - move[1]
        moves = [[i, n] for i in range(len(board)) for n in range(1, board[i] + 1)]
        return GameState(to_move=1 - state.to_move, utility=0, board=board, moves=moves)

    def utility(self, state, player):
        if not self.terminal_test(state):
            return 0
        return 1 if player == state.to_move else -1

    def terminal_test(self, state):
        return sum(state.board) == 0
'''
"""Right too: players 0 and 1, list moves, a list board, a utility worked out at the end."""

MISTAKES = {
    'wrong to_move after the last move': (
        "        turn = 'MIN' if state.to_move == 'MAX' else 'MAX'\n"
        "        utility = (1 if turn == 'MAX' else -1) if sum(board) == 0 else 0\n",
        "        turn = 'MIN' if state.to_move == 'MAX' else 'MAX'\n"
        "        utility = (1 if turn == 'MAX' else -1) if sum(board) == 0 else 0\n"
        "        if sum(board) == 0:\n"
        "            turn = state.to_move\n",
        'to_move', "after (0, 3); (1, 1): to_move gave 'MIN', the reference's 'MAX'"),
    'off by one in actions': (
        'range(1, board[x] + 1)', 'range(1, board[x])',
        'actions', "at the start: actions gave [(0, 1), (0, 2)], the reference's [(0, 1), "
                   '(0, 2), (0, 3), (1, 1)] (missing [(0, 3), (1, 1)])'),
    'utility from the wrong player': (
        "return state.utility if player == 'MAX' else -state.utility",
        "return state.utility if player == 'MIN' else -state.utility",
        'utility', "after (0, 3); (1, 1): utility gave -1 to 'MAX' and 1 to 'MIN', the "
                   "reference's 1 to 'MAX' and -1 to 'MIN'"),
    'utility 0 at the end': (
        'if sum(board) == 0 else 0', 'if sum(state.board) == 0 else 0',
        'utility', "after (0, 3); (1, 1): utility gave 0 to 'MAX' and 0 to 'MIN'"),
    'result that changes its state': (
        'board = state.board.copy()', 'board = state.board',
        'result', 'at the start: result(state, (0, 1)) changed the state it was given'),
    'a game that never ends': (
        'return len(state.moves) == 0', 'return False',
        'utility', "after (0, 3); (1, 1): utility was not asked, since terminal_test said the "
                   "game goes on; the reference's is over, with 1 to 'MAX' and -1 to 'MIN'"),
}
"""Each classic mistake: the edit of the solution that makes it, the check it must
fail and what that check's message says."""
CONSEQUENCES = {'off by one in actions': ('terminal_test', 'utility', 'perft'),
                'result that changes its state': ('perft',),
                'a game that never ends': ('terminal_test',)}
"""The other checks a mistake fails: with fewer moves a game ends sooner, and never
where the reference's does, so no utility can be compared; a search that makes
each child from the same parent sees the changed parent; a game that never ends
is wrong wherever it is over."""


@pytest.fixture(scope='module')
def reference(tmp_path_factory):
    """The instructor's solution file, as --reference names it (its class made with
    the arguments of the student's)."""
    path = tmp_path_factory.mktemp('course') / 'solution.py'
    path.write_text(SOLUTION)
    return f'{path}:GameOfNim'


def grade(tmp_path, source, reference, game='GameOfNim(board=[3, 1])', **options):
    """Grade a student's class; return {rule: (passed, message)}."""
    path = tmp_path / 'student.py'
    path.write_text(source)
    settings = grading.Settings(functions=(), game=game, reference=reference,
                                timeout=options.pop('timeout', 2), **options)
    report = grading.grade(str(path), settings)
    return {result.check.replace(' ', '.').split('.')[-1]: (result.passed, result.message)
            for result in report.results}


@pytest.mark.parametrize('source', [SOLUTION, OTHER_LABELS], ids=['same labels', 'other labels'])
def test_a_right_class_passes_every_check(tmp_path, reference, source):
    results = grade(tmp_path, source, reference)
    assert tuple(results) == RULES
    assert all(passed for passed, _ in results.values()), results
    assert results['actions'][1] == ('agrees with the reference at all 12 positions reachable '
                                     'from the start')
    assert results['perft'][1] == ('4, 9, 10 move sequences of 1 to 3 plies from the start, as '
                                   "the reference's")


PILES = '''
from games import *


class PileNim(Game):
    """Nim as the project's nim plays it: piles numbered from 1, whoever cannot move loses."""

    def __init__(self, piles=(3, 4, 5)):
        self.initial = GameState(to_move='MAX', utility=0, board=list(piles), moves=[])

    def actions(self, state):
        return [(pile + 1, count) for pile, size in enumerate(state.board)
                for count in range(1, size + 1)]

    def result(self, state, move):
        board = list(state.board)
        board[move[0] - 1] -= move[1]
        return state._replace(board=board, to_move='MIN' if state.to_move == 'MAX' else 'MAX')

    def utility(self, state, player):
        if not self.terminal_test(state):
            return 0
        return -1 if player == state.to_move else 1

    def terminal_test(self, state):
        return not any(state.board)
'''
"""A student's class that plays the project's nim, move for move."""


def test_a_class_is_graded_against_a_registered_game_with_the_same_moves(tmp_path):
    results = grade(tmp_path, PILES, 'nim', 'PileNim(piles=[3, 1])')
    assert all(passed for passed, _ in results.values()), results
    results = grade(tmp_path, PILES.replace('return -1 if', 'return 1 if'), 'nim',
                    'PileNim(piles=[3, 1])')
    assert results['utility'] == (False, "after (1, 3); (2, 1): utility gave 1 to 'MAX' (as "
                                         "'P1') and 1 to 'MIN' (as 'P2'), the reference's -1 to "
                                         "'P1' and 1 to 'P2'")


@pytest.mark.parametrize('mistake', MISTAKES)
def test_a_mistake_fails_its_check_naming_the_first_position(tmp_path, reference, mistake):
    old, new, rule, message = MISTAKES[mistake]
    assert old in SOLUTION
    results = grade(tmp_path, SOLUTION.replace(old, new), reference)
    passed, said = results[rule]
    assert not passed and said.startswith(message), said
    failed = {name for name, (passed, _) in results.items() if not passed}
    assert failed <= {rule, *CONSEQUENCES.get(mistake, ())}, results


HOSTILE = SOLUTION + '''
import os
import time


class Sneaky(tuple):
    """A move equal to anything."""

    def __eq__(self, other):
        return True

    def __hash__(self):
        return 0


class Sleeps(GameOfNim):
    def to_move(self, state):
        time.sleep(10 ** 6)


class Stubborn(GameOfNim):
    def to_move(self, state):
        while True:
            try:
                time.sleep(10 ** 6)
            except BaseException:
                pass


class Tricks(GameOfNim):
    def actions(self, state):
        return [Sneaky(move) for move in state.moves]

    def result(self, state, move):
        for place in ('written', '/tmp/written', os.path.expanduser('~/written')):
            try:
                with open(place, 'w') as file:
                    file.write('x')
            except OSError:
                pass
        return super().result(state, tuple(move))


class Objects(GameOfNim):
    def actions(self, state):
        return [object()]


class Huge(GameOfNim):
    def actions(self, state):
        return list(range(10 ** 4))


class Raises(GameOfNim):
    def utility(self, state, player):
        return {}[player]


class Exits(GameOfNim):
    def result(self, state, move):
        os._exit(3)


class Floods(GameOfNim):
    def terminal_test(self, state):
        os.write(4, b'x' * (1 << 20))
        time.sleep(60)
'''
"""Classes that break the rules in hostile ways."""

RULES = ('to_move', 'actions', 'result', 'terminal_test', 'utility', 'perft')
ENDED = 'the process ended without an answer'
NOWHERE = {'result': 'after (0, 1): not reached with its own moves, nor any other position '
                     'after a move: result was compared nowhere',
           'utility': "after (0, 3); (1, 1): not reached with its own moves, nor any other "
                      "position where the reference's game is over: utility was compared "
                      'nowhere'}
"""What result and utility say where no move can be made at the start."""
HOSTILE_VERDICTS = {
    'Sleeps': {'to_move': 'at the start: to_move did not return within 0.2 s',
               'utility': "after (0, 3); (1, 1): no player that its to_move names plays as "
                          "the reference's 'MAX'"},
    'Stubborn': {**dict.fromkeys(RULES, 'skipped after a timeout in Stubborn.to_move'),
                 'to_move': 'timed out after 0.5 s'},
    'Tricks': {},
    'Objects': {'actions': 'at the start: actions returned <object object at ',
                'result': NOWHERE['result'], 'utility': NOWHERE['utility'],
                'perft': 'returned <object object at '},
    'Huge': {'actions': 'at the start: actions returned 10000 moves, more than the grader takes',
             'result': NOWHERE['result'], 'utility': NOWHERE['utility'],
             'perft': 'returned 10000 moves'},
    'Raises': {'utility': "after (0, 3); (1, 1): utility raised KeyError: 'MAX' (student.py, "
                          f"line {HOSTILE[:HOSTILE.index('{}[player]')].count(chr(10)) + 1}, "
                          'in utility)'},
    'Exits': dict.fromkeys(RULES, ENDED),
    'Floods': dict.fromkeys(RULES, ENDED),
}
"""What each hostile class fails, with how each message starts; it passes the rest."""


@pytest.mark.parametrize('level', LEVELS)
def test_a_hostile_class_fails_its_checks_and_nothing_else(tmp_path, reference, level):
    for name, verdicts in HOSTILE_VERDICTS.items():
        # the classes that hang wait out their limit (Sleeps's rules are called within a
        # fifth of it, so 1 s; Stubborn fails at its first call, so 0.5 s); the others
        # must pass or fail their checks on their own, within a limit a busy machine
        # cannot run out
        timeout = {'Sleeps': 1, 'Stubborn': 0.5}.get(name, 5)
        results = grade(tmp_path, HOSTILE, reference, f'{name}(board=[3, 1])', timeout=timeout,
                        sandbox=level)
        failed = {rule: message for rule, (passed, message) in results.items() if not passed}
        assert set(failed) == set(verdicts), (name, results)
        for rule, start in verdicts.items():
            assert failed[rule].startswith(start), (name, rule, failed[rule])


def test_check_grades_a_class_for_gradescope_and_says_which_class_it_cannot_find(tmp_path,
                                                                               reference):
    student = tmp_path / 'student.py'
    student.write_text(SOLUTION.replace('board = state.board.copy()', 'board = state.board'))
    results = tmp_path / 'results.json'
    done = run('check', str(student), '--game', 'GameOfNim(board=[3, 1])', '--reference',
               reference, '--gradescope', str(results), '--sandbox', 'process', '--timeout', '2')
    assert done.returncode == 1, done.stderr
    tests = json.loads(results.read_text())['tests']
    assert [(test['name'], test['number'], test['status']) for test in tests] == [
        (f'GameOfNim{"." if rule != "perft" else " "}{rule}', f'5.{number}',
         'failed' if rule in ('result', 'perft') else 'passed')
        for number, rule in enumerate(RULES, 1)]
    done = run('check', str(student), '--game', 'Nim(board=[3, 1])', '--reference', reference,
               '--sandbox', 'process')
    assert done.returncode == 1 and ('FAIL 0/2 Nim.to_move: student.py has no class Nim of its '
                                     'own (Nim is games.nim.Nim)') in done.stdout


@pytest.mark.parametrize('options, error', [
    (['--game', 'GameOfNim(board=[3, 1]', '--reference', 'REFERENCE'],
     "--game: malformed game spec 'GameOfNim(board=[3, 1]': expected GAME(key=value, ...)"),
    (['--game', 'GameOfNim(board=[3, 1])', '--reference', 'nosuch'],
     "--reference: unknown game 'nosuch'"),
    (['--game', 'GameOfNim(board=[3, 1])'], '--game and --reference go together'),
    (['--game', 'GameOfNim(board=[3, 1])', '--reference', 'REFERENCE', '--game-positions',
      '(0, 3); (0, 1)'], "--game-positions: in '(0, 3); (0, 1)': (0, 1) is not a move of the "
                         'reference after (0, 3)'),
    (['--game', 'GameOfNim(board=[0, 0])', '--reference', 'REFERENCE'],
     '--reference: REFERENCE: the initial state has no legal move'),
])
def test_a_bad_game_or_reference_is_a_usage_error(tmp_path, reference, options, error):
    student = tmp_path / 'student.py'
    student.write_text(SOLUTION)
    done = run('check', str(student), *(option.replace('REFERENCE', reference)
                                        for option in options))
    error = error.replace('REFERENCE', reference)
    assert done.returncode == 2 and done.stderr.startswith(f'tournament: error: {error}')
    assert done.stderr.count('\n') == 1 and not done.stdout


def test_a_class_report_has_the_game_column(tmp_path, reference):
    (tmp_path / 'class').mkdir()
    (tmp_path / 'class' / 'alice.py').write_text(SOLUTION)
    (tmp_path / 'class' / 'bob.py').write_text(OTHER_LABELS.replace('1 - state.to_move', '1'))
    done = run('check', str(tmp_path / 'class'), '--game', 'GameOfNim(board=[3, 1])',
               '--reference', reference, '--out', str(tmp_path / 'grades'), '--jobs', '2',
               '--sandbox', 'process')
    assert done.returncode == 1, done.stderr
    rows = json.loads((tmp_path / 'grades' / 'summary.json').read_text())['students']
    assert [(row['student'], row['game'], row['max']) for row in rows] == [
        ('alice', 12, 12), ('bob', 8, 12)]
    report = (tmp_path / 'grades' / 'reports' / 'bob.txt').read_text()
    assert ("FAIL 0/2 GameOfNim.to_move: after (0, 1); (0, 1): to_move gave 1 (which plays as "
            "the reference's 'MIN'), the reference's 'MAX'") in report
    assert ("FAIL 0/2 GameOfNim.utility: after (0, 3); (1, 1): utility gave -1 to 0 (as 'MAX') "
            "and 1 to 1 (as 'MIN'), the reference's 1 to 'MAX' and -1 to 'MIN'") in report


def test_where_there_are_many_positions_the_instructors_are_compared_too(tmp_path, reference,
                                                                         monkeypatch):
    monkeypatch.setattr(surveying, 'POSITION_LIMIT', 5)
    monkeypatch.setattr(surveying, 'PLAYOUTS', 0)
    surveying.survey.cache_clear()
    wrong = SOLUTION.replace(*MISTAKES['utility from the wrong player'][:2])
    try:
        assert grade(tmp_path, wrong, reference)['utility'] == (True, (
            'agrees with the reference at 5 positions (more than 5 are reachable: the first 5 '
            'found, those of 0 random games)'))
        assert grade(tmp_path, wrong, reference, game_positions=('(0, 3); (1, 1)',))[
            'utility'] == (False, "after (0, 3); (1, 1): utility gave -1 to 'MAX' and 1 to "
                                  "'MIN', the reference's 1 to 'MAX' and -1 to 'MIN'")
    finally:
        surveying.survey.cache_clear()


def test_a_gradescope_bundle_carries_the_reference_file(tmp_path, reference):
    bundle = tmp_path / 'autograder.zip'
    made = run('gradescope-bundle', str(bundle), '--game', 'GameOfNim(board=[3, 1])',
               '--reference', reference, '--game-positions', '(0, 3)', '--timeout', '2',
               '--sandbox', 'process')
    assert made.returncode == 0, made.stderr
    root = tmp_path / 'autograder'
    with zipfile.ZipFile(bundle) as archive:
        assert 'project/game_files/solution.py' in archive.namelist()
        archive.extractall(root / 'source')
    script = root / 'source' / 'run_autograder'
    assert "--game-positions '(0, 3)' --reference game_files/solution.py:GameOfNim" in \
        script.read_text()
    (root / 'submission').mkdir()
    (root / 'submission' / 'game_of_nim.py').write_text(OTHER_LABELS)
    env = dict(os.environ, AUTOGRADER_ROOT=str(root),
               PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ['PATH'])
    subprocess.run(['bash', str(script)], capture_output=True, env=env, timeout=120, check=True)
    data = json.loads((root / 'results' / 'results.json').read_text())
    assert data['score'] == 12 and len(data['tests']) == 6


def test_a_course_folder_grades_the_class_with_no_options(tmp_path, monkeypatch):
    (tmp_path / 'solution.py').write_text(SOLUTION)
    (tmp_path / 'mine.py').write_text(OTHER_LABELS)
    (tmp_path / 'tournament.toml').write_text(
        '[check]\ngame = "GameOfNim(board=[3, 1])"\nreference = "solution.py:GameOfNim"\n'
        'game-positions = ["(0, 3); (1, 1)"]\nsandbox = "process"\n')
    monkeypatch.chdir(tmp_path)
    done = run('check', 'mine.py')
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'the class GameOfNim(board=[3, 1]) against solution.py:GameOfNim' in done.stdout
