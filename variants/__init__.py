"""Variants: named game configurations, and making a game from a name or a spec."""

from __future__ import annotations

from dataclasses import dataclass

from games import Game

from .spec import GAMES, parse


@dataclass(frozen=True)
class Variant:
    """A named game configuration."""

    name: str
    """The short name, such as 'misere-nim'."""
    spec: str
    """The game spec, such as 'nim(piles=(3, 4, 5), misere=True)'."""
    description: str
    """One line for people."""
    default: bool = True
    """Whether the default tournament plays it."""


VARIANTS: dict[str, Variant] = {variant.name: variant for variant in (
    Variant('simple-nim', 'nim(piles=(12,), misere=True, max_take=3)',
            'Simple-Nim: one pile of 12, take 1 to 3, who takes the last counter loses'),
    Variant('nim', 'nim(piles=(3, 4, 5))',
            'Nim on piles 3, 4, 5, normal play: who takes the last counter wins'),
    Variant('misere-nim', 'nim(piles=(3, 4, 5), misere=True)',
            'Misère Nim on piles 3, 4, 5: who takes the last counter loses'),
    Variant('nim-limit', 'nim(piles=(3, 4, 5), max_take=3)',
            'Nim on piles 3, 4, 5, taking at most 3 at a time, normal play'),
    Variant('split-nim', 'grundy(pile=7)',
            "Grundy's game: split a pile of 7 into unequal piles; who cannot move loses"),
    Variant('tictactoe', 'tictactoe(h=3, v=3, k=3)', 'Tic-tac-toe on 3 x 3'),
    Variant('dice-nim', 'dicenim(piles=(2, 3), sides=3)',
            'Dice Nim on piles 2, 3: roll a die of 3 faces, take 1 to the roll from a pile; '
            'who takes the last counter wins'),
    Variant('connect4', 'connect4(h=7, v=6, k=4)',
            'Connect Four: 7 columns of 6 rows, four in a row', default=False),
    Variant('gomoku', 'gomoku(h=15, v=15, k=5)', 'Gomoku: five in a row on 15 x 15',
            default=False),
    Variant('backgammon', 'backgammon', 'Backgammon: the bar, hitting, bearing off; no doubling '
            'cube, a win counts 1', default=False),
    Variant('othello', 'othello(n=8)', 'Othello on 8 x 8: bracket lines of discs to turn '
            'them; more discs wins', default=False),
    Variant('othello-6x6', 'othello(n=6)', 'Othello on 6 x 6', default=False),
    Variant('kalah', 'kalah(pits=6, seeds=4)', 'Kalah: 6 pits a side, 4 seeds in each; sow '
            'counter-clockwise, more seeds in your store wins', default=False),
    Variant('hex', 'hex(n=7)', 'Hex on 7 x 7: join your two sides of the rhombus', default=False),
    Variant('hex-11', 'hex(n=11)', 'Hex on 11 x 11, without the swap rule', default=False),
    Variant('breakthrough', 'breakthrough(rows=8, columns=8)', 'Breakthrough on 8 x 8: two rows '
            'of pieces each; reach the far row first', default=False),
    Variant('breakthrough-6x6', 'breakthrough(rows=6, columns=6)', 'Breakthrough on 6 x 6',
            default=False),
    Variant('fig52', 'fig52', "AIMA's Figure 5.2 game tree: MAX moves, then MIN", default=False),
)}
"""The named variants, in the order tables list them."""

DEFAULT_VARIANTS = [name for name, variant in VARIANTS.items() if variant.default]
"""The variants a tournament plays unless told otherwise."""


def make(name_or_spec: str) -> Game:
    """Return the game of a variant name ('misere-nim') or a spec
    ('nim(piles=(1, 3, 5, 7), misere=True)'). Raises ValueError naming what is wrong."""
    variant = VARIANTS.get(name_or_spec.strip())
    if variant:
        return parse(variant.spec)
    try:
        return parse(name_or_spec)
    except ValueError as error:
        if '(' in name_or_spec or name_or_spec.strip().lower() in GAMES:
            raise
        raise ValueError(f'unknown variant {name_or_spec!r}; variants: {", ".join(VARIANTS)} '
                         f'(or a spec such as nim(piles=(1, 3, 5, 7), misere=True))') from error


__all__ = ['GAMES', 'VARIANTS', 'DEFAULT_VARIANTS', 'Variant', 'make', 'parse']
