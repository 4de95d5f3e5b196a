"""Loading a student's file: reading it, loading it in its jail, and the report of
a file that cannot be read."""

from __future__ import annotations

import os

from .checks import Check
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


def unloadable(path: str, settings: Settings, checks: list[Check], reason: str) -> Report:
    """The report of a file that cannot be read: every check failed, saying why."""
    report = Report(path, [], settings.describe(), load_error=reason,
                    missing=list(settings.functions))
    report.results = [Result(check.name, check.function, False, 0, check.points,
                             f'cannot load {os.path.basename(path)}: {reason}', check.visibility)
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
    if not isinstance(answer, dict) or 'error' in answer:
        report.load_error = str(answer.get('error') if isinstance(answer, dict) else answer)
        return []
    return [name for name in answer.get('defined', []) if name in FUNCTIONS]
