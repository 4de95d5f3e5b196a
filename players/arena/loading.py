"""Checking that every player loads, each in a jail of its own, so that a file that
is missing, fails, exits, hangs or prints as it loads is refused before play."""

from __future__ import annotations

from typing import Mapping

from games import referee
from . import jail_server, program
from .jailed_player import Setup
from .player_code import PlayerCode, ProgramCode
from games.base import Game


def check_players(players: Mapping[str, PlayerCode | ProgramCode],
                  setup: Setup, game: Game, seconds: float, at_once: int = 4) -> None:
    """Load each player in a jail for game (the game of setup), in its first seat,
    at_once jails at a time, and raise ValueError naming the first in order that
    fails to load (or a program that fails to start) within seconds. The jail
    servers started for the check are stopped at its end: the referees this
    process starts next start their own."""
    try:
        _check(players, setup, game, seconds, at_once)
    finally:
        jail_server.close_servers()


def _check(players: Mapping[str, PlayerCode | ProgramCode],
           setup: Setup, game: Game, seconds: float, at_once: int) -> None:
    """Check the players (see check_players)."""
    names = list(players)
    for start in range(0, len(names), at_once):
        batch = names[start:start + at_once]
        jailed = []
        try:
            for name in batch:
                jailed.append(program.stand_in(players[name], setup, '0', [], game=game,
                                               seat=0))
            for name, player in zip(batch, jailed):
                try:
                    player.wait_ready(seconds)
                except referee.Forfeit as forfeit:
                    raise ValueError(f'player {name!r}: {forfeit.detail}') from None
        finally:
            for player in jailed:
                player.close()
