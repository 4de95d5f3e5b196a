"""The types of Connect Four's compiled kernel (players/search/_connect4.c)."""

from typing import Any, Mapping


class Table:
    """A transposition table for one board shape, with the search that uses it."""

    nodes: int
    hits: int

    def __init__(self, h: int, v: int, bits: int = ...) -> None: ...
    def negamax(self, mine: int, mask: int, moves: int, alpha: int, threats: int,
                deadline: float | None) -> int | None: ...
    def value(self, mine: int, mask: int, moves: int, deadline: float | None) -> int | None: ...
    def encode(self, board: Mapping[Any, Any], mover: Any) -> tuple[int, int, int]: ...
