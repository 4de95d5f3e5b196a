"""A course folder: the settings of a course's tournament and grader, kept in a file
of the working folder and read as the defaults of the command line's options, so
that an option given on the command line wins.

The file is tournament.toml, else pyproject.toml's [tool.aima-games] table. Its
keys are the round robin's options, named as on the command line without the
dashes (games, move-timeout, ...); its [check] table holds check's. A value is
checked by the option's own argparse type, so a bad one fails as it would on the
command line, with the key and the file named. TOML types: a list for --variants
and for an option of names separated by commas (players, allow, functions), a
table of numbers for --anchors, true or false for a flag, a number or a string
for an option with a type, else a string; a path, and each of a list of them
(support), is relative to the file's folder."""

from __future__ import annotations

import argparse
import os
import sys

from games import game_files

from .inputs import UsageError
from .tournament_options import ArgumentParser

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

COURSE_FILE = 'tournament.toml'
"""The course file of a folder, read first."""
PYPROJECT = 'pyproject.toml'
"""The project file whose [tool.aima-games] table is the course's when there is no COURSE_FILE."""
CHECK = 'check'
"""The table of check's settings within the course's."""
ARENA = 'arena'
"""The table of serve's settings (the class arena's) within the course's."""
PATHS = ('submissions', 'db', 'json', 'csv', 'html', 'cases', 'out', 'gradescope', 'roster',
         'store')
"""The options whose values are paths: in a course file, relative to its folder."""
PATH_LISTS = ('support',)
"""The options whose values are lists of paths, each relative to the course file's folder."""
GAME_SPECS = ('reference',)
"""The options whose values are games: a game file's spec ('solution.py:GameOfNim') is
relative to the course file's folder."""


def apply(parser: argparse.ArgumentParser, check: ArgumentParser, folder: str = '',
          serve: ArgumentParser | None = None) -> None:
    """Make the course file of folder (the working folder by default), if it has one,
    the defaults of parser (its top-level keys), of its check subcommand (its
    [check] table) and of its serve subcommand (its [arena] table); parser's default
    course its absolute path (None without one), and its default course_check whether
    the file has a [check] table. A key that is no option, or a bad value, or a file
    that is no TOML, is a UsageError naming the key and the file."""
    path, table, where = _course_table(folder)
    parser.set_defaults(course=path and os.path.abspath(path), course_check=False)
    if path is None:
        return
    table = dict(table)
    base = os.path.dirname(path)
    has_check = bool(table.get(CHECK))
    for name, subcommand in ((CHECK, check), (ARENA, serve)):
        sub_table = table.pop(name, {})
        if not isinstance(sub_table, dict):
            raise UsageError(f'{path}: {where}{name}: expected a table of '
                             f'{"serve" if name == ARENA else name}\'s options')
        if subcommand is None:
            if sub_table:
                raise UsageError(f'{path}: {where}{name}: this command takes no such table')
            continue
        if sub_table:
            subcommand.complete()  # its options, added when it is first used, are read here
        subcommand.set_defaults(**_defaults(subcommand, sub_table, f'{path}: {where}{name}.',
                                            base))
    parser.set_defaults(**_defaults(parser, table, f'{path}: {where}', base),
                        course_check=has_check)


def _course_table(folder: str) -> tuple[str | None, dict, str]:
    """The course file of folder, its table of settings, and the table's name as a
    key's prefix; (None, {}, '') when folder has none."""
    course = os.path.join(folder, COURSE_FILE)
    if os.path.isfile(course):
        return course, _read(course), ''
    project = os.path.join(folder, PYPROJECT)
    if os.path.isfile(project):
        table = _read(project).get('tool', {}).get('aima-games')
        if isinstance(table, dict):
            return project, table, 'tool.aima-games.'
        if table is not None:
            raise UsageError(f'{project}: tool.aima-games: expected a table of options')
    return None, {}, ''


def _read(path: str) -> dict:
    """The TOML file at path, or a UsageError naming it and what is wrong (with its line)."""
    try:
        with open(path, 'rb') as file:
            return tomllib.load(file)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise UsageError(f'{path}: not a readable TOML file: {error}') from None


def _defaults(parser: argparse.ArgumentParser, table: dict, where: str, base: str) -> dict:
    """The argparse defaults of a course table's settings of parser's options, each
    checked as the command line checks it; where names the file and the table."""
    # argparse lists a parser's options only in this attribute
    options = parser._option_string_actions
    defaults = {}
    for key, value in table.items():
        action = options.get('--' + key)
        if action is None or action.dest == 'help':
            raise UsageError(f'{where}{key}: unknown key (the keys are the options of '
                             f'{parser.prog} --help, without their dashes)')
        try:
            defaults[action.dest] = _value(action, value)
        except argparse.ArgumentTypeError as error:
            raise UsageError(f'{where}{key}: {error}') from None
        if action.dest in PATHS or action.dest in GAME_SPECS \
                and game_files.is_file_spec(defaults[action.dest]):
            defaults[action.dest] = os.path.join(base, defaults[action.dest])
        if action.dest in PATH_LISTS:
            defaults[action.dest] = tuple(os.path.join(base, path)
                                          for path in defaults[action.dest])
    return defaults


def _value(action: argparse.Action, value):
    """The value of an option as its argparse action would make it of the command line's
    words, given as a TOML value; raise ArgumentTypeError if it is not one."""
    metavar = str(action.metavar or '')
    if action.nargs == 0:
        if not isinstance(value, bool):
            raise argparse.ArgumentTypeError('expected true or false')
        return value
    if action.nargs == '+':
        if not value or not isinstance(value, list):
            raise argparse.ArgumentTypeError('expected a list of strings')
        return [_converted(action, item) for item in value]
    if '=' in metavar:
        if not isinstance(value, dict):
            raise argparse.ArgumentTypeError('expected a table, such as {random = 0, ab2 = 70}')
        value = ','.join(f'{name}={item}' for name, item in value.items())
    elif metavar.endswith(',...'):
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise argparse.ArgumentTypeError('expected a list of strings')
        value = ','.join(value)
    return _converted(action, value)


def _converted(action: argparse.Action, value):
    """One word's value: a string, or a number for an option with a type, made by the
    option's type and checked against its choices as argparse does."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)) or (
            not isinstance(value, str) and action.type is None):
        kind = 'a string' if action.type is None else 'a number or a string'
        raise argparse.ArgumentTypeError(f'expected {kind}, got {value!r}')
    text = str(value)
    if callable(action.type):
        try:
            value = action.type(text)
        except (TypeError, ValueError):
            name = getattr(action.type, '__name__', repr(action.type))
            raise argparse.ArgumentTypeError(f'invalid {name} value: {text!r}') from None
    if action.choices is not None and value not in action.choices:
        raise argparse.ArgumentTypeError(f'invalid choice: {value!r} (choose from '
                                         f'{", ".join(map(repr, action.choices))})')
    return value

