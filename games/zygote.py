"""The jail server: a clean Python process that forks every jail.

A trusted process (a referee, the grader, `play`) never forks a jail itself, since
a fork would carry its memory (the referee's frames, the dice, other players'
code) into the jail. It starts a server instead, a fresh interpreter that
imports the project's packages and nothing of the trusted side, and asks it for
each jail (the pattern of Android's zygote and nsjail's fork server). See
games.jail for the trusted side's end; this module runs only in the server and
in the jails it forks.

The server reads requests from its control socket, one JSON packet each:
{"start": entry, "limits": {...}} with the jail's two pipe ends passed along
(SCM_RIGHTS), answered {"pid": N}; {"close": N, "grace": seconds}, answered
{"status": wait status} once jail N and everything it started are dead (with
"reply": false, not answered).

At level 'process' each jail is a fork of the server in a session of its own,
under operating-system limits; when the server runs as root, the jail also has
a user id of its own and is shut in (chroot) an empty private folder, so it sees
no file at all. At level 'bwrap' the server itself runs inside bubblewrap (a
read-only system, no network), and each jail gets namespaces of its own inside
it: user, mount, process, network and IPC, a fresh /tmp, no /proc, and no
capabilities; its process-count limit is then its own.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import gc
import importlib
import json
import os
import pkgutil
import resource
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Sequence

UID_BASE = 1_500_000_000
"""Jails of a server run by root run as UID_BASE plus a number of their own: no such
user owns any file, and no two live jails share one."""
REQUEST_FD, ANSWER_FD = 3, 4
"""The jail's ends of its two pipes, the same in every jail."""
PRELOADED = ('array', 'bisect', 'collections', 'collections.abc', 'copy', 'csv',
             'dataclasses', 'datetime', 'decimal', 'encodings.ascii', 'encodings.latin_1',
             'encodings.utf_8', 'enum', 'fractions', 'functools', 'hashlib', 'heapq',
             'itertools', 'json', 'math', 'numbers', 'operator', 'queue', 'random', 're',
             'statistics', 'string', 'struct', 'textwrap', 'threading', 'time', 'traceback',
             'typing', 'unicodedata')
"""Standard modules a jail finds imported: a jail shut in an empty folder can import
nothing else."""
PACKET = 1 << 16
"""The largest control message."""
PROGRAM_PATH = '/usr/local/bin:/usr/bin:/bin'
"""Where a jailed command and the programs it starts are looked for."""

_CLONE_NEWNS, _CLONE_NEWUTS, _CLONE_NEWIPC = 0x20000, 0x4000000, 0x8000000
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET = 0x10000000, 0x20000000, 0x40000000
_MS_RDONLY, _MS_NOSUID, _MS_NODEV, _MS_REC, _MS_PRIVATE = 1, 2, 4, 0x4000, 0x40000
_PR_SET_PDEATHSIG, _PR_SET_DUMPABLE, _PR_SET_CHILD_SUBREAPER = 1, 4, 36
_PR_SET_NO_NEW_PRIVS = 38
_LIBC = ctypes.CDLL(None, use_errno=True)


def main(control_fd: int, level: str, packages: Sequence[str], uid_base: int) -> None:
    """Serve jails on the control socket until the trusted side goes; run by root,
    give them the user ids from uid_base on."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    for name in ('SIGINT', 'SIGTERM'):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    preload(packages)
    _prctl(_PR_SET_DUMPABLE, 0)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    control = socket.socket(fileno=control_fd)
    control.send(json.dumps({'ready': True}).encode())
    Server(control, level, uid_base).serve()


def probe(channel) -> None:
    """A jail's entry that only says it runs (see games.jail.bwrap_problem)."""
    channel.send({'probe': True})


def preload(packages: Sequence[str]) -> None:
    """Import the standard modules of PRELOADED and every module of packages (a
    package's subpackages only when named themselves), then freeze them out of the
    collector, so that forked jails share their pages: a jail shut in an empty
    folder can import nothing more, and a smaller server forks faster."""
    for name in PRELOADED:
        importlib.import_module(name)
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

    def __init__(self, control: socket.socket, level: str, uid_base: int):
        self.control, self.level, self.uid_base = control, level, uid_base
        self.root = os.geteuid() == 0
        self.live: dict[int, str | None] = {}
        """Each live jail's pid and its private folder (None if it has none)."""
        self.count = 0

    def serve(self) -> None:
        """Answer requests until the control socket closes."""
        while True:
            try:
                data, fds, _, _ = socket.recv_fds(self.control, PACKET, 3)
            except OSError:
                return
            if not data:
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
        """Fork a jail for a job with the pipe ends fds; return its pid. The job is
        {'entry': 'module:function'} (see child_main), or {'command': argv,
        'workdir': folder or None, 'level': level} for a program, which the jail
        executes (at 'bwrap', argv is bubblewrap's)."""
        self.count += 1
        uid = self.uid_base + self.count % 64 if self.root else None
        level = job.get('level', self.level)
        folder = None
        if level == 'process':
            folder = tempfile.mkdtemp(prefix='jail-')
            if uid is not None:
                os.chown(folder, uid, uid)
        pid = os.fork()
        if pid == 0:
            try:
                if 'command' in job:
                    _run_command(job, fds, folder, uid, limits)
                _take_pipes(*fds)
                try:
                    if level == 'bwrap':
                        _enter_namespaces(limits, uid)
                    else:
                        _shut_in(folder, uid, limits)
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
            shutil.rmtree(folder, ignore_errors=True)
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
    """Run a jail's entry, 'module:function', as function(channel), with standard
    streams silenced and signals as by default; the process then ends."""
    for name in ('SIGINT', 'SIGTERM', 'SIGALRM', 'SIGPIPE'):
        signal.signal(getattr(signal, name), signal.SIG_DFL)
    sys.stdin = os.fdopen(os.dup(0))
    sys.stdout = sys.stderr = os.fdopen(os.dup(1), 'w')
    module, function = entry.split(':')
    try:
        getattr(importlib.import_module(module), function)(Channel())
    finally:
        os._exit(0)


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


def _run_command(job: dict, fds: list[int], folder: str | None, uid: int | None,
                 limits: dict) -> None:
    """In a new jail: run a program with the pipes as its standard input, output
    and error, under the jail's limits, in its working folder (at 'process', the
    given one or the jail's private folder) and, started by root, as the jail's
    own user. Never returns; a command that cannot be run says why on its
    standard error."""
    command = job['command']
    try:
        os.setsid()
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in fds]
        for target, fd in enumerate(high):
            os.dup2(fd, target, inheritable=True)
        os.closerange(3, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        processes = limits['processes'] if uid is not None else _own_tasks() + limits['processes']
        _set_limits(limits, processes)
        environment = {}  # bubblewrap sets the program's own
        if folder is not None:
            environment = {'PATH': PROGRAM_PATH, 'HOME': folder, 'TMPDIR': folder}
            os.chdir(job['workdir'] or folder)
        if uid is not None:
            _become(uid)
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
        os.execvpe(command[0], command, environment)
    except OSError as error:
        hint = (' (a jail started by root runs as a user of its own, which must be able '
                'to read the program and its folder: chmod o+rx)'
                if error.errno == errno.EACCES and uid is not None else '')
        os.write(2, f'cannot run {command[0]}: {error.strerror or error}{hint}\n'.encode())
    finally:
        os._exit(127)


def _take_pipes(request_read: int, answer_write: int) -> None:
    """In a new jail: its own session, the pipes on REQUEST_FD and ANSWER_FD, the
    standard streams on /dev/null, and no other file open."""
    os.setsid()
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (request_read, answer_write)]
    os.dup2(high[0], REQUEST_FD)
    os.dup2(high[1], ANSWER_FD)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.closerange(ANSWER_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


def _shut_in(folder: str, uid: int | None, limits: dict) -> None:
    """In a process-level jail: limits, a clean environment and the private folder;
    started by root, shut in that folder under a user of its own."""
    processes = limits['processes'] if uid is not None else _own_tasks() + limits['processes']
    _set_limits(limits, processes)
    os.environ.clear()  # no secret of anyone's environment
    if uid is None:
        os.chdir(folder)
        os.environ.update(PATH='/usr/bin:/bin', HOME=folder, TMPDIR=folder)
        return
    os.chroot(folder)
    os.chdir('/')
    os.environ.update(PATH='/usr/bin:/bin', HOME='/', TMPDIR='/')
    _become(uid)
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)


def _become(uid: int) -> None:
    """Take a user (and group) id of one's own, with no other group."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)


def _enter_namespaces(limits: dict, uid: int | None) -> None:
    """In a jail of a server inside bubblewrap: a user of its own (uid, when the
    server runs as root), then namespaces of its own (user, mount, process,
    network, IPC), a fresh /tmp and no /proc, and no capabilities. This process
    waits as the namespace's parent; the jail goes on in its child, the
    namespace's first process, whose death kills every process in it."""
    if uid is not None:
        _become(uid)
        _prctl(_PR_SET_DUMPABLE, 1)  # to write its own maps in /proc/self
    uid, gid = os.getuid(), os.getgid()
    _check(_LIBC.unshare(_CLONE_NEWUSER | _CLONE_NEWNS | _CLONE_NEWPID | _CLONE_NEWNET
                         | _CLONE_NEWIPC | _CLONE_NEWUTS), 'unshare')
    for name, text in (('setgroups', 'deny'), ('uid_map', f'{uid} {uid} 1'),
                       ('gid_map', f'{gid} {gid} 1')):
        with open(f'/proc/self/{name}', 'w') as file:
            file.write(text)
    _mount(None, '/', None, _MS_REC | _MS_PRIVATE)
    _mount('tmpfs', '/tmp', 'tmpfs', _MS_NOSUID | _MS_NODEV,
           f'size={limits["file_mb"] * 4}m,mode=1777')
    _mount('tmpfs', '/proc', 'tmpfs', _MS_RDONLY | _MS_NOSUID | _MS_NODEV, 'size=4k,mode=555')
    child = os.fork()
    if child:
        _wait_as_parent(child)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    _set_limits(limits, limits['processes'])
    _drop_capabilities()
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    _prctl(_PR_SET_DUMPABLE, 0)
    os.chdir('/tmp')
    os.environ.clear()
    os.environ.update(PATH='/usr/bin:/bin', HOME='/tmp', TMPDIR='/tmp')


def _wait_as_parent(child: int) -> None:
    """Wait for a namespace's first process and end as it ended. Never returns."""
    os.closerange(0, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    status = os.waitpid(child, 0)[1]
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def _set_limits(limits: dict, processes: int) -> None:
    """Set a jail's resource limits."""
    mib = 1 << 20
    for kind, value in ((resource.RLIMIT_AS, limits['memory_mb'] * mib),
                        (resource.RLIMIT_CORE, 0),
                        (resource.RLIMIT_FSIZE, limits['file_mb'] * mib),
                        (resource.RLIMIT_NOFILE, limits['open_files']),
                        (resource.RLIMIT_NPROC, processes)):
        resource.setrlimit(kind, (value, value))


def _own_tasks() -> int:
    """Return how many processes and threads this process's user has now (the
    process limit of a user counts them all)."""
    uid, count = os.getuid(), 0
    for name in os.listdir('/proc'):
        if name.isdigit():
            try:
                if os.stat(f'/proc/{name}').st_uid == uid:
                    count += len(os.listdir(f'/proc/{name}/task'))
            except OSError:
                continue
    return count


class _CapHeader(ctypes.Structure):
    _fields_ = [('version', ctypes.c_uint32), ('pid', ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [('effective', ctypes.c_uint32), ('permitted', ctypes.c_uint32),
                ('inheritable', ctypes.c_uint32)]


def _drop_capabilities() -> None:
    """Give up every capability (those a new user namespace grants its first user)."""
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    _check(_LIBC.capset(ctypes.byref(header), data), 'capset')


def _mount(source: str | None, target: str, kind: str | None, flags: int,
           options: str | None = None) -> None:
    """Call Linux's mount."""
    encoded = [None if text is None else text.encode() for text in (source, target, kind, options)]
    _check(_LIBC.mount(encoded[0], encoded[1], encoded[2], flags, encoded[3]), f'mount {target}')


def _check(result: int, what: str) -> None:
    """Raise OSError if a libc call failed."""
    if result != 0:
        number = ctypes.get_errno()
        raise OSError(number, f'{what}: {os.strerror(number)}')


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


def _prctl(option: int, value: int) -> bool:
    """Call Linux's prctl; return False where it fails."""
    return _LIBC.prctl(option, value, 0, 0, 0) == 0
