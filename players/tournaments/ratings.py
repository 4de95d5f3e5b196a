"""Ratings: one joint Bradley–Terry fit over all games, on the Elo scale, with 95% margins.

Under the Bradley–Terry model player i scores against player j with probability
g_i / (g_i + g_j). The fit finds the strengths g that make the games played most
likely, counting a draw as half a win, with Hunter's minorise-maximise (Zermelo)
iterations: g_i <- W_i / sum_j n_ij / (g_i + g_j), where W_i is i's points and
n_ij the games between i and j. A weak prior, PRIOR_GAMES drawn games against a
fixed opponent of strength 1, keeps an unbeaten or winless player finite. The
margin is 1.96 standard errors, from the inverse of the Fisher information.
Elo = 400 log10(g), shifted so that the players' mean is 0."""

from __future__ import annotations

import math
from typing import Hashable, Mapping, Sequence, TypeVar

P = TypeVar('P', bound=Hashable)
"""A player, as the caller names players (by name, or by number)."""
Matrix = list[list[float]]

PRIOR_GAMES = 2
"""Virtual games each player draws against a fixed opponent of strength 1 (Elo 0)."""
ELO_PER_NAT = 400 / math.log(10)
Z95 = 1.959964


def fit(players: Sequence[P], games: Mapping[tuple[P, P], int],
        points: Mapping[tuple[P, P], float], tolerance: float = 1e-10,
        max_rounds: int = 100_000) -> dict[P, tuple[float, float]]:
    """Return {player: (elo, margin)}: the Bradley–Terry maximum-likelihood Elo of
    each player and its 95% margin. games[a, b] is the number of games between a
    and b (either order), points[a, b] a's points against b."""
    n = len(players)
    theta, covariance = _solve(players, games, points, tolerance, max_rounds)
    mean = sum(theta) / n if n else 0
    ratings: dict[P, tuple[float, float]] = {}
    for i, player in enumerate(players):
        centred = [(1 if j == i else 0) - 1 / n for j in range(n)]
        variance = sum(centred[j] * covariance[j][k] * centred[k]
                       for j in range(n) for k in range(n))
        ratings[player] = ((theta[i] - mean) * ELO_PER_NAT,
                           Z95 * math.sqrt(max(variance, 0)) * ELO_PER_NAT)
    return ratings


def superiority(players: Sequence[P], games: Mapping[tuple[P, P], int],
                points: Mapping[tuple[P, P], float]) -> dict[tuple[P, P], float]:
    """Return {(a, b): the likelihood that a is stronger than b} for every two
    players, from the same fit: the normal chance that the difference of their
    strengths is above 0, given its estimate and its variance."""
    theta, covariance = _solve(players, games, points)
    likelihood: dict[tuple[P, P], float] = {}
    for i, a in enumerate(players):
        for j, b in enumerate(players):
            if i != j:
                spread = math.sqrt(max(covariance[i][i] + covariance[j][j]
                                       - 2 * covariance[i][j], 1e-300))
                likelihood[a, b] = 0.5 * (1 + math.erf((theta[i] - theta[j])
                                                       / (spread * math.sqrt(2))))
    return likelihood


def _solve(players: Sequence[P], games: Mapping[tuple[P, P], int],
           points: Mapping[tuple[P, P], float], tolerance: float = 1e-10,
           max_rounds: int = 100_000) -> tuple[list[float], Matrix]:
    """Return the fitted log-strengths of the players, in their order, and their
    covariance matrix (the inverse of the Fisher information)."""
    n = len(players)
    number = {player: i for i, player in enumerate(players)}
    between = [[0.0] * n for _ in range(n)]
    wins = [PRIOR_GAMES / 2] * n
    for (a, b), count in games.items():
        between[number[a]][number[b]] += count
        between[number[b]][number[a]] += count
    for (a, b), score in points.items():
        wins[number[a]] += score
    strength = [1.0] * n
    for _ in range(max_rounds):
        new = [wins[i] / (PRIOR_GAMES / (strength[i] + 1)
                          + sum(between[i][j] / (strength[i] + strength[j])
                                for j in range(n) if between[i][j]))
               for i in range(n)]
        change = max((abs(math.log(new[i] / strength[i])) for i in range(n)), default=0)
        strength = new
        if change < tolerance:
            break
    return [math.log(g) for g in strength], _inverse(_information(strength, between))


def _information(strength: list[float], between: Matrix) -> Matrix:
    """Return the Fisher information matrix of the log-strengths, prior included."""
    n = len(strength)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        p = strength[i] / (strength[i] + 1)
        info[i][i] = PRIOR_GAMES * p * (1 - p)
        for j in range(n):
            if j != i and between[i][j]:
                p = strength[i] / (strength[i] + strength[j])
                info[i][j] = -between[i][j] * p * (1 - p)
                info[i][i] += between[i][j] * p * (1 - p)
    return info


def _inverse(matrix: Matrix) -> Matrix:
    """Return the inverse of a symmetric positive definite matrix, by Gauss–Jordan elimination."""
    n = len(matrix)
    rows = [list(row) + [float(i == j) for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        scale = rows[col][col]
        rows[col] = [value / scale for value in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [value - factor * top for value, top in zip(rows[r], rows[col])]
    return [row[n:] for row in rows]
