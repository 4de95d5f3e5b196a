"""Grading a student's player against anchors: reference players that stand for
given grades. The student and the anchors play a small round robin (the student
jailed, the anchors shipped players), one joint Bradley–Terry fit rates them all,
and the student's grade is read off its Elo between the anchors' (linear in Elo,
clamped to the lowest and highest anchor's grade), as the tournament's --anchors does."""

from __future__ import annotations

import itertools
import random

from games import StochasticGame, referee
from players.reports import grades
from players.tournaments import ratings
from players.tournaments.match import play_opening

from ..registry import load_player
from .playing import MAX_PLIES, Fixture, PlayerTrial, Sample

STUDENT = 'student'
"""The student's name among the anchors in the fit."""
PAIRS = 2
"""Game pairs per pairing per game (one game in each seat, from the same opening)."""
OPENING_PLIES = 2
"""Random plies before the players take over, so that the pairs differ."""


def check_anchors(trial: PlayerTrial, anchors: tuple[tuple[str, float], ...]) -> tuple[float, str]:
    """Play the student and every anchor against each other on each game without
    chance, PAIRS pairs a pairing; return the student's grade and a message with
    its Elo, each anchor's Elo and grade, and the student's points against each.
    A game the student forfeits is a game it lost (a move over its time ends the
    check: see playing.PlayerTimeout). The anchors play all their games; the
    student plays rounds of a pair against each anchor on one game while its share
    of the budget lasts (see playing.Sample)."""
    fixed = [name for name, game in trial.games.items() if not isinstance(game, StochasticGame)]
    names = [name for name, _ in anchors]
    games: dict = {}
    points: dict = {}

    def count(a: str, b: str, score: float) -> None:
        """Count a game of a (in either seat) against b, which a scored score in."""
        games[a, b] = games.get((a, b), 0) + 1
        points[a, b] = points.get((a, b), 0) + score
        points[b, a] = points.get((b, a), 0) + 1 - score

    for (a, b), variant, pair in itertools.product(itertools.combinations(names, 2), fixed,
                                                   range(PAIRS)):
        for seat in (0, 1):
            first, second = (a, b) if seat == 0 else (b, a)
            record = _play(trial, variant, first, second, f'anchors {variant} {a} {b} {pair}')
            count(a, b, record.score(seat))
    sample = Sample(trial, [[Fixture(variant, name, seat, OPENING_PLIES,
                                     f'anchors {variant} {STUDENT} {name} {pair}')
                             for name in names for seat in (0, 1)]
                            for pair, variant in itertools.product(range(PAIRS), fixed)])
    for fixture, record in sample:
        count(STUDENT, fixture.opponent, record.score(fixture.seat))
    fitted = ratings.fit([STUDENT, *names], games, points)
    elo = {name: round(fitted[name][0]) for name in [STUDENT, *names]}
    grade = round(grades.grade(elo[STUDENT], [(elo[name], value) for name, value in anchors]), 1)
    trial.leaderboard.update({'Elo': elo[STUDENT], 'Grade': grade})
    each = 2 * sample.played
    against = ', '.join(f'{points.get((STUDENT, name), 0):g}/{each} against {name} '
                        f'(Elo {elo[name]:+d}, grade {value:g})' for name, value in anchors)
    return grade, f'grade {grade:g}: Elo {elo[STUDENT]:+d}; {against}{sample.note()}'


def _play(trial: PlayerTrial, variant: str, first: str, second: str, seed: str):
    """Play one game of two anchors at variant from the pair's opening; return its record."""
    game = trial.games[variant]
    random.seed(seed)
    dice = random.Random(f'{seed}:dice')
    _, state = play_opening(game, OPENING_PLIES, seed, dice)
    return referee.play(game, [load_player(first), load_player(second)], state=state,
                        max_plies=MAX_PLIES, isolate=False, rng=dice)
