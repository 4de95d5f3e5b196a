"""Players in any language: a program that speaks JSON lines on its standard input
and output (the protocol of players.remote.protocol), run in a jail
(players.sandbox.command_jail.CommandJail), and the trusted side's stand-in for it
(players.remote.player_code reads its spec).

A player spec 'exec:COMMAND' runs COMMAND, split as a shell splits it but never
run by a shell; an executable file that is not a .py file may be given alone as a
path ('./bot'). Words of COMMAND that name existing files or folders (or lists of
them separated by ':', as a Java class path) are made absolute and shown to the
program (read-only, under bubblewrap); the first is the program's own folder,
where it runs."""

from __future__ import annotations

import hashlib
from typing import Any

from games import game_files, referee
from games.base import Game
from players.sandbox.command_jail import CommandJail
from players.sandbox.jail import JailError, JailTimeout
from .jailed_player import LOAD_SECONDS, JailedPlayer, Setup, legal_move
from .plain_json import to_plain
from .player_code import PlayerCode, ProgramCode
from .remote_player import RemotePlayer, TimeControl
from .protocol import (RESULTS, End, MoveRequest, ProtocolError, Start, TimeLimits, read_move,
                       read_ready)

END_SECONDS = 0.2
"""Seconds a program has to exit by itself once its game has ended."""
ERRORS_SHOWN = 200
"""The most characters of a program's standard error quoted in a forfeit's reason."""


def stand_in(code: PlayerCode | ProgramCode, setup: Setup, seed: str, history: list,
             timing: TimeControl = TimeControl(), *, game: Game, seat: int,
             reuse: bool = False) -> RemotePlayer:
    """Return the trusted side's stand-in for a player in a jail, started for seat
    of game: a ProgramPlayer for a program, else a JailedPlayer (see both)."""
    if isinstance(code, ProgramCode):
        return ProgramPlayer(code, setup, seed, history, timing, game=game, seat=seat)
    return JailedPlayer(code, setup, seed, history, timing, reuse=reuse)


def seed_number(seed: str) -> int:
    """Return the whole number below 2**31 that a program is given for a seed."""
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:4], 'big') >> 1


class ProgramPlayer(RemotePlayer):
    """A player function (game, state) -> move that asks a program in a jail, in
    the protocol of players.remote.protocol, keeping its clock as every
    RemotePlayer does. A program is started for one game: its jail is killed at the
    game's end."""

    code: ProgramCode
    jail: CommandJail

    def __init__(self, code: ProgramCode, setup: Setup, seed: str, history: list,
                 timing: TimeControl = TimeControl(), *, game: Game, seat: int):
        """Start the program in a jail of setup's level and limits and send it the
        start of its game; history is the list of events the referee keeps adding to."""
        super().__init__(code, timing, history, CommandJail(code.argv, setup.level, setup.limits,
                                                             code.paths, code.workdir))
        self._told = False
        named = setup.game if game_files.is_file_spec(setup.game) else repr(game)
        limits = TimeLimits(timing.move_seconds, timing.base, timing.increment)
        self.jail.send(Start(named, seat, referee.seats_of(game)[seat], limits,
                             seed_number(seed)).message())

    def wait_ready(self, seconds: float = LOAD_SECONDS) -> None:
        """Wait for the program to answer the start; raise referee.Forfeit if it cannot."""
        try:
            answer = self.jail.receive(seconds)
        except JailError as error:
            self.close()
            if isinstance(error, JailTimeout):
                raise referee.Forfeit(referee.ERROR, f'did not start within {seconds:g} s')
            raise referee.Forfeit(referee.ERROR, f'cannot start: {self._failure(error)}') from None
        try:
            read_ready(answer)
        except ProtocolError as error:
            self.close()
            raise referee.Forfeit(referee.ERROR, f'cannot start: {error}') from None
        self._ready = self._sound = True

    def __call__(self, game: Game, state) -> Any:
        """Send the program the position and return the legal move it answers."""
        if not self._ready:
            self.wait_ready()
        limit = self.time_left()
        request = MoveRequest(game.state_json(state), self.history,
                              [to_plain(move) for move in game.actions(state)], limit)
        try:
            answered = read_move(self._exchange(request.message(), limit)).move
        except ProtocolError as error:
            raise referee.Forfeit(referee.ERROR, str(error)) from None
        move = legal_move(game, state, answered)
        self._sound = True
        return move

    def end(self, record: referee.PlayedGame) -> None:
        """Tell the program the game's result and the reason, close its input and
        give it END_SECONDS to exit before its jail is killed."""
        if self._told or self.jail.status is not None:
            return
        self._told = True
        reason = record.termination + (f': {record.detail}' if record.detail else '')
        try:
            self.jail.send(End(RESULTS[record.score(0)], reason).message())
        except JailError:
            pass
        self.jail.close(END_SECONDS)

    def _failure(self, error: JailError) -> str:
        """Say how the program failed to answer, with the end of its standard error."""
        written = ' '.join(self.jail.errors().split())
        if len(written) > ERRORS_SHOWN:
            written = '…' + written[-ERRORS_SHOWN:]
        return f'{error}; its standard error ends: {written}' if written else str(error)

