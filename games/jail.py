"""Jails: untrusted code in a process of its own, under operating-system limits,
spoken to only in lines of JSON; closing a jail kills everything it started.

The trusted side starts a Jail with an entry, 'module:function', which runs in
the jail as function(channel) and talks to the trusted side through the
channel's receive() and send(). Two levels:

- 'process': a child forked from this process, in its own session, with limits
  on memory, file size, open files and core dumps; when this process runs as
  root the child also drops to an unprivileged user id of its own, so it can
  neither signal nor write the files of the trusted side.
- 'bwrap': the same child, which then runs a fresh Python inside bubblewrap:
  no network, its own process, user and mount namespaces, a read-only view of
  the system and of the packages it needs, and a private /tmp; nothing else of
  the filesystem (results files, other players' files) is there to see.

A CommandJail runs a command (a program in any language) instead of an entry,
its standard input and output being the pipes, at the same levels and limits.

Only JSON crosses, each message one line of at most MESSAGE_LIMIT bytes, so
nothing the jail sends is ever unpickled, compared or called by the trusted side.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import functools
import gc
import importlib
import json
import os
import pkgutil
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any, Sequence

LEVELS = ('auto', 'bwrap', 'process')
"""The sandbox levels a user may ask for; 'auto' is bwrap where it works, else process."""
MESSAGE_LIMIT = 1 << 16
"""The most bytes of one message from a jail; a longer one is garbage."""
UID_BASE = 1_500_000_000
"""Jails started by root run as UID_BASE plus a number of their own: no such user
owns any file, and no two live jails share one."""
REQUEST_FD, ANSWER_FD = 3, 4
"""The jail's ends of its two pipes, the same in every jail."""
PRELOADED = ('array', 'bisect', 'collections', 'copy', 'dataclasses', 'enum', 'fractions',
             'functools', 'heapq', 'itertools', 'json', 'math', 'operator', 'random', 're',
             'statistics', 'string', 'time', 'typing')
"""Standard modules imported before a process-level jail drops to its own user,
which may not be allowed to read the Python installation (one under /root)."""

_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER = 1, 4, 36
_reaper = False


@dataclass(frozen=True)
class Limits:
    """The operating-system limits of each jail."""

    memory_mb: int = 2048
    """Address space, in MiB: far above what a search needs, so only a runaway player hits it."""
    file_mb: int = 16
    """The largest file the jail may write, in MiB."""
    processes: int = 64
    """Processes and threads of the jail's own user (a jail started by root)."""
    open_files: int = 256
    """Files the jail may hold open at once."""


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
        packages are the top-level packages of this project the jail may import
        (under bwrap, nothing else of the project is visible)."""
        if level not in ('process', 'bwrap'):
            raise ValueError(f'unknown jail level {level!r}')
        self.level, self.limits = level, limits
        self.uid = _jail_uid() if os.geteuid() == 0 else None
        self.home = _private_folder(self.uid) if level == 'process' else None
        argv = _bwrap_argv(entry, packages) if level == 'bwrap' else None
        request_read, self._request = os.pipe()
        self._answer, answer_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns from here
            _become_jail(request_read, answer_write, self, entry, argv)
        _live.add(self.pid)
        os.close(request_read)
        os.close(answer_write)
        self._buffer = b''
        self.status: int | None = None

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
        """Kill the jail and everything it started, and free what it used."""
        self._reap()
        for fd in (self._request, self._answer):
            try:
                os.close(fd)
            except OSError:
                pass
        self._request = self._answer = -1
        if _reaper:
            kill_strays()
        if self.home:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    def __enter__(self) -> Jail:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _reap(self, grace: float = 0.0) -> None:
        """Give the jail's process grace seconds to end by itself, kill its process
        group, and collect its exit status, once."""
        if self.status is None:
            deadline = time.monotonic() + grace
            while (time.monotonic() < deadline and os.waitid(
                    os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None):
                time.sleep(0.005)
            _kill_group(self.pid)
            self.status = os.waitpid(self.pid, 0)[1]
            _live.discard(self.pid)

    def _ended(self) -> str:
        """Reap the jail's process, which closed its end of the pipe, and say how it ended."""
        self._reap(grace=1.0)
        if os.WIFSIGNALED(self.status):
            number = os.WTERMSIG(self.status)
            return f'its process was killed by {signal.Signals(number).name}'
        return f'its process exited with status {os.WEXITSTATUS(self.status)}'


class Channel:
    """The jail's end of its pipes: JSON messages, one a line."""

    def __init__(self, read_fd: int = REQUEST_FD, write_fd: int = ANSWER_FD):
        self._reader = os.fdopen(read_fd, 'rb')
        self._write_fd = write_fd

    def receive(self) -> Any:
        """Return the next message from the trusted side; raise EOFError when it is gone."""
        line = self._reader.readline()
        if not line:
            raise EOFError
        return json.loads(line)

    def send(self, message: Any) -> None:
        """Send one message to the trusted side."""
        data = (json.dumps(message, separators=(',', ':')) + '\n').encode()
        while data:
            data = data[os.write(self._write_fd, data):]


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
    """Return why bubblewrap cannot jail players here, or None if it can."""
    if shutil.which('bwrap') is None:
        return 'bubblewrap is not installed (apt-get install bubblewrap)'
    try:
        probe = subprocess.run(_bwrap_options(()) + ['true'], capture_output=True, timeout=10)
    except (OSError, subprocess.SubprocessError) as error:
        return f'bwrap does not run here: {error}'
    if probe.returncode:
        return f'bwrap does not work here: {probe.stderr.decode(errors="replace").strip()}'
    return None


def describe(level: str) -> str:
    """Return a short line saying what a jail level isolates, for headers."""
    if level == 'bwrap':
        return 'bwrap (own namespaces, no network, read-only system, private /tmp)'
    if os.geteuid() == 0:
        return 'process (own process and user, OS limits; no filesystem isolation)'
    return 'process (own process, OS limits; same user, no filesystem isolation)'


def prepare_jailer(packages: Sequence[str] = ()) -> None:
    """Prepare this process to start jails: forbid other processes of this user to
    trace it or read its memory and, run by root, import every module of packages
    and the standard modules a process-level jail may need, which it may be unable
    to read once it has its own user (a Python under /root, a project in a private
    folder)."""
    _prctl(_PR_SET_DUMPABLE, 0)
    if os.geteuid() == 0:
        _preload(packages)
    gc.freeze()  # what exists now is shared with every jail: never copied by a collection


def _preload(packages: Sequence[str]) -> None:
    """Import every module of packages, and the standard modules a player may need."""
    for name in PRELOADED:
        importlib.import_module(name)
    for package in packages:
        folder = os.path.dirname(importlib.import_module(package).__file__)
        for module in pkgutil.walk_packages([folder], f'{package}.'):
            try:
                importlib.import_module(module.name)
            except ImportError:  # a module for an optional extra that is not installed
                pass


def become_reaper() -> None:
    """Make this process adopt the orphans of its jails, so that closing a jail can
    kill the processes a player started and hid in sessions of their own. Only for
    processes whose children are all jails."""
    global _reaper
    _reaper = _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    prepare_jailer()


def kill_strays() -> None:
    """Kill and reap every child of this process that is not a live jail (orphans
    adopted from closed jails)."""
    while True:
        strays = [pid for pid in _children() if pid not in _live]
        if not strays:
            return
        for pid in strays:
            _kill_group(pid)
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass


_live: set = set()
"""The pids of the jails this process has open."""


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


def _become_jail(request_read: int, answer_write: int, jail: Jail, entry: str, argv) -> None:
    """In the forked child: take the jail's pipes and limits, then run entry (or
    bubblewrap, which runs it in a fresh Python). Never returns."""
    try:
        os.setsid()
        high_request = fcntl.fcntl(request_read, fcntl.F_DUPFD, 10)
        high_answer = fcntl.fcntl(answer_write, fcntl.F_DUPFD, 10)
        os.dup2(high_request, REQUEST_FD, inheritable=True)
        os.dup2(high_answer, ANSWER_FD, inheritable=True)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.closerange(ANSWER_FD + 1, _max_fd())
        _set_limits(jail.limits, jail.uid if jail.level == 'process' else None)
        if argv is not None:
            _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
            os.execv(argv[0], argv)
        os.chdir(jail.home)
        os.environ.clear()  # no secret of the trusted side's environment
        os.environ.update(PATH='/usr/bin:/bin', HOME=jail.home, TMPDIR=jail.home)
        if jail.uid is not None:
            os.setgroups([])
            os.setresgid(jail.uid, jail.uid, jail.uid)
            os.setresuid(jail.uid, jail.uid, jail.uid)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        child_main(entry)
    finally:
        os._exit(1)


def child_main(entry: str) -> None:
    """Run a jail's entry, 'module:function', as function(channel), with standard
    streams silenced and signals as by default; the process then ends."""
    for name in ('SIGINT', 'SIGTERM', 'SIGALRM', 'SIGPIPE'):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    sys.stdin = open(os.devnull)
    sys.stdout = sys.stderr = open(os.devnull, 'w')
    module, function = entry.split(':')
    try:
        getattr(importlib.import_module(module), function)(Channel())
    finally:
        os._exit(0)


def _set_limits(limits: Limits, uid: int | None) -> None:
    """Set the jail's resource limits (process count only for a user of its own)."""
    mib = 1 << 20
    wanted = [(resource.RLIMIT_AS, limits.memory_mb * mib), (resource.RLIMIT_CORE, 0),
              (resource.RLIMIT_FSIZE, limits.file_mb * mib),
              (resource.RLIMIT_NOFILE, limits.open_files)]
    if uid is not None:
        wanted.append((resource.RLIMIT_NPROC, limits.processes))
    for kind, value in wanted:
        resource.setrlimit(kind, (value, value))


def _bwrap_options(binds: Sequence[str], path: str = '/usr/bin:/bin',
                   workdir: str = '/tmp') -> list[str]:
    """Return bubblewrap's command line up to the command: every namespace of its
    own, no capabilities, the system and binds read-only, a private /tmp, the
    command's PATH and its working folder."""
    options = [shutil.which('bwrap') or 'bwrap', '--unshare-all', '--die-with-parent',
               '--new-session', '--cap-drop', 'ALL', '--clearenv',
               '--setenv', 'PATH', path, '--setenv', 'HOME', '/tmp',
               '--setenv', 'TMPDIR', '/tmp', '--ro-bind', '/usr', '/usr',
               '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp', '--chdir', workdir]
    for top in ('/bin', '/sbin', '/lib', '/lib32', '/lib64'):
        if os.path.islink(top):
            options += ['--symlink', os.readlink(top), top]
        elif os.path.isdir(top):
            options += ['--ro-bind', top, top]
    for path in ('/etc/ld.so.cache', '/etc/localtime', '/etc/alternatives'):
        if os.path.exists(path):
            options += ['--ro-bind', path, path]
    if os.geteuid() == 0:
        options += ['--uid', '65534', '--gid', '65534']
    for path in binds:
        options += ['--ro-bind', path, path]
    return options


def _bwrap_argv(entry: str, packages: Sequence[str]) -> list[str]:
    """Return the command that runs entry in a fresh Python inside bubblewrap, with
    the Python installation and the named packages of this project visible."""
    package_dirs = [os.path.dirname(importlib.import_module(name).__file__)
                    for name in packages]
    roots = list(dict.fromkeys(os.path.dirname(path) for path in package_dirs))
    python = [sys.prefix, sys.base_prefix, sys.exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable))]
    site = [path for path in sys.path if path and os.path.isdir(path)
            and any(path.startswith(prefix + os.sep) for prefix in python)]
    binds = [path for path in dict.fromkeys(python + package_dirs) if not path.startswith('/usr/')]
    code = (f'import sys; sys.path[:] = {roots + site!r}; '
            f'import games.jail; games.jail.child_main({entry!r})')
    return _bwrap_options(binds) + [sys.executable, '-I', '-B', '-c', code]


def _jail_uid() -> int:
    """Return a user id no other live jail of this machine's tournaments has."""
    _jail_uid.count = getattr(_jail_uid, 'count', 0) + 1
    return UID_BASE + (os.getpid() % 4_000_000) * 64 + _jail_uid.count % 64


def _private_folder(uid: int | None) -> str:
    """Make the folder a process-level jail works in, owned by its user."""
    folder = tempfile.mkdtemp(prefix='jail-')
    if uid is not None:
        os.chown(folder, uid, uid)
    return folder


def _kill_group(pid: int) -> None:
    """Kill a jail's process and its process group (its session), ignoring those
    already gone: the process itself may not have made its group yet."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _max_fd() -> int:
    """Return one more than the highest file descriptor this process may have."""
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


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


# Jails that run a command: a program in any language, spoken to on its standard
# input and output. The same limits, levels and end as the jails above; what the
# program writes on its standard error goes to a third pipe, kept bounded.

PROGRAM_PATH = '/usr/local/bin:/usr/bin:/bin'
"""Where a jailed command and the programs it starts are looked for."""
ERRORS_LIMIT = 4096
"""The most bytes of a program's standard error kept: the last ones it wrote."""
UNREAD_LIMIT = 1 << 20
"""The most bytes sent to a program that it may leave unread; past them it is garbled."""


class CommandJail(Jail):
    """A jail that runs a command (an argv list) instead of a Python entry. The
    program's standard input and output are the jail's pipes, one JSON message a
    line; its standard error goes to a pipe of which the last ERRORS_LIMIT bytes are
    kept (errors()). Sending never blocks: what the program has not read yet waits
    here and goes out while receive() waits for the answer. At 'process' level the
    program runs in workdir (default: the jail's private folder), as the jail's own
    user when started by root; at 'bwrap' level the folders are visible to it,
    read-only, at their own paths, beside the read-only system and a private /tmp,
    and it runs in workdir (default: /tmp). Its environment is PATH (PROGRAM_PATH),
    HOME and TMPDIR (its private folder)."""

    def __init__(self, argv: Sequence[str], level: str = 'process', limits: Limits = Limits(),
                 folders: Sequence[str] = (), workdir: str | None = None):
        if level not in ('process', 'bwrap') or not argv:
            raise ValueError(f'a command jail needs a command and a level, got {level!r}, {argv!r}')
        self.level, self.limits = level, limits
        self.uid = _jail_uid() if os.geteuid() == 0 else None
        self.home = _private_folder(self.uid) if level == 'process' else None
        if level == 'bwrap':
            command = _bwrap_options(folders, PROGRAM_PATH, workdir or '/tmp') + list(argv)
        else:
            command = list(argv)
        request_read, self._request = os.pipe()
        self._answer, answer_write = os.pipe()
        self._errors, errors_write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child never returns from here
            _become_program((request_read, answer_write, errors_write), self, command,
                            workdir or self.home)
        _live.add(self.pid)
        for fd in (request_read, answer_write, errors_write):
            os.close(fd)
        for fd in (self._request, self._errors):
            os.set_blocking(fd, False)
        self._exited = os.pidfd_open(self.pid)  # readable once the program's process ends
        self._buffer = self._unsent = self._kept = b''
        self.status: int | None = None

    def send(self, message: Any) -> None:
        """Queue one JSON message for the program and send what it will take now;
        raise JailError if it is gone, or 'garbled' if it leaves too much unread."""
        self._unsent += (json.dumps(message, separators=(',', ':')) + '\n').encode()
        if len(self._unsent) > UNREAD_LIMIT:
            raise JailError(f'left over {UNREAD_LIMIT} bytes of its input unread', 'garbled')
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
        JailError('died') when the program's process ends without an answer, even
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
                raise JailError(self._ended(), 'died')
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


def _become_program(pipes: tuple[int, int, int], jail: CommandJail, command: list[str],
                    workdir: str) -> None:
    """In the forked child: make the pipes the standard input, output and error,
    take the jail's limits (and, at process level, its folder, environment and
    user), then run the command (bubblewrap, at bwrap level). Never returns; a
    command that cannot be run says why on standard error."""
    try:
        os.setsid()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in pipes]
        for target, fd in enumerate(high):
            os.dup2(fd, target, inheritable=True)
        os.closerange(3, _max_fd())
        _set_limits(jail.limits, jail.uid if jail.level == 'process' else None)
        environment = os.environ.copy() if jail.level == 'bwrap' else {
            'PATH': PROGRAM_PATH, 'HOME': jail.home, 'TMPDIR': jail.home}
        if jail.level == 'process':
            os.chdir(workdir)
            if jail.uid is not None:
                os.setgroups([])
                os.setresgid(jail.uid, jail.uid, jail.uid)
                os.setresuid(jail.uid, jail.uid, jail.uid)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        os.execvpe(command[0], command, environment)
    except OSError as error:
        hint = (' (a process jail started by root runs as a user of its own, which must be '
                'able to read the program and its folder: chmod o+rx, or use bwrap)'
                if error.errno == errno.EACCES and jail.uid is not None else '')
        os.write(2, f'cannot run {command[0]}: {error.strerror or error}{hint}\n'.encode())
    finally:
        os._exit(127)
