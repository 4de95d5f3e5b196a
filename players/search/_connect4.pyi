"""The types of Connect Four's compiled kernel (players/search/_connect4.c)."""

from typing import Any


class Table:
    """A transposition table for one board shape, with the search that uses it."""

    def __init__(self, h: int, v: int, bits: int = ...) -> None: ...
    @property
    def nodes(self) -> int:
        """Positions searched with this table (read-only)."""
    @property
    def hits(self) -> int:
        """Positions this table answered without a search (read-only)."""
    # the methods take their arguments by position only (METH_FASTCALL)
    def negamax(self, mine: int, mask: int, moves: int, alpha: int, threats: int,
                deadline: float | None, /) -> int | None: ...
    def value(self, mine: int, mask: int, moves: int, deadline: float | None, /) -> int | None: ...
    def encode(self, board: dict[Any, Any], mover: object, /) -> tuple[int, int, int]: ...
