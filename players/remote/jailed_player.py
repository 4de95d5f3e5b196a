"""The trusted side's stand-in for a Python player in a jail (JailedPlayer), which
keeps the player's clock and turns its answers into the referee's own legal moves;
the jail's side is players.remote.serving, and the messages between them are
players.remote.protocol's: a JailStart, then a JailMoveRequest for each move, each
answered by READY or a MoveAnswer, or by an ErrorAnswer. A history is a list of
events, ["move", move] or ["chance", outcome], each as plain JSON data.
"""

from __future__ import annotations

import functools
import os
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from games import game_files, referee
from games.base import Game
from games.stochastic import from_json
from players.sandbox import folder_image
from players.sandbox.allowed import AllowedPackages, with_modules
from players.sandbox.jail import Jail, JailError, JailTimeout, Limits
from .plain_json import find_move, to_plain
from .player_code import PlayerCode
from .protocol import (LOAD_FAILED, JailMoveRequest, JailStart, ProtocolError, read_compiled,
                       read_error, read_move, read_ready)
from .remote_player import LOAD_SECONDS, RemotePlayer, TimeControl

ENTRY = 'players.remote.serving:serve'
"""The jail's side of the protocol, run in each player's jail."""
IDLE_LIMIT = 32
"""The most jails of shipped players that a process keeps between games."""

_idle: list = []
"""Jails of shipped players waiting in this process for their next game, as
((spec, limits), jail), oldest first. A forked child (a worker) starts with none:
those it would inherit are its parent's, spoken to over its parent's sockets."""
os.register_at_fork(after_in_child=_idle.clear)
COMPILED_KEPT = 1000
"""The most players whose compiled source a process keeps."""
_compiled: dict = {}
"""The compiled source of each file player whose first jail in this process sent it
(a Compiled answer), by PlayerCode: the text, never read here, that later jails of
the same code are given instead of compiling the source again."""


@dataclass(frozen=True)
class Setup:
    """What every jail of a game is told: the game and how to make it and its players."""

    game: str
    """The game's spec or variant name."""
    make_game: Callable[[str], Game]
    """The module-level function that makes the game from its spec (in the jail too)."""
    load_player: Callable[[str], Any]
    """The module-level function that loads a registry player from its spec, in the jail."""
    level: str = 'process'
    """The jail level of file and module players: 'process' or 'bwrap'. The
    players this project ships (registry players) always run at 'process', which
    spares them bubblewrap's start-up time; their clocks and records are the same."""
    limits: Limits = field(default_factory=Limits)
    allowed: AllowedPackages = AllowedPackages()
    """The installed packages that file and module players may import (see
    players.sandbox.allowed)."""

    def packages(self) -> tuple[str, ...]:
        """Return the packages of this project a jail of the setup may import: the
        rules, and the packages of make_game and load_player."""
        named = {'games', *(function.__module__.split('.')[0]
                            for function in (self.make_game, self.load_player))}
        return tuple(sorted(named))

    def game_imports(self) -> tuple[str, ...]:
        """Return the installed modules the game's own code imports (its jail_imports),
        which its jails are given."""
        return _jail_imports(self.make_game, self.game)

    def start(self, code: PlayerCode, seed: str, history: list,
              compiled: str | None = None) -> JailStart:
        """Return the start of a game for a jail of code's player, passing on the
        compiled form of its source that an earlier jail sent (see
        JailedPlayer.wait_ready)."""
        told = code.told()
        if compiled is not None:
            told = replace(told, compiled=compiled)
        return JailStart(self.game, seed, list(history), told, _path(self.make_game),
                         _path(self.load_player), game_files.message(self.game))


class JailedPlayer(RemotePlayer):
    """A player function (game, state) -> move that asks a Python player in a jail.

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
        on its clock, also empties the search engine's tables), and errors() tells
        only what the player wrote during this game, as for a jail started for it."""
        in_file_game = code.source is None and game_files.is_file_spec(setup.game)
        started_here = jail is None
        # a shipped player may import what the game's own file does
        shipped = code.source is None and not in_file_game
        allowed = with_modules(AllowedPackages() if shipped else setup.allowed,
                               setup.game_imports())
        kept = (code.spec, setup.limits, allowed) if reuse and code.source is None else None
        waiting = [index for index, (key, _) in enumerate(_idle) if key == kept]
        if jail is None and waiting:
            jail = _idle.pop(waiting[0])[1]
            jail.forget_errors()  # the game's record keeps what it writes in this game
        elif jail is None:
            level = setup.level if code.source is not None else 'process'  # shipped: no bwrap
            image = folder_image.image_fd(code.files) if code.files else None
            jail = Jail(ENTRY, level, setup.limits, setup.packages(), image, allowed)
        super().__init__(code, timing, history, jail)
        self.shipped_in_file_game, self.key = in_file_game and started_here, kept  # not a grader's
        compiled = _compiled.get(code) if code.source is not None else None
        # a file player's jail started here, not given the compiled source, sends it first
        self.sends_compiled = started_here and code.source is not None and compiled is None
        self.jail.send(setup.start(code, seed, history, compiled).message())
        self.seen = len(history)

    def wait_ready(self, seconds: float = LOAD_SECONDS) -> None:
        """Wait for the jail to load its player; raise referee.Forfeit if it cannot.
        A file player's jail that was not given its compiled source answers with
        it first, always, before its player's code runs; that answer is kept,
        unread, for the player's later jails. Any other Compiled answer is out of
        turn."""
        deadline = time.monotonic() + seconds
        answer = self._load_answer(deadline, seconds)
        compiled = read_compiled(answer) if self.sends_compiled else None
        if compiled is not None:
            if compiled.code is not None:
                if len(_compiled) >= COMPILED_KEPT:
                    _compiled.clear()
                _compiled[self.code] = compiled.code
            answer = self._load_answer(deadline, seconds)
        try:
            read_ready(answer)
        except ProtocolError as error:
            raise referee.Forfeit(referee.ERROR,
                                  _said(answer, LOAD_FAILED + str(error))) from None
        self._ready = self._sound = True

    def _load_answer(self, deadline: float, seconds: float) -> Any:
        """Return the jail's next answer as it loads, by deadline (seconds after the
        load began); raise referee.Forfeit if none comes."""
        try:
            return self.jail.receive(max(0.0, deadline - time.monotonic()))
        except JailError as error:
            if isinstance(error, JailTimeout):
                raise referee.Forfeit(referee.ERROR, f'did not load within {seconds:g} s')
            raise referee.Forfeit(referee.ERROR, LOAD_FAILED + str(error)) from None

    def __call__(self, game: Game, state) -> Any:
        """Ask the jail for its move in state and return the equal legal move."""
        if not self._ready:
            self.wait_ready()
        limit = self.time_left()
        request = JailMoveRequest(self.history[self.seen:], limit, self.remaining,
                                  self.timing.increment)
        self.seen = len(self.history)
        answer = self._exchange(request.message(), limit)
        try:
            answered = read_move(answer)
        except ProtocolError as error:
            if self.shipped_in_file_game:  # this project's player: the game's code failed
                raise referee.GameFailed(f'{_said(answer, str(error))}, in the search of '
                                         f'{self.code.spec}', state) from None
            raise referee.Forfeit(referee.ERROR, _said(answer, str(error))) from None
        self.stats = _stats(answered.stats)
        move = legal_move(game, state, answered.move)
        self._sound = True
        return move

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


def play_with_jails(game: Game, players: Sequence, history: list,
                    on_move: Callable | None = None, on_chance: Callable | None = None,
                    **options) -> referee.PlayedGame:
    """Play a game with referee.play(game, players, **options), some of the players
    stand-ins for players in jails (RemotePlayer) that share history: each move
    and roll is added to it (then on_move or on_chance is told, as referee.play
    tells them), and at the end each stand-in is told how the game ended. The
    caller closes the stand-ins."""
    def after_move(state, move, new_state):
        history.append(event('move', move))
        if on_move is not None:
            on_move(state, move, new_state)

    def after_roll(state, chance, new_state):
        history.append(event('chance', chance))
        if on_chance is not None:
            on_chance(state, chance, new_state)

    record = referee.play(game, players, on_move=after_move, on_chance=after_roll, **options)
    for player in players:
        if isinstance(player, RemotePlayer):
            player.end(record)
    return record


def legal_move(game: Game, state, plain: Any) -> Any:
    """Return the legal move of state whose JSON form is plain; raise
    referee.Forfeit (illegal move) if there is none."""
    if plain is None:
        raise referee.Forfeit(referee.ILLEGAL, 'returned no move (None)')
    legal = list(game.actions(state))
    found = find_move(legal, plain)
    if found is None:
        raise referee.Forfeit(referee.ILLEGAL, f'illegal move {_shown(plain)}; legal moves are '
                                               f'{legal}')
    return found


def event(kind: str, value: Any) -> list:
    """Return a history event: ['move', move] or ['chance', outcome], as plain data."""
    return [kind, to_plain(value)]


def _shown(plain: Any, limit: int = 100) -> str:
    """Return a player's move as a short text."""
    text = repr(from_json(plain))
    return text if len(text) <= limit else text[:limit - 1] + '…'


def _stats(stats: Any) -> dict:
    """Return a player's reported stats, keeping only finite numbers under 'nodes'."""
    nodes = referee.reported_nodes(stats)
    return {} if nodes is None else {'nodes': nodes}


def _said(answer: Any, wrong: str) -> str:
    """Return the error a jail reported in its answer, or else wrong, what was wrong
    with the answer."""
    reported = read_error(answer)
    return wrong if reported is None else reported[:referee.DETAIL_LIMIT]


@functools.lru_cache(maxsize=64)
def _jail_imports(make_game: Callable[[str], Game], spec: str) -> tuple[str, ...]:
    """Return the jail_imports of the game make_game makes of spec, made once."""
    return tuple(make_game(spec).jail_imports)


def _path(function: Callable) -> str:
    """Return 'module:name' of a module-level function, for a jail to import it."""
    return f'{function.__module__}:{function.__qualname__}'
