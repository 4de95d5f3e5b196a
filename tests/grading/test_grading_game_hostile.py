"""Game classes the grader once passed without judging them (issue 39): moves kept in
an iterator, which the second call of actions finds empty; actions that answer
nothing when asked again; a to_move or a terminal_test that says something else
when asked again; a move that cannot be made, so that positions are not reached;
and a jail that forges its answers. aima-python's players ask a game's methods
more than once about one state: the grader asks each twice, fails a class whose
answers change, naming the position and both answers, and never counts a
position the class cannot reach with its own moves as agreement. Each runs at
every jail level, and a right class keeps its full marks."""

import pytest
from jails import LEVELS
from test_grading_game import SOLUTION, grade, reference  # noqa: F401 (a fixture)

pytestmark = pytest.mark.slow

ITERATOR = SOLUTION.replace(
    'moves=self.moves_of(board))', 'moves=iter(self.moves_of(board)))').replace(
    'return len(state.moves) == 0', 'return sum(state.board) == 0').replace(
    "return state.utility if player == 'MAX'", "return state.utility if player == 'MIN'")
"""Moves kept in an iterator (the game ends when the rows are empty), and a utility
of the wrong sign."""

CHANGING = SOLUTION + '''

def asked_before(seen, state):
    """Has this very state been asked about before? (seen: the states asked about)"""
    if any(other is state for other in seen):
        return True
    seen.append(state)
    return False


class Once(GameOfNim):
    """Lists the moves of a state the first time it is asked, and none after."""

    seen = []

    def actions(self, state):
        return [] if asked_before(self.seen, state) else super().actions(state)


class Turns(GameOfNim):
    """Names the player to move the first time it is asked about a state, the other after."""

    seen = []

    def to_move(self, state):
        if asked_before(self.seen, state):
            return 'MIN' if state.to_move == 'MAX' else 'MAX'
        return state.to_move


class Ends(GameOfNim):
    """Says the game goes on the first time it is asked about a state, that it is over after."""

    seen = []

    def terminal_test(self, state):
        return asked_before(self.seen, state) or super().terminal_test(state)


class Fails(GameOfNim):
    """Cannot take the last object of the second row once the first row is empty."""

    def result(self, state, move):
        if move == (1, 1) and state.board[0] == 0:
            raise ValueError('no such row')
        return super().result(state, move)


class Tires(GameOfNim):
    """Lists the moves only the first 8 times it is asked in a game, and changes the
    state result is given, so that the grader makes each state again from the start."""

    asked = 0

    def actions(self, state):
        self.asked += 1
        return state.moves if self.asked <= 8 else []

    def result(self, state, move):
        child = super().result(state, move)
        state.board[move[0]] -= move[1]  # and changes the state it was given
        return child
'''
"""Classes whose answers change between calls, and classes with moves they cannot make."""

FORGING = '''
import json
import os
import sys

from games import *


def found(name):
    """A local variable of the jail's, found on the stack."""
    frame = sys._getframe()
    while name not in frame.f_locals:
        frame = frame.f_back
    return frame.f_locals[name]


def field(request, name):
    """A field of the grader's request: the jail's record of it (its kind as KIND), or
    the message itself, as it came."""
    if isinstance(request, dict):
        return request[name]
    return request.KIND if name == 'type' else getattr(request, name)


def forge(answer, kind='said', field_name='positions'):
    """Answer the grader's requests in the jail's stead, from the one under way on: a
    perft with the reference's counts, each position with answer(index), in a message
    of kind whose field field_name lists them."""
    request, channel = found('request'), found('channel')
    while True:
        if field(request, 'type') == 'perft':
            lines = [{'type': 'perft_done', 'perft': [4, 9, 10], 'error': None, 'reference': None}]
        else:
            first = field(request, 'first')
            said = [answer(index)
                    for index in range(first, first + len(field(request, 'positions')))]
            lines = [{'type': kind, field_name: said, 'reference': None},
                     {'type': 'rules_done', 'error': None, 'reference': None}]
        os.write(4, ''.join(json.dumps(line) + '\\n' for line in lines).encode())
        try:
            request = channel.receive()
        except EOFError:
            os._exit(0)
'''
"""A student's file that answers the grader's requests itself, as they come."""

FORGER = FORGING + '''

START = {'to_move': '"MAX"', 'terminal': False, 'actions': [[0, 1], [0, 2], [0, 3], [1, 1]],
         'again': {'to_move': '[' * 3000 + ']' * 3000, 'terminal': 'no', 'actions': 7}}
GARBAGE = [{'unreached': {'making': 10 ** 9, 'method': 'result'}}, {'unreached': 'no'},
           {'unreached': {'making': True, 'method': 'actions'}}, {}, 7, None]


class GameOfNim(Game):
    """Answers the grader's questions about it itself: right at the start but with
    other answers when asked again (a label too long to be one among them), and
    garbage for every other position."""

    def __init__(self, board=(3, 1)):
        forge(lambda index: GARBAGE[index % len(GARBAGE)] if index else START)
'''
"""A class that writes the grader forged answers about its positions."""
SILENT_ON_RESULT = FORGING + '''

class GameOfNim(Game):
    """Says every position is reached, MAX to move and the game going on, and nothing
    of whether result changed the state it was given."""

    def __init__(self, board=(3, 1)):
        forge(lambda index: {'to_move': '"MAX"', 'terminal': False})
'''
"""A class that writes the grader answers silent on what result did."""

WRONG_KIND = FORGING + '''

class GameOfNim(Game):
    """Answers the grader's perft itself, rightly, and its questions about positions
    with calls of result, as if they were a search's."""

    def __init__(self, board=(3, 1)):
        forge(lambda index: ['"MAX"', [0, 1]], 'calls', 'calls')
'''
"""A class that writes the grader an answer of the wrong kind about its positions."""
WRONG_FIELD = FORGING + '''

class GameOfNim(Game):
    """Answers the grader's questions about positions itself, with a message whose
    positions are not a list."""

    def __init__(self, board=(3, 1)):
        forge(lambda index: {'to_move': '"MAX"'}, 'said', 'says')
'''
"""A class that writes the grader an answer about its positions without its field."""

PEEKING = SOLUTION.replace('return len(state.moves) == 0', 'return sum(state.board) <= 1') + '''
import sys


def asked():
    """The grader's request to the jail, found on the stack (None outside one)."""
    frame = sys._getframe()
    while frame is not None and 'request' not in frame.f_locals:
        frame = frame.f_back
    return None if frame is None else frame.f_locals['request']


def seen(state):
    """A state as a key: its board and the player to move."""
    return tuple(state.board), state.to_move


class Peeks(GameOfNim):
    """Remembers every position the grader's requests list, from every request so far
    (in perft too), and answers terminal_test from them (see peek)."""

    listed = {}
    over = {}

    def terminal_test(self, state):
        request = asked()
        if getattr(request, 'KIND', None) == 'positions':
            self.learn(request)
        return self.peek(state)

    def learn(self, request):
        """Note the state of each position the request lists, and whether the reference's
        game is over there if the request says."""
        ends = getattr(request, 'ends', None)
        for index, (parent, move) in enumerate(request.positions, request.first):
            before = self.initial if parent is None else self.listed[parent]
            self.listed[index] = before if move is None else self.result(before, tuple(move))
            if ends is not None:
                self.over[seen(self.listed[index])] = index in ends

    def peek(self, state):
        """Is the game over at state, as the requests said? Else, by its own wrong rule."""
        return super().terminal_test(state)


class PeeksAtEnds(Peeks):
    """Says the game is over where a request said the reference's is."""

    def peek(self, state):
        return self.over.get(seen(state), super().peek(state))


class PeeksAtChildren(Peeks):
    """Says the game goes on where a move of its own leads to a position a request listed."""

    def peek(self, state):
        listed = {seen(other) for other in self.listed.values()}
        if any(seen(self.result(state, move)) in listed for move in self.actions(state)):
            return False
        return super().peek(state)
'''
"""A class whose game ends too soon (with one object left), answering terminal_test
from what the grader's requests say of the reference's positions where it can."""

RULES = ('to_move', 'actions', 'result', 'terminal_test', 'utility')
"""The rules judged position by position (perft is judged as a count)."""
ALL = 'agrees with the reference at all 12 positions reachable from the start'
START = '[(0, 1), (0, 2), (0, 3), (1, 1)]'
"""The moves at the start, as a message shows them."""
CHANGES = {'Turns': {'to_move': "at the start: to_move gave 'MAX', then 'MIN' when asked again"},
           'Ends': {'terminal_test': 'at the start: terminal_test gave False, then True when '
                                     'asked again'}}
"""What the classes whose to_move or terminal_test changes fail."""
NOWHERE = ("after (0, 3); (1, 1): not reached with its own moves, nor any other position "
           "where the reference's game is over: utility was compared nowhere")


def failures(tmp_path, source, reference, name='GameOfNim', level='process'):
    """Grade the class name of source at the jail level; return {rule: message} of the
    checks it fails."""
    results = grade(tmp_path, source, reference, f'{name}(board=[3, 1])', timeout=5,
                    sandbox=level)
    return {rule: message for rule, (passed, message) in results.items() if not passed}


@pytest.mark.parametrize('level', LEVELS)
def test_moves_in_an_iterator_and_a_wrong_sign_lose_actions_and_utility(tmp_path, reference,
                                                                        level):
    assert failures(tmp_path, ITERATOR, reference, level=level) == {
        'actions': f'at the start: actions gave {START}, then [] when asked again',
        'utility': "after (0, 3); (1, 1): utility gave -1 to 'MAX' and 1 to 'MIN', the "
                   "reference's 1 to 'MAX' and -1 to 'MIN'"}


@pytest.mark.parametrize('level', LEVELS)
def test_a_right_class_keeps_its_marks_and_actions_that_say_nothing_again_fail(
        tmp_path, reference, level):
    results = grade(tmp_path, CHANGING, reference, timeout=5, sandbox=level)
    assert {rule: results[rule] for rule in RULES} == dict.fromkeys(RULES, (True, ALL))
    assert results['perft'][0]
    assert failures(tmp_path, CHANGING, reference, 'Once', level) == {
        'actions': f'at the start: actions gave {START}, then [] when asked again'}


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('name', CHANGES)
def test_a_to_move_or_terminal_test_that_changes_fails_its_check(tmp_path, reference, level,
                                                                 name):
    assert failures(tmp_path, CHANGING, reference, name, level) == CHANGES[name]


@pytest.mark.parametrize('level', LEVELS)
def test_a_move_result_cannot_make_fails_result_there_and_leaves_utility_unjudged(
        tmp_path, reference, level):
    failed = failures(tmp_path, CHANGING, reference, 'Fails', level)
    assert set(failed) == {'result', 'utility', 'perft'}, failed
    assert failed['result'].startswith('after (0, 3): result(state, (1, 1)) raised ValueError: '
                                       'no such row (student.py, line ')
    assert failed['utility'] == NOWHERE


@pytest.mark.parametrize('level', LEVELS)
def test_a_move_actions_no_longer_lists_fails_actions_where_it_was_listed(tmp_path, reference,
                                                                          level):
    failed = failures(tmp_path, CHANGING, reference, 'Tires', level)
    assert set(failed) == {'actions', 'result', 'utility', 'perft'}, failed
    assert failed['actions'].startswith('at the start: actions did not list (')
    assert failed['actions'].endswith(') when asked again')
    assert failed['utility'] == NOWHERE


@pytest.mark.parametrize('level', LEVELS)
def test_forged_answers_pass_no_rule_they_do_not_answer(tmp_path, reference, level):
    failed = failures(tmp_path, FORGER, reference, level=level)
    assert failed == {
        'to_move': "at the start: to_move gave 'MAX', then nothing when asked again",
        'actions': f'at the start: actions gave {START}, then [] when asked again',
        'terminal_test': 'at the start: terminal_test gave False, then nothing when asked again',
        'result': 'after (0, 1): not reached with its own moves, nor any other position after '
                  'a move: result was compared nowhere',
        'utility': NOWHERE}


@pytest.mark.parametrize('level', LEVELS)
def test_a_forged_answer_silent_on_result_fails_result(tmp_path, reference, level):
    failed = failures(tmp_path, SILENT_ON_RESULT, reference, level=level)
    assert failed['result'] == 'at the start: result(state, (0, 1)) said nothing the grader ' \
                               'can read'


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('name', ['PeeksAtEnds', 'PeeksAtChildren'])
def test_a_class_reading_the_reference_in_the_requests_scores_no_better(tmp_path, reference,
                                                                         level, name):
    honest = failures(tmp_path, PEEKING, reference, level=level)
    assert honest['terminal_test'] == "after (0, 3): terminal_test gave True, the reference's False"
    assert honest['perft'].startswith('counted 4, 8, 6 move sequences of 1 to 3 plies from the '
                                      "start, the reference's 4, 9, 10")
    assert set(honest) == {'terminal_test', 'perft'}, honest
    cheat = failures(tmp_path, PEEKING, reference, name, level)
    assert set(cheat) >= set(honest), cheat


@pytest.mark.parametrize('level', LEVELS)
@pytest.mark.parametrize('source, sent', [
    (WRONG_KIND, "a 'calls' message in answer to a 'positions' request"),
    (WRONG_FIELD, "a 'said' message without exactly the fields positions, reference: "
                  '{"type":"said","says":[{"to_move":"\\"MAX\\""}],"reference":n…')],
    ids=['wrong kind', 'wrong field'])
def test_an_answer_of_the_wrong_kind_or_shape_fails_every_rule_saying_what_was_sent(
        tmp_path, reference, level, source, sent):
    failed = failures(tmp_path, source, reference, level=level)
    assert failed == dict.fromkeys((*RULES, 'perft'), (
        f"the process ended without an answer (the jail sent {sent}); does the code write to "
        "the grader's pipe?"))
