"""The referee: plays one game between player functions and keeps its full record."""

from __future__ import annotations

import copy
import numbers
import os
import random
import time
import traceback
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Sequence

from .base import Game, IllegalMoveError, Player, PlayerQuit, State
from .stochastic import StochasticGame



class Termination(str, Enum):
    """How a game ended. Each is a str, its text as records, JSON and the results
    store keep it ('normal', 'timeout', ...). CANNOT_LOAD ends, before its first
    move, a game of a player that could not be loaded at all."""

    NORMAL = 'normal'
    ADJUDICATED = 'adjudicated draw'
    ILLEGAL = 'illegal move'
    ERROR = 'error'
    TIMEOUT = 'timeout'
    CANNOT_LOAD = 'cannot load'

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


NORMAL, ADJUDICATED, ILLEGAL = Termination.NORMAL, Termination.ADJUDICATED, Termination.ILLEGAL
ERROR, TIMEOUT, CANNOT_LOAD = Termination.ERROR, Termination.TIMEOUT, Termination.CANNOT_LOAD
DETAIL_LIMIT = 500
"""The most characters of a forfeit's detail kept in the record (a player's message may be huge)."""
NODES_LIMIT = 10 ** 15
"""The most nodes a player's stats may report for one move (a thousand million a second
for over ten days): a larger count, or a negative one, is no search's and is not read, so
a game's total stays far within what its record can store."""


class Forfeit(Exception):
    """Raised by a stand-in for a player in another process to forfeit its game."""

    def __init__(self, termination: Termination, detail: str):
        super().__init__(detail)
        self.termination = termination
        """How the game ends: illegal move, error, timeout or cannot load."""
        self.detail = detail
        """What went wrong."""


@dataclass
class PlayedGame:
    """Everything that happened in one game, as the referee played it: its states and
    moves as the game's own values (a tournament keeps it as plain data, in
    players.tournaments.record.GameRecord)."""

    seats: tuple[Any, ...]
    """The game's names of the players in seat order, such as ('X', 'O')."""
    moves: list[Any] = field(default_factory=list)
    """The moves played, in order (each game's own values: AIMA's may be lists)."""
    times: list[float] = field(default_factory=list)
    """Seconds each move took, in order."""
    final_state: Any = None
    """The state the game ended in."""
    utilities: tuple[float, ...] = ()
    """Each seat's utility of the final state; a forfeit scores the loss/win of the game's range."""
    termination: Termination = NORMAL
    """How the game ended: normal, adjudicated draw, illegal move, error, timeout or
    cannot load."""
    detail: str = ''
    """What went wrong, for a forfeit or adjudication."""
    offender: int | None = None
    """The seat index of the player who forfeited, if any."""
    movers: list[int] = field(default_factory=list)
    """The seat index of the player who made each move, in order."""
    nodes: list[int | float | None] = field(default_factory=list)
    """Each seat's total of the 'nodes' its player reported in player.stats (None if none)."""
    rolls: list[Any] = field(default_factory=list)
    """The dice rolled in a game of chance, in order (games.stochastic.replay plays
    moves and rolls back)."""

    @property
    def plies(self) -> int:
        """The number of moves played."""
        return len(self.moves)

    @property
    def winner(self) -> int | None:
        """The seat index of the winner, or None for a draw."""
        best = max(self.utilities)
        leaders = [seat for seat, value in enumerate(self.utilities) if value == best]
        return leaders[0] if len(leaders) == 1 else None

    def score(self, seat: int = 0) -> float:
        """The points of a seat: 1 for a win, 0.5 for a draw, 0 for a loss."""
        winner = self.winner
        return 0.5 if winner is None else float(winner == seat)


def seats_of(game: Game) -> tuple[Any, ...]:
    """Return the game's player names in seat order, finding the second one by
    playing a first move when the game does not list them."""
    if game.players:
        return tuple(game.players)
    first = game.to_move(game.initial)
    actions = game.actions(game.initial)
    second = game.to_move(game.result(game.initial, actions[0])) if actions else None
    return (first, second)


def play(game: Game, players: Sequence[Player], state: State = None,
         max_plies: int | None = None,
         on_move: Callable[[Any, Any, Any], None] | None = None,
         isolate: bool = True, rng: random.Random | None = None,
         on_chance: Callable[[Any, Any, Any], None] | None = None) -> PlayedGame:
    """Play a game from state (default: the initial state) and return its record.
    players[i] plays seat i. The referee asks to_move who moves and checks every
    move. A player that raises (referee.Forfeit says how it forfeits) or makes an
    illegal move forfeits; past max_plies the game is adjudicated a draw. A method
    of the game that raises, or breaks its contract, raises GameFailed: the game's
    own code failed, which is no player's fault and no result.
    on_move(state, move, new_state) is told of each move. With
    isolate, players in this process get private copies of the game and the state
    and any change to the game's classes is undone and forfeits; stand-ins for
    players in other processes (players.remote.jailed_player) need none of that. In a game of
    chance the referee rolls the dice with rng (default: a fresh random.Random) and
    tells on_chance(state, chance, new_state) of each roll."""
    seats = seats_of(game)
    state = game.initial if state is None else state
    views = [copy.deepcopy(game) if isolate else game for _ in players]
    record = PlayedGame(seats=seats, nodes=[None] * len(seats))
    rules = _snapshot(game) if isolate else []
    rng = random.Random() if rng is None else rng
    return _play(game, players, state, max_plies, on_move, isolate, rng, on_chance,
                 record, views, rules)


class GameFailed(Exception):
    """The game's own code raised or broke its contract in the referee's hands: it
    reads 'the game failed: DETAIL'."""

    def __init__(self, detail: str, state: State = None) -> None:
        super().__init__(detail)
        self.detail = detail
        """What failed and where, such as 'RuntimeError: ... (konane.py, line 40), in result'."""
        self.state = state
        """The state the game failed in (None once sent to another process)."""

    def __str__(self) -> str:
        return f'the game failed: {self.detail}'

    def __reduce__(self) -> tuple[type[GameFailed], tuple[str]]:
        return GameFailed, (self.detail,)  # the state stays behind: it may not pickle


def _play(game: Game, players: Sequence[Player], state: State, max_plies: int | None,
          on_move: Callable[[Any, Any, Any], None] | None, isolate: bool,
          rng: random.Random, on_chance: Callable[[Any, Any, Any], None] | None,
          record: PlayedGame, views: list[Game], rules: Snapshot) -> PlayedGame:
    """Play on from state (see play); raise GameFailed when a method of the game
    raises or names a player who has no seat."""
    seats = record.seats
    while not _asked(state, game.terminal_test, state):
        if isinstance(game, StochasticGame) and _asked(state, game.is_chance_node, state):
            chance = _asked(state, game.roll, state, rng)
            new_state = _asked(state, game.outcome, state, chance)
            record.rolls.append(chance)
            if on_chance:
                on_chance(state, chance, new_state)
            state = new_state
            continue
        if max_plies is not None and record.plies >= max_plies:
            return _end(record, game, state, ADJUDICATED, f'no result after {max_plies} plies')
        seat = _seat(seats, game, state)
        started = time.perf_counter()
        try:
            move = players[seat](views[seat], copy.deepcopy(state) if isolate else state)
        except (PlayerQuit, KeyboardInterrupt, GameFailed):
            raise
        except Forfeit as forfeit:
            return _forfeit(record, state, seat, forfeit.termination, forfeit.detail)
        except BaseException as error:  # a player's fault must never stop the referee
            return _forfeit(record, state, seat, ERROR, describe(error))
        finally:
            changed = _restore(rules)
        record.times.append(time.perf_counter() - started)
        if changed:
            return _forfeit(record, state, seat, ERROR, f'changed the rules: {changed}')
        _count_nodes(record, seat, players[seat])
        try:
            move = _legal_move(game, state, move)
        except Exception as error:  # IllegalMoveError, or a move object that breaks comparison
            return _forfeit(record, state, seat, ILLEGAL, describe(error))
        new_state = _asked(state, game.result, state, move)
        record.moves.append(move)
        record.movers.append(seat)
        if on_move:
            on_move(state, move, new_state)
        state = new_state
    return _end(record, game, state, NORMAL, '')


def _asked(state: State, method: Callable[..., Any], *args: Any) -> Any:
    """Return method(*args), a method of the game asked in state (or a question
    about the game), whatever the game's code hands back; raise GameFailed saying
    where it raised."""
    try:
        return method(*args)
    except Exception as error:
        raise GameFailed(f'{describe(error)}{_place(error)}, in '
                         f'{getattr(method, "__name__", "the game")}', state) from None


def _seat(seats: tuple[Any, ...], game: Game, state: State) -> int:
    """Return the seat of the player to move; raise GameFailed if to_move names no seat."""
    mover = _asked(state, game.to_move, state)
    if mover not in seats:
        raise GameFailed(f'to_move names {mover!r}, who has no seat (the players are '
                         f'{", ".join(map(repr, seats))})', state)
    return seats.index(mover)


def _place(error: BaseException) -> str:
    """Return ' (file, line N)' of the innermost place an error passed through."""
    frames = list(traceback.walk_tb(error.__traceback__))
    if not frames:
        return ''
    frame, line = frames[-1]
    return f' ({os.path.basename(frame.f_code.co_filename)}, line {line})'


_MISSING = object()

Snapshot = list[tuple[type, dict[str, Any]]]
"""The attributes of a game's classes: each class with a copy of its own."""


def _snapshot(game: Game) -> Snapshot:
    """Return the attributes of the game's classes, to find a player changing them."""
    return [(cls, dict(vars(cls))) for cls in type(game).__mro__ if cls is not object]


def _restore(snapshot: Snapshot) -> str:
    """Put back any class attribute changed since the snapshot; return the changed
    names ('Nim.utility, ...'), or '' if none."""
    changed = []
    for cls, saved in snapshot:
        current = dict(vars(cls))
        for name in current.keys() - saved.keys():
            changed.append(f'{cls.__name__}.{name}')
            delattr(cls, name)
        for name, value in saved.items():
            if current.get(name, _MISSING) is not value:
                changed.append(f'{cls.__name__}.{name}')
                setattr(cls, name, value)
    return ', '.join(sorted(changed))


def _legal_move(game: Game, state: State, move: Any) -> Any:
    """Check a player's move and return the referee's own equal legal action, so
    that no object of the player's enters the game; raise IllegalMoveError if illegal."""
    if move is None:
        raise IllegalMoveError('returned no move (None)')
    game.check_move(state, move)
    legal = list(game.actions(state))
    return legal[legal.index(move)] if move in legal else move


def describe(error: BaseException) -> str:
    """Return 'Type: message' for a player's exception, even one whose str() fails."""
    name = type(error).__name__
    try:
        message = str(error)
    except Exception:
        message = ''
    return f'{name}: {message}' if message else name


def reported_nodes(stats: Any) -> int | float | None:
    """Return the nodes a player's stats report (stats['nodes'], a number from 0 to
    NODES_LIMIT), or None if they report none (or a count no search makes)."""
    nodes = stats.get('nodes') if isinstance(stats, dict) else None
    if isinstance(nodes, (int, float)) and not isinstance(nodes, bool) \
            and 0 <= nodes <= NODES_LIMIT:
        return nodes
    return None


def _count_nodes(record: PlayedGame, seat: int, player: Player) -> None:
    """Add the nodes a player reports in player.stats after a move to its seat's total."""
    try:
        nodes = reported_nodes(getattr(player, 'stats', None))
    except Exception:  # a player's broken attribute is ignored, never fatal
        return
    if nodes is not None:
        record.nodes[seat] = (record.nodes[seat] or 0) + nodes


def _end(record: PlayedGame, game: Game, state: State, termination: Termination,
         detail: str) -> PlayedGame:
    """Close the record of a game that ended on the board or by adjudication."""
    record.final_state, record.termination, record.detail = state, termination, detail
    if termination == ADJUDICATED:
        record.utilities = tuple(0 for _ in record.seats)
    else:
        record.utilities = tuple(_asked(state, game.utility, state, seat)
                                 for seat in record.seats)
        odd = [value for value in record.utilities
               if isinstance(value, bool) or not isinstance(value, numbers.Real)]
        if odd:
            raise GameFailed(f'utility returned {odd[0]!r}, not a number', state)
    return record


def forfeited(seats: tuple[Any, ...], seat: int, termination: Termination,
              detail: str) -> PlayedGame:
    """Return the record of a game that seat lost by a fault outside any move's
    checks, such as its worker process dying."""
    return _forfeit(PlayedGame(seats=seats, nodes=[None] * len(seats)), None, seat,
                    termination, detail)


def _forfeit(record: PlayedGame, state: State, seat: int, termination: Termination,
             detail: str) -> PlayedGame:
    """Close the record of a game that seat lost by a fault."""
    if len(detail) > DETAIL_LIMIT:
        detail = detail[:DETAIL_LIMIT - 1] + '…'
    record.final_state, record.termination, record.detail = state, termination, detail
    record.offender = seat
    record.utilities = tuple(-1 if index == seat else 1 for index in range(len(record.seats)))
    return record
