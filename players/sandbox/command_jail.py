"""Jails that run a command: a program in any language, spoken to on its standard
input and output. The same limits, levels and end as players.sandbox.jail's jails; what
the program writes on its standard error goes to the jail's output pipe, kept
bounded as every jail's is (players.sandbox.jail.Jail.errors).
The process-level jail server forks each such jail, which then executes the
command (at the bwrap level, bubblewrap running it), so nothing of any Python
process is left in it."""

from __future__ import annotations

import json
import os
import select
from typing import Any, Sequence

from .jail import Jail, JailDied, JailGarbled, Limits
from .levels import LEVELS
from .servers import server

UNREAD_LIMIT = 1 << 20
"""The most bytes sent to a program that it may leave unread; past them it is garbled."""


class CommandJail(Jail):
    """A jail that runs a command (an argv list) instead of a Python entry. The
    program's standard input and output are the jail's pipes, one JSON message a
    line; its standard error is the jail's output pipe, of which the last
    ERRORS_LIMIT bytes are kept (errors(), as every jail's). Sending never blocks:
    what the program has not read yet waits here and goes out while receive()
    waits for the answer. At either level the
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
        job = {'command': command, 'paths': list(paths), 'workdir': runs_in, 'level': level}
        self._start(server('process', ()), job, limits)  # exec leaves nothing of it
        os.set_blocking(self._request, False)
        self._exited = os.pidfd_open(self.pid)  # readable once the program's process ends
        self._unsent = b''

    def send(self, message: Any) -> None:
        """Queue one JSON message for the program and send what it will take now;
        raise JailDied if it is gone, JailGarbled if it leaves too much unread."""
        self._unsent += (json.dumps(message, separators=(',', ':')) + '\n').encode()
        if len(self._unsent) > UNREAD_LIMIT:
            raise JailGarbled(f'left over {UNREAD_LIMIT} bytes of its input unread')
        self._flush()

    def close(self, grace: float = 0.0) -> None:
        """Close the program's input, give it grace seconds to end by itself, then kill
        it and everything it started; what it wrote on standard error stays in errors()."""
        if self._request >= 0:
            self._flush()
            os.close(self._request)
            self._request = -1
        self._reap(grace)
        super().close()
        if self._exited >= 0:
            os.close(self._exited)
            self._exited = -1

    def _watch(self, poll: select.poll) -> None:
        """Wait also for the program's process to end, and, while the program has
        input unread, for room in its input pipe."""
        poll.register(self._exited, select.POLLIN)
        if self._unsent:
            poll.register(self._request, select.POLLOUT)

    def _woken(self, ready: dict[int, int]) -> None:
        """Raise JailDied when the program's process has ended without an answer,
        even if a child it left holds its output open; send what it has room for."""
        if self._exited in ready and not select.select([self._answer], [], [], 0)[0]:
            raise JailDied(self._ended())
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
