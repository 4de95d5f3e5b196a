"""The clock a player may read: how long it has for the move it is making.

The referee sets it before asking a player to move (in a tournament, inside the
player's own process); a player that manages its time reads it:

    from games import clock
    seconds = clock.time_left()    # None: no limit was set
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class MoveClock:
    """What a player knows of its time when it is asked to move."""

    deadline: float | None = None
    """The time.monotonic() by which the move must be made (past it the player
    forfeits), or None for no limit."""
    remaining: float | None = None
    """Seconds left on the player's game clock when it was asked to move, or None
    when the game has no clock (only a limit per move)."""
    increment: float = 0.0
    """Seconds added to the player's game clock after each of its moves."""

    def time_left(self) -> float | None:
        """Return the seconds left until the deadline (never below 0), or None."""
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())


_current = MoveClock()


def current() -> MoveClock:
    """Return the clock of the move being made."""
    return _current


def set_current(move_clock: MoveClock) -> None:
    """Set the clock of the move about to be made (the referee's job)."""
    global _current
    _current = move_clock


def time_left() -> float | None:
    """Return the seconds the player to move has left for this move, or None for no limit."""
    return _current.time_left()
