"""The jail levels, each registered here once: its name, what it isolates (a report's
header says so), why this machine cannot jail at it, how its jail server is started
and how a program's jail runs its command, and how the jail server confines each
jail it forks (see players.sandbox.jail_server and players.sandbox.confine). Which
level a run uses, 'auto' among them, is players.sandbox.level_choice's to say."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from typing import Callable, Sequence

from . import confine
from .bubblewrap import bwrap_options
from .folders import inside

@dataclass(frozen=True)
class ServerPlan:
    """What a jail server is started with, whatever its level."""

    start: list[str]
    """The command that runs jail_server_main, without its settings."""
    settings: dict
    """Its settings (see jail_server_main), but for the view of the system it shows."""
    library: list[str]
    """The folders of the standard library."""
    sites: list[str]
    """The folders of the installed packages, none of which the server may see."""
    python: list[str]
    """The folders of this Python: its prefixes and its executable's."""
    over: list[str]
    """The files and folders the server may import from: the packages' places."""


@dataclass(frozen=True)
class Confinement:
    """What a jail server does for each jail it forks, in the server and in the jail."""

    view: bool
    """Does a server run by root show its jails a view of the system of its own
    (see players.sandbox.confine.build_view)?"""
    private_folder: Callable[[bool, bool], bool]
    """Does a jail get a private folder in the server's folder, given whether the
    server has a view and whether the jail runs a program?"""
    enter: Callable[[str | None, int | None, dict, bool, str | None], None]
    """Confine the forked jail, given its private folder (None: none), its user id
    (None: the server's), its limits, whether it unpacks a submission's image and
    the server's view (None: none)."""


@dataclass(frozen=True)
class Level:
    """One jail level."""

    name: str
    isolation: Callable[[], str]
    """A short line saying what a jail at the level is shut off from, here."""
    problem: Callable[[], str | None]
    """Why this machine cannot jail at the level, as far as can be told without
    starting a jail (None: it may)."""
    server_command: Callable[[ServerPlan], list[str]]
    """The command that starts a jail server at the level, given its plan."""
    program_command: Callable[[Sequence[str], Sequence[str], str | None],
                              tuple[list[str], str | None]]
    """The command a program's jail executes, and the folder it runs in (None: its
    jail's private folder), given its argv, the files and folders it may see and
    the folder asked for."""
    own_folder: bool
    """Does its jail server keep its jails' folders in this process's temporary folder?"""
    confinement: Confinement
    """How its jail server confines each jail."""
    probed: bool = False
    """Is a jail started at the level before it is used, to know that it works here?"""


LEVELS: dict[str, Level] = {}
"""Every level, weakest first."""


def register(level: Level) -> Level:
    """Register a level, stronger than those registered before it."""
    LEVELS[level.name] = level
    return level


def _process_isolation() -> str:
    """What a process-level jail is shut off from: more when run by root."""
    if os.geteuid() == 0:
        return 'process (own process and user, OS limits, read-only system, private home)'
    return 'process (own process, OS limits; same user, no filesystem isolation)'


def _process_server(plan: ServerPlan) -> list[str]:
    """A process-level server: run by root, it shows its jails a view of the system
    of its own (see players.sandbox.confine.build_view)."""
    view = None
    if os.geteuid() == 0:
        view = {'binds': plan.library, 'over': plan.over,
                'masks': [site for site in plan.sites if inside(site, plan.library)]}
    return plan.start + [_settings(plan, view)]


def _process_program(argv: Sequence[str], paths: Sequence[str],
                     workdir: str | None) -> tuple[list[str], str | None]:
    """A program at the process level runs as it is, in workdir; its jail shows it
    paths (see players.sandbox.confine.run_command)."""
    return list(argv), workdir


register(Level('process', _process_isolation, lambda: None, _process_server, _process_program,
               own_folder=True, confinement=Confinement(
                   view=True, private_folder=lambda view, program: not view or program,
                   enter=confine.shut_in)))


def _bwrap_missing() -> str | None:
    """Why bubblewrap cannot be used here without trying it: it is not installed."""
    if shutil.which('bwrap') is None:
        return 'bubblewrap is not installed (apt-get install bubblewrap)'
    return None


def _bwrap_server(plan: ServerPlan) -> list[str]:
    """A server inside bubblewrap: this Python's folders and the packages' places
    bound read-only, the installed packages' folders hidden."""
    binds = [path for path in dict.fromkeys(plan.python) if not path.startswith('/usr/')]
    masks = [site for site in plan.sites if inside(site, binds + ['/usr'])]
    return bwrap_options(binds, masks=masks, over=plan.over) + plan.start + [
        _settings(plan, None)]


def _bwrap_program(argv: Sequence[str], paths: Sequence[str],
                   workdir: str | None) -> tuple[list[str], str | None]:
    """A program in bubblewrap sees its paths read-only and runs in workdir (/tmp)."""
    options = bwrap_options(paths, confine.PROGRAM_PATH, workdir or '/tmp', server=False)
    return options + list(argv), None


def _enter_namespaces(folder: str | None, uid: int | None, limits: dict, image: bool,
                      view: str | None) -> None:
    """A jail of a server inside bubblewrap gets namespaces of its own inside it,
    with a fresh /tmp for its folder."""
    confine.enter_namespaces(limits, uid, image)


register(Level('bwrap', lambda: 'bwrap (own namespaces, no network, read-only system, '
               'private /tmp)', _bwrap_missing, _bwrap_server, _bwrap_program, own_folder=False,
               confinement=Confinement(view=False, private_folder=lambda view, program: False,
                                       enter=_enter_namespaces), probed=True))


def _settings(plan: ServerPlan, view: dict | None) -> str:
    """The server's settings as its command's last word, with the view it shows."""
    return json.dumps({**plan.settings, 'view': view})
