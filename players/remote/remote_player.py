"""What every stand-in for a remote player has: the player's clock, and a request
sent to its jail and the answer read back within the time left. A JailedPlayer
(a Python player, jailed_player) and a ProgramPlayer (a program, program) each say
what they send and how an answer becomes a move."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from games import referee
from games.base import Game
from players.sandbox.jail import Jail, JailError, JailTimeout

from .player_code import PlayerCode, ProgramCode

LOAD_SECONDS = 10.0
"""Seconds a jail may take to start and load its player, besides any move's time."""


@dataclass(frozen=True)
class TimeControl:
    """How much time each player has: a limit per move, and a game clock of base
    seconds with increment seconds added after each move (a player whose clock
    runs out forfeits on time)."""

    move_seconds: float | None = None
    base: float | None = None
    increment: float = 0.0


class RemotePlayer:
    """A player function (game, state) -> move whose moves come from a jail, which
    keeps the player's clock: the time each move took, as the trusted side measured
    it, is taken off the game clock, and a move past its limit forfeits the game."""

    shipped_in_file_game = False
    """Whether the player is this project's own, playing a game from a file: its
    error is the game's code failing (see referee.GameFailed)."""
    key: tuple | None = None
    """What a jail left for the next game is kept under (None: it is not kept)."""

    def __init__(self, code: PlayerCode | ProgramCode, timing: TimeControl, history: list,
                 jail: Jail):
        """Keep the player's code, time control and jail; history is the list of
        events the referee keeps adding to."""
        self.code = code
        self.timing, self.history = timing, history
        self.remaining = timing.base
        self.stats: dict = {}
        self.jail = jail
        self._ready = self._sound = False

    def wait_ready(self, seconds: float = LOAD_SECONDS) -> None:
        """Wait until the player is ready for its first move; raise referee.Forfeit if
        it cannot be (each kind of remote player says how it hears so)."""
        raise NotImplementedError

    def __call__(self, game: Game, state) -> Any:
        """Return the player's move in state, one of the game's own legal moves;
        raise referee.Forfeit for anything else (each kind says what it asks)."""
        raise NotImplementedError

    def time_left(self) -> float | None:
        """Return the seconds the player has for its next move (None: no limit)."""
        return _smallest(self.timing.move_seconds, self.remaining)

    def _exchange(self, request: dict, limit: float | None) -> Any:
        """Send a request, wait at most limit seconds for the answer, take the time
        off the player's clock and return the answer; a jail that fails to answer
        in time, or as it should, is closed and its player forfeits."""
        started = time.perf_counter()
        self._sound = False  # until the answer is a legal move in time
        try:
            self.jail.send(request)
            answer = self.jail.receive(limit)
        except JailError as error:
            self.close()
            if isinstance(error, JailTimeout):
                raise referee.Forfeit(referee.TIMEOUT, self._late(limit)) from None
            raise referee.Forfeit(referee.ERROR, self._failure(error)) from None
        self._charge(time.perf_counter() - started)
        return answer

    def _failure(self, error: JailError) -> str:
        """Say how a jail failed to answer."""
        return str(error)

    def end(self, record: referee.PlayedGame) -> None:
        """Tell the player how its game ended: a Python player is told nothing."""

    def errors(self) -> str:
        """Return what the player wrote, kept for the game's record: a Python
        player's standard output and error, a program's standard error, the last
        few KB of it (see players.sandbox.jail.Jail.errors), as text."""
        return self.jail.errors()

    def close(self) -> None:
        """End the player's game: kill its jail and everything in it."""
        self.jail.close()

    def _charge(self, seconds: float) -> None:
        """Take a move's time off the game clock; raise Forfeit if it ran out."""
        if self.remaining is None:
            return
        self.remaining -= seconds
        if self.remaining < 0:
            raise referee.Forfeit(referee.TIMEOUT, f'clock ran out ({self._control()})')
        self.remaining += self.timing.increment

    def _late(self, limit: float | None) -> str:
        """Say why a player ran out of time."""
        if self.timing.move_seconds is not None and limit == self.timing.move_seconds:
            return f'no move within {limit:g} s'
        return f'clock ran out ({self._control()})'

    def _control(self) -> str:
        """Return the time control as cutechess-cli writes it, such as '60+0.5'."""
        return f'{self.timing.base:g}+{self.timing.increment:g}'


def _smallest(*limits: float | None) -> float | None:
    """Return the smallest of the limits that are not None, or None."""
    given = [limit for limit in limits if limit is not None]
    return max(0.0, min(given)) if given else None
