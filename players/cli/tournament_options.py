"""The command line's options of the machinery that runs players: the round robin's,
the SPRT's, how each game is played, what a report prints and writes, and the
argparse types they share (whole numbers, seconds, time controls, table formats).

Each add_* function declares a group of options on a parser; the command line
chooses which groups each of its commands has."""

from __future__ import annotations

import argparse
import os
from typing import Any, Callable, TypeVar

import tabulate

from games import referee
from players.reports import grades, text_report
from players.sandbox import jail, level_choice
from players.remote.player_code import FolderLimits

USAGE_ERROR = 2
"""The exit status of a mistake in what the user typed."""
ENDING_CHOICES = (referee.NORMAL, referee.ADJUDICATED, 'forfeit', referee.TIMEOUT,
                  referee.ILLEGAL, referee.ERROR, referee.CANNOT_LOAD)
"""What games --ending accepts: how a game ended, 'forfeit' for any forfeit."""


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2. A
    subcommand's parser may be made with options, a function that adds its arguments
    when the parser is first used (to parse, or to show its usage or help), so that
    what they import is imported only when that subcommand runs."""

    def __init__(self, *args: Any, options: Callable[[ArgumentParser], None] | None = None,
                 **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._options = options

    def complete(self) -> None:
        """Add the arguments that options adds, if they are not added yet."""
        if self._options is not None:
            options, self._options = self._options, None
            options(self)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse as argparse does, the parser complete."""
        self.complete()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        """Return the usage, the parser complete."""
        self.complete()
        return super().format_usage()

    def format_help(self) -> str:
        """Return the help, the parser complete."""
        self.complete()
        return super().format_help()

    def error(self, message: str):
        self.exit(USAGE_ERROR, f'{self.prog}: error: {message}\n')


Number = TypeVar('Number', int, float)


def _number(text: str, kind: Callable[[str], Number], expected: str) -> Number:
    """Return text read as a number of kind (int or float), or raise the argparse
    error saying what was expected."""
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected {expected}, got {text!r}') from None


def count(minimum: int):
    """Return an argparse type: a whole number of at least minimum."""
    def whole(text: str) -> int:
        value = _number(text, int, 'a whole number')
        if value < minimum:
            raise argparse.ArgumentTypeError(f'expected at least {minimum}, got {value}')
        return value
    return whole


def positive(unit: str):
    """Return an argparse type: a positive number of unit, such as seconds."""
    def number(text: str) -> float:
        value = _number(text, float, unit)
        if not 0 < value < float('inf'):
            raise argparse.ArgumentTypeError(f'expected a positive number of {unit}, got {text}')
        return value
    return number


seconds = positive('seconds')
"""An argparse type: a positive number of seconds."""
megabytes = positive('megabytes')
"""An argparse type: a positive number of megabytes."""


def time_control(text: str) -> tuple[float, float]:
    """An argparse type: a time control BASE[+INC] in seconds, such as 60+0.5."""
    base, plus, increment = text.partition('+')
    return seconds(base), (increment_seconds(increment) if plus else 0.0)


def increment_seconds(text: str) -> float:
    """An argparse type: seconds of at least 0."""
    value = _number(text, float, 'seconds')
    if not 0 <= value < float('inf'):
        raise argparse.ArgumentTypeError(f'expected an increment of at least 0, got {text}')
    return value


SANDBOX: dict[str, Any] = {'choices': level_choice.choices(), 'default': 'auto',
           'help': 'jail players with bubblewrap, or with process limits alone '
           '(default auto: bwrap where it works)'}
"""The argparse keywords of --sandbox, the jail level players run in."""


def add_sandbox_option(parser: ArgumentParser) -> None:
    """Add --sandbox, the jail level players run in, and what a jailed player may
    have besides its code: the installed packages it may import (--allow), the
    course's support files beside it (--support) and the size of a submission
    folder (--submission-mb, --submission-files)."""
    option = parser.add_argument
    option('--sandbox', **SANDBOX)
    option('--allow', type=names, default=(), metavar='PKG,...', help='installed packages '
           'that file and folder players may import, such as numpy,scipy (with the packages '
           'they require); by default the standard library alone')
    option('--support', type=names, default=(), metavar='PATH,...', help="a course's support "
           "files and folders, such as aima-python's utils.py, that every file and folder player "
           'finds beside its own files, read-only (its own file of the same name wins); the '
           'installed packages they import are allowed')
    option('--submission-mb', type=megabytes, default=FolderLimits.megabytes, metavar='MB',
           help='the most a submission folder may hold, in MB (default '
           f'{FolderLimits.megabytes:g})')
    option('--submission-files', type=count(1), default=FolderLimits.files, metavar='N',
           help=f'the most files a submission folder may have (default {FolderLimits.files})')


def folder_limits(options: argparse.Namespace) -> FolderLimits:
    """Return the limits of a submission folder given by options (see add_sandbox_option)."""
    return FolderLimits(options.submission_mb, options.submission_files)


def names(text: str) -> tuple[str, ...]:
    """An argparse type: names separated by commas, such as 'numpy,scipy'."""
    return tuple(name.strip() for name in text.split(',') if name.strip())



def add_tournament_options(parser: ArgumentParser) -> None:
    """Add the options of the round robin, which runs when no subcommand is given."""
    option = parser.add_argument
    option('--players', metavar='A,B,...', help='player specs: registry names, with options such '
           'as mcts(N=200), module:function or path/to/file.py:function, programs in any '
           'language as exec:COMMAND or an executable file, each SPEC or NAME=SPEC '
           '(default: every registered non-interactive player; none with --submissions)')
    option('--submissions', metavar='DIR', help="a class's folder: each .py file in it and "
           'each folder in it is one player, named after it, beside those of --players')
    option('--strict', action='store_true', help='stop (exit status 2) at the first player '
           'that cannot play, instead of listing it and scoring its games as forfeits')
    option('--variants', nargs='+', metavar='V', help='variant names or specs (default: the '
           'default set, see list)')
    option('--gauntlet', metavar='PLAYER', help='play PLAYER against every other player '
           'instead of a full round robin')
    option('--games', type=count(1), default=1, metavar='N',
           help='game pairs per pairing per variant; a pair swaps the seats (default 1)')
    option('--jobs', type=count(1), default=cpu_count(), metavar='J',
           help=f'worker processes, here or in the LocalCluster of --executor dask '
           f'(default: the CPU count, {cpu_count()})')
    option('--executor', choices=('local', 'dask'), default='local',
           help='play the games in worker processes here (default), or on a Dask cluster: '
           "--scheduler's, or a LocalCluster of --jobs workers (needs the dask extra)")
    option('--scheduler', metavar='ADDRESS', help='the Dask scheduler of --executor dask, '
           'such as tcp://10.0.0.5:8786')
    add_rules_options(parser, openings=0)
    option('--db', metavar='FILE', help='SQLite results file; each game is written as it ends')
    option('--resume', action='store_true', help='continue the interrupted run in --db')
    add_output_options(parser)


def add_rules_options(parser: ArgumentParser, openings: int) -> None:
    """Add the options of how each game is played: openings, seed, time, jails, length."""
    option = parser.add_argument
    option('--openings', type=count(0), default=openings, metavar='K',
           help='random plies before the players take over, the same for both games of a pair '
           f'(default {openings})')
    option('--seed', type=int, default=0, help='the seed every random choice derives from '
           '(default 0)')
    option('--move-timeout', type=seconds, default=10.0, metavar='SECONDS',
           help='time for one move; a player past it forfeits (default 10)')
    option('--clock', type=time_control, default=None, metavar='BASE[+INC]',
           help='a game clock per player: BASE seconds for the game, INC more after each '
           'move (such as 60+0.5); a player whose clock runs out forfeits on time')
    option('--memory', type=count(64), default=jail.Limits.memory_mb, metavar='MB',
           help=f'address-space limit of each player, in MiB (default {jail.Limits.memory_mb})')
    add_sandbox_option(parser)
    option('--max-plies', type=count(1), default=None, metavar='N',
           help='adjudicate a draw after N plies')


def add_sprt_parser(commands) -> ArgumentParser:
    """Add and return the sprt subcommand: is PLAYER stronger than BASELINE?"""
    test = commands.add_parser('sprt', help='play PLAYER against BASELINE in game pairs until '
                               'a sequential test decides whether it is stronger, for example: '
                               'sprt mine.py:player ab3 --elo1 20')
    option = test.add_argument
    option('player', help='the player tested: a registry spec, module:function or '
           'path/to/file.py:function, optionally NAME=SPEC')
    option('baseline', help='the player it is tested against, in the same forms')
    option('--variants', nargs='+', metavar='V', help='the variants, taken in turn one pair '
           'at a time (default: the default set, see list)')
    option('--elo0', type=float, default=0.0, help='H0: PLAYER is at most this many Elo '
           'stronger (default 0)')
    option('--elo1', type=float, default=10.0, help='H1: PLAYER is at least this many Elo '
           'stronger (default 10)')
    option('--alpha', type=float, default=0.05, help='the chance of accepting H1 when H0 '
           'holds (default 0.05)')
    option('--beta', type=float, default=0.05, help='the chance of accepting H0 when H1 '
           'holds (default 0.05)')
    option('--max-games', type=count(2), default=None, metavar='N',
           help='stop without a verdict after N games (default: no limit)')
    option('--jobs', type=count(1), default=cpu_count(), metavar='J',
           help=f'worker processes (default: the CPU count, {cpu_count()})')
    add_rules_options(test, openings=2)
    option('--json', metavar='FILE', help='write the result, games, llr, bounds, elo, '
           'elo_error and los')
    return test


def add_output_options(parser: ArgumentParser) -> None:
    """Add the options that choose the tables and the files a report writes."""
    option = parser.add_argument
    option('--json', metavar='FILE', help='write the game records, standings and settings')
    option('--csv', metavar='FILE', help='write the game records, and the standings to '
           'FILE-standings.csv')
    option('--html', metavar='FILE', help='write the report as one self-contained web page, '
           'with every game replayable')
    option('--format', type=table_format, default='simple', metavar='FMT',
           help='table format: any of tabulate\'s (simple, github, latex, html, ...)')
    option('--anchors', type=anchor_grades, metavar='P=G,...', help='reference players and '
           "the grade each stands for, such as random=0,ab2=70,ab4=100: every player's grade "
           'is read off its Elo between them (anchors not among the players are added)')
    option('--tables', type=tables_shown, default='auto', metavar='LIST',
           help='tables printed before the scores by variant and the standings: '
           f'auto (those that fit), all, or some of {",".join(text_report.OPTIONAL_TABLES)}')


def table_format(text: str) -> str:
    """An argparse type: one of tabulate's table formats."""
    if text not in tabulate.tabulate_formats:
        raise argparse.ArgumentTypeError(f'unknown table format {text!r}; '
                                         f'formats: {", ".join(tabulate.tabulate_formats)}')
    return text


def anchor_grades(text: str) -> dict[str, float]:
    """An argparse type: the anchors of --anchors (see grades.parse_anchors)."""
    try:
        return grades.parse_anchors(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def tables_shown(text: str):
    """An argparse type: the tables of --tables (see report.parse_tables)."""
    try:
        return text_report.parse_tables(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def cpu_count() -> int:
    """Return the number of CPUs this process may use."""
    if hasattr(os, 'sched_getaffinity'):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


