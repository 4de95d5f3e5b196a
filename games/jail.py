"""Jails: untrusted code in a process of its own, under operating-system limits,
spoken to only in lines of JSON; closing a jail kills everything it started.

The trusted side starts a Jail with an entry, 'module:function', which runs in
the jail as function(channel) and talks to the trusted side through the
channel's receive() and send() (games.zygote.Channel). No trusted process
forks a jail: each asks a jail server of its own (games.zygote), a fresh Python
that has imported the project's packages and never held anything of the
trusted side, which forks the jail. Two levels:

- 'process': the server runs here; each jail is in its own session, with
  limits on memory, file size, open files, processes and core dumps. When this
  process runs as root, each jail also has a user id of its own and sees no
  file at all (it is shut in an empty folder of its own), so it can neither
  signal nor read nor write anything of the trusted side or of another jail.
- 'bwrap': the server runs inside bubblewrap (no network, a read-only view of
  the system and of the packages it needs, started as an unprivileged user), and
  each jail has user, mount, process, network and IPC namespaces of its own in
  it, a private /tmp, no /proc and no capabilities.

Only JSON crosses, each message one line of at most MESSAGE_LIMIT bytes, so
nothing the jail sends is ever unpickled, compared or called by the trusted side.
"""

from __future__ import annotations

import atexit
import ctypes
import functools
import importlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass
from typing import Any, Sequence

from . import zygote
from .zygote import UID_BASE

LEVELS = ('auto', 'bwrap', 'process')
"""The sandbox levels a user may ask for; 'auto' is bwrap where it works, else process."""
MESSAGE_LIMIT = 1 << 16
"""The most bytes of one message from a jail; a longer one is garbage."""
SERVER_START_SECONDS = 60.0
"""The longest a jail server may take to start and import the project."""
SERVER_STOP_SECONDS = 5.0
"""The longest a jail server may take to kill its jails and stop."""

_PR_SET_DUMPABLE = 4


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


class ServerLost(RuntimeError):
    """A jail server that died or stopped answering: a fault of the machinery (or
    of a player run by an ordinary user at the process level, which can signal
    it), never charged to a player's game."""


class JailError(Exception):
    """A jail that failed to answer as it should."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason
        """'timeout' (no answer in time), 'died' (the process ended) or 'garbled' (not one
        line of JSON within the size limit)."""


class Jail:
    """A jailed process running entry ('module:function') as function(channel)."""

    def __init__(self, entry: str, level: str = 'process', limits: Limits = Limits(),
                 packages: Sequence[str] = ('games',)):
        """Start the jail. level is 'process' or 'bwrap' (see resolve_level);
        packages are the packages of this project the jail may import (nothing
        else of the project is there to import: not the other packages, nor the
        parent package of a subpackage named). Raises ServerLost if the jail
        server cannot start one."""
        if level not in ('process', 'bwrap'):
            raise ValueError(f'unknown jail level {level!r}')
        self.level, self.limits = level, limits
        self.server = server(level, tuple(packages))
        request_read, self._request = os.pipe()
        self._answer, answer_write = os.pipe()
        try:
            self.pid = self.server.start({'entry': entry}, limits, (request_read, answer_write))
        except ServerLost:
            for fd in (self._request, self._answer):
                os.close(fd)
            raise
        finally:
            os.close(request_read)
            os.close(answer_write)
        self._buffer = b''
        self.status: int | None = None
        """The jail's wait status once it has ended, else None."""

    def send(self, message: Any) -> None:
        """Send one JSON message; a jail that is gone raises JailError('died')."""
        data = (json.dumps(message, separators=(',', ':')) + '\n').encode()
        try:
            while data:
                data = data[os.write(self._request, data):]
        except (BrokenPipeError, OSError):
            raise JailError(self._ended(), 'died') from None

    def receive(self, timeout: float | None) -> Any:
        """Return the next JSON message, waiting at most timeout seconds (None: for
        ever); raise JailError if none comes in time, the jail ends or it sends garbage."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while b'\n' not in self._buffer:
            if len(self._buffer) > MESSAGE_LIMIT:
                raise JailError(f'sent a message over {MESSAGE_LIMIT} bytes', 'garbled')
            if not self._wait_answer(deadline):
                raise JailError(f'no answer within {timeout:g} s', 'timeout')
            chunk = os.read(self._answer, MESSAGE_LIMIT + 1)
            if not chunk:
                raise JailError(self._ended(), 'died')
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b'\n', 1)
        if len(line) > MESSAGE_LIMIT:
            raise JailError(f'sent a message over {MESSAGE_LIMIT} bytes', 'garbled')
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            raise JailError(f'sent something that is not JSON: {_shown(line)}', 'garbled') from None

    def _wait_answer(self, deadline: float | None) -> bool:
        """Wait until the answer pipe can be read (or is closed), at most until the
        deadline (time.monotonic(); None: for ever); return False if it cannot."""
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        poll = select.poll()
        poll.register(self._answer, select.POLLIN)
        return bool(poll.poll(None if wait is None else 1000 * wait))

    def close(self) -> None:
        """Kill the jail and everything it started (the server does it while this
        process goes on, unless the jail's status is wanted: see _reap)."""
        try:
            if self.status is None:
                self.status = -1
                self.server.close(self.pid, 0.0, wait=False)
        except ServerLost:
            pass  # the server is gone, and its jails with it
        for fd in (self._request, self._answer):
            try:
                os.close(fd)
            except OSError:
                pass
        self._request = self._answer = -1

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
        if os.WIFSIGNALED(self.status):
            number = os.WTERMSIG(self.status)
            return f'its process was killed by {signal.Signals(number).name}'
        return f'its process exited with status {os.WEXITSTATUS(self.status)}'


class JailServer:
    """A jail server (games.zygote) of this process, at one level, for jails that
    may import the given packages, spoken to over a socket of its own."""

    def __init__(self, level: str, packages: tuple[str, ...]):
        """Start the server and wait until it has imported the packages; raise
        ServerLost, saying why, if it cannot start."""
        self.level = level
        self.lock = threading.Lock()
        self.folder = tempfile.mkdtemp(prefix='jail-server-')
        os.chmod(self.folder, 0o755)
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = _server_command(level, packages, theirs.fileno(), self.folder)
        errors = open(os.path.join(self.folder, 'errors'), 'w+b')
        try:
            self.process = subprocess.Popen(
                argv, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=errors, env={'PATH': '/usr/bin:/bin'},
                start_new_session=True)
        finally:
            theirs.close()
        self.socket.settimeout(SERVER_START_SECONDS)
        try:
            ready = self._ask(None)
        except ServerLost:
            errors.seek(0)
            said = errors.read().decode(errors='replace').strip().splitlines()
            self.close_server()
            raise ServerLost(f'the jail server did not start: {said[-1] if said else "no reason given"}')
        finally:
            errors.close()
        self.socket.settimeout(None)
        if ready != {'ready': True}:
            self.close_server()
            raise ServerLost(f'the jail server did not start: {ready}')

    def start(self, job: dict, limits: Limits, fds: Sequence[int]) -> int:
        """Start a jail with the given ends of its pipes; return its id. job is
        {'entry': 'module:function'}, or {'command': argv, 'workdir': folder or
        None, 'level': 'process' or 'bwrap'} for a program (see games.zygote)."""
        return self._ask({'start': job, 'limits': asdict(limits)}, fds)['pid']

    def close(self, pid: int, grace: float, wait: bool = True) -> int | None:
        """Kill jail pid, after grace seconds for it to end by itself, with every
        process it started; return its wait status, or, without wait, return at
        once (None) and let the server do it."""
        if not wait:
            self._ask({'close': pid, 'grace': grace, 'reply': False})
            return None
        return self._ask({'close': pid, 'grace': grace})['status']

    def _ask(self, request: dict | None, fds: Sequence[int] = ()) -> dict | None:
        """Send a request (None: none, only read) and return the server's answer
        (None for a request that says it wants no reply)."""
        with self.lock:
            try:
                if request is not None:
                    socket.send_fds(self.socket, [json.dumps(request).encode()], list(fds))
                    if request.get('reply') is False:
                        return None
                answer = self.socket.recv(zygote.PACKET)
            except OSError as error:
                raise ServerLost(f'the jail server is lost: {error}') from None
            if not answer:
                raise ServerLost('the jail server is lost: it ended')
            return json.loads(answer)

    def alive(self) -> bool:
        """Is the server still running?"""
        return self.process.poll() is None

    def close_server(self) -> None:
        """Stop the server, which first kills every jail it has and what they started
        (or, if it does not stop within SERVER_STOP_SECONDS, kill it)."""
        self.socket.close()
        try:
            self.process.wait(SERVER_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


_servers: dict = {}
"""This process's jail servers, by level and packages."""
_servers_pid = os.getpid()


def server(level: str, packages: tuple[str, ...]) -> JailServer:
    """Return this process's jail server for a level and packages, starting it if
    there is none or the last one died (a child process starts its own)."""
    global _servers_pid
    if _servers_pid != os.getpid():  # a fork: the parent's servers are the parent's
        _servers.clear()
        _servers_pid = os.getpid()
    key = (level, packages)
    found = _servers.get(key)
    if found is None or not found.alive():
        if found is not None:
            found.close_server()
        found = _servers[key] = JailServer(level, packages)
    return found


@atexit.register
def close_servers() -> None:
    """Stop every jail server of this process (and so every jail)."""
    if _servers_pid == os.getpid():
        for found in _servers.values():
            found.close_server()
    _servers.clear()



def resolve_level(requested: str) -> str:
    """Return the jail level to use for a requested one: 'auto' is 'bwrap' where
    bubblewrap is installed and works, otherwise 'process'. Raise ValueError for
    'bwrap' where it does not work, saying why."""
    if requested not in LEVELS:
        raise ValueError(f'unknown sandbox {requested!r}; choose one of {", ".join(LEVELS)}')
    if requested == 'process':
        return 'process'
    problem = bwrap_problem()
    if problem is None:
        return 'bwrap'
    if requested == 'bwrap':
        raise ValueError(f'--sandbox bwrap: {problem}')
    return 'process'


@functools.lru_cache(maxsize=None)
def bwrap_problem() -> str | None:
    """Return why bubblewrap cannot jail players here, or None if it can: a jail
    server is started inside it and asked for a jail, as a tournament would."""
    if shutil.which('bwrap') is None:
        return 'bubblewrap is not installed (apt-get install bubblewrap)'
    try:
        with Jail('games.zygote:probe', 'bwrap') as probe:
            answer = probe.receive(SERVER_START_SECONDS)
    except (ServerLost, JailError) as error:
        return f'bwrap does not work here: {error}'
    finally:
        found = _servers.pop(('bwrap', ('games',)), None)
        if found is not None:
            found.close_server()
    return None if answer == {'probe': True} else f'bwrap does not work here: {answer}'


def describe(level: str) -> str:
    """Return a short line saying what a jail level isolates, for headers."""
    if level == 'bwrap':
        return 'bwrap (own namespaces, no network, read-only system, private /tmp)'
    if os.geteuid() == 0:
        return 'process (own process and user, OS limits, no files)'
    return 'process (own process, OS limits; same user, no filesystem isolation)'


def prepare_jailer() -> None:
    """Keep other processes of this user from tracing this trusted process or
    reading its memory (jails run at the process level by an ordinary user are
    such processes)."""
    _prctl(_PR_SET_DUMPABLE, 0)


def _server_command(level: str, packages: Sequence[str], control: int,
                    folder: str) -> list[str]:
    """Return the command that starts a jail server. A Python without its site
    module imports only from the folders named here: the standard library and
    installed packages, and the packages, on their own (a subpackage without its
    parent's other modules)."""
    python = [sys.prefix, sys.base_prefix, sys.exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable))]
    library = [path for path in sys.path if path and os.path.isdir(path)
               and any(path.startswith(prefix + os.sep) for prefix in python)]
    package_dirs = [os.path.dirname(importlib.import_module(name).__file__) for name in packages]
    uid_base = UID_BASE + (os.getpid() % 4_000_000) * 64
    if level == 'process':
        root = os.path.join(folder, 'packages')
        for name, path in zip(packages, package_dirs):
            if any(name.startswith(other + '.') for other in packages):
                continue  # there with its parent package
            link = os.path.join(root, *name.split('.'))
            os.makedirs(os.path.dirname(link), mode=0o755, exist_ok=True)
            os.symlink(path, link)
        return _python_command([root] + library, level, packages, control, uid_base)
    roots = [os.path.join(path, *['..'] * name.count('.'), '..')
             for name, path in zip(packages, package_dirs)]
    roots = list(dict.fromkeys(os.path.normpath(path) for path in roots))
    binds = [path for path in dict.fromkeys(python + package_dirs) if not path.startswith('/usr/')]
    return bwrap_options(binds) + _python_command(roots + library, level, packages, control,
                                                   uid_base)


def _python_command(path: list[str], level: str, packages: Sequence[str], control: int,
                    uid_base: int) -> list[str]:
    """Return the command of a fresh Python serving jails (see games.zygote.main)."""
    code = (f'import sys; sys.path[:] = {path!r}; import games.zygote; '
            f'games.zygote.main({control}, {level!r}, {list(packages)!r}, {uid_base})')
    return [sys.executable, '-I', '-S', '-B', '-c', code]


def bwrap_options(binds: Sequence[str], path: str = '/usr/bin:/bin', workdir: str = '/tmp',
                   server: bool = True) -> list[str]:
    """Return bubblewrap's command line up to the command: namespaces of its own,
    no network, no capabilities, the system and binds read-only, a private /tmp,
    the command's PATH and working folder. A jail server run by root has no user
    namespace and keeps the capabilities to change users and to kill its jails,
    since it gives each jail a user and namespaces of its own."""
    options = [shutil.which('bwrap') or 'bwrap', '--die-with-parent', '--new-session',
               '--cap-drop', 'ALL', '--clearenv',
               '--setenv', 'PATH', path, '--setenv', 'HOME', '/tmp',
               '--setenv', 'TMPDIR', '/tmp', '--ro-bind', '/usr', '/usr',
               '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--chdir', workdir]
    if server and os.geteuid() == 0:
        options += ['--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts',
                    '--unshare-cgroup-try', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID',
                    '--cap-add', 'CAP_KILL']
    else:
        options += ['--unshare-all']
    for top in ('/bin', '/sbin', '/lib', '/lib32', '/lib64'):
        if os.path.islink(top):
            options += ['--symlink', os.readlink(top), top]
        elif os.path.isdir(top):
            options += ['--ro-bind', top, top]
    for path in ('/etc/ld.so.cache', '/etc/localtime', '/etc/alternatives'):
        if os.path.exists(path):
            options += ['--ro-bind', path, path]
    made = {'/', '/usr', '/tmp', '/proc', '/dev'}
    for path in binds:
        folders = []
        parent = os.path.dirname(path)
        while parent not in made:
            folders.append(parent)
            made.add(parent)
            parent = os.path.dirname(parent)
        for folder in reversed(folders):  # every user may pass through them
            options += ['--perms', '0755', '--dir', folder]
        options += ['--ro-bind', path, path]
        made.add(path)
    return options


def _prctl(option: int, value: int) -> bool:
    """Call Linux's prctl; return False where it is missing or fails."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _shown(data: bytes, limit: int = 80) -> str:
    """Return the start of some bytes as printable text."""
    text = data[:limit].decode('utf-8', errors='replace')
    return repr(text + ('…' if len(data) > limit else ''))
