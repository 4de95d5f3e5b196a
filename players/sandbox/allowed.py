"""The installed packages a run allows jailed players to import (--allow numpy),
found from their installed metadata, without importing them: each with the
packages it requires, as pip installed them. A jail sees and imports only these of
the installed packages, besides the standard library, this project's own and those
the layers above give every jail (see players.sandbox.servers.JAIL_EXTRAS)."""

from __future__ import annotations

import ast
import functools
import importlib.machinery
import importlib.metadata
import os
import re
import sys
from dataclasses import dataclass, replace
from typing import Callable, Iterable, Mapping


_NAME = re.compile(r'\s*([A-Za-z0-9][A-Za-z0-9._-]*)')
_SUFFIXES = sorted(importlib.machinery.all_suffixes(), key=len, reverse=True)
"""The ends of the names of module files, longest first."""
_LEFT_OUT = ('.dist-info', '.egg-info', '.pth')
"""The ends of the names of what a distribution installs beside its packages that a
jail needs not: its metadata, and the path files that site (which a jail has not) reads."""


@dataclass(frozen=True)
class AllowedPackages:
    """What a jail needs of the allowed packages."""

    names: tuple[str, ...] = ()
    """The packages allowed, as the user named them, such as ('numpy',)."""
    entries: tuple[tuple[str, str], ...] = ()
    """Every file and folder their distributions (and those they require) installed
    beside the packages, as (name, real path): ('numpy', '/.../site-packages/numpy'),
    ('numpy.libs', ...)."""
    modules: tuple[str, ...] = ()
    """The importable top-level modules among the entries, which a jail server
    imports once, so that each jail finds them imported."""


@functools.lru_cache(maxsize=None)
def allowed_packages(names: tuple[str, ...]) -> AllowedPackages:
    """Return the AllowedPackages of installed packages named by their import name
    (numpy, sklearn) or their distribution's (scikit-learn), with the distributions
    they require. Raise ValueError naming a package that is not installed."""
    if not names:
        return AllowedPackages()
    by_module = _distributions_by_module()
    named = []
    for name in names:
        try:
            named += [importlib.metadata.distribution(each) for each in by_module.get(name, [name])]
        except importlib.metadata.PackageNotFoundError:
            raise ValueError(f'--allow: no installed package {name!r} (install it in this '
                             'Python with pip, or check its name)') from None
    modules = {module_name(name, path) for distribution in named
               for name, path in _entries(distribution).items()
               if os.path.isfile(os.path.join(path, '__init__.py')) or os.path.isfile(path)}
    return AllowedPackages(names, tuple(sorted(installed_entries(named).items())),
                           tuple(sorted(module for module in modules if module is not None)))


def imported_modules(tree: ast.AST) -> set[str]:
    """Return the top-level names of the modules a syntax tree imports, anywhere in
    it (relative imports left out): numpy for `import numpy.linalg as la`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split('.')[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split('.')[0])
    return names


def installed_imports(sources: Iterable[str | bytes],
                      own: Iterable[str] = ()) -> tuple[str, ...]:
    """Return the installed packages that Python sources import, read with ast and
    never run, as --allow names them: not the standard library, not the modules own
    names (the sources' own), nor this project's own (those of the distribution that
    installed this module), which the layers above give a jail as they choose. A
    source that does not parse imports nothing."""
    found: set[str] = set()
    for source in sources:
        try:
            found |= imported_modules(ast.parse(source))
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
    found -= {*own, *sys.stdlib_module_names}
    if not found:
        return ()
    by_module = _distributions_by_module()
    project = set(by_module.get(__name__.split('.')[0], ()))
    return tuple(sorted(name for name in found
                        if name in by_module and not project & set(by_module[name])))


@functools.lru_cache(maxsize=1)
def _distributions_by_module() -> Mapping[str, list[str]]:
    """Return the installed distributions by the top-level modules they install
    (importlib.metadata.packages_distributions), read once a process: reading every
    distribution's metadata takes a fifth of a second."""
    return importlib.metadata.packages_distributions()


def module_name(name: str, path: str) -> str | None:
    """Return the name an installed entry (a file or folder beside the packages, by
    its name and path) imports by, or None if it is no module: a folder by its name,
    a file by the name before its suffix ('six.py' as six, 'pyspiel.so' and
    'x.cpython-311-x86_64-linux-gnu.so' as pyspiel and x)."""
    if os.path.isfile(path):
        suffix = next((suffix for suffix in _SUFFIXES if name.endswith(suffix)), None)
        name = name[:-len(suffix)] if suffix else ''
    return name if name.isidentifier() else None


def imported_paths(modules: Iterable[str]) -> dict[str, str]:
    """Return the top-level modules of modules that this process imported, by the name a
    jail imports them by, as real paths: a package's folder (wherever it is, as an
    editable install leaves it) or a module's file."""
    found = {}
    for name in modules:
        module = sys.modules.get(name)
        path = getattr(module, '__file__', None)
        if path and hasattr(module, '__path__'):
            found[name] = os.path.realpath(os.path.dirname(path))
        elif path:
            found[os.path.basename(path)] = os.path.realpath(path)
    return found


def with_modules(allowed: AllowedPackages, modules: Iterable[str]) -> AllowedPackages:
    """Return allowed with the installed modules named (which this process imported)
    among its entries: what a game's own code imports, which every jail that makes
    the game must find (see Game.jail_imports), and only those jails."""
    return with_entries(allowed, imported_paths(modules))


def with_entries(allowed: AllowedPackages, entries: Mapping[str, str]) -> AllowedPackages:
    """Return allowed with entries, (name, real path) of installed files and folders,
    among its entries."""
    if not entries:
        return allowed
    return replace(allowed, entries=tuple(sorted({**dict(allowed.entries), **entries}.items())))


def installed_entries(named: list,
                      leave_out: Callable[[importlib.metadata.Distribution], bool]
                      = lambda distribution: False) -> dict[str, str]:
    """Return the files and folders of the distributions named and of those they
    require, by name, as real paths, but for those that leave_out leaves out (and
    what only they require)."""
    entries: dict[str, str] = {}
    seen: set[str] = set()
    wanted = list(named)
    while wanted:
        distribution = wanted.pop()
        key = distribution.metadata['Name'].lower().replace('_', '-')
        if key not in seen and not leave_out(distribution):
            seen.add(key)
            entries.update(_entries(distribution))
            wanted += _required(distribution)
    return entries


def _entries(distribution: importlib.metadata.Distribution) -> dict[str, str]:
    """Return the files and folders a distribution installed beside the packages,
    by name, as real paths (its metadata and scripts left out)."""
    tops = {file.parts[0] for file in distribution.files or ()}
    return {top: os.path.realpath(str(distribution.locate_file(top))) for top in sorted(tops)
            if top not in ('..', '__pycache__') and not top.endswith(_LEFT_OUT)
            and not top.startswith('__editable__')}


def _required(distribution: importlib.metadata.Distribution) -> list:
    """Return the installed distributions that distribution requires (not for extras)."""
    required = []
    for requirement in distribution.requires or ():
        if re.search(r'extra\s*==', requirement):
            continue
        name = _NAME.match(requirement)
        if name is None:
            continue
        try:
            required.append(importlib.metadata.distribution(name.group(1)))
        except importlib.metadata.PackageNotFoundError:
            continue  # a requirement for another platform or Python, not installed
    return required
