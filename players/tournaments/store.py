"""The results store: an SQLite file of a run's settings and each game's record as it ends."""

from __future__ import annotations

import json
import os
import pathlib
import sqlite3
from dataclasses import replace
from typing import Iterator

from .record import COLUMNS, GameRecord
from .run_settings import RunSettings, SettingsError

PLAYER_SETTINGS = ('players', 'specs', 'digests', 'gauntlet', 'broken')
"""The settings that may change between runs on one file (a ladder): who plays
(and who cannot play, with why).
The others change every game, so a file holds one value of each."""

RESULTS = {'1-0': 'score = 1', '0-1': 'score = 0', 'draw': 'score = 0.5',
           'win': '("first" = :player AND score = 1 OR "second" = :player AND score = 0)',
           'loss': '("first" = :player AND score = 0 OR "second" = :player AND score = 1)'}
"""The results a listing can ask for, as SQL: the first player's win, the second's,
a draw, and the win or loss of a player named in the query."""


GameIdentity = tuple[int, str, str, 'str | None', str, 'str | None', int, int, int]
"""What makes a stored game the game it is: its index, variant, first player and its
code's digest, second player and its digest, pair, leg and seed."""


class StoreError(ValueError):
    """A results file that cannot be read or used for this tournament."""


class Store:
    """A tournament's results in an SQLite file. Each game is committed as it is
    added, so a killed run loses no finished game."""

    def __init__(self, path: str, settings: RunSettings, resume: bool = False):
        """Open path for a tournament with these settings: a new file, or one that
        holds a tournament with the same settings but for the players (see
        PLAYER_SETTINGS), whose settings become these. With resume the file must exist.
        The path '' is a file of SQLite's own, without a name, in the temporary
        folder: gone when it closes, or when this process ends, however it ends."""
        if resume and not os.path.isfile(path):
            raise StoreError(f'cannot resume: no results file {path!r}')
        try:
            self.connection = sqlite3.connect(path, isolation_level=None)
            tables = {row[0] for row in self.connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if 'games' in tables:
                self._check(path, settings)
            elif tables:
                raise StoreError(f'{path!r} is not a tournament results file (it holds the '
                                 f'tables {", ".join(sorted(tables))}); give another --db file')
            else:
                self._create(settings)
            self.connection.execute('PRAGMA journal_mode=WAL')
            self.connection.execute('PRAGMA synchronous=NORMAL')
        except sqlite3.Error as error:
            raise StoreError(f'cannot use results file {path!r}: {error}') from None
        self.settings = settings
        self.columns = self._present()  # a file of an older run, resumed, has fewer

    @classmethod
    def read(cls, path: str) -> 'Store':
        """Open the results file of a run, finished or not, to read its settings and
        games (and close it once read). Nothing is written, but it is opened as a run
        opens it, not read-only, so that closing it lets SQLite remove the -wal and
        -shm files that reading it made, unless a run still has it open."""
        if not os.path.isfile(path):
            raise StoreError(f'no results file {path!r}')
        store = cls.__new__(cls)
        try:
            store.connection = sqlite3.connect(f'{pathlib.Path(path).absolute().as_uri()}?mode=rw',
                                               uri=True)
            stored = store.connection.execute('SELECT json FROM settings').fetchone()
            store.columns = store._present()  # an older file has fewer
        except sqlite3.Error as error:
            raise StoreError(f'{path!r} is not a tournament results file ({error})') from None
        if stored is None or not store.columns:
            raise StoreError(f'{path!r} is not a tournament results file')
        try:
            store.settings = RunSettings.from_json(json.loads(stored[0]))
        except (ValueError, SettingsError) as error:
            store.connection.close()
            raise StoreError(f'{path!r} is not a tournament results file ({error})') from None
        return store

    def _present(self) -> list[str]:
        """Return the columns of COLUMNS that the file's games table has."""
        present = {row[1] for row in self.connection.execute('PRAGMA table_info(games)')}
        return [name for name in COLUMNS if name in present]

    def _create(self, settings: RunSettings) -> None:
        """Create the tables and record the settings."""
        columns = ', '.join(f'"{name}" {kind}' for name, kind in COLUMNS.items())
        with self.connection:
            self.connection.execute('BEGIN')
            self.connection.execute('CREATE TABLE settings (json TEXT)')
            self.connection.execute('INSERT INTO settings VALUES (?)',
                                    (json.dumps(settings.to_json()),))
            self.connection.execute(f'CREATE TABLE games ({columns})')

    def _check(self, path: str, settings: RunSettings) -> None:
        """Refuse a file that holds another tournament than one of the same settings
        but for the players; take the new players' settings, and any column added
        since the file was made."""
        stored = self.connection.execute('SELECT json FROM settings').fetchone()
        if stored is None:
            raise StoreError(f'{path!r} is not a tournament results file (no settings); give '
                             'another --db file')
        old, new = json.loads(stored[0]), json.loads(json.dumps(settings.to_json()))
        for key in dict.fromkeys([*old, *new]):
            if key in PLAYER_SETTINGS or key not in old and not new[key]:
                continue  # a setting added since the file was made, left empty
            if old.get(key) != new.get(key):
                raise StoreError(f'{path!r} holds a different tournament: its {key} is '
                                 f'{old.get(key)!r}, not {new.get(key)!r}; give the same '
                                 'options to go on with it (the players may change), or '
                                 'another --db file')
        present = {row[1] for row in self.connection.execute('PRAGMA table_info(games)')}
        with self.connection:
            self.connection.execute('BEGIN')
            for name, kind in COLUMNS.items():
                if name not in present:
                    self.connection.execute(f'ALTER TABLE games ADD COLUMN "{name}" {kind}')
            self.connection.execute('UPDATE settings SET json = ?',
                                    (json.dumps(settings.to_json()),))

    def identities(self) -> Iterator[GameIdentity]:
        """Generate (index, variant, first, first_digest, second, second_digest, pair,
        leg, seed) of each stored game: what makes it the game it is."""
        yield from self.connection.execute(
            'SELECT "index", variant, "first", first_digest, "second", second_digest, pair, '
            'leg, seed FROM games')

    def renumber(self, kept: dict[int, int]) -> None:
        """Keep the games whose index is a key of kept, each under its new index
        kept[index], and delete every other game, all at once."""
        with self.connection:
            self.connection.execute('BEGIN')
            self.connection.execute('CREATE TEMP TABLE kept (old INTEGER PRIMARY KEY, new INTEGER)')
            self.connection.executemany('INSERT INTO kept VALUES (?, ?)', kept.items())
            self.connection.execute('DELETE FROM games WHERE "index" NOT IN (SELECT old FROM kept)')
            self.connection.execute('UPDATE games SET "index" = -1 - "index"')
            self.connection.execute('UPDATE games SET "index" = (SELECT new FROM kept WHERE '
                                    'old = -1 - games."index")')
            self.connection.execute('DROP TABLE kept')

    def count(self) -> int:
        """Return how many games the store holds."""
        count: int = self.connection.execute('SELECT COUNT(*) FROM games').fetchone()[0]
        return count

    def has(self, index: int) -> bool:
        """Return True if the game of this schedule index is finished."""
        return self.connection.execute(
            'SELECT 1 FROM games WHERE "index" = ?', (index,)).fetchone() is not None

    def add(self, record: GameRecord) -> None:
        """Store a finished game's record, with its players' specs and digests from
        the settings, committing it at once; a game already stored (by another run
        resuming the same file) is kept as it was."""
        specs, digests = self.settings.specs, self.settings.digests
        row = replace(record, first_spec=specs.get(record.first, record.first),
                      second_spec=specs.get(record.second, record.second),
                      first_digest=digests.get(record.first),
                      second_digest=digests.get(record.second)).to_row()
        values = [row[name] for name in self.columns]
        names = ', '.join(f'"{name}"' for name in self.columns)
        self.connection.execute(f'INSERT OR IGNORE INTO games ({names}) VALUES '
                                f'({", ".join("?" * len(self.columns))})', values)

    def records(self, player: str | None = None, variant: str | None = None,
                result: str | None = None, termination: str | None = None,
                index: int | None = None) -> Iterator[GameRecord]:
        """Generate the stored records in schedule order, one at a time: all of them,
        or those of a player, a variant, a result (a key of RESULTS; 'win' and 'loss'
        need the player), a termination ('forfeit' for any forfeit; with the player,
        a forfeit is one of the player's own) and an index."""
        where = ['"index" = :index'] if index is not None else []
        values = {'player': player, 'variant': variant, 'termination': termination,
                  'index': index}
        if player is not None:
            where.append('("first" = :player OR "second" = :player)')
        if variant is not None:
            where.append('variant = :variant')
        if result is not None:
            where.append(RESULTS[result])
        if termination == 'forfeit':
            where.append('forfeit IS NOT NULL')
        elif termination is not None:
            where.append('termination = :termination')
        if termination is not None and player is not None:
            where.append('(forfeit IS NULL OR forfeit = :player)')
        condition = f'WHERE {" AND ".join(where)}' if where else ''
        names = ', '.join(f'"{name}"' for name in self.columns)
        for row in self.connection.execute(
                f'SELECT {names} FROM games {condition} ORDER BY "index"', values):
            yield GameRecord.from_row(dict(zip(self.columns, row)))

    def record(self, index: int) -> GameRecord | None:
        """Return the record of the game of this schedule index, or None if none is stored."""
        return next(self.records(index=index), None)

    def close(self) -> None:
        """Close the file."""
        self.connection.close()

    def __enter__(self) -> 'Store':
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
