"""The grader's verdicts on students' files written in several styles (tests/students):
correct code passes however it is written, each typical bug gets the verdict and
the message a good TA would give, and nothing a file does earns it marks it has
not earned: student code runs only in a jail, and the reference searches are out
of its reach."""

import os

import pytest
from jails import LEVELS
from places import TESTS
from grader_made import checks, games

from players.sandbox import jail, level_choice
from players import grading

pytestmark = pytest.mark.slow

STUDENTS = os.path.join(TESTS, 'students')
SETTINGS = grading.Settings(timeout=2, move_timeout=2, sandbox='process')


jail.prepare_jailer()


def grade(name, *functions, settings=SETTINGS):
    """Grade a student's file on the checks of functions (all if none)."""
    chosen = [check for check in checks(SETTINGS) if not functions or check.function in functions]
    return grading.grade(os.path.join(STUDENTS, name), settings, chosen, games(SETTINGS))


def messages(report):
    """{check: (passed, message)} of a report."""
    return {result.check: (result.passed, result.message) for result in report.results}


@pytest.mark.parametrize('name, functions', [
    ('eager_children.py', ('minmax_decision', 'alpha_beta_search')),
    ('negamax_copy.py', ('alpha_beta_search',)),
    ('cutoff_correct.py', ('alpha_beta_cutoff_search',)),
    ('star_import_own.py', ('minmax_decision',)),
])
def test_correct_code_in_any_style_passes(name, functions):
    """Children made before they are searched (minimax, and alpha-beta at its root), a
    negamax in a class that deep-copies the game, AIMA's `from games import *`."""
    report = grade(name, *functions)
    assert report.results and report.passed, [r.message for r in report.results if not r.passed]


def test_children_made_too_early_are_named():
    chosen = [c for c in checks(SETTINGS) if c.name == 'alpha_beta_search on deep-pruning']
    report = grading.grade(os.path.join(STUDENTS, 'eager_everywhere.py'), SETTINGS, chosen,
                           games(SETTINGS))
    [(passed, message)] = messages(report).values()
    assert not passed and message.startswith('children made too early: it made B22 before '
                                             'searching its first sibling, but the textbook stops '
                                             'at B2 once v = 9 >= beta = 7'), message


@pytest.mark.parametrize('name, check, start', [
    ('no_alpha_update.py', "alpha_beta_search on simple-nim 'P1: 12'", 'never updates alpha:'),
    ('swapped_bounds.py', 'alpha_beta_search on fig52', 'alpha and beta swapped:'),
    ('mover_view.py', 'minmax_decision on deep-pruning', 'wrong point of view:'),
    ('cutoff_no_terminal.py', 'alpha_beta_cutoff_search on early-end (d=1)',
     'searches past the end of the game:'),
    ('cutoff_ignores_test.py', 'alpha_beta_cutoff_search on given cutoff_test',
     'ignores cutoff_test:'),
    ('cutoff_mover_view.py', 'alpha_beta_cutoff_search on point of view (d=1)',
     'default evaluation from the wrong point of view:'),
    ('transposition.py', "minmax_decision on nim 'P1: 3 0 1'",
     "generated some states fewer times than the textbook: P1: 0 0 0 3 times, the textbook 6 "
     "times"),
    ('double_result.py', 'minmax_decision on fig52',
     'generated some states more often than the textbook: B1 twice, the textbook once'),
    ('keyerror.py', 'alpha_beta_search on fig52',
     "raised KeyError: 'MIN' (keyerror.py, line 9, in min_value)"),
    ('exits.py', 'minmax_decision on fig52', 'called sys.exit(3) (exits.py, line 7'),
    ('exits.py', 'alpha_beta_search on fig52', 'the process ended without an answer'),
    ('hostile_result.py', 'alpha_beta_search on fig52', 'returned <student.Payload object'),
])
def test_each_bug_gets_its_diagnosis(name, check, start):
    function = check.split(' on ')[0]
    chosen = [c for c in checks(SETTINGS) if c.name == check]
    report = grading.grade(os.path.join(STUDENTS, name), SETTINGS, chosen, games(SETTINGS))
    [(passed, message)] = messages(report).values()
    assert not passed and message.startswith(start), message
    assert function in check


def test_a_default_evaluation_for_the_player_to_move_fails_wherever_it_shows():
    """AIMA's default eval_fn scores a state for the player to move at the root. Scoring
    it for the player to move in it goes wrong only where the opponent is to move: on
    the point-of-view tree (cut-off states at d=0, a game over right after the root's
    move at d=1) and on the real positions where the player to move can end the game at
    once, and nowhere else; each FAIL line names the mistake, alone on the tree. (In
    Nim, where evaluate is 0, a search that scores every state with evaluate chooses
    the same move there, and the line names both.)"""
    report = grade('cutoff_mover_view.py', 'alpha_beta_cutoff_search')
    failed = {check: message for check, (passed, message) in messages(report).items()
              if not passed}
    tree = ['alpha_beta_cutoff_search on point of view (d=0)',
            'alpha_beta_cutoff_search on point of view (d=1)']
    ending = [check.name for check in checks(SETTINGS) if check.case and 'end the game at once'
              in check.case.note]
    assert len(ending) == 5  # every default variant without chance but Grundy's game
    assert sorted(failed) == sorted(tree + ending)
    mistake = 'default evaluation from the wrong point of view'
    for check in tree:
        assert failed[check].startswith(f'{mistake}: it scores a state for the player to move '
                                        'in it'), failed[check]
    for check in ending:
        assert mistake in failed[check].split(':')[0].split(' or '), failed[check]


def test_a_hostile_result_is_never_unpickled_or_compared():
    grade('hostile_result.py', 'alpha_beta_search')
    assert not os.path.exists('/tmp/grader-pwned')


def test_deleted_functions_score_zero_and_count_in_the_maximum():
    report = grade('only_alpha_beta.py')
    assert report.missing == ['minmax_decision', 'alpha_beta_cutoff_search', 'player']
    assert report.points == 10 and report.max_points == 50 and not report.passed


def test_the_player_checks_play_the_instructors_variants():
    settings = grading.Settings(timeout=2, move_timeout=2, functions=('player',),
                                variants=('simple-nim', 'connect4'))
    report = grading.grade(os.path.join(STUDENTS, 'crashes_at_connect4.py'), settings)
    passed, message = messages(report)['player: legal moves']
    assert not passed and message.startswith('connect4: playing X, error after 0 moves: '
                                             'ValueError: connect four is not done yet '
                                             '(crashes_at_connect4.py, line 6)'), message


def test_a_slow_player_has_a_limit_per_move():
    """0.05 s a move is far inside a 0.5 s limit, whatever the games take in all."""
    settings = grading.Settings(move_timeout=0.5, functions=('player',), variants=('nim',))
    report = grading.grade(os.path.join(STUDENTS, 'slow_player.py'), settings)
    legal = messages(report)['player: legal moves']
    assert legal[0], legal
    assert sum(result.seconds for result in report.results) > 0.5
    assert '0.5 s for each move of the player' in report.lines()[0]


def test_the_player_checks_play_fewer_games_when_their_budget_is_spent():
    """A player slow at every move, but inside the limit per move, cannot hold up the
    grading of a class: once the budget is spent, each check plays only its first
    round of games and is judged on it, saying so."""
    settings = grading.Settings(move_timeout=0.5, functions=('player',),
                                variants=('nim', 'tictactoe'), player_budget=0.5)
    report = grading.grade(os.path.join(STUDENTS, 'slow_player.py'), settings)
    said = messages(report)
    cut = "those that fit in the player checks' 0.5 s (see --player-budget)"
    assert said['player: legal moves'][0]
    passed, message = said['player: gauntlet']
    assert message == ('scored 2 of 6 points (33%: 2/2 against random, 0/2 against ab2, 0/2 '
                       'against ab3); the pass mark is 60%; judged on 6 of 12 games (1 of 2 '
                       f'rounds), {cut}'), message
    assert report.seconds < 10 and '0.5 s for the games of the player checks' in report.lines()[0]


def test_a_player_inside_its_time_is_never_failed_by_the_budget():
    """A player that deepens for a twenty-fifth of its time a move (0.4 s of 10 s) needs
    more than the budget for all the player checks' games: they judge it on the games
    that fit, saying so, and it passes. The limit per move is a twentieth of the
    default, the budget a fortieth."""
    settings = grading.Settings(move_timeout=0.5, functions=('player',), player_budget=1.5)
    report = grading.grade(os.path.join(STUDENTS, 'deepens_for_a_while.py'), settings)
    said = messages(report)
    assert report.passed, said
    assert any("those that fit in the player checks' 1.5 s" in message
               for _, message in said.values()), said


@pytest.mark.parametrize('level', LEVELS)
def test_a_game_over_before_the_students_first_move_leaves_its_jail_in_step(level):
    """On one pile the player to move takes it all: in the gauntlet's game where the
    student plays P1, ab2 (P2, to move after the opening's ply) wins before the
    student's first move, and the next game, in the same jail, is graded as any other."""
    settings = grading.Settings(move_timeout=2, functions=('player',), sandbox=level,
                                variants=('nim(piles=(20,))',), player_budget=10)
    report = grading.grade(os.path.join(STUDENTS, 'solves_small_games.py'), settings)
    said = messages(report)
    assert report.passed and report.points == report.max_points == 5, said
    assert said['player: gauntlet'][1].startswith(
        'scored 4 of 6 points (67%: 2/2 against random, 1/2 against ab2, 1/2 against ab3)')


def test_after_a_timeout_a_function_is_skipped():
    settings = grading.Settings(timeout=0.2, move_timeout=0.2)
    report = grading.grade(os.path.join(STUDENTS, 'hangs.py'), settings, checks(SETTINGS),
                           games(SETTINGS))
    by_function = {}
    for result in report.results:
        by_function.setdefault(result.function, []).append(result.message)
    for function, said in by_function.items():
        assert 'timed out after 0.2 s' in said[0] or 'no move within 0.2 s' in said[0], said[0]
        assert all(message.startswith('skipped after a timeout in') for message in said[1:])
    assert report.loads == 4 and report.seconds < 4


def test_a_runaway_search_is_stopped():
    chosen = [c for c in checks(SETTINGS) if c.name == 'minmax_decision on fig52']
    report = grading.grade(os.path.join(STUDENTS, 'runaway.py'), SETTINGS, chosen, games(SETTINGS))
    [(passed, message)] = messages(report).values()
    assert not passed and message.startswith('stopped after 220 states, where the textbook '
                                             'generates 12'), message


def test_a_file_that_hangs_at_import_gets_a_report():
    settings = grading.Settings(timeout=0.3)
    report = grading.grade(os.path.join(STUDENTS, 'hangs_at_import.py'), settings, checks(SETTINGS),
                           games(SETTINGS))
    assert report.load_error.startswith('did not load within 0.3 s')
    assert report.points == 0 and report.max_points == 50


@pytest.mark.parametrize('name, what', [
    ('imports_textbook.py', 'imports players.textbook'),
    ('reads_source.py', 'reads players/textbook.py'),
    ('star_import.py', "calls games.alpha_beta_search, the textbook's own"),
])
def test_the_reference_implementations_are_refused(name, what):
    report = grade(name)
    assert report.reference.startswith(what), report.reference
    assert report.points == 0
    assert all("the project's reference implementations are not allowed" in result.message
               for result in report.results)


def test_the_instructor_may_allow_the_reference_implementations():
    settings = grading.Settings(allow_reference=True, functions=('minmax_decision',))
    chosen = [c for c in checks(SETTINGS) if c.name == 'minmax_decision on fig52']
    report = grading.grade(os.path.join(STUDENTS, 'imports_textbook.py'), settings, chosen,
                           games(SETTINGS))
    assert report.passed and report.reference is None


@pytest.mark.skipif(level_choice.problem('bwrap') is not None, reason=str(level_choice.problem('bwrap')))
def test_in_bubblewrap_the_reference_searches_are_not_there():
    settings = grading.Settings(sandbox='bwrap', allow_reference=False)
    chosen = [c for c in checks(SETTINGS) if c.name in ('alpha_beta_search on fig52',
                                                'minmax_decision on fig52')]
    report = grading.grade(os.path.join(STUDENTS, 'eager_children.py'), settings, chosen,
                           games(SETTINGS))
    assert report.passed
    report = grading.grade(os.path.join(STUDENTS, 'imports_textbook.py'), settings, chosen,
                           games(SETTINGS))
    assert report.reference == 'imports players.textbook'
