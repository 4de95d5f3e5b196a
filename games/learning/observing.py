"""What a learning agent observes of a game's positions: the game's own observation
as an array, or, for a game without one, its position marked among the reachable ones."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..base import Game, State
from .numbering import frozen, reachable


@dataclass(frozen=True)
class Observer:
    """What an agent sees of a game: an array of shape, of 0s and 1s where binary
    (int8; else float32), given by see(state, player)."""

    shape: tuple[int, ...]
    binary: bool
    see: Callable[[State, Any], np.ndarray]


def observer_of(game: Game, seat: Any) -> Observer:
    """Return how agents observe game: as 0s and 1s (int8) where the game's own
    observation is a memoryview of bytes (a board's planes, see Discs.planes), as
    numbers (float32) where it is nested lists; for a game without one, a row of 0s
    with a 1 in the place of the position among the reachable ones. Raises
    ValueError for a game with neither its own observation nor few enough positions."""
    first = game.observation(game.initial, seat)
    if first is None:
        places = {frozen(state): place for place, state in enumerate(reachable(game))}
        size = len(places)

        def marked(state: State, player: Any) -> np.ndarray:
            row = np.zeros(size, dtype=np.int8)
            row[places[frozen(state)]] = 1
            return row
        return Observer((size,), True, marked)
    start = np.asarray(first)
    binary = isinstance(first, memoryview) and first.format == 'b'
    dtype = np.int8 if binary else np.float32

    def seen(state: State, player: Any) -> np.ndarray:
        array = np.asarray(game.observation(state, player), dtype=dtype)
        if array.shape != start.shape:
            raise ValueError(f'{game!r}.observation gave an array of shape {array.shape}, '
                             f'its start one of shape {start.shape}: every observation '
                             f'must have the same shape')
        return array
    return Observer(start.shape, binary, seen)
