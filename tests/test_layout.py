"""The layout: each package imports only from its own layer or below (what it needs
from above is handed to it), and modules and functions stay small enough to read."""

import ast
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAYERS = ('players.sandbox', 'games', 'variants', 'players.search', 'players', 'players.remote',
          'players.tournaments', 'players.reports', 'players.grading', 'players.arena', 'players.cli',
          'players.bench', 'tournament', 'players.bench.arena_course', 'players.bench.benchmark_')
"""The project's layers, bottom to top, each a folder (or module) of its own: the
sandbox knows no game; the search engine knows games alone; players' own modules
are the players, the registry and loading; the benchmark scripts time the command
line, the arena's serving a course made for them (players.bench.arena_course)."""
CIRCLE = {'games', 'players.human'}
"""The one import circle: `from games import *` gives AIMA's searches and players,
which games lends from players (games.LENT), and query_player evaluates what is
typed with what `from games import *` gives, as aima-python's does."""
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


def named(name: str, path: str, strings: bool = True) -> set[str]:
    """The project modules (and names in them) that a module imports or, if strings,
    names in a string."""
    tree = ast.parse(open(path).read())
    if not strings:  # what is imported as the module runs: not what only mypy reads
        tree.body = [node for node in tree.body if not _type_checking(node)]
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
        elif strings and isinstance(node, ast.Constant) and isinstance(node.value, str):
            if NAMED.match(node.value):
                found.add(node.value.split(':')[0])
    return {module for module in found if module.split('.')[0] in ('games', 'variants', 'players',
                                                                    'tournament')}


@pytest.mark.parametrize('name, path', MODULES, ids=[name for name, _ in MODULES])
def test_a_module_names_nothing_above_its_layer(name, path):
    above = {module for module in map(resolved, named(name, path))
             if layer(module) > layer(name) and (name, module) not in LENT}
    assert not above, f'{name} names {sorted(above)}, above its layer'


def resolved(dotted: str) -> str:
    """The module a dotted name is or is in: 'games.base.Game' is games.base, and a
    name imported from a package, not a module of its own, is in the package."""
    while dotted not in PATHS and '.' in dotted:
        dotted = dotted.rpartition('.')[0]
    return dotted


PATHS = dict(MODULES)


def _type_checking(node: ast.stmt) -> bool:
    """Is node an `if TYPE_CHECKING:` block?"""
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
        and node.test.id == 'TYPE_CHECKING'


def imported(name: str, path: str) -> set[str]:
    """The project modules that a module imports, at its top or in a function."""
    return set(map(resolved, named(name, path, strings=False))) - {name}


def circles() -> list[set[str]]:
    """The import circles among the project's modules: each set of modules that
    import each other, round the circle (Tarjan's strongly connected components)."""
    graph = {name: imported(name, path) for name, path in MODULES}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for other in graph[node]:
            if other not in order:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], order[other])
        if low[node] == order[node]:
            component = set()
            while component.add(stack.pop()) or node not in component:
                pass
            if len(component) > 1:
                found.append(component)

    for node in graph:
        if node not in order:
            visit(node)
    return found


def test_no_modules_import_each_other_round_a_circle_but_aimas_names():
    assert circles() == [CIRCLE]


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
