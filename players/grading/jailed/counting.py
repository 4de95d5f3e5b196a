"""A counting stand-in for a game: every state its result method makes is recorded,
whether the search calls it on the game it was given or on a copy of that game."""

from __future__ import annotations

import copy

from games import Game

from .plain import state_key


class TooManyStates(BaseException):
    """Raised in a search that generated more states than it is allowed: a
    BaseException, so that the search's own `except Exception` does not stop it."""


class Recorder:
    """What a search generated: each state's key in order, and how many calls
    reached the game it was given (the others reached a copy)."""

    def __init__(self, limit: int | None):
        self.limit = limit
        self.keys: list[str] = []
        self.on_given = 0
        self.given: Game | None = None
        self.stopped = False

    def record(self, game: Game, state) -> None:
        """Record a state made by game's result; stop the search past the limit."""
        if self.limit is not None and len(self.keys) >= self.limit:
            self.stopped = True
            raise TooManyStates(f'more than {self.limit} states')
        self.keys.append(state_key(state))
        self.on_given += game is self.given


def counting(game: Game, recorder: Recorder) -> Game:
    """Return a private copy of game whose result method (and that of any copy
    made of it) also records each new state in recorder. The copy is still an
    instance of the game's class, so a search cannot tell it from the game."""
    proxy = copy.deepcopy(game)
    cls = _counting_class(type(game))
    proxy.__class__ = cls
    cls.recorder = recorder
    recorder.given = proxy
    return proxy


_CLASSES: dict = {}


def _counting_class(cls: type) -> type:
    """The subclass of cls whose result records what it returns (made once per class)."""
    if cls not in _CLASSES:
        def result(self, state, move):
            new_state = cls.result(self, state, move)
            type(self).recorder.record(self, new_state)
            return new_state
        _CLASSES[cls] = type(cls.__name__, (cls,), {'result': result, '__module__': cls.__module__,
                                                    '__qualname__': cls.__qualname__})
    return _CLASSES[cls]
