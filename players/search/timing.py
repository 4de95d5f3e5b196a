"""How long a player may think: the time it gives a move, read from the clock
the referee sets (games.clock), and the exception a search raises past it.

A player with a game clock spends an even share of what is left on it plus its
increment; one with only a limit per move spends that limit; one with neither
(a game at the keyboard) spends its own default. Whatever the share, it stops
a safety margin before the move's deadline, so that it never forfeits on time."""

from __future__ import annotations

import time

from games import clock

CHECK_EVERY = 1023
"""A search reads the clock when its count of nodes has none of these bits set
(every 1,024 nodes: a few milliseconds)."""

MOVES_TO_GO = 20
"""The moves a player expects still to make when it shares out its game clock."""

MARGIN_SECONDS = 0.05
MARGIN_SHARE = 0.1
"""Left unused before a move's deadline: 50 ms (the referee's protocol, the
search's last nodes and unwinding) and a tenth of the time left."""

LEAST_SECONDS = 0.005
"""The least time a move is given, even when the clock says less."""


class OutOfTime(Exception):
    """A search ran past its deadline (its tables stay valid)."""


def move_seconds(default: float) -> float:
    """Return the seconds to think about this move: a share of the game clock,
    else the move's limit, else default; always a margin inside the limit."""
    move_clock = clock.current()
    left = move_clock.time_left()
    if move_clock.remaining is not None:
        share = move_clock.remaining / MOVES_TO_GO + move_clock.increment
    elif left is not None:
        share = left
    else:
        share = default
    if left is not None:
        share = min(share, left * (1 - MARGIN_SHARE) - MARGIN_SECONDS)
    return max(share, LEAST_SECONDS)


def move_deadline(default: float) -> float:
    """Return the time.monotonic() at which to stop thinking about this move."""
    return time.monotonic() + move_seconds(default)
