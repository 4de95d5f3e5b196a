"""The course grader: its trees against values worked out by hand, and its diagnosis
of small buggy student files (each one classic mistake), crashes and hangs."""

import inspect
import json
import math
import os
import random
from collections.abc import Mapping

import pytest
from places import ROOT
from grader_made import checks, games

import variants
from games import Nim, StochasticGame
from games.tree import Fig52Game
from players.sandbox import jail
from players import grading, textbook
from players.grading.cases import (DEEP, DEPTH_TRAP, DEPTH_TRAP_EVALS, EARLY_END_EVALS,
                                   EARLY_END_SUCCS, EARLY_END_UTILS, FIVE_PLY_SUCCS,
                                   FIVE_PLY_UTILS, POINT_OF_VIEW_SUCCS, POINT_OF_VIEW_UTILS, TIE,
                                   tree, builtin_cases)
from players.grading.jailed.counting import counting
from players.grading.kinds import KINDS
from players.grading.jailed.plain import describe, state_key
from players.grading.models import (NEVER_PRUNES, NO_ALPHA, NO_BETA, NO_UPDATE, ROOT_ALPHA,
                                    STRICT, SWAPPED, AlphaBeta, EvaluatesByDefault, Minimax,
                                    MoverView, PastTheEnd)

SETTINGS = grading.Settings(timeout=2, move_timeout=2)


jail.prepare_jailer()
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


def grade(path, *names, settings=SETTINGS):
    """Grade path on the checks whose names contain one of names (all if none); return
    {check name: (passed, message)}."""
    chosen = [check for check in checks(SETTINGS)
              if not names or any(name in check.name for name in names)]
    report = grading.grade(path, settings, chosen, games(SETTINGS))
    return {result.check: (result.passed, result.message) for result in report.results}


def generated(search, game, **options):
    """The move and the names of the nodes search generates on a tree."""
    made = []
    proxy = counting(game, lambda state, move, new_state: made.append(new_state))
    move = search(proxy.initial, proxy, **options)
    return move, [proxy.node(state) for state in made]


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
    assert generated(textbook.alpha_beta_cutoff_search, DEPTH_TRAP, d=d,
                     eval_fn=table(DEPTH_TRAP, DEPTH_TRAP_EVALS))[0] == best


def table(game, evals):
    """An eval_fn for MAX: a leaf's utility, an inner node's value in evals."""
    return lambda state: (game.utility(state, 'MAX') if game.terminal_test(state)
                          else evals.get(game.node(state), 0))


def test_early_end_tree():
    """By hand, d=1: B is a finished game worth 1; C = min(C1 = 5, C2 = 7) = 5; D stops
    at D1 = -4 <= alpha = 5. A search that goes on below finished games finds no moves
    at B and scores it +infinity, so it chooses b."""
    game = tree(EARLY_END_SUCCS, EARLY_END_UTILS)
    evals = table(game, EARLY_END_EVALS)
    assert generated(textbook.alpha_beta_cutoff_search, game, d=1, eval_fn=evals) == (
        'c', ['B', 'C', 'C1', 'C2', 'D', 'D1'])
    assert generated(PastTheEnd.search, game, d=1, eval_fn=evals)[0] == 'b'


def test_point_of_view_tree():
    """By hand, with no eval_fn (each state scored by its utility for MAX: B and D are
    games going on, worth 0, and c ends the game at once, worth -3): d=0: b. d=1: B =
    min(4, 2) = 2; C = -3; D1 = 4 and D2 = 3 are > alpha = 2, so D = min(4, 3, 5) = 3: d.
    Scored for the player to move in it, C (MIN to move) is worth +3: c at d=0, and at
    d=1 alpha = 3 stops D at D2 = 3 <= alpha. Going on below C finds no moves (+infinity)
    and stops D at D1; evaluating every state (0 here) keeps b and stops D at D1 = 0."""
    game = tree(POINT_OF_VIEW_SUCCS, POINT_OF_VIEW_UTILS)
    assert generated(textbook.alpha_beta_cutoff_search, game, d=0) == ('b', ['B', 'C', 'D'])
    assert generated(textbook.alpha_beta_cutoff_search, game, d=1) == (
        'd', ['B', 'B1', 'B2', 'C', 'D', 'D1', 'D2', 'D3'])
    assert generated(MoverView.search, game, d=0) == ('c', ['B', 'C', 'D'])
    assert generated(MoverView.search, game, d=1) == (
        'c', ['B', 'B1', 'B2', 'C', 'D', 'D1', 'D2'])
    assert generated(PastTheEnd.search, game, d=1) == ('c', ['B', 'B1', 'B2', 'C', 'D', 'D1'])
    assert generated(EvaluatesByDefault.search, game, d=1) == (
        'b', ['B', 'B1', 'B2', 'C', 'D', 'D1'])


def test_four_ply_tree_needs_both_updates():
    """By hand: B11 = min(0, 7) = 0, B12 = 0, B1 = 0; B21 = 9, B22 = 6, B2 = 9; B = 0.
    C11 = 2, C12 = 3, C1 = 3; C21 = 0, C22 = 8, C2 = 8; C = 3: MAX plays c. Each of
    the pruning mistakes generates states of its own here."""
    game = tree(FIVE_PLY_SUCCS, FIVE_PLY_UTILS)
    right = generated(textbook.alpha_beta_search, game)
    assert right[0] == generated(textbook.minmax_decision, game)[0] == 'c'
    traces = [tuple(generated(mistake.model.search, game)[1])
              for mistake in (NO_ALPHA, NO_BETA, NO_UPDATE, ROOT_ALPHA, SWAPPED, NEVER_PRUNES,
                              STRICT)]
    assert len(set(traces)) == len(traces) and tuple(right[1]) not in traces


def test_deep_tree_cuts_off_at_two_depths():
    """B = 7 (B1 = 7); B2 stops at B21 = 9 >= beta 7, B3 at B31 = 7 (equal);
    C stops after C1 = 5 <= alpha 7."""
    assert generated(textbook.alpha_beta_search, DEEP) == (
        'b', ['B', 'B1', 'B11', 'B12', 'B2', 'B21', 'B3', 'B31', 'C', 'C1', 'C11', 'C12'])


def test_model_without_mistakes_is_the_textbook():
    for case in builtin_cases('alpha_beta_search') + builtin_cases('minmax_decision'):
        assert (generated(AlphaBeta.search, case.game)
                == generated(textbook.alpha_beta_search, case.game))
        assert (generated(Minimax.search, case.game)
                == generated(textbook.minmax_decision, case.game))
    for case in builtin_cases('alpha_beta_cutoff_search'):
        options = case.position.options
        assert (generated(AlphaBeta.search, case.game, **options)
                == generated(textbook.alpha_beta_cutoff_search, case.game, **options))


def test_real_positions_are_small_and_described():
    names = [check.name for check in checks(SETTINGS) if check.function == 'minmax_decision']
    assert sum('nim' in name for name in names) == 5
    assert sum('tictactoe' in name for name in names) == 1
    nim = Nim(piles=(1, 2))
    assert describe(nim, nim.initial) == 'P1:1,2'




# The grader on students' files: the textbook with one mistake made.

def plain(value):
    """A state as plain JSON data, the long way: what state_key's text is the
    canonical JSON of."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (tuple, list)):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {'dict': sorted(([plain(k), plain(v)] for k, v in value.items()), key=canonical)}
    if isinstance(value, (set, frozenset)):
        return {'set': sorted((plain(item) for item in value), key=canonical)}
    return {'repr': repr(value)[:200]}


def canonical(value):
    return json.dumps(value, separators=(',', ':'), sort_keys=True)


@pytest.mark.parametrize('name', ['tictactoe', 'nim', 'connect4', 'othello', 'kalah', 'hex',
                                  'breakthrough', 'dice-nim', 'backgammon'])
def test_a_state_key_is_the_canonical_json_of_the_plain_state(name):
    """Written at once, the key must still be the text both sides agreed on."""
    game, rng = variants.make(name), random.Random(name)
    state = game.initial
    for _ in range(40):
        assert state_key(state) == canonical(plain(state))
        if game.terminal_test(state):
            break
        chance = isinstance(game, StochasticGame) and not game.actions(state)
        state = (game.outcome(state, rng.choice(list(game.chances(state)))) if chance
                 else game.result(state, rng.choice(list(game.actions(state)))))
    for odd in (1.5, -0.0, math.inf, math.nan, 'é☃𝄞"\\', {3, 1, 2}, frozenset('ab'),
                {'b': 1, 'a': (2, None), 3: [True, False]}, object(), 2 ** 70, Nim):
        assert state_key(odd) == canonical(plain(odd)), odd


def test_textbook_copy_passes_every_check(tmp_path):
    report = grading.grade(student(tmp_path, TEXTBOOK + PLAYER), SETTINGS, checks(SETTINGS),
                           games(SETTINGS))
    assert len(report.results) == len(checks(SETTINGS)) and report.loads == 1
    failed = {result.check: result.message for result in report.results if not result.passed}
    assert not failed
    assert report.points == report.max_points == 50


@pytest.mark.parametrize('edits, check, diagnosis', [
    ([('if v >= beta:', 'if False:'), ('if v <= alpha:', 'if False:')],
     'alpha_beta_search on fig52', 'never prunes'),
    ([('v >= beta', 'v > beta'), ('v <= alpha', 'v < alpha')],
     'alpha_beta_search on tie', 'prunes on strict inequality'),
    ([('alpha = max(alpha, v)', 'pass'), ('beta = min(beta, v)', 'pass')],
     'alpha_beta_search on deep-pruning', 'never updates alpha/beta'),
    ([('alpha = max(alpha, v)', 'pass')], 'alpha_beta_search on four-ply', 'never updates alpha'),
    ([('beta = min(beta, v)', 'pass')], 'alpha_beta_search on four-ply', 'never updates beta'),
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
    ([('eval_fn or (lambda state: game.utility(state, player))',
       'eval_fn or (lambda state: game.evaluate(state, player))')],
     'alpha_beta_cutoff_search on point of view (d=1)', 'evaluate by default:'),
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


def test_figure_5_2_is_graded_with_the_books_moves(tmp_path):
    """The grader's Figure 5.2 is the book's (and the tutorial's): MAX chooses a1 of
    a1, a2 and a3 at the root."""
    results = grade(student(tmp_path, TEXTBOOK), 'on fig52')
    assert len(results) == 3 and all(passed and message.startswith("chose 'a1' ")
                                     for passed, message in results.values()), results


def test_a_search_that_never_calls_result_is_told_so(tmp_path):
    path = student(tmp_path, 'def alpha_beta_search(state, game):\n    return "a1"\n')
    [(passed, message)] = grade(path, 'alpha_beta_search on fig52').values()
    assert not passed and 'no call of result reached the game it was given' in message, message
    assert 'prunes too' not in message and 'wrong move' not in message


FAULTS = [
    ('while True:\n        pass', 'timed out'),
    ('return 1 / 0', 'raised ZeroDivisionError: division by zero (student.py, line 2, in '
                     'alpha_beta_search)'),
    ('import sys; sys.exit(3)', 'called sys.exit(3)'),
    ('import os; os._exit(1)', 'ended without an answer'),
    ('raise NotImplementedError', 'not implemented'),
]


@pytest.mark.parametrize('body, diagnosis', FAULTS)
def test_faults_fail_a_check_not_the_grader(tmp_path, body, diagnosis):
    path = student(tmp_path, f'def alpha_beta_search(state, game):\n    {body}\n')
    # only the loop waits out its limit; the others answer at once, well within 5 s
    settings = grading.Settings(timeout=0.5 if diagnosis == 'timed out' else 5)
    results = grade(path, 'alpha_beta_search on fig52', settings=settings)
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


def test_template_is_not_implemented():
    report = grading.grade(os.path.join(ROOT, 'players', 'grading', 'template.py'), SETTINGS,
                           checks(SETTINGS), games(SETTINGS))
    assert len(report.results) == len(checks(SETTINGS)) and report.points == 0
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


@pytest.mark.parametrize('source, error', [
    ('def minmax_decision(state, game):\n    return (\n', "SyntaxError: '(' was never closed "
                                                          '(student.py, line 2)'),
    ('raise RuntimeError("at import")\n', 'RuntimeError: at import (student.py, line 1)'),
])
def test_unloadable_files_get_a_report_that_says_why(tmp_path, source, error):
    report = grading.grade(student(tmp_path, source), SETTINGS, checks(SETTINGS), games(SETTINGS))
    assert error in report.load_error and report.points == 0 and report.max_points == 50
    assert report.load_error.count('(student.py, line') == 1  # the place, said once
    assert all(error in result.message for result in report.results)


def test_a_missing_function_scores_zero_and_counts(tmp_path):
    report = grading.grade(student(tmp_path, TEXTBOOK), SETTINGS, checks(SETTINGS), games(SETTINGS))
    assert report.missing == ['player'] and report.max_points == 50 and report.points == 43
    assert 'FAIL 0/2 player: legal moves: player is not defined in student.py' in report.lines()
    only = grading.Settings(functions=('minmax_decision',))
    report = grading.grade(student(tmp_path, TEXTBOOK), only)
    assert report.passed and {r.function for r in report.results} == {'minmax_decision'}


def test_every_kind_of_check_made_is_registered_and_every_kind_registered_is_made():
    anchored = grading.make_checks(grading.Settings(anchors=(('random', 0), ('ab2', 70))),
                                   games(SETTINGS))
    made = {check.kind for check in checks(SETTINGS) + anchored}
    assert made | {'game'} == set(KINDS)  # the game checks: test_grading_game.py
