"""The entrants of a tournament: each player's code read and checked to load in a
jail before play, and why each that cannot play cannot."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Mapping

import players
import variants
from games import game_files
from players.player_spec import Kind, parse_spec, path_spec
from players.remote.jailed_player import Setup
from players.remote.load_check import check_players
from players.remote.player_code import (FolderLimits, PlayerCode, ProgramCode, SubmissionError,
                                        Support, beside, read_code)
from players.sandbox.allowed import allowed_packages
from players.sandbox.jail import Limits
from . import naming
from .match import Rules


class PlayerError(ValueError):
    """A player that cannot take part in a tournament, said in one line."""


def read(spec: str, limits: FolderLimits = FolderLimits(),
         path: bool = False) -> PlayerCode | ProgramCode:
    """Return the code of a player spec (with path, of a submission's path, see
    player_spec.path_spec) for a jail: a registry player is checked to load here, a
    file, module or folder player only read (a folder within limits), a program's
    command only checked to name a program. Raises ValueError if it cannot be had
    (SubmissionError for a submission that exists but cannot play)."""
    parsed = path_spec(spec) if path else parse_spec(spec)
    if parsed.kind is Kind.REGISTRY:
        players.load_player(spec)
    return read_code(parsed, limits)


def loaded_here(code: PlayerCode | ProgramCode, variant: str) -> bool:
    """Whether read has checked a player's code as well as a jail would: a registry
    player, loaded in this process, of a game that is not in a file of its own (a
    jail loads such a game's file too, so that its check loads the game)."""
    return (isinstance(code, PlayerCode) and code.source is None
            and not game_files.is_file_spec(variant))


@dataclass(frozen=True)
class Entrants:
    """The players of a tournament, read and checked before play."""

    specs: dict[str, str]
    """Each player's spec, by name, in the players' order."""
    codes: dict[str, PlayerCode | ProgramCode]
    """The code of each player that could be read, by name, as its jails get it."""
    broken: dict[str, str]
    """Why each player that cannot play cannot, by name: it forfeits its games unplayed."""


def check(specs: Mapping[str, str], variant: str, rules: Rules, strict: bool = True,
          submitted: Iterable[str] = (), limits: FolderLimits = FolderLimits(),
          support: Support = Support(), keep_servers: bool = False) -> Entrants:
    """Return the entrants of specs ({name: spec}), each read and loaded in a jail
    of rules for variant (a registry player of a game of this package only in this
    process, see loaded_here). A player cannot play if its code cannot be read as it is
    (player_code.SubmissionError; for the specs submitted, those of a class's
    folder, whatever keeps them from being read, and a link, which could lead to
    another's submission or anywhere), or if it fails to load (a program: to
    start) within the rules' load time (a file may exit, hang or print as it
    loads). The specs submitted are paths, each read as itself (see
    player_spec.path_spec). Any other spec that cannot be read raises PlayerError,
    as do a registry player that fails to load, a player that needs a person at the
    keyboard, and with strict the first player that cannot play. A submission
    folder is read within limits, and each file, module and folder player's code
    has the course's support files beside it. keep_servers keeps the jail servers
    of the check for the next (see load_check.check_players)."""
    for name, spec in specs.items():
        if players.registry.is_interactive(spec):
            raise PlayerError(f'player {name!r} needs a person at the keyboard; play it with play')
    submitted = set(submitted)
    codes, unread = {}, {}
    for name, spec in specs.items():
        try:
            if spec in submitted and os.path.islink(spec):
                raise SubmissionError(f'{os.path.basename(spec)} is a link, not a file or '
                                      f'folder of its own (to {os.path.realpath(spec)})')
            codes[name] = beside(read(spec, limits, spec in submitted), support)
        except ValueError as error:
            if strict or not (isinstance(error, SubmissionError) or spec in submitted):
                raise PlayerError(str(error)) from None
            unread[name] = str(error)
    setup = Setup(variant, variants.make, players.load_player, rules.sandbox,
                  Limits(memory_mb=rules.memory_mb), allowed_packages(rules.allow))
    jailed = {name: code for name, code in codes.items() if not loaded_here(code, variant)}
    unloaded = check_players(jailed, setup, variants.make(variant), rules.load_seconds(),
                             keep_servers=keep_servers)
    for name, why in unloaded.items():
        if strict or not naming.is_code_spec(specs[name]):
            raise PlayerError(f'player {name!r} cannot play: {why}')
    failed = {**unread, **unloaded}
    return Entrants(dict(specs), codes, {name: failed[name] for name in specs if name in failed})
