"""The jail server: a clean Python process that forks every jail.

A trusted process (a referee, the grader, `play`) never forks a jail itself, since
a fork would carry its memory (the referee's frames, the dice, other players'
code) into the jail. It starts a server instead, a fresh interpreter that
imports the project's packages and nothing of the trusted side, and asks it for
each jail (the pattern of Android's zygote and nsjail's fork server). See
players.sandbox.jail for the trusted side's end; this module runs only in the server and
in the jails it forks.

The server reads requests from its control socket, one JSON packet each:
{"start": job, "limits": {...}} with the jail's pipe ends passed along
(SCM_RIGHTS), answered {"pid": N} (a job runs a Python entry or executes a
program: see Server.start); {"close": N, "grace": seconds}, answered
{"status": wait status} once jail N and everything it started are dead (with
"reply": false, not answered).

At level 'process' each jail is a fork of the server in a session of its own,
under operating-system limits; when the server runs as root, the jail also has
a user id of its own and is shut in (chroot) an empty private folder, so it sees
no file at all. At level 'bwrap' the server itself runs inside bubblewrap (a
read-only system, no network), and each jail gets namespaces of its own inside
it: user, mount, process, network and IPC, a fresh /tmp, no /proc, and no
capabilities; its process-count limit is then its own. (players.sandbox.confine does
each of these in the forked child.)
"""

from __future__ import annotations

import gc
import importlib
import io
import json
import os
import pkgutil
import signal
import socket
import sys
import tempfile
import time
from typing import Sequence

from . import confine
from .confine import ANSWER_FD, REQUEST_FD
from .folders import remove_folder
from .levels import LEVELS

UID_BASE = 1_500_000_000
"""Jails of a server run by root run as UID_BASE plus a number of their own: no such
user owns any file, and no two live jails share one."""
PRELOADED = ('array', 'bisect', 'collections', 'collections.abc', 'copy', 'csv',
             'dataclasses', 'datetime', 'decimal', 'encodings.ascii', 'encodings.latin_1',
             'encodings.utf_8', 'enum', 'fractions', 'functools', 'hashlib', 'heapq',
             'itertools', 'json', 'math', 'numbers', 'operator', 'pickle', 'queue', 'random',
             're', 'statistics', 'string', 'struct', 'textwrap', 'threading', 'time',
             'traceback', 'typing', 'unicodedata')
"""Standard modules a jail finds imported, as the server imported them once (a jail
may import the rest of the standard library as well, each time it does)."""
PACKET = 1 << 16
"""The largest control message."""


def main(control_fd: int, level: str, packages: Sequence[str], uid_base: int,
         folder: str | None, allowed: Sequence[str] = (), view: dict | None = None) -> None:
    """Serve jails on the control socket until the trusted side goes (closes it, or
    ends, which closes it too), then kill them all; make each process-level jail's
    folder in the server's folder (None: the temporary folder); run by root, give
    the jails the user ids from uid_base on and, at the process level, shut them in
    a view of the system (see players.sandbox.confine.build_view; view gives what it
    shows besides the system and the server's folder). The installed modules
    allowed are imported with the project's packages; a server for no packages
    only answers a probe (see players.sandbox.level_choice.problem) and imports nothing.
    (players.sandbox.jail_server_main calls it.)"""
    if packages:
        preload(packages, allowed)
    confine.prctl(confine.PR_SET_DUMPABLE, 0)
    confine.prctl(confine.PR_SET_CHILD_SUBREAPER, 1)
    root = None
    try:
        if (view is not None and folder is not None and LEVELS[level].confinement.view
                and os.geteuid() == 0):
            root = os.path.join(folder, 'view')
            try:
                confine.build_view(root, view)
            except PermissionError:  # no mounts here (a container without CAP_SYS_ADMIN)
                confine.drop_view(root)
                root = None  # each jail is shut in an empty folder: it imports what is here
        control = socket.socket(fileno=control_fd)
        control.send(json.dumps({'ready': True}).encode())
        Server(control, level, uid_base, folder, root).serve()
    finally:
        if root is not None:
            confine.drop_view(root)


def probe(channel) -> None:
    """A jail's entry that only says it runs (see players.sandbox.level_choice.problem)."""
    channel.send({'probe': True})


def preload(packages: Sequence[str], allowed: Sequence[str] = ()) -> None:
    """Import the standard modules of PRELOADED, every module of packages (a
    package's subpackages only when named themselves) and the installed modules
    allowed, then freeze them out of the collector, so that forked jails share
    their pages and find them imported (a jail that imports an allowed package
    pays nothing for it), and a smaller server forks faster."""
    for name in PRELOADED:
        importlib.import_module(name)
    for name in allowed:
        try:
            importlib.import_module(name)
        except Exception:  # a jail that imports it is told why, as it would be anyway
            pass
    for package in packages:
        module = importlib.import_module(package)
        for found in pkgutil.iter_modules(getattr(module, '__path__', []), f'{package}.'):
            if found.ispkg:
                continue
            try:
                importlib.import_module(found.name)
            except ImportError:  # a module for an optional extra that is not installed
                pass
    gc.collect()
    gc.freeze()


class Server:
    """The server's loop: start jails, close them, and keep no trace of either."""

    def __init__(self, control: socket.socket, level: str, uid_base: int, folder: str | None,
                 view: str | None = None):
        self.control, self.level, self.uid_base, self.folder = control, level, uid_base, folder
        self.view = view
        """The folder of the view of the system that process-level jails are shut in
        (the server runs as root), or None."""
        self.root = os.geteuid() == 0
        self.live: dict[int, str | None] = {}
        """Each live jail's pid and its private folder (None if it has none)."""
        self.count = 0

    def serve(self) -> None:
        """Answer requests until the control socket closes, then kill every jail
        left and what they started."""
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.control, PACKET, 4)
            except OSError:
                data = b''
            if not data:
                for pid in list(self.live):
                    self.close(pid, 0.0)
                self.kill_strays()
                return
            request = json.loads(data)
            if 'start' in request:
                answer = {'pid': self.start(request['start'], request['limits'], fds)}
            else:
                answer = {'status': self.close(request['close'], request['grace'])}
            for fd in fds:
                os.close(fd)
            if request.get('reply', True):
                self.control.send(json.dumps(answer).encode())

    def start(self, job: dict, limits: dict, fds: list[int]) -> int:
        """Fork a jail for a job with the pipe ends fds (the jail's ends of its
        request, answer and output pipes); return its pid. The job is
        {'entry': 'module:function'} (see child_main), with 'image': true where a
        fourth fd is a submission's folder image for the jail to unpack (see
        players.sandbox.folder_image), or {'command': argv, 'paths': [path, ...],
        'workdir': folder or None, 'level': level} for a program, which the jail
        executes (at 'bwrap', argv is bubblewrap's; at 'process', the paths are the
        files and folders it is shown in a root of its own, where the server has a
        view). An entry's module is imported
        here, before the fork: a jail shut in an empty folder can import nothing.
        (Entries are the jail side's own modules, named by the trusted side.)"""
        if 'entry' in job:
            importlib.import_module(job['entry'].split(':')[0])
        image = bool(job.get('image'))
        self.count += 1
        uid = self.uid_base + self.count % 64 if self.root else None
        confinement = LEVELS[job.get('level', self.level)].confinement
        folder = None
        if confinement.private_folder(self.view is not None, 'command' in job):
            folder = tempfile.mkdtemp(prefix='jail-', dir=self.folder)
            if uid is not None:
                os.chown(folder, uid, uid)
        pid = os.fork()
        if pid == 0:
            try:
                if 'command' in job:
                    confine.run_command(job, fds, folder, uid, limits, self.view is not None)
                confine.take_pipes(*fds)
                try:
                    confinement.enter(folder, uid, limits, image, self.view)
                except OSError as error:  # said as the jail's answer, for the trusted side
                    os.write(ANSWER_FD, json.dumps({'error': f'the jail cannot be made here: '
                                                             f'{error}'}).encode() + b'\n')
                    raise
                child_main(job['entry'])
            finally:
                os._exit(1)
        self.live[pid] = folder
        return pid

    def close(self, pid: int, grace: float) -> int:
        """Give jail pid grace seconds to end by itself, kill it and everything it
        started, and return its wait status."""
        folder = self.live.pop(pid, None)
        deadline = time.monotonic() + grace
        while (time.monotonic() < deadline
               and os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None):
            time.sleep(0.005)
        _kill_group(pid)
        try:
            status = os.waitpid(pid, 0)[1]
        except ChildProcessError:
            status = 0
        self.kill_strays()
        if folder:
            remove_folder(folder)
        return status

    def kill_strays(self) -> None:
        """Kill and reap every child that is not a live jail: the processes players
        hid in sessions of their own, adopted by this server when their jail ended."""
        while True:
            strays = [pid for pid in _children() if pid not in self.live]
            if not strays:
                return
            for pid in strays:
                _kill_group(pid)
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass


def child_main(entry: str) -> None:
    """Run a jail's entry, 'module:function', as function(channel), with signals as
    by default and standard output and error written through at once to the
    output pipe (see confine.take_pipes), so that nothing printed waits in a
    buffer when the jail is killed; the process then ends."""
    for name in ('SIGINT', 'SIGTERM', 'SIGALRM', 'SIGPIPE'):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    sys.stdin = os.fdopen(os.dup(0))
    for name, fd in (('stdout', 1), ('stderr', 2)):  # the server's own, buffered, too
        stream = _written_through(fd)
        setattr(sys, name, stream)
        setattr(sys, f'__{name}__', stream)
    module, function = entry.split(':')
    try:
        getattr(importlib.import_module(module), function)(Channel())
    except BaseException:  # the entry's own failure: its status says so
        os._exit(1)
    os._exit(0)


def _written_through(fd: int) -> io.TextIOWrapper:
    """Return a text stream on a copy of fd that writes each write at once and whole,
    with no buffer (as python -u's standard streams do, but for a write a signal
    cuts short), in UTF-8, a character it cannot write as its escape."""
    return io.TextIOWrapper(_WholeWrites(os.dup(fd), 'wb'), encoding='utf-8',
                            errors='backslashreplace', write_through=True)


class _WholeWrites(io.FileIO):
    """A file whose write writes all it is given, which a text stream expects of it
    (a pipe may take part of a write that a signal interrupts)."""

    def write(self, data, /) -> int:
        view = memoryview(data).cast('B')
        done = 0
        while done < len(view):
            done += super().write(view[done:]) or 0
        return done


class Channel:
    """The jail's end of its pipes: JSON messages, one a line."""

    def __init__(self, read_fd: int = REQUEST_FD, write_fd: int = ANSWER_FD):
        self._reader = os.fdopen(read_fd, 'rb')
        self._write_fd = write_fd

    def receive(self):
        """Return the next message from the trusted side; raise EOFError when it is gone."""
        line = self._reader.readline()
        if not line:
            raise EOFError
        return json.loads(line)

    def send(self, message) -> None:
        """Send one message to the trusted side."""
        data = (json.dumps(message, separators=(',', ':')) + '\n').encode()
        while data:
            data = data[os.write(self._write_fd, data):]


def _children() -> list[int]:
    """Return the pids of this process's children."""
    pids = []
    for task in os.listdir('/proc/self/task'):
        try:
            with open(f'/proc/self/task/{task}/children') as file:
                pids += [int(pid) for pid in file.read().split()]
        except OSError:
            continue
    return pids


def _kill_group(pid: int) -> None:
    """Kill a process and its process group (its session), ignoring those gone."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
