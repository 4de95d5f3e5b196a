"""The players of installed plugins (see variants.plugins): each entry of the group
aima_games.players names a player function (game, state) -> move, which joins the
registry under the entry's name. Importing players registers them."""

from __future__ import annotations

from typing import Any

from variants.plugins import PLAYERS_GROUP, PluginEntry, register_each

from .registry import REGISTRY, register


def add_player(entry: PluginEntry, player: Any) -> None:
    """Register the player function of a players entry under the entry's name; raise
    TypeError or ValueError if it cannot be."""
    if not callable(player) or isinstance(player, type):
        raise TypeError(f'{entry.value} is not a player function (game, state) -> move')
    if entry.name in REGISTRY:
        raise ValueError(f'the player name {entry.name!r} is already taken')
    register(entry.name)(player)


register_each(PLAYERS_GROUP, add_player)
