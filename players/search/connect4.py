"""Connect Four solved exactly: four in a row on a board of any size, by the
ideas of Pascal Pons' solver (blog.gamesolver.org), written for Python.

A position is two bit masks, the stones of the player to move and all the
stones, each column taking v + 1 bits (the top one always empty, so that lines
found by shifts never wrap from one column into the next). The search is
negamax with alpha-beta on values 1 (the player to move wins), 0 (a draw) and
-1 (a loss), always in a null window, so that each search answers one
question: is the value above alpha? Before looking at any move a node finds
the opponent's winning squares: a square the opponent could play at once must
be blocked (two such squares lose), and a square just under one of them is
never played. No other move is searched when one of these rules decides, and
a move after which these rules leave the opponent no move wins at once, found
while the moves are put in order (before any is searched). The moves left are
tried in the order of the winning squares they make (the most first; ties go
to the middle columns), and a transposition table keeps a lower and an upper
bound of each position searched; it is asked for the position each move leads
to as the moves are put in order, and a bound there low enough decides at once.

A board's masks are made by its first search (a cold solve pays for them).

The same search is compiled in players/search/_connect4.c, built at install where a C
compiler is found (an optional extension: without one, the install goes on and
every search is this module's). A new table (new_table) is the compiled
kernel's where it is built and the board fits in 63 bits, unless the
environment sets AIMA_GAMES_PURE_PYTHON; a Solver searches in C exactly when
its table is the kernel's. This module stays the reference: tests hold the two
to the same values and moves."""

from __future__ import annotations

import os
import time
from types import ModuleType
from typing import TYPE_CHECKING, Callable, TypeAlias

from .shared import State
from .timing import CHECK_EVERY, OutOfTime

if TYPE_CHECKING:
    from ._connect4 import Table

compiled: ModuleType | None
try:
    from . import _connect4 as compiled
except ImportError:  # not built: no C compiler at install
    compiled = None
kernel = None if os.environ.get('AIMA_GAMES_PURE_PYTHON') else compiled
"""The compiled kernel that new tables use (None: pure Python)."""

WIN, DRAW, LOSS = 1, 0, -1

Bounds = tuple[int, int]
"""A table's entry: the least and the greatest value a position may have."""
ExactTable: TypeAlias = 'dict[int, Bounds] | Table'
"""The exact solver's table: a dict of bounds by key (mine + mask), or the kernel's."""
Negamax = Callable[[int, int, int, int, int], int]
"""The exact search: negamax(mine, mask, moves, alpha, threats) -> a bound."""
Counts = Callable[[], tuple[int, int]]
"""A search's counts so far: () -> (nodes, table hits)."""
Position = tuple[int, int, int]
"""A position as the searches take it: (mine, mask, moves)."""

BOUNDS = {(low, high): (low, high) for low in (LOSS, DRAW, WIN) for high in (LOSS, DRAW, WIN)}
"""The table's entries, made once, so that storing one creates no tuple."""

TABLE_LIMIT = 250_000
"""The most positions one table holds (20 to 45 MB, by the kind of table); a
full table is emptied (by the exact solver when it next reads the clock, so
that its table may pass the limit by CHECK_EVERY positions)."""


def moves_to_search(possible: int, threats: int) -> int:
    """Return the moves of possible worth searching when the opponent would win at
    once on the squares threats: the only threat to block if there is one, never a
    square just under a threat (the opponent would then play there and win); 0 when
    none is left, or two threats cannot both be blocked: the player to move loses."""
    forced = possible & threats
    if forced:
        if forced & (forced - 1):
            return 0
        possible = forced
    return possible & ~(threats >> 1)


_SHAPES: dict[tuple[int, int], Shape] = {}
"""The shapes made so far, by (h, v)."""


class Shape:
    """The fixed masks of an h x v board: its bottom squares, all its squares
    and each column, in the middle-first order in which moves are tried, and
    the function that finds winning squares."""

    def __init__(self, h: int, v: int):
        self.h, self.v, self.size = h, v, h * v
        stride = self.stride = v + 1
        column = (1 << v) - 1
        self.bottom = bottom = ((1 << h * stride) - 1) // ((1 << stride) - 1)
        self.board = bottom * column
        middle = h // 2
        self.ordered = [(h - rank,
                         column << stride * (middle + (rank + 1) // 2 * (1 - rank % 2 * 2)))
                        for rank in range(h)]
        """(rank, column mask) by the middle first; a higher rank is tried first among equals."""
        self.winning = self.winning_squares()

    @property
    def columns(self) -> list[int]:
        """Each column's mask, left to right."""
        column, stride = (1 << self.v) - 1, self.stride
        return [column << x * stride for x in range(self.h)]

    def mirror(self, key: int) -> int:
        """Return a mask (or a key) with the columns in reverse order."""
        stride, column, last = self.stride, (1 << self.stride) - 1, (self.h - 1) * self.stride
        image = 0
        for x in range(0, last + 1, stride):
            image |= (key >> x & column) << (last - x)
        return image

    @staticmethod
    def of(h: int, v: int) -> Shape:
        """Return the shape of an h x v board (made once per process)."""
        shape = _SHAPES.get((h, v))
        if shape is None:
            shape = _SHAPES[h, v] = Shape(h, v)
        return shape

    def encode(self, state: State) -> Position:
        """Return (mine, mask, moves) for a game state: the stones of the player
        to move, all the stones, and how many there are. The square (x, y) of the
        game's moves (from 1) is bit (x - 1) * stride + y - 1."""
        stride, mover = self.stride, state.to_move
        mine = theirs = 0
        for (x, y), piece in state.board.items():
            if piece == mover:
                mine |= 1 << x * stride + y
            else:
                theirs |= 1 << x * stride + y
        moves: int = len(state.board)
        return mine >> stride + 1, (mine | theirs) >> stride + 1, moves

    def square(self, mask: int, x: int) -> tuple[int, int]:
        """Return the game's move (x + 1, y) that drops a stone into column x (from 0)."""
        return (x + 1, (mask >> x * self.stride & (1 << self.v) - 1).bit_count() + 1)

    def winning_squares(self) -> Callable[[int, int], int]:
        """Return a function (stones, empty) -> the squares of empty that would
        complete four in a row of stones. Along each direction d, a pair p of
        stones at i and i + d completes a line at i - d with i + 2d or i - 2d,
        and at i + 2d with i + 3d or i - d."""
        up = self.stride
        a1, a2, a3 = up, 2 * up, 3 * up
        b1, b2, b3 = up - 1, 2 * up - 2, 3 * up - 3
        c1, c2, c3 = up + 1, 2 * up + 2, 3 * up + 3

        def winning(stones: int, empty: int) -> int:
            pair = stones & stones << 1
            found = pair << 1 & pair << 2
            shifted = stones >> a1
            pair = stones & shifted
            found |= (pair >> a1 & (stones >> a3 | stones << a1)
                      | pair << a2 & (shifted | stones << a3))
            shifted = stones >> b1
            pair = stones & shifted
            found |= (pair >> b1 & (stones >> b3 | stones << b1)
                      | pair << b2 & (shifted | stones << b3))
            shifted = stones >> c1
            pair = stones & shifted
            found |= (pair >> c1 & (stones >> c3 | stones << c1)
                      | pair << c2 & (shifted | stones << c3))
            return found & empty
        return winning

    def evaluation(self) -> Callable[[int, int], float]:
        """Return a function (mine, theirs) -> the game's evaluate for the player
        to move (TicTacToe.evaluate: each line open to one side only counts the
        square of its stones for that side, squashed by 0.9 s / (|s| + 10)),
        for a position where no one has four in a row. Along each direction d,
        a line is known by its lowest square i, and one, two are bit planes of
        its stone count n (odd; at least two), so that n * n = one + 4 two + 4 one two."""
        board, up = self.board, self.stride
        directions: list[tuple[int, int, int, int]] = []
        for step in (1, up, up - 1, up + 1):
            starts = board & board >> step & board >> 2 * step & board >> 3 * step
            directions.append((step, 2 * step, 3 * step, starts))

        def evaluate(mine: int, theirs: int) -> float:
            score = 0
            for d1, d2, d3, starts in directions:
                m1, m2, m3 = mine >> d1, mine >> d2, mine >> d3
                t1, t2, t3 = theirs >> d1, theirs >> d2, theirs >> d3
                free = starts & ~(theirs | t1 | t2 | t3)
                one = (mine ^ m1 ^ m2 ^ m3) & free
                two = (mine & m1 | m2 & m3 | (mine | m1) & (m2 | m3)) & free
                score += one.bit_count() + 4 * (two.bit_count() + (one & two).bit_count())
                free = starts & ~(mine | m1 | m2 | m3)
                one = (theirs ^ t1 ^ t2 ^ t3) & free
                two = (theirs & t1 | t2 & t3 | (theirs | t1) & (t2 | t3)) & free
                score -= one.bit_count() + 4 * (two.bit_count() + (one & two).bit_count())
            return 0.9 * score / (abs(score) + 10)
        return evaluate


def new_table(shape: Shape) -> ExactTable:
    """Return an empty table for the exact solver on a board shape: the compiled
    kernel's (a players.search._connect4.Table) where it is in use and the board fits
    (at most 15 columns, 63 bits), else a dict."""
    if kernel is not None:
        try:
            table: Table = kernel.Table(shape.h, shape.v)
            return table
        except ValueError:  # a board the kernel cannot hold
            pass
    return {}


class Solver:
    """Exact values and best moves of Connect Four positions on one board
    shape, with a transposition table that may live on between searches (a
    dict, searched here, or the compiled kernel's Table, searched in C).
    nodes counts the positions searched; past deadline (a time.monotonic()
    time, or None) a search raises OutOfTime."""

    def __init__(self, shape: Shape, table: ExactTable | None = None,
                 deadline: float | None = None):
        self.shape = shape
        self.table: ExactTable = new_table(shape) if table is None else table
        self.deadline = deadline
        self.winning = shape.winning
        table = self.table
        self.compiled = not isinstance(table, dict)
        self._negamax, self._counts = (self._make_negamax(table) if isinstance(table, dict)
                                       else self._compiled_negamax(table))

    @property
    def nodes(self) -> int:
        """The number of positions searched so far."""
        return self._counts()[0]

    @property
    def hits(self) -> int:
        """The number of positions the table answered without a search."""
        return self._counts()[1]

    def can_win_now(self, mine: int, mask: int) -> int:
        """Return the squares where the player to move would win at once (0: none)."""
        shape = self.shape
        return self.winning(mine, shape.board ^ mask) & (mask + shape.bottom)

    def encode(self, state: State) -> Position:
        """Return (mine, mask, moves) for a game state, as Shape.encode does."""
        table = self.table
        if not isinstance(table, dict):  # the compiled kernel's
            return table.encode(state.board, state.to_move)
        return self.shape.encode(state)

    def value(self, mine: int, mask: int, moves: int) -> int:
        """Return the value of a position that is not over, for the player to move."""
        table = self.table
        if not isinstance(table, dict):  # the compiled kernel's
            return _in_time(table.value(mine, mask, moves, self.deadline))
        shape, winning = self.shape, self.winning
        empty = shape.board ^ mask
        if winning(mine, empty) & (mask + shape.bottom):
            return WIN
        threats = winning(mine ^ mask, empty)
        bound = self._negamax(mine, mask, moves, DRAW, threats)
        if bound != DRAW:
            return bound
        return DRAW if self._negamax(mine, mask, moves, LOSS, threats) > LOSS else LOSS

    def is_at_most(self, mine: int, mask: int, moves: int, bound: int) -> bool:
        """Is the value of a position that is not over at most bound, for the player to move?"""
        if bound >= WIN:
            return True
        if self.can_win_now(mine, mask):
            return False
        threats = self.winning(mine ^ mask, self.shape.board ^ mask)
        return self._negamax(mine, mask, moves, bound, threats) <= bound

    def best_move(self, mine: int, mask: int, moves: int) -> tuple[int, int]:
        """Return (value, column) for a position that is not over: the column (from 0)
        is the first, left to right, of the best moves, as minmax_decision chooses."""
        value = self.value(mine, mask, moves)
        shape = self.shape
        wins = self.winning(mine, shape.board ^ mask)
        playable = (mask + shape.bottom) & shape.board
        for x, column in enumerate(shape.columns):
            move = playable & column
            if not move:
                continue
            if move & wins or value == LOSS or moves + 1 == shape.size:
                return value, x
            if self.is_at_most(mine ^ mask, mask | move, moves + 1, -value):
                return value, x
        raise AssertionError('no move reaches the value of its position')

    def _make_negamax(self, table: dict[int, Bounds]) -> tuple[Negamax, Counts]:
        """Return the search function, with everything it reads bound locally,
        and a function that returns its counts of nodes and table hits. (A search
        kernel: one long function on purpose, since a call per node costs time.)"""
        shape, winning = self.shape, self.winning
        bottom, board, ordered = shape.bottom, shape.board, shape.ordered
        nearly_full = shape.size - 2
        get, bounds, limit = table.get, BOUNDS, TABLE_LIMIT
        check, clock, deadline = CHECK_EVERY, time.monotonic, self.deadline
        nodes = hits = 0

        def negamax(mine: int, mask: int, moves: int, alpha: int, threats: int) -> int:
            """Return a bound on the value of a position in which the player to move
            cannot win at once, threats being the opponent's winning squares:
            above alpha, a lower bound; else an upper bound."""
            nonlocal nodes, hits
            nodes += 1
            if not nodes & check:
                if len(table) >= limit:
                    table.clear()
                if deadline is not None and clock() > deadline:
                    raise OutOfTime
            possible = (mask + bottom) & board
            forced = possible & threats
            if forced:
                if forced & (forced - 1):
                    return LOSS
                possible = forced
            possible &= ~(threats >> 1)
            if not possible:
                return LOSS
            if moves >= nearly_full:
                return DRAW
            key = mine + mask
            entry = get(key)
            if entry is None:
                low, high = LOSS, WIN
            else:
                low, high = entry
                if low > alpha or high <= alpha:
                    hits += 1
                    return low if low > alpha else high
            empty = board ^ mask
            theirs = mine ^ mask
            children: list[tuple[int, int, int]] = []
            for rank, column in ordered if possible & (possible - 1) else ((0, possible),):
                move = possible & column
                if not move:
                    continue
                known = get(theirs + (mask | move))  # the child's bounds, if in the table
                if known is not None and known[1] < -alpha:  # its value is below -alpha: a cut
                    hits += 1
                    table[key] = bounds[-known[1], high]
                    return -known[1]
                made = winning(mine | move, empty)
                reply = (mask + move + bottom) & board
                forced = reply & made
                if forced:
                    reply = 0 if forced & (forced - 1) else forced
                if not reply & ~(made >> 1):  # no reply that does not lose at once
                    table[key] = bounds[WIN, WIN]
                    return WIN
                children.append((made.bit_count() << 4 | rank, move, made))
            children.sort(reverse=True)
            best = LOSS
            moves += 1
            for _, move, made in children:
                value = -negamax(theirs, mask | move, moves, -alpha - 1, made)
                if value > alpha:
                    table[key] = bounds[value, high]
                    return value
                if value > best:
                    best = value
            table[key] = bounds[low, best]
            return best

        def counts() -> tuple[int, int]:
            return nodes, hits
        return negamax, counts

    def _compiled_negamax(self, table: Table) -> tuple[Negamax, Counts]:
        """Return the compiled kernel's search on a solver's table (its own), as
        _make_negamax returns its own, and the function that counts."""
        deadline = self.deadline
        search, nodes, hits = table.negamax, table.nodes, table.hits

        def negamax(mine: int, mask: int, moves: int, alpha: int, threats: int) -> int:
            return _in_time(search(mine, mask, moves, alpha, threats, deadline))

        def counts() -> tuple[int, int]:
            return table.nodes - nodes, table.hits - hits
        return negamax, counts


def _in_time(value: int | None) -> int:
    """Return what a compiled search found; None, its answer past its deadline,
    raises OutOfTime."""
    if value is None:
        raise OutOfTime
    return value
