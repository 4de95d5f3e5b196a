"""The layout: each package imports only from its own layer or below (what it needs
from above is handed to it), and modules and functions stay small enough to read."""

import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERS = ('players.sandbox', 'games', 'variants', 'players', 'players.remote',
          'players.tournaments', 'players.reports', 'players.grading', 'players.cli',
          'players.bench', 'tournament', 'players.bench.benchmark_')
"""The project's layers, bottom to top, each a package (or module) of its own: the
sandbox knows no game; players' own modules are the searches and the registry; the
benchmark scripts time the command line."""
LENT = {('games', 'players'), ('games', 'players.human'), ('games', 'players.textbook')}
"""The one way up: `games` lends AIMA's searches and players, imported on first use,
so that `from games import alpha_beta_search` works as in aima-python."""
NAMED = re.compile(r'^(?!.*\.toml$)(games|variants|players|tournament)(\.\w+)*(:\w+)?$')
"""A string that names a module of the project (or a function in it); tournament.toml,
the course file, is a file's name."""
LONG_FUNCTION_NOTE = 'one long function on purpose'
"""What a comment in a function longer than 100 lines says: a search kernel kept in one piece."""


def modules():
    """Every module of the project but the tests: (dotted name, path)."""
    found = [('tournament', os.path.join(ROOT, 'tournament.py'))]
    for top in ('games', 'variants', 'players'):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for file in sorted(files):
                if file.endswith('.py'):
                    path = os.path.join(folder, file)
                    name = os.path.relpath(path, ROOT)[:-3].replace(os.sep, '.')
                    found.append((name.removesuffix('.__init__'), path))
    return found


MODULES = modules()


def layer(name: str) -> int:
    """The layer of a module: that of the longest layer's name it starts with."""
    return LAYERS.index(max((top for top in LAYERS if name == top or name.startswith(
        top if top.endswith('_') else top + '.')), key=len))


def named(name: str, path: str) -> set[str]:
    """The project modules that a module imports or names in a string."""
    tree = ast.parse(open(path).read())
    package = name if path.endswith('__init__.py') else name.rpartition('.')[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parts = package.split('.')
                base = '.'.join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            found.update(f'{base}.{alias.name}' for alias in node.names)
            found.add(base)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if NAMED.match(node.value):
                found.add(node.value.split(':')[0])
    return {module for module in found if module.split('.')[0] in ('games', 'variants', 'players',
                                                                    'tournament')}


@pytest.mark.parametrize('name, path', MODULES, ids=[name for name, _ in MODULES])
def test_a_module_names_nothing_above_its_layer(name, path):
    above = {module for module in named(name, path)
             if layer(module) > layer(name) and (name, module) not in LENT}
    assert not above, f'{name} names {sorted(above)}, above its layer'


@pytest.mark.parametrize('name, path', MODULES, ids=[name for name, _ in MODULES])
def test_modules_and_functions_are_short(name, path):
    text = open(path).read()
    count = text.count('\n')
    assert count <= 400, f'{name} has {count} lines'
    lines = text.splitlines()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = lines[node.lineno - 1:node.end_lineno]
            assert len(body) <= 100 or any(LONG_FUNCTION_NOTE in line for line in body), \
                f'{name}.{node.name} has {len(body)} lines'
