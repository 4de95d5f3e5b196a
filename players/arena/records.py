"""The arena's own records, in an SQLite file beside the games': the students of the
roster and their sign-in tokens (kept only as digests), the staff and their password
hashes, every version a student handed in with its verdicts, and the arena's state
(the hand-in closed or open). Every change is committed as it is made, so a server
killed at any moment restarts with all it acknowledged."""

from __future__ import annotations

import contextlib
import hashlib
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass, replace
from typing import Any, Iterator

CHECKING, PLAYS, CANNOT_PLAY = 'checking', 'plays', 'cannot play'
"""A version's status: its checks under way, or their verdict."""

_SCHEMA = '''
CREATE TABLE IF NOT EXISTS students (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, pseudonym TEXT, token_digest TEXT UNIQUE NOT NULL,
    email TEXT);
CREATE TABLE IF NOT EXISTS staff (name TEXT PRIMARY KEY, password_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS versions (
    student TEXT NOT NULL REFERENCES students(id), number INTEGER NOT NULL,
    handed_in REAL NOT NULL, digest TEXT NOT NULL, filename TEXT NOT NULL, path TEXT NOT NULL,
    status TEXT NOT NULL, verdict TEXT NOT NULL DEFAULT '', check_lines TEXT NOT NULL DEFAULT '',
    check_points TEXT NOT NULL DEFAULT '', PRIMARY KEY (student, number));
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS challenges (
    id INTEGER PRIMARY KEY, student TEXT NOT NULL REFERENCES students(id),
    number INTEGER NOT NULL, version INTEGER NOT NULL, opponent TEXT NOT NULL, spec TEXT NOT NULL,
    opponent_version INTEGER, variant TEXT NOT NULL, pairs INTEGER NOT NULL,
    asked REAL NOT NULL, status TEXT NOT NULL, error TEXT NOT NULL DEFAULT '');
'''
WAITING, PLAYING, DONE, FAILED = 'waiting', 'playing', 'done', 'failed'
"""A challenge's status: waiting its turn, its games under way, all played, or
stopped by a failure of the machinery (its error says which)."""


@dataclass(frozen=True)
class Student:
    """A student of the roster."""

    id: str
    """The roster's id: the student's name in the tournament and their folder's."""
    name: str
    """The name the roster gives."""
    pseudonym: str | None
    """The name the student chose to show on the leaderboard, or None."""

    @property
    def shown(self) -> str:
        """The name the leaderboard shows: the pseudonym, else the roster's name."""
        return self.pseudonym or self.name


@dataclass(frozen=True)
class Version:
    """One version a student handed in."""

    student: str
    """The student's id."""
    number: int
    """The version's number, from 1, in the order handed in."""
    handed_in: float
    """When it was handed in (seconds since the epoch)."""
    digest: str
    """The SHA-256 of what was uploaded, in hex."""
    filename: str
    """The uploaded file's name."""
    path: str
    """The submission it was unpacked to: a .py file or a folder."""
    status: str
    """CHECKING, PLAYS or CANNOT_PLAY."""
    verdict: str
    """Why it cannot play (the load check's message); '' otherwise."""
    check_lines: str
    """The grader's lines, as check prints them; '' without a [check] table or before."""
    check_points: str
    """The grader's total, such as '38/50'; '' without one."""


@dataclass(frozen=True)
class Challenge:
    """Games a student asked for against an opponent of their choosing, played ahead
    of the ladder."""

    id: int
    """The challenge's number among all (its results file's name)."""
    student: str
    """The student's id."""
    number: int
    """The challenge's number among the student's own, from 1 (its address's)."""
    version: int
    """The number of the student's version that plays them."""
    opponent: str
    """The opponent's name in the games: a course player's, or a classmate's id."""
    spec: str
    """What the opponent plays: a course player's spec, or the classmate's version's path."""
    opponent_version: int | None
    """The number of the classmate's version (None for a course player)."""
    variant: str
    pairs: int
    """The game pairs asked for, the seats swapped between the two games of a pair."""
    asked: float
    """When it was asked for (seconds since the epoch)."""
    status: str
    """WAITING, PLAYING, DONE or FAILED."""
    error: str
    """Why it failed; '' otherwise."""


class TooManyChallenges(ValueError):
    """A student asked for more challenges than an hour allows."""


_CHALLENGE = ('id, student, number, version, opponent, spec, opponent_version, variant, pairs, '
              'asked, status, error')
"""The columns of a Challenge, in its fields' order."""


def fresh_token() -> str:
    """Return a new sign-in token: 256 random bits in URL-safe Base64, beginning with a
    letter or a digit, so that a terminal's `--token TOKEN` never reads it as an option."""
    while not (token := secrets.token_urlsafe(32))[0].isalnum():
        pass
    return token


def token_digest(token: str) -> str:
    """Return the digest a sign-in token is kept as: the token has 256 random bits,
    so a plain SHA-256 keeps it as safe as a password hash would."""
    return hashlib.sha256(token.encode()).hexdigest()


class Records:
    """The arena's records in the SQLite file path, safe to use from many threads."""

    def __init__(self, path: str):
        self._lock = threading.Lock()
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._connection.execute('PRAGMA journal_mode=WAL')
        self._connection.execute('PRAGMA busy_timeout=5000')
        self._connection.executescript(_SCHEMA)
        columns = [row[1] for row in self._connection.execute('PRAGMA table_info(students)')]
        if 'email' not in columns:  # a file made before the roster's e-mail addresses were kept
            self._connection.execute('ALTER TABLE students ADD COLUMN email TEXT')

    def _all(self, sql: str, *values: Any) -> list[tuple]:
        with self._lock:
            return self._connection.execute(sql, values).fetchall()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Hold the lock and an immediate transaction for the block: committed at its
        end, rolled back if it raises."""
        with self._lock:
            self._connection.execute('BEGIN IMMEDIATE')
            try:
                yield
            except BaseException:
                self._connection.execute('ROLLBACK')
                raise
            self._connection.execute('COMMIT')

    def _do(self, sql: str, *values: Any) -> int:
        with self._lock:
            return self._connection.execute(sql, values).rowcount

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._connection.close()

    # The roster.
    def add_student(self, id: str, name: str, email: str | None = None) -> str | None:
        """Add a student of the roster with a new sign-in token and return the token;
        return None (and change nothing but the name and e-mail address) for a
        student already added."""
        token = fresh_token()
        with self._lock:
            known = self._connection.execute('SELECT 1 FROM students WHERE id = ?',
                                             (id,)).fetchone()
            if known:
                self._connection.execute('UPDATE students SET name = ?, email = ? WHERE id = ?',
                                         (name, email, id))
                return None
            self._connection.execute('INSERT INTO students (id, name, token_digest, email) '
                                     'VALUES (?, ?, ?, ?)', (id, name, token_digest(token), email))
        return token

    def email(self, id: str) -> str | None:
        """Return a student's e-mail address, if the roster gives one."""
        rows = self._all('SELECT email FROM students WHERE id = ?', id)
        return rows[0][0] if rows else None

    def new_token(self, id: str) -> str:
        """Give a student a new sign-in token, the old one no longer valid; return it.
        Raises KeyError for no such student."""
        token = fresh_token()
        if not self._do('UPDATE students SET token_digest = ? WHERE id = ?',
                        token_digest(token), id):
            raise KeyError(id)
        return token

    def students(self) -> list[Student]:
        """Return every student, by id."""
        return [Student(*row) for row in
                self._all('SELECT id, name, pseudonym FROM students ORDER BY id')]

    def student(self, id: str) -> Student | None:
        """Return the student of this id, or None."""
        rows = self._all('SELECT id, name, pseudonym FROM students WHERE id = ?', id)
        return Student(*rows[0]) if rows else None

    def student_of_token(self, token: str) -> Student | None:
        """Return the student whose sign-in token this is, or None."""
        rows = self._all('SELECT id, name, pseudonym FROM students WHERE token_digest = ?',
                         token_digest(token))
        return Student(*rows[0]) if rows else None

    def token_matches(self, id: str, digest: str) -> bool:
        """Whether a student's token still has this digest (a session ends when a
        new token is given)."""
        return bool(self._all('SELECT 1 FROM students WHERE id = ? AND token_digest = ?',
                              id, digest))

    def set_pseudonym(self, id: str, pseudonym: str | None) -> None:
        """Show the student as pseudonym on the leaderboard (None: by their name)."""
        self._do('UPDATE students SET pseudonym = ? WHERE id = ?', pseudonym, id)

    # The staff.
    def set_staff(self, name: str, password_hash: str) -> None:
        """Add a member of staff, or change their password's hash."""
        self._do('INSERT INTO staff VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET '
                 'password_hash = excluded.password_hash', name, password_hash)

    def staff_hash(self, name: str) -> str | None:
        """Return the password hash of a member of staff, or None for no such member."""
        rows = self._all('SELECT password_hash FROM staff WHERE name = ?', name)
        return rows[0][0] if rows else None

    def staff_names(self) -> list[str]:
        """Return the staff's names."""
        return [row[0] for row in self._all('SELECT name FROM staff ORDER BY name')]

    # Versions.
    def add_version(self, student: str, digest: str, filename: str, path: str,
                    handed_in: float | None = None) -> Version:
        """Record a new version of a student's, its checks under way, numbered after
        the last and handed in now (or at handed_in); return it."""
        with self._transaction():  # the time is taken in turn too, so that it follows the numbers
            when = time.time() if handed_in is None else handed_in
            number = self._connection.execute(
                'SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE student = ?',
                (student,)).fetchone()[0]
            self._connection.execute(
                'INSERT INTO versions (student, number, handed_in, digest, filename, path, '
                'status) VALUES (?, ?, ?, ?, ?, ?, ?)',
                (student, number, when, digest, filename, path, CHECKING))
        return Version(student, number, when, digest, filename, path, CHECKING, '', '', '')

    def next_number(self, student: str) -> int:
        """Return the number a student's next version would get (for its folder's name;
        add_version gives the number it is recorded under)."""
        return self._all('SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE student = ?',
                         student)[0][0]

    def set_verdict(self, student: str, number: int, status: str, verdict: str = '') -> None:
        """Record the verdict of a version's load check: its status, and why it
        cannot play."""
        self._do('UPDATE versions SET status = ?, verdict = ? WHERE student = ? AND number = ?',
                 status, verdict, student, number)

    def set_grade(self, student: str, number: int, lines: str, points: str) -> None:
        """Record the grader's lines and total for a version."""
        self._do('UPDATE versions SET check_lines = ?, check_points = ? '
                 'WHERE student = ? AND number = ?', lines, points, student, number)

    def versions(self, student: str | None = None, status: str | None = None) -> list[Version]:
        """Return the versions of a student (of everyone without one), with a status
        if given, in the order handed in."""
        where, values = [], []
        if student is not None:
            where.append('student = ?')
            values.append(student)
        if status is not None:
            where.append('status = ?')
            values.append(status)
        condition = f'WHERE {" AND ".join(where)}' if where else ''
        return [Version(*row) for row in self._all(
            'SELECT student, number, handed_in, digest, filename, path, status, verdict, '
            f'check_lines, check_points FROM versions {condition} ORDER BY handed_in, student, '
            'number', *values)]

    def version(self, student: str, number: int) -> Version | None:
        """Return a student's version of this number, or None."""
        found = [version for version in self.versions(student) if version.number == number]
        return found[0] if found else None

    def playing(self) -> dict[str, Version]:
        """Return the version each student plays with, by id: their latest that plays."""
        latest: dict[str, Version] = {}
        for version in self.versions(status=PLAYS):
            latest[version.student] = version
        return latest

    def paths(self) -> Iterator[str]:
        """Generate the path of every version."""
        for (path,) in self._all('SELECT path FROM versions'):
            yield path

    # Challenges.
    def add_challenge(self, challenge: Challenge, an_hour: int) -> Challenge:
        """Record a challenge (its id and status are given here) and return it, unless
        its student asked for an_hour challenges in the hour before it: then raise
        TooManyChallenges saying when the next may be asked for."""
        with self._transaction():
            recent = [row[0] for row in self._connection.execute(
                'SELECT asked FROM challenges WHERE student = ? AND asked > ? '
                'ORDER BY asked', (challenge.student, challenge.asked - 3600))]
            if len(recent) >= an_hour:
                wait = recent[len(recent) - an_hour] + 3600 - challenge.asked
                raise TooManyChallenges(
                    f'{an_hour} challenges an hour at most: the next in '
                    f'{max(1, round(wait / 60))} min')
            number = self._connection.execute(
                'SELECT COALESCE(MAX(number), 0) + 1 FROM challenges WHERE student = ?',
                (challenge.student,)).fetchone()[0]
            cursor = self._connection.execute(
                'INSERT INTO challenges (student, number, version, opponent, spec, '
                'opponent_version, variant, pairs, asked, status) '
                'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
                (challenge.student, number, challenge.version, challenge.opponent,
                 challenge.spec, challenge.opponent_version, challenge.variant,
                 challenge.pairs, challenge.asked, WAITING))
        assert cursor.lastrowid is not None  # an INSERT's
        return replace(challenge, id=cursor.lastrowid, number=number, status=WAITING, error='')

    def challenges(self, student: str | None = None, status: str | None = None) -> list[Challenge]:
        """Return the challenges of a student (of everyone without one), with a status
        if given, the newest first."""
        return [Challenge(*row) for row in self._all(
            f'SELECT {_CHALLENGE} FROM challenges WHERE (? IS NULL OR student = ?) '
            'AND (? IS NULL OR status = ?) ORDER BY id DESC', student, student, status, status)]

    def challenge(self, id: int) -> Challenge | None:
        """Return the challenge of this id, or None."""
        return self._one_challenge('id = ?', id)

    def challenge_of(self, student: str, number: int) -> Challenge | None:
        """Return a student's challenge of this number, or None."""
        return self._one_challenge('student = ? AND number = ?', student, number)

    def _one_challenge(self, condition: str, *values: Any) -> Challenge | None:
        """Return the challenge that meets condition, or None (also for a number no
        row has because SQLite takes none so big)."""
        if any(isinstance(value, int) and not 0 < value < 2 ** 63 for value in values):
            return None
        rows = self._all(f'SELECT {_CHALLENGE} FROM challenges WHERE {condition}', *values)
        return Challenge(*rows[0]) if rows else None

    def set_challenge_status(self, id: int, status: str, error: str = '') -> None:
        """Record a challenge's status, and why it failed."""
        self._do('UPDATE challenges SET status = ?, error = ? WHERE id = ?', status, error, id)

    # State.
    def get(self, key: str, default: str | None = None) -> str | None:
        """Return a value of the arena's state, or default."""
        rows = self._all('SELECT value FROM state WHERE key = ?', key)
        return rows[0][0] if rows else default

    def put(self, key: str, value: str) -> None:
        """Set a value of the arena's state."""
        self._do('INSERT INTO state VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET '
                 'value = excluded.value', key, value)
