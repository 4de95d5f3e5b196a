"""The schedule: pairings, game pairs with the seats swapped, and seeds from the run's seed."""

from __future__ import annotations

import hashlib
import itertools
import random
from dataclasses import dataclass
from typing import Iterator, Sequence


@dataclass(frozen=True)
class ScheduledGame:
    """One scheduled game, in picklable form."""

    index: int
    """The game's place in the schedule, from 0; the results store's key."""
    variant: str
    """The variant name or spec, as given."""
    first: str
    """The spec of the player in the first seat."""
    second: str
    """The spec of the player in the second seat."""
    pair: int
    """Which game pair of its pairing on its variant this game belongs to, from 0."""
    leg: int
    """0 for the pair's first game, 1 for the game with the seats swapped."""
    seed: int
    """The pair's seed: both games of a pair share it, and so share their opening."""

    @property
    def game_seed(self) -> str:
        """The seed of this game's players (see player_seed)."""
        return f'{self.seed}:{self.leg}'

    def player_seed(self, seat: int) -> str:
        """The seed of the random module of the player in seat: a one-way digest, so
        that a player learns nothing from it of the pair's seed, which rolls the
        dice and chooses the opening."""
        return hashlib.sha256(f'{self.game_seed}:{seat}'.encode()).hexdigest()[:16]


def pairings(players: Sequence[str], gauntlet: str | None = None) -> list[tuple[str, str]]:
    """Return the pairings of a round robin, or of a gauntlet (one player against each other)."""
    if gauntlet is None:
        return list(itertools.combinations(players, 2))
    return [(gauntlet, other) for other in players if other != gauntlet]


def derive_seed(*parts: object) -> int:
    """Return a 63-bit seed determined by parts alone (not by the Python process)."""
    return random.Random(':'.join(map(str, parts))).getrandbits(63)


def schedule(players: Sequence[str], variants: Sequence[str], pairs: int, seed: int,
             gauntlet: str | None = None) -> Iterator[ScheduledGame]:
    """Generate every game: for each variant, each pairing plays pairs game pairs,
    each pair twice from the same start with the seats swapped."""
    index = itertools.count()
    for variant in variants:
        for a, b in pairings(players, gauntlet):
            for pair in range(pairs):
                pair_seed = derive_seed(seed, variant, a, b, pair)
                yield ScheduledGame(next(index), variant, a, b, pair, 0, pair_seed)
                yield ScheduledGame(next(index), variant, b, a, pair, 1, pair_seed)


def count_games(players: Sequence[str], variants: Sequence[str], pairs: int,
                gauntlet: str | None = None) -> int:
    """Return how many games schedule() generates."""
    return len(variants) * len(pairings(players, gauntlet)) * pairs * 2
