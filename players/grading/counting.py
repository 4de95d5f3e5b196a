"""A counting proxy for a game: it records every state that result generates."""

from __future__ import annotations

import copy

from games import Game, TreeGame


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


def describe(game: Game, state) -> str:
    """A short text for a state in messages: a tree's node name, Nim's piles,
    a board drawn row by row (top row first, '.' for an empty square)."""
    if isinstance(game, TreeGame):
        return game.node(state)
    board = getattr(state, 'board', state)
    if isinstance(board, tuple):
        return f'{state.to_move}:{",".join(map(str, board))}'
    if isinstance(board, dict) and hasattr(game, 'h'):
        rows = (''.join(board.get((x, y), '.') for x in range(1, game.h + 1))
                for y in range(game.v, 0, -1))
        return '/'.join(rows)
    return repr(state)
