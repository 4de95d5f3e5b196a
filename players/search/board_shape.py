"""The fixed tables of a tic-tac-toe or Connect Four board for the engine's
encodings (players.search.positions): square numbering, a move order, a line test and
the symmetry tables that give a position's key."""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from games.grid import TicTacToe

LineTest = Callable[[int], int]
"""A line test: does a mask hold a whole line (true or false, as a number or a bool)?"""
KeyOf = Callable[[int, int], int]
"""A key function: key(pos, sign), the position's table key."""
Symmetry = Callable[[int, int], tuple[int, int]]
"""A map of a board's squares onto themselves: (x, y) to its image."""


class BoardShape:
    """The fixed tables of an h x v board with k in a row: square numbering
    (column by column, with an always empty top bit per column under gravity),
    a move order, a line test and the symmetry tables (none under gravity:
    there a position is its own key). All are quick to build, since the first
    search of a board builds them on its clock (3 x 3 tic-tac-toe's at import)."""

    def __init__(self, h: int, v: int, k: int, gravity: bool):
        stride = v + 1 if gravity else v
        self.squares = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.index = index = {(x, y): (x - 1) * stride + y - 1 for x, y in self.squares}
        n = self.n = h * stride
        self.low = (1 << n) - 1
        self.full = sum(1 << i for i in index.values())
        degree = dict.fromkeys(index.values(), 0)
        starts: dict[int, int] = {}
        lines: list[int] = []
        for line in TicTacToe(h, v, k).lines:
            for square in line:
                degree[index[square]] += 1
            step = index[line[-1]] - index[line[0]] if k > 1 else 0
            starts[step] = starts.get(step, 0) | 1 << index[line[0]]
            lines.append(sum(1 << index[square] for square in line))
        self.order = [1 << i for i in sorted(degree, key=degree.__getitem__, reverse=True)]
        self.won: LineTest = _line_table(lines, n) if n <= 12 else _line_test(starts, k)
        self.canonical: KeyOf
        if gravity:
            self.canonical = _own_key
        else:
            perms = [[index[image(*square)] for square in self.squares]
                     for image in _symmetries(h, v)]
            self.canonical = _canonical_key(perms, n)

    @classmethod
    @lru_cache(maxsize=16)
    def of(cls, h: int, v: int, k: int, gravity: bool) -> BoardShape:
        """The shape of a board, built once per process."""
        return cls(h, v, k, gravity)


def _own_key(pos: int, sign: int = 1) -> int:
    """A position is its own key (under gravity, where no symmetry is used)."""
    return pos


def _line_table(lines: list[int], n: int) -> LineTest:
    """Return a function telling whether an n-bit mask holds a whole line, by a
    table of every mask (made by marking each line with every set of other squares)."""
    table = bytearray(1 << n)
    everything = (1 << n) - 1
    for line in lines:
        others = rest = everything ^ line
        while True:
            table[line | rest] = 1
            if not rest:
                break
            rest = (rest - 1) & others
    return table.__getitem__


def _line_test(starts: dict[int, int], k: int) -> LineTest:
    """Return a function telling whether a mask holds a whole line: starts maps
    the step from a line's first square to its last (in bits) to the mask of
    the first squares of the lines that way; a line is there when its first
    square and the k - 1 after it, a step / (k - 1) apart, are all in the mask."""
    ways = [(first, [step * i // (k - 1) for i in range(1, k)] if k > 1 else [])
            for step, first in starts.items()]

    def won(mask: int) -> bool:
        for first, shifts in ways:
            run = mask & first
            for shift in shifts:
                run &= mask >> shift
            if run:
                return True
        return False
    return won


def _symmetries(h: int, v: int) -> list[Symmetry]:
    """The maps of squares that carry an h x v board onto itself."""
    maps: list[Symmetry] = [lambda x, y: (x, y), lambda x, y: (h + 1 - x, y),
            lambda x, y: (x, v + 1 - y), lambda x, y: (h + 1 - x, v + 1 - y)]
    if h == v:
        maps += [lambda x, y: (y, x), lambda x, y: (v + 1 - y, x),
                 lambda x, y: (y, h + 1 - x), lambda x, y: (v + 1 - y, h + 1 - x)]
    return maps


def _canonical_key(perms: list[list[int]], n: int) -> KeyOf:
    """Return a function giving the least image of a 2n-bit position under the
    square permutations. The images are added up side by side in one number, a
    field of 2n bits each: a table per 8-bit chunk of the position gives the
    chunk's images, so a key is a few look-ups, additions and the least field."""
    bits, width = 2 * n, 8
    full = [perm + [n + square for square in perm] for perm in perms]
    chunks = []
    for start in range(0, bits, width):
        table = [0]
        for bit in range(start, min(start + width, bits)):
            images = sum(1 << (image[bit] + field * bits) for field, image in enumerate(full))
            table += [entry + images for entry in table]
        chunks.append((start, table))
    fields = [field * bits for field in range(len(perms))]
    field_mask = (1 << bits) - 1

    def canonical(pos: int, sign: int = 1) -> int:
        images = 0
        for start, table in chunks:
            images += table[pos >> start & 255]
        return min([images >> field & field_mask for field in fields])
    return canonical


# tic-tac-toe's tables are made at import, as a compiled program has them
BoardShape.of(3, 3, 3, False)
