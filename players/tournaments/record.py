"""A tournament's record of one game: its fields are the results store's columns,
and it is the one value the store, the reports, the exports and the replay read.
It is made from the referee's record of the game (games.referee.PlayedGame) and
kept in plain JSON values, so that it outlives the game's objects."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Sequence

from games import referee
from games.referee import Termination
from players.remote.plain_json import to_plain
from .schedule import ScheduledGame

FIRST, SECOND = 0, 1


def _column(sql: str, **default: Any) -> Any:
    """Return a field of the record, kept in a column of the SQL type sql."""
    return field(metadata={'sql': sql}, **default)


@dataclass(frozen=True, kw_only=True)
class GameRecord:
    """Everything a tournament keeps of one game. The fields past those of the
    first version of the store have defaults: a file of an older run lacks them."""

    index: int = _column('INTEGER PRIMARY KEY')
    """The game's place in the schedule, from 0."""
    variant: str = _column('TEXT')
    """The variant name or spec, as given."""
    first: str = _column('TEXT')
    """The name of the player in the first seat."""
    second: str = _column('TEXT')
    """The name of the player in the second seat."""
    first_spec: str | None = _column('TEXT', default=None)
    """The first player's spec (the store fills it in from the run's settings)."""
    second_spec: str | None = _column('TEXT', default=None)
    """The second player's spec."""
    first_digest: str | None = _column('TEXT', default=None)
    """The digest of the first player's code (see ladder.digests)."""
    second_digest: str | None = _column('TEXT', default=None)
    """The digest of the second player's code."""
    pair: int = _column('INTEGER')
    """Which game pair of its pairing on its variant the game belongs to, from 0."""
    leg: int = _column('INTEGER')
    """0 for the pair's first game, 1 for the game with the seats swapped."""
    seed: int = _column('INTEGER')
    """The pair's seed."""
    score: float = _column('REAL')
    """The first player's points: 1, 0.5 or 0."""
    termination: Termination = _column('TEXT')
    """How the game ended."""
    detail: str = _column('TEXT')
    """What went wrong, for a forfeit or an adjudication; '' otherwise."""
    forfeit: str | None = _column('TEXT')
    """The name of the player who forfeited, or None."""
    moves: list[object] = _column('TEXT')
    """The moves from the start, the opening's included, as plain JSON values."""
    rolls: list[object] = _column('TEXT', default_factory=list)
    """The dice's rolls in a game of chance, in order, as plain JSON values."""
    opening: int = _column('INTEGER')
    """How many of the moves were the random opening's."""
    plies: int = _column('INTEGER')
    """How many moves were played, the opening's included."""
    time_first: float = _column('REAL')
    """Seconds the first player spent on its moves."""
    time_second: float = _column('REAL')
    """Seconds the second player spent on its moves."""
    moves_first: int = _column('INTEGER')
    """Moves the first player made."""
    moves_second: int = _column('INTEGER')
    """Moves the second player made."""
    nodes_first: int | float | None = _column('NUMERIC')
    """The nodes the first player reported searching, or None if it reported none."""
    nodes_second: int | float | None = _column('NUMERIC')
    """The nodes the second player reported searching, or None."""
    stderr_first: str | None = _column('TEXT', default=None)
    """What the first player wrote during the game, its last 4 KB (a Python player's
    standard output and error, a program's standard error), or None where it is not
    kept (a game no player's jail was started for, or a record of an older run)."""
    stderr_second: str | None = _column('TEXT', default=None)
    """What the second player wrote during the game, or None."""

    @classmethod
    def from_play(cls, spec: ScheduledGame, opening: Sequence[tuple[str, Any]],
                  played: referee.PlayedGame,
                  errors: Sequence[str | None] = (None, None)) -> 'GameRecord':
        """Return the record of the game spec describes, given the history of its
        opening ((kind, value) events: 'move' or 'chance'), the referee's record of
        the game played from there, and what each player wrote (see stderr_first;
        None where it is not kept)."""
        opening_moves = [value for kind, value in opening if kind == 'move']
        seconds, counts = [0.0, 0.0], [0, 0]
        for seat, taken in zip(played.movers, played.times):
            seconds[seat] += taken
            counts[seat] += 1
        names = (spec.first, spec.second)
        return cls(
            index=spec.index, variant=spec.variant, first=spec.first, second=spec.second,
            pair=spec.pair, leg=spec.leg, seed=spec.seed, score=played.score(FIRST),
            termination=played.termination, detail=played.detail,
            forfeit=None if played.offender is None else names[played.offender],
            moves=opening_moves + [to_plain(move) for move in played.moves],
            rolls=[value for kind, value in opening if kind == 'chance']
            + [to_plain(roll) for roll in played.rolls],
            opening=len(opening_moves), plies=len(opening_moves) + played.plies,
            time_first=seconds[FIRST], time_second=seconds[SECOND],
            moves_first=counts[FIRST], moves_second=counts[SECOND],
            nodes_first=played.nodes[FIRST], nodes_second=played.nodes[SECOND],
            stderr_first=errors[FIRST], stderr_second=errors[SECOND])

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> 'GameRecord':
        """Return the record of a row of the store's games table, {column: value}
        (the lists as JSON text); a column missing from the row, as in a file of
        an older run, takes its field's default, or None."""
        values: dict[str, Any] = {name: row.get(name) for name in COLUMNS}
        for name in JSON_COLUMNS:
            values[name] = json.loads(values[name] or '[]')
        values['termination'] = Termination(values['termination'])
        return cls(**values)

    def to_row(self) -> dict[str, Any]:
        """Return the record as a row of the store's games table, {column: value},
        the lists as JSON text."""
        row = self.plain()
        row['termination'] = str(self.termination)
        for name in JSON_COLUMNS:
            row[name] = json.dumps(row[name])
        return row

    def plain(self) -> dict[str, Any]:
        """Return the record as a dict of plain JSON values, in the columns' order."""
        return {name: getattr(self, name) for name in COLUMNS}

    @property
    def names(self) -> tuple[str, str]:
        """The players' names, in seat order."""
        return self.first, self.second

    def seat_of(self, name: str) -> int:
        """Return the seat (FIRST or SECOND) of the player called name."""
        return self.names.index(name)

    def points(self, seat: int) -> float:
        """Return the points of the player in seat: 1, 0.5 or 0."""
        return self.score if seat == FIRST else 1 - self.score


COLUMNS = {column.name: column.metadata['sql'] for column in fields(GameRecord)}
"""The columns of the store's games table, {name: SQL type}: the record's fields."""
JSON_COLUMNS = ('moves', 'rolls')
"""The columns that hold lists, as JSON text."""
