"""What a student is told of their versions without asking, in its own SQLite file
(notices.sqlite in the arena's folder): that a version cannot play, that its first
games are in, and that it forfeited a game. Each is told once a version, however
often the server starts, and shown on the student's page until they have seen it
(and e-mailed, where the course has a mail server: see players.arena.mail)."""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass

CANNOT_PLAY, FIRST_GAMES, FORFEITED = 'cannot play', 'first games', 'forfeited'
"""The kinds of notice."""
_SCHEMA = '''
CREATE TABLE IF NOT EXISTS notices (
    id INTEGER PRIMARY KEY, student TEXT NOT NULL, version INTEGER NOT NULL,
    kind TEXT NOT NULL, time REAL NOT NULL, text TEXT NOT NULL, seen INTEGER NOT NULL DEFAULT 0,
    UNIQUE (student, version, kind));
'''


@dataclass(frozen=True)
class Notice:
    """One thing a student is told."""

    id: int
    student: str
    version: int
    """The number of the version it is about."""
    kind: str
    """CANNOT_PLAY, FIRST_GAMES or FORFEITED."""
    time: float
    """When it was told (seconds since the epoch)."""
    text: str
    """What the student reads: a line, every name in it as the pages show it."""
    seen: bool
    """Whether the student has seen it on their page."""


class Notices:
    """The notices in the SQLite file path, safe to use from many threads."""

    def __init__(self, path: str):
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute('PRAGMA journal_mode=WAL')
        self._connection.executescript(_SCHEMA)

    def tell(self, student: str, version: int, kind: str, text: str) -> Notice | None:
        """Tell a student something of one of their versions; return the notice, or
        None if they were told this kind of thing of that version already."""
        now = time.time()
        with self._lock:
            cursor = self._connection.execute(
                'INSERT OR IGNORE INTO notices (student, version, kind, time, text) '
                'VALUES (?, ?, ?, ?, ?)', (student, version, kind, now, text))
            if not cursor.rowcount or cursor.lastrowid is None:
                return None
            return Notice(cursor.lastrowid, student, version, kind, now, text, False)

    def told(self, student: str, version: int, kind: str) -> bool:
        """Whether a student was told this kind of thing of a version."""
        with self._lock:
            return self._connection.execute(
                'SELECT 1 FROM notices WHERE student = ? AND version = ? AND kind = ?',
                (student, version, kind)).fetchone() is not None

    def of(self, student: str, limit: int = 20) -> list[Notice]:
        """Return a student's latest notices, the newest first."""
        with self._lock:
            rows = self._connection.execute(
                'SELECT id, student, version, kind, time, text, seen FROM notices '
                'WHERE student = ? ORDER BY id DESC LIMIT ?', (student, limit)).fetchall()
        return [Notice(id, student, version, kind, when, text, bool(seen))
                for id, student, version, kind, when, text, seen in rows]

    def seen(self, student: str) -> None:
        """Mark every notice of a student's as seen."""
        with self._lock:
            self._connection.execute('UPDATE notices SET seen = 1 WHERE student = ?', (student,))

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._connection.close()
