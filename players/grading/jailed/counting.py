"""A counting stand-in for a game: every call of its result method that makes a
state is told to a recorder, whether the search calls it on the game it was
given or on a copy of that game.

In the student's jail the recorder is a Recorder, which keeps each call as the
key of the state it was made on and the move: the grader follows these calls
with its own game, so it is the grader, not this record, that says which states
the search generated. The grader's own runs of trusted searches keep the states
themselves (see search.trace)."""

from __future__ import annotations

import copy
from typing import Any, Callable

from games import Game

from players.remote.plain_json import to_plain

from .plain import state_key

OnResult = Callable[[Any, Any, Any], None]
"""Told of each state made: on_result(state, move, new_state)."""


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

    def record(self, state, move, new_state) -> None:
        """Record a state made from state by move (the new state itself is the
        grader's to make again); stop the search past the limit."""
        if self.limit is not None and len(self.calls) >= self.limit:
            self.stopped = True
            raise TooManyStates(f'more than {self.limit} states')
        self.calls.append([state_key(state), to_plain(move)])


def counting(game: Game, on_result: OnResult) -> Game:
    """Return a private copy of game whose result method (and that of any copy
    made of it) also calls on_result(state, move, new_state) for each state it
    makes. The copy is still an instance of the game's class, so a search cannot
    tell it from the game."""
    cls = type(game)

    def result(self, state, move):
        new_state = cls.result(self, state, move)
        on_result(state, move, new_state)
        return new_state
    proxy = copy.deepcopy(game)
    proxy.__class__ = type(cls.__name__, (cls,), {'result': result, '__module__': cls.__module__,
                                                  '__qualname__': cls.__qualname__})
    return proxy
