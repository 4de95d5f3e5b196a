"""Players in jails: the trusted side's stand-in for a jailed player, which keeps
the player's clock and turns its answers into the referee's own legal moves, and
the loop the jail runs.

The protocol, one JSON object a line. The trusted side first sends the setup,
{"setup": {...}}: the game's spec, how to make the game and load the player, the
player (a registry spec, or a file's source), the seed of the player's random
module and the history so far; the jail answers {"ready": true} or {"error": ...}.
(A jail of a shipped player may be sent the setup of another game later.) Then,
for each move, the trusted side sends the history since its last request and the
time the player has; the jail answers {"move": ..., "stats": {"nodes": N}} or
{"error": "Type: message (file, line N)"}. A history is a list of events,
["move", move] or ["chance", outcome], each as plain JSON data.
"""

from __future__ import annotations

import copy
import importlib
import json
import math
import os
import random
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from games import clock, referee
from games.base import Game
from .jail import Jail, JailError, Limits
from games.stochastic import from_json

ENTRY = 'players.arena.remote:serve'
LOAD_SECONDS = 10.0
"""Seconds a jail may take to start and load its player, besides any move's time."""
PACKAGES = ('games', 'players', 'variants')
"""The packages a jailed player may import from this project."""
IDLE_LIMIT = 32
"""The most jails of shipped players that a process keeps between games."""

_idle: list = []
"""Jails of shipped players waiting in this process for their next game, as
((spec, limits), jail), oldest first."""


@dataclass(frozen=True)
class PlayerCode:
    """What a jail needs to load a player: a registry spec, or a file's source."""

    spec: str
    """The spec the player was given by, such as 'ab3' or 'subs/alice.py:player'."""
    source: str | None = None
    """The Python source of a file or module player, read by the trusted side; None
    for a registry player."""
    filename: str = ''
    """The file's name, shown in the player's error messages."""
    function: str = 'player'
    """The name of the player function in the source."""


@dataclass(frozen=True)
class TimeControl:
    """How much time each player has: a limit per move, and a game clock of base
    seconds with increment seconds added after each move (a player whose clock
    runs out forfeits on time)."""

    move_seconds: float | None = None
    base: float | None = None
    increment: float = 0.0


@dataclass(frozen=True)
class Setup:
    """What every jail of a game is told: the game and how to make it and its players."""

    game: str
    """The game's spec or variant name."""
    make_game: str = 'variants:make'
    """The function, 'module:function', that makes the game from its spec."""
    load_player: str = 'players:load_player'
    """The function that loads a registry player from its spec."""
    level: str = 'process'
    """The jail level of file and module players: 'process' or 'bwrap'. The
    players this project ships (registry players) always run at 'process', which
    spares them bubblewrap's start-up time; their clocks and records are the same."""
    limits: Limits = field(default_factory=Limits)


def split_spec(spec: str) -> tuple[str, str] | None:
    """Return (location, function) of a file or module player's spec
    ('path/to/file.py:function', 'package.module:function', 'file.py'), or None for
    a registry spec."""
    if ':' in spec:
        location, function = spec.rsplit(':', 1)
        return location, function
    if spec.endswith('.py'):
        return spec, 'player'
    return None


def read_player(spec: str) -> PlayerCode:
    """Return the PlayerCode of a spec, reading a file or module player's source
    (without running it). Raises ValueError naming a missing file or module."""
    parts = split_spec(spec)
    if parts is None:
        return PlayerCode(spec)
    location, function = parts
    path = location if location.endswith('.py') else module_file(location)
    if not os.path.isfile(path):
        raise ValueError(f'no player file {path!r}')
    try:
        with open(path, encoding='utf-8') as file:
            source = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f'cannot read player file {path!r}: {error}') from None
    return PlayerCode(spec, source, os.path.basename(path), function)


def module_file(name: str) -> str:
    """Return the file of a module on sys.path, found without importing anything;
    raise ValueError if there is none."""
    parts = name.split('.')
    for entry in sys.path:
        base = os.path.join(entry or os.getcwd(), *parts)
        for path in (base + '.py', os.path.join(base, '__init__.py')):
            if os.path.isfile(path):
                return path
    raise ValueError(f'cannot find module {name!r} for a player')


class JailedPlayer:
    """A player function (game, state) -> move that asks a player in a jail.

    It sends the jail the events of a shared history that it has not seen, waits
    no longer than the player's time, and returns the referee's own legal move
    equal to the answer; anything else raises referee.Forfeit. Nothing the jail
    sends is run, compared or called: only JSON is read, and only as data."""

    def __init__(self, code: PlayerCode, setup: Setup, seed: str, history: list,
                 timing: TimeControl = TimeControl(), reuse: bool = False,
                 jail: Jail | None = None):
        """Start the jail and send it the setup; history is the list of events the
        referee keeps adding to (see event()). A file or module player gets a jail
        of its own, started for this game, or jail, one already started whose
        entry answers this protocol (such as the grader's). With reuse, a shipped
        (registry) player may get a jail that an earlier game of this process left
        in good order: it starts each game afresh, with a new seed, a new game and the
        player loaded anew by load_player (which, for a player whose moves depend
        on its clock, also empties the search engine's tables)."""
        self.code, self.timing, self.history = code, timing, history
        self.remaining = timing.base
        self.stats: dict = {}
        self.key = (code.spec, setup.limits) if reuse and code.source is None else None
        waiting = [index for index, (key, _) in enumerate(_idle) if key == self.key]
        if jail is not None:
            self.jail = jail
        elif waiting:
            self.jail = _idle.pop(waiting[0])[1]
        else:
            level = setup.level if code.source is not None else 'process'  # shipped: no bwrap
            self.jail = Jail(ENTRY, level, setup.limits, PACKAGES)
        self._ready = self._sound = False
        self.jail.send({'setup': {'game': setup.game, 'make_game': setup.make_game,
                                  'load_player': setup.load_player, 'player': vars(code),
                                  'seed': seed, 'history': history}})
        self.seen = len(history)

    def wait_ready(self, seconds: float = LOAD_SECONDS) -> None:
        """Wait for the jail to load its player; raise referee.Forfeit if it cannot."""
        try:
            answer = self.jail.receive(seconds)
        except JailError as error:
            if error.reason == 'timeout':
                raise referee.Forfeit(referee.ERROR, f'did not load within {seconds:g} s')
            raise referee.Forfeit(referee.ERROR, f'cannot load player: {error}') from None
        if answer != {'ready': True}:
            raise referee.Forfeit(referee.ERROR, _error_text(answer, 'cannot load player'))
        self._ready = self._sound = True

    def __call__(self, game: Game, state) -> Any:
        """Ask the jail for its move in state and return the equal legal move."""
        if not self._ready:
            self.wait_ready()
        limit = self.time_left()
        request = {'history': self.history[self.seen:], 'time': limit,
                   'clock': self.remaining, 'increment': self.timing.increment}
        self.seen = len(self.history)
        answer = self._exchange(request, limit)
        if not isinstance(answer, dict) or 'move' not in answer:
            raise referee.Forfeit(referee.ERROR, _error_text(answer, 'error'))
        self.stats = _stats(answer.get('stats'))
        move = legal_move(game, state, answer['move'])
        self._sound = True
        return move

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
            if error.reason == 'timeout':
                raise referee.Forfeit(referee.TIMEOUT, self._late(limit)) from None
            raise referee.Forfeit(referee.ERROR, self._failure(error)) from None
        self._charge(time.perf_counter() - started)
        return answer

    def _failure(self, error: JailError) -> str:
        """Say how a jail failed to answer."""
        return str(error)

    def end(self, record: referee.GameRecord) -> None:
        """Tell the player how its game ended: a Python player is told nothing."""

    def errors(self) -> str | None:
        """Return what the player wrote on standard error, kept for the game's record:
        None for a Python player, whose output is thrown away."""
        return None

    def close(self) -> None:
        """End the player's game: kill the jail and everything in it, or, for a
        reusable jail whose every answer was sound, keep it for the next game."""
        if self.key is None or not self._sound:
            self.jail.close()
            return
        _idle.append((self.key, self.jail))
        if len(_idle) > IDLE_LIMIT:
            _idle.pop(0)[1].close()
        self._sound = False

    def _charge(self, seconds: float) -> None:
        """Take a move's time off the game clock; raise Forfeit if it ran out."""
        if self.remaining is None:
            return
        self.remaining -= seconds
        if self.remaining < 0:
            raise referee.Forfeit(referee.TIMEOUT, f'clock ran out ({self._control()})')
        self.remaining += self.timing.increment

    def _late(self, limit: float) -> str:
        """Say why a player ran out of time."""
        if self.timing.move_seconds is not None and limit == self.timing.move_seconds:
            return f'no move within {limit:g} s'
        return f'clock ran out ({self._control()})'

    def _control(self) -> str:
        """Return the time control as cutechess-cli writes it, such as '60+0.5'."""
        return f'{self.timing.base:g}+{self.timing.increment:g}'


def legal_move(game: Game, state, plain: Any) -> Any:
    """Return the legal move of state whose JSON form is plain; raise
    referee.Forfeit (illegal move) if there is none."""
    if plain is None:
        raise referee.Forfeit(referee.ILLEGAL, 'returned no move (None)')
    legal = {key(move): move for move in game.actions(state)}
    found = legal.get(_json(plain))
    if found is None:
        raise referee.Forfeit(referee.ILLEGAL, f'illegal move {_shown(plain)}; legal moves are '
                                               f'{list(legal.values())}')
    return found


def event(kind: str, value: Any) -> list:
    """Return a history event: ['move', move] or ['chance', outcome], as plain data."""
    return [kind, to_plain(value)]


def to_plain(value: Any) -> Any:
    """Return a move as plain JSON data (tuples become lists); raise TypeError for
    anything that is not numbers, strings, None, tuples or lists of them."""
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    raise TypeError(f'a move must be plain data (numbers, strings, tuples), '
                    f'not {type(value).__name__}')


def key(move: Any) -> str:
    """Return the canonical JSON text of a move."""
    return _json(to_plain(move))


def _json(plain: Any) -> str:
    """Return the canonical JSON text of plain data."""
    return json.dumps(plain, separators=(',', ':'))


def _shown(plain: Any, limit: int = 100) -> str:
    """Return a player's move as a short text."""
    text = repr(from_json(plain))
    return text if len(text) <= limit else text[:limit - 1] + '…'


def _smallest(*limits: float | None) -> float | None:
    """Return the smallest of the limits that are not None, or None."""
    given = [limit for limit in limits if limit is not None]
    return max(0.0, min(given)) if given else None


def _stats(stats: Any) -> dict:
    """Return a player's reported stats, keeping only finite numbers under 'nodes'."""
    nodes = stats.get('nodes') if isinstance(stats, dict) else None
    if isinstance(nodes, (int, float)) and not isinstance(nodes, bool) and math.isfinite(nodes):
        return {'nodes': nodes}
    return {}


def _error_text(answer: Any, prefix: str) -> str:
    """Return the error a jail reported, or say that its answer made no sense."""
    if isinstance(answer, dict) and isinstance(answer.get('error'), str):
        return answer['error'][:referee.DETAIL_LIMIT]
    return f'{prefix}: unexpected answer {_json(answer)[:100]}'


# The jail's side: runs only inside a jail.

def serve(channel) -> None:
    """Play one seat of a game in a jail: at each setup, load the player and the
    game, then answer each request with the player's move, until the trusted side
    goes (or sends the setup of the next game, for a shipped player)."""
    games: dict = {}
    while True:
        try:
            message = channel.receive()
        except EOFError:
            return
        if 'setup' in message:
            setup = message['setup']
            code = PlayerCode(**setup['player'])
            random.seed(setup['seed'])
            try:
                if setup['game'] not in games:
                    games[setup['game']] = _imported(setup['make_game'])(setup['game'])
                game = games[setup['game']]
                state = replay_history(game, game.initial, setup['history'])
                player = _load(code, setup['load_player'])
            except BaseException as error:  # whatever the player's file does as it loads
                channel.send({'error': f'cannot load player: {_describe(error, code.filename)}'})
                return
            channel.send({'ready': True})
            continue
        state, answer = answer_move(player, game, state, message, code.filename)
        channel.send(answer)


def answer_move(player, game: Game, state, request: dict, filename: str) -> tuple[Any, dict]:
    """In a jail: answer one move request (see the protocol above), starting the
    player's clock, and return the new state and the answer to send."""
    limit = request['time']
    clock.set_current(clock.MoveClock(None if limit is None else time.monotonic() + limit,
                                      request['clock'], request['increment']))
    return _answer(player, game, state, request['history'], filename)


def _answer(player, game: Game, state, history: list, filename: str) -> tuple[Any, dict]:
    """Follow the history, ask the player for its move on private copies of the
    game and the state, and return the new state and the answer message."""
    try:
        state = replay_history(game, state, history)
        move = to_plain(player(copy.deepcopy(game), copy.deepcopy(state)))
        stats = getattr(player, 'stats', None)
        nodes = stats.get('nodes') if isinstance(stats, dict) else None
        return state, {'move': move,
                       'stats': {'nodes': nodes} if type(nodes) in (int, float) else {}}
    except BaseException as error:  # the player's fault, reported as its error
        return state, {'error': _describe(error, filename)[:referee.DETAIL_LIMIT]}


def replay_history(game: Game, state, history: list):
    """Return the state after a history of events (see event()), each move played
    as the game's own move."""
    for kind, plain in history:
        if kind == 'move':
            moves = {key(move): move for move in game.actions(state)}
            state = game.result(state, moves[_json(plain)])
        else:
            state = game.outcome(state, from_json(plain))
    return state


def _load(code: PlayerCode, load_player: str):
    """Return the player function of a PlayerCode."""
    if code.source is None:
        return _imported(load_player)(code.spec)
    name = 'player_file_' + os.path.splitext(code.filename)[0]
    module = type(sys)(name)
    module.__file__ = code.filename
    sys.modules[name] = module
    exec(compile(code.source, code.filename, 'exec'), module.__dict__)
    player = getattr(module, code.function, None)
    if not callable(player):
        raise LookupError(f'{code.filename} has no player function {code.function!r}')
    return player


def _imported(path: str):
    """Return the object of a 'module:name' path, importing the module."""
    module, name = path.split(':')
    return getattr(importlib.import_module(module), name)


def _describe(error: BaseException, filename: str) -> str:
    """Return 'Type: message (file, line N)' for an exception, naming the last line
    of the player's own file that it passed through."""
    text = referee.describe(error)
    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__)
             if filename and frame.filename == filename]
    return f'{text} ({filename}, line {lines[-1]})' if lines else text
