"""Player specs: the one reading of the text that names a player.

A spec is one of
- a registry player, by name ('ab5', 'mcts-clock') or with options ('mcts(N=200)');
- a file's function, 'path/to/file.py:function' ('path/to/file.py' alone names
  its function 'player');
- a module's function, 'package.module:function';
- a submission folder, a path to a folder ('subs/carol', 'subs/carol/'): the
  function 'player' of the folder's player.py, with every file of the folder
  beside it; 'subs/carol:act' names another function of player.py, and
  'subs/carol:bot.py:act' (or 'subs/carol:bot.py') another file of the folder;
- a program run as a player: 'exec:COMMAND', or the path of an executable file
  that is not a .py file ('./bot', 'bots/alice').

An entry of a class's folder of submissions is a path, never read as a spec
(path_spec): 'subs/alice:player.py' is that file, not player.py of subs/alice."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from enum import Enum

PROGRAM_PREFIX = 'exec:'
"""How a player spec names a program to run."""
DEFAULT_FUNCTION = 'player'
"""The function a file spec names when it names none."""
DEFAULT_ENTRY = 'player.py'
"""The file of a submission folder whose function is the player, unless the spec names another."""
_WITH_OPTIONS = re.compile(r'\s*([A-Za-z_]\w*)\s*(\(.*)$', re.DOTALL)


class Kind(Enum):
    """What a spec names."""

    REGISTRY = 'registry'
    FILE = 'file'
    MODULE = 'module'
    FOLDER = 'folder'
    PROGRAM = 'program'


@dataclass(frozen=True)
class PlayerSpec:
    """A player spec, read (see parse_spec)."""

    text: str
    """The spec as given."""
    kind: Kind
    name: str = ''
    """A registry player's name, without its options ('mcts' of 'mcts(N=200)')."""
    options: bool = False
    """Whether a registry spec gives options in brackets (then text is a call)."""
    location: str = ''
    """The path of a file player or of a submission folder, or the module of a module player."""
    function: str = DEFAULT_FUNCTION
    """The function a file, module or folder player names."""
    entry: str = DEFAULT_ENTRY
    """The file of a submission folder whose function is the player, relative to the folder."""

    @property
    def is_code(self) -> bool:
        """True for a file, module or program player: code given by a user, run in
        a jail, rather than a player of the registry."""
        return self.kind is not Kind.REGISTRY

    @property
    def is_program(self) -> bool:
        """True for a program run as a player."""
        return self.kind is Kind.PROGRAM


def parse_spec(text: str) -> PlayerSpec:
    """Return the PlayerSpec of a spec's text (see the module's docstring). A path
    alone names a program only if it is an executable file, and a folder whether or
    not it exists (reading it says so)."""
    if text.startswith(PROGRAM_PREFIX) or (
            os.sep in text and not text.endswith('.py') and os.path.isfile(text)
            and os.access(text, os.X_OK)):
        return PlayerSpec(text, Kind.PROGRAM)
    called = _WITH_OPTIONS.match(text)
    if called:
        return PlayerSpec(text, Kind.REGISTRY, called.group(1), options=True)
    folder = _folder_spec(text)
    if folder is not None:
        return folder
    if ':' in text:
        location, function = text.rsplit(':', 1)
    elif text.endswith('.py'):
        location, function = text, DEFAULT_FUNCTION
    else:
        return PlayerSpec(text, Kind.REGISTRY, text)
    kind = Kind.FILE if location.endswith('.py') else Kind.MODULE
    return PlayerSpec(text, kind, location=location, function=function)


def path_spec(path: str) -> PlayerSpec:
    """Return the PlayerSpec of a submission named by its path alone, as an entry of
    a class's folder is: the folder, or the Python file, with its function player,
    whatever its name holds (a ':' in it names no file or function)."""
    return PlayerSpec(path, Kind.FOLDER if os.path.isdir(path) else Kind.FILE, location=path)


def _folder_spec(text: str) -> PlayerSpec | None:
    """Return the PlayerSpec of a submission folder's spec, FOLDER[:ENTRY.py][:FUNCTION],
    or None if text names no folder: a path (with a separator) that is a folder, or
    that does not end with .py."""
    location, _, rest = text.partition(':')
    if os.sep not in location or location.endswith('.py') and not os.path.isdir(location):
        return None
    if rest.endswith('.py') or ':' in rest:  # ENTRY.py[:FUNCTION]
        entry, _, function = rest.partition(':')
        if not entry.endswith('.py'):
            return None
    else:
        entry, function = DEFAULT_ENTRY, rest
    return PlayerSpec(text, Kind.FOLDER, location=location,
                      function=function or DEFAULT_FUNCTION, entry=entry)
