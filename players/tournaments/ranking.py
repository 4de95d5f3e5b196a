"""The standings of a tournament: each player's rating, record and rank, per
variant and overall, from the results' totals and the Bradley-Terry fit."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from . import ratings
from .results import OVERALL, Results


@dataclass(frozen=True)
class Standing:
    """One player's line of the standings of a variant (or overall)."""

    rank: int
    """The player's place, from 1; players with the same Elo and the same wins,
    draws and losses share one."""
    player: str
    """The player's name."""
    elo: int
    """The player's Elo, to the nearest whole number (0 is the players' mean)."""
    margin: int
    """The half-width of the 95% interval of the Elo, to the nearest whole number."""
    games: int
    wins: int
    draws: int
    losses: int
    points: float
    """Wins plus half the draws."""
    score_pct: float
    """The points as a percentage of the games, to one decimal."""
    draw_pct: float
    """The draws as a percentage of the games, to one decimal."""
    forfeits: int
    """Games the player forfeited: by a timeout, an illegal move, an error or code
    that could not be loaded."""
    grade: float | None = None
    """The grade read off the player's Elo between reference players' (see
    reports.grades), to one decimal; None when the run has no such anchors."""

    def plain(self) -> dict[str, int | float | str]:
        """Return the standing as plain data, {field: value}, for JSON and CSV:
        without a grade when it has none."""
        plain = asdict(self)
        if self.grade is None:
            del plain['grade']
        return plain


def standings(results: Results, variant: str | None = OVERALL) -> list[Standing]:
    """Return the standings of a variant (or OVERALL), best first by Elo (then by
    points)."""
    entrants = results.entrants(variant)
    fitted = ratings.fit(entrants, results.pair_games(variant), results.pair_points(variant))
    unranked = []
    for player in entrants:
        tally = results.tallies[variant, player]
        elo, margin = fitted[player]
        unranked.append(Standing(
            rank=0, player=player, elo=round(elo), margin=round(margin), games=tally.games,
            wins=tally.wins, draws=tally.draws, losses=tally.losses, points=tally.points,
            score_pct=round(100 * tally.points / tally.games, 1),
            draw_pct=round(100 * tally.draws / tally.games, 1), forfeits=tally.forfeits))
    unranked.sort(key=lambda standing: (-standing.elo, -standing.points))
    ranked: list[Standing] = []
    for place, standing in enumerate(unranked, 1):
        tied = ranked and _record(ranked[-1]) == _record(standing)
        ranked.append(replace(standing, rank=ranked[-1].rank if tied else place))
    return ranked


def _record(standing: Standing) -> tuple[int, int, int, int]:
    """Return what players who share a rank have alike: Elo, wins, draws and losses."""
    return standing.elo, standing.wins, standing.draws, standing.losses


def standings_by_variant(results: Results) -> dict[str | None, list[Standing]]:
    """Return the standings of each variant with games, then OVERALL, by variant."""
    variants = [variant for variant in results.variants if results.entrants(variant)]
    return {variant: standings(results, variant) for variant in [*variants, OVERALL]}
