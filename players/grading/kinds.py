"""The kinds of check the grader runs, each registered once here with how it is run
and judged: a search on a case, a rule of the student's game class, and the
player's legal moves, safety, gauntlet and grade against anchors. A new kind is
one function here, registered with @kind, and the checks that use it (checks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, TypeVar

from .anchored import check_anchors
from .checks import SAFE_GAME, Check
from .game_checks import ask as ask_game, judge as judge_game
from .playing import PlayerTrial, check_gauntlet, check_legal, check_safe
from .search import judge_search, state_limit
from .session import Session
from .settings import Settings

Run = Callable[[Check, Session | None, PlayerTrial, Settings], tuple[bool, str]]
"""How a kind of check is run: (check, the student's session, the player on trial,
the settings) -> (passed, message)."""


@dataclass(frozen=True)
class CheckKind:
    """One kind of check: how it is run, and what it needs and gives."""

    run: Run
    needs_function: bool = True
    """Does it need the function it checks to be defined in the student's file?"""
    graded: bool = False
    """Are its points the trial's grade rather than all or nothing?"""


KINDS: dict[str, CheckKind] = {}
"""Every kind of check, by the name a Check gives as its kind."""


def kind(name: str, **options) -> Callable[[Run], Run]:
    """Register a function as the run of the kind of check name (with CheckKind's options)."""
    def registering(run: Run) -> Run:
        KINDS[name] = CheckKind(run, **options)
        return run
    return registering

T = TypeVar('T')


def _needed(value: T | None, what: str) -> T:
    """Return value, which every check of its kind has; raise ValueError if it is missing
    (a check made wrong: a fault of the grader, not the student's)."""
    if value is None:
        raise ValueError(f'a check of this kind needs {what}')
    return value


@kind('search')
def search_check(check: Check, session: Session | None, trial: PlayerTrial,
                 settings: Settings) -> tuple[bool, str]:
    """Run the student's search on the check's case and judge its answer."""
    case, session = _needed(check.case, 'a case'), _needed(session, "the student's session")
    return judge_search(case, session.search(case, state_limit(case), settings.timeout))


@kind('game', needs_function=False)
def game_check(check: Check, session: Session | None, trial: PlayerTrial,
               settings: Settings) -> tuple[bool, str]:
    """Ask the student's game class what the check's rule needs and judge it."""
    reference = _needed(check.reference, 'a reference game')
    return judge_game(check.rule, ask_game(_needed(session, "the student's session"), reference,
                                           settings.timeout))


@kind('legal')
def legal_check(check: Check, session: Session | None, trial: PlayerTrial,
                settings: Settings) -> tuple[bool, str]:
    """Did the player move legally against random in each game, from random openings?"""
    return check_legal(trial)


@kind('safe')
def safe_check(check: Check, session: Session | None, trial: PlayerTrial,
               settings: Settings) -> tuple[bool, str]:
    """Did the player never lose to random at SAFE_GAME?"""
    return check_safe(trial, SAFE_GAME)


@kind('gauntlet')
def gauntlet_check(check: Check, session: Session | None, trial: PlayerTrial,
                   settings: Settings) -> tuple[bool, str]:
    """Did the player take its share of the points against each reference player?"""
    return check_gauntlet(trial)


@kind('anchors', graded=True)
def anchors_check(check: Check, session: Session | None, trial: PlayerTrial,
                  settings: Settings) -> tuple[bool, str]:
    """The player's grade against the anchors: passed above the lowest anchor's."""
    grade, message = check_anchors(trial, settings.anchors)
    return grade > min(value for _, value in settings.anchors), message
