"""Exact search for pile games (Nim and Grundy's game), whose every position is
either won or lost by the player to move: no draws, so no window is needed. A
position is won when some move leads to a lost one, and lost when none does; the
table keeps each position's value, which is always exact."""

from __future__ import annotations

import time
from typing import Any, Callable, Hashable, Protocol

from .timing import CHECK_EVERY, OutOfTime


class WonOrLost(Protocol):
    """An encoding whose every position is won or lost by the player to move
    (players.search.positions' pile encodings): its children, and the value of
    its final position (the empty one)."""

    final_value: int

    def children(self, pos: Any, sign: int) -> list[Any]:
        """The positions after each move from pos."""


def pile_search(positions: WonOrLost, table: dict[Hashable, int], limit: int,
                deadline: float | None = None
                ) -> tuple[Callable[[Hashable], int], Callable[[], tuple[int, int]]]:
    """Return (value, counts) for a pile encoding (players.search.positions): value(pos)
    is 1 if the player to move wins, -1 if not; counts() gives the nodes searched
    and the positions the table answered. The table holds at most limit entries
    (a full one is emptied); past deadline (a time.monotonic() time) a search
    raises OutOfTime."""
    children, final = positions.children, positions.final_value
    get, check, clock = table.get, CHECK_EVERY, time.monotonic
    nodes = hits = 0

    def value(pos: Hashable) -> int:
        """The value of a position for the player to move: 1 (a win) or -1 (a loss)."""
        nonlocal nodes, hits
        nodes += 1
        if not nodes & check and deadline is not None and clock() > deadline:
            raise OutOfTime
        if not pos:
            return final
        known = get(pos)
        if known is not None:
            hits += 1
            return known
        result, unknown = -1, []
        for child in children(pos, 1):  # the children the table knows first
            known = get(child) if child else final
            if known is None:
                unknown.append(child)
            elif known < 0:
                result = 1
                break
        else:
            for child in unknown:
                if value(child) < 0:
                    result = 1
                    break
        if len(table) >= limit:
            table.clear()
        table[pos] = result
        return result

    def counts() -> tuple[int, int]:
        """The nodes searched and the positions the table answered, so far."""
        return nodes, hits
    return value, counts
