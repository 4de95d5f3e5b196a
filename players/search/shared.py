"""What the searches share: the types of an exact result, of a search's counts
and of an evaluation function, and the transposition tables kept between
searches (one per game spec and kind of search)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Hashable, NamedTuple, TypeVar, overload

from games.base import Game, Move


class Solution(NamedTuple):
    """An exact search result: the value for the player to move, a best move
    (the first in actions order; None at a final state) and the number of nodes searched."""

    value: float
    move: Move | None
    nodes: int


State = Any
"""A game's state, as the game makes it (games give their states no common type)."""


@dataclass
class SearchStats:
    """What a search counted, filled in by the search it is given to: nodes
    searched, positions a table answered, the depth searched (-1: to the end),
    whether the value is the game's exact value, and Monte Carlo's play-outs.
    A field no search filled stays None."""

    nodes: int | None = None
    hits: int | None = None
    depth: int | None = None
    exact: bool | None = None
    playouts: int | None = None

    def reported(self) -> dict[str, int | bool]:
        """The counts as a player reports them in player.stats: a plain dict of the
        fields filled in, by name, in the order above."""
        found = ((field.name, getattr(self, field.name)) for field in fields(self))
        return {name: value for name, value in found if value is not None}


EXACT, LOWER, UPPER = 0, 1, 2
"""The kinds of value a table keeps: exact, or a bound from below or above."""
TABLE_LIMIT = 50_000
"""The most entries one table holds; a full table is emptied."""
TABLES_LIMIT = 8
"""The most tables kept at once (one per game spec and kind of search)."""

_TABLES: dict[Hashable, Any] = {}
"""The tables kept, by search context (a table's type is its search's own)."""

T = TypeVar('T')


def clear_tables() -> None:
    """Forget every cached search result (the next search starts cold)."""
    _TABLES.clear()


@overload
def cached_table(context: Hashable) -> dict[Any, Any]: ...
@overload
def cached_table(context: Hashable, make: Callable[[], T]) -> T: ...


def cached_table(context: Hashable, make: Callable[[], Any] = dict) -> Any:
    """Return the cached table of a search context, made by make() the first
    time (a dict by default), making room for it if needed."""
    table = _TABLES.get(context)
    if table is None:
        if len(_TABLES) >= TABLES_LIMIT:
            _TABLES.clear()
        table = _TABLES[context] = make()
    return table


EvalFn = Callable[[Game, State, Any], float]
"""An evaluation function: eval_fn(game, state, player) scores a state for player."""
