"""The sequential probability ratio test (SPRT) of chess-engine testing: is a player
stronger than a baseline by at least elo1 Elo, or by at most elo0?

Games are played in pairs from the same start with the seats swapped, and each pair
counts as one observation: the player's points in it, 0, ½, 1, 1½ or 2 (the
pentanomial model). The log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo =
elo0) is the generalized SPRT's normal approximation:

    LLR = N (s1 - s0) (2 s - s0 - s1) / (2 v)

where N is the number of pairs, s the mean score per game, v the variance of a
pair's score per game (its points / 2), and s0, s1 the expected scores of logistic
Elo elo0 and elo1, 1 / (1 + 10 ** (-elo / 400)). s and v are taken over the pairs
played and a prior of PRIOR_PAIRS pair spread evenly over the five results (a fifth
each), so that a run of identical pairs, common between deterministic players on
small games, has a finite LLR that grows with the number of pairs instead of
deciding at the first pair. The test stops when the LLR leaves (log(beta / (1 - alpha)),
log((1 - beta) / alpha)): below, H0 is accepted; above, H1."""

from __future__ import annotations

import math
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from .ratings import Z95
from .record import GameRecord
from .runner import run
from .schedule import ScheduledGame, derive_seed

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score per game for each pentanomial bin: 0, ½, 1, 1½ and 2 points of 2."""
PRIOR_PAIRS = 1.0
"""The weight of the prior, spread evenly over the five bins, in pairs."""
SCORE_LIMIT = 1e-6
"""How close to 0 or 1 a score may come when it is turned into Elo."""


def expected_score(elo: float) -> float:
    """Return the expected score per game of a player elo Elo stronger (logistic Elo)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """Return the Elo difference of an expected score per game (logistic Elo)."""
    score = min(max(score, SCORE_LIMIT), 1 - SCORE_LIMIT)
    return -400 * math.log10(1 / score - 1)


@dataclass(frozen=True)
class Hypotheses:
    """What the test decides between, and its error rates."""

    elo0: float = 0.0
    """H0: the player is stronger by at most elo0."""
    elo1: float = 10.0
    """H1: the player is stronger by at least elo1."""
    alpha: float = 0.05
    """The chance of accepting H1 when H0 holds."""
    beta: float = 0.05
    """The chance of accepting H0 when H1 holds."""

    def bounds(self) -> tuple[float, float]:
        """Return (lower, upper): the LLR below which H0 is accepted, above which H1 is."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))


@dataclass
class Pentanomial:
    """The pairs played so far, counted by the player's points in each."""

    counts: list[int] = field(default_factory=lambda: [0] * 5)
    """counts[k]: pairs in which the player scored k / 2 points (0, ½, 1, 1½, 2)."""

    def add(self, points: float) -> None:
        """Count one pair in which the player scored points (0 to 2)."""
        self.counts[round(2 * points)] += 1

    @property
    def pairs(self) -> int:
        """The number of pairs."""
        return sum(self.counts)

    @property
    def points(self) -> float:
        """The player's points over all the pairs' games."""
        return sum((count * k / 2 for k, count in enumerate(self.counts)), 0.0)

    def _weights(self) -> list[float]:
        """Each bin's count and its share of the prior."""
        return [count + PRIOR_PAIRS / len(self.counts) for count in self.counts]

    def mean(self) -> float:
        """The mean score per game (with the prior)."""
        weights = self._weights()
        return sum(w * s for w, s in zip(weights, PAIR_SCORES)) / sum(weights)

    def variance(self) -> float:
        """The variance of a pair's score per game (with the prior)."""
        weights, mean = self._weights(), self.mean()
        return sum(w * (s - mean) ** 2 for w, s in zip(weights, PAIR_SCORES)) / sum(weights)

    def llr(self, hypotheses: Hypotheses) -> float:
        """The log-likelihood ratio of H1 against H0 (0 before the first pair)."""
        if not self.pairs:
            return 0.0
        s0, s1 = expected_score(hypotheses.elo0), expected_score(hypotheses.elo1)
        return (self.pairs * (s1 - s0) * (2 * self.mean() - s0 - s1)
                / (2 * self.variance()))

    def elo(self) -> float:
        """The Elo difference the mean score stands for."""
        return elo_of(self.mean())

    def elo_error(self) -> float:
        """Half the width of the Elo's 95% interval, from the score's standard error."""
        error = Z95 * self._standard_error()
        return (elo_of(self.mean() + error) - elo_of(self.mean() - error)) / 2

    def los(self) -> float:
        """The likelihood of superiority: the chance that the player is the stronger."""
        error = self._standard_error()
        return 0.5 * (1 + math.erf((self.mean() - 0.5) / (error * math.sqrt(2))))

    def _standard_error(self) -> float:
        """The standard error of the mean score per game."""
        return math.sqrt(self.variance() / max(self.pairs, 1))


def verdict(llr: float, bounds: tuple[float, float]) -> str | None:
    """Return 'H1' above the upper bound, 'H0' below the lower, else None."""
    if llr >= bounds[1]:
        return 'H1'
    if llr <= bounds[0]:
        return 'H0'
    return None


def pair_specs(player: str, baseline: str, variants: Sequence[str], seed: int,
               pairs: int | None = None) -> Iterator[ScheduledGame]:
    """Generate the games of the test: pair k on variants[k % len(variants)], the
    player first in its first game and second in the other, both from the same
    start; pairs of them in all (None: without end)."""
    number = 0
    while pairs is None or number < pairs:
        variant = variants[number % len(variants)]
        pair_seed = derive_seed(seed, 'sprt', variant, player, baseline, number)
        yield ScheduledGame(2 * number, variant, player, baseline, number, 0, pair_seed)
        yield ScheduledGame(2 * number + 1, variant, baseline, player, number, 1, pair_seed)
        number += 1


class Sequential:
    """The test as games finish: the pairs are counted in their order, so that the
    verdict is the same whatever order the games finish in (whatever --jobs is)."""

    def __init__(self, hypotheses: Hypotheses, player: str,
                 on_pair: Callable[['Sequential'], None] = lambda test: None):
        self.hypotheses, self.player, self.on_pair = hypotheses, player, on_pair
        self.bounds = hypotheses.bounds()
        self.tally = Pentanomial()
        self.result: str | None = None
        self.llr = 0.0
        self._scores: dict[int, list[float]] = {}

    def add(self, record: GameRecord) -> None:
        """Count a finished game; count each pair once both its games and every
        earlier pair are in, and decide as soon as the LLR leaves its bounds."""
        mine = record.points(record.seat_of(self.player))
        self._scores.setdefault(record.pair, []).append(mine)
        while self.result is None and len(self._scores.get(self.tally.pairs, ())) == 2:
            self.tally.add(sum(self._scores.pop(self.tally.pairs)))
            self.llr = self.tally.llr(self.hypotheses)
            self.result = verdict(self.llr, self.bounds)
            self.on_pair(self)

    def summary(self) -> dict[str, object]:
        """The test's outcome as plain data, for --json."""
        tally = self.tally
        return {'result': self.result or 'none', 'games': 2 * tally.pairs,
                'llr': round(self.llr, 4), 'bounds': [round(b, 4) for b in self.bounds],
                'elo': round(tally.elo(), 2), 'elo_error': round(tally.elo_error(), 2),
                'los': round(tally.los(), 4), 'pentanomial': list(tally.counts),
                'points': tally.points, **vars(self.hypotheses)}

    def status(self) -> str:
        """One line: games, score, Elo and its interval, LLR and its bounds."""
        tally = self.tally
        games = 2 * tally.pairs
        score = f'{100 * tally.points / games:.1f}%' if games else '-'
        lower, upper = self.bounds
        return (f'{games} games, score {tally.points:g}/{games} ({score}), '
                f'Elo {tally.elo():+.1f} ± {tally.elo_error():.1f}, '
                f'LLR {self.llr:.2f} ({lower:.2f}, {upper:.2f})')


class _Decided(Exception):
    """Raised once the test has its verdict, to stop the games still running."""


class _Feed:
    """What the runner stores the games in: here, the test, which keeps no game."""

    def __init__(self, test: Sequential):
        self.test = test

    def has(self, index: int) -> bool:
        """No game is played before the test starts."""
        return False

    def add(self, record: GameRecord) -> None:
        """Count the finished game in the test."""
        self.test.add(record)


def run_test(test: Sequential, specs: Iterator[ScheduledGame],
             job: Callable[[ScheduledGame], GameRecord],
             executor: Executor, in_flight: int) -> Sequential:
    """Play the games of specs with job on the executor (as the tournament's runner
    does, each player in its jail) until the test has its verdict or specs run out;
    the games still running then are stopped. Returns the test."""
    def check() -> None:
        if test.result is not None:
            raise _Decided

    try:
        run(specs, job, executor, _Feed(test), in_flight=in_flight, progress=check)
    except _Decided:
        pass
    return test


def lines(test: Sequential, baseline: str) -> list[str]:
    """Return the lines that end a test: the tally, the statistics and the verdict."""
    player, tally, hypotheses = test.player, test.tally, test.hypotheses
    verdicts = {
        'H1': f'H1 accepted: {player} is stronger than {baseline} by at least '
              f'{hypotheses.elo1:g} Elo.',
        'H0': f'H0 accepted: {player} is not stronger than {baseline} by {hypotheses.elo1:g} '
              f'Elo (at most {hypotheses.elo0:g}).',
        None: 'No verdict: --max-games ran out before the LLR reached a bound.'}
    return [f'Games: {test.status()}',
            f'Pairs by {player}\'s points (0, 0.5, 1, 1.5, 2): '
            f'{", ".join(map(str, tally.counts))}',
            f'LOS: {100 * tally.los():.1f}% that {player} is the stronger',
            verdicts[test.result]]
