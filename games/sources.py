"""Running someone else's Python source: as a module of its own, and finding the
lines of that source an error passed through. The jails use it for players' and
students' files, and the registry for a player file named by its path."""

from __future__ import annotations

import builtins
import contextlib
import io
import os
import sys
import threading
import traceback
from types import CodeType, ModuleType
from typing import Any, Callable, Iterator, NoReturn, TypeVar

T = TypeVar('T')


class TooLong(Exception):
    """Code that did not finish within its time (see within)."""


class InputAsked(BaseException):
    """Code asked for input where none may be asked (see no_input): a BaseException,
    which the code's own `except Exception` does not catch."""


def run_source(source: str | CodeType, filename: str, name: str) -> ModuleType:
    """Run source (or its code, compiled from filename) as a new module called
    name, whose code says it comes from filename, and return the module. The
    module is in sys.modules while it runs (so that its classes can be pickled
    and its dataclasses made) and stays there; whatever the source raises is
    raised, and the module taken out again."""
    module = ModuleType(name)
    module.__file__ = filename
    sys.modules[name] = module
    try:
        exec(source if isinstance(source, CodeType) else compiled(source, filename),
             module.__dict__)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def compiled(source: str, filename: str) -> CodeType:
    """Compile source from filename as Python compiles a file of its own: none of
    this project's __future__ imports carry over to it."""
    return compile(source, filename, 'exec', dont_inherit=True)


@contextlib.contextmanager
def no_input() -> Iterator[None]:
    """Within this, asking for input raises InputAsked, and what is printed is
    dropped: a file's script belongs under `if __name__ == '__main__':`."""
    def refuse(*_: object) -> NoReturn:
        raise InputAsked

    saved = builtins.input, sys.stdin, sys.stdout
    builtins.input, sys.stdin, sys.stdout = refuse, io.StringIO(), io.StringIO()
    try:
        yield
    finally:
        builtins.input, sys.stdin, sys.stdout = saved


def within(seconds: float, function: Callable[[], T]) -> T:
    """Return function(), run in a thread of its own, or raise TooLong if it has not
    returned after seconds; what it raises is raised here. A thread is the one way
    that works in every process, on every thread (a Dask worker runs its tasks on
    threads, where no alarm signal can be set), with no second interpreter: a loop
    of Python code gives up the interpreter every few milliseconds, and the wait
    ends on time. A function that does not return is left running, on a daemon
    thread, which does not keep the process alive: its caller is to stop soon."""
    outcome: dict[str, Any] = {}  # 'value', function's T, or 'error'

    def run() -> None:
        try:
            outcome['value'] = function()
        except BaseException as error:  # raised again in the caller's thread
            outcome['error'] = error

    thread = threading.Thread(target=run, name='within', daemon=True)
    thread.start()
    thread.join(seconds)
    if thread.is_alive():
        raise TooLong(f'did not finish within {seconds:g} s')
    if 'error' in outcome:
        raise outcome['error']
    value: T = outcome['value']
    return value


def places(error: BaseException, filename: str) -> list[tuple[str, int]]:
    """Return (function, line) of each frame of filename that error passed
    through, outermost first ('<module>' for the file's own top level)."""
    if not filename:
        return []
    return [(frame.f_code.co_name, line) for frame, line in traceback.walk_tb(error.__traceback__)
            if frame.f_code.co_filename == filename]


def places_in(error: BaseException, folder: str) -> list[tuple[str, int]]:
    """Return (file, line) of each frame of a file inside folder that error passed
    through, outermost first, each file named relative to folder."""
    inside = os.path.join(folder, '')
    return [(os.path.relpath(frame.f_code.co_filename, folder), line)
            for frame, line in traceback.walk_tb(error.__traceback__)
            if frame.f_code.co_filename.startswith(inside)]
