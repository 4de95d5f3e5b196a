"""Jail servers, the trusted side's end: each process that starts jails starts a
server (players.sandbox.jail_server_main, then players.sandbox.jail_server) per
level and set of packages, a fresh Python spoken to over a socket of its own, and
asks it for each jail (see players.sandbox.jail). The server, not this process, makes and removes its
folder, so that the folder goes even when this process is killed."""

from __future__ import annotations

import atexit
import glob
import importlib
import inspect
import json
import os
import socket
import site
import subprocess
import sys
import sysconfig
import tempfile
import threading
from dataclasses import asdict
from typing import Any, BinaryIO, Sequence

from . import jail_server
from .allowed import AllowedPackages, module_name, with_entries
from .extras import JAIL_EXTRAS
from .folders import remove_folder
from .jail_server import UID_BASE
from .levels import LEVELS, ServerPlan

SERVER_START_SECONDS = 60.0
"""The longest a jail server may take to start and import the project."""
SERVER_STOP_SECONDS = 5.0
"""The longest a jail server may take to kill its jails and stop."""
SERVER_ENVIRONMENT = {'PATH': '/usr/bin:/bin', **dict.fromkeys(
    ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS', 'NUMEXPR_NUM_THREADS'), '1')}
"""A jail server's environment: numerical libraries it imports for the jails (numpy's
BLAS) start no threads, which a fork would not carry into a jail, and a jail counts
its threads against its limit."""


class ServerLost(RuntimeError):
    """A jail server that died or stopped answering: a fault of the machinery (or
    of a player run by an ordinary user at the process level, which can signal
    it), never charged to a player's game."""


class JailServer:
    """A jail server (players.sandbox.jail_server) of this process, at one level, for
    jails that may import the given packages, spoken to over a socket of its own."""

    def __init__(self, level: str, packages: tuple[str, ...],
                 allowed: AllowedPackages = AllowedPackages()):
        """Start the server, which imports the packages (this project's, and the
        installed ones allowed: see players.sandbox.allowed) while this process goes
        on: the first request waits until it is ready (see _wait_ready). At the
        'process' level the server makes a folder of its own in this process's
        temporary folder (tempfile's: TMPDIR) and removes it as it ends, however
        this process ends (see players.sandbox.jail_server_main); in bubblewrap it makes
        none out here."""
        self.lock = threading.Lock()
        self.temporary = tempfile.gettempdir() if LEVELS[level].own_folder else None
        self.socket, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        argv = _server_command(level, packages, allowed, theirs.fileno(), self.temporary)
        # without a name: nothing to remove
        self._errors: BinaryIO | None = tempfile.TemporaryFile()
        """What the server said on its standard error, kept until it is ready."""
        try:
            self.process = subprocess.Popen(
                argv, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL, stderr=self._errors, env=SERVER_ENVIRONMENT,
                start_new_session=True)
        finally:
            theirs.close()

    def _wait_ready(self, errors: BinaryIO) -> None:
        """Wait until the server has imported the packages and said it is ready (at
        most SERVER_START_SECONDS); raise ServerLost, saying why (from its errors), if it
        cannot start."""
        self._errors = None
        self.socket.settimeout(SERVER_START_SECONDS)
        try:
            ready = self._exchange(None, ())
        except ServerLost:
            errors.seek(0)
            said = errors.read().decode(errors='replace').strip().splitlines()
            self.close_server()
            reason = said[-1] if said else 'no reason given'
            raise ServerLost(f'the jail server did not start: {reason}') from None
        finally:
            errors.close()
        self.socket.settimeout(None)
        if ready != {'ready': True}:
            self.close_server()
            raise ServerLost(f'the jail server did not start: {ready}')

    def start(self, job: dict, limits, fds: Sequence[int]) -> int:
        """Start a jail with the given ends of its pipes; return its id. job is
        {'entry': 'module:function'}, or {'command': argv, 'workdir': folder or
        None, 'level': 'process' or 'bwrap'} for a program (see
        players.sandbox.jail_server)."""
        return self._ask({'start': job, 'limits': asdict(limits)}, fds)['pid']

    def close(self, pid: int, grace: float, wait: bool = True) -> int | None:
        """Kill jail pid, after grace seconds for it to end by itself, with every
        process it started; return its wait status, or, without wait, return at
        once (None) and let the server do it."""
        if not wait:
            self._ask({'close': pid, 'grace': grace, 'reply': False})
            return None
        return self._ask({'close': pid, 'grace': grace})['status']

    def _ask(self, request: dict, fds: Sequence[int] = ()) -> Any:
        """Send a request, once the server is ready, and return its answer (None for
        a request that says it wants no reply)."""
        with self.lock:
            if self._errors is not None:
                self._wait_ready(self._errors)
            return self._exchange(request, fds)

    def _exchange(self, request: dict | None, fds: Sequence[int]) -> Any:
        """Send a request (None: none, only read) and return the server's answer
        (None for a request that says it wants no reply)."""
        try:
            if request is not None:
                socket.send_fds(self.socket, [json.dumps(request).encode()], list(fds))
                if request.get('reply') is False:
                    return None
            answer = self.socket.recv(jail_server.PACKET)
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
        if self.temporary is not None:  # the folder of a server killed before it removed it
            pattern = os.path.join(glob.escape(self.temporary), f'jail-server-{self.process.pid}-*')
            for folder in glob.glob(pattern):
                remove_folder(folder)


SERVERS_A_PROCESS = 8
"""How many jail servers of one process may run at once with user ids of their own."""
_servers_started = 0
"""The jail servers this process has started, which hands each its block of user ids."""
_servers: dict = {}
"""This process's jail servers, by level and packages."""
_servers_pid = os.getpid()


def server(level: str, packages: tuple[str, ...],
           allowed: AllowedPackages = AllowedPackages()) -> JailServer:
    """Return this process's jail server for a level, packages and allowed installed
    packages, starting it if there is none or the last one died (a child process
    starts its own). A server just started imports the packages while this process
    goes on: call this early to have the server ready when the first jail is asked for.
    A server started before JAIL_EXTRAS last changed is not the one asked for (its jails
    lack what was added since, such as an installed plugin's packages)."""
    global _servers_pid
    if _servers_pid != os.getpid():  # a fork: the parent's servers are the parent's
        _servers.clear()
        _servers_pid = os.getpid()
    key = (level, packages, allowed, tuple(JAIL_EXTRAS))
    found = _servers.get(key)
    if found is None or not found.alive():
        if found is not None:
            found.close_server()
        found = _servers[key] = JailServer(level, packages, allowed)
    return found


@atexit.register
def close_servers() -> None:
    """Stop every jail server of this process (and so every jail)."""
    if _servers_pid == os.getpid():
        for found in _servers.values():
            found.close_server()
    _servers.clear()


def forget(level: str, packages: tuple[str, ...],
           allowed: AllowedPackages = AllowedPackages()) -> None:
    """Stop this process's jail server for a level, packages and allowed installed
    packages, if it has one."""
    found = _servers.pop((level, packages, allowed, tuple(JAIL_EXTRAS)), None)
    if found is not None:
        found.close_server()


def _server_command(level: str, packages: Sequence[str], allowed: AllowedPackages,
                    control: int, temporary: str | None) -> list[str]:
    """Return the command that starts a jail server (players.sandbox.jail_server_main),
    which makes its folder in temporary (None: none). A Python without its site
    module imports only the standard library, the packages, each on its own (a
    subpackage without its parent's other modules), and the installed packages
    allowed and those of JAIL_EXTRAS (which also give the server environment
    variables), each found at its place (jail_server_main.PackageFinder); the other
    installed packages are not on its path. Other files are out of its jails' sight
    in bubblewrap, and in a view of the system of its own when run by root at the
    'process' level (see players.sandbox.levels)."""
    python = [sys.prefix, sys.base_prefix, sys.exec_prefix,
              os.path.dirname(os.path.realpath(sys.executable))]
    sites = _site_folders()
    library = [path for path in sys.path if path and os.path.isdir(path) and path not in sites
               and any(path.startswith(prefix + os.sep) for prefix in python)]
    on_path = (*packages, __package__)  # the server's own modules too, not preloaded
    places = {name: os.path.dirname(inspect.getfile(importlib.import_module(name)))
              for name in on_path if not any(name.startswith(other + '.') for other in on_path)}
    settings: dict[str, Any] = {'control': control, 'level': level, 'packages': list(packages),
                'preload': list(allowed.modules), 'temporary': temporary,
                'uid_base': _uid_base(), 'environment': {}}
    for extra in JAIL_EXTRAS:
        packages_given, environment = extra()
        allowed = with_entries(allowed, dict(packages_given.entries))
        settings['environment'].update(environment)
    places.update(_importable(allowed.entries))
    over = list(dict.fromkeys([*places.values(), *(path for _, path in allowed.entries)]))
    settings.update(places=places, path=library)
    start = [sys.executable, '-I', '-S', '-B',
             os.path.join(os.path.dirname(os.path.abspath(__file__)), 'jail_server_main.py')]
    return LEVELS[level].server_command(ServerPlan(start, settings, library, sites, python, over))


def _importable(entries: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Return the entries of installed packages that are modules, by the name they
    import by (see allowed.module_name)."""
    named = ((module_name(name, path), path) for name, path in entries)
    return {name: path for name, path in named if name is not None}


def _uid_base() -> int:
    """Return the first of the 64 user ids of a new jail server's jails run by root: a
    block of its own among this process's servers (SERVERS_A_PROCESS at once) and
    every other process's, since two jails that share a user id could signal each
    other. (A pid is below 2**22, so the blocks stay below 2**32.)"""
    global _servers_started
    _servers_started += 1
    slot = os.getpid() * SERVERS_A_PROCESS + _servers_started % SERVERS_A_PROCESS
    return UID_BASE + slot * 64


def _site_folders() -> list[str]:
    """Return the folders installed packages live in (site-packages), this Python's
    and its base's, which a jail server leaves off its path."""
    folders = {*site.getsitepackages(), site.getusersitepackages(),
               *(sysconfig.get_path(kind, vars=scheme) for kind in ('purelib', 'platlib')
                 for scheme in ({}, {'base': sys.base_prefix, 'platbase': sys.base_prefix}))}
    return sorted(os.path.normpath(folder) for folder in folders
                  if folder and os.path.isdir(folder))
