"""A jail server's first steps, run by path with the standard library alone:

    python -I -S -B players/sandbox/jail_server_main.py SETTINGS

SETTINGS is JSON (see players.sandbox.servers._server_command). At the 'process'
level the server makes a folder of its own in the temporary folder it is given:
in it the packages it may import (links to the project's folders) and, later,
each jail's folder. The server removes it as it ends, when its control socket
closes, so the folder goes however the trusted side ends (normally, by an
error, by a signal, or killed). Then players.sandbox.jail_server serves the jails."""

import json
import os
import shutil
import signal
import sys
import tempfile


def start(settings: dict) -> None:
    """Ignore Ctrl-C and SIGTERM (the trusted side ends the server by closing its
    socket), set the variables of settings['environment'] (the plugins' entries:
    see variants.plugins), import only from settings['path'] and, given a
    temporary folder, the packages linked in a folder of the server's own; serve
    jails; remove the folder."""
    for name in ('SIGINT', 'SIGTERM'):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    sys.path[:] = settings['path']
    os.environ.update(settings['environment'])  # read as the project is imported
    folder = None
    if settings['temporary'] is not None:
        folder = tempfile.mkdtemp(prefix=f'jail-server-{os.getpid()}-',
                                  dir=settings['temporary'])
    try:
        if folder is not None:
            os.chmod(folder, 0o755)  # for each jail's user, when run by root
            for name, target in settings['links']:  # name: the link's path in the folder
                link = os.path.join(folder, 'packages', name)
                os.makedirs(os.path.dirname(link), mode=0o755, exist_ok=True)
                os.symlink(target, link)
            sys.path.insert(0, os.path.join(folder, 'packages'))
        from players.sandbox import jail_server  # run by path: no parent package
        jail_server.main(settings['control'], settings['level'], settings['packages'],
                         settings['uid_base'], folder, settings['preload'], settings['view'])
    finally:
        if folder is not None:
            remove_folder(folder)


def remove_folder(path: str) -> None:
    """Remove a folder and everything in it, even the folders made read-only in it
    (a submission's files in a jail's folder); links are removed, never followed."""
    for folder, subfolders, _ in os.walk(path):
        for name in subfolders:
            inner = os.path.join(folder, name)
            if not os.path.islink(inner):
                try:
                    os.chmod(inner, 0o700)
                except OSError:
                    pass
    shutil.rmtree(path, ignore_errors=True)


if __name__ == '__main__':
    start(json.loads(sys.argv[1]))
