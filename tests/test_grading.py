"""The course grader: its trees against values worked out by hand, and its diagnosis
of small buggy student files (each one classic mistake), crashes and hangs."""

import inspect
import json
import os
import subprocess
import sys

import pytest

import variants
from games import Fig52Game, Nim
from players import grading, textbook
from players.grading.cases import DEEP, DEPTH_TRAP, DEPTH_TRAP_EVALS, TIE, Case, tree_cases
from players.grading.counting import counting, describe
from players.grading.models import model_search

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = {name: variants.make(name) for name in variants.DEFAULT_VARIANTS}
CHECKS = grading.make_checks(GAMES)
TEXTBOOK = inspect.getsource(textbook)
PLAYER = '''

def player(game, state):
    me = game.to_move(state)

    def score(s):
        return game.utility(s, me) if game.terminal_test(s) else game.evaluate(s, me)
    return alpha_beta_cutoff_search(state, game, d=3, eval_fn=score)
'''


def student(tmp_path, source, name='student.py'):
    """Write a student's file and return its path."""
    path = tmp_path / name
    path.write_text(source)
    return str(path)


def mutant(tmp_path, *edits):
    """The textbook's source with each (old, new) edit made: a student's one mistake."""
    source = TEXTBOOK
    for old, new in edits:
        assert old in source, old
        source = source.replace(old, new)
    return student(tmp_path, source)


def grade(path, *names, timeout=10):
    """Grade path on the checks whose names contain one of names (all if none); return
    {check name: (passed, message)}."""
    chosen = [check for check in CHECKS if not names or any(name in check.name for name in names)]
    report = grading.grade(path, chosen, timeout)
    return {result.check: (result.passed, result.message) for result in report.results}


def generated(search, game, **options):
    """The move and the names of the nodes search generates on a tree."""
    proxy = counting(game)
    move = search(proxy.initial, proxy, **options)
    return move, [proxy.node(state) for state in proxy.generated]


# The trees, against the book and values worked out by hand.

def test_figure_5_5_alpha_beta_prunes_c2_and_c3():
    move, nodes = generated(textbook.alpha_beta_search, Fig52Game())
    assert move == 'a1'
    assert nodes == ['B', 'B1', 'B2', 'B3', 'C', 'C1', 'D', 'D1', 'D2', 'D3']


def test_tie_tree():
    """b and c are both worth 3: the first is chosen; C2 (after C1 = 3 = alpha) and D2
    are pruned."""
    assert generated(textbook.minmax_decision, TIE)[0] == 'b'
    assert generated(textbook.alpha_beta_search, TIE) == (
        'b', ['B', 'B1', 'B2', 'C', 'C1', 'D', 'D1'])


@pytest.mark.parametrize('d, best', [(0, 'b'), (1, 'c'), (2, 'b'), (3, 'b')])
def test_depth_trap_best_move_changes_with_depth(d, best):
    """By hand: 1 ply: B=5 > C=1; 2 plies: B=min(6,0)=0 < C=min(3,4)=3; 3 plies:
    B=min(max(7,1), max(9,2))=7 > C=min(max(1,2), max(5,0))=2."""
    evals = Case('trap', DEPTH_TRAP, DEPTH_TRAP.initial, evals=DEPTH_TRAP_EVALS).eval_fn()
    assert generated(textbook.alpha_beta_cutoff_search, DEPTH_TRAP, d=d, eval_fn=evals)[0] == best


def test_deep_tree_cuts_off_at_two_depths():
    """B = 7 (B1 = 7); B2 stops at B21 = 9 >= beta 7, B3 at B31 = 7 (equal);
    C stops after C1 = 5 <= alpha 7."""
    assert generated(textbook.alpha_beta_search, DEEP) == (
        'b', ['B', 'B1', 'B11', 'B12', 'B2', 'B21', 'B3', 'B31', 'C', 'C1', 'C11', 'C12'])


def test_model_without_mistakes_is_the_textbook():
    for case in tree_cases('alpha_beta_search') + tree_cases('minmax_decision'):
        assert (generated(model_search, case.game)
                == generated(textbook.alpha_beta_search, case.game))
        assert (generated(model_search, case.game, prune=False)
                == generated(textbook.minmax_decision, case.game))
    for case in tree_cases('alpha_beta_cutoff_search'):
        options = dict(d=case.d, eval_fn=case.eval_fn())
        assert (generated(model_search, case.game, **options)
                == generated(textbook.alpha_beta_cutoff_search, case.game, **options))


def test_real_positions_are_small_and_described():
    names = [check.name for check in CHECKS if check.function == 'minmax_decision']
    assert sum('nim' in name for name in names) == 5
    assert sum('tictactoe' in name for name in names) == 1
    nim = Nim(piles=(1, 2))
    assert describe(nim, nim.initial) == 'P1:1,2'


# The grader on students' files.

def test_textbook_copy_passes_every_check(tmp_path):
    results = grade(student(tmp_path, TEXTBOOK + PLAYER))
    assert len(results) == len(CHECKS)
    failed = {name: message for name, (passed, message) in results.items() if not passed}
    assert not failed


@pytest.mark.parametrize('edits, check, diagnosis', [
    ([('if v >= beta:', 'if False:'), ('if v <= alpha:', 'if False:')],
     'alpha_beta_search on fig52', 'never prunes'),
    ([('v >= beta', 'v > beta'), ('v <= alpha', 'v < alpha')],
     'alpha_beta_search on tie', 'prunes on strict inequality'),
    ([('alpha = max(alpha, v)', 'pass'), ('beta = min(beta, v)', 'pass')],
     'alpha_beta_search on deep-pruning', 'never updates alpha/beta'),
    ([('if v > best_score or', 'if v >= best_score or')],
     'alpha_beta_search on tie', 'wrong tie rule'),
    ([('depth > d', 'depth >= d')], 'alpha_beta_cutoff_search on depth-trap (d=1)',
     'depth off by one (too shallow)'),
    ([('infinity, 1)', 'infinity, 0)')], 'alpha_beta_cutoff_search on depth-trap (d=1)',
     'depth off by one (too deep)'),
    ([('eval_fn = eval_fn or', 'eval_fn =')], 'alpha_beta_cutoff_search on depth-trap (d=1)',
     'ignores eval_fn'),
    ([('eval_fn or (lambda state: game.utility(state, player))',
       'eval_fn or (lambda state: game.evaluate(state, player))')],
     'alpha_beta_cutoff_search on default evaluation (d=1)', 'evaluate by default'),
    ([('for a in game.actions(state):\n            v = max',
       'for a in reversed(game.actions(state)):\n            v = max'),
      ('for a in game.actions(state):\n            v = min',
       'for a in reversed(game.actions(state)):\n            v = min')],
     'alpha_beta_search on deep-pruning', 'prunes wrongly'),
])
def test_each_mistake_is_named(tmp_path, edits, check, diagnosis):
    results = grade(mutant(tmp_path, *edits), check)
    passed, message = results[check]
    assert not passed and message.startswith(diagnosis), message


def test_depth_off_by_one_passes_where_the_depth_makes_no_difference(tmp_path):
    results = grade(mutant(tmp_path, ('infinity, 1)', 'infinity, 0)')), 'depth-trap')
    assert [passed for passed, _ in results.values()] == [False, False, True]


def test_minimax_mistakes(tmp_path):
    """A minimax that prunes, and one that takes the last of tied moves."""
    pruning = student(tmp_path, TEXTBOOK + '\nminmax_decision = alpha_beta_search\n', 'pruning.py')
    passed, message = grade(pruning, 'minmax_decision on fig52')['minmax_decision on fig52']
    assert not passed and message.startswith('prunes:'), message
    last_tie = student(tmp_path, TEXTBOOK.replace(
        'return max(game.actions(state), key=lambda a: min_value(game.result(state, a)), '
        'default=None)',
        'values = [(min_value(game.result(state, a)), a) for a in game.actions(state)]\n'
        '    best = max(value for value, _ in values)\n'
        '    return [a for value, a in values if value == best][-1]'), 'last.py')
    passed, message = grade(last_tie, 'minmax_decision on tie')['minmax_decision on tie']
    assert not passed and message.startswith('wrong tie rule'), message


def test_wrong_point_of_view_is_a_wrong_move(tmp_path):
    """Scoring terminal states for the player to move there, not the root's player."""
    source = TEXTBOOK.replace('return game.utility(state, player)',
                              'return game.utility(state, game.to_move(state))', 2)
    [(passed, message)] = grade(student(tmp_path, source), 'minmax_decision on tictactoe').values()
    assert not passed and message.startswith('wrong move'), message


def test_a_search_that_never_calls_result_is_told_so(tmp_path):
    path = student(tmp_path, 'def alpha_beta_search(state, game):\n    return None\n')
    [(passed, message)] = grade(path, 'alpha_beta_search on fig52').values()
    assert not passed and 'generated no states' in message and 'prunes too' not in message, message


FAULTS = [
    ('while True:\n        pass', 'timed out'),
    ('return 1 / 0', 'ZeroDivisionError'),
    ('import sys; sys.exit(3)', 'called sys.exit(3)'),
    ('import os; os._exit(1)', 'ended without an answer'),
    ('raise NotImplementedError', 'not implemented'),
]


@pytest.mark.parametrize('body, diagnosis', FAULTS)
def test_faults_fail_a_check_not_the_grader(tmp_path, body, diagnosis):
    path = student(tmp_path, f'def alpha_beta_search(state, game):\n    {body}\n')
    results = grade(path, 'alpha_beta_search on fig52', timeout=1)
    assert list(results) == ['alpha_beta_search on fig52']
    passed, message = results['alpha_beta_search on fig52']
    assert not passed and diagnosis in message, message


def test_printing_does_not_reach_the_report(tmp_path, capfd):
    path = student(tmp_path, TEXTBOOK.replace('    player = game.to_move(state)\n',
                                              '    player = game.to_move(state)\n'
                                              '    print("junk")\n'))
    results = grade(path, 'on fig52')
    assert all(passed for passed, _ in results.values())
    assert 'junk' not in capfd.readouterr().out


def test_template_is_not_implemented(tmp_path):
    report = grading.grade(os.path.join(ROOT, 'players', 'template.py'), CHECKS, 10)
    assert len(report.results) == len(CHECKS) and report.points == 0
    assert all(result.message.startswith('not implemented') for result in report.results)


def test_players_that_forfeit_or_lose(tmp_path):
    none = student(tmp_path, 'def player(game, state):\n    return None\n', 'none.py')
    passed, message = grade(none, 'legal moves')['player: legal moves']
    assert not passed and 'illegal move' in message, message
    first = student(tmp_path, 'def player(game, state):\n    return game.actions(state)[0]\n',
                    'first.py')
    results = grade(first, 'player:')
    assert results['player: legal moves'][0]
    passed, message = results['player: never loses to random at tictactoe']
    assert not passed and 'lost' in message
    passed, message = results['player: gauntlet']
    assert not passed and 'the pass mark is 60%' in message


def test_only_defined_functions_are_graded(tmp_path):
    report = grading.grade(student(tmp_path, TEXTBOOK), CHECKS, 10)
    assert report.skipped == ['player'] and report.passed
    assert 'SKIP player: not defined' in '\n'.join(report.lines())


@pytest.mark.parametrize('source, error', [
    (None, 'no such file'),
    ('def minmax_decision(state, game):\n    return (\n', 'SyntaxError'),
    ('raise RuntimeError("at import")\n', 'RuntimeError'),
    ('x = 1\n', 'defines none of'),
])
def test_unloadable_files(tmp_path, source, error):
    path = str(tmp_path / 'missing.py') if source is None else student(tmp_path, source)
    with pytest.raises(grading.LoadError, match=error):
        grading.grade(path, CHECKS, 5)


def run(*args):
    """Run tournament.py with args and return the finished process."""
    return subprocess.run([sys.executable, os.path.join(ROOT, 'tournament.py'), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_check_command(tmp_path):
    report = tmp_path / 'report.json'
    good = run('check', student(tmp_path, TEXTBOOK + PLAYER), '--json', str(report))
    assert good.returncode == 0, good.stderr
    lines = good.stdout.splitlines()
    assert lines[-1] == f'Total: 37/37 points, {len(CHECKS)} of {len(CHECKS)} checks passed'
    assert all(line.startswith('PASS ') for line in lines[:-1])
    data = json.loads(report.read_text())
    assert data['passed'] and data['points'] == data['max_points'] == 37
    bad = run('check', mutant(tmp_path, ('depth > d', 'depth >= d')), '--timeout', '20')
    assert bad.returncode == 1
    assert ('FAIL 0/1 alpha_beta_cutoff_search on depth-trap (d=1): depth off by one (too shallow)'
            in bad.stdout)


@pytest.mark.parametrize('args, error', [
    (['check', 'no/such.py'], "no such file 'no/such.py'"),
    (['check', 'players/template.py', '--json', 'no/such/dir/r.json'], 'no such folder'),
    (['check', 'players/template.py', '--json', 'players'], 'it is a folder'),
    (['check', 'players/template.py', '--timeout', '0'], 'expected a positive number'),
])
def test_check_usage_errors(args, error):
    result = run(*args)
    assert result.returncode == 2 and error in result.stderr and not result.stdout
    assert len(result.stderr.strip().splitlines()) == 1


def test_results_the_grader_cannot_read(tmp_path):
    """A move of the student's own class cannot be read back; a cheat on the
    textbook in the student's process changes nothing, as the grader judges in its own."""
    path = student(tmp_path, 'class Move:\n    pass\n\n\n'
                   'def alpha_beta_search(state, game):\n    return Move()\n')
    passed, message = grade(path, 'alpha_beta_search on fig52')['alpha_beta_search on fig52']
    assert not passed and 'cannot read' in message, message
    cheat = student(tmp_path, 'import players.textbook as book\n\n\n'
                    'def alpha_beta_search(state, game):\n'
                    '    book.alpha_beta_search = lambda state, game: "a2"\n    return "a2"\n',
                    'cheat.py')
    passed, message = grade(cheat, 'alpha_beta_search on fig52')['alpha_beta_search on fig52']
    assert not passed and 'wrong move' in message, message
