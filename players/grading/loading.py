"""Loading a student's file or submission folder: reading it, loading it in its
jail, and the report of a submission that cannot be read."""

from __future__ import annotations

import ast
import os

from players.player_spec import Kind, PlayerSpec
from players.remote.player_code import (FolderLimits, PlayerCode, beside, folder_files,
                                        read_folder, read_source)
from players.sandbox.allowed import imported_modules

from .checks import Check
from .jailed.messages import LoadFailed
from .report import Report, Result
from .session import Session, StudentFault
from .settings import FUNCTIONS, Settings


class LoadError(ValueError):
    """The student's file is missing or cannot be read."""


def handed_in(path: str) -> tuple[str, str]:
    """Return the file or folder a student handed in that path names, and the entry of
    the folder it names ('' for none): a path that exists is itself, whatever its
    name holds ('subs/alice:player.py'); else 'carol:mine.py' names the folder carol
    and its entry mine.py, and 'carol:' the folder alone."""
    if os.path.exists(path) or ':' not in path:
        return path, ''
    folder, _, entry = path.rpartition(':')
    return folder, entry


def read_student(path: str, settings: Settings) -> PlayerCode:
    """Return the code of a student's file (within the limits of a folder), or of the
    submission folder path names (see handed_in and read_submission), with the
    course's support files beside it (see player_code.beside); raise LoadError if
    it cannot be read."""
    if not os.path.isfile(path):
        folder, entry = handed_in(path)
        return beside(read_submission(folder, settings.folder_limits, entry), settings.support)
    try:
        source = read_source(path, settings.folder_limits)
    except ValueError as error:
        raise LoadError(str(error)) from None
    return beside(PlayerCode(path, source, os.path.basename(path)), settings.support)


def read_submission(folder: str, limits: FolderLimits = FolderLimits(),
                    entry: str = '') -> PlayerCode:
    """Return a student's submission folder (its files, within limits) with its entry:
    the file entry names; else, of the Python files at its top that none of the
    others imports (each read, never run, if it is not too big: see PARSED_BYTES),
    the only one, or the one that defines the most of the template's functions, or
    player.py. Raise LoadError if there is no telling, or the folder cannot come
    along as it is."""
    try:
        if not entry:
            entry = _entry(folder, dict(folder_files(folder, limits)))
        spec = f'{folder.rstrip(os.sep) or os.sep}:{entry}'
        return read_folder(PlayerSpec(spec, Kind.FOLDER, location=folder, entry=entry), limits)
    except ValueError as error:
        raise LoadError(str(error)) from None


PARSED_BYTES = 100_000
"""The most a Python file of a submission folder may hold to be parsed while its
entry is looked for: some 2,500 lines, more than a student writes by hand. Parsing
takes up to 900 bytes of memory a byte of source, so a bigger file (data such as
weights in a list, or one made to fill the grader's memory) is taken as data:
left unread, as if it imported and defined nothing."""
PARSED_TOTAL = 1_000_000
"""The most the files parsed while a folder's entry is looked for may hold together,
in the order of their names (parsing 100 KB takes up to half a second)."""


def _entry(folder: str, files: dict[str, bytes]) -> str:
    """Return the file of a submission folder (its files, by path) whose functions
    are graded (see read_submission); raise LoadError if there is no telling."""
    tops = sorted(name for name in files if name.endswith('.py') and os.sep not in name)
    outlines, room = {}, PARSED_TOTAL
    for name in tops:
        if len(files[name]) <= min(PARSED_BYTES, room):
            room -= len(files[name])
            outlines[name] = _outline(files[name])
    imported = {module for modules, _ in outlines.values() for module in modules}
    mains = [name for name in tops if name[:-3] not in imported] or tops
    defined = {name: outlines[name][1] if name in outlines else 0 for name in mains}
    most = max(defined.values(), default=0)
    chosen = [name for name in mains if defined[name] == most]
    if len(mains) == 1 or most and len(chosen) == 1:
        return chosen[0]
    if 'player.py' in tops:
        return 'player.py'
    unread = [name for name in tops if name not in outlines]
    raise LoadError(f'{folder}: give one Python file with the functions of '
                    'players/grading/template.py (helper modules beside it), or name it '
                    'player.py; found '
                    f'{", ".join(tops) or "none"} at the top of the folder'
                    + (f' ({", ".join(unread)} not read for imports and functions: over '
                       f'{PARSED_BYTES // 1000} KB, or past {PARSED_TOTAL // 1_000_000} MB of '
                       f'Python files; name the entry: {folder}:FILE.py)' if unread else ''))


def _outline(content: bytes) -> tuple[set[str], int]:
    """Return the modules a file's content imports and how many of the template's
    functions it defines at its top (none for a file that cannot be parsed, however
    it fails: too deep, not Python)."""
    try:
        tree = ast.parse(content.decode('utf-8'))
    except Exception:  # a student's file: SyntaxError, RecursionError, MemoryError...
        return set(), 0
    return imported_modules(tree), sum(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                                       and node.name in FUNCTIONS for node in tree.body)


def unloadable(path: str, settings: Settings, checks: list[Check], reason: str) -> Report:
    """The report of a file that cannot be read: every check failed, saying why."""
    report = Report(path, [], settings.describe(), load_error=reason,
                    missing=list(settings.functions))
    shown = os.path.basename(os.path.normpath(handed_in(path)[0]))
    report.results = [Result(check.name, check.function, False, 0, check.points,
                             f'cannot load {shown}: {reason}', check.visibility)
                      for check in checks]
    return report


def load(session: Session, report: Report) -> list[str]:
    """Load the file in its jail; return the functions it defines (none if it cannot
    be loaded, saying why in the report)."""
    try:
        answer = session.load()
    except StudentFault as error:
        report.load_error = (f'did not load within {session.load_seconds:g} s (an infinite loop '
                             'at import?)' if error.reason == 'timeout' else str(error))
        return []
    if isinstance(answer, LoadFailed):
        report.load_error = answer.error
        return []
    return [name for name in answer.defined if name in FUNCTIONS]
