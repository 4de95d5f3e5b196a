"""Who wins small Nim and Grundy positions, worked out here from the theory
(Bouton, Sprague-Grundy) and by plain recursion, independently of the players."""

from functools import lru_cache, reduce
from itertools import product
from operator import xor

from games import GrundysGame, Nim, NimState


def mover_wins_nim(piles: tuple, misere: bool, cap) -> bool:
    """Does the player to move win this Nim position with best play?"""
    if cap is None and not misere:
        return reduce(xor, piles, 0) != 0
    if cap is None:
        if all(pile <= 1 for pile in piles):
            return sum(piles) % 2 == 0
        return reduce(xor, piles, 0) != 0
    if not misere:
        return reduce(xor, (pile % (cap + 1) for pile in piles), 0) != 0
    return _brute_force(tuple(sorted(piles)), cap)


@lru_cache(maxsize=None)
def _brute_force(piles: tuple, cap: int) -> bool:
    """Misère Nim with a cap, by recursion over every take: no counters left wins."""
    if not any(piles):
        return True
    for index, pile in enumerate(piles):
        for take in range(1, min(pile, cap) + 1):
            child = tuple(sorted(piles[:index] + (pile - take,) + piles[index + 1:]))
            if not _brute_force(child, cap):
                return True
    return False


@lru_cache(maxsize=None)
def sprague_grundy(pile: int) -> int:
    """The Sprague-Grundy value of a pile in Grundy's game: the mex of its splits."""
    reachable = {sprague_grundy(pile - small) ^ sprague_grundy(small)
                 for small in range(1, (pile + 1) // 2)}
    return next(value for value in range(pile + 1) if value not in reachable)


def mover_wins_grundy(piles: tuple) -> bool:
    """Does the player to move win this position of Grundy's game?"""
    return reduce(xor, map(sprague_grundy, piles), 0) != 0


def mover_wins(game, state) -> bool:
    """Does the player to move win, for a Nim or Grundy game?"""
    if isinstance(game, GrundysGame):
        return mover_wins_grundy(state.board)
    return mover_wins_nim(state.board, game.misere, game.max_take)


NIM_RULES = [(False, None), (True, None), (False, 1), (False, 2), (True, 2), (True, 3)]
"""(misere, max_take) of the Nim variants tested."""


def small_positions():
    """Every (game, state) of up to 3 piles of up to 3 counters in each Nim
    variant, with either player to move, and Grundy piles up to 12 (alone and in pairs)."""
    for misere, cap in NIM_RULES:
        for size in (1, 2, 3):
            for piles in product(range(4), repeat=size):
                game = Nim(piles or (0,), misere=misere, max_take=cap)
                for mover in ('P1', 'P2'):
                    yield game, NimState(mover, piles)
    for pile in range(1, 13):
        game = GrundysGame(pile)
        yield game, game.initial
    for first, second in product(range(1, 8), repeat=2):
        yield GrundysGame(first), NimState('P2', (first, second))
