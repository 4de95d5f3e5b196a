"""Reading a player's code from its spec, on the trusted side, without running it:
a file or module player's source, or a submission folder's files (PlayerCode), a
program's command and the folders it may see (ProgramCode). A registry player is
its spec alone. A course's support files (Support) are read once, and put beside
each Python player's own files (beside)."""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import sys
from dataclasses import dataclass, replace
from typing import Sequence, overload

from players.player_spec import DEFAULT_ENTRY, PROGRAM_PREFIX, Kind, PlayerSpec, parse_spec
from players.sandbox.allowed import installed_imports
from players.sandbox.confine import PROGRAM_PATH
from .protocol import Code


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
    files: tuple[tuple[str, bytes], ...] = ()
    """A submission folder's files, (path in the folder, content), sorted by path, the
    source's file among them; empty for a single file or a registry player."""

    def told(self) -> Code:
        """Return what a jail is told of the player: everything but the files'
        contents, which come into the jail as files of its own (folder: True)."""
        return Code(self.spec, self.source, self.filename, self.function, bool(self.files))


@dataclass(frozen=True)
class FolderLimits:
    """How big a submission folder may be."""

    megabytes: float = 32
    """The most its files may hold together, in MB: a bot with a few MB of weights fits."""
    files: int = 1000
    """The most files it may have."""
    depth: int = 32
    """The most folders deep its files may lie."""


class SubmissionError(ValueError):
    """A submission that exists but cannot play as it is (a link out of its folder,
    a folder over the limits, a file that cannot be read): the run lists it as one
    that cannot play, where a spec that names nothing is a usage error."""


@dataclass(frozen=True)
class ProgramCode:
    """What a jail needs to run a program: its command and the files and folders it may see."""

    spec: str
    """The spec the program was given by, such as 'exec:java -cp subs/alice Bot'."""
    argv: tuple
    """The command, its paths made absolute."""
    paths: tuple = ()
    """The files and folders the command names, visible to the program read-only (a
    file alone, not the folder it is in, which may hold another student's)."""
    workdir: str | None = None
    """The program's own folder, where it runs: the first path, or the folder of the
    first path that is a file (None: a private folder of its jail)."""


def read_code(spec: str | PlayerSpec,
              limits: FolderLimits = FolderLimits()) -> PlayerCode | ProgramCode:
    """Return what a jail needs to run a player's spec: a ProgramCode for a
    program, else a PlayerCode (a submission folder's within limits). Raises
    ValueError naming what is wrong: SubmissionError for a submission that
    exists but cannot play as it is."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind is Kind.PROGRAM:
        return read_program(parsed.text)
    if parsed.kind is Kind.FOLDER:
        return read_folder(parsed, limits)
    return read_player(parsed, limits)


def read_player(spec: str | PlayerSpec, limits: FolderLimits = FolderLimits()) -> PlayerCode:
    """Return the PlayerCode of a spec, reading a file or module player's source
    (without running it), no bigger than limits allow a folder. Raises ValueError
    naming a missing file or module, SubmissionError for a file too big."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    if parsed.kind not in (Kind.FILE, Kind.MODULE):
        return PlayerCode(parsed.text)
    path = parsed.location if parsed.kind is Kind.FILE else module_file(parsed.location)
    if not os.path.isfile(path):
        raise ValueError(f'no player file {path!r}')
    return PlayerCode(parsed.text, read_source(path, limits), os.path.basename(path),
                      parsed.function)


def read_folder(spec: str | PlayerSpec, limits: FolderLimits = FolderLimits()) -> PlayerCode:
    """Return the PlayerCode of a submission folder's spec: its entry's source and
    every file of the folder (folders named __pycache__ or .git left out). A link
    to a file inside the folder comes as that file; a link that leads out of it or
    to a folder, or anything that is not a regular file, is refused. Raises
    ValueError for a folder or entry that does not exist, SubmissionError for
    one that cannot play as it is."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    top = parsed.location
    if not os.path.isdir(top):
        raise ValueError(f'no player folder {top!r}')
    entry = os.path.normpath(parsed.entry)
    if not os.path.isfile(os.path.join(top, entry)):
        hint = (f' (name another file of it: {top.rstrip(os.sep)}:bot.py)'
                if parsed.entry == DEFAULT_ENTRY else '')
        raise ValueError(f'the player folder {top!r} has no {parsed.entry}{hint}')
    files = folder_files(top, limits)
    source = read_source(os.path.join(top, entry), limits)
    return PlayerCode(parsed.text, source, entry, parsed.function, tuple(files))


def folder_files(top: str, limits: FolderLimits) -> list[tuple[str, bytes]]:
    """Return the files of a submission folder as (path in it, content), sorted,
    within limits; raise SubmissionError naming what cannot come along (and the
    folder by its name alone: the line that lists who cannot play shows the reason)."""
    real_top, shown = os.path.realpath(top), os.path.basename(os.path.normpath(top))
    files: list[tuple[str, bytes]] = []
    size = 0
    for folder, subfolders, names in os.walk(top):
        subfolders[:] = sorted(name for name in subfolders if name not in ('__pycache__', '.git'))
        if subfolders and os.path.relpath(folder, top).count(os.sep) + 1 >= limits.depth:
            raise SubmissionError(f'{shown} nests folders more than {limits.depth} deep')
        for name in sorted(names) + [name for name in subfolders
                                     if os.path.islink(os.path.join(folder, name))]:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, top)
            real = os.path.realpath(path)
            if os.path.islink(path) and os.path.commonpath([real, real_top]) != real_top:
                raise SubmissionError(f'{shown}: {relative} is a link that leads out of the '
                                      f'folder (to {real}); only its own files may come along')
            if not os.path.isfile(real) or os.path.isdir(path):
                raise SubmissionError(f'{shown}: {relative} is not a regular file (a link to a '
                                      'folder, a device, a socket or a pipe); only files may '
                                      'come along')
            if len(files) == limits.files:
                raise SubmissionError(f'{shown} has more than {limits.files} files (allow more '
                                      'with --submission-files)')
            try:
                with open(real, 'rb') as file:  # no more than the room left, and a byte
                    content = file.read(max(0, int(limits.megabytes * 1e6) - size) + 1)
            except OSError as error:
                raise SubmissionError(f'{shown}: cannot read {relative}: '
                                      f'{error.strerror}') from None
            size += len(content)
            if size > limits.megabytes * 1e6:
                raise SubmissionError(f'{shown} holds over {limits.megabytes:g} MB (allow more '
                                      'with --submission-mb)')
            files.append((relative, content))
    return sorted(files)


@dataclass(frozen=True)
class Support:
    """A course's support files (aima-python's utils.py, a board library), the
    instructor's, read once by the trusted side: each jail of Python code of a
    student's has them beside that code, read-only, its own file of the same name
    winning (see beside)."""

    names: tuple[str, ...] = ()
    """Their names in a jail's working folder, as headers show them: a file's name,
    a folder's with a slash after it ('utils.py', 'boardlib/')."""
    files: tuple[tuple[str, bytes], ...] = ()
    """Their files as (path in the working folder, content), sorted: a file under its
    name, a folder's files under the folder's name."""
    imports: tuple[str, ...] = ()
    """The installed packages their Python modules import (found with ast, never
    run), which each jail that has them may import as if given with --allow."""

    def allow(self, given: Sequence[str]) -> tuple[str, ...]:
        """Return the installed packages a jail may import: those given (--allow),
        then those the support files import."""
        return tuple(dict.fromkeys([*given, *self.imports]))


def read_support(paths: Sequence[str], limits: FolderLimits = FolderLimits()) -> Support:
    """Return the support files of paths, files and folders, read within the limits
    of a submission folder, together; raise ValueError naming a path that is
    missing, two that a jail would import by one name, or what cannot come along."""
    names: list[str] = []
    files: list[tuple[str, bytes]] = []
    for path in paths:
        name = os.path.basename(os.path.normpath(path))
        if _top(name) in {_top(known) for known in names}:
            raise ValueError(f'--support: two support files or folders named {_top(name)!r}')
        try:
            if os.path.isdir(path):
                names.append(name + '/')
                files += [(os.path.join(name, inside), content)
                          for inside, content in folder_files(path, limits)]
            elif os.path.isfile(path):
                names.append(name)
                files.append((name, _content(path, limits)))
            else:
                raise ValueError(f'no file or folder {path!r}')
        except ValueError as error:
            raise ValueError(f'--support: {error}') from None
    if len(files) > limits.files or sum(len(content) for _, content in files) > \
            limits.megabytes * 1e6:
        raise ValueError(f'--support: the support files are over the limits of a submission '
                         f'folder ({limits.files} files, {limits.megabytes:g} MB: allow more '
                         'with --submission-files, --submission-mb)')
    sources = [content for path, content in files if path.endswith('.py')]
    return Support(tuple(names), tuple(sorted(files)),
                   installed_imports(sources, {_top(path) for path, _ in files}))


@overload
def beside(code: PlayerCode, support: Support) -> PlayerCode: ...
@overload
def beside(code: PlayerCode | ProgramCode, support: Support) -> PlayerCode | ProgramCode: ...


def beside(code: PlayerCode | ProgramCode, support: Support) -> PlayerCode | ProgramCode:
    """Return code with the support files beside it: a file or module player's file
    and a submission folder's files, each with the support files whose names it
    does not use (its own utils.py, or utils/, wins over the course's utils.py). A
    registry player and a program are left as they are."""
    if not support.files or not isinstance(code, PlayerCode) or code.source is None:
        return code
    own = code.files or ((code.filename, code.source.encode()),)
    used = {_top(path) for path, _ in own}
    return replace(code, files=tuple(sorted([*own, *(file for file in support.files
                                                     if _top(file[0]) not in used)])))


def _top(path: str) -> str:
    """Return the name a jail imports or opens a file or folder of the working folder
    by, at its top: 'utils' for 'utils.py', 'utils/' and 'utils/core.py'."""
    return path.split(os.sep)[0].removesuffix('.py')


def _content(path: str, limits: FolderLimits) -> bytes:
    """Return the content of a file, at most a byte over what limits allow a folder;
    raise ValueError naming it if it cannot be read."""
    try:
        with open(path, 'rb') as file:
            return file.read(int(limits.megabytes * 1e6) + 1)
    except OSError as error:
        raise ValueError(f'cannot read {path!r}: {error.strerror}') from None


def read_source(path: str, limits: FolderLimits = FolderLimits()) -> str:
    """Return the Python source of a player's file, as text mode reads it (every line
    ending a newline), no bigger than limits allow a folder; raise SubmissionError
    naming a file too big, ValueError for one that cannot be read."""
    try:
        with open(path, 'rb') as file:  # no more than allowed, and a byte
            content = file.read(int(limits.megabytes * 1e6) + 1)
        if len(content) > limits.megabytes * 1e6:
            raise SubmissionError(f'{os.path.basename(path)} holds over {limits.megabytes:g} '
                                  'MB (allow more with --submission-mb)')
        source = content.decode('utf-8')
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f'cannot read player file {path!r}: {error}') from None
    return source.replace('\r\n', '\n').replace('\r', '\n')


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
    named = [[os.path.abspath(path) for path in _paths(word, first=index == 0)]
             for index, word in enumerate(words)]
    argv = tuple(os.pathsep.join(paths) if paths else word for word, paths in zip(words, named))
    paths = list(dict.fromkeys(path for paths in named for path in paths))
    if '/' in paths:
        raise ValueError(f'{spec!r} names the root folder: that would show the program '
                         'the whole filesystem')
    if os.geteuid() == 0:  # each jail runs as a user of its own, as no one in particular
        for path in paths:
            _check_readable_by_all(spec, path)
    workdir = None
    if paths:
        workdir = paths[0] if os.path.isdir(paths[0]) else os.path.dirname(paths[0])
    return ProgramCode(spec, argv, tuple(paths), workdir)


def _check_readable_by_all(spec: str, path: str) -> None:
    """Raise SubmissionError, saying what to do, unless every user may reach path
    and read it (a folder: list and enter it), as a program's jail must."""
    needed = stat.S_IROTH | (stat.S_IXOTH if os.path.isdir(path) else 0)
    steps = [(folder, stat.S_IXOTH) for folder in _ancestors(path)] + [(path, needed)]
    for step, wanted in steps:
        if os.stat(step).st_mode & wanted != wanted:
            raise SubmissionError(
                f'{spec!r}: a jailed program runs as a user of its own, which cannot read '
                f'{step}: let every user read it (chmod -R a+rX {shlex.quote(step)}), or '
                'copy the program where every user may')


def _ancestors(path: str) -> list[str]:
    """Return the folders above path, from the root down (the root left out)."""
    folders = []
    parent = os.path.dirname(path)
    while parent != os.path.dirname(parent):
        folders.append(parent)
        parent = os.path.dirname(parent)
    return folders[::-1]


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
