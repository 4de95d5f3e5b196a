"""The arena's leaderboard: the ladder's standings over all variants (with the
challenges' games where they count), with each student shown by the name they
chose, the version they play and, with anchors, their grade. It is worked out
again after games end (at most every REFRESH_SECONDS, in a thread of its own), and
each new board has a number that the pages' live updates wait on."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from dataclasses import asdict, dataclass
from typing import Callable, Mapping

from players.reports.grades import graded
from players.tournaments import ranking
from players.tournaments.ranking import Standing
from players.tournaments.record import GameRecord
from players.tournaments.results import OVERALL, Results
from players.tournaments.store import Store, StoreError
from .challenges import counted_games
from .ladder_loop import GAMES_FILE
from .rating_history import Rating, RatingHistory
from .records import Records
from .settings import ArenaSettings

REFRESH_SECONDS = 2.0
"""The least time between two boards: a board's rating fit takes a fraction of a second
of a core that the pages share, with a few hundred games."""


@dataclass(frozen=True)
class BoardRow:
    """One line of the leaderboard: a player's standing and who they are."""

    standing: Standing
    """The player's standing over all variants (with a grade where there are anchors)."""
    name: str
    """The name shown: a student's pseudonym or roster name, or a course player's."""
    student: str | None
    """The student's id, or None for the course's own player."""
    version: int | None
    """The number of the version the student plays."""

    def plain(self, me: str | None) -> dict[str, object]:
        """Return the row as every signed-in student may read it: the standing under
        the name shown (never a student's id, which a pseudonym hides), marked mine if
        it is the student me's."""
        shown = {key: value for key, value in asdict(self.standing).items() if key != 'player'}
        return {**shown, 'name': self.name, 'version': self.version,
                'mine': me is not None and self.student == me}


@dataclass(frozen=True)
class Board:
    """A leaderboard as it stood after some games."""

    number: int
    """The board's number: each new board's is one more."""
    rows: tuple[BoardRow, ...]
    games: int
    """The games played so far."""

    def plain(self, me: str | None = None) -> dict[str, object]:
        """Return the board as plain JSON data for a page's live update, the rows of
        the student me marked as theirs."""
        return {'number': self.number, 'games': self.games,
                'rows': [row.plain(me) for row in self.rows]}


def board_rows(settings: ArenaSettings, records: Records,
               forfeits: dict[str, GameRecord] | None = None) -> tuple[tuple[BoardRow, ...], int]:
    """Return the rows of the leaderboard as the arena's results file holds it, and
    how many games it holds; fill forfeits (if given) with the first game each
    player forfeited on the ladder."""
    path = settings.path(GAMES_FILE)
    if not os.path.isfile(path):
        return (), 0
    try:
        store = Store.read(path)
    except StoreError:
        return (), 0
    try:
        stored = store.settings
        known = set(stored.players)  # a game of a player the ladder is dropping is left out
        kept = [record for record in store.records() if {record.first, record.second} <= known]
        results = Results(stored.players, stored.variants).add_all(kept)
        count = store.count()
    finally:
        store.close()
    played_by = stored_versions(stored.specs, records)
    challenged = [record for record in counted_games(settings, records, played_by)
                  if {record.first, record.second} <= known]
    results.add_all(challenged)
    count += len(challenged)
    if not count:
        return (), 0
    for record in kept:
        if forfeits is not None and record.forfeit and record.forfeit not in forfeits:
            forfeits[record.forfeit] = record
    anchors = {name: grade for name, grade in settings.anchors.items() if name in stored.players}
    standings = ranking.standings(results, OVERALL)  # the overall fit alone, not each variant's
    if len(anchors) >= 2:
        standings = graded(standings, anchors)
    students = {student.id: student for student in records.students()}
    rows = []
    for standing in standings:
        student = students.get(standing.player)
        rows.append(BoardRow(standing, student.shown if student else standing.player,
                             student.id if student else None, played_by.get(standing.player)))
    return tuple(rows), count


def stored_versions(specs: Mapping[str, str], records: Records) -> dict[str, int]:
    """Return the number of the version each student's games in the results file
    were played by, from the file's specs (a version's path): until the ladder begins
    again with a student's new version, their games, and so their row, are the old
    one's."""
    by_path = {version.path: version for version in records.versions()}
    return {version.student: version.number for spec in specs.values()
            if (version := by_path.get(spec)) is not None}


def elo_line(notes: list[Rating], row: BoardRow) -> list[tuple[float, int]]:
    """Return a player's Elo over time, as a plot draws it: the notes of the version
    that row stands for, then the row's Elo now (notes are at most every NOTE_SECONDS,
    so that the line ends where the board stands)."""
    return [(note.time, note.elo) for note in notes if note.version == row.version] + [
        (time.time(), row.standing.elo)]


def ratings(rows: tuple[BoardRow, ...]) -> list[Rating]:
    """Return the players' ratings as a board's rows give them, now."""
    now = time.time()
    return [Rating(now, row.standing.player, row.version, row.standing.rank, row.standing.elo,
                   row.standing.games) for row in rows]


class Leaderboard:
    """The current board, worked out again in a thread of its own after changed()
    once started, each board's ratings noted in history, and boarded(board, forfeits)
    called with each board and the first game each player forfeited on the ladder."""

    def __init__(self, settings: ArenaSettings, records: Records, history: RatingHistory,
                 boarded: Callable[[Board, dict[str, GameRecord]], None] = lambda *_: None):
        self.settings = settings
        self.records = records
        self.history = history
        self.boarded = boarded
        forfeits: dict[str, GameRecord] = {}
        rows, games = board_rows(settings, records, forfeits)
        self.board = Board(0, rows, games)
        history.note(ratings(rows))
        self._forfeits = forfeits
        self._dirty = threading.Event()
        self._stopping = False
        self._new = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name='leaderboard', daemon=True)

    def start(self) -> None:
        """Say what the first board tells (see boarded), then work out each new one."""
        self.boarded(self.board, self._forfeits)
        self._thread.start()

    def changed(self) -> None:
        """Say that a game ended or a name changed: a new board follows shortly."""
        self._dirty.set()

    def wait(self, after: int, timeout: float) -> Board:
        """Return the board once its number passes after, or the current board after
        timeout seconds."""
        with self._new:
            self._new.wait_for(lambda: self.board.number > after, timeout)
            return self.board

    def stop(self) -> None:
        """Stop working out boards."""
        self._stopping = True
        self._dirty.set()

    def _loop(self) -> None:
        while True:
            self._dirty.wait()
            if self._stopping:
                return
            self._dirty.clear()
            forfeits: dict[str, GameRecord] = {}
            try:
                rows, games = board_rows(self.settings, self.records, forfeits)
            except Exception:  # a file being written: the next game's end tries again
                self._dirty.set()
            else:
                with self._new:
                    self.board = Board(self.board.number + 1, rows, games)
                    self._new.notify_all()
                with contextlib.suppress(sqlite3.ProgrammingError):  # closed as the arena stops
                    self.history.note(ratings(rows))
                    self.boarded(self.board, forfeits)
            time.sleep(REFRESH_SECONDS)
