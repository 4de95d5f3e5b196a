"""A game a person plays in the browser against a player of the arena, refereed in a
process of its own (started fresh by the web server, which runs no game and starts
no jail itself): the player in its jail, as in the ladder's games, and the person a
function of this process that sends the web server each position (its drawing, and
every legal move in the notation `play` uses, with the squares it marks) and waits
for the person's choice on their clock. Every message is plain data over a pipe to
the web server, which started this process; the record goes back the same way."""

from __future__ import annotations

import signal
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import variants
from games import game_files, referee
from games.base import Game
from players.registry import load_player
from players.remote.player_code import PlayerCode, ProgramCode
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.schedule import ScheduledGame

RESIGNED = 'resigned'
"""The reason a person who resigns forfeits with."""


@dataclass(frozen=True)
class LiveJob:
    """What a live game is: its variant, the rules the player plays by, the player's
    code (or why it cannot play), the person's seat and clock, and the names."""

    variant: str
    rules: Rules
    code: PlayerCode | ProgramCode | None
    """The player's code; None if it cannot play (broken says why)."""
    broken: str
    person_seat: int
    """0 if the person moves first, else 1."""
    names: tuple[str, str]
    """The players' names in the record, in seat order."""
    seed: int
    person_seconds: float
    """The person's time for each move."""
    sources: tuple[dict[str, object], ...] = ()
    """The game files' sources, as the web server read them (games.game_files.message)."""


class Person:
    """The person's seat: a player function that sends each position to the web
    server and waits for a move on the person's clock; and on_move, which sends
    each move made."""

    def __init__(self, connection: Connection, game: Game, seconds: float):
        self.connection = connection
        self.game = game
        self.seconds = seconds

    def __call__(self, game: Game, state: Any) -> Any:
        legal = list(game.actions(state))
        moves = [[game.typed_move(move), marks(game, state, move)] for move in legal]
        self.connection.send(('turn', {'drawing': game.drawing(state), 'moves': moves,
                                       'seconds': self.seconds}))
        ends = time.monotonic() + self.seconds
        while True:
            left = ends - time.monotonic()
            if left <= 0 or not self.connection.poll(left):
                raise referee.Forfeit(referee.TIMEOUT, f'no move within {self.seconds:g} s')
            kind, value = self.connection.recv()
            if kind == 'resign':
                raise referee.Forfeit(referee.ERROR, RESIGNED)
            if kind == 'move' and type(value) is int and 0 <= value < len(legal):
                return legal[value]

    def on_move(self, state: Any, move: Any, new_state: Any) -> None:
        """Send the web server a move made, by which seat, and the board after it."""
        seat = referee.seats_of(self.game).index(self.game.to_move(state))
        self.connection.send(('moved', {'move': self.game.typed_move(move), 'seat': seat,
                                        'drawing': self.game.drawing(new_state, move)}))


def marks(game: Game, state: Any, move: Any) -> list[Any]:
    """Return the places a move marks on the board (its drawing's marks after it):
    those a person clicks to choose it."""
    return list(game.drawing(game.result(state, move), move).get('marks', []))


def live_game(connection: Connection, job: LiveJob) -> None:
    """Play a live game (the target of its process): send ('turn', ...) for each of
    the person's moves and ('moved', ...) for each move made; then ('done', the
    record as a row), or ('failed', why) if the game's own code (or the machinery)
    failed. Ctrl-C is the web server's: this process ends when its pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        for source in job.sources:
            game_files.provide(source)
        game = variants.make(job.variant)
        person = Person(connection, game, job.person_seconds)
        spec = ScheduledGame(0, job.variant, job.names[0], job.names[1], 0, 0, job.seed)
        player = job.names[1 - job.person_seat]
        codes = {player: job.code} if job.code is not None else {}
        record = play_scheduled_game(
            spec, job.rules, codes, variants.make, load_player,
            broken={player: job.broken} if job.code is None else None,
            people={job.person_seat: person}, on_move=person.on_move)
        connection.send(('done', record.to_row()))
    except (EOFError, OSError):  # the web server is gone: so is the game
        pass
    except Exception as failed:  # the game's own code, or the machinery: no result
        connection.send(('failed', str(failed) if isinstance(failed, referee.GameFailed)
                         else f'{type(failed).__name__}: {failed}'))
    finally:
        connection.close()
