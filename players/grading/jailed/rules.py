"""The jail's side of grading a student's Game class: make it, play the grader's
moves on it, and say what its methods answer at each position reached, as plain
data; and count its move sequences to a small depth (perft).

A request (see messages) names the class's call, such as "GameOfNim(board=[3, 1])",
and how long each call of its methods may take: a PerftRequest (a depth and a limit,
see perft.count_sequences) is answered by PerftDone, the count at each depth or why
not; a PositionsRequest (positions numbered from "first", each the index of the one
before it, or null for the start, and the move from there, as plain data) by chunks
of PositionAnswers, then RulesDone (with why, if the class cannot be made). A request
says nothing of what the reference's methods say: the grader asks perft first, and
the positions ply by ply, so that the moves from a position are sent only once it
has been answered.

An answer says, for a position reached: "to_move" (the label, as
plain.state_key's text), "terminal", "actions" (as plain data; asked everywhere, so
that the positions after it are reached whatever terminal_test says), "utilities"
([[label, value], ...] for each label to_move has named so far; asked unless the
class's terminal_test said the game goes on, see goes_on), "mutated" (the result
that made it changed the state it was given), "errors" (method -> why it failed
here) and "again" (key -> what the method said when asked again, where it said
something else): each method is asked twice, as aima-python's players ask them
more than once about one state. A position not reached is answered by only
"unreached": true where no move could be made from the position before it (not
reached, or its actions failed), else {"making": the index of the position on its
way whose move could not be made, "method": "actions" (the move was not among
them, "why" null, or actions failed) or "result" (result failed), "why": how it
failed}.

Each move is made with the class's own action that equals it as plain data, so
[0, 1] is (0, 1), among the actions it first gave there. The states reached and
those actions are kept for the positions after them, until a result changes the
state it is given: from then on each is made afresh from the start, asking
actions again."""

from __future__ import annotations

import copy
import json
import math
import numbers
import signal
from types import ModuleType
from typing import Any, Callable, Iterator

from games.specs import parse_call
from players.remote.plain_json import canonical, to_plain

from .messages import (Answer, PerftDone, PerftRequest, PositionAnswers, PositionsRequest,
                       RulesDone)
from .perft import count_sequences
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


def goes_on(said: dict) -> bool:
    """Did terminal_test say at a position, both times it was asked, that the game goes
    on? Only there is utility not asked, as a search would not ask it."""
    again, errors = said.get('again'), said.get('errors')
    changed = isinstance(again, dict) and 'terminal' in again
    failed = isinstance(errors, dict) and 'terminal_test' in errors
    return said.get('terminal') is False and not changed and not failed


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


class Unreached(Exception):
    """A position that cannot be reached, with its answer (see the module's docstring)."""

    def __init__(self, making: int | None = None, method: str = '', why: str | None = None):
        super().__init__()
        self.answer = {'unreached': True if making is None else
                       {'making': making, 'method': method, 'why': why}}


class Listed(list):
    """The plain data of the actions at a state, with the class's own actions by the
    canonical text of their data (own)."""

    def __init__(self, moves: list):
        super().__init__(data for _, data, _ in moves)
        self.own = {text: action for action, _, text in reversed(moves)}


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
        self.kept: dict[int, tuple[Any, dict]] = {}
        """The state of each position reached and the class's own actions there, as
        first given (see Listed), by the position's index, while keeping."""
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

    def actions(self, state) -> Listed:
        """The actions at state, as plain data and as the class's own."""
        return Listed(self._actions(state))

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

    def position(self, index: int, parent: int | None, move: Any) -> dict:
        """What the class says at position index, reached by move from position parent
        (None for the start); see the module's docstring."""
        self.links[index] = (parent, move)
        try:
            state, said = self._reach(index)
        except Unreached as unreached:
            self.dead.add(index)
            return unreached.answer
        self._ask('to_move', self.to_move, state, said)
        self._ask('terminal', self.terminal_test, state, said)
        moves = self._ask('actions', self.actions, state, said)
        if not goes_on(said):
            self._ask('utilities', self.utility, state, said)
        if moves is None:
            self.dead.add(index)
        elif self.keeping:
            self.kept[index] = (state, moves.own)
        return said

    @staticmethod
    def _ask(key: str, method: Callable, state: Any, said: dict) -> Any:
        """Ask method about state twice, as aima-python's players may: put what it says
        in said[key], what it says when asked again in said['again'][key] where that is
        something else, or why it failed in said['errors']; return what it said first
        (None if it failed)."""
        try:
            said[key] = method(state)
            again = method(state)
        except Failed as failure:
            said.setdefault('errors', {})[method.__name__] = (
                f'{failure} when asked again' if key in said else str(failure))
            return said.get(key)
        if _json(again) != _json(said[key]):
            said.setdefault('again', {})[key] = again
        return said[key]

    def _reach(self, index: int) -> tuple[Any, dict]:
        """The state of position index and the start of its answer: {'mutated': whether
        the result that made it changed the state it was given}, or {} at the start.
        Raise Unreached if it cannot be reached."""
        parent = self.links[index][0]
        if parent is None:
            return self.call('initial', copy.deepcopy, self.start), {}
        if parent in self.dead:
            raise Unreached
        state, own = self.kept.get(parent) or (self._state(parent), None)
        child, mutated = self._make(index, state, own)
        if mutated:  # the states kept may share what it changed: make each one afresh
            self.keeping = False
            self.kept.clear()
        return child, {'mutated': mutated}

    def _state(self, index: int) -> Any:
        """The state of a position reached before, made again by its moves from the
        start; raise Unreached if it cannot be made again."""
        path = []
        while self.links[index][0] is not None:
            path.append(index)
            index = self.links[index][0]
        state = self.call('initial', copy.deepcopy, self.start)
        for step in reversed(path):
            state = self._make(step, state)[0]
        return state

    def _make(self, index: int, state: Any, own: dict | None = None) -> tuple[Any, bool]:
        """The state of position index, made from state (the position before's) by the
        class's own action that is its move, from own (the actions it first gave there)
        or else asked again, and whether result changed state. Raise Unreached if the
        move is not among them, or actions or result fails."""
        move = self.links[index][1]
        try:
            own = self.actions(state).own if own is None else own
        except Failed as failure:
            raise Unreached(index, 'actions', f'{failure} when asked again') from None
        action = own.get(canonical(move))
        if action is None:
            raise Unreached(index, 'actions')
        try:
            return self.result(state, action)
        except Failed as failure:
            raise Unreached(index, 'result', str(failure)) from None

    def perft(self, depth: int, limit: int) -> PerftDone:
        """The class's perft (see count_sequences), made with its actions, result and
        terminal_test, or why it cannot be counted."""
        try:
            return PerftDone(tuple(count_sequences(
                self.call('initial', copy.deepcopy, self.start),
                lambda state: [move for move, _, _ in self._actions(state)],
                lambda state, move: self.call('result', self.game.result, state, move),
                self.terminal_test, depth, limit)))
        except Failed as failure:
            return PerftDone((), str(failure))


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


def _without_actions(said: dict) -> dict:
    """An answer too big to send with its actions (and what they were when asked
    again) left out, saying why."""
    again = {key: value for key, value in said.get('again', {}).items() if key != 'actions'}
    kept = {key: value for key, value in said.items() if key not in ('actions', 'again')}
    errors = {**said.get('errors', {}), 'actions': 'returned more moves than the grader takes '
                                                   f'({CHUNK} characters of them)'}
    return {**kept, **({'again': again} if again else {}), 'errors': errors}


_made: dict[str, StudentGame | str] = {}
"""The student's game of each call, made once, or why it cannot be made."""


def make(module: ModuleType, spec: str, explain: Callable, seconds: float,
         filename: str) -> StudentGame | str:
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


def answer(module: ModuleType, request: PerftRequest | PositionsRequest, explain: Callable,
           filename: str) -> Iterator[Answer]:
    """Answer a request about the student's game class (see the module's docstring)."""
    game = make(module, request.game, explain, request.seconds, filename)
    if isinstance(game, str):
        yield PerftDone((), game) if isinstance(request, PerftRequest) else RulesDone(game)
        return
    game.seconds = request.seconds
    signal.signal(signal.SIGALRM, _on_alarm)
    if isinstance(request, PerftRequest):
        yield game.perft(request.depth, request.limit)
        return
    chunk, size = [], 0
    for index, (parent, move) in enumerate(request.positions, request.first):
        said = game.position(index, parent, move)
        text = _json(said)
        if text is None or len(text) > CHUNK:  # only actions can be so big
            said = _without_actions(said)
            text = json.dumps(said)
        chunk.append(said)
        size += len(text) + 1
        if size > CHUNK:
            yield PositionAnswers(tuple(chunk))
            chunk, size = [], 0
    if chunk:
        yield PositionAnswers(tuple(chunk))
    yield RulesDone()
