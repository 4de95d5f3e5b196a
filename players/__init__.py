"""Players and searches: AIMA's algorithms, the PLAYER registry and loading players.

Its names are imported on first use (PEP 562), as `games` lends its searches, so
that a subpackage (the sandbox, a jail's side of the protocol) imports only what it
uses. The registry, once imported, holds the players of the installed plugins too.
AIMA's searches and players are lent under the names games.LENT lists."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what the names below are, for mypy; at run time, imported on first use
    from .human import human_player, query_player
    from .perfect import perfect_player
    from .registry import (PLAYER, REGISTRY, PlayerLoadError, load_player,
                           make_alpha_beta_player, register, register_factory)
    from .search.engine import solve
    from .search.shared import Solution
    from .textbook import *  # noqa: F403  (AIMA's, the names games.LENT lists)

PROJECT_PACKAGES = ('games', 'players', 'variants')
"""The packages of this project's code: what every machine of a cluster must have
alike, and what the grader's bundle ships."""

_HOMES = {
    'human': ('human_player',),
    'perfect': ('perfect_player',),
    'registry': ('PLAYER', 'REGISTRY', 'PlayerLoadError', 'load_player',
                 'make_alpha_beta_player', 'register', 'register_factory'),
    'search.engine': ('solve',),
    'search.shared': ('Solution',),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}
"""The module of players that holds each of its public names but AIMA's."""


def _home(name: str) -> str | None:
    """The module of players that holds a public name, or None."""
    if name in _HOME:
        return _HOME[name]
    from games import LENT
    return LENT.get(name)


def __getattr__(name: str) -> Any:
    """Import a public name's module on first use, and keep the name; give `__all__`,
    the public names."""
    if name == '__all__':
        from games import LENT
        return ['PROJECT_PACKAGES', *_HOME, *LENT]
    home = None if name.startswith('__') else _home(name)
    if home is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value = getattr(importlib.import_module(f'{__name__}.{home}'), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The names of the module, those imported on first use among them."""
    return sorted({*globals(), *__getattr__('__all__')})
