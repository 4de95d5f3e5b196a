"""The JSON-lines protocol between the referee and a player that is a program, version 1:
each message the referee sends, typed, and the reading of each answer, in one place.

The referee sends Start and the program answers READY; before each of its moves
the referee sends a MoveRequest and the program answers {"move": M}, M one of the
legal moves; at the end the referee sends End and closes the program's input.
docs/protocol.md gives a whole game, which tests/remote/test_programs.py replays against
these messages and against the reference client (players/program_client.py).
Nothing a program sends is run, compared or called: an answer is read as plain
JSON, and a move is looked up among the referee's own legal moves."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

PROTOCOL = 1
"""The version of the protocol the referee speaks."""
READY = {'type': 'ready'}
"""The program's answer to Start."""
RESULTS = {1.0: '1-0', 0.0: '0-1', 0.5: '1/2-1/2'}
"""The result of a game, by the first seat's points, as End says it."""


class ProtocolError(ValueError):
    """An answer that is not what the protocol asks for; its message says what was answered."""


@dataclass(frozen=True)
class TimeLimits:
    """A player's time control: seconds a move, and its game clock (None: none)."""

    move: float | None
    base: float | None
    increment: float


@dataclass(frozen=True)
class Start:
    """The first message of a game: which game, which seat, the clock and the seed."""

    game: str
    """The game's spec, such as 'nim(piles=(1, 2))'."""
    seat: int
    """0 for the first player, 1 for the second."""
    player: str
    """The seat's name, as the game's to_move names it."""
    time: TimeLimits
    seed: int
    """A whole number below 2**31, different for each game and seat."""

    def message(self) -> dict:
        """The message as the program reads it."""
        return {'type': 'start', 'protocol': PROTOCOL, 'game': self.game, 'seat': self.seat,
                'player': self.player, 'time': asdict(self.time), 'seed': self.seed}


@dataclass(frozen=True)
class MoveRequest:
    """The referee's request for a move."""

    state: dict
    """The game's JSON picture of the state (game.state_json)."""
    history: list
    """Every event so far: ["move", move] or ["chance", roll]."""
    legal: list
    """Every legal move, as plain JSON."""
    time_left: float | None
    """Seconds left for this move (None: no limit)."""

    def message(self) -> dict:
        """The message as the program reads it."""
        return {'type': 'move', 'state': self.state, 'history': self.history,
                'legal': self.legal, 'time_left': self.time_left}


@dataclass(frozen=True)
class End:
    """The last message of a game: its result for the first seat, and how it ended."""

    result: str
    """'1-0', '0-1' or '1/2-1/2'."""
    reason: str

    def message(self) -> dict:
        """The message as the program reads it."""
        return {'type': 'end', 'result': self.result, 'reason': self.reason}


def read_ready(answer: Any) -> None:
    """Check the answer to Start; raise ProtocolError if it is not READY."""
    if answer != READY:
        raise ProtocolError(f'answered {shown(answer)}, not {{"type": "ready"}}')


def read_move(answer: Any) -> Any:
    """Return the move of an answer to a MoveRequest, as plain JSON (to be looked up
    among the legal moves); raise ProtocolError if it is not {"move": ...}."""
    if not isinstance(answer, dict) or 'move' not in answer:
        raise ProtocolError(f'answered {shown(answer)}, not {{"move": ...}}')
    return answer['move']


def shown(answer: Any, limit: int = 100) -> str:
    """Return an answer as short JSON text."""
    text = json.dumps(answer, separators=(',', ':'))
    return text if len(text) <= limit else text[:limit - 1] + '…'
