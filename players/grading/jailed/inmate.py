"""The jail's side of grading: load a student's file once, then answer the
grader's requests, each a line of JSON, until the grader goes. The messages are
jailed.messages' records; the jail dispatches on each request's kind:

- Load first, answered by Loaded (the functions the file defines) or LoadFailed;
- a SearchRequest: run the student's search on the position (see plain.build)
  with a counting game; answer with Calls, each call of result that made a state,
  in chunks, and then SearchDone. The grader follows the calls with its own game;
- a PerftRequest or a PositionsRequest: questions about the student's Game class,
  answered as jailed.rules says;
- a game's start, then requests for moves, in players.remote.protocol's jail
  protocol: the student's player answers them.

Every answer but a game's carries "reference": the first use of a reference
implementation refused so far (see guard), or null; in a game, such a use is the
player's error."""

from __future__ import annotations

import copy
import os
import random
import sys
from dataclasses import replace
from types import ModuleType
from typing import Any, Iterator

import variants
from games import game_files
from games.base import Game
from games.referee import DETAIL_LIMIT, describe
from games.sources import places, run_source
from players.remote.plain_json import to_plain
from players.remote.protocol import READY, ErrorAnswer, JailStart, MoveAnswer, ProtocolError
from players.remote.serving import answer_move, replay_history

from . import guard, rules
from .counting import Recorder, counting
from .messages import (Answer, Calls, Load, LoadFailed, Loaded, PerftRequest, PositionsRequest,
                       SearchDone, SearchRequest, read_request)
from .plain import build

CHUNK = 1 << 15
"""The most characters of calls in one message (a jail's message is at most 64 KiB)."""


def serve(channel: Any) -> None:
    """Load the student's file, say which functions it defines, then answer requests
    (channel: players.sandbox.jail_server's Channel)."""
    setup = read_request(channel.receive())
    if not isinstance(setup, Load):
        raise ProtocolError(f'the first request is not Load: {setup!r}'[:200])
    filename = setup.filename
    if setup.folder:  # a submission folder, the jail's working folder: its modules import
        sys.path.insert(0, os.getcwd())
        filename = os.path.join(os.getcwd(), filename)
    random.seed(0)
    if not setup.allow_reference:
        guard.guard()
    try:
        module = load(setup.source, filename)
    except BaseException as error:  # whatever the file does as it loads
        channel.send(_with_reference(LoadFailed(explain(error, filename))))
        return
    defined = tuple(name for name in setup.functions if callable(getattr(module, name, None))
                    and not getattr(getattr(module, name), 'stand_in', False))
    channel.send(_with_reference(Loaded(defined)))
    game: Game | None = None
    view: Game | None = None
    state = player = None
    while True:
        try:
            request = read_request(channel.receive())
        except EOFError:
            return
        if isinstance(request, SearchRequest):
            for answer in search(module, request, filename):
                channel.send(_with_reference(answer))
        elif isinstance(request, (PerftRequest, PositionsRequest)):
            for answer in rules.answer(module, request, lambda error: explain(error, filename),
                                       os.path.basename(filename)):
                channel.send(_with_reference(answer))
        elif isinstance(request, Load):
            raise ProtocolError('a second Load')
        else:  # a game's start or a request for a move, as a player's jail has them
            reply: ErrorAnswer | MoveAnswer | None
            if isinstance(request, JailStart):
                game, view, state, player, reply = start_game(module, request, filename)
            elif game is None or view is None:
                reply = ErrorAnswer('a move was asked before a game was set up')
            else:
                state, reply = answer_move(player, game, view, state, request, filename)
            channel.send(READY if reply is None else reply.message())


def load(source: str, filename: str) -> ModuleType:
    """Run a student's source as a module of its own and return the module."""
    return run_source(source, filename, 'student')


def search(module: ModuleType, request: SearchRequest, filename: str) -> Iterator[Answer]:
    """Run the student's search on a position; yield the answer's messages."""
    game_files.provide(request.game_source)
    position = build(request.position, variants.make)
    recorder = Recorder(request.limit)
    proxy = counting(position.game, recorder.record)
    random.seed(0)
    done = SearchDone()
    try:
        move = getattr(module, request.function)(copy.deepcopy(position.state), proxy,
                                                 **position.options)
    except NotImplementedError:
        done = SearchDone(not_implemented=True)
    except BaseException as error:  # the student's fault, reported with its place
        said = explain(error, filename)
        done = SearchDone(error=said if isinstance(error, SystemExit) else f'raised {said}')
    else:
        try:
            done = SearchDone(move=to_plain(move))
        except TypeError as error:
            done = SearchDone(error=f'returned {_shown(move)}, which is not a move: {error}')
    if recorder.stopped:  # even if the search caught TooManyStates and went on
        done = SearchDone(stopped=True)
    chunk: list[tuple[str, Any]] = []
    size = 0
    for key, made in recorder.calls:
        chunk.append((key, made))
        size += len(key) + len(repr(made)) + 8
        if size > CHUNK:
            yield Calls(tuple(chunk))
            chunk, size = [], 0
    if chunk:
        yield Calls(tuple(chunk))
    yield done


def start_game(module: ModuleType, start: JailStart, filename: str) -> tuple[Any, ...]:
    """Start a game of the player checks; return the game, the player's copy of it
    for the game, the state, the player and the ErrorAnswer to the start (None:
    ready)."""
    function = start.code.function
    player = getattr(module, function, None)
    if not callable(player):
        return None, None, None, None, ErrorAnswer(
            f'{os.path.basename(filename)} has no player function {function!r}')
    try:
        game_files.provide(start.game_source)
        game = variants.make(start.game)
        state = replay_history(game, game.initial, start.history)
    except Exception as error:  # the grader's own mistake, said as such
        return None, None, None, None, ErrorAnswer(f'the grader cannot start the game: {error}')
    random.seed(start.seed)
    return game, copy.deepcopy(game), state, player, None


def explain(error: BaseException, filename: str) -> str:
    """Return 'Type: message (file, line N, in function)' for an exception, naming
    the last place in the student's own file that it passed through."""
    text = describe(error)
    if isinstance(error, SystemExit):
        text = f'called sys.exit({error.code!r})'
    passed: list[tuple[str, int | None]] = list(places(error, filename))
    if passed and not isinstance(error, SyntaxError):  # a SyntaxError's text names its place
        function, line = passed[-1]
        where = '' if function == '<module>' else f', in {function}'
        text = f'{text} ({os.path.basename(filename)}, line {line}{where})'
    return text[:DETAIL_LIMIT]


def _with_reference(answer: Answer) -> dict[str, Any]:
    """The answer's message, with the first refused use of a reference implementation,
    if any."""
    return replace(answer, reference=guard.violations[0] if guard.violations else None).message()


def _shown(value: Any) -> str:
    """A short text for something a student's search returned."""
    try:
        text = repr(value)
    except Exception:  # a repr that fails
        text = f'a {type(value).__name__}'
    return text if len(text) <= 80 else text[:79] + '…'
