"""What a user gives the command line, checked before anything is played: the
games, the players (the gauntlet's and a class's folder of submissions among
them) and the jail level.

A mistake in them is a UsageError, raised where it is found; the command line
catches it once and prints its message on one line (exit status 2). A
submission that exists but cannot play is no mistake of the user's: the run
lists it and it forfeits its games, unless the user asks for strictness."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from argparse import Namespace
from typing import Iterable, Iterator, Mapping

import players
import variants
from games import game_files
from games.base import Game
from players.player_spec import Kind, parse_spec
from players.sandbox import level_choice
from players.tournaments import entrants, naming
from players.remote.jailed_player import Setup
from players.remote.player_code import FolderLimits, PlayerCode, ProgramCode
from players.remote.player_code import Support, read_support
from players.reports.player_text import writable
from .tournament_options import folder_limits


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
    game = make_game(spec)
    return game_files.normal_spec(spec) if game_files.is_file_spec(spec) else repr(game)


def changed_game_files(stored: Mapping[str, str]) -> list[str]:
    """Return a line for each game file whose source is not the one a stored run
    played (stored gives the digests it kept, by spec), saying so."""
    lines = []
    for spec, digest in stored.items():
        path = game_files.split(spec)[0]
        try:
            changed = game_files.read(path).digest != digest
        except ValueError as error:
            lines.append(f'Note: the game file of {spec} cannot be read now ({error}).')
            continue
        if changed:
            lines.append(f'Note: {path} has changed since this run played {spec}; its games '
                         'are shown with the file as it is now.')
    return lines


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
        return level_choice.resolve(requested)


new_setup = functools.partial(Setup, make_game=variants.make, load_player=players.load_player)
"""Return the Setup of a game's jails: Setup(game, level=..., limits=...), its players
loaded by the registry's load_player and its game made by variants.make."""


def player_code(spec: str, limits: FolderLimits = FolderLimits()) -> PlayerCode | ProgramCode:
    """Return the code of a player spec for a jail (see entrants.read); a spec that
    cannot be had is a UsageError."""
    with usage_errors():
        return entrants.read(spec, limits)


def class_submissions(folder: str) -> list[str]:
    """Return the player specs of a class's folder of submissions, in the order of
    their names: each .py file of it (its function player) and each folder in it
    (a submission folder), hidden entries and __pycache__ left out, and those whose
    names are not in UTF-8 left out, saying so on standard error. Raises a
    UsageError for a folder that does not exist or holds no submission."""
    if not os.path.isdir(folder):
        raise UsageError(f'--submissions: no folder {folder!r}')
    specs = [os.path.join(folder, name) for name in sorted(os.listdir(folder))
             if not name.startswith('.') and name != '__pycache__']
    specs = [spec for spec in specs if os.path.isdir(spec)
             or spec.endswith('.py') and os.path.isfile(spec)]
    for spec in [spec for spec in specs if writable(spec) != spec]:  # a zip made elsewhere
        print(f"--submissions: left out '{writable(spec)}', whose name is not in UTF-8, as a "
              "player's name must be: rename it to play it", file=sys.stderr)
        specs.remove(spec)
    if not specs:
        raise UsageError(f'--submissions: {folder!r} holds no submission (no .py file, '
                         'no folder)')
    return specs


def tournament_players(text: str | None, gauntlet: str | None, anchors: Iterable[str] = (),
                       submitted: Iterable[str] = (),
                       fewest: int = 2) -> tuple[dict[str, str], str | None]:
    """Return the players of a tournament as {name: spec}: those of text (comma-
    separated, each SPEC or NAME=SPEC; by default every registered non-interactive
    player, or none if specs are submitted), then the submitted specs (see
    class_submissions: paths, never read as NAME=SPEC), then the anchors that name
    none of the others (registry specs: a submission named like one, ab2.py, makes
    way for it); and the name of the gauntlet player (a submission found by its
    path, never by its name), which is added first if it is none of them. A spec
    not in UTF-8 (a file name in another encoding) is a UsageError, as is a name the
    registry does not know, said as such however many players are given, and fewer
    than fewest players."""
    submitted = list(submitted)
    if text is not None:
        entries = [*naming.split_specs(text), *submitted]
    else:
        entries = submitted or players.registry.tournament_names()
    for entry in entries:  # a name in another encoding: a file of a zip made elsewhere
        shown = writable(entry)
        if shown != entry:
            raise UsageError(f"'{shown}' is not named in UTF-8, as player names must be: "
                             'rename it')
    with usage_errors():
        specs = naming.name_players(entries, submitted)
        missing = [name for name in anchors if name not in specs or specs[name] in submitted]
        if missing:  # named anew, a submission named like an anchor making way for it
            entries = [*entries, *missing]
            specs = naming.name_players(entries, submitted)
        if gauntlet is not None:
            gauntlet_name, gauntlet_spec = naming.split_entry(gauntlet)
            found = [name for name, spec in specs.items() if spec == gauntlet_spec
                     or name == (gauntlet_name or gauntlet_spec) and spec not in submitted]
            if found:
                gauntlet = found[0]
            else:
                specs = naming.name_players([gauntlet, *entries], submitted)
                gauntlet = next(iter(specs))
        for spec in specs.values():  # a misspelt name is said as such, however many are given
            if spec not in submitted and parse_spec(spec).kind is Kind.REGISTRY:
                players.load_player(spec)
    if len(specs) < fewest:
        raise UsageError(f'a tournament needs at least two players, got '
                         f'{", ".join(specs) or "none"}')
    return specs, gauntlet


def course_support(options: Namespace) -> Support:
    """Return the course's support files of options (--support, read within the
    limits of a submission folder, see player_code.read_support); a path that
    cannot be had is a UsageError."""
    with usage_errors():
        return read_support(options.support, folder_limits(options))
