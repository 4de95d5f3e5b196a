"""The protocol between the referee and a player in a jail, version 1: every message
that crosses, typed, and the reading of every answer, in one place. One JSON object
a line; two kinds of player speak it.

A program, in any language (players.remote.program on the trusted side; the
reference client, players/remote/program_client.py, is one): the referee sends Start and
the program answers READY; before each of its moves the referee sends a MoveRequest
and the program answers a MoveAnswer, {"move": M}, M one of the legal moves; at the
end the referee sends End and closes the program's input.

A Python player in a jail (players.remote.jailed_player on the trusted side,
players.remote.serving in the jail, and the grader's jail): the same, extended with
what a jail needs. The trusted side sends a JailStart (Start's game and seed, with
the player's Code, how to make the game and load the player, and the history to
replay) and the jail answers READY (a file player's jail first sends its source
Compiled, if the Code came without it); before each move it sends a
JailMoveRequest (the events since its last request, and the player's clock) and
the jail answers a MoveAnswer with the stats of its search. Instead of either
answer a jail may send an ErrorAnswer, its player's error. A jail is told nothing
at a game's end; a jail of a shipped player may be sent the JailStart of another
game.

docs/protocol.md gives a whole game of each, which tests/remote/test_protocol.py
replays against these messages. Nothing a player sends is run, compared or called:
an answer is read as plain JSON, and a move is looked up among the referee's own
legal moves. This module runs in the jail too, so it imports only the standard
library."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

PROTOCOL = 1
"""The version of the protocol the referee speaks."""
READY = {'type': 'ready'}
"""A player's answer to Start (or JailStart): it is ready for its first move."""
LOAD_FAILED = 'cannot load player: '
"""What a jail's ErrorAnswer to a JailStart begins with when its player failed to
load; the trusted side begins its reason with it too when a jail does not answer a
JailStart as it should."""
COMPILED_LIMIT = 60_000
"""The most characters of a Compiled answer's code (a longer one is sent as None:
each jail compiles that source itself)."""
RESULTS = {1.0: '1-0', 0.0: '0-1', 0.5: '1/2-1/2'}
"""The result of a game, by the first seat's points, as End says it."""


class ProtocolError(ValueError):
    """An answer or a message that is not what the protocol asks for; its message
    says what was sent."""


@dataclass(frozen=True)
class TimeLimits:
    """A player's time control: seconds a move, and its game clock (None: none)."""

    move: float | None
    base: float | None
    increment: float


@dataclass(frozen=True)
class Start:
    """The first message of a game to a program: which game, which seat, the clock
    and the seed."""

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
    """The referee's request for a move, to a program."""

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
    """The last message of a game to a program: its result for the first seat, and
    how it ended."""

    result: str
    """'1-0', '0-1' or '1/2-1/2'."""
    reason: str

    def message(self) -> dict:
        """The message as the program reads it."""
        return {'type': 'end', 'result': self.result, 'reason': self.reason}


@dataclass(frozen=True)
class Code:
    """What a jail is told of its Python player's code (the contents of a submission
    folder's files come into the jail as files of its own)."""

    spec: str
    """The spec the player was given by, such as 'ab3' or 'subs/alice.py:player'."""
    source: str | None
    """The Python source of a file or module player; None for a shipped (registry) player."""
    filename: str
    """The file's name, shown in the player's error messages."""
    function: str
    """The name of the player function in the source."""
    folder: bool
    """Whether the player is a submission folder, the jail's working folder."""
    compiled: str | None = None
    """The source compiled, as an earlier jail of the same code sent it (Compiled),
    passed on unread; None: the jail compiles the source, and sends it back."""


@dataclass(frozen=True)
class JailStart:
    """The first message of a game to a jail: Start's game and seed, extended with
    what a jail needs to make the game, load the player and catch up with the game."""

    game: str
    """The game's spec or variant name."""
    seed: str
    """The seed of the player's random module, different for each game and seat."""
    history: list
    """The events before the player's first request, replayed from the game's start."""
    code: Code
    make_game: str
    """'module:function' that makes the game from its spec."""
    load_player: str
    """'module:function' that loads a shipped player from its spec."""
    game_source: dict | None
    """The source of a game from a file (games.game_files.message); None for another game."""

    def message(self) -> dict:
        """The message as the jail reads it (read_request)."""
        return {'type': 'start', 'protocol': PROTOCOL, 'game': self.game, 'seed': self.seed,
                'history': self.history, 'code': asdict(self.code), 'make_game': self.make_game,
                'load_player': self.load_player, 'game_source': self.game_source}


@dataclass(frozen=True)
class JailMoveRequest:
    """The trusted side's request for a move, to a jail: MoveRequest's history and
    time, with the clock that a player managing its time reads (games.clock)."""

    history: list
    """The events since the jail's last request (or its JailStart)."""
    time_left: float | None
    """Seconds left for this move (None: no limit)."""
    clock: float | None
    """Seconds left on the player's game clock (None: no clock)."""
    increment: float
    """Seconds added to the clock after each move."""

    def message(self) -> dict:
        """The message as the jail reads it (read_request)."""
        return {'type': 'move', 'history': self.history, 'time_left': self.time_left,
                'clock': self.clock, 'increment': self.increment}


@dataclass(frozen=True)
class MoveAnswer:
    """A player's answer to a request for a move."""

    move: Any
    """The move, as plain JSON, to be looked up among the referee's legal moves."""
    stats: Any = None
    """A jail's report of its player's search, such as {"nodes": 1234}, as sent
    (None: none, as from a program, whose stats are not read)."""

    def message(self) -> dict:
        """The answer as the player sends it."""
        return {'move': self.move} if self.stats is None else {'move': self.move,
                                                                'stats': self.stats}


@dataclass(frozen=True)
class Compiled:
    """A file player's jail's first answer to a JailStart whose code came without
    its compiled form (then READY or an ErrorAnswer follows): the source compiled,
    sent before any of the player's code runs, so nothing the player does can
    change it. The trusted side keeps it unread and passes it on in the Code of
    later jails of the same code, which then need not compile it. The jail sends
    it even when there is no code to pass on, so that the first answer is always
    its own: a Compiled answer the player's code writes comes after, out of turn."""

    code: str | None
    """The code object, marshalled and in base64, at most COMPILED_LIMIT characters
    (None: it was longer, and each jail compiles the source)."""

    def message(self) -> dict:
        """The answer as the jail sends it."""
        return {'type': 'compiled', 'code': self.code}


@dataclass(frozen=True)
class ErrorAnswer:
    """A jail's answer, instead of READY or a MoveAnswer, when its player failed."""

    error: str
    """What failed and where, such as 'ValueError: boom (bob.py, line 3)'."""

    def message(self) -> dict:
        """The answer as the jail sends it."""
        return {'error': self.error}


def read_request(message: Any) -> JailStart | JailMoveRequest:
    """In a jail: return the typed message of the trusted side's message; raise
    ProtocolError for one of another kind or another version of the protocol."""
    kind = message.get('type') if isinstance(message, dict) else None
    if kind == 'move':
        return JailMoveRequest(message['history'], message['time_left'], message['clock'],
                               message['increment'])
    if kind != 'start' or message.get('protocol') != PROTOCOL:
        raise ProtocolError(f'sent {shown(message)}, not a start of protocol {PROTOCOL} '
                            'or a move request')
    return JailStart(message['game'], message['seed'], message['history'],
                     Code(**message['code']), message['make_game'], message['load_player'],
                     message['game_source'])


def read_ready(answer: Any) -> None:
    """Check the answer to a start; raise ProtocolError if it is not READY."""
    if answer != READY:
        raise ProtocolError(f'answered {shown(answer)}, not {{"type": "ready"}}')


def read_compiled(answer: Any) -> Compiled | None:
    """Return a jail's Compiled answer, or None if answer is not one (its code
    neither None nor text within COMPILED_LIMIT)."""
    if not (isinstance(answer, dict) and answer.keys() == {'type', 'code'}
            and answer['type'] == 'compiled'):
        return None
    code = answer['code']
    if code is None or isinstance(code, str) and len(code) <= COMPILED_LIMIT:
        return Compiled(code)
    return None


def read_move(answer: Any) -> MoveAnswer:
    """Return the answer to a request for a move, its move as plain JSON (to be looked
    up among the legal moves); raise ProtocolError if it is not {"move": ...}."""
    if not isinstance(answer, dict) or 'move' not in answer:
        raise ProtocolError(f'answered {shown(answer)}, not {{"move": ...}}')
    return MoveAnswer(answer['move'], answer.get('stats'))


def read_error(answer: Any) -> str | None:
    """Return the error of a jail's ErrorAnswer, or None if answer is not one."""
    if isinstance(answer, dict) and isinstance(answer.get('error'), str):
        return answer['error']
    return None


def shown(answer: Any, limit: int = 100) -> str:
    """Return an answer as short JSON text."""
    text = json.dumps(answer, separators=(',', ':'))
    return text if len(text) <= limit else text[:limit - 1] + '…'
