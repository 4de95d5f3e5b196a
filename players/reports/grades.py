"""Grades from ratings: reference players (anchors) stand for given grades, and
every other player's grade is read off its Elo between them, linear in Elo and
clamped to the grades of the lowest and the highest rated anchor."""

from __future__ import annotations

import math
from dataclasses import replace

from players.tournaments.naming import split_specs
from players.tournaments.ranking import Standing


def parse_anchors(text: str) -> dict[str, float]:
    """Return {player name: grade} of an --anchors option such as
    'random=0,ab2=70,ab4=100'. Raises ValueError saying what is wrong."""
    anchors: dict[str, float] = {}
    for entry in split_specs(text):
        name, equals, grade = entry.rpartition('=')
        name = name.strip()
        if not equals or not name:
            raise ValueError(f'give each anchor as PLAYER=GRADE, such as ab2=70, not {entry!r}')
        try:
            value = float(grade)
        except ValueError:
            raise ValueError(f'the grade of anchor {name!r} must be a number, '
                             f'got {grade.strip()!r}') from None
        if not math.isfinite(value):
            raise ValueError(f'the grade of anchor {name!r} must be a finite number')
        if name in anchors:
            raise ValueError(f'anchor {name!r} is given twice')
        anchors[name] = value
    if len(anchors) < 2:
        raise ValueError('give at least two anchors, such as random=0,ab4=100')
    return anchors


def grade(elo: float, points: list[tuple[float, float]]) -> float:
    """Return the grade of a rating elo, given the anchors' (elo, grade), linear
    between the two anchors around it and clamped beyond the lowest and highest."""
    points = sorted(points)
    if elo <= points[0][0]:
        return points[0][1]
    for (low, low_grade), (high, high_grade) in zip(points, points[1:]):
        if elo <= high:
            share = (elo - low) / (high - low) if high > low else 1.0
            return low_grade + share * (high_grade - low_grade)
    return points[-1][1]


def graded(standings: list[Standing], anchors: dict[str, float]) -> list[Standing]:
    """Return the standings, each with its grade, read off its Elo (as shown, a
    whole number) between the anchors' standings, to one decimal. Raises ValueError
    if an anchor has no standing."""
    elo = {standing.player: standing.elo for standing in standings}
    missing = [name for name in anchors if name not in elo]
    if missing:
        raise ValueError(f'anchor {missing[0]!r} is no player of the run; its players: '
                         f'{", ".join(elo)}')
    points = [(float(elo[name]), value) for name, value in anchors.items()]
    return [replace(standing, grade=round(grade(standing.elo, points), 1))
            for standing in standings]
