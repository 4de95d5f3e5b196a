"""Jails: untrusted code in a process of its own, under operating-system limits,
spoken to only in lines of JSON; closing a jail kills everything it started.

The trusted side starts a Jail with an entry, 'module:function', which runs in
the jail as function(channel) and talks to the trusted side through the
channel's receive() and send() (players.sandbox.jail_server.Channel);
players.sandbox.command_jail runs a program instead. No trusted process forks a
jail: each asks a jail server of its own (players.sandbox.servers), a fresh
Python that has imported the project's packages and never held anything of the
trusted side, which forks the jail (players.sandbox.jail_server,
players.sandbox.confine). Two levels:

- 'process': each jail is in its own session, with limits on memory, file
  size, open files, processes and core dumps. When this process runs as root,
  each jail also has a user id of its own, is shut in a read-only view of the
  system with a private home and has no network (mount, network and IPC
  namespaces of its own), so it can neither signal nor read nor write
  anything of the trusted side or of another jail. (Where mounts are not
  allowed, it is shut in an empty folder of its own instead, and shares the
  machine's network: see players.sandbox.confine.shut_in.)
- 'bwrap': the server runs inside bubblewrap (no network, a read-only view of
  the system and of the packages it needs), and each jail has user, mount,
  process, network and IPC namespaces of its own in it, a private /tmp, no
  /proc and no capabilities (and, when this process runs as root, a user id of
  its own).

Only JSON crosses, each message one line of at most MESSAGE_LIMIT bytes nested at
most DEPTH_LIMIT deep, so nothing the jail sends is ever unpickled, compared or
called by the trusted side, nor can it make the trusted side run out of stack.
What a jail writes on its standard output and error goes to a third pipe, read
while the trusted side waits for an answer, of which only the last ERRORS_LIMIT
bytes are kept (Jail.errors): a jail that prints without end never blocks, and
never grows the trusted side's memory.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import select
import signal
import time
from dataclasses import dataclass
from typing import Any, Sequence

from . import confine
from .allowed import AllowedPackages
from .levels import LEVELS
from .servers import JailServer, ServerLost, server

MESSAGE_LIMIT = 1 << 16
"""The most bytes of one message from a jail; a longer one is garbage."""
DEPTH_LIMIT = 64
"""The deepest a message from a jail may nest lists and objects; a deeper one is
garbage, refused before it is parsed, so that nothing the trusted side does with a
message (parse it, walk it, write it as text again) can run out of stack. What the
project's jails send nests at most 6 deep: a move of Backgammon or Breakthrough is
2 deep, {"move": ...} 3, a grader's answer about a search ({"results": [[state,
move], ...]}) 5 and one about a student's game class 6."""
ERRORS_LIMIT = 4096
"""The most bytes kept of what a jail writes on its standard output and error
(a program's standard error): the last ones it wrote."""
DRAIN_LIMIT = 1 << 20
"""The most bytes of a jail's output read at once, however fast it writes, so
that a wait for its answer comes back to the answer and the clock in between."""


@dataclass(frozen=True)
class Limits:
    """The operating-system limits of each jail."""

    memory_mb: int = 2048
    """Address space, in MiB: far above what a search needs, so only a runaway player hits it."""
    file_mb: int = 16
    """The largest file the jail may write, in MiB (its /tmp under bwrap holds four times that)."""
    processes: int = 64
    """Processes and threads the jail may have at once."""
    open_files: int = 256
    """Files the jail may hold open at once."""


class JailError(Exception):
    """A jail that failed to answer as it should: one of the three kinds below."""

    reason = 'failed'
    """The kind of failure in a word, for messages."""


class JailTimeout(JailError):
    """A jail that did not answer in time."""

    reason = 'timeout'


class JailDied(JailError):
    """A jail whose process ended."""

    reason = 'died'


class JailGarbled(JailError):
    """A jail that sent something other than one line of JSON within the size limit."""

    reason = 'garbled'


class Jail:
    """A jailed process running entry ('module:function') as function(channel)."""

    def __init__(self, entry: str, level: str = 'process', limits: Limits = Limits(),
                 packages: Sequence[str] = (), image: int | None = None,
                 allowed: AllowedPackages = AllowedPackages()):
        """Start the jail. level is one of levels.LEVELS (see level_choice.resolve);
        packages are the packages of this project the jail may import (nothing
        else of the project is there to import: not the other packages, nor the
        parent package of a subpackage named), and allowed the installed packages
        it may import; image, a submission's folder image (players.sandbox.folder_image),
        is unpacked read-only in the jail, its working folder. Its standard output
        and error are the output pipe (see errors). Raises ServerLost if the jail
        server cannot start one."""
        if level not in LEVELS:
            raise ValueError(f'unknown jail level {level!r}')
        job = {'entry': entry} if image is None else {'entry': entry, 'image': True}
        self._start(server(level, tuple(packages), allowed), job, limits,
                    () if image is None else (image,))

    def _start(self, jail_server: JailServer, job: dict, limits: Limits,
               more_fds: Sequence[int] = ()) -> None:
        """Have jail_server start a jail for job with its three pipes, the ends of
        the jail's request, answer and output pipes (and more_fds) passed in that
        order; raise ServerLost if it cannot."""
        self.server = jail_server
        request_read, self._request = os.pipe()
        self._answer, answer_write = os.pipe()
        self._output, output_write = os.pipe()
        try:
            self.pid = self.server.start(job, limits,
                                         (request_read, answer_write, output_write, *more_fds))
        except ServerLost:
            for fd in (self._request, self._answer, self._output):
                os.close(fd)
            raise
        finally:
            for fd in (request_read, answer_write, output_write):
                os.close(fd)
        os.set_blocking(self._output, False)
        self._buffer = self._kept = b''
        self.status: int | None = None
        """The jail's wait status once it has ended, else None."""

    def send(self, message: Any) -> None:
        """Send one JSON message; a jail that is gone raises JailDied."""
        data = (json.dumps(message, separators=(',', ':')) + '\n').encode()
        try:
            while data:
                data = data[os.write(self._request, data):]
        except (BrokenPipeError, OSError):
            raise JailDied(self._ended()) from None

    def receive(self, timeout: float | None) -> Any:
        """Return the next JSON message, waiting at most timeout seconds (None: for
        ever); raise JailTimeout if none comes in time, JailDied if the jail ends,
        JailGarbled if it sends garbage."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b'\n' not in self._buffer:
            if len(self._buffer) > MESSAGE_LIMIT:
                raise JailGarbled(f'sent a message over {MESSAGE_LIMIT} bytes')
            if not self._wait_answer(deadline):
                raise JailTimeout(f'no answer within {timeout:g} s')
            chunk = os.read(self._answer, MESSAGE_LIMIT + 1)
            if not chunk:
                raise JailDied(self._ended())
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b'\n', 1)
        if len(line) > MESSAGE_LIMIT:
            raise JailGarbled(f'sent a message over {MESSAGE_LIMIT} bytes')
        return parse(line)

    def _wait_answer(self, deadline: float | None) -> bool:
        """Wait until the answer pipe can be read (or is closed), at most until the
        deadline (time.monotonic(); None: for ever), meanwhile keeping what the jail
        writes on its output (see errors); return False if it cannot. A jail that
        writes without end is read DRAIN_LIMIT bytes at a time, the deadline
        looked at in between."""
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            poll = select.poll()
            poll.register(self._answer, select.POLLIN)
            if self._output >= 0:
                poll.register(self._output, select.POLLIN)
            self._watch(poll)
            ready = dict(poll.poll(None if wait is None else 1000 * wait))
            if self._answer in ready:
                return True
            if not ready or wait == 0.0:
                return False
            self._drain()
            self._woken(ready)

    def _watch(self, poll: select.poll) -> None:
        """Register what else a wait for the answer watches (see _woken)."""

    def _woken(self, ready: dict[int, int]) -> None:
        """Handle what else woke a wait for the answer (the events of the file
        descriptors _watch registered, in ready); the answer pipe was not among them."""

    def errors(self) -> str:
        """Return what the jail wrote on its standard output and error (a program:
        its standard error), as text: the last ERRORS_LIMIT bytes, marked with …
        where cut (and the rest of a character cut in two left out), each byte that
        is not UTF-8 written as its escape, such as \\xff."""
        self._drain()
        if len(self._kept) <= ERRORS_LIMIT:
            return self._kept.decode('utf-8', errors='backslashreplace')
        kept = self._kept[-ERRORS_LIMIT:]
        start = next((index for index in range(4) if not 0x80 <= kept[index] < 0xc0), 0)
        return '…' + kept[start:].decode('utf-8', errors='backslashreplace')

    def forget_errors(self) -> None:
        """Drop what the jail has written so far: errors() tells only what it writes
        from now on (a jail kept for another game: see
        players.remote.jailed_player)."""
        self._drain()
        self._kept = b''

    def _drain(self) -> None:
        """Read what the jail wrote on its output, without waiting (at most
        DRAIN_LIMIT bytes), keeping the last bytes; close the pipe once every
        process that could write on it has ended or closed it."""
        if self._output < 0:
            return
        try:
            for _ in range(DRAIN_LIMIT >> 16):
                chunk = os.read(self._output, 1 << 16)
                if not chunk:
                    os.close(self._output)
                    self._output = -1
                    return
                self._kept = (self._kept + chunk)[-2 * ERRORS_LIMIT:]
        except BlockingIOError:
            pass

    def close(self) -> None:
        """Kill the jail and everything it started (the server does it while this
        process goes on, unless the jail's status is wanted: see _reap); what it
        wrote on its output so far stays in errors()."""
        self._drain()
        try:
            if self.status is None:
                self.status = -1
                self.server.close(self.pid, 0.0, wait=False)
        except ServerLost:
            pass  # the server is gone, and its jails with it
        for fd in (self._request, self._answer, self._output):
            try:
                if fd >= 0:
                    os.close(fd)
            except OSError:
                pass
        self._request = self._answer = self._output = -1

    def __enter__(self) -> Jail:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _reap(self, grace: float = 0.0) -> None:
        """Have the server give the jail grace seconds to end by itself, then kill
        it with everything it started and tell its wait status, once."""
        if self.status is None:
            self.status = -1  # in case the server is lost
            self.status = self.server.close(self.pid, grace)

    def _ended(self) -> str:
        """Reap the jail's process, which closed its end of the pipe, and say how it ended."""
        self._reap(grace=1.0)
        status = -1 if self.status is None else self.status
        if os.WIFSIGNALED(status):
            number = os.WTERMSIG(status)
            return f'its process was killed by {signal.Signals(number).name}'
        return f'its process exited with status {os.WEXITSTATUS(status)}'


def parse(line: bytes) -> Any:
    """Return the JSON value of a line from a jail; raise JailGarbled if it is not
    JSON, or nests lists and objects deeper than DEPTH_LIMIT (found before it is
    parsed; a line with few brackets is not read through)."""
    if line.count(b'[') + line.count(b'{') > DEPTH_LIMIT and nesting(line) > DEPTH_LIMIT:
        raise JailGarbled(f'sent a message nested deeper than {DEPTH_LIMIT} lists or objects')
    try:
        value = json.loads(line)
    except ValueError:
        raise JailGarbled(f'sent something that is not JSON: {_shown(line)}') from None
    return _whole(value) if _SURROGATE.search(line) else value


def _whole(value: Any) -> Any:
    """Return value with each lone surrogate of its texts (JSON's "\\ud800", which is
    no character) written as its escape, so that every text of it can be stored,
    printed or written as UTF-8."""
    if isinstance(value, str):
        return value.encode('utf-8', 'backslashreplace').decode('utf-8')
    if isinstance(value, list):
        return [_whole(item) for item in value]
    if isinstance(value, dict):
        return {_whole(key): _whole(item) for key, item in value.items()}
    return value


_SURROGATE = re.compile(rb'\\u[dD][89abcdefABCDEF]')
"""The start of a JSON escape of a surrogate (paired, or alone)."""
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
"""A JSON string (a bracket in it nests nothing)."""
_NOT_BRACKETS = bytes(set(range(256)) - set(b'[]{}'))


def nesting(text: bytes) -> int:
    """Return how deep the lists and objects of a JSON text nest, the brackets within
    its strings left out."""
    brackets = _STRING.sub(b'', text).translate(None, _NOT_BRACKETS)
    return max(itertools.accumulate((1 if byte in b'[{' else -1 for byte in brackets),
                                    initial=0))


def prepare_jailer() -> None:
    """Keep other processes of this user from tracing this trusted process or
    reading its memory (jails run at the process level by an ordinary user are
    such processes)."""
    confine.prctl(confine.PR_SET_DUMPABLE, 0)


def _shown(data: bytes, limit: int = 80) -> str:
    """Return the start of some bytes as printable text."""
    text = data[:limit].decode('utf-8', errors='replace')
    return repr(text + ('…' if len(data) > limit else ''))
