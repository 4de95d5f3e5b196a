"""Reading a player's code from its spec, on the trusted side, without running it:
a file or module player's source (PlayerCode), a program's command and the
folders it may see (ProgramCode). A registry player is its spec alone."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass

from players.player_spec import PROGRAM_PREFIX, Kind, PlayerSpec, parse_spec
from .command_jail import PROGRAM_PATH


@dataclass(frozen=True)
class PlayerCode:
    """What a jail needs to load a player: a registry spec, or a file's source."""

    spec: str
    """The spec the player was given by, such as 'ab3' or 'subs/alice.py:player'."""
    source: str | None = None
    """The Python source of a file or module player, read by the trusted side; None
    for a registry player."""
    filename: str = ''
    """The file's name, shown in the player's error messages."""
    function: str = 'player'
    """The name of the player function in the source."""


@dataclass(frozen=True)
class ProgramCode:
    """What a jail needs to run a program: its command and the folders it may see."""

    spec: str
    """The spec the program was given by, such as 'exec:java -cp subs/alice Bot'."""
    argv: tuple
    """The command, its paths made absolute."""
    folders: tuple = ()
    """The folders the command names (a file's folder), visible to the program read-only."""
    workdir: str | None = None
    """The program's own folder, where it runs (None: a private folder of its jail)."""


def read_code(spec: str | PlayerSpec) -> PlayerCode | ProgramCode:
    """Return what a jail needs to run a player's spec: a ProgramCode for a
    program, else a PlayerCode. Raises ValueError naming what is wrong."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    return read_program(parsed.text) if parsed.kind is Kind.PROGRAM else read_player(parsed)


def read_player(spec: str | PlayerSpec) -> PlayerCode:
    """Return the PlayerCode of a spec, reading a file or module player's source
    (without running it). Raises ValueError naming a missing file or module."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind not in (Kind.FILE, Kind.MODULE):
        return PlayerCode(parsed.text)
    path = parsed.location if parsed.kind is Kind.FILE else module_file(parsed.location)
    if not os.path.isfile(path):
        raise ValueError(f'no player file {path!r}')
    try:
        with open(path, encoding='utf-8') as file:
            source = file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f'cannot read player file {path!r}: {error}') from None
    return PlayerCode(parsed.text, source, os.path.basename(path), parsed.function)


def module_file(name: str) -> str:
    """Return the file of a module on sys.path, found without importing anything;
    raise ValueError if there is none."""
    parts = name.split('.')
    for entry in sys.path:
        base = os.path.join(entry or os.getcwd(), *parts)
        for path in (base + '.py', os.path.join(base, '__init__.py')):
            if os.path.isfile(path):
                return path
    raise ValueError(f'cannot find module {name!r} for a player')


def read_program(spec: str) -> ProgramCode:
    """Return the ProgramCode of a program's spec; raise ValueError naming what is
    wrong (a command that cannot be split, a missing or non-executable program)."""
    words = _words(spec)
    command = words[0]
    if os.sep in command:
        if not os.path.isfile(command):
            raise ValueError(f'no program file {command!r} (in {spec!r})')
        if not os.access(command, os.X_OK):
            raise ValueError(f'{command!r} is not executable (chmod +x {shlex.quote(command)})')
    elif shutil.which(command, path=PROGRAM_PATH) is None:
        raise ValueError(f'cannot find the command {command!r} of {spec!r} in {PROGRAM_PATH}, '
                         'where jailed programs look for it')
    paths = [[os.path.abspath(path) for path in _paths(word, first=index == 0)]
             for index, word in enumerate(words)]
    argv = tuple(os.pathsep.join(named) if named else word for word, named in zip(words, paths))
    folders = [path if os.path.isdir(path) else os.path.dirname(path)
               for named in paths for path in named]
    if '/' in folders:
        raise ValueError(f'{spec!r} names the root folder: that would show the program '
                         'the whole filesystem')
    folders = list(dict.fromkeys(folders))
    return ProgramCode(spec, argv, tuple(folders), folders[0] if folders else None)


def program_names(spec: str) -> list[str]:
    """Return the names a table may give a program, shortest first: the stem of the
    first file or folder its command names ('alice' for 'exec:java -cp subs/alice
    Bot' or './bots/alice'), then with its folder's name ('subs/alice')."""
    try:
        words = _words(spec)
    except ValueError:
        return [spec]
    paths = [path for index, word in enumerate(words) for path in _paths(word, index == 0)]
    location = os.path.normpath(os.path.abspath(paths[0])) if paths else words[0]
    folder, name = os.path.split(location)
    stem = os.path.splitext(name)[0] or name
    parent = os.path.basename(folder)
    return list(dict.fromkeys([stem, f'{parent}/{stem}' if parent else stem]))


def _words(spec: str) -> list[str]:
    """Return the words of a program spec's command, split as a shell splits them."""
    command = spec[len(PROGRAM_PREFIX):] if spec.startswith(PROGRAM_PREFIX) else shlex.quote(spec)
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise ValueError(f'cannot read the command of {spec!r}: {error}') from None
    if not words:
        raise ValueError(f'{spec!r} names no command; give one, such as exec:./bot')
    return words


def _paths(word: str, first: bool) -> list[str]:
    """Return the files and folders a word of a command names: the command itself
    when written as a path (as a shell reads it); any other word that is not an
    option and names existing files or folders, alone or as a list separated by
    ':' (a Java class path)."""
    if first:
        return [word] if os.sep in word else []
    parts = word.split(os.pathsep)
    if word.startswith('-') or not all(part and os.path.exists(part) for part in parts):
        return []
    return parts
