"""A student's file in a jail: loaded once, asked for each check, and started
again after a timeout or a crash. Only JSON comes back, read as data."""

from __future__ import annotations

import time

from games.jail import Jail, JailError, Limits

from .cases import Case
from .jailed import inmate  # noqa: F401 (a process-level jail, forked from here, may be
                            # unable to read the project's files to import its entry)

ENTRY = 'players.grading.jailed.inmate:serve'
PACKAGES = ('games', 'variants', 'players.grading.jailed')
"""What a student's jail may import from this project: not the reference searches."""
REFERENCE_PACKAGES = ('games', 'variants', 'players')
"""What it may import when the instructor allows the reference implementations."""


class StudentFault(Exception):
    """A check the student's code failed to answer: reason is 'timeout', 'died' or 'garbled'."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class Session:
    """One student's file, loaded in a jail that serves all of its checks."""

    def __init__(self, source: str, filename: str, functions: tuple, level: str,
                 limits: Limits, allow_reference: bool, load_seconds: float):
        self.source, self.filename, self.functions = source, filename, functions
        self.level, self.limits, self.allow_reference = level, limits, allow_reference
        self.load_seconds = load_seconds
        self.jail: Jail | None = None
        self.reference: str | None = None
        """The first use of a reference implementation the jail refused, if any."""
        self.loads = 0

    def load(self) -> dict:
        """Start the jail and load the file; return the jail's answer ({'defined': [...]}
        or {'error': ...}); raise StudentFault if it hangs or dies while loading."""
        self.close()
        self.loads += 1
        packages = REFERENCE_PACKAGES if self.allow_reference else PACKAGES
        self.jail = Jail(ENTRY, self.level, self.limits, packages)
        self.jail.send({'source': self.source, 'filename': self.filename,
                        'functions': list(self.functions),
                        'allow_reference': self.allow_reference})
        return self._receive(time.monotonic() + self.load_seconds, 'load')

    def ready_jail(self) -> Jail:
        """Return a live jail with the file loaded, starting one if the last one ended."""
        if self.jail is None or self.jail.status is not None:
            answer = self.load()
            if 'error' in answer:  # it loaded before, so this is the file's own luck
                raise StudentFault(f'cannot load again: {answer["error"]}', 'died')
        return self.jail

    def search(self, case: Case, limit: int, timeout: float) -> dict:
        """Run the student's search on a case; return the answer with the states
        gathered under 'keys'. Raise StudentFault for a timeout, a crash or garbage."""
        jail = self.ready_jail()
        deadline = time.monotonic() + timeout
        jail.send({'search': case.function, 'position': case.spec, 'limit': limit})
        keys: list = []
        while True:
            answer = self._receive(deadline, 'search')
            if not isinstance(answer, dict):
                self.close()
                raise StudentFault('the jail sent something that is not an answer', 'garbled')
            if answer.get('done'):
                return {**answer, 'keys': keys}
            chunk = answer.get('states')
            if not isinstance(chunk, list) or len(keys) + len(chunk) > limit:
                self.close()
                raise StudentFault('the jail sent more states than it may', 'garbled')
            keys += [key for key in chunk if isinstance(key, str)]

    def note(self, answer) -> None:
        """Keep the first refused use of a reference implementation an answer reports."""
        if isinstance(answer, dict) and isinstance(answer.get('reference'), str):
            self.reference = self.reference or answer['reference'][:300]

    def _receive(self, deadline: float, what: str):
        """Receive one answer before the deadline; raise StudentFault if none comes."""
        try:
            answer = self.jail.receive(max(0.0, deadline - time.monotonic()))
        except JailError as error:
            self.close()
            raise StudentFault(str(error), error.reason) from None
        self.note(answer)
        return answer

    def close(self) -> None:
        """Kill the jail, if any."""
        if self.jail is not None:
            self.jail.close()
            self.jail = None
