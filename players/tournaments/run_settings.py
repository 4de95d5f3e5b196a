"""The settings of a run: who plays, on which variants, by which rules, and what
the ladder knows its players' code by. The results file keeps them as JSON, and
--json writes them; everything else reads them as a RunSettings.

A file written before a setting existed lacks it: it is read as the setting's
default (sandbox as None: a run from before jails), and written back without it,
so that a report of an old run writes the settings it holds, no more."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Callable, Mapping, TypeVar

T = TypeVar('T')

REQUIRED = ('players', 'variants', 'games', 'seed')
"""The settings every results file has held."""


class SettingsError(ValueError):
    """Stored settings that are not those of a run."""


@dataclass(frozen=True)
class RunSettings:
    """The settings of a run, as its results file keeps them (in this order)."""

    players: tuple[str, ...]
    """The players' names, in the schedule's order."""
    specs: Mapping[str, str] = field(default_factory=dict)
    """Each player's spec, by name."""
    variants: tuple[str, ...] = ()
    """The variants' names or specs."""
    games: int = 1
    """Game pairs per pairing per variant."""
    seed: int = 0
    """The seed every random choice of the run derives from."""
    gauntlet: str | None = None
    """The player who plays every other, or None for a round robin."""
    openings: int = 0
    """Random plies played from the start (see match.Rules, as are the settings
    down to support)."""
    move_timeout: float | None = 10.0
    """Seconds a player may think about one move."""
    max_plies: int | None = None
    """Plies after which a game is adjudicated a draw, or None."""
    clock: tuple[float, float] | None = None
    """A game clock per player, (base seconds, increment seconds), or None."""
    sandbox: str | None = None
    """The jail level players run in; None for a run stored before jails."""
    memory_mb: int | None = None
    """Each player's address-space limit, in MiB."""
    allow: tuple[str, ...] = ()
    """The installed packages file and module players may import."""
    support: tuple[str, ...] = ()
    """The names of the course's support files beside each player's code."""
    broken: Mapping[str, str] = field(default_factory=dict)
    """Why each player that cannot play cannot, by name."""
    digests: Mapping[str, str] = field(default_factory=dict)
    """The digest of each player's code, by name (see ladder.digests)."""
    game_files: Mapping[str, str] = field(default_factory=dict)
    """The digest of the source of each game file a variant spec names, by spec."""
    absent: frozenset[str] = field(default=frozenset(), compare=False, repr=False)
    """The settings the stored JSON it was read from lacked, left out when written."""
    extra: Mapping[str, object] = field(default_factory=dict, compare=False, repr=False)
    """Settings the stored JSON had that these do not know, written back as they were."""

    def to_json(self) -> dict[str, object]:
        """Return the settings as plain JSON data, {setting: value}, as stored."""
        plain: dict[str, object] = {}
        for setting in fields(self):
            if setting.name in ('absent', 'extra') or setting.name in self.absent:
                continue
            value = getattr(self, setting.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, Mapping):
                value = dict(value)
            plain[setting.name] = value
        return {**plain, **self.extra}

    @classmethod
    def from_json(cls, data: object) -> 'RunSettings':
        """Return the settings stored as data (see to_json), each one missing read as
        its default. Raises SettingsError for data that are not a run's settings, or
        lack one of REQUIRED."""
        if not isinstance(data, dict):
            raise SettingsError('its settings are not a JSON object')
        missing = [name for name in REQUIRED if name not in data]
        if missing:
            raise SettingsError(f'its settings have no {missing[0]!r}')
        known = {setting.name for setting in fields(cls)} - {'absent', 'extra'}
        no_timeout: float | None = 0.0  # as the reports have always shown a run without one
        return cls(
            players=_read(data, 'players', _names, ()),
            specs=_read(data, 'specs', _table, {}),
            variants=_read(data, 'variants', _names, ()),
            games=_read(data, 'games', _whole, 1),
            seed=_read(data, 'seed', _whole, 0),
            gauntlet=_read(data, 'gauntlet', _maybe(_text), None),
            openings=_read(data, 'openings', _whole, 0),
            move_timeout=_read(data, 'move_timeout', _maybe(_number), no_timeout),
            max_plies=_read(data, 'max_plies', _maybe(_whole), None),
            clock=_read(data, 'clock', _maybe(_pair), None),
            sandbox=_read(data, 'sandbox', _maybe(_text), None),
            memory_mb=_read(data, 'memory_mb', _maybe(_whole), None),
            allow=_read(data, 'allow', _names, ()),
            support=_read(data, 'support', _names, ()),
            broken=_read(data, 'broken', _table, {}),
            digests=_read(data, 'digests', _table, {}),
            game_files=_read(data, 'game_files', _table, {}),
            absent=frozenset(known - set(data)),
            extra={key: value for key, value in data.items() if key not in known})


def _read(data: Mapping[str, object], key: str, kind: Callable[[object], T], default: T) -> T:
    """Return data[key] as kind reads it (kind raises ValueError for a value of
    another kind), or default when data has no key. Raises SettingsError for a value
    of another kind."""
    if key not in data:
        return default
    try:
        return kind(data[key])
    except ValueError:
        raise SettingsError(f'its setting {key!r} is {data[key]!r}') from None


def _maybe(kind: Callable[[object], T]) -> Callable[[object], T | None]:
    """Return a reader of what kind reads, or null."""
    def read(value: object) -> T | None:
        return None if value is None else kind(value)
    return read


def _whole(value: object) -> int:
    """Return value if it is a whole number; raise ValueError if not."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueError(value)


def _number(value: object) -> float:
    """Return value if it is a number (a whole number as it is); raise ValueError if not."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise ValueError(value)


def _text(value: object) -> str:
    """Return value if it is a string; raise ValueError if not."""
    if isinstance(value, str):
        return value
    raise ValueError(value)


def _names(value: object) -> tuple[str, ...]:
    """Return a list of strings as a tuple; raise ValueError for anything else."""
    if isinstance(value, list):
        return tuple(map(_text, value))
    raise ValueError(value)


def _pair(value: object) -> tuple[float, float]:
    """Return a list of two numbers as a tuple; raise ValueError for anything else."""
    if isinstance(value, list) and len(value) == 2:
        return _number(value[0]), _number(value[1])
    raise ValueError(value)


def _table(value: object) -> dict[str, str]:
    """Return a JSON object of strings by string; raise ValueError for anything else."""
    if isinstance(value, dict):
        return {key: _text(item) for key, item in value.items()}
    raise ValueError(value)
