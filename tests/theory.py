"""Game theory computed independently of the code under test, for the tests to check search against."""

from functools import lru_cache, reduce
from itertools import product
from operator import xor

from games import GrundysGame, Nim, NimState, TreeGame


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


def mover_wins_nim(piles: tuple, misere: bool, cap) -> bool:
    """Does the player to move win this Nim position, with at most cap counters
    taken at once? Normal play with a cap counts each pile mod (cap + 1);
    misère play with a cap is worked out by recursion over every take."""
    if cap is None:
        return bouton_mover_wins(piles, misere)
    if not misere:
        return nim_sum(pile % (cap + 1) for pile in piles) != 0
    return _capped_misere_mover_wins(tuple(sorted(piles)), cap)


@lru_cache(maxsize=None)
def _capped_misere_mover_wins(piles: tuple, cap: int) -> bool:
    """Misère Nim with a cap, by recursion: no counters left wins for the mover."""
    if not any(piles):
        return True
    return any(not _capped_misere_mover_wins(
        tuple(sorted(piles[:index] + (pile - take,) + piles[index + 1:])), cap)
        for index, pile in enumerate(piles) for take in range(1, min(pile, cap) + 1))


def mover_wins(game, state) -> bool:
    """Does the player to move win, in a Nim or Grundy game?"""
    if isinstance(game, GrundysGame):
        return nim_sum(map(grundy_split_value, state.board)) != 0
    return mover_wins_nim(state.board, game.misere, game.max_take)


NIM_RULES = [(False, None), (True, None), (False, 1), (False, 2), (True, 2), (True, 3)]
"""(misere, max_take) of the Nim variants the engine is tested on."""


def small_games():
    """(game, state) for every small position: up to 3 piles of up to 3 counters
    in each Nim variant with either player to move, and Grundy piles up to 12
    (alone, and in pairs up to 7)."""
    for misere, cap in NIM_RULES:
        for piles in small_positions():
            game = Nim(piles, misere=misere, max_take=cap)
            for mover in ('P1', 'P2'):
                yield game, NimState(mover, piles)
    for pile in range(1, 13):
        game = GrundysGame(pile)
        yield game, game.initial
    for first, second in product(range(1, 8), repeat=2):
        yield GrundysGame(first), NimState('P2', (first, second))


def chain(length: int) -> TreeGame:
    """A tree where MAX's first move a only pays off length plies deep, and b scores 0:
    a search sees a's worth exactly when it looks length plies ahead."""
    succs, node = {'A': {'a': 'N1', 'b': 'Z'}}, 'N1'
    for depth in range(1, length):
        succs[node] = {'m': f'N{depth + 1}'}
        node = f'N{depth + 1}'
    return TreeGame(succs, {node: 1, 'Z': 0})
