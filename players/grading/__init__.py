"""The course grader: checks a student's search functions and player, CS188-style,
and reports each check's points as PASS or FAIL lines or as JSON."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Callable

from games import Game, StochasticGame

from ..registry import PlayerLoadError, _load_file
from .cases import position_cases, tree_cases
from .playing import check_gauntlet, check_legal, check_safe
from .sandbox import StudentError, run
from .search import SEARCHES, judge_search, student_trace

PLAYER_FUNCTION = 'player'
FUNCTIONS = (*SEARCHES, PLAYER_FUNCTION)
"""The functions a student's file may define, in the order they are graded."""
SAFE_GAME = 'tictactoe'
"""The game at which a player must never lose to random."""


class LoadError(ValueError):
    """The student's file is missing, cannot be loaded or defines nothing to grade."""


@dataclass(frozen=True)
class Check:
    """One graded check: which function it calls and how many points it is worth."""

    name: str
    """Such as 'alpha_beta_search on fig52'."""
    function: str
    """The student's function it checks."""
    points: int
    """What passing it earns."""
    checker: Callable
    """checker(student_function, *args), run in a child process with the student's code."""
    args: tuple
    """The checker's other arguments."""
    judge: Callable | None = None
    """judge(*args, outcome) -> (passed, message), run in the grader's process on
    what the checker returned; without a judge, the checker returns (passed, message)."""


@dataclass
class Result:
    """The outcome of a check."""

    check: str
    function: str
    passed: bool
    points: int
    max_points: int
    message: str


@dataclass
class Report:
    """The outcomes of grading a file."""

    file: str
    results: list
    skipped: list
    """The functions the file does not define, which are not graded."""

    @property
    def points(self) -> int:
        """The points earned."""
        return sum(result.points for result in self.results)

    @property
    def max_points(self) -> int:
        """The points that could be earned."""
        return sum(result.max_points for result in self.results)

    @property
    def passed(self) -> bool:
        """Did every check pass?"""
        return all(result.passed for result in self.results)

    def lines(self) -> list[str]:
        """A PASS or FAIL line for each check, then the total."""
        lines = [f'{"PASS" if result.passed else "FAIL"} {result.points}/{result.max_points} '
                 f'{result.check}: {result.message}' for result in self.results]
        lines += [f'SKIP {function}: not defined in {self.file}' for function in self.skipped]
        failed = sum(not result.passed for result in self.results)
        lines.append(f'Total: {self.points}/{self.max_points} points, '
                     f'{len(self.results) - failed} of {len(self.results)} checks passed')
        return lines

    def json(self) -> str:
        """The report as a JSON document."""
        return json.dumps(self.as_dict(), indent=2, default=repr)

    def as_dict(self) -> dict:
        """The report as plain data, for a JSON file."""
        return {'file': self.file, 'points': self.points, 'max_points': self.max_points,
                'passed': self.passed, 'checks': [asdict(result) for result in self.results],
                'skipped': self.skipped}


def make_checks(games: dict[str, Game]) -> list[Check]:
    """Every check, for a student who defines every function: each search on the
    made-up trees and on a real position of each game, then the player's checks.
    Games of chance are played only in the legal-moves check: the textbook's
    searches have no chance nodes, and luck has no place in a pass mark."""
    fixed = {name: game for name, game in games.items() if not isinstance(game, StochasticGame)}
    checks = []
    for function in SEARCHES:
        d = 1 if function == 'alpha_beta_cutoff_search' else None
        for case in tree_cases(function) + position_cases(fixed, d):
            checks.append(Check(f'{function} on {case.name}', function, 1, student_trace,
                                (function, case), judge_search))
    checks.append(Check('player: legal moves', PLAYER_FUNCTION, 2, check_legal, (games,)))
    if SAFE_GAME in games:
        checks.append(Check(f'player: never loses to random at {SAFE_GAME}', PLAYER_FUNCTION, 2,
                            check_safe, (SAFE_GAME, games[SAFE_GAME])))
    checks.append(Check('player: gauntlet', PLAYER_FUNCTION, 3, check_gauntlet, (fixed,)))
    return checks


def grade(path: str, checks: list[Check], timeout: float = 30.0) -> Report:
    """Run the checks of the functions the file at path defines, each in a child
    process with timeout seconds. Raises LoadError if the file cannot be graded."""
    if not os.path.isfile(path):
        raise LoadError(f'no such file {path!r}')
    try:
        defined = run(_defined, (path,), timeout)
    except StudentError as error:
        raise LoadError(f'cannot load {path}: {error}') from None
    if isinstance(defined, str):
        raise LoadError(defined)
    if not defined:
        raise LoadError(f'{path} defines none of {", ".join(FUNCTIONS)}')
    results = [_result(path, check, timeout) for check in checks if check.function in defined]
    return Report(path, results, [function for function in FUNCTIONS if function not in defined])


def _result(path: str, check: Check, timeout: float) -> Result:
    """Run one check in a child process and score it."""
    try:
        outcome = run(_call, (path, check.function, check.checker, check.args), timeout)
        passed, message = check.judge(*check.args, outcome) if check.judge else outcome
    except StudentError as error:
        passed, message = False, str(error)
    except Exception as error:  # whatever the student returned, the grader goes on
        passed, message = False, f'cannot judge its result: {type(error).__name__}: {error}'
    return Result(check.name, check.function, passed, check.points if passed else 0,
                  check.points, message)


def _defined(path: str) -> list[str] | str:
    """In a child process: the gradable functions the file defines, or why it cannot be loaded."""
    try:
        module = _load_file(path)
    except PlayerLoadError as error:
        return str(error)
    return [name for name in FUNCTIONS if callable(getattr(module, name, None))]


def _call(path: str, function: str, checker: Callable, args: tuple):
    """In a child process: load the file and run checker on its function."""
    return checker(getattr(_load_file(path), function), *args)


__all__ = ['Check', 'FUNCTIONS', 'LoadError', 'Report', 'Result', 'grade', 'make_checks']
