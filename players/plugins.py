"""The players of installed plugins (see variants.plugins): each entry of the group
aima_games.players names a player function (game, state) -> move, which joins the
registry under the entry's name. The registry reads them once it holds its own."""

from __future__ import annotations

from typing import Any, Callable, Container

from games import Player
from variants.plugins import PLAYERS_GROUP, PluginEntry, register_each


def read_plugin_players(register: Callable[[str], Callable[[Player], Player]],
                        taken: Container[str]) -> None:
    """Register (register(name)(player)) the player function of each installed
    players entry under the entry's name; an entry that is not a player function,
    or whose name is among taken, is said on standard error and skipped."""
    def add_player(entry: PluginEntry, player: Any) -> None:
        if not callable(player) or isinstance(player, type):
            raise TypeError(f'{entry.value} is not a player function (game, state) -> move')
        if entry.name in taken:
            raise ValueError(f'the player name {entry.name!r} is already taken')
        register(entry.name)(player)
    register_each(PLAYERS_GROUP, add_player)
