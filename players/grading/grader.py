"""Grading one file: load it once in its jail, run each check, and judge every
answer here. The player's games are played by the trusted referee against the
jailed player, with a time limit for each move."""

from __future__ import annotations

import os
import time

from games import Game
from players.remote.player_code import read_program
from players.player_spec import parse_spec

from .checks import Check, make_checks, make_games
from .kinds import KINDS
from .loading import LoadError, handed_in, load, read_student, unloadable
from .playing import PlayerTimeout, PlayerTrial
from .report import Report, Result
from .session import Session, StudentFault, start_server
from .settings import PLAYER_FUNCTION, Settings

HINTS = {'died': 'does the code call os._exit or crash Python?',
         'garbled': "does the code write to the grader's pipe?"}
"""What to ask the student whose jail ended without an answer, by the fault's reason."""


def grade(path: str, settings: Settings = Settings(), checks: list[Check] | None = None,
          games: dict[str, Game] | None = None) -> Report:
    """Grade the file at path, or the submission folder (its helper modules and data
    files beside its entry: see loading.read_submission), with the course's support
    files of settings beside it (see loading.read_student), or the program a spec
    such as 'exec:./bot' names, on the checks (default: make_checks(settings)). A
    submission that cannot be read or loaded gets a report that says why, every
    check failed. Raises LoadError only if there is no such file or folder."""
    started = time.perf_counter()
    program = parse_spec(path).is_program
    games = make_games(settings) if games is None else games
    imports = tuple(sorted({name for game in games.values() for name in game.jail_imports}))
    if not program:  # its server starts while the checks are made
        start_server(settings.sandbox, settings.allow_reference, settings.allow, imports)
    checks = make_checks(settings, games) if checks is None else checks
    if program:
        return grade_program(path, settings, checks, games)
    handed = handed_in(path)[0].rstrip(os.sep) or os.sep
    if not os.path.isfile(handed) and not os.path.isdir(handed):
        raise LoadError(f'no such file or folder {path!r}')
    report = Report(path, [], settings.describe())
    if os.path.islink(handed):  # a class's entry that plays another's submission, or anything
        return unloadable(path, settings, checks, f'{os.path.basename(handed)} is a link, not a '
                          f'file or folder of its own (to {os.path.realpath(handed)})')
    try:
        code = read_student(path, settings)
    except LoadError as error:
        return unloadable(path, settings, checks, str(error))
    # a file's or folder's code always has its entry's source
    session = Session(code.source or '', code.filename, settings.functions, settings.sandbox,
                      settings.limits(), settings.allow_reference, settings.timeout, code.files,
                      settings.allow, imports)
    try:
        defined = load(session, report)
        trial = _trial(session, games, checks, settings)
        skipped: dict[str, str] = {}
        for check in checks:
            report.results.append(_run(check, session, trial, defined, skipped, settings, report))
    finally:
        session.close()
    report.reference = session.reference
    if report.reference:
        for result in report.results:
            result.passed, result.points = False, 0
            result.message = (f"{report.reference}: the project's reference implementations "
                              'are not allowed')
    report.leaderboard = trial.leaderboard
    report.missing = [function for function in settings.functions if function not in defined]
    report.loads, report.seconds = session.loads, time.perf_counter() - started
    return report


def grade_program(spec: str, settings: Settings, checks: list[Check],
                  games: dict[str, Game]) -> Report:
    """Grade a program (a player spec such as 'exec:./bot', see players.remote.program) on the
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
    trial = _trial(None, games, checks, settings, program_code=code, level=settings.sandbox,
                   limits=settings.limits())
    skipped: dict[str, str] = {}
    for check in checks:
        report.results.append(_run(check, None, trial, [PLAYER_FUNCTION], skipped, settings,
                                   report))
    report.leaderboard = trial.leaderboard
    report.seconds = time.perf_counter() - started
    return report


def _trial(session: Session | None, games: dict[str, Game], checks: list[Check],
           settings: Settings, **program) -> PlayerTrial:
    """The student's player on trial for the player checks among checks."""
    count = sum(check.function == PLAYER_FUNCTION for check in checks)
    return PlayerTrial(session, games, settings.move_timeout, budget=settings.player_budget,
                       checks=count, **program)


def _run(check: Check, session: Session | None, trial: PlayerTrial, defined: list,
         skipped: dict, settings: Settings, report: Report) -> Result:
    """Run one check and score it."""
    started = time.perf_counter()
    filename = report.file if session is None else session.filename  # a program's, or a file's
    if report.load_error:
        passed, message = False, f'cannot load {filename}: {report.load_error}'
    elif check.function not in defined and KINDS[check.kind].needs_function:
        passed, message = False, f'{check.function} is not defined in {filename}'
    elif check.function in skipped:
        passed, message = False, f'skipped after a timeout in {skipped[check.function]}'
    else:
        passed, message = _attempt(check, session, trial, skipped, settings)
    points = check.points if passed else 0
    if KINDS[check.kind].graded:  # the grade, whatever it is
        points = trial.leaderboard.get('Grade', 0)
    return Result(check.name, check.function, passed, points, check.points, message,
                  check.visibility, time.perf_counter() - started)


def _attempt(check: Check, session: Session | None, trial: PlayerTrial, skipped: dict,
             settings: Settings) -> tuple[bool, str]:
    """Ask the jail for one check's outcome and judge it here."""
    try:
        return KINDS[check.kind].run(check, session, trial, settings)
    except StudentFault as fault:
        if fault.reason == 'timeout':
            skipped[check.function] = check.name
            return False, f'timed out after {settings.timeout:g} s (an infinite loop, or too slow)'
        return False, f'the process ended without an answer ({fault}); {HINTS[fault.reason]}'
    except PlayerTimeout as timeout:
        skipped[check.function] = check.name
        return False, f'{timeout} (the limit is {settings.move_timeout:g} s a move)'
