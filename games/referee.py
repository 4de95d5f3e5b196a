"""The referee: plays one game between player functions and keeps its full record."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from .base import Game, IllegalMoveError, Player, PlayerQuit

NORMAL = 'normal'
ADJUDICATED = 'adjudicated draw'
ILLEGAL = 'illegal move'
ERROR = 'error'
TIMEOUT = 'timeout'


@dataclass
class GameRecord:
    """Everything that happened in one game."""

    seats: tuple
    """The game's names of the players in seat order, such as ('X', 'O')."""
    moves: list = field(default_factory=list)
    """The moves played, in order."""
    times: list = field(default_factory=list)
    """Seconds each move took, in order."""
    final_state: Any = None
    """The state the game ended in."""
    utilities: tuple = ()
    """Each seat's utility of the final state; a forfeit scores the loss/win of the game's range."""
    termination: str = NORMAL
    """How the game ended: normal, adjudicated draw, illegal move, error or timeout."""
    detail: str = ''
    """What went wrong, for a forfeit or adjudication."""
    offender: int | None = None
    """The seat index of the player who forfeited, if any."""

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


def seats_of(game: Game) -> tuple:
    """Return the game's player names in seat order, finding the second one by
    playing a first move when the game does not list them."""
    if game.players:
        return tuple(game.players)
    first = game.to_move(game.initial)
    actions = game.actions(game.initial)
    second = game.to_move(game.result(game.initial, actions[0])) if actions else None
    return (first, second)


def play(game: Game, players: Sequence[Player], state=None, max_plies: int | None = None,
         on_move: Callable[[Any, Any, Any], None] | None = None,
         call: Callable[[Player, Game, Any], Any] | None = None) -> GameRecord:
    """Play a game from state (default: the initial state) and return its record.
    players[i] plays seat i. The referee asks to_move who moves, hands each player
    private copies of the game and state, and checks every move. A player that
    raises or makes an illegal move forfeits; past max_plies the game is adjudicated
    a draw. on_move(state, move, new_state) is told of each move; call(player, game,
    state) may replace the plain call player(game, state), to add time limits."""
    seats = seats_of(game)
    state = game.initial if state is None else state
    views = [copy.deepcopy(game) for _ in players]
    record = GameRecord(seats=seats)
    call = call or (lambda player, view, position: player(view, position))
    while not game.terminal_test(state):
        if max_plies is not None and record.plies >= max_plies:
            return _end(record, game, state, ADJUDICATED, f'no result after {max_plies} plies')
        seat = seats.index(game.to_move(state))
        started = time.perf_counter()
        try:
            move = call(players[seat], views[seat], copy.deepcopy(state))
        except (PlayerQuit, KeyboardInterrupt):
            raise
        except TimeoutError as error:
            return _forfeit(record, game, state, seat, TIMEOUT, str(error) or 'out of time')
        except BaseException as error:  # a player's fault must never stop the referee
            return _forfeit(record, game, state, seat, ERROR, f'{type(error).__name__}: {error}')
        record.times.append(time.perf_counter() - started)
        try:
            game.check_move(state, move)
        except IllegalMoveError as error:
            return _forfeit(record, game, state, seat, ILLEGAL, str(error))
        new_state = game.result(state, move)
        record.moves.append(move)
        if on_move:
            on_move(state, move, new_state)
        state = new_state
    return _end(record, game, state, NORMAL, '')


def _end(record: GameRecord, game: Game, state, termination: str, detail: str) -> GameRecord:
    """Close the record of a game that ended on the board or by adjudication."""
    record.final_state, record.termination, record.detail = state, termination, detail
    if termination == ADJUDICATED:
        record.utilities = tuple(0 for _ in record.seats)
    else:
        record.utilities = tuple(game.utility(state, seat) for seat in record.seats)
    return record


def _forfeit(record: GameRecord, game: Game, state, seat: int, termination: str,
             detail: str) -> GameRecord:
    """Close the record of a game that seat lost by a fault."""
    record.final_state, record.termination, record.detail = state, termination, detail
    record.offender = seat
    record.utilities = tuple(-1 if index == seat else 1 for index in range(len(record.seats)))
    return record
