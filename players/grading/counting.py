"""A counting proxy for a game, for the grader's own runs of trusted searches:
it keeps every state that result generates."""

from __future__ import annotations

import copy

from games import Game

from .jailed.plain import describe

__all__ = ['counting', 'describe']


def counting(game: Game) -> Game:
    """Return a private copy of game whose result method also appends each new
    state to the copy's list `generated`. The copy is still an instance of the
    game's class, so a search cannot tell it from the game."""
    proxy = copy.deepcopy(game)
    proxy.__class__ = _counting_class(type(game))
    proxy.generated = []
    return proxy


_CLASSES: dict = {}


def _counting_class(cls: type) -> type:
    """The subclass of cls whose result records what it returns (made once per class)."""
    if cls not in _CLASSES:
        def result(self, state, move):
            new_state = cls.result(self, state, move)
            self.generated.append(new_state)
            return new_state
        _CLASSES[cls] = type(cls.__name__, (cls,), {'result': result, '__module__': cls.__module__})
    return _CLASSES[cls]
