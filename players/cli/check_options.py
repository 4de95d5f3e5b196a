"""The grading options, written down once: check and gradescope-bundle add them to
their parsers from the table below, check turns their values into the grader's
Settings, and the bundle writes them back as the command line its autograder runs.
A new option is one more row."""

from __future__ import annotations

from argparse import ArgumentParser, Namespace
from dataclasses import dataclass, field

import variants
from players.sandbox import jail
from players.player_spec import Kind, parse_spec
from players.sandbox.allowed import allowed_packages
from players.remote.player_code import FolderLimits
from players.grading.cases import CaseError, load_cases
from players.grading.reference import PositionError, survey
from players.grading.settings import FUNCTIONS, Settings
from games.specs import parse_call

from .inputs import (UsageError, course_support, make_game, player_code, sandbox_level,
                     usage_errors)
from .tournament_options import SANDBOX, anchor_grades, count, megabytes, names, seconds


@dataclass(frozen=True)
class Option:
    """One grading option: its flag, its argparse keywords, and whether the bundle's
    autograder is given it as it is (the bundle carries --cases's file, and
    --reference's game file, itself; it cannot carry --support's files)."""

    flag: str
    keywords: dict = field(default_factory=dict)
    bundled: bool = True

    @property
    def dest(self) -> str:
        """The name of the option's value among the parsed arguments."""
        return self.flag.lstrip('-').replace('-', '_')


OPTIONS = (
    Option('--functions', dict(metavar='F,G,...', help='the functions the assignment asks for; '
           f'a missing one scores 0 (default: all, {",".join(FUNCTIONS)})')),
    Option('--variants', dict(nargs='+', metavar='V', help='the games of the player checks and '
           "of the searches' real positions (default: the default set, see list)")),
    Option('--cases', dict(metavar='FILE', help='your own trees and positions, as JSON (see '
           'docs/course-kit.md)'), bundled=False),
    Option('--timeout', dict(type=seconds, default=10.0, metavar='S', help='seconds for each '
           'search check and for loading the file (default 10)')),
    Option('--move-timeout', dict(type=seconds, default=10.0, metavar='S', help="seconds for "
           "each of the player's moves, as in a tournament (default 10)")),
    Option('--player-budget', dict(type=seconds, default=60.0, metavar='S', help='seconds the '
           "games of one file's player checks should take; a slower player is judged on fewer "
           'games, saying so (default 60)')),
    Option('--memory', dict(type=count(64), default=jail.Limits.memory_mb, metavar='MB',
           help=f"address-space limit of the student's jail, in MiB (default "
           f'{jail.Limits.memory_mb})')),
    Option('--allow-reference', dict(action='store_true', help="let students' code use this "
           "project's own searches (players.textbook and the rest); by default that fails")),
    Option('--anchors', dict(type=anchor_grades, metavar='P=G,...', help="grade the player's "
           'strength off its rating between reference players of the registry, each standing '
           'for a grade, such as random=0,ab2=70,ab4=100 (instead of the gauntlet)')),
    Option('--sandbox', SANDBOX),
    Option('--allow', dict(metavar='PKG,...', help="installed packages students' code may "
           'import, such as numpy,scipy (with the packages they require); by default the '
           'standard library alone')),
    Option('--support', dict(type=names, default=(), metavar='PATH,...', help="a course's "
           "support files and folders, such as aima-python's utils.py, that students' code finds "
           'beside its own files, read-only (its own file of the same name wins); the installed '
           'packages they import are allowed'), bundled=False),
    Option('--submission-mb', dict(type=megabytes, default=FolderLimits.megabytes, metavar='MB',
           help=f'the most a submission folder may hold (default {FolderLimits.megabytes:g})')),
    Option('--submission-files', dict(type=count(1), default=FolderLimits.files, metavar='N',
           help=f'the most files a submission folder may have (default {FolderLimits.files})')),
    Option('--game', dict(metavar='CLASS(ARGS)', help="grade the student's Game class, made "
           "as this call, such as 'GameOfNim(board=[3, 1])', against --reference (then "
           '--functions defaults to none)')),
    Option('--reference', dict(metavar='GAME', help="the game --game's class is compared with: "
           'a variant, or a class in a game file such as solution.py:GameOfNim (made with '
           "--game's arguments when it is given none)"), bundled=False),
    Option('--game-positions', dict(nargs='+', metavar='MOVES', help='positions of --reference '
           "the class is also compared at, each the moves from the start, such as '(0, 1); (1, "
           "1)' (for a game with too many positions to compare at every one)")),
)
"""The grading options, in the order of the help."""


def add_grading_options(parser: ArgumentParser) -> None:
    """Add the options that say what check grades and how."""
    for option in OPTIONS:
        parser.add_argument(option.flag, **option.keywords)


def command_line(args: Namespace) -> list[str]:
    """Return the grading options of args as words of a command line that parses
    back to the same values (an option left unset is left out); raise a UsageError
    for support files, which the bundle cannot carry."""
    if args.support:
        raise UsageError("gradescope-bundle cannot carry --support's files yet: give the "
                         'autograder none, or grade with check where they are')
    words: list[str] = []
    for option in OPTIONS:
        value = getattr(args, option.dest)
        if not option.bundled or value is None or value is False:
            continue
        words.append(option.flag)
        if isinstance(value, dict):
            words.append(','.join(f'{key}={_text(item)}' for key, item in value.items()))
        elif isinstance(value, (list, tuple)):
            words.extend(map(_text, value))
        elif value is not True:
            words.append(_text(value))
    return words


def _text(value) -> str:
    """A value as a command line gives it: a number without trailing zeros."""
    return f'{value:g}' if isinstance(value, float) else str(value)


def settings(args: Namespace) -> Settings:
    """Return the grading settings of the grading options in args, or raise a
    UsageError naming the bad one."""
    functions = tuple(args.functions.split(',')) if args.functions else () if args.game \
        else FUNCTIONS
    unknown = [name for name in functions if name not in FUNCTIONS]
    if unknown or not functions and not args.game:
        raise UsageError(f'--functions: unknown function {unknown[0] if unknown else ""!r}; '
                         f'the functions are {",".join(FUNCTIONS)}')
    games = tuple(dict.fromkeys(args.variants or variants.DEFAULT_VARIANTS))
    for name in games:
        make_game(name)
    with usage_errors(CaseError):
        cases = tuple(load_cases(args.cases)) if args.cases else ()
    for name in args.anchors or {}:
        if parse_spec(name).kind in (Kind.FILE, Kind.MODULE):
            raise UsageError(f"--anchors: {name!r}: the grader's anchors are players of the "
                             'registry')
        player_code(name)
    support = course_support(args)
    allow = support.allow(names(args.allow or ''))
    with usage_errors():
        allowed_packages(allow)
    return Settings(functions, games, args.timeout, args.move_timeout,
                    sandbox_level(args.sandbox), args.memory, args.allow_reference, cases,
                    tuple((args.anchors or {}).items()), args.player_budget, allow,
                    FolderLimits(args.submission_mb, args.submission_files), args.game,
                    args.reference, _game_positions(args), support)


def _game_positions(args: Namespace) -> tuple:
    """The positions of --game-positions, once --game, --reference and they are
    checked (the reference is surveyed, once for the process); raise a UsageError
    naming the option at fault."""
    if not args.game and not args.reference and not args.game_positions:
        return ()
    if not args.game or not args.reference:
        raise UsageError('--game and --reference go together: --game names the student\'s class '
                         "and how to make it, such as 'GameOfNim(board=[3, 1])', --reference the "
                         'game to compare it with')
    try:
        parse_call(args.game, 'game')
    except ValueError as error:
        raise UsageError(f'--game: {error}') from None
    positions = tuple(args.game_positions or ())
    try:
        survey(args.reference, args.game, positions)
    except PositionError as error:
        raise UsageError(f'--game-positions: {error}') from None
    except ValueError as error:
        raise UsageError(f'--reference: {error}') from None
    return positions
