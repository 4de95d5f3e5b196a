"""What the board games share: a board of two colours kept as two bit masks that
reads like AIMA's dict of squares (Othello, Hex, Breakthrough), a board's text with
its columns and rows numbered (tic-tac-toe's too), and the checks of a board's size."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Iterable, Iterator

Square = tuple[int, int]
"""A square of a board, (x, y), both from 1."""


def check_size(key: str, value: Any, low: int, high: int, even: bool = False) -> int:
    """Return value if it is a whole number from low to high (even if asked), else
    raise ValueError naming key."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high \
            or (even and value % 2):
        kind = 'an even' if even else 'a whole'
        raise ValueError(f'{key} must be {kind} number from {low} to {high}, got {value!r}')
    return value


class Discs(Mapping[Square, str]):
    """A board of h columns and v rows holding the pieces of two players, as two bit
    masks: square (x, y), both from 1, is bit (y - 1) * h + x - 1. It reads as AIMA's
    boards do, a mapping of the occupied squares to their pieces: board.get((1, 1)),
    board[(4, 5)], len(board), board.items(); it cannot be changed, and making one
    costs no more than keeping its two numbers."""

    __slots__ = ('h', 'v', 'masks', 'pieces')

    def __init__(self, h: int, v: int, first: int, second: int,
                 pieces: tuple[str, str] = ('B', 'W')) -> None:
        self.h, self.v, self.masks, self.pieces = h, v, (first, second), pieces

    def mask(self, piece: str) -> int:
        """Return the bit mask of the squares holding piece."""
        return self.masks[self.pieces.index(piece)]

    def __getitem__(self, square: Square) -> str:
        x, y = square
        if 1 <= x <= self.h and 1 <= y <= self.v:
            bit = 1 << ((y - 1) * self.h + x - 1)
            for piece, mask in zip(self.pieces, self.masks):
                if mask & bit:
                    return piece
        raise KeyError(square)

    def __iter__(self) -> Iterator[Square]:
        taken = self.masks[0] | self.masks[1]
        h = self.h
        while taken:
            low = taken & -taken
            index = low.bit_length() - 1
            yield index % h + 1, index // h + 1
            taken ^= low

    def __len__(self) -> int:
        return (self.masks[0] | self.masks[1]).bit_count()

    def rows(self) -> list[str]:
        """Return the board as rows of pieces and '.', row 1 first: rows()[y - 1][x - 1]
        is square (x, y)."""
        return [''.join(self.get((x, y), '.') for x in range(1, self.h + 1))
                for y in range(1, self.v + 1)]

    def planes(self, piece: str) -> memoryview:
        """Return the board as [row][column][piece there, the other piece there], row 1
        first: planes(piece)[y - 1, x - 1, 0] for square (x, y), 1 or 0 (a memoryview
        of bytes, which numpy reads at once; .tolist() gives nested lists)."""
        at = self.pieces.index(piece) if piece in self.pieces else 0
        cells = bytearray(2 * self.h * self.v)
        for plane, mask in ((0, self.masks[at]), (1, self.masks[1 - at])):
            while mask:
                low = mask & -mask
                cells[2 * (low.bit_length() - 1) + plane] = 1
                mask ^= low
        return memoryview(cells).cast('b', (self.v, self.h, 2))

    def count(self, piece: str) -> int:
        """Return how many squares hold piece."""
        return self.mask(piece).bit_count()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Discs):
            return (self.h, self.v, self.masks, self.pieces) == (other.h, other.v, other.masks,
                                                                 other.pieces)
        return Mapping.__eq__(self, other)

    def __hash__(self) -> int:
        return hash(self.masks)

    def __repr__(self) -> str:
        return f'Discs({dict(self)!r})'

    def __reduce__(self) -> tuple[type[Discs], tuple[int, int, int, int, tuple[str, str]]]:
        return (Discs, (self.h, self.v, *self.masks, self.pieces))


def square_number(square: Square, h: int) -> int:
    """Return the number of square (x, y) on a board of h columns, row by row from
    y = 1, each from x = 1, from 0: (y - 1) * h + x - 1 (its bit in a Discs mask)."""
    x, y = square
    return (y - 1) * h + x - 1


def squares_of(mask: int, h: int) -> list[Square]:
    """Return the squares (x, y) of the set bits of a mask on a board of h columns,
    in bit order (row by row from y = 1, each from x = 1)."""
    squares = []
    while mask:
        low = mask & -mask
        index = low.bit_length() - 1
        squares.append((index % h + 1, index // h + 1))
        mask ^= low
    return squares


def board_line(board: Mapping[Square, str], h: int, v: int) -> str:
    """Return a board of h columns and v rows on one line: its rows from row v down,
    '/' between them, '.' for an empty square: 'X.O/X.O/O.X'."""
    return '/'.join(''.join(board.get((x, y), '.') for x in range(1, h + 1))
                    for y in range(v, 0, -1))


def grid_text(board: Mapping[Square, str], h: int, v: int, marks: Iterable[Square] = (),
              rows_down: bool = False, indent: Callable[[int], int] | None = None) -> str:
    """Return a board of h columns and v rows as text: row v at the top (row 1 with
    rows_down), columns numbered below (above with rows_down) and rows on the left,
    '.' for an empty square and each marked square in brackets, 'W[B].'; indent(y),
    if given, is the spaces before row y."""
    width = len(str(h))
    marks = set(marks)
    lines = []
    for y in (range(1, v + 1) if rows_down else range(v, 0, -1)):
        line = (' ' * indent(y) if indent else '') + f'{y:>2}'
        for x in range(1, h + 1):  # a space (or bracket), padding, the piece
            cell = [' '] * width + [board.get((x, y), '.')]
            if (x - 1, y) in marks:
                cell[0] = ']'
            if (x, y) in marks:
                cell[-2] = '['
            line += ''.join(cell)
        lines.append(line + (']' if (h, y) in marks else ''))
    numbers = '  ' + ''.join(' ' + str(x).rjust(width) for x in range(1, h + 1))
    return '\n'.join([numbers, *lines] if rows_down else [*lines, numbers])
