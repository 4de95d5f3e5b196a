"""Players in any language: a program that speaks JSON lines on its standard input
and output (protocol version 1), run in a jail (players.arena.command_jail.CommandJail), and the
trusted side's stand-in for it.

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
import os
import shlex
import shutil
from dataclasses import dataclass
from typing import Any

from games import referee
from games.base import Game
from .command_jail import PROGRAM_PATH, CommandJail
from .jail import JailError
from .remote import (LOAD_SECONDS, JailedPlayer, PlayerCode, Setup, TimeControl, legal_move,
                     read_player, to_plain)

PROTOCOL = 1
"""The version of the protocol the referee speaks."""
PREFIX = 'exec:'
"""How a player spec names a program to run."""
END_SECONDS = 0.2
"""Seconds a program has to exit by itself once its game has ended."""
ERRORS_SHOWN = 200
"""The most characters of a program's standard error quoted in a forfeit's reason."""
RESULTS = {1.0: '1-0', 0.0: '0-1', 0.5: '1/2-1/2'}
"""The result of a game, by the first player's points, as the end message says it."""


@dataclass(frozen=True)
class ProgramCode:
    """What a jail needs to run a program: its command and the folders it may see."""

    spec: str
    """The spec the program was given by, such as 'exec:java -cp subs/alice Bot'."""
    argv: tuple
    """The command, its paths made absolute."""
    folders: tuple = ()
    """The folders the command names (a file's folder), visible to the program read-only."""
    workdir: str | None = None
    """The program's own folder, where it runs (None: a private folder of its jail)."""


def is_program_spec(spec: str) -> bool:
    """Return True for the spec of a program: 'exec:COMMAND', or the path of an
    executable file that is not a .py file ('./bot', 'bots/alice')."""
    return spec.startswith(PREFIX) or (
        os.sep in spec and not spec.endswith('.py') and os.path.isfile(spec)
        and os.access(spec, os.X_OK))


def read_program(spec: str) -> ProgramCode:
    """Return the ProgramCode of a program's spec; raise ValueError naming what is
    wrong (a command that cannot be split, a missing or non-executable program)."""
    words = _words(spec)
    command = words[0]
    if os.sep in command:
        if not os.path.isfile(command):
            raise ValueError(f'no program file {command!r} (in {spec!r})')
        if not os.access(command, os.X_OK):
            raise ValueError(f'{command!r} is not executable (chmod +x {shlex.quote(command)})')
    elif shutil.which(command, path=PROGRAM_PATH) is None:
        raise ValueError(f'cannot find the command {command!r} of {spec!r} in {PROGRAM_PATH}, '
                         'where jailed programs look for it')
    paths = [[os.path.abspath(path) for path in _paths(word, first=index == 0)]
             for index, word in enumerate(words)]
    argv = tuple(os.pathsep.join(named) if named else word for word, named in zip(words, paths))
    folders = [path if os.path.isdir(path) else os.path.dirname(path)
               for named in paths for path in named]
    if '/' in folders:
        raise ValueError(f'{spec!r} names the root folder: that would show the program '
                         'the whole filesystem')
    folders = list(dict.fromkeys(folders))
    return ProgramCode(spec, argv, tuple(folders), folders[0] if folders else None)


def program_names(spec: str) -> list[str]:
    """Return the names a table may give a program, shortest first: the stem of the
    first file or folder its command names ('alice' for 'exec:java -cp subs/alice
    Bot' or './bots/alice'), then with its folder's name ('subs/alice')."""
    try:
        words = _words(spec)
    except ValueError:
        return [spec]
    paths = [path for index, word in enumerate(words) for path in _paths(word, index == 0)]
    location = os.path.normpath(os.path.abspath(paths[0])) if paths else words[0]
    folder, name = os.path.split(location)
    stem = os.path.splitext(name)[0] or name
    parent = os.path.basename(folder)
    return list(dict.fromkeys([stem, f'{parent}/{stem}' if parent else stem]))


def _words(spec: str) -> list[str]:
    """Return the words of a program spec's command, split as a shell splits them."""
    command = spec[len(PREFIX):] if spec.startswith(PREFIX) else shlex.quote(spec)
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise ValueError(f'cannot read the command of {spec!r}: {error}') from None
    if not words:
        raise ValueError(f'{spec!r} names no command; give one, such as exec:./bot')
    return words


def _paths(word: str, first: bool) -> list[str]:
    """Return the files and folders a word of a command names: the command itself
    when written as a path (as a shell reads it); any other word that is not an
    option and names existing files or folders, alone or as a list separated by
    ':' (a Java class path)."""
    if first:
        return [word] if os.sep in word else []
    parts = word.split(os.pathsep)
    if word.startswith('-') or not all(part and os.path.exists(part) for part in parts):
        return []
    return parts


def read_code(spec: str) -> PlayerCode | ProgramCode:
    """Return what a jail needs to run a player's spec: a ProgramCode for a program,
    else remote.read_player's PlayerCode. Raises ValueError naming what is wrong."""
    return read_program(spec) if is_program_spec(spec) else read_player(spec)


def stand_in(code: PlayerCode | ProgramCode, setup: Setup, seed: str, history: list,
             timing: TimeControl = TimeControl(), *, game: Game, seat: int,
             reuse: bool = False) -> JailedPlayer:
    """Return the trusted side's stand-in for a player in a jail, started for seat
    of game: a ProgramPlayer for a program, else a remote.JailedPlayer (see both)."""
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
        self.jail.send({'type': 'start', 'protocol': PROTOCOL, 'game': repr(game), 'seat': seat,
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
            if error.reason == 'timeout':
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
