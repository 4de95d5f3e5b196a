"""Game theory computed independently of the code under test, for the tests to check search against."""

from functools import lru_cache, reduce
from itertools import product
from operator import xor


def nim_sum(piles) -> int:
    """The exclusive or of the pile sizes."""
    return reduce(xor, piles, 0)


def bouton_mover_wins(piles, misere: bool) -> bool:
    """Bouton's theorem: does the player to move win this Nim position?
    Normal play: iff the nim-sum is not 0. Misère: the same, except when no pile
    has more than one counter, where the mover wins iff the count of 1-piles is even."""
    if misere and all(pile <= 1 for pile in piles):
        return sum(piles) % 2 == 0
    return nim_sum(piles) != 0


def small_positions(max_piles: int = 3, max_count: int = 3):
    """Every tuple of 1 to max_piles piles of 0 to max_count counters."""
    for count in range(1, max_piles + 1):
        yield from product(range(max_count + 1), repeat=count)


@lru_cache(maxsize=None)
def grundy_split_value(pile: int) -> int:
    """The Sprague-Grundy value of one pile in Grundy's game (mex of the splits)."""
    options = {grundy_split_value(part) ^ grundy_split_value(pile - part)
               for part in range(1, (pile + 1) // 2)}
    return next(value for value in range(len(options) + 1) if value not in options)
