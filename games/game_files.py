"""Games from a file: a spec 'course/konane.py:Konane(size=6)' names a Python file, a
Game class in it and the constructor's arguments (Python literals, given as
key=value; 'course/konane.py:Konane' takes its defaults).

The trusted side reads the file and the modules it imports from its own folder
(a student's checkout keeps aima-python's utils.py there) into a GameSource, once
a process. Each jail is handed that source as plain data (see message and
provide) and makes the game from it without a path: the referee and every jail
run the same code. The file runs as a module named after it, not as __main__,
its folder's modules importable from memory while it loads, within LOAD_SECONDS.
A spec may also name a game the file made (U3T = U3T()): that game is played."""

from __future__ import annotations

import ast
import contextlib
import hashlib
import os
import re
import sys
import traceback
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterator, Sequence, cast

from players.sandbox.allowed import imported_modules

from . import referee, sources
from .base import Game
from .specs import bind, parse_call
from .stochastic import StochasticGame

FILE_SPEC = re.compile(r'^\s*(?P<path>[^:()]+\.py)\s*:\s*(?P<call>\S.*?)\s*$', re.DOTALL)
"""A spec that names a file: 'PATH.py:Class' or 'PATH.py:Class(key=literal, ...)'."""
RULES = 'games'
"""The module a game file imports from this package, never from its own folder (where
a student's checkout may keep aima-python's games.py)."""
MAX_PLIES = 1000
"""The plies after which a tournament adjudicates a draw in a game from a file,
unless told otherwise (--max-plies): a game of someone's own might never end."""
MAX_BYTES = 4_000_000
"""The most the source files of a game may hold together."""
MAX_FILES = 200
"""The most source files a game may bring along."""
LOAD_SECONDS = 10.0
"""The most seconds a game file may take to run as it loads, here and in every jail
that loads it: one that takes longer (a loop at import) is refused after them."""
ABSTRACT = {Game: ('actions', 'result', 'utility'),
            StochasticGame: ('chances', 'outcome', 'probability')}
"""The methods a game of each kind must write: these classes' own only raise
NotImplementedError."""


@dataclass(frozen=True)
class GameSource:
    """The Python source of a game file and of the modules it imports from its folder."""

    path: str
    """The file as specs name it, normalized ('course/konane.py')."""
    files: tuple[tuple[str, str], ...]
    """(path in the folder, source) of the file and its folder's modules, the file first."""

    @property
    def digest(self) -> str:
        """A SHA-256 of every file's name and source: it changes when any of them does."""
        hashed = hashlib.sha256()
        for name, text in self.files:
            hashed.update(f'{len(name)}:{name}{len(text)}:'.encode() + text.encode())
        return hashed.hexdigest()


Stamps = tuple[tuple[str, tuple[int, int] | None], ...]
"""Each file of a source: where it is, and its size and when it last changed (None if
it cannot be found)."""

_sources: dict[str, tuple[Stamps | None, GameSource]] = {}
"""The sources this process has read or been handed, by path, each with the
stamps of the files it was read from (None: handed over, not read)."""
_found: dict[tuple[str, str], type[Game] | Game] = {}
"""The Game classes (or games) found in them, by (digest, name)."""
_too_slow: dict[str, float] = {}
"""The seconds after which each source that did not load in time was given up, by
digest: it is refused again at once, with no second thread left looping."""


def is_file_spec(spec: str) -> bool:
    """Whether spec names a game in a file ('PATH.py:Class(...)')."""
    return bool(FILE_SPEC.match(spec))


def split(spec: str) -> tuple[str, str, dict[str, Any]]:
    """Return the normalized path, the class name and the keyword literals of a file
    spec. Raises ValueError naming what is wrong."""
    match = FILE_SPEC.match(spec)
    if not match:
        raise ValueError(f'{spec!r} does not name a game file: expected '
                         'PATH.py:Class(key=value, ...)')
    try:
        name, keywords = parse_call(match['call'], 'game')
    except ValueError as error:
        raise ValueError(f'in {spec!r}: {error}') from None
    return os.path.normpath(match['path'].strip()), name, keywords or {}


def normal_spec(spec: str) -> str:
    """Return the spec as one spelling of it: two specs of the same file, class and
    arguments have one normal spec."""
    path, name, keywords = split(spec)
    args = ', '.join(f'{key}={value!r}' for key, value in sorted(keywords.items()))
    return f'{path}:{name}({args})' if args else f'{path}:{name}'


def make(spec: str) -> Game:
    """Make the game of a file spec: the class it names, made with its arguments, or
    the game it names (an instance of a Game class, which takes none). Raises
    ValueError, in one line, for a file that is missing or cannot load in time, a
    name that is no Game, a method the game must write and does not, an argument
    its constructor does not take, or a game that cannot start (no legal move, or
    actions that raise at the initial state)."""
    path, name, keywords = split(spec)
    where = f'{path}:{name}'
    found = game_object(source_of(path), name)
    check_methods(found if isinstance(found, type) else type(found), where)
    if isinstance(found, Game) and keywords:
        raise ValueError(f'{where} is a game, an instance of {type(found).__name__}, not a '
                         f'class: an instance takes no arguments; name it alone, {where}')
    game = found if isinstance(found, Game) else _made(found, keywords, where)
    _check_start(game, where)
    game._made_from = normal_spec(spec)  # what it prints as: the spec that makes it again
    return game


def _made(cls: type[Game], keywords: dict[str, Any], where: str) -> Game:
    """Return cls made with keywords, checked against its constructor's parameters."""
    kwargs = bind(cls, keywords, where)
    try:
        return cls(**kwargs)
    except Exception as error:
        raise ValueError(f'{where} cannot be made: {_described(error)}') from None


def check_methods(cls: type[Game], where: str) -> None:
    """Raise ValueError if the Game class cls leaves a method it must write to its
    base class (see ABSTRACT), naming each; where is what the error calls it."""
    missing = [(base, method) for base, methods in ABSTRACT.items() if issubclass(cls, base)
               for method in methods if getattr(cls, method, None) is vars(base)[method]]
    if missing:
        names = ' or '.join(method for _, method in missing)
        abstract = ' and '.join(f'{base.__name__}.{method}' for base, method in missing)
        verb, them = ('is', 'one') if len(missing) == 1 else ('are', 'them')
        raise ValueError(f'{where} has no {names} of its own: {abstract} {verb} abstract, '
                         f'write {them}')


def _check_start(game: Game, where: str) -> None:
    """Raise ValueError if game cannot start: no initial state, actions that raise
    there, no legal move, or players it cannot tell (see referee.seats_of)."""
    if not hasattr(game, 'initial'):
        raise ValueError(f'{where}: the game has no initial state (set self.initial in __init__)')
    try:
        moves = list(game.actions(game.initial))
    except Exception as error:
        raise ValueError(f'{where}: actions of the initial state raise '
                         f'{_described(error)}') from None
    if not moves:
        raise ValueError(f'{where}: the initial state has no legal move')
    try:
        referee.seats_of(game)
    except Exception as error:
        raise ValueError(f'{where}: cannot tell its players (to_move, or a first move, '
                         f'raises {_described(error)})') from None


def source_of(path: str) -> GameSource:
    """Return the source of the game file at path: as handed to this process, or
    else read from the file and its folder (again only once one of them changes)."""
    path = os.path.normpath(path)
    stamps, source = _sources.get(path, (None, None))
    if source is None or stamps is not None and stamps != _stamps(source):
        source = read(path)
        _sources[path] = (_stamps(source), source)
    return source


def _stamps(source: GameSource) -> Stamps:
    """Return where each file of a source is, its size and when it last changed."""
    folder = os.path.dirname(source.path)
    stamps = []
    for name, _ in source.files:
        path = os.path.abspath(os.path.join(folder, name))
        try:
            status = os.stat(path)
        except OSError:
            status = None
        stamps.append((path, status and (status.st_size, status.st_mtime_ns)))
    return tuple(stamps)


def read(path: str) -> GameSource:
    """Read a game file and the modules it imports from its folder (modules and
    packages of the folder found by following the import statements, but
    never a games.py). A link leading out of the folder is refused, as in a
    submission folder. Raises ValueError naming what is wrong."""
    if not os.path.isfile(path):
        raise ValueError(f'no game file {path!r}')
    folder = os.path.dirname(path) or '.'
    found: dict[str, str] = {}
    waiting = [os.path.basename(path)]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found[name] = _read_text(folder, name)
        if len(found) > MAX_FILES or sum(map(len, found.values())) > MAX_BYTES:
            raise ValueError(f'{path!r} imports more than {MAX_FILES} files or '
                             f'{MAX_BYTES // 1_000_000} MB of its folder')
        waiting += _imported_files(folder, name, found[name])
    first = os.path.basename(path)
    files = [(first, found.pop(first)), *sorted(found.items())]
    return GameSource(os.path.normpath(path), tuple(files))


def _read_text(folder: str, name: str) -> str:
    """Return the source of a file of the folder; refuse a link that leads out of it."""
    path = os.path.join(folder, name)
    real, top = os.path.realpath(path), os.path.realpath(folder)
    if os.path.commonpath([real, top]) != top:
        raise ValueError(f'{path} is a link that leads out of its folder (to {real})')
    try:
        with open(real, encoding='utf-8') as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f'cannot read game file {path!r}: {error}') from None


def _imported_files(folder: str, name: str, text: str) -> list[str]:
    """Return the files of folder that the module name (its source text) imports:
    NAME.py, or each .py file of a package NAME/."""
    try:
        tree = ast.parse(text, name)
    except SyntaxError:
        return []  # its error is reported when it runs
    package = os.path.dirname(name)
    tops = imported_modules(tree)
    if package and any(isinstance(node, ast.ImportFrom) and node.level == 1
                       for node in ast.walk(tree)):
        tops.add(package.split(os.sep)[0])
    files = []
    for top in sorted(tops - {RULES}):
        if os.path.isfile(os.path.join(folder, top + '.py')):
            files.append(top + '.py')
        elif os.path.isfile(os.path.join(folder, top, '__init__.py')):
            files += [os.path.relpath(os.path.join(here, file), folder)
                      for here, _, names in os.walk(os.path.join(folder, top))
                      for file in sorted(names) if file.endswith('.py')]
    return files


def message(spec: str) -> dict[str, Any] | None:
    """Return what a jail needs to make the game of spec, as plain data: None for a
    game that is not from a file."""
    if not is_file_spec(spec):
        return None
    source = source_of(split(spec)[0])
    return {'path': source.path, 'files': [list(file) for file in source.files]}


def provide(plain: dict[str, Any] | None) -> None:
    """Take a game's source as message gave it: the game of its path is made from it."""
    if plain:
        files = tuple((name, text) for name, text in plain['files'])
        _sources[plain['path']] = (None, GameSource(plain['path'], files))


def game_object(source: GameSource, name: str) -> type[Game] | Game:
    """Return the Game class, or the game, called name in a game file's source,
    running the file (once a source) as a module named after it. Raises ValueError
    naming the file's error, or a name that is missing or no Game."""
    if (source.digest, name) not in _found:
        module = _load(source)
        found = getattr(module, name, None)
        if found is None:
            raise ValueError(f'{source.path} has no class {name!r}')
        if not (isinstance(found, Game) or isinstance(found, type) and issubclass(found, Game)):
            raise ValueError(f'{source.path}:{name} is not a Game (its class must be made '
                             'from games.Game, as `from games import *` gives it)')
        _found[(source.digest, name)] = found
    return _found[(source.digest, name)]


def _load(source: GameSource) -> ModuleType:
    """Run the file of a source as a module, its folder's modules found in the
    source, within LOAD_SECONDS (see sources.within)."""
    if source.digest in _too_slow:
        raise ValueError(_slow(source, _too_slow[source.digest]))
    entry, text = source.files[0]
    stem = os.path.splitext(entry)[0]
    name = stem if stem.isidentifier() and stem not in sys.modules else f'game_file_{stem}'
    seconds = LOAD_SECONDS
    try:
        with sources.no_input(), _installed(_FolderFinder(source)):
            return sources.within(seconds, lambda: sources.run_source(text, source.path, name))
    except KeyboardInterrupt:
        raise
    except sources.TooLong:
        _too_slow[source.digest] = seconds
        raise ValueError(_slow(source, seconds)) from None
    except sources.InputAsked:
        raise ValueError(f'{source.path} asks for input when imported: guard its script with '
                         "if __name__ == '__main__':") from None
    except BaseException as error:  # whatever the file does as it loads
        raise ValueError(f'{source.path} cannot load: {_described(error)}') from None


def _slow(source: GameSource, seconds: float) -> str:
    """Say that a source did not load within seconds."""
    return (f'{source.path} did not finish loading within {seconds:g} s: does it loop as it '
            "is imported? (its script belongs under if __name__ == '__main__':)")


@contextlib.contextmanager
def _installed(finder: '_FolderFinder') -> Iterator[None]:
    """Within this, finder comes first among the importers (as a script's folder
    comes first on its path); after, it comes last, and the folder's modules it
    loaded leave sys.modules (a player's own module of the same name is its own)."""
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)
        sys.meta_path.append(finder)
        for name in finder.loaded:
            sys.modules.pop(name, None)


if TYPE_CHECKING:  # importlib.abc's classes, for mypy only: their module is not imported
    from importlib.abc import Loader, MetaPathFinder

    class _Importer(MetaPathFinder, Loader):
        """A finder of sys.meta_path that is the loader of what it finds."""
else:
    _Importer = object


class _FolderFinder(_Importer):
    """Find the modules of a game's folder in its source, not on disk: a finder of
    sys.meta_path and the loader of what it finds (importlib.abc's protocols, whose
    module is not imported for them: mypy is told it is a MetaPathFinder and Loader)."""

    def __init__(self, source: GameSource) -> None:
        self.folder = os.path.dirname(source.path)
        self.files = dict(source.files[1:])
        self.loaded: list[str] = []

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """Return the spec of a module of the folder, or None."""
        base = fullname.replace('.', os.sep)
        for file, package in ((base + '.py', False), (os.path.join(base, '__init__.py'), True)):
            if file in self.files:
                spec = ModuleSpec(fullname, self, origin=os.path.join(self.folder, file),
                                  loader_state=file, is_package=package)
                spec.has_location = True
                return spec
        return None

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        """Let the import system make the module as it makes any."""
        return None

    def exec_module(self, module: ModuleType) -> None:
        """Run a folder module's source."""
        self.loaded.append(module.__name__)
        spec = cast(ModuleSpec, module.__spec__)  # find_spec's: it has a file and an origin
        source = self.files[spec.loader_state]
        exec(sources.compiled(source, cast(str, spec.origin)), module.__dict__)


def places(error: BaseException) -> list[tuple[str, int]]:
    """Return (file, line) of each frame of a game file's code (or of its folder's
    modules) that error passed through, outermost first."""
    names = {os.path.join(os.path.dirname(source.path), name): name
             for _, source in _sources.values() for name, _ in source.files}
    return [(names[frame.f_code.co_filename], line)
            for frame, line in traceback.walk_tb(error.__traceback__)
            if frame.f_code.co_filename in names]


def _described(error: BaseException) -> str:
    """Return 'Type: message (file, line N)', naming the last line of a game file
    (or of its folder's modules) that error passed through."""
    found = places(error)
    return referee.describe(error) + (f' ({found[-1][0]}, line {found[-1][1]})' if found else '')
