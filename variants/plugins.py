"""Installed plugins: the games, variants and players that other packages register
through entry points, the way pytest and flake8 find theirs. A course's package
names them in its metadata (pyproject.toml):

    [project.entry-points."aima_games.games"]
    konane = "course_games.konane:Konane"           # a Game subclass
    [project.entry-points."aima_games.variants"]
    konane-4 = "course_games.konane:SMALL"          # a spec such as 'konane(size=4)', or a Variant
    [project.entry-points."aima_games.players"]
    greedy = "course_games.greedy:greedy_player"    # a player function (players.plugins)

A game is known to specs by its `name` (one without a name of its own, as
aima-python's games have none, by its entry's), and a variant named as its entry
plays it with its defaults; a variant is named as its entry. Importing variants registers
the games and variants of every plugin installed, found once a process. An entry
that cannot be used (its module does not import, its name is taken, it is not what
its group holds) is one line on standard error, and is skipped.

A jail reads no installed metadata (site-packages is off its path): the trusted side
hands each jail server the entries it used, as plain data in the environment
variable HANDED, with the folders of their packages, given to every jail
(jail_extras, which this module hands the sandbox once it uses a plugin)."""

from __future__ import annotations

import functools
import importlib
import json
import os
import sys
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Callable

from games import Game
from games.game_files import check_methods
from players.sandbox.extras import JAIL_EXTRAS

if TYPE_CHECKING:
    from players.sandbox.allowed import AllowedPackages

from .registry import ALIASES, GAMES, Variant, register_game, register_variant

GAMES_GROUP, VARIANTS_GROUP, PLAYERS_GROUP = GROUPS = (
    'aima_games.games', 'aima_games.variants', 'aima_games.players')
"""The entry-point groups of plugins: games, variants and players."""
HANDED = 'AIMA_GAMES_PLUGINS'
"""The environment variable that holds, in a jail server and its jails, the entries
the trusted side used (JSON): a jail uses those, and reads no metadata."""


@dataclass(frozen=True)
class PluginEntry:
    """One entry point of an installed plugin."""

    distribution: str
    """The name of the distribution that declares it, such as 'course-games'."""
    group: str
    """Its group, one of GROUPS."""
    name: str
    """Its name: the variant's or the player's name, such as 'konane'."""
    value: str
    """What it names, 'module:attribute', such as 'course_games.konane:Konane'."""

    def __str__(self) -> str:
        return (f'the entry "{self.name} = {self.value}" ({self.group}) '
                f'of the plugin {self.distribution}')

    @property
    def module(self) -> str:
        """The module it names, such as 'course_games.konane'."""
        return self.value.partition(':')[0].strip()


USED: list[PluginEntry] = []
"""The entries this process registered, in the order it did: what its jails are handed."""


@functools.lru_cache(maxsize=None)
def installed() -> tuple[PluginEntry, ...]:
    """Return the plugin entries of this process, found once: those handed to it (in a
    jail server or a jail), else those of every installed distribution."""
    handed = os.environ.get(HANDED)
    if handed is not None:
        return tuple(PluginEntry(*fields) for fields in json.loads(handed))
    import importlib.metadata  # here, not above: a jail server, handed its entries, needs it not
    found = importlib.metadata.entry_points()
    return tuple(PluginEntry(entry.dist.name, group, entry.name, entry.value)
                 for group in GROUPS for entry in found.select(group=group)
                 if entry.dist is not None)  # always set on entries found installed


def handed() -> str:
    """Return the entries this process used, as the value of HANDED for its jail servers."""
    return json.dumps([[entry.distribution, entry.group, entry.name, entry.value]
                       for entry in USED])


def register_each(group: str, add: Callable[[PluginEntry, Any], None]) -> None:
    """Load the object each entry of group names and give it to add(entry, object);
    an entry whose module fails to import, or that add refuses (raising ValueError or
    TypeError, saying why), is said on one line on standard error and skipped."""
    for entry in installed():
        if entry.group != group:
            continue
        try:
            add(entry, load(entry))
        except (Exception, SystemExit) as error:  # a broken plugin must not stop the program
            message = ' '.join(f'{type(error).__name__}: {error}'.split())
            print(f'aima-games: skipped {entry}: {message}', file=sys.stderr)
            continue
        USED.append(entry)
        if jail_extras not in JAIL_EXTRAS:
            JAIL_EXTRAS.append(jail_extras)


def jail_extras() -> tuple[AllowedPackages, dict[str, str]]:
    """Return what every jail is given for the plugins this process uses: the
    packages of their entries' modules and of their distributions, and the entries,
    in HANDED, for its jail server's environment."""
    return _used_packages(tuple(USED)), {HANDED: handed()}


@functools.lru_cache(maxsize=None)
def _used_packages(used: tuple[PluginEntry, ...]) -> AllowedPackages:
    """Return the AllowedPackages of the plugins' entries used: the packages of their
    modules and of their distributions, with the distributions they require but this
    project's own, which every jail has. (A jail server imports their modules as it
    imports variants and players, which register them: modules is empty.)"""
    import importlib.metadata
    from players.sandbox.allowed import AllowedPackages, imported_paths, installed_entries
    names = tuple(dict.fromkeys(entry.distribution for entry in used))
    found = installed_entries([importlib.metadata.distribution(name) for name in names], _ours)
    tops = dict.fromkeys(entry.module.split('.')[0] for entry in used)
    return AllowedPackages(names, tuple(sorted({**found, **imported_paths(tops)}.items())))


def _ours(distribution: importlib.metadata.Distribution) -> bool:
    """Is distribution this project's (a plugin may require it)?"""
    return __name__.split('.')[0] in (distribution.read_text('top_level.txt') or '').split()


def load(entry: PluginEntry) -> Any:
    """Return the object an entry names ('module:attribute', or 'module' alone),
    importing its module."""
    module, _, attribute = entry.value.split('[')[0].partition(':')  # [extras] are pip's
    found = importlib.import_module(module.strip())
    for name in filter(None, attribute.strip().split('.')):
        found = getattr(found, name)
    return found


def add_game(entry: PluginEntry, game: Any) -> None:
    """Register the Game subclass of a games entry, with a variant named as the entry
    that plays it with its defaults; a class without a name of its own (its class
    attribute `name`, as aima-python's games have none) is given the entry's. Raise
    TypeError or ValueError if it cannot be registered, or lacks a method it must
    write (see games.game_files.check_methods)."""
    if not (isinstance(game, type) and issubclass(game, Game)):
        raise TypeError(f'{entry.value} is not a Game subclass')
    check_methods(game, game.__name__)
    if 'name' not in vars(game):
        if not entry.name.isidentifier():
            raise ValueError(f'{game.__name__} has no name of its own (its class attribute '
                             f'`name`), and a spec cannot call it {entry.name!r}: name the '
                             'entry as a Python name, such as kayles')
        game.name = entry.name
    doc = (game.__doc__ or '').strip()
    register_game(game, Variant(entry.name, game.name, doc.splitlines()[0] if doc else game.name,
                                default=False))


def add_variant(entry: PluginEntry, variant: Any) -> None:
    """Register the variant of a variants entry, named as the entry: a spec (a string,
    a variant played only when named) or a Variant; raise TypeError or ValueError if
    it cannot be."""
    if isinstance(variant, str):
        variant = Variant(entry.name, variant, f'{variant} (from {entry.distribution})',
                          default=False)
    if not isinstance(variant, Variant):
        raise TypeError(f'{entry.value} is neither a spec nor a Variant')
    called = variant.spec.partition('(')[0].strip().lower()
    if called not in GAMES and called not in ALIASES:
        raise ValueError(f'its spec {variant.spec!r} names no game known')
    register_variant(replace(variant, name=entry.name))


register_each(GAMES_GROUP, add_game)
register_each(VARIANTS_GROUP, add_variant)
