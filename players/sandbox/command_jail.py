"""Jails that run a command: a program in any language, spoken to on its standard
input and output. The same limits, levels and end as players.sandbox.jail's jails; what
the program writes on its standard error goes to a third pipe, kept bounded.
The process-level jail server forks each such jail, which then executes the
command (at the bwrap level, bubblewrap running it), so nothing of any Python
process is left in it."""

from __future__ import annotations

import json
import os
import select
import time
from typing import Any, Sequence

from .jail import Jail, JailDied, JailGarbled, Limits
from .levels import LEVELS
from .servers import ServerLost, server

ERRORS_LIMIT = 4096
"""The most bytes of a program's standard error kept: the last ones it wrote."""
UNREAD_LIMIT = 1 << 20
"""The most bytes sent to a program that it may leave unread; past them it is garbled."""


class CommandJail(Jail):
    """A jail that runs a command (an argv list) instead of a Python entry. The
    program's standard input and output are the jail's pipes, one JSON message a
    line; its standard error goes to a pipe of which the last ERRORS_LIMIT bytes are
    kept (errors()). Sending never blocks: what the program has not read yet waits
    here and goes out while receive() waits for the answer. At either level the
    files and folders of paths are visible to it, read-only, at their own paths,
    beside the read-only system, a private temporary folder and a /proc of its own,
    with no network, and it runs in workdir (default: its private folder), as the
    jail's own user when started by root (at 'process' level started by an
    ordinary user, it is that user and sees what that user may: see
    players.sandbox.confine.run_command). Its environment is PATH (PROGRAM_PATH),
    HOME and TMPDIR (its private folder)."""

    def __init__(self, argv: Sequence[str], level: str = 'process', limits: Limits = Limits(),
                 paths: Sequence[str] = (), workdir: str | None = None):
        if level not in LEVELS or not argv:
            raise ValueError(f'a command jail needs a command and a level, got {level!r}, {argv!r}')
        command, runs_in = LEVELS[level].program_command(argv, paths, workdir)
        self.server = server('process', ())  # exec leaves nothing of it
        request_read, self._request = os.pipe()
        self._answer, answer_write = os.pipe()
        self._errors, errors_write = os.pipe()
        job = {'command': command, 'paths': list(paths), 'workdir': runs_in, 'level': level}
        try:
            self.pid = self.server.start(job, limits, (request_read, answer_write, errors_write))
        except ServerLost:
            for fd in (self._request, self._answer, self._errors):
                os.close(fd)
            raise
        finally:
            for fd in (request_read, answer_write, errors_write):
                os.close(fd)
        for fd in (self._request, self._errors):
            os.set_blocking(fd, False)
        self._exited = os.pidfd_open(self.pid)  # readable once the program's process ends
        self._buffer = self._unsent = self._kept = b''
        self.status: int | None = None

    def send(self, message: Any) -> None:
        """Queue one JSON message for the program and send what it will take now;
        raise JailDied if it is gone, JailGarbled if it leaves too much unread."""
        self._unsent += (json.dumps(message, separators=(',', ':')) + '\n').encode()
        if len(self._unsent) > UNREAD_LIMIT:
            raise JailGarbled(f'left over {UNREAD_LIMIT} bytes of its input unread')
        self._flush()

    def errors(self) -> str:
        """Return what the program wrote on its standard error (the last ERRORS_LIMIT
        bytes, marked with … where cut), as text."""
        self._drain()
        text = self._kept[-ERRORS_LIMIT:].decode('utf-8', errors='replace')
        return ('…' if len(self._kept) > ERRORS_LIMIT else '') + text

    def close(self, grace: float = 0.0) -> None:
        """Close the program's input, give it grace seconds to end by itself, then kill
        it and everything it started; what it wrote on standard error stays in errors()."""
        if self._request >= 0:
            self._flush()
            os.close(self._request)
            self._request = -1
        self._reap(grace)
        self._drain()
        super().close()
        for name in ('_errors', '_exited'):
            if getattr(self, name) >= 0:
                os.close(getattr(self, name))
                setattr(self, name, -1)

    def _wait_answer(self, deadline: float | None) -> bool:
        """Wait for the answer pipe as Jail does, meanwhile sending what the program
        has not read yet and keeping what it writes on standard error; raise
        JailDied when the program's process ends without an answer, even
        if a child it left holds its output open."""
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            poll = select.poll()
            for fd in (self._answer, self._errors, self._exited):
                poll.register(fd, select.POLLIN)
            if self._unsent:
                poll.register(self._request, select.POLLOUT)
            ready = dict(poll.poll(None if wait is None else 1000 * wait))
            if self._answer in ready:
                return True
            if not ready:
                return False
            if self._exited in ready and not select.select([self._answer], [], [], 0)[0]:
                raise JailDied(self._ended())
            self._drain()
            if self._request in ready:
                self._flush()

    def _flush(self) -> None:
        """Send as much of the unsent input as the pipe takes now."""
        try:
            while self._unsent:
                self._unsent = self._unsent[os.write(self._request, self._unsent):]
        except BlockingIOError:
            pass
        except OSError:  # the program closed its input or ended: receive() will say how
            self._unsent = b''

    def _drain(self) -> None:
        """Read what the program wrote on standard error, keeping the last bytes."""
        if self._errors < 0:
            return
        try:
            for _ in range(16):  # at most 1 MiB a call, however fast it writes
                chunk = os.read(self._errors, 1 << 16)
                if not chunk:
                    return
                self._kept = (self._kept + chunk)[-2 * ERRORS_LIMIT:]
        except BlockingIOError:
            pass
