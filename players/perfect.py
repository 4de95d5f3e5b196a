"""The perfect player from combinatorial game theory, for Nim and Grundy's game.

Normal-play Nim is won by leaving a nim-sum (xor of the piles) of 0; with at
most m counters taken at once a pile counts as its size mod (m + 1); misère
Nim follows Bouton: play as in normal Nim until the move would leave only
piles of 0 or 1, then leave an odd number of 1s. Grundy's game adds up the
Sprague-Grundy values of its piles, each the mex (least excluded value) of
the values its splits lead to. Anything else is solved by search; on Connect
Four, Othello, Kalah, Hex and Breakthrough, within the move's time
(players.search.timing): a search that cannot finish in half of it gives way to
alpha-beta deepened one ply at a time for the rest."""

from __future__ import annotations

import time

from games.base import Game, Move
from games.breakthrough import Breakthrough
from games.hex import Hex
from games.kalah import Kalah
from games.nim import GrundysGame, Nim
from games.othello import Othello

from .clocked import DEFAULT_SECONDS, deepening
from .search.engine import is_connect_four, keep_stats, solve
from .search.shared import SearchStats, State
from .search.timing import OutOfTime, move_deadline

BOARD_GAMES = (Othello, Kalah, Hex, Breakthrough)
"""Games besides Connect Four that perfect plays within its time (too big to solve
from the start but for small boards)."""

_GRUNDY = [0, 0, 0]
"""Sprague-Grundy values of single piles in Grundy's game, by size, computed as needed."""


def mex(values) -> int:
    """The least whole number not among values."""
    values = set(values)
    least = 0
    while least in values:
        least += 1
    return least


def grundy_value(pile: int) -> int:
    """The Sprague-Grundy value of one pile in Grundy's game (memoized)."""
    while len(_GRUNDY) <= pile:
        size = len(_GRUNDY)
        _GRUNDY.append(mex(_GRUNDY[size - small] ^ _GRUNDY[small]
                           for small in range(1, (size + 1) // 2)))
    return _GRUNDY[pile]


def nim_sum(values) -> int:
    """The xor of whole numbers."""
    total = 0
    for value in values:
        total ^= value
    return total


def _nim_move(piles: tuple, modulus: int | None):
    """A normal-play move to a nim-sum of 0 (piles counted mod modulus), or None if none."""
    values = [pile if modulus is None else pile % modulus for pile in piles]
    total = nim_sum(values)
    if not total:
        return None
    for number, value in enumerate(values, 1):
        if value ^ total < value:
            return (number, value - (value ^ total))
    return None


def _misere_move(piles: tuple):
    """Bouton's misère move: leave an odd number of 1-piles when no bigger pile
    would remain, else a nim-sum of 0; None if every move loses."""
    big = [number for number, pile in enumerate(piles, 1) if pile > 1]
    if len(big) == 1:
        number = big[0]
        ones = sum(1 for pile in piles if pile == 1)
        return (number, piles[number - 1] - (1 if ones % 2 == 0 else 0))
    if not big:
        singles = [number for number, pile in enumerate(piles, 1) if pile == 1]
        return (singles[0], 1) if singles and len(singles) % 2 == 0 else None
    return _nim_move(piles, None)


def _grundy_move(piles: tuple):
    """A split that leaves the sum of Sprague-Grundy values at 0, or None if there is none."""
    total = nim_sum(grundy_value(pile) for pile in piles)
    if not total:
        return None
    for number, pile in enumerate(piles, 1):
        target = grundy_value(pile) ^ total
        for small in range(1, (pile + 1) // 2):
            if grundy_value(pile - small) ^ grundy_value(small) == target:
                return (number, small)
    return None


def theory_move(game: Game, state):
    """The winning move that theory gives for a Nim or Grundy position; None
    where it has no winning move; NotImplemented where theory does not apply
    here (other games, misère Nim with a cap)."""
    if type(game) is Nim:
        if not game.misere:
            return _nim_move(state.board, None if game.max_take is None else game.max_take + 1)
        if game.max_take is None:
            return _misere_move(state.board)
    elif type(game) is GrundysGame:
        return _grundy_move(state.board)
    return NotImplemented


def solve_in_time(game: Game, state: State, deadline: float) -> tuple[Move | None, SearchStats]:
    """Return (move, stats) by the deadline: the solved move if
    the exact search ends within half the time, else the move of the deepest
    alpha-beta search finished by the deadline. stats has nodes, depth (-1 when
    solved) and exact."""
    stats = SearchStats()
    now = time.monotonic()
    try:
        move = solve(game, state, stats, deadline=now + (deadline - now) / 2).move
        return move, SearchStats(nodes=stats.nodes, depth=-1, exact=True)
    except OutOfTime:
        move, result = deepening(game, state, deadline)
        result.nodes = (result.nodes or 0) + (stats.nodes or 0)
        return move, result


def perfect_player(game: Game, state):
    """A perfect player by game theory for Nim and Grundy's game, exact search elsewhere.

    Theory answers in microseconds; with no winning move it plays the first legal one.
    On Connect Four, Othello, Kalah, Hex and Breakthrough it plays exactly once it can
    finish within its time, and until then the move of the deepest alpha-beta search
    it can finish (perfect_player.stats)."""
    move = theory_move(game, state)
    if move is NotImplemented:
        if is_connect_four(game) or isinstance(game, BOARD_GAMES):
            move, stats = solve_in_time(game, state, move_deadline(DEFAULT_SECONDS))
            keep_stats(perfect_player, stats)
            return move
        return solve(game, state).move
    if move is None:
        actions = game.actions(state)
        return actions[0] if actions else None
    return move
