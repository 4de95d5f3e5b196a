"""A student's file in a jail: loaded once, asked for each check, and started
again after a timeout or a crash. Only JSON comes back, read as hostile data into
jailed.messages' records, field by field; a jail that fails to answer as it
should, whatever it does, raises StudentFault, its reason said."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any, Iterator, TypeVar

from games import game_files
from players.sandbox import folder_image
from players.sandbox.allowed import allowed_packages, with_modules
from players.sandbox.jail import Jail, JailDied, JailError, JailGarbled, Limits
from players.sandbox.servers import ServerLost, server
from players.remote.plain_json import to_plain
from players.remote.protocol import ProtocolError

from .cases import Case
from .jailed.messages import (REFERENCE_LIMIT, Answer, Calls, Load, LoadFailed, Loaded,
                              PerftDone, PerftRequest, PositionAnswers, PositionsRequest,
                              RulesDone, SearchDone, SearchRequest, read_answer)
from .jailed.plain import state_key, text

ENTRY = 'players.grading.jailed.inmate:serve'
Done = TypeVar('Done', SearchDone, PerftDone, RulesDone)
PACKAGES = ('games', 'variants', 'players.remote', 'players.grading.jailed')
"""What a student's jail may import from this project: not the reference searches."""
REFERENCE_PACKAGES = ('games', 'variants', 'players', 'players.grading.jailed')
"""What it may import when the instructor allows the reference implementations."""


def packages(allow_reference: bool) -> tuple[str, ...]:
    """The packages of this project a student's jail may import."""
    return REFERENCE_PACKAGES if allow_reference else PACKAGES


def start_server(level: str, allow_reference: bool, allow: tuple[str, ...] = (),
                 game_imports: tuple[str, ...] = ()) -> None:
    """Start the jail server that students' jails at level come from (which may
    import the installed packages of allow, and the modules the games' own code
    imports), if it is not running, without waiting for it: it imports its packages
    while this process goes on (making the checks, say)."""
    server(level, packages(allow_reference), with_modules(allowed_packages(allow), game_imports))


class StudentFault(Exception):
    """A check the student's code failed to answer: reason is 'timeout', 'died' or 'garbled'."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


@contextlib.contextmanager
def faults(session: Session | None = None) -> Iterator[None]:
    """Turn a failure of a student's jail within the block into a StudentFault with its
    reason, closing the session's jail: a JailError, or its server lost (which, while
    the student's code runs, is that code's doing: its jail died with the server)."""
    try:
        yield
    except (JailError, ServerLost) as error:
        if session is not None:
            session.close()
        reason = error.reason if isinstance(error, JailError) else JailDied.reason
        raise StudentFault(str(error), reason) from None


def _garbled(session: Session, what: str) -> StudentFault:
    """Close the session's jail, which sent what it should not have; return the fault."""
    session.close()
    return StudentFault(f'the jail sent {what}', JailGarbled.reason)


@dataclass(frozen=True)
class Searched:
    """The jail's answer to a search check, followed here: its last answer, and the
    keys of the states its calls of result made in this process's own game (see
    follow), or, as forged, why those calls are not a game's."""

    done: SearchDone
    keys: tuple[str, ...] = ()
    forged: str | None = None


class Session:
    """One student's file, loaded in a jail that serves all of its checks."""

    def __init__(self, source: str, filename: str, functions: tuple, level: str,
                 limits: Limits, allow_reference: bool, load_seconds: float,
                 files: tuple = (), allow: tuple[str, ...] = (),
                 game_imports: tuple[str, ...] = ()):
        """A session for a student's source, from filename, or the entry of a
        submission folder's files; its jail may import the installed packages of allow
        and the modules the games' own code imports (one jail serves every game)."""
        self.source, self.filename, self.functions = source, filename, functions
        self.level, self.limits, self.allow_reference = level, limits, allow_reference
        self.load_seconds, self.files, self.allow = load_seconds, files, allow
        self.game_imports = game_imports
        self.jail: Jail | None = None
        self.reference: str | None = None
        """The first use of a reference implementation the jail refused, if any."""
        self.loads = 0
        self.kept: dict = {}
        """Answers that several checks share (a game class's, see game_checks), by
        what was asked."""

    def load(self) -> Loaded | LoadFailed:
        """Start the jail and load the file; return the jail's answer; raise
        StudentFault if it hangs, dies or answers anything else while loading."""
        return self._start()[1]

    def _start(self) -> tuple[Jail, Loaded | LoadFailed]:
        """Start the jail and load the file; return the jail and its answer (see load)."""
        self.close()
        self.loads += 1
        image = folder_image.image_fd(self.files) if self.files else None
        jail = self.jail = Jail(ENTRY, self.level, self.limits, packages(self.allow_reference),
                                image, with_modules(allowed_packages(self.allow),
                                                    self.game_imports))
        self._send(jail, Load(self.source, self.filename, bool(self.files),
                              tuple(self.functions), self.allow_reference))
        unloaded = 'something that is not the answer to loading the file: '
        answer = self._receive(jail, time.monotonic() + self.load_seconds, unloaded)
        if not isinstance(answer, (Loaded, LoadFailed)):
            raise _garbled(self, f'{unloaded}a {answer.KIND!r} message')
        return jail, answer

    def ready_jail(self) -> Jail:
        """Return a live jail with the file loaded, starting one if the last one ended."""
        jail = self.jail
        if jail is None or jail.status is not None:
            jail, answer = self._start()
            if isinstance(answer, LoadFailed):  # it loaded before: this is the file's own luck
                raise StudentFault(f'cannot load again: {answer.error}', 'died')
        return jail

    def search(self, case: Case, limit: int, timeout: float) -> Searched:
        """Run the student's search on a case; return its answer, followed here (see
        Searched). Raise StudentFault for a timeout, a crash or garbage."""
        source = game_files.message(case.spec['variant']) if 'variant' in case.spec else None
        calls, done = self.ask(SearchRequest(case.function, case.spec, limit, source), SearchDone,
                               limit, timeout)
        try:
            return Searched(done, tuple(follow(case, calls)))
        except ValueError as forged:
            return Searched(done, forged=str(forged))

    def ask(self, request: SearchRequest | PerftRequest | PositionsRequest, done: type[Done],
            limit: int, timeout: float) -> tuple[list, Done]:
        """Send a request whose answer comes in chunks (Calls of a search, PositionAnswers
        of a PositionsRequest) and then a last message of the kind done; return the
        chunks' items (at most limit of them) and the last message. Raise StudentFault
        for a timeout, a crash or garbage: an answer of another kind among them."""
        jail = self.ready_jail()
        deadline = time.monotonic() + timeout
        self._send(jail, request)
        items: list = []
        while True:
            answer = self._receive(jail, deadline)
            if isinstance(answer, done):
                return items, answer
            if isinstance(answer, Calls) and isinstance(request, SearchRequest):
                chunk: tuple = answer.calls
            elif isinstance(answer, PositionAnswers) and isinstance(request, PositionsRequest):
                chunk = answer.positions
            else:
                raise _garbled(self, f'a {answer.KIND!r} message in answer to a '
                                     f'{request.KIND!r} request')
            if len(items) + len(chunk) > limit:
                raise _garbled(self, 'more than it was asked for')
            items += chunk

    def note(self, reference: str | None) -> None:
        """Keep the first refused use of a reference implementation the jail reports."""
        self.reference = self.reference or (reference and reference[:REFERENCE_LIMIT])

    def _send(self, jail: Jail, request: Load | SearchRequest | PerftRequest | PositionsRequest
              ) -> None:
        """Send jail a request; raise StudentFault if it has gone."""
        with faults(self):
            jail.send(request.message())

    def _receive(self, jail: Jail, deadline: float, garbled: str = '') -> Answer:
        """Receive one answer from jail before the deadline, read as its record; raise
        StudentFault if none comes, or garbage: JSON of no kind of answer, or of the
        wrong shape, said after garbled."""
        with faults(self):
            message = jail.receive(max(0.0, deadline - time.monotonic()))
        try:
            answer = read_answer(message)
        except ProtocolError as error:
            raise _garbled(self, f'{garbled}{error}') from None
        self.note(answer.reference)
        return answer

    def close(self) -> None:
        """Kill the jail, if any."""
        if self.jail is not None:
            self.jail.close()
            self.jail = None


_FOLLOWED: dict = {}
"""For each case (by its spec), the states its game has made here, by key, and each
call already followed: (state key, move text) -> the key of the state it makes."""


def follow(case: Case, calls: list[tuple[str, Any]]) -> list[str]:
    """Return the keys of the states that the calls of result a jail reported make
    in the case's own game here, in order, each call (the key of the state it was
    made on, the move), as messages.Calls reads them. Raise ValueError if a call
    starts from a state that neither the case's root nor an earlier call made, or
    plays a move that is not legal there: the record of a search that made its
    states without the game, or a forgery."""
    states, made = _FOLLOWED.setdefault(text(case.spec), ({state_key(case.state): case.state}, {}))
    seen = {state_key(case.state)}
    keys = []
    for parent, move in calls:
        if parent not in seen:
            raise ValueError('called result on a state that the game it was given never made '
                             '(a state made some other way, or an altered record)')
        step = (parent, text(move))
        if step not in made:
            legal = {text(to_plain(action)): action for action in case.game.actions(states[parent])}
            if step[1] not in legal:
                raise ValueError(f'called result with a move that is not legal there: {text(move)}')
            child = case.game.result(states[parent], legal[step[1]])
            made[step] = state_key(child)
            states.setdefault(made[step], child)
        keys.append(made[step])
        seen.add(made[step])
    return keys
