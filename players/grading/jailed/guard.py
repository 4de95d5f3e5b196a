"""Keeping the project's reference implementations out of a student's reach in a jail.

They are not in the jail's memory: its jail server imported only games,
variants, this subpackage and the jail's side of players.remote. In a bubblewrap
jail, or a process-level jail started by root (shut in an empty folder), they
are not on its disk either. A process-level jail of an ordinary user could
still read them from disk, so guard() also refuses, from then on, any import of
the project's players package (or of tournament), any opening of its files and
any call of the searches that `games` lends from it (`from games import *`), and
records each as a violation, which fails the submission (a best effort only
where the files are readable)."""

from __future__ import annotations

import math
import os
import sys
from typing import Any

import games
from players.remote import serving

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(games.__file__)))
"""The project's folder."""


def _scripts() -> list[str]:
    """The project's top-level scripts (its command line), if its folder can be read."""
    try:
        return sorted(name for name in os.listdir(ROOT) if name.endswith('.py'))
    except OSError:
        return []


BLOCKED = ('players', *(name[:-3] for name in _scripts()), '__main__')
"""The modules (and their submodules) a student's code may not use: the players
package, the command line and whatever runs as the main program."""
PROTECTED = (os.path.join(ROOT, 'players') + os.sep,
             *(os.path.join(ROOT, name) for name in _scripts()))
"""The files a student's code may not read: the reference searches and the grader."""
READABLE = (os.path.dirname(os.path.abspath(__file__)) + os.sep,
            os.path.dirname(os.path.abspath(serving.__file__)) + os.sep)
"""This subpackage and the machinery's, which run in the jail and may be read
(for tracebacks)."""
INTROSPECTION = ('gc.get_objects', 'gc.get_referrers', 'gc.get_referents',
                 'sys._current_frames')
"""Audit events of ways to find objects a student's code was not given."""

violations: list[str] = []
"""What the student's code tried, in order (only the first is reported)."""


class ReferenceUsed(BaseException):
    """Raised in a student's code that reaches for a reference implementation: a
    BaseException, so that `except Exception` in the student's code lets it pass."""


def blocked(name: str) -> bool:
    """Is name a module the student's code may not import?"""
    return any(name == top or name.startswith(top + '.') for top in BLOCKED)


def refuse(what: str) -> None:
    """Record a violation and raise ReferenceUsed."""
    violations.append(what)
    raise ReferenceUsed(f"{what}: the grader does not allow the project's reference "
                        'implementations')


class _Finder:
    """A meta path finder that refuses the blocked modules."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        if blocked(name):
            refuse(f'imports {name}')
        return None


def _audit(event: str, args: tuple) -> None:
    """Refuse the import of blocked modules, the opening of protected files and
    looking for objects through the garbage collector."""
    if event == 'import' and blocked(args[0]):
        refuse(f'imports {args[0]}')
    elif event == 'open' and isinstance(args[0], (str, bytes)):
        path = os.path.abspath(os.fsdecode(args[0]))
        if (not path.startswith(READABLE)
                and any(path == place or path.startswith(place) for place in PROTECTED)):
            refuse(f'reads {os.path.relpath(path, ROOT)}')
    elif event in INTROSPECTION:
        raise PermissionError(f'{event} is not allowed in the grader')


def _stand_in(name: str):
    """A stand-in for one of the searches games lends from the players package."""
    def stand_in(*args, **kwargs):
        refuse(f"calls games.{name}, the textbook's own")
    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__module__ = 'games'
    stand_in.stand_in = True  # type: ignore[attr-defined]  # the mark inmate looks for
    return stand_in


def guard() -> None:
    """Take the reference implementations out of this process and refuse them from
    now on (see the module's docstring). Call it after importing all else it needs."""
    sys.modules['__main__'] = type(sys)('__main__')
    for name in [name for name in sys.modules if blocked(name)]:
        del sys.modules[name]
    for module in list(sys.modules.values()):
        _scrub(module)
    for name in games.LENT:
        setattr(games, name, math.inf if name == 'infinity' else _stand_in(name))
    sys.meta_path.insert(0, _Finder())
    sys.addaudithook(_audit)


def _scrub(module: Any) -> None:
    """Remove from a module the names bound to blocked modules or their objects."""
    space = getattr(module, '__dict__', None)
    if not isinstance(space, dict):
        return
    for name, value in list(space.items()):
        try:
            home = value.__name__ if isinstance(value, type(sys)) else value.__module__
        except Exception:  # no __module__, or one that cannot be read
            continue
        if isinstance(home, str) and blocked(home):
            del space[name]
