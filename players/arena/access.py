"""Who is asking: the arena's sessions (a student signed in by their link, or a
member of staff by their password) and the rule every page applies, that a student
sees only what is theirs. Also the two guards in front of every page: a body size
limit, checked before a byte of an upload is kept, and the headers that keep a page
from running anything but the arena's own scripts."""

from __future__ import annotations

import collections
import json
import secrets
import threading
import time
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .records import Records, Student, token_digest

HEADERS = [
    (b'content-security-policy',
     b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
     b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"),
    (b'x-content-type-options', b'nosniff'),
    (b'referrer-policy', b'no-referrer'),
    (b'x-frame-options', b'DENY'),
]
"""The headers of every answer: only the arena's own scripts and styles, never in a
frame, and no address (a sign-in link is one) sent to another site."""

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    """Return a password's hash (argon2id), to keep instead of the password."""
    return _hasher.hash(password)


def password_matches(hashed: str, password: str) -> bool:
    """Whether password is the one hashed was made of."""
    try:
        return _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False


@dataclass(frozen=True)
class Viewer:
    """Who a request comes from: a student, a member of staff, or no one signed in."""

    student: Student | None = None
    staff: str | None = None

    @property
    def signed_in(self) -> bool:
        """Whether someone is signed in."""
        return self.student is not None or self.staff is not None

    def may_see(self, student: str) -> bool:
        """Whether this viewer may see a student's own things: their code, versions,
        games, logs and token. Staff see everyone's; a student, only their own."""
        return self.staff is not None or (self.student is not None
                                          and self.student.id == student)


def viewer_of(connection: HTTPConnection, records: Records) -> Viewer:
    """Return who a request comes from, by its session: a session ends when its
    account signs out (everywhere), a student's when they are given a new link, and a
    staff member's when they are removed."""
    session = connection.session
    student_id, digest, staff = session.get('student'), session.get('token'), session.get('staff')
    account = f'student:{student_id}' if student_id is not None else f'staff:{staff}'
    if session.get('epoch') != epoch(records, account):
        return Viewer()
    if isinstance(student_id, str) and isinstance(digest, str) \
            and records.token_matches(student_id, digest):
        return Viewer(student=records.student(student_id))
    if isinstance(staff, str) and records.staff_hash(staff) is not None:
        return Viewer(staff=staff)
    return Viewer()


def epoch(records: Records, account: str) -> str:
    """Return the mark an account's sessions carry: a new one ends them all."""
    return records.get(f'sessions:{account}') or '0'


def sign_out(connection: HTTPConnection, records: Records) -> None:
    """End the request's session, and every other session of its account: the signed
    cookies a browser keeps are of no use from then on."""
    viewer = viewer_of(connection, records)
    account = (f'student:{viewer.student.id}' if viewer.student
               else f'staff:{viewer.staff}' if viewer.staff else None)
    if account is not None:
        records.put(f'sessions:{account}', secrets.token_hex(8))
    connection.session.clear()


def sign_in_student(connection: HTTPConnection, records: Records, student: Student,
                    token: str) -> None:
    """Make the request's session a student's."""
    connection.session.clear()
    connection.session.update({'student': student.id, 'token': token_digest(token),
                               'epoch': epoch(records, f'student:{student.id}')})


def sign_in_staff(connection: HTTPConnection, records: Records, name: str) -> None:
    """Make the request's session a staff member's."""
    connection.session.clear()
    connection.session.update({'staff': name, 'epoch': epoch(records, f'staff:{name}')})


class StaffSignIns:
    """Checks staff passwords so that they cannot be guessed at speed or told apart by
    time: one check at a time (each takes argon2's time and memory), a name that is
    no one's checked against a hash of nothing, and an address with FAILURES wrong
    passwords within WINDOW_SECONDS refused until the window passes. A name is never
    locked: whoever knows it could lock its owner out."""

    FAILURES = 5
    WINDOW_SECONDS = 60.0

    def __init__(self, records: Records):
        self.records = records
        self._nobody = hash_password(secrets.token_hex(16))
        self._checking = threading.Lock()
        self._failed: dict[str, collections.deque[float]] = {}

    def check(self, name: str, password: str, address: str) -> str | None:
        """Return None if password is the staff member name's, else why not (a line
        to show)."""
        now = time.monotonic()
        failed = self._failed.setdefault(address, collections.deque())
        while failed and failed[0] < now - self.WINDOW_SECONDS:
            failed.popleft()
        if len(failed) >= self.FAILURES:
            return 'too many wrong passwords: wait a minute'
        if not self._checking.acquire(timeout=2.0):
            return 'the arena is busy checking passwords: try again'
        try:
            hashed = self.records.staff_hash(name)
            matches = password_matches(hashed or self._nobody, password) and hashed is not None
        finally:
            self._checking.release()
        if matches:
            return None
        failed.append(now)
        return 'no such name and password'


FORM_BYTES = 64 * 1024
"""What a form may add to an upload's bytes: its other fields and the parts' headers."""


class Guard:
    """ASGI middleware: every answer gets HEADERS, and a request whose body is over
    an upload's bytes (and a form's) is refused (413) before more of it is read."""

    def __init__(self, app: ASGIApp, upload_bytes: int):
        self.app = app
        self.upload_bytes = upload_bytes
        self.limit = upload_bytes + FORM_BYTES

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope['type'] != 'http':
            await self.app(scope, receive, send)
            return
        length = dict(scope['headers']).get(b'content-length')
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _refuse(send, self.upload_bytes)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message['type'] == 'http.request':
                received += len(message.get('body', b''))
                if received > self.limit:
                    raise BodyTooLarge
            return message

        async def headed(message: Message) -> None:
            nonlocal started
            if message['type'] == 'http.response.start':
                started = True
                message = {**message, 'headers': [*message.get('headers', []), *HEADERS]}
            await send(message)

        try:
            await self.app(scope, counted, headed)
        except BodyTooLarge:
            if not started:
                await _refuse(send, self.upload_bytes)


class BodyTooLarge(Exception):
    """A request's body passed the limit while it was read."""


async def _refuse(send: Send, limit: int) -> None:
    """Answer 413 with a line that says the limit, as JSON ({"error": ...})."""
    said = f'the upload is over the limit of {limit / (1024 * 1024):g} MB'
    body = json.dumps({'error': said}).encode()
    await send({'type': 'http.response.start', 'status': 413,
                'headers': [(b'content-type', b'application/json'), *HEADERS]})
    await send({'type': 'http.response.body', 'body': body})
