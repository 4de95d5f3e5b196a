"""Hex on an n x n rhombus of hexagons, without the swap rule."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from . import pictures
from .base import Fixed, Game, IllegalMoveError
from .discs import Discs, Square, check_size, grid_text, square_number


class HexState(namedtuple('HexState', 'to_move, utility, board')):
    """A position: the player to move ('B' or 'W'), the utility to B (1 or -1 once
    someone has connected their sides, else 0) and the board (a Discs mapping of
    cells to 'B' and 'W')."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        utility: int
        board: Discs

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        caption = {1: 'B won', -1: 'W won'}.get(self.utility, f'{self.to_move} to move')
        return pictures.hexes(self.board, self.board.h, caption)


_make = tuple.__new__
"""Make a state of its fields (as namedtuple's _make does), with no check."""


class Shape(Fixed):
    """The fixed bit tables of an n x n Hex board: each cell (x, y) is bit
    (y - 1) * n + x - 1; the masks of B's sides (rows 1 and n) and W's (columns 1 and
    n); and neighbours(mask), the cells next to a mask's cells."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.full = (1 << n * n) - 1
        column = sum(1 << (y * n) for y in range(n))
        self.not_first, self.not_last = self.full ^ column, self.full ^ (column << (n - 1))
        row = (1 << n) - 1
        self.sides = {'B': (row, row << (n * (n - 1))), 'W': (column, column << (n - 1))}
        middle = (n + 1) / 2
        cells = [(x, y) for y in range(1, n + 1) for x in range(1, n + 1)]
        cells.sort(key=lambda cell: abs(cell[0] - middle) + abs(cell[1] - middle)
                   + abs(cell[0] + cell[1] - 2 * middle))
        self.order = [(cell, 1 << (cell[1] - 1) * n + cell[0] - 1) for cell in cells]
        """The cells, each with its bit, nearest the centre first (in hexagon steps)."""
        self.bits = dict(self.order)
        """Each cell's bit."""

    @classmethod
    @lru_cache(maxsize=8)
    def of(cls, n: int) -> 'Shape':
        """The shape of an n x n board, built once per process."""
        return cls(n)

    def neighbours(self, mask: int) -> int:
        """The cells next to any cell of mask (mask's own cells among them, where two touch)."""
        n, left, right = self.n, mask & self.not_first, mask & self.not_last
        return (right << 1 | left >> 1 | mask << n | mask >> n | right >> (n - 1)
                | left << (n - 1)) & self.full

    def group(self, stones: int, seed: int) -> int:
        """The cells of stones connected to seed through stones (seed included)."""
        group = seed
        while True:
            grown = group | self.neighbours(group) & stones
            if grown == group:
                return group
            group = grown

    def winning_cells(self, own: int, other: int, player: str) -> int:
        """The mask of the empty cells where a stone of player's joins their sides."""
        start, goal = self.sides[player]
        empty = self.full & ~(own | other)
        from_start = self.neighbours(self.group(own, own & start)) | start
        from_goal = self.neighbours(self.group(own, own & goal)) | goal
        return from_start & from_goal & empty

    def distance(self, own: int, other: int, player: str) -> int | None:
        """The fewest empty cells player must still fill to connect their sides, own
        being player's stones and other the opponent's; None if they cannot. (Each
        round takes every cell reachable for one more empty cell, through own stones
        for free.)"""
        start, goal = self.sides[player]
        open_cells = self.full & ~other
        reached = self.group(own, own & start)
        frontier = start & open_cells
        for cost in range(self.n * self.n + 1):
            if reached & goal:
                return cost
            grown = self.group(own, reached | (self.neighbours(reached) | frontier) & open_cells)
            if grown == reached:
                return None
            reached, frontier = grown, 0
        return None


    def evaluate(self, black: int, white: int, player: str) -> float:
        """Hex.evaluate on the two masks: the opponent's distance less player's,
        squashed into (-0.9, 0.9)."""
        worst = self.n * self.n + 1
        own, other = (black, white) if player == 'B' else (white, black)
        mine = self.distance(own, other, player)
        theirs = self.distance(other, own, 'W' if player == 'B' else 'B')
        lead = (worst if theirs is None else theirs) - (worst if mine is None else mine)
        return 0.9 * lead / (abs(lead) + 3)

    def joined(self, stones: int, player: str) -> bool:
        """Do player's stones join player's two sides?"""
        start, goal = self.sides[player]
        return bool(stones & start and stones & goal
                    and self.group(stones, stones & start) & goal)


class Hex(Game):
    """Hex on an n x n rhombus of hexagonal cells (n from 2 to 19), without the swap
    rule. B moves first and connects rows 1 and n (top and bottom); W connects
    columns 1 and n (left and right). A move places a stone on an empty cell (x, y),
    both from 1 (actions lists the cells nearest the centre first); cell (x, y)
    touches (x +- 1, y), (x, y +- 1), (x + 1, y - 1) and (x - 1, y + 1). The first
    to connect their two sides wins (utility 1 and -1); a full board always has a
    winner."""

    name = 'hex'
    players = ('B', 'W')

    def __init__(self, n: int = 11) -> None:
        self.n = check_size('n', n, 2, 19)
        self.shape = Shape.of(n)
        self.initial = HexState('B', 0, Discs(n, n, 0, 0))

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'n': self.n}

    def action_count(self) -> int:
        """A number for each square."""
        return self.n * self.n

    def action_number(self, move: Square) -> int:
        """A cell's number, row by row from y = 1 (see square_number)."""
        return square_number(move, self.n)

    def observation(self, state: HexState, player: str) -> memoryview:
        """The board as planes (see Discs.planes) from player's side."""
        return state.board.planes(player)

    def actions(self, state: HexState) -> list[Square]:
        """Every empty cell, the cells nearest the centre first (ties go to the first
        in this order, so a search that sees no difference plays in the middle); none
        once someone has won."""
        if state.utility:
            return []
        black, white = state.board.masks
        taken = black | white
        return [cell for cell, bit in self.shape.order if not taken & bit]

    def result(self, state: HexState, move: Square) -> HexState:
        """Return the state after the player to move puts a stone on the cell move."""
        mover, utility, board = state
        black, white = board.masks
        try:
            x, y = move
            bit = self.shape.bits.get((x, y), 0) if type(x) is type(y) is int else 0
        except (TypeError, ValueError):
            bit = 0
        if utility or not bit or (black | white) & bit:
            raise IllegalMoveError(f'illegal move {move!r}: the legal moves are the empty '
                                   f'cells, {self.actions(state) or "none (the game is over)"}')
        own = (black if mover == 'B' else white) | bit
        start, goal = self.shape.sides[mover]
        if own & start and own & goal:  # else no chain can join the sides yet
            group = self.shape.group(own, bit)
            if group & start and group & goal:
                utility = 1 if mover == 'B' else -1
        n = self.n
        if mover == 'B':
            return _make(HexState, ('W', utility, Discs(n, n, own, white)))
        return _make(HexState, ('B', utility, Discs(n, n, black, own)))

    def utility(self, state: HexState, player: str) -> float:
        """Return the value to player: 1 for a win, -1 for a loss, 0 while play goes on."""
        return state.utility if player == 'B' else -state.utility

    def terminal_test(self, state: HexState) -> bool:
        """The game is over once a player has connected their sides."""
        return state.utility != 0

    def distance(self, state: HexState, player: str) -> int | None:
        """The fewest empty cells player must still fill to connect their two sides
        (None if the opponent has cut them off)."""
        other = 'W' if player == 'B' else 'B'
        return self.shape.distance(state.board.mask(player), state.board.mask(other), player)

    def evaluate(self, state: HexState, player: str) -> float:
        """Shortest paths: the cells the opponent still needs to connect less the cells
        player needs (a cut-off player needs more than the board holds), squashed
        into (-0.9, 0.9)."""
        black, white = state.board.masks
        return self.shape.evaluate(black, white, player)

    def plies_left(self, state: HexState) -> int:
        """One ply per empty cell at most."""
        return 0 if state.utility else self.n * self.n - len(state.board)

    def board_text(self, state: HexState, last_move: Square | None = None) -> str:
        """Return the rhombus, row 1 at the top and each row shifted half a cell right
        of the one above, columns and rows numbered, the stone of last_move in brackets.
        B joins the top and bottom rows, W the left and right columns."""
        marks = [last_move] if last_move is not None else []
        text = grid_text(state.board, self.n, self.n, marks, rows_down=True,
                         indent=lambda y: y - 1)
        return text + '\nB joins rows 1 and {0}, W columns 1 and {0}'.format(self.n)

    def state_json(self, state: HexState) -> dict[str, Any]:
        """Return the player to move and the board as rows of pieces and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move, 'rows': state.board.rows()}

    def drawing(self, state: HexState, last_move: Square | None = None) -> dict[str, Any]:
        """Return the rhombus for the report: rows 1 to n, each a string of 'B', 'W'
        and '.', and the cell of last_move."""
        cells = [''.join(state.board.get((x, y), '.') for x in range(1, self.n + 1))
                 for y in range(1, self.n + 1)]
        return {'kind': 'hex', 'columns': self.n, 'rows': self.n, 'cells': cells,
                'marks': [list(last_move)] if last_move is not None else []}

