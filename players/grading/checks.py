"""The checks a file is graded on: each search on the made-up trees, on a real
position of each game and on the instructor's cases, then the player's checks."""

from __future__ import annotations

from dataclasses import dataclass, field

import variants
from games import Game

from .cases import SEARCH_FUNCTIONS, Case, search_cases
from .game_checks import RULE_POINTS, game_checks
from .reference import Reference, survey
from .settings import GAME, PLAYER_FUNCTION, Settings

SAFE_GAME = 'tictactoe'
"""The game at which a player must never lose to random."""


@dataclass(frozen=True)
class Check:
    """One graded check: which function it checks and how many points it is worth."""

    name: str
    """Such as 'alpha_beta_search on fig52'."""
    function: str
    points: float
    kind: str
    """How it is run: a kind of kinds.KINDS ('search', 'legal', 'game', ...)."""
    case: Case | None = None
    visibility: str = 'visible'
    rule: str = ''
    """For a check of a game class, the rule it checks (see game_checks.RULES)."""
    reference: Reference | None = field(default=None, compare=False, repr=False)
    """For a check of a game class, what the class is compared with."""


def make_games(settings: Settings) -> dict[str, Game]:
    """The games of the settings' variants, by name."""
    return {name: variants.make(name) for name in settings.variants}


def make_checks(settings: Settings, games: dict[str, Game] | None = None) -> list[Check]:
    """Every check of the functions the settings ask for: each search on the made-up
    trees, on a real position of each game and on the instructor's cases, then the
    player's checks, then those of the student's game class if one is asked for.
    Games of chance are played only in the legal-moves check: the textbook's
    searches have no chance nodes, and luck has no place in a pass mark."""
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
    if settings.game:
        reference = survey(settings.reference, settings.game, settings.game_positions)
        checks += [Check(name, GAME, RULE_POINTS, 'game', rule=rule, reference=reference)
                   for name, rule in game_checks(reference)]
    return checks
