"""The jail's side of playing: serve a player's seat, answering the trusted side's
requests in the protocol of players.remote.protocol. It runs only inside a jail,
and imports nothing of the trusted side: only the rules, plain JSON and the protocol."""

from __future__ import annotations

import base64
import copy
import importlib
import linecache
import marshal
import os
import random
import sys
import time
import traceback
from types import CodeType, ModuleType
from typing import Any, Callable

from games import clock, game_files, referee, sources
from games.base import Game
from games.stochastic import StochasticGame, from_json
from .plain_json import find_move, to_plain
from .protocol import (COMPILED_LIMIT, LOAD_FAILED, READY, Code, Compiled, ErrorAnswer,
                       JailMoveRequest, JailStart, MoveAnswer, read_request)


def serve(channel) -> None:
    """Play one seat of a game in a jail: at each JailStart, load the game and the
    player, then answer each JailMoveRequest with the player's move, until the
    trusted side goes (or starts the next game, for a shipped player). The player
    is shown a copy of the game of its own for the game (as the referee's players
    are), so that nothing it does to it changes the jail's replay."""
    games: dict = {}
    while True:
        try:
            request = read_request(channel.receive())
        except EOFError:
            return
        if isinstance(request, JailStart):
            start, code = request, request.code
            random.seed(start.seed)
            folder = os.getcwd() if code.folder else None  # the jail's copy of the folder
            try:
                if start.game not in games:
                    game_files.provide(start.game_source)
                    games[start.game] = imported(start.make_game)(start.game)
                game = games[start.game]
                state = replay_history(game, game.initial, start.history)
                view = copy.deepcopy(game)
                player = load(code, start.load_player, folder, channel.send)
            except BaseException as error:  # whatever the player's file does as it loads
                failed = LOAD_FAILED + where(error, code.filename, folder)
                show_traceback(error)
                channel.send(ErrorAnswer(failed).message())
                return
            channel.send(READY)
            continue
        state, answer = answer_move(player, game, view, state, request, code.filename, folder)
        channel.send(answer.message())


def answer_move(player, game: Game, view: Game, state, request: JailMoveRequest, filename: str,
                folder: str | None = None) -> tuple[Any, MoveAnswer | ErrorAnswer]:
    """In a jail: answer one request for a move, starting the player's clock, and
    return the new state and the answer to send (an error named in filename, or in
    any file of a submission's folder). The history is replayed in game; the player
    is shown view, the game's copy it keeps for the game, and a copy of the state.
    An error's traceback is written on the jail's standard error (see
    show_traceback), where the player's own output goes: the answer names only the
    error and its line."""
    limit = request.time_left
    clock.set_current(clock.MoveClock(None if limit is None else time.monotonic() + limit,
                                      request.clock, request.increment))
    try:
        state = replay_history(game, state, request.history)
        move = to_plain(player(view, copy.deepcopy(state)))
        nodes = referee.reported_nodes(getattr(player, 'stats', None))
        return state, MoveAnswer(move, {} if nodes is None else {'nodes': nodes})
    except BaseException as error:  # the player's fault, reported as its error
        detail = where(error, filename, folder)[:referee.DETAIL_LIMIT]
        show_traceback(error)
        return state, ErrorAnswer(detail)


def replay_history(game: Game, state, history: list):
    """Return the state after a history of events (['move', move] or ['chance',
    outcome], as plain data), each move played as the game's own move."""
    for kind, plain in history:
        if kind == 'move':
            move = find_move(game.actions(state), plain)
            if move is None:
                raise ValueError(f'{plain!r} is not a legal move in the history')
            state = game.result(state, move)
        elif isinstance(game, StochasticGame):
            state = game.outcome(state, from_json(plain))
        else:
            raise ValueError(f'a roll in the history of {game!r}, a game without chance')
    return state


def load(code: Code, load_player: str, folder: str | None = None,
         send: Callable[[dict], None] | None = None):
    """Return the player function of a player's code: a registry player loaded by
    load_player ('module:function'), or the function of a file's source, run as a
    module of its own (its code compiled by compiled(code, filename, send)). A
    submission's folder (its copy in the jail) comes first on the import path, and
    its entry's __file__ is there."""
    if code.source is None:
        return imported(load_player)(code.spec)
    stem = os.path.splitext(os.path.basename(code.filename))[0]
    filename, name = code.filename, 'player_file_' + stem
    if folder is not None:
        sys.path.insert(0, folder)
        filename = os.path.join(folder, code.filename)
        name = stem if stem.isidentifier() and stem not in sys.modules else name
    if folder is None:  # its source is nowhere on the jail's disk: a traceback's lines
        linecache.cache[filename] = (len(code.source), None, code.source.splitlines(True),
                                     filename)
    module = sources.run_source(compiled(code, filename, send), filename, name)
    player = getattr(module, code.function, None)
    if not callable(player):
        raise LookupError(f'{code.filename} has no player function {code.function!r}')
    return player


def compiled(code: Code, filename: str, send: Callable[[dict], None] | None = None) -> CodeType:
    """Return the code of a file player's source, compiled from filename: the
    compiled form the trusted side passed on (from the first jail of the same code)
    where it is one, or else the source compiled here. If the trusted side had none
    to pass on, the compiled source is sent (send) as a Compiled answer, before any
    of the player's code runs (its code None where it is too long to pass on)."""
    if code.compiled is not None:
        try:
            passed = marshal.loads(base64.b64decode(code.compiled))
        except (ValueError, EOFError, TypeError):
            passed = None
        if isinstance(passed, CodeType) and passed.co_filename == filename:
            return passed
    assert code.source is not None
    result = sources.compiled(code.source, filename)
    if code.compiled is None and send is not None:
        text = base64.b64encode(marshal.dumps(result)).decode('ascii')
        send(Compiled(text if len(text) <= COMPILED_LIMIT else None).message())
    return result


def show_traceback(error: BaseException) -> None:
    """Write the traceback of a player's exception on the jail's standard error
    (file descriptor 2, whatever the player made of sys.stderr), as Python prints
    an exception nobody caught, from the first frame that is not the jail's own
    code on: so that the player's output (the game's record keeps it, see
    players.sandbox.jail.Jail.errors) says where it failed, line by line. A
    SystemExit is not shown, as Python does not show it; nothing the exception or
    the player's streams do can keep the jail from answering."""
    if isinstance(error, SystemExit):
        return
    try:
        trace = error.__traceback__
        while trace is not None and trace.tb_frame.f_code.co_filename in _JAIL_FILES:
            trace = trace.tb_next
        data = ''.join(traceback.format_exception(type(error), error, trace)).encode(
            'utf-8', 'backslashreplace')
        while data:
            data = data[os.write(2, data):]
    except BaseException:  # a broken stream, or an exception whose text fails
        pass


_JAIL_FILES = frozenset((__file__, sources.__file__))
"""The jail's own code that a player's traceback starts in, left out of it."""


def imported(path: str):
    """Return the object of a 'module:name' path, importing the module."""
    module, name = path.split(':')
    return getattr(importlib.import_module(module), name)


def where(error: BaseException, filename: str, folder: str | None = None) -> str:
    """Return 'Type: message (file, line N)' for an exception, naming the last line
    of the player's own file that it passed through (of a submission, the last
    line of any file of its folder). A module not found says what a jailed player
    may import; an error about a module that a submission's folder holds but the
    jail had imported before the player says that the folder's is not used."""
    text = referee.describe(error)
    if isinstance(error, ModuleNotFoundError) and error.name:
        text += _not_found(error.name.split('.')[0], folder)
    if isinstance(error, SyntaxError):  # its text names its file and line
        found = []
    elif folder is not None:
        found = sources.places_in(error, folder)
    else:
        found = [(filename, line) for _, line in sources.places(error, filename)]
    found = found or game_files.places(error)
    place = f' ({found[-1][0]}, line {found[-1][1]})' if found else ''
    return text + place + _unused(error, folder)


def _not_found(top: str, folder: str | None) -> str:
    """Say what a jailed player may import, for a module top that it could not:
    the package to allow first, which a line cut short still shows. Nothing for a
    module of its own folder."""
    if folder is not None and _own(top, folder):
        return ''
    if top in sys.stdlib_module_names:
        if os.path.isdir(os.path.dirname(os.__file__)):
            return ''  # a module this Python was built without
        return (': here a jail sees no files (this system allows it no mounts) and imports '
                'only the standard modules that its jail server imported')
    if folder is None:
        return (f' (installed? --allow {top}): a jailed player file imports the standard '
                'library and the installed packages a run allows; its own modules come '
                'along only in a submission folder')
    return (f' (installed? --allow {top}): a jailed player imports the standard library, '
            'the modules of its own submission folder and the installed packages a run allows')


def _unused(error: BaseException, folder: str | None) -> str:
    """Say that a submission folder's own module is not used, where error is about a
    module of that name that the jail had imported before the player (a folder's
    games.py or random.py: the jail's games and random are this project's and the
    standard library's); else return ''."""
    module = getattr(error, 'obj', None) if isinstance(error, AttributeError) else None
    name = error.name if isinstance(error, ImportError) else None
    if isinstance(module, ModuleType):
        name = module.__name__
    name = (name or '').split('.')[0]
    if folder is None or name not in sys.modules or not _own(name, folder):
        return ''
    if (getattr(sys.modules[name], '__file__', None) or '').startswith(os.path.join(folder, '')):
        return ''
    return (f'; its folder\'s {_own(name, folder)} is not used: {name} is the jail\'s own, '
            'imported before the player')


def _own(name: str, folder: str) -> str:
    """Return the file of a submission's folder that is module name ('games.py' or
    'games/__init__.py'), or '' if it has none."""
    return next((path for path in (f'{name}.py', os.path.join(name, '__init__.py'))
                 if os.path.isfile(os.path.join(folder, path))), '')
