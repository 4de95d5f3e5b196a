"""Results: running totals of the game records, per variant and overall, in flat memory."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from games.referee import ADJUDICATED, CANNOT_LOAD, ERROR, ILLEGAL, NORMAL, TIMEOUT
from .record import FIRST, GameRecord

OVERALL = None
"""The key of the totals across all variants."""
OPPONENT_FORFEIT = 'opponent forfeit'
ENDINGS = (NORMAL, ADJUDICATED, TIMEOUT, ILLEGAL, ERROR, CANNOT_LOAD, OPPONENT_FORFEIT)
"""How a game can end for a player: on the board, by adjudication, by the
player's own timeout, illegal move or error, by its own code that could not be
loaded, or by the opponent's forfeit."""
MAX_REASONS = 20
"""The most different forfeit reasons kept for one player; the rest are only counted."""


@dataclass
class Reason:
    """One kind of fault a player forfeited for, and the games it forfeited for it."""

    termination: str
    """How the games ended: timeout, illegal move, error or cannot load."""
    kind: str
    """The kind of fault: the detail up to its first ':' or ';', such as 'TypeError'."""
    detail: str
    """What went wrong in the first of those games, such as
    "TypeError: 'int' object is not subscriptable"."""
    games: int = 0
    """How many games the player forfeited for this reason."""
    first_game: int = 0
    """The schedule index of the first of those games."""


@dataclass
class Tally:
    """One player's totals on one variant (or overall)."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    forfeits: int = 0
    """Games the player forfeited: by a timeout, an illegal move, an error or code
    that could not be loaded."""
    endings: Counter[str] = field(default_factory=Counter)
    """Games by how they ended for the player (see ENDINGS)."""
    seconds: float = 0.0
    """Time spent thinking, in seconds."""
    moves: int = 0
    nodes: float = 0
    """Nodes the player reported searching, over node_moves of its moves."""
    node_moves: int = 0

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2


class Results:
    """The running totals of a tournament: a Tally per player per variant and
    overall, and the games and points of each pair of players."""

    def __init__(self, players: Sequence[str], variants: Sequence[str]):
        self.players = list(players)
        self.variants = list(variants)
        self.tallies: defaultdict[tuple[str | None, str], Tally] = defaultdict(Tally)
        """(variant or OVERALL, player) -> Tally."""
        self.games: Counter[tuple[str | None, str, str]] = Counter()
        """(variant or OVERALL, a, b) -> games between a and b, a before b in players."""
        self.points: defaultdict[tuple[str | None, str, str], float] = defaultdict(float)
        """(variant or OVERALL, a, b) -> a's points against b."""
        self.reasons: defaultdict[str, dict[tuple[str, str], Reason]] = defaultdict(dict)
        """player -> {(termination, kind): Reason}, at most MAX_REASONS of them."""
        self.unexplained: Counter[str] = Counter()
        """player -> forfeits whose reason was past the MAX_REASONS kept."""

    def add_all(self, records: Iterable[GameRecord]) -> 'Results':
        """Add each record and return self."""
        for record in records:
            self.add(record)
        return self

    @property
    def game_count(self) -> int:
        """Return the number of games added."""
        return sum(count for (variant, *_), count in self.games.items() if variant is OVERALL)

    def add(self, record: GameRecord) -> None:
        """Add one game's record to the totals."""
        if record.forfeit is not None:
            self._explain(record, record.forfeit)
        first, second = sorted(record.names, key=self.players.index)
        for variant in (record.variant, OVERALL):
            self.games[variant, first, second] += 1
            for seat, name in enumerate(record.names):
                score = record.points(seat)
                self.points[(variant, name, record.names[1 - seat])] += score
                self._count(self.tallies[variant, name], record, name, score, seat)

    def _explain(self, record: GameRecord, forfeit: str) -> None:
        """Keep the reason of a forfeit of the player forfeit, with the first game
        forfeited for it."""
        reasons = self.reasons[forfeit]
        detail = record.detail or ''
        key = (record.termination, re.split('[:;]', detail, maxsplit=1)[0])
        if key not in reasons and len(reasons) >= MAX_REASONS:
            self.unexplained[forfeit] += 1
            return
        reason = reasons.setdefault(key, Reason(*key, detail, first_game=record.index))
        reason.games += 1
        if record.index < reason.first_game:
            reason.first_game, reason.detail = record.index, detail

    @staticmethod
    def _count(tally: Tally, record: GameRecord, name: str, score: float, seat: int) -> None:
        """Add one game to the tally of the player called name, in seat."""
        tally.games += 1
        tally.wins += score == 1
        tally.draws += score == 0.5
        tally.losses += score == 0
        if record.forfeit == name:
            tally.forfeits += 1
            tally.endings[record.termination] += 1
        elif record.forfeit is not None:
            tally.endings[OPPONENT_FORFEIT] += 1
        else:
            tally.endings[record.termination] += 1
        seconds, moves, nodes = ((record.time_first, record.moves_first, record.nodes_first)
                                 if seat == FIRST else
                                 (record.time_second, record.moves_second, record.nodes_second))
        tally.seconds += seconds
        tally.moves += moves
        if nodes is not None:
            tally.nodes += nodes
            tally.node_moves += moves

    def pair_games(self, variant: str | None) -> dict[tuple[str, str], int]:
        """Return {(a, b): games} for one variant (or OVERALL)."""
        return {(a, b): n for (v, a, b), n in self.games.items() if v == variant}

    def pair_points(self, variant: str | None) -> dict[tuple[str, str], float]:
        """Return {(a, b): a's points against b} for one variant (or OVERALL)."""
        return {(a, b): p for (v, a, b), p in self.points.items() if v == variant}

    def endings(self) -> tuple[str, ...]:
        """Return the endings the tables show: ENDINGS, without CANNOT_LOAD unless a
        game ended so (it is rare, and its column would widen every report)."""
        happened = any(tally.endings[CANNOT_LOAD] for tally in self.tallies.values())
        return tuple(ending for ending in ENDINGS if ending != CANNOT_LOAD or happened)

    def entrants(self, variant: str | None) -> list[str]:
        """Return the players with games on a variant (or OVERALL), in the players' order."""
        return [player for player in self.players if (variant, player) in self.tallies]
