"""Checking that every player loads, each in a jail of its own, so that a file that
fails, exits, hangs or prints as it loads is found before play."""

from __future__ import annotations

from typing import Mapping

from games import referee
from players.sandbox import servers
from . import program
from .jailed_player import Setup
from .player_code import PlayerCode, ProgramCode
from .protocol import LOAD_FAILED
from games.base import Game


def check_players(players: Mapping[str, PlayerCode | ProgramCode],
                  setup: Setup, game: Game, seconds: float, at_once: int = 4,
                  keep_servers: bool = False) -> dict[str, str]:
    """Load each player in a jail for game (the game of setup), in its first seat,
    at_once jails at a time, and return {name: why} for those, in order, that fail
    to load (or a program that fails to start) within seconds, such as
    {'bob': "SyntaxError: expected ':' (bob.py, line 1)"}. The jail servers started
    for the check are stopped at its end, so that the referees this process starts
    next start their own; with keep_servers they are kept for the next check (a
    process that does nothing but check)."""
    try:
        return _check(players, setup, game, seconds, at_once)
    finally:
        if not keep_servers:
            servers.close_servers()


def _check(players: Mapping[str, PlayerCode | ProgramCode],
           setup: Setup, game: Game, seconds: float, at_once: int) -> dict[str, str]:
    """Check the players (see check_players)."""
    names, failed = list(players), {}
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
                    failed[name] = forfeit.detail.removeprefix(LOAD_FAILED)
        finally:
            for player in jailed:
                player.close()
    return failed
