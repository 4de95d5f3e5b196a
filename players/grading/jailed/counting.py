"""A counting stand-in for a game: every call of its result method that makes a
state is recorded, as the state it was called on and the move, whether the
search calls it on the game it was given or on a copy of that game. The grader
follows these calls with its own game: it is the grader, not this record, that
says which states the search generated."""

from __future__ import annotations

import copy

from games import Game

from players.arena.plain_json import to_plain

from .plain import state_key


class TooManyStates(BaseException):
    """Raised in a search that generated more states than it is allowed: a
    BaseException, so that the search's own `except Exception` does not stop it."""


class Recorder:
    """What a search asked of its game: for each state made, [the key of the state
    it was made from, the move as plain data], in order."""

    def __init__(self, limit: int | None):
        self.limit = limit
        self.calls: list[list] = []
        self.stopped = False

    def record(self, state, move) -> None:
        """Record a state made from state by move; stop the search past the limit."""
        if self.limit is not None and len(self.calls) >= self.limit:
            self.stopped = True
            raise TooManyStates(f'more than {self.limit} states')
        self.calls.append([state_key(state), to_plain(move)])


def counting(game: Game, recorder: Recorder) -> Game:
    """Return a private copy of game whose result method (and that of any copy
    made of it) also records in recorder each call that makes a state. The copy is still an
    instance of the game's class, so a search cannot tell it from the game."""
    proxy = copy.deepcopy(game)
    cls = _counting_class(type(game))
    proxy.__class__ = cls
    cls.recorder = recorder
    return proxy


_CLASSES: dict = {}


def _counting_class(cls: type) -> type:
    """The subclass of cls whose result records each call (made once per class)."""
    if cls not in _CLASSES:
        def result(self, state, move):
            new_state = cls.result(self, state, move)
            type(self).recorder.record(state, move)
            return new_state
        _CLASSES[cls] = type(cls.__name__, (cls,), {'result': result, '__module__': cls.__module__,
                                                    '__qualname__': cls.__qualname__})
    return _CLASSES[cls]
