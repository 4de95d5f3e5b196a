"""Players in any language: a program that speaks JSON lines on its standard input
and output (protocol version 1), run in a jail (players.sandbox.command_jail.CommandJail), and the
trusted side's stand-in for it (players.remote.player_code reads its spec).

The referee first sends {"type": "start", "protocol": 1, "game": SPEC, "seat": 0 or
1, "player": the seat's name, "time": {"move", "base", "increment"}, "seed": N}
and the program answers {"type": "ready"}. Before each of its moves the referee
sends {"type": "move", "state": STATE (game.state_json), "history": [every move
and roll so far], "legal": [every legal move], "time_left": seconds or null} and
the program answers {"move": one of "legal"}. At the end the referee sends {"type":
"end", "result": "1-0", "0-1" or "1/2-1/2", "reason": ...} and closes the
program's input. Moves and rolls are plain JSON (lists for tuples); a history is
a list of events, ["move", move] or ["chance", roll]. Nothing the program sends is
run, compared or called: each line is read as JSON within a size limit, and a
move is looked up among the referee's own legal moves.

A player spec 'exec:COMMAND' runs COMMAND, split as a shell splits it but never
run by a shell; an executable file that is not a .py file may be given alone as a
path ('./bot'). Words of COMMAND that name existing files or folders (or lists of
them separated by ':', as a Java class path) are made absolute and shown to the
program (read-only, under bubblewrap); the first is the program's own folder,
where it runs."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games import game_files, referee
from games.base import Game
from players.sandbox.command_jail import CommandJail
from players.sandbox.jail import JailError, JailTimeout
from .jailed_player import LOAD_SECONDS, JailedPlayer, Setup, TimeControl, legal_move
from .plain_json import to_plain
from .player_code import PlayerCode, ProgramCode

PROTOCOL = 1
"""The version of the protocol the referee speaks."""
END_SECONDS = 0.2
"""Seconds a program has to exit by itself once its game has ended."""
ERRORS_SHOWN = 200
"""The most characters of a program's standard error quoted in a forfeit's reason."""
RESULTS = {1.0: '1-0', 0.0: '0-1', 0.5: '1/2-1/2'}
"""The result of a game, by the first player's points, as the end message says it."""


def stand_in(code: PlayerCode | ProgramCode, setup: Setup, seed: str, history: list,
             timing: TimeControl = TimeControl(), *, game: Game, seat: int,
             reuse: bool = False) -> JailedPlayer:
    """Return the trusted side's stand-in for a player in a jail, started for seat
    of game: a ProgramPlayer for a program, else a JailedPlayer (see both)."""
    if isinstance(code, ProgramCode):
        return ProgramPlayer(code, setup, seed, history, timing, game=game, seat=seat)
    return JailedPlayer(code, setup, seed, history, timing, reuse=reuse)


def seed_number(seed: str) -> int:
    """Return the whole number below 2**31 that a program is given for a seed."""
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:4], 'big') >> 1


class ProgramPlayer(JailedPlayer):
    """A player function (game, state) -> move that asks a program in a jail, in
    protocol 1 (see above), keeping its clock as a JailedPlayer does. A program is
    started for one game: its jail is killed at the game's end."""

    code: ProgramCode
    jail: CommandJail

    def __init__(self, code: ProgramCode, setup: Setup, seed: str, history: list,
                 timing: TimeControl = TimeControl(), *, game: Game, seat: int):
        """Start the program in a jail of setup's level and limits and send it the
        start of its game; history is the list of events the referee keeps adding to."""
        self.code, self.timing, self.history = code, timing, history
        self.remaining = timing.base
        self.stats: dict = {}
        self.key = None
        self._ready = self._sound = self._told = False
        self.jail = CommandJail(code.argv, setup.level, setup.limits, code.folders, code.workdir)
        named = setup.game if game_files.is_file_spec(setup.game) else repr(game)
        self.jail.send({'type': 'start', 'protocol': PROTOCOL, 'game': named, 'seat': seat,
                        'player': referee.seats_of(game)[seat],
                        'time': {'move': timing.move_seconds, 'base': timing.base,
                                 'increment': timing.increment},
                        'seed': seed_number(seed)})

    def wait_ready(self, seconds: float = LOAD_SECONDS) -> None:
        """Wait for the program to answer the start; raise referee.Forfeit if it cannot."""
        try:
            answer = self.jail.receive(seconds)
        except JailError as error:
            self.close()
            if isinstance(error, JailTimeout):
                raise referee.Forfeit(referee.ERROR, f'did not start within {seconds:g} s')
            raise referee.Forfeit(referee.ERROR, f'cannot start: {self._failure(error)}') from None
        if answer != {'type': 'ready'}:
            self.close()
            raise referee.Forfeit(referee.ERROR, f'cannot start: answered {_shown(answer)}, '
                                                 'not {"type": "ready"}')
        self._ready = self._sound = True

    def __call__(self, game: Game, state) -> Any:
        """Send the program the position and return the legal move it answers."""
        if not self._ready:
            self.wait_ready()
        limit = self.time_left()
        request = {'type': 'move', 'state': game.state_json(state), 'history': self.history,
                   'legal': [to_plain(move) for move in game.actions(state)],
                   'time_left': limit}
        answer = self._exchange(request, limit)
        if not isinstance(answer, dict) or 'move' not in answer:
            raise referee.Forfeit(referee.ERROR, f'answered {_shown(answer)}, not '
                                                 '{"move": ...}')
        move = legal_move(game, state, answer['move'])
        self._sound = True
        return move

    def end(self, record: referee.GameRecord) -> None:
        """Tell the program the game's result and the reason, close its input and
        give it END_SECONDS to exit before its jail is killed."""
        if self._told or self.jail.status is not None:
            return
        self._told = True
        reason = record.termination + (f': {record.detail}' if record.detail else '')
        try:
            self.jail.send({'type': 'end', 'result': RESULTS[record.score(0)], 'reason': reason})
        except JailError:
            pass
        self.jail.close(END_SECONDS)

    def errors(self) -> str:
        """Return what the program wrote on standard error (its last few KB)."""
        return self.jail.errors()

    def close(self) -> None:
        """Kill the program's jail and everything in it."""
        self.jail.close()

    def _failure(self, error: JailError) -> str:
        """Say how the program failed to answer, with the end of its standard error."""
        written = ' '.join(self.jail.errors().split())
        if len(written) > ERRORS_SHOWN:
            written = '…' + written[-ERRORS_SHOWN:]
        return f'{error}; its standard error ends: {written}' if written else str(error)


def _shown(answer: Any, limit: int = 100) -> str:
    """Return a program's answer as short JSON text."""
    text = json.dumps(answer, separators=(',', ':'))
    return text if len(text) <= limit else text[:limit - 1] + '…'
