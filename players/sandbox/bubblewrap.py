"""Bubblewrap's command lines: the options that start a jail server, or a program,
inside it (namespaces of its own, no network, the system read-only)."""

from __future__ import annotations

import os
import shutil
from typing import Sequence

from .folders import inside


def bwrap_options(binds: Sequence[str], path: str = '/usr/bin:/bin', workdir: str = '/tmp',
                  server: bool = True, masks: Sequence[str] = (),
                  over: Sequence[str] = ()) -> list[str]:
    """Return bubblewrap's command line up to the command: namespaces of its own,
    no network, no capabilities, the system and binds read-only, with each folder
    of masks inside them hidden (an empty folder) but for the paths of over, also
    read-only; a private /tmp, the command's PATH and working folder. A jail
    server run by root has no user namespace and keeps the capabilities to change
    users and to kill its jails, since it gives each jail a user and namespaces of
    its own."""
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
    options += _bind_options(binds, masks, over)
    if server:  # what bubblewrap made is no place for one jail to leave things for another
        options += ['--remount-ro', '/', '--remount-ro', '/dev']
    return options


def _bind_options(binds: Sequence[str], masks: Sequence[str], over: Sequence[str]) -> list[str]:
    """Return bubblewrap's options that bind binds read-only, hide each folder of
    masks (inside them) under an empty one, bind each of over read-only, and then
    make the masks read-only; the folders above a bound path that are not there
    are made, each one every user may pass through."""
    options: list[str] = []
    there = {'/usr'}  # folders there, with all inside them
    made = {'/', '/tmp', '/proc', '/dev'}  # folders made, empty but for what is bound in them

    def bind(path: str) -> None:
        if inside(path, there) and not inside(path, masks):
            return  # there already
        missing = []
        parent = os.path.dirname(path)
        while parent not in made and not (inside(parent, there) and not inside(parent, masks)):
            missing.append(parent)
            parent = os.path.dirname(parent)
        made.update(missing)
        for folder in reversed(missing):
            options.extend(('--perms', '0755', '--dir', folder))
        options.extend(('--ro-bind', path, path))
        there.add(path)

    for path in binds:
        bind(path)
    for mask in masks:
        options.extend(('--perms', '0755', '--tmpfs', mask))
        made.add(mask)
    for path in over:
        bind(path)
    for mask in masks:
        options.extend(('--remount-ro', mask))
    return options
