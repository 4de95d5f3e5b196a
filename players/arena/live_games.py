"""Games students play in the browser, each refereed in a process of its own
(players.arena.live_referee) against a player of the arena: a course player, their
own version on the ladder or, where the course allows challenging classmates, a
classmate's. The web server keeps each game's position as its process tells it and
passes on the student's moves; a finished game is kept in a results file of its own
(played/STUDENT/NUMBER.sqlite in the arena's folder) and replayed like any other. A
game under way when the server stops is lost, as its person is."""

from __future__ import annotations

import glob
import multiprocessing
import os
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from games import game_files
from players.remote.player_code import beside
from players.reports.player_text import for_terminal
from players.tournaments import entrants
from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store, StoreError
from .challenges import Opponent, opponents as challengeable
from .game_pages import OWN_VERSION, result_for, without_their_detail
from .live_referee import LiveJob, live_game
from .records import Records
from .settings import ArenaSettings

FOLDER = 'played'
"""The finished live games, in the arena's folder: a folder of each student's."""
PERSON = 'a person in the browser'
"""The spec a person plays by, in a live game's results file."""
STARTING, YOUR_MOVE, THINKING, OVER = 'starting', 'your move', 'thinking', 'over'
"""A live game's status, as its page shows it."""


@dataclass
class LiveGame:
    """A game a student plays in the browser, as the web server knows it."""

    student: str
    number: int
    """Its number among the student's games in the browser, from 1."""
    variant: str
    names: tuple[str, str]
    """The players' names in the record, in seat order: the student's id for theirs."""
    person_seat: int
    settings: RunSettings
    status: str = STARTING
    drawing: dict[str, Any] = field(default_factory=dict)
    """The board as it stands (the game's drawing)."""
    choices: list[list[Any]] = field(default_factory=list)
    """On the student's move, each legal move: [its notation, the places it marks]."""
    made: list[tuple[int, str]] = field(default_factory=list)
    """The moves made: (seat, notation)."""
    ends: float = 0.0
    """When the student's time for this move runs out (time.monotonic)."""
    result: str = ''
    """How the game ended, once over, in words."""
    changes: int = 0
    """How many times the game changed: a page waits for the next."""
    connection: Connection | None = None
    """The pipe to the game's referee process (once started)."""
    process: multiprocessing.process.BaseProcess | None = None
    """The game's referee process (once started)."""
    lock: threading.Condition = field(default_factory=threading.Condition)

    def plain(self) -> dict[str, Any]:
        """Return the game as its page's script reads it, how it ended as a page shows
        it (see player_text.for_terminal: it may quote what the student's own code wrote)."""
        with self.lock:
            return {'status': self.status, 'drawing': self.drawing, 'choices': self.choices,
                    'made': [[seat, move] for seat, move in self.made], 'ply': len(self.made),
                    'seconds_left': max(0.0, self.ends - time.monotonic())
                    if self.status == YOUR_MOVE else None,
                    'result': for_terminal(self.result), 'changes': self.changes}


class LiveGames:
    """The games students play in the browser: at most the course's play.games at
    once, and one for each student."""

    def __init__(self, settings: ArenaSettings, records: Records):
        self.settings = settings
        self.records = records
        self.limit = settings.play.games
        self._games: dict[tuple[str, int], LiveGame] = {}
        self._lock = threading.Lock()
        self._context = multiprocessing.get_context('spawn')

    def opponents(self, student: str) -> list[Opponent]:
        """Return whom a student may play in the browser: their own version on the
        ladder, then those they may challenge."""
        mine = self.records.playing().get(student)
        own = [Opponent(f'{OWN_VERSION}{mine.number}', mine.path, mine.number)] if mine else []
        return own + challengeable(self.settings, self.records, student)

    def start(self, student: str, opponent: Opponent, variant: str, person_seat: int) -> LiveGame:
        """Start a game of the student's against opponent on a variant of the
        ladder, the student in person_seat; return it. Raise ValueError saying why
        it cannot start."""
        if not self.limit:
            raise ValueError('this course has no games in the browser')
        if variant not in self.settings.variants:
            raise ValueError('choose a variant of the ladder from the list')
        with self._lock:
            under_way = [game for game in self._games.values() if game.status != OVER]
            if any(game.student == student for game in under_way):
                raise ValueError('finish or resign the game you are playing first')
            if len(under_way) >= self.limit:
                raise ValueError(f'{self.limit} games are being played in the browser: '
                                 'try again in a minute')
            for key in [key for key, game in self._games.items()
                        if game.student == student and game.status == OVER]:
                del self._games[key]  # kept in its results file
            number = self._next_number(student)
            names = (student, opponent.name) if person_seat == 0 else (opponent.name, student)
            seed = int.from_bytes(os.urandom(7), 'big')
            rules = self.settings.rules
            settings = RunSettings(players=names, specs={student: PERSON,
                                                         opponent.name: opponent.spec},
                                   variants=(variant,), seed=seed,
                                   move_timeout=rules.move_timeout, max_plies=rules.max_plies,
                                   sandbox=rules.sandbox)
            game = LiveGame(student, number, variant, names, person_seat, settings)
            self._games[student, number] = game
        try:
            code = beside(entrants.read(opponent.spec, self.settings.folder_limits),
                          self.settings.support)
            broken = ''
        except ValueError:
            code, broken = None, 'its files can no longer be read'
        source = game_files.message(variant)
        job = LiveJob(variant, rules, code, broken, person_seat, names, seed,
                      self.settings.play.move_seconds, () if source is None else (source,))
        ours, theirs = self._context.Pipe()
        process = self._context.Process(target=live_game, args=(theirs, job), daemon=True,
                                        name=f'live game {student} {number}')
        try:
            process.start()
        except Exception:  # no game: the student may start another
            with self._lock:
                del self._games[student, number]
            raise
        theirs.close()
        game.connection, game.process = ours, process
        threading.Thread(target=self._follow, args=(game, ours, process), daemon=True,
                         name=f'live game {student} {number}').start()
        return game

    def get(self, student: str, number: int) -> LiveGame | None:
        """Return a student's game under way (or just over) of this number, or None."""
        return self._games.get((student, number))

    def move(self, game: LiveGame, index: int, ply: int, wait: float) -> None:
        """Play the student's move of this index among the choices shown at ply (the
        moves made before it): nothing if it is not their move, ply is another, or
        there is no such choice. Then wait at most wait seconds for the game to come
        back to them or end."""
        with game.lock:
            if game.status != YOUR_MOVE or ply != len(game.made) \
                    or not 0 <= index < len(game.choices) or game.connection is None:
                return
            game.connection.send(('move', index))
            game.status, game.choices = THINKING, []
            game.lock.wait_for(lambda: game.status != THINKING, wait)

    def resign(self, game: LiveGame) -> None:
        """Resign the student's game on their move."""
        with game.lock:
            if game.status == YOUR_MOVE and game.connection is not None:
                game.connection.send(('resign', None))
                game.status, game.choices = THINKING, []

    def finished(self, student: str) -> list[tuple[int, GameRecord, RunSettings]]:
        """Return a student's finished games in the browser, the newest first, each
        with its number and settings."""
        found = []
        for path in glob.glob(os.path.join(self.settings.path(FOLDER, student), '*.sqlite')):
            number = os.path.basename(path).split('.')[0]
            try:
                with Store.read(path) as store:
                    found += [(int(number), record, store.settings) for record in store.records()]
            except (StoreError, ValueError):
                continue
        return sorted(found, key=lambda item: -item[0])

    def stop(self) -> None:
        """End the games under way: their processes are killed (their jails end with
        them), and each game's thread sees its pipe close."""
        with self._lock:
            for game in self._games.values():
                if game.process is not None and game.process.is_alive():
                    game.process.kill()

    def _next_number(self, student: str) -> int:
        """Return the number of a student's next game (self._lock held)."""
        kept = [int(os.path.basename(path).split('.')[0]) for path in
                glob.glob(os.path.join(self.settings.path(FOLDER, student), '*.sqlite'))]
        known = [number for who, number in self._games if who == student]
        return max([0, *kept, *known]) + 1

    def _follow(self, game: LiveGame, connection: Connection,
                process: multiprocessing.process.BaseProcess) -> None:
        """Follow a game's process until the game ends: keep each position, and the
        record in the game's results file."""
        try:
            while True:
                kind, value = connection.recv()
                if kind == 'done':
                    self._keep(game, GameRecord.from_row(value))
                    return
                with game.lock:
                    if kind == 'turn':
                        game.status, game.drawing = YOUR_MOVE, value['drawing']
                        game.choices = value['moves']
                        game.ends = time.monotonic() + value['seconds']
                    elif kind == 'moved':
                        game.status, game.drawing = THINKING, value['drawing']
                        game.made.append((value['seat'], value['move']))
                    elif kind == 'failed':
                        game.status, game.result = OVER, f'No result: {value}.'
                        return
                    game.changes += 1
                    game.lock.notify_all()
        except (EOFError, OSError):
            self._over(game, 'The game was lost: its referee stopped.')
        finally:
            connection.close()
            process.join(timeout=5)

    def _keep(self, game: LiveGame, record: GameRecord) -> None:
        """Keep a finished game's record in its results file, and say how it ended."""
        os.makedirs(self.settings.path(FOLDER, game.student), mode=0o700, exist_ok=True)
        store = Store(self.settings.path(FOLDER, game.student, f'{game.number}.sqlite'),
                      game.settings)
        try:
            store.add(record)
        finally:
            store.close()
        detail = without_their_detail(record, game.student).detail
        result = {'win': 'You won', 'loss': 'You lost', 'draw': 'A draw'}[
            result_for(record, game.student)]
        self._over(game, f'{result} ({record.termination}' + (f': {detail}' if detail else '')
                   + ').')

    def _over(self, game: LiveGame, result: str) -> None:
        with game.lock:
            if game.status != OVER:
                game.status, game.result, game.choices = OVER, result, []
                game.changes += 1
                game.lock.notify_all()
