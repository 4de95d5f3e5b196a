"""The jail's side of grading a student's Game class: make it, play the grader's
moves on it, and say what its methods answer at each position reached, as plain
data; and count its move sequences to a small depth (perft).

A request is {"rules": the class's call, such as "GameOfNim(board=[3, 1])",
"seconds": the time each call of the class's methods may take} with either
"positions" (each [the index of the position before it, or null for the start;
the move from there, as plain data], numbered from "first", every position
after the one before it) and "ends" (the indexes of the positions where the
reference's game is over), answered by chunks {"positions": [answer, ...]} and
then {"done": true}; or "perft" (a depth) and "limit" (the most move sequences
to count), answered by {"done": true, "perft": [count at depth 1, ...]} (with
"stopped" past the limit, or "error"). A class that cannot be made is answered
by {"done": true, "error": why}.

An answer says, for a position: "to_move" (the label, as plain.state_key's
text), "terminal", "actions" (as plain data; asked only where the reference's
game goes on), "utilities" ([[label, value], ...] for each label to_move has
named so far; asked only at the reference's ends), "mutated" (the result that
made it changed the state it was given), "errors" (method -> why it failed
here), or only "unreached" (the position before it was not reached, or its
move was not among the actions there). Each move is made with the class's own
action that equals it as plain data, so [0, 1] is (0, 1). The states reached
are kept for the positions after them, until a result changes the state it is
given: from then on each is made afresh from the start."""

from __future__ import annotations

import copy
import json
import math
import numbers
import signal
from typing import Any, Callable, Iterator

from games.specs import parse_call
from players.remote.plain_json import canonical, to_plain

from .plain import state_key

CHUNK = 1 << 15
"""The most characters of answers in one message (a jail's message is at most 64 KiB)."""
TEXT_LIMIT = 200
"""The most characters of a player's label or of a value that is not a number."""
MOVES_LIMIT = 5000
"""The most moves actions may return at one position."""
PLAYERS_LIMIT = 8
"""The most players to_move may name."""
PROJECT = ('games', 'variants', 'players')
"""The project's packages: a class of theirs (lent by `from games import *`) is not
the student's."""


class Hung(BaseException):
    """Raised in a method of the student's class that runs past its time: a
    BaseException, so that the method's own `except Exception` lets it pass."""


class Failed(Exception):
    """A call of the student's class that raised, hung or answered nonsense: why, in words."""


def value_data(value: Any) -> float | int | str:
    """A utility as plain data, the same on both sides: a finite number as a number
    (a whole one as an int), anything else as the text of its repr (so inf is 'inf')."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            number = float(value)
        except (OverflowError, ValueError, TypeError):
            number = math.nan
        if math.isfinite(number):
            return int(number) if number.is_integer() and abs(number) < 2 ** 53 else number
    return _shown(value)


def _shown(value: Any) -> str:
    """A short text for something the student's class returned."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails
        text = f'a {type(value).__name__}'
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 1] + '…'


_armed = False
"""Is a call of the student's code under way? The alarm stops only such a call."""


def _on_alarm(signum, frame):
    if _armed:
        raise Hung


class Timed:
    """Calls of the student's code, each within a time limit; a method that hung
    once is not called again."""

    def __init__(self, explain: Callable[[BaseException], str], seconds: float):
        self.explain, self.seconds = explain, seconds
        self.hung: set[str] = set()

    def call(self, method: str, function: Callable, *args) -> Any:
        """Return function(*args), a call of the student's method, within the time
        limit; raise Failed saying what went wrong."""
        global _armed
        if method in self.hung:
            raise Failed('not called again after it hung')
        _armed = True
        signal.setitimer(signal.ITIMER_REAL, self.seconds)
        try:
            return function(*args)
        except Hung:
            self.hung.add(method)
            raise Failed(f'did not return within {self.seconds:g} s (an infinite loop, or too '
                         'slow)') from None
        except Failed:
            raise
        except BaseException as error:  # whatever the student's code does
            said = self.explain(error)
            raise Failed(said if isinstance(error, SystemExit) else f'raised {said}') from None
        finally:
            _armed = False
            signal.setitimer(signal.ITIMER_REAL, 0)


class StudentGame(Timed):
    """The student's game, each call of its methods timed."""

    def __init__(self, game: Any, explain: Callable[[BaseException], str], seconds: float):
        super().__init__(explain, seconds)
        self.game = game
        self.labels: dict[str, Any] = {}
        """Each player to_move has named, by its text, in order of first appearance."""
        self.links: dict[int, tuple] = {}
        """Each position asked about, by its index: (the index of the position before
        it or None, the move from there)."""
        self.states: dict[int, Any] = {}
        """The state of each position reached, by its index, while keeping."""
        self.keeping = True
        """Are states kept? Not once a result has changed the state it was given."""
        self.dead: set[int] = set()
        """The positions whose moves cannot be made: not reached, or actions failed there."""
        self.start = self.call('initial', lambda: copy.deepcopy(game.initial))

    def _actions(self, state) -> list:
        """The class's actions at state, each with its plain data and that data's
        canonical text: [(action, data, text), ...]."""
        moves = self.call('actions', lambda: list(self.game.actions(state)))
        if len(moves) > MOVES_LIMIT:
            raise Failed(f'returned {len(moves)} moves, more than the grader takes '
                         f'({MOVES_LIMIT})')
        return self.call('actions', lambda: [_plain(move) for move in moves])

    def result(self, state, move) -> tuple[Any, bool]:
        """The state after move, and whether result changed the state it was given."""
        before = self.call('result', state_key, state)
        child = self.call('result', self.game.result, state, move)
        return child, self.call('result', state_key, state) != before

    def to_move(self, state) -> str:
        """The text of the player to move, kept with the player's label."""
        label = self.call('to_move', self.game.to_move, state)
        text = self.call('to_move', state_key, label)[:TEXT_LIMIT]
        if text not in self.labels:
            if len(self.labels) == PLAYERS_LIMIT:
                raise Failed(f'named more than {PLAYERS_LIMIT} players')
            self.labels[text] = label
        return text

    def terminal_test(self, state) -> bool:
        """Is the game over at state?"""
        return self.call('terminal_test', lambda: bool(self.game.terminal_test(state)))

    def utility(self, state) -> list:
        """[[label, value], ...]: the utility of state for each player named so far."""
        return [[text, self.call('utility', lambda: value_data(self.game.utility(state, label)))]
                for text, label in list(self.labels.items())]

    def position(self, index: int, parent: int | None, move: Any, end: bool) -> dict:
        """What the class says at position index, reached by move from position parent
        (None for the start); see the module's docstring."""
        self.links[index] = (parent, move)
        said = self._reach(index)
        if 'state' not in said:
            self.dead.add(index)
            return said
        state = said.pop('state')
        asked = [('to_move', self.to_move), ('terminal', self.terminal_test),
                 ('utilities', self.utility) if end else ('actions', self.actions)]
        errors = {}
        for key, method in asked:
            try:
                said[key] = method(state)
            except Failed as failure:
                errors[method.__name__] = str(failure)
        if 'actions' in errors:
            self.dead.add(index)
        return {**said, 'errors': errors} if errors else said

    def actions(self, state) -> list:
        """The plain data of the actions at state."""
        return [data for _, data, _ in self._actions(state)]

    def _reach(self, index: int) -> dict:
        """{'state': the state of position index, 'mutated': whether the result that
        made it changed the state it was given}, or the answer of a position not reached."""
        parent, move = self.links[index]
        if parent is None:
            return {'state': self._keep(index, self.call('initial', copy.deepcopy, self.start))}
        if parent in self.dead:
            return {'unreached': True}
        try:
            state = self._state(parent)
            action = self._action(state, move)
        except Failed:  # the position before could not be reached again
            return {'unreached': True}
        if action is None:
            return {'unreached': True}
        try:
            child, mutated = self.result(state, action)
        except Failed as failure:
            return {'errors': {'result': str(failure)}}
        if mutated:  # the states kept may share what it changed: make each one afresh
            self.keeping = False
            self.states.clear()
        return {'state': self._keep(index, child), 'mutated': mutated}

    def _keep(self, index: int, state: Any) -> Any:
        """Keep the state of position index for the positions after it, unless a result
        changed its state (then each is made afresh from the start)."""
        if self.keeping:
            self.states[index] = state
        return state

    def _state(self, index: int) -> Any:
        """The state of a position reached before: the one kept, or one made again by
        its moves from the start."""
        if index in self.states:
            return self.states[index]
        moves = []
        while self.links[index][0] is not None:
            index, move = self.links[index]
            moves.append(move)
        state = self.call('initial', copy.deepcopy, self.start)
        for move in reversed(moves):
            action = self._action(state, move)
            if action is None:
                raise Failed('a move it made before is not among its actions now')
            state = self.call('result', self.game.result, state, action)
        return state

    def _action(self, state: Any, move: Any) -> Any:
        """The class's own action at state that is move as plain data, or None."""
        wanted = canonical(move)
        return next((action for action, _, text in self._actions(state) if text == wanted), None)

    def perft(self, depth: int, limit: int) -> dict:
        """The number of move sequences of each length up to depth from the start
        (not going on past the end of a game), as a search makes them."""
        counts = [0] * depth
        try:
            stack = [(self.call('initial', copy.deepcopy, self.start), 0)]
            while stack:
                state, ply = stack.pop()
                if ply == depth or self.terminal_test(state):
                    continue
                for move, _, _ in self._actions(state):
                    stack.append((self.call('result', self.game.result, state, move), ply + 1))
                    counts[ply] += 1
                    if sum(counts) > limit:
                        return {'perft': counts, 'stopped': True}
        except Failed as failure:
            return {'perft': counts, 'error': str(failure)}
        return {'perft': counts}


def _plain(move) -> tuple[Any, Any, str]:
    """A move of the student's with its plain data and that data's canonical text."""
    try:
        data = to_plain(move)
    except TypeError:
        raise Failed(f'returned {_shown(move)}, which is not a move as plain data '
                     '(numbers, strings, tuples or lists of them)') from None
    return move, data, canonical(data)


def _json(said: dict) -> str | None:
    """An answer as JSON text, or None if it cannot be written (nested too deep)."""
    try:
        return json.dumps(said)
    except (ValueError, RecursionError):
        return None


_made: dict[str, StudentGame | str] = {}
"""The student's game of each call, made once, or why it cannot be made."""


def make(module, spec: str, explain: Callable, seconds: float, filename: str) -> StudentGame | str:
    """The student's game of a call such as 'GameOfNim(board=[3, 1])', or why it cannot be made."""
    if spec not in _made:
        name, keywords = parse_call(spec, 'game')
        cls = vars(module).get(name)
        if not isinstance(cls, type):
            _made[spec] = f'{filename} has no class {name}'
            return _made[spec]
        home = str(getattr(cls, '__module__', ''))
        if home.split('.')[0] in PROJECT:
            _made[spec] = f'{filename} has no class {name} of its own ({name} is {home}.{name})'
            return _made[spec]
        try:
            signal.signal(signal.SIGALRM, _on_alarm)
            game = Timed(explain, seconds).call('__init__', lambda: cls(**(keywords or {})))
            _made[spec] = StudentGame(game, explain, seconds)
        except Failed as failure:
            _made[spec] = f'{spec}: {failure}'
    return _made[spec]


def answer(module, request: dict, explain: Callable, filename: str) -> Iterator[dict]:
    """Answer a request about the student's game class (see the module's docstring)."""
    game = make(module, request['rules'], explain, request['seconds'], filename)
    if isinstance(game, str):
        yield {'done': True, 'error': game}
        return
    game.seconds = request['seconds']
    signal.signal(signal.SIGALRM, _on_alarm)
    if 'perft' in request:
        yield {'done': True, **game.perft(request['perft'], request['limit'])}
        return
    ends, first = set(request['ends']), request['first']
    chunk, size = [], 0
    for index, (parent, move) in enumerate(request['positions'], first):
        said = game.position(index, parent, move, index in ends)
        text = _json(said)
        if text is None or len(text) > CHUNK:
            said = {'errors': {'actions': 'returned more moves than the grader takes '
                                          f'({CHUNK} characters of them)'}}
            text = json.dumps(said)
        chunk.append(said)
        size += len(text) + 1
        if size > CHUNK:
            yield {'positions': chunk}
            chunk, size = [], 0
    if chunk:
        yield {'positions': chunk}
    yield {'done': True}
