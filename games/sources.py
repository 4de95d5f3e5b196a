"""Running someone else's Python source: as a module of its own, and finding the
lines of that source an error passed through. The jails use it for players' and
students' files, and the registry for a player file named by its path."""

from __future__ import annotations

import os
import sys
import traceback
from types import CodeType, ModuleType


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
