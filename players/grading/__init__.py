"""The course grader: checks a student's search functions and player, CS188-style,
and reports each check's points as PASS or FAIL lines, as JSON or for Gradescope.

The student's file runs only in a jail (players.arena.jail), loaded once for all its
checks; only plain data comes back (the move chosen, the states generated), and
every verdict is worked out here. The player's games are played by the trusted
referee against the jailed player, with a time limit for each move."""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field

import variants
from games import Game
from players.arena.player_code import read_program
from players.player_spec import parse_spec
from players.arena.jail import describe as describe_level
from players.arena.jail import Limits

from .anchored import check_anchors
from .cases import SEARCH_FUNCTIONS, Case, CaseError, load_cases, search_cases
from .playing import (BudgetSpent, PlayerTimeout, Table, check_gauntlet, check_legal,
                      check_safe)
from .search import judge_search, state_limit
from .session import Session, StudentFault

PLAYER_FUNCTION = 'player'
FUNCTIONS = (*SEARCH_FUNCTIONS, PLAYER_FUNCTION)
"""The functions a student's file may define, in the order they are graded."""
SAFE_GAME = 'tictactoe'
"""The game at which a player must never lose to random."""


class LoadError(ValueError):
    """The student's file is missing or cannot be read."""


@dataclass(frozen=True)
class Settings:
    """What the instructor chooses: the functions asked for, the games, the limits."""

    functions: tuple = FUNCTIONS
    """The functions the assignment asks for: a missing one scores 0 of its points."""
    variants: tuple = tuple(variants.DEFAULT_VARIANTS)
    """The games of the player checks, and of the search checks' real positions."""
    timeout: float = 10.0
    """Seconds for each search check, and for loading the file."""
    move_timeout: float = 10.0
    """Seconds for each move of the player, as in a tournament."""
    sandbox: str = 'process'
    """The jail level: 'process' or 'bwrap'."""
    memory_mb: int = Limits.memory_mb
    allow_reference: bool = False
    """May the student's code use the project's own searches?"""
    cases: tuple = ()
    """The instructor's own cases (see cases.load_cases)."""
    anchors: tuple = ()
    """((registry spec, grade), ...): with them the player's strength is graded off
    its rating between these reference players' instead of by the gauntlet."""
    player_budget: float = 60.0
    """Seconds the player checks of one file may take in all: once they are spent,
    the player checks not yet played fail, saying so (a slow player cannot hold up
    a class)."""

    def describe(self) -> str:
        """One line saying how the file is graded."""
        anchored = ('; the player graded against ' + ', '.join(
            f'{name}={grade:g}' for name, grade in self.anchors)) if self.anchors else ''
        return (f'{self.timeout:g} s for each search check, {self.move_timeout:g} s for each '
                f'move of the player, {self.player_budget:g} s for all the player checks; '
                f'jail: {describe_level(self.sandbox)}{anchored}')


@dataclass(frozen=True)
class Check:
    """One graded check: which function it checks and how many points it is worth."""

    name: str
    """Such as 'alpha_beta_search on fig52'."""
    function: str
    points: float
    kind: str
    """'search', 'legal', 'safe', 'gauntlet' or 'anchors'."""
    case: Case | None = None
    visibility: str = 'visible'


@dataclass
class Result:
    """The outcome of a check."""

    check: str
    function: str
    passed: bool
    points: float
    max_points: float
    message: str
    visibility: str = 'visible'
    seconds: float = 0.0


@dataclass
class Report:
    """The outcomes of grading a file."""

    file: str
    results: list
    settings: str = ''
    """How the file was graded (Settings.describe)."""
    load_error: str | None = None
    """Why the file could not be loaded, if it could not."""
    reference: str | None = None
    """The project's reference implementation the file tried to use, if any."""
    seconds: float = 0.0
    loads: int = 0
    """How many times the file was loaded (once, plus once after each timeout or crash)."""
    missing: list = field(default_factory=list)
    """The functions asked for that the file does not define."""
    leaderboard: dict = field(default_factory=dict)
    """Figures for a leaderboard, such as the gauntlet's score in percent."""
    note: str | None = None
    """What the reader should know about how it was graded, such as a program's
    checks being its player's alone."""

    @property
    def points(self) -> float:
        """The points earned."""
        return round(sum(result.points for result in self.results), 2)

    @property
    def max_points(self) -> float:
        """The points that could be earned."""
        return sum(result.max_points for result in self.results)

    @property
    def passed(self) -> bool:
        """Did every check pass?"""
        return all(result.passed for result in self.results)

    def by_function(self) -> dict[str, int]:
        """The points earned for each function."""
        points: dict[str, int] = {}
        for result in self.results:
            points[result.function] = points.get(result.function, 0) + result.points
        return points

    def lines(self) -> list[str]:
        """A header, a PASS or FAIL line for each check, then the total."""
        lines = [f'Grading {self.file}: {self.settings}']
        if self.note:
            lines.append(self.note)
        if self.load_error:
            lines.append(f'Cannot load {self.file}: {self.load_error}')
        if self.reference:
            lines.append(f'{self.file} {self.reference}: it fails every check')
        lines += [f'{"PASS" if result.passed else "FAIL"} {result.points:g}/{result.max_points:g} '
                  f'{result.check}: {result.message}' for result in self.results]
        failed = sum(not result.passed for result in self.results)
        lines.append(f'Total: {self.points:g}/{self.max_points:g} points, '
                     f'{len(self.results) - failed} of {len(self.results)} checks passed')
        return lines

    def json(self) -> str:
        """The report as a JSON document."""
        return json.dumps(self.as_dict(), indent=2)

    def as_dict(self) -> dict:
        """The report as plain data, for a JSON file."""
        return {'file': self.file, 'points': self.points, 'max_points': self.max_points,
                'passed': self.passed, 'by_function': self.by_function(),
                'load_error': self.load_error, 'reference': self.reference,
                'missing': self.missing, 'settings': self.settings, 'note': self.note,
                'seconds': round(self.seconds, 3), 'checks': [asdict(r) for r in self.results]}


def make_games(settings: Settings) -> dict[str, Game]:
    """The games of the settings' variants, by name."""
    return {name: variants.make(name) for name in settings.variants}


def make_checks(settings: Settings, games: dict[str, Game] | None = None) -> list[Check]:
    """Every check of the functions the settings ask for: each search on the made-up
    trees, on a real position of each game and on the instructor's cases, then the
    player's checks. Games of chance are played only in the legal-moves check: the
    textbook's searches have no chance nodes, and luck has no place in a pass mark."""
    games = make_games(settings) if games is None else games
    checks = []
    for function in SEARCH_FUNCTIONS:
        if function in settings.functions:
            checks += [Check(f'{function} on {case.name}', function, case.points, 'search', case,
                             case.visibility)
                       for case in search_cases(function, games, list(settings.cases))]
    if PLAYER_FUNCTION in settings.functions:
        checks.append(Check('player: legal moves', PLAYER_FUNCTION, 2, 'legal'))
        if SAFE_GAME in games:
            checks.append(Check(f'player: never loses to random at {SAFE_GAME}',
                                PLAYER_FUNCTION, 2, 'safe'))
        if settings.anchors:
            checks.append(Check('player: grade against anchors', PLAYER_FUNCTION,
                                max(grade for _, grade in settings.anchors), 'anchors'))
        else:
            checks.append(Check('player: gauntlet', PLAYER_FUNCTION, 3, 'gauntlet'))
    return checks


def grade(path: str, settings: Settings = Settings(), checks: list[Check] | None = None,
          games: dict[str, Game] | None = None) -> Report:
    """Grade the file at path on the checks (default: make_checks(settings)). A file
    that cannot be loaded gets a report that says why, every check failed. Raises
    LoadError only if there is no such file or it cannot be read."""
    started = time.perf_counter()
    games = make_games(settings) if games is None else games
    checks = make_checks(settings, games) if checks is None else checks
    if parse_spec(path).is_program:
        return grade_program(path, settings, checks, games)
    if not os.path.isfile(path):
        raise LoadError(f'no such file {path!r}')
    report = Report(path, [], settings.describe())
    try:
        source = read_source(path)
    except LoadError as error:
        return unloadable(path, settings, checks, str(error))
    session = Session(source, os.path.basename(path), settings.functions, settings.sandbox,
                      Limits(memory_mb=settings.memory_mb), settings.allow_reference,
                      settings.timeout)
    try:
        defined = _load(session, report)
        table = Table(session, games, settings.move_timeout, budget=settings.player_budget)
        skipped: dict[str, str] = {}
        for check in checks:
            report.results.append(_run(check, session, table, defined, skipped, settings, report))
    finally:
        session.close()
    report.reference = session.reference
    if report.reference:
        for result in report.results:
            result.passed, result.points = False, 0
            result.message = (f"{report.reference}: the project's reference implementations "
                              'are not allowed')
    report.leaderboard = table.leaderboard
    report.missing = [function for function in settings.functions if function not in defined]
    report.loads, report.seconds = session.loads, time.perf_counter() - started
    return report


def grade_program(spec: str, settings: Settings, checks: list[Check],
                  games: dict[str, Game]) -> Report:
    """Grade a program (a player spec such as 'exec:./bot', see players.arena.program) on the
    player checks of checks, each game played against it in a jail started for that
    game; the search checks need Python functions, and the report says so."""
    started = time.perf_counter()
    checks = [check for check in checks if check.function == PLAYER_FUNCTION]
    note = (f'{spec} is a program: only its player is checked (the search checks need '
            'Python functions)')
    try:
        code = read_program(spec)
    except ValueError as error:
        report = unloadable(spec, settings, checks, str(error))
        report.note = note
        return report
    report = Report(spec, [], settings.describe(), note=note)
    table = Table(None, games, settings.move_timeout, budget=settings.player_budget,
                  program_code=code, level=settings.sandbox,
                  limits=Limits(memory_mb=settings.memory_mb))
    skipped: dict[str, str] = {}
    for check in checks:
        report.results.append(_run(check, None, table, [PLAYER_FUNCTION], skipped, settings,
                                   report))
    report.leaderboard = table.leaderboard
    report.seconds = time.perf_counter() - started
    return report


def unloadable(path: str, settings: Settings, checks: list[Check], reason: str) -> Report:
    """The report of a file that cannot be read: every check failed, saying why."""
    report = Report(path, [], settings.describe(), load_error=reason,
                    missing=list(settings.functions))
    report.results = [Result(check.name, check.function, False, 0, check.points,
                             f'cannot load {os.path.basename(path)}: {reason}', check.visibility)
                      for check in checks]
    return report


def read_source(path: str) -> str:
    """The text of a student's file; raise LoadError if it is missing or unreadable."""
    if not os.path.isfile(path):
        raise LoadError(f'no such file {path!r}')
    try:
        with open(path, encoding='utf-8') as file:
            return file.read()
    except (OSError, UnicodeDecodeError) as error:
        raise LoadError(f'cannot read {path!r}: {error}') from None


def _load(session: Session, report: Report) -> list[str]:
    """Load the file in its jail; return the functions it defines (none if it cannot
    be loaded, saying why in the report)."""
    try:
        answer = session.load()
    except StudentFault as error:
        report.load_error = (f'did not load within {session.load_seconds:g} s (an infinite loop '
                             'at import?)' if error.reason == 'timeout' else str(error))
        return []
    if not isinstance(answer, dict) or 'error' in answer:
        report.load_error = str(answer.get('error') if isinstance(answer, dict) else answer)
        return []
    return [name for name in answer.get('defined', []) if name in FUNCTIONS]


def _run(check: Check, session: Session | None, table: Table, defined: list, skipped: dict,
         settings: Settings, report: Report) -> Result:
    """Run one check and score it."""
    started = time.perf_counter()
    if report.load_error:
        passed, message = False, f'cannot load {session.filename}: {report.load_error}'
    elif check.function not in defined:
        passed, message = False, f'{check.function} is not defined in {session.filename}'
    elif check.function in skipped:
        passed, message = False, f'skipped after a timeout in {skipped[check.function]}'
    else:
        passed, message = _attempt(check, session, table, skipped, settings)
    points = check.points if passed else 0
    if check.kind == 'anchors':  # the grade, whatever it is
        points = table.leaderboard.get('Grade', 0)
    return Result(check.name, check.function, passed, points, check.points, message,
                  check.visibility, time.perf_counter() - started)


def _attempt(check: Check, session: Session | None, table: Table, skipped: dict,
             settings: Settings) -> tuple[bool, str]:
    """Ask the jail for one check's outcome and judge it here."""
    try:
        if check.kind == 'search':
            answer = session.search(check.case, state_limit(check.case), settings.timeout)
            return judge_search(check.case, answer)
        if check.kind == 'legal':
            return check_legal(table)
        if check.kind == 'safe':
            return check_safe(table, SAFE_GAME)
        if check.kind == 'anchors':
            grade, message = check_anchors(table, settings.anchors)
            return grade > min(value for _, value in settings.anchors), message
        return check_gauntlet(table)
    except StudentFault as fault:
        if fault.reason == 'timeout':
            skipped[check.function] = check.name
            return False, f'timed out after {settings.timeout:g} s (an infinite loop, or too slow)'
        return False, (f'the process ended without an answer ({fault}); does the code call '
                       'os._exit or crash Python?')
    except PlayerTimeout as timeout:
        skipped[check.function] = check.name
        return False, f'{timeout} (the limit is {settings.move_timeout:g} s a move)'
    except BudgetSpent as spent:
        return False, str(spent)


__all__ = ['Case', 'CaseError', 'Check', 'FUNCTIONS', 'LoadError', 'Report', 'Result',
           'Settings', 'grade', 'load_cases', 'make_checks']
