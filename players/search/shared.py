"""What the searches share: the types of an exact result and of an evaluation
function, and the transposition tables kept between searches (one per game spec
and kind of search)."""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Callable

from games import Game

Solution = namedtuple('Solution', 'value, move, nodes')
Solution.__doc__ = """An exact search result: the value for the player to move, a best move
(the first in actions order; None at a final state) and the number of nodes searched."""

EXACT, LOWER, UPPER = 0, 1, 2
"""The kinds of value a table keeps: exact, or a bound from below or above."""
TABLE_LIMIT = 50_000
"""The most entries one table holds; a full table is emptied."""
TABLES_LIMIT = 8
"""The most tables kept at once (one per game spec and kind of search)."""

_TABLES: dict = {}


def clear_tables() -> None:
    """Forget every cached search result (the next search starts cold)."""
    _TABLES.clear()


def cached_table(context, make: Callable[[], Any] = dict) -> Any:
    """Return the cached table of a search context, made by make() the first
    time (a dict by default), making room for it if needed."""
    table = _TABLES.get(context)
    if table is None:
        if len(_TABLES) >= TABLES_LIMIT:
            _TABLES.clear()
        table = _TABLES[context] = make()
    return table


EvalFn = Callable[[Game, object, object], float]
"""An evaluation function: eval_fn(game, state, player) scores a state for player."""
