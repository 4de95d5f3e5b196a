"""Plain JSON data, the one thing that crosses between a jail and the trusted side:
moves made plain, and the canonical text by which two plain values are told equal.
Runs on both sides (and in the grader's jail); it imports nothing of the project."""

from __future__ import annotations

import json
import math
from typing import Any, Iterable


def to_plain(value: Any) -> Any:
    """Return a move as plain JSON data (tuples become lists); raise TypeError for
    anything that is not numbers, strings, None, tuples or lists of them."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    raise TypeError(f'a move must be plain data (numbers, strings, tuples), '
                    f'not {type(value).__name__}')


def canonical(plain: Any) -> str:
    """Return the canonical JSON text of plain data: compact, keys sorted."""
    return json.dumps(plain, separators=(',', ':'), sort_keys=True)


def key(move: Any) -> str:
    """Return the canonical JSON text of a move."""
    return canonical(to_plain(move))


def find_move(moves: Iterable, plain: Any) -> Any:
    """Return the first of moves whose canonical text is plain's, or None. A move
    equal to plain read back (lists as tuples) is tried first, so that a game's
    many legal moves are not all turned into text."""
    wanted, guess = canonical(plain), _tuples(plain)
    moves = list(moves)
    for move in moves:
        if move == guess and key(move) == wanted:
            return move
    return next((move for move in moves if key(move) == wanted), None)


def _tuples(plain: Any) -> Any:
    """Return plain data with its lists made tuples, at every depth."""
    return tuple(_tuples(item) for item in plain) if isinstance(plain, list) else plain
