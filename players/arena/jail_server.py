"""Jail servers, the trusted side's end: each process that starts jails starts a
server (players.arena.zygote) per level and set of packages, a fresh Python spoken to
over a socket of its own, and asks it for each jail (see players.arena.jail)."""

from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict
from typing import Sequence

from . import zygote
from .zygote import UID_BASE

SERVER_START_SECONDS = 60.0
"""The longest a jail server may take to start and import the project."""
SERVER_STOP_SECONDS = 5.0
"""The longest a jail server may take to kill its jails and stop."""


class ServerLost(RuntimeError):
    """A jail server that died or stopped answering: a fault of the machinery (or
    of a player run by an ordinary user at the process level, which can signal
    it), never charged to a player's game."""


class JailServer:
    """A jail server (players.arena.zygote) of this process, at one level, for jails that
    may import the given packages, spoken to over a socket of its own."""

    def __init__(self, level: str, packages: tuple[str, ...]):
        """Start the server, which imports the packages while this process goes on:
        the first request waits until it is ready (see _wait_ready)."""
        self.lock = threading.Lock()
        self.folder = tempfile.mkdtemp(prefix='jail-server-')
        os.chmod(self.folder, 0o755)
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = _server_command(level, packages, theirs.fileno(), self.folder)
        self._errors = open(os.path.join(self.folder, 'errors'), 'w+b')
        """What the server said on its standard error, kept until it is ready."""
        try:
            self.process = subprocess.Popen(
                argv, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=self._errors, env={'PATH': '/usr/bin:/bin'},
                start_new_session=True)
        finally:
            theirs.close()

    def _wait_ready(self) -> None:
        """Wait until the server has imported the packages and said it is ready (at
        most SERVER_START_SECONDS); raise ServerLost, saying why, if it cannot start."""
        errors, self._errors = self._errors, None
        self.socket.settimeout(SERVER_START_SECONDS)
        try:
            ready = self._exchange(None, ())
        except ServerLost:
            errors.seek(0)
            said = errors.read().decode(errors='replace').strip().splitlines()
            self.close_server()
            reason = said[-1] if said else 'no reason given'
            raise ServerLost(f'the jail server did not start: {reason}')
        finally:
            errors.close()
        self.socket.settimeout(None)
        if ready != {'ready': True}:
            self.close_server()
            raise ServerLost(f'the jail server did not start: {ready}')

    def start(self, job: dict, limits, fds: Sequence[int]) -> int:
        """Start a jail with the given ends of its pipes; return its id. job is
        {'entry': 'module:function'}, or {'command': argv, 'workdir': folder or
        None, 'level': 'process' or 'bwrap'} for a program (see players.arena.zygote)."""
        return self._ask({'start': job, 'limits': asdict(limits)}, fds)['pid']

    def close(self, pid: int, grace: float, wait: bool = True) -> int | None:
        """Kill jail pid, after grace seconds for it to end by itself, with every
        process it started; return its wait status, or, without wait, return at
        once (None) and let the server do it."""
        if not wait:
            self._ask({'close': pid, 'grace': grace, 'reply': False})
            return None
        return self._ask({'close': pid, 'grace': grace})['status']

    def _ask(self, request: dict, fds: Sequence[int] = ()) -> dict | None:
        """Send a request, once the server is ready, and return its answer (None for
        a request that says it wants no reply)."""
        with self.lock:
            if self._errors is not None:
                self._wait_ready()
            return self._exchange(request, fds)

    def _exchange(self, request: dict | None, fds: Sequence[int]) -> dict | None:
        """Send a request (None: none, only read) and return the server's answer
        (None for a request that says it wants no reply)."""
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
        if self._errors is not None:
            self._errors.close()
            self._errors = None
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
    there is none or the last one died (a child process starts its own). A server
    just started imports the packages while this process goes on: call this early
    to have the server ready when the first jail is asked for."""
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



def forget(level: str, packages: tuple[str, ...]) -> None:
    """Stop this process's jail server for a level and packages, if it has one."""
    found = _servers.pop((level, packages), None)
    if found is not None:
        found.close_server()


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
    on_path = (*packages, __package__)  # the server's own modules too, not preloaded
    package_dirs = [os.path.dirname(importlib.import_module(name).__file__) for name in on_path]
    uid_base = UID_BASE + (os.getpid() % 4_000_000) * 64
    if level == 'process':
        root = os.path.join(folder, 'packages')
        for name, path in zip(on_path, package_dirs):
            if any(name.startswith(other + '.') for other in on_path):
                continue  # there with its parent package
            link = os.path.join(root, *name.split('.'))
            os.makedirs(os.path.dirname(link), mode=0o755, exist_ok=True)
            os.symlink(path, link)
        return _python_command([root] + library, level, packages, control, uid_base)
    roots = [os.path.join(path, *['..'] * name.count('.'), '..')
             for name, path in zip(on_path, package_dirs)]
    roots = list(dict.fromkeys(os.path.normpath(path) for path in roots))
    binds = [path for path in dict.fromkeys(python + package_dirs) if not path.startswith('/usr/')]
    return bwrap_options(binds) + _python_command(roots + library, level, packages, control,
                                                   uid_base)


def _python_command(path: list[str], level: str, packages: Sequence[str], control: int,
                    uid_base: int) -> list[str]:
    """Return the command of a fresh Python serving jails (see players.arena.zygote.main)."""
    code = (f'import sys; sys.path[:] = {path!r}; import players.arena.zygote; '
            f'players.arena.zygote.main({control}, {level!r}, {list(packages)!r}, {uid_base})')
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
