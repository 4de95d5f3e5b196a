"""A jail server's first steps, run by path with the standard library alone:

    python -I -S -B players/sandbox/jail_server_main.py SETTINGS

SETTINGS is JSON (see players.sandbox.servers._server_command). The server finds
the packages it may import where settings['places'] says (PackageFinder). At the
'process' level it makes a folder of its own in the temporary folder it is given,
for each jail's folder, and removes it as it ends, when its control socket closes,
so the folder goes however the trusted side ends (normally, by an error, by a
signal, or killed). Then players.sandbox.jail_server serves the jails."""

import importlib.machinery
import importlib.util
import json
import os
import signal
import sys
import tempfile
from typing import Mapping


def start(settings: dict) -> None:
    """Ignore Ctrl-C and SIGTERM (the trusted side ends the server by closing its
    socket), set the variables of settings['environment'] (the plugins' entries:
    see variants.plugins), import only from settings['path'] and the places of
    settings['places'], make a folder of the server's own in the temporary folder
    given (if any), serve jails, and remove the folder."""
    for name in ('SIGINT', 'SIGTERM'):
        signal.signal(getattr(signal, name), signal.SIG_IGN)
    sys.path[:] = settings['path']
    os.environ.update(settings['environment'])  # read as the project is imported
    sys.meta_path.insert(0, PackageFinder(settings['places']))
    from players.sandbox.folders import remove_folder  # run by path: no parent package
    folder = None
    if settings['temporary'] is not None:
        folder = tempfile.mkdtemp(prefix=f'jail-server-{os.getpid()}-',
                                  dir=settings['temporary'])
        os.chmod(folder, 0o755)  # for each jail's user, when run by root
    try:
        from players.sandbox import jail_server  # run by path: no parent package
        jail_server.main(settings['control'], settings['level'], settings['packages'],
                         settings['uid_base'], folder, settings['preload'], settings['view'])
    finally:
        if folder is not None:
            remove_folder(folder)


class PackageFinder:
    """A finder (sys.meta_path) of the packages a jail server may import: this
    project's packages it was started for and the installed packages a run allows,
    each at its own folder (or file), and nothing else of the project. A package
    named without its parent (players.remote without the rest of players) has a
    parent that holds nothing else, so the searches a grader compares with are not
    there to import."""

    def __init__(self, places: Mapping[str, str]):
        """places: each package's folder, or a module's file, by its dotted name."""
        self.places = dict(places)
        dotted = [name.split('.') for name in self.places]
        self.parents = {'.'.join(parts[:end]) for parts in dotted
                        for end in range(1, len(parts))} - set(self.places)
        """The packages that hold a package given and are not given themselves."""

    def find_spec(self, name: str, path=None, target=None):
        """The spec of a package or module given, or of a parent holding only those
        given; None for any other name (the other finders look for it)."""
        place = self.places.get(name)
        if place is None:
            return _empty_package(name, []) if name in self.parents else None
        if not os.path.isdir(place):
            return importlib.util.spec_from_file_location(name, place)
        if not os.path.isfile(os.path.join(place, '__init__.py')):
            return _empty_package(name, [place])  # a namespace package
        return importlib.util.spec_from_file_location(
            name, os.path.join(place, '__init__.py'), submodule_search_locations=[place])

    def invalidate_caches(self) -> None:
        """Nothing to forget: the places are fixed."""


def _empty_package(name: str, folders: list[str]) -> importlib.machinery.ModuleSpec:
    """The spec of a package with no code of its own, whose modules are in folders."""
    spec = importlib.machinery.ModuleSpec(name, None, is_package=True)
    spec.submodule_search_locations = folders
    return spec


if __name__ == '__main__':
    start(json.loads(sys.argv[1]))
