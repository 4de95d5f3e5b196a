"""What a user gives the command line, checked before anything is played: the
games, the players (the gauntlet's among them) and the jail level.

A mistake in them is a UsageError, raised where it is found; the command line
catches it once and prints its message on one line (exit status 2)."""

from __future__ import annotations

import contextlib
import functools
from typing import Iterable, Iterator, Mapping

import players
import variants
from games.base import Game
from players.player_spec import Kind, parse_spec
from . import jail, naming
from .jailed_player import Setup
from .loading import check_players
from .player_code import PlayerCode, ProgramCode, read_code


class UsageError(Exception):
    """A mistake in what the user typed, said in one line."""


@contextlib.contextmanager
def usage_errors(*kinds: type[Exception]) -> Iterator[None]:
    """Within this, an exception of kinds (ValueError by default) is a UsageError
    with its message."""
    try:
        yield
    except kinds or (ValueError,) as error:
        raise UsageError(str(error)) from None


def make_game(name_or_spec: str) -> Game:
    """Return the game of a variant name or spec."""
    with usage_errors():
        return variants.make(name_or_spec)


def same_game_key(spec: str) -> str:
    """Return what two variant specs share when they name the same game, however
    spelled: 'nim(piles=(2, 2))' and 'nim(piles=(2,2))' have one key."""
    return repr(make_game(spec))


def distinct_variants(specs: Iterable[str]) -> list[str]:
    """Return the variant specs that name different games, each game under its first
    spelling."""
    first: dict[str, str] = {}
    for spec in specs:
        first.setdefault(same_game_key(spec), spec)
    return list(first.values())


def matching_variant(specs: list[str], text: str) -> str | None:
    """Return the spec among specs of the game text names (as given, or any
    spelling of the same game), or None."""
    if text in specs:
        return text
    wanted = same_game_key(text)
    return next((spec for spec in specs if same_game_key(spec) == wanted), None)


def sandbox_level(requested: str) -> str:
    """Return the jail level to use, or raise a UsageError saying why the requested
    one cannot be had."""
    with usage_errors():
        return jail.resolve_level(requested)


new_setup = functools.partial(Setup, make_game=variants.make, load_player=players.load_player)
"""Return the Setup of a game's jails: Setup(game, level=..., limits=...), its players
loaded by the registry's load_player and its game made by variants.make."""


def player_code(spec: str) -> PlayerCode | ProgramCode:
    """Return the code of a player spec for a jail: a registry player is checked to
    load here, a file or module player only read, a program's command only checked
    to name a program."""
    with usage_errors():
        parsed = parse_spec(spec)
        if parsed.kind is Kind.REGISTRY:
            players.load_player(spec)
        return read_code(parsed)


def checked_players(specs: Mapping[str, str], setup: Setup, game: Game,
                    seconds: float) -> dict[str, PlayerCode | ProgramCode]:
    """Return the code of each player by name, each checked to load (a program: to
    start) within seconds in a jail for game, the game of setup (a file may exit,
    hang or print as it loads)."""
    for name, spec in specs.items():
        if players.registry.is_interactive(spec):
            raise UsageError(f'player {name!r} needs a person at the keyboard; play it with play')
    codes = {name: player_code(spec) for name, spec in specs.items()}
    with usage_errors():
        check_players(codes, setup, game, seconds)
    return codes


def tournament_players(text: str | None, gauntlet: str | None,
                       anchors: Iterable[str] = ()) -> tuple[dict[str, str], str | None]:
    """Return the players of a tournament as {name: spec}: those of text (comma-
    separated, each SPEC or NAME=SPEC; by default every registered non-interactive
    player), then the anchors not among them (registry specs); and the name of the
    gauntlet player, which is added first if it is none of them."""
    if text is None:
        entries = players.registry.tournament_names()
    else:
        entries = naming.split_specs(text)
    with usage_errors():
        specs = naming.name_players(entries)
        missing = [name for name in anchors if name not in specs]
        if missing:
            specs = naming.name_players([*named_entries(specs), *missing])
        if gauntlet is not None:
            gauntlet_name, gauntlet_spec = naming.split_entry(gauntlet)
            found = [name for name, spec in specs.items()
                     if name == (gauntlet_name or gauntlet_spec) or spec == gauntlet_spec]
            if found:
                gauntlet = found[0]
            else:
                specs = naming.name_players([gauntlet, *named_entries(specs)])
                gauntlet = next(iter(specs))
    if len(specs) < 2:
        raise UsageError(f'a tournament needs at least two players, got '
                         f'{", ".join(specs) or "none"}')
    return specs, gauntlet


def named_entries(specs: Mapping[str, str]) -> list[str]:
    """Return the entries NAME=SPEC that name the players of specs as they are."""
    return [f'{name}={spec}' for name, spec in specs.items()]
