"""Loading a student's file or submission folder: reading it, loading it in its
jail, and the report of a submission that cannot be read."""

from __future__ import annotations

import ast
import os

from players.remote.player_code import (FolderLimits, PlayerCode, beside, folder_files,
                                        read_folder)
from players.sandbox.allowed import imported_modules

from .checks import Check
from .jailed.messages import LoadFailed
from .report import Report, Result
from .session import Session, StudentFault
from .settings import FUNCTIONS, Settings


class LoadError(ValueError):
    """The student's file is missing or cannot be read."""


def read_source(path: str) -> str:
    """The text of a student's file; raise LoadError if it is missing or unreadable."""
    if not os.path.isfile(path):
        raise LoadError(f'no such file {path!r}')
    try:
        with open(path, encoding='utf-8') as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise LoadError(f'cannot read {path!r}: {error}') from None


def read_student(path: str, settings: Settings) -> PlayerCode:
    """Return the code of a student's file, or of the submission folder path names
    ('carol' or 'carol:mine.py', see read_submission), with the course's support
    files beside it (see player_code.beside); raise LoadError if it cannot be read."""
    if os.path.isfile(path):
        code = PlayerCode(path, read_source(path), os.path.basename(path))
    else:
        folder, _, entry = path.rpartition(':') if ':' in path else (path, '', '')
        code = read_submission(folder, settings.folder_limits, entry)
    return beside(code, settings.support)


def read_submission(folder: str, limits: FolderLimits = FolderLimits(),
                    entry: str = '') -> PlayerCode:
    """Return a student's submission folder (its files, within limits) with its entry:
    the file entry names; else, of the Python files at its top that none of the
    others imports (each read, never run), the only one, or the one that defines
    the most of the template's functions, or player.py. Raise LoadError if there is
    no telling, or the folder cannot come along as it is."""
    try:
        if not entry:
            entry = _entry(folder, dict(folder_files(folder, limits)))
        return read_folder(f'{folder.rstrip(os.sep) or os.sep}:{entry}', limits)
    except ValueError as error:
        raise LoadError(str(error)) from None


def _entry(folder: str, files: dict[str, bytes]) -> str:
    """Return the file of a submission folder (its files, by path) whose functions
    are graded (see read_submission); raise LoadError if there is no telling."""
    tops = sorted(name for name in files if name.endswith('.py') and os.sep not in name)
    trees = {name: _parsed(files[name]) for name in tops}
    imported = {module for tree in trees.values() for module in imported_modules(tree)}
    mains = [name for name in tops if name[:-3] not in imported] or tops
    defined = {name: sum(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and node.name in FUNCTIONS for node in trees[name].body)
               for name in mains}
    most = max(defined.values(), default=0)
    chosen = [name for name in mains if defined[name] == most]
    if len(mains) == 1 or most and len(chosen) == 1:
        return chosen[0]
    if 'player.py' in tops:
        return 'player.py'
    raise LoadError(f'{folder}: give one Python file with the functions of players/grading/template.py '
                    '(helper modules beside it), or name it player.py; found '
                    f'{", ".join(tops) or "none"} at the top of the folder')


def _parsed(content: bytes) -> ast.Module:
    """The syntax tree of a file's content (an empty one for a file that cannot be
    parsed, however it fails: too deep, too big, not Python)."""
    try:
        return ast.parse(content.decode('utf-8'))
    except Exception:  # a student's file: SyntaxError, RecursionError, MemoryError...
        return ast.Module(body=[], type_ignores=[])


def unloadable(path: str, settings: Settings, checks: list[Check], reason: str) -> Report:
    """The report of a file that cannot be read: every check failed, saying why."""
    report = Report(path, [], settings.describe(), load_error=reason,
                    missing=list(settings.functions))
    shown = os.path.basename(os.path.normpath(path.partition(':')[0]) if ':' in path else path)
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
