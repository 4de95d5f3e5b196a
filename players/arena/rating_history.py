"""The leaderboard's history, kept in its own SQLite file (ratings.sqlite in the
arena's folder): a player's rank and Elo noted as the boards change, so that each
version's rating can be drawn over time and a resubmission's change to the standings
told. A player is noted when they have played games since their last note (at most
every NOTE_SECONDS) and whenever they play a new version, so that a term's history
stays a few rows a player an hour of play."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from typing import Iterable

NOTE_SECONDS = 300.0
"""The least time between two notes of one player's version (its first note aside)."""
_SCHEMA = '''
CREATE TABLE IF NOT EXISTS ratings (
    time REAL NOT NULL, player TEXT NOT NULL, version INTEGER, rank INTEGER NOT NULL,
    elo INTEGER NOT NULL, games INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS ratings_player ON ratings (player, time);
'''


@dataclass(frozen=True)
class Rating:
    """A player's standing as a board stood at a time."""

    time: float
    """When (seconds since the epoch)."""
    player: str
    """The player's name in the games: a student's id, or a course player's name."""
    version: int | None
    """The student's version that played (None for a course player)."""
    rank: int
    elo: int
    games: int


class RatingHistory:
    """The notes of the players' standings in the SQLite file path, safe to use from
    many threads."""

    def __init__(self, path: str):
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute('PRAGMA journal_mode=WAL')
        self._connection.executescript(_SCHEMA)
        self._last = {rating.player: rating for rating in self._rows(
            'SELECT r.* FROM ratings r JOIN (SELECT player, MAX(time) AS time FROM ratings '
            'GROUP BY player) l ON r.player = l.player AND r.time = l.time')}

    def _rows(self, sql: str, *values: object) -> list[Rating]:
        with self._lock:
            return [Rating(*row) for row in self._connection.execute(sql, values)]

    def note(self, ratings: Iterable[Rating]) -> int:
        """Note each rating whose player played games since their last note, at least
        NOTE_SECONDS after it, or plays a new version; return how many were noted."""
        noted = []
        for rating in ratings:
            last = self._last.get(rating.player)
            if last is None or last.version != rating.version or (
                    last.games != rating.games and rating.time - last.time >= NOTE_SECONDS):
                noted.append(rating)
                self._last[rating.player] = rating
        if noted:
            with self._lock:
                self._connection.executemany(
                    'INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?)',
                    [(rating.time, rating.player, rating.version, rating.rank, rating.elo,
                      rating.games) for rating in noted])
        return len(noted)

    def of(self, player: str) -> list[Rating]:
        """Return a player's notes, oldest first."""
        return self._rows('SELECT * FROM ratings WHERE player = ? ORDER BY time', player)

    def since(self, time: float) -> list[Rating]:
        """Return every player's notes from time on, oldest first."""
        return self._rows('SELECT * FROM ratings WHERE time >= ? ORDER BY time', time)

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._connection.close()


def changes(ratings: list[Rating]) -> dict[int, tuple[Rating | None, Rating]]:
    """Return what each version of a student's changed in the standings, by its number:
    the last note of the versions before it (None for the first that played) and its
    own latest note."""
    found: dict[int, tuple[Rating | None, Rating]] = {}
    before: Rating | None = None
    for rating in ratings:
        if rating.version is None:
            continue
        if rating.version not in found:
            found[rating.version] = (before, rating)
        else:
            found[rating.version] = (found[rating.version][0], rating)
        before = rating
    return found
