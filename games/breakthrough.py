"""Breakthrough: a row or two of pieces each, moving forward; the first to break through
wins."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from . import pictures
from .base import Fixed, Game, IllegalMoveError
from .discs import Discs, Square, check_size, grid_text, square_number

BreakthroughMove = tuple[Square, Square]
"""A move of Breakthrough: the square of the piece and the square it moves to."""


class BreakthroughState(namedtuple('BreakthroughState',
                                  'to_move, utility, black, white, columns, rows')):
    """A position: the player to move ('B' or 'W'), the utility to B (1 or -1 once
    someone has broken through, else 0), the bit masks of B's and W's pieces and the
    board's size; board reads them as a Discs mapping of squares to 'B' and 'W'."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        utility: int
        black: int
        white: int
        columns: int
        rows: int

    @property
    def board(self) -> Discs:
        """The pieces, a Discs mapping of squares to 'B' and 'W'."""
        return Discs(self.columns, self.rows, self.black, self.white)

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        caption = {1: 'B won', -1: 'W won'}.get(self.utility, f'{self.to_move} to move')
        return pictures.grid(self.board, self.columns, self.rows, caption)


_make = tuple.__new__
"""Make a state of its fields (as namedtuple's _make does), with no check."""


class Shape(Fixed):
    """The fixed tables of a board of columns x rows: square (x, y) is bit
    (y - 1) * columns + x - 1; for each player the shifts of a step forward (diagonally
    left, straight, diagonally right, with the squares that can make it without
    leaving the board), every move as a tuple ((x, y), (x2, y2)), found by its step
    (listed) and by itself (bits), and the far row."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        full = self.full = (1 << columns * rows) - 1
        column = sum(1 << (y * columns) for y in range(rows))
        not_first, not_last = full ^ column, full ^ (column << (columns - 1))
        row = (1 << columns) - 1
        self.far = {'B': row << columns * (rows - 1), 'W': row}
        self.row_masks = [row << columns * y for y in range(rows)]
        c = columns
        self.steps = {'B': ((c - 1, not_first), (c, full), (c + 1, not_last)),
                      'W': ((-c - 1, not_first), (-c, full), (-c + 1, not_last))}
        no_move: list[BreakthroughMove | None] = [None]  # for mypy: a list that takes moves
        self.listed = {player: no_move * 3 * columns * rows for player in self.steps}
        """For each player, the move of the piece on bit i with step s at index 3 i + s."""
        self.bits: dict[str, dict[BreakthroughMove,
                                  tuple[int, int, bool, BreakthroughMove]]] = {
            player: {} for player in self.steps}
        """For each player, each move's (start bit, end bit, straight ahead, the move)."""
        for player, steps in self.steps.items():
            for start in range(columns * rows):
                for step, (shift, source) in enumerate(steps):
                    end = start + shift
                    if source >> start & 1 and 0 <= end < columns * rows:
                        move = (self.square(start), self.square(end))
                        self.listed[player][3 * start + step] = move
                        self.bits[player][move] = (1 << start, 1 << end, step == 1, move)

    @classmethod
    @lru_cache(maxsize=8)
    def of(cls, columns: int, rows: int) -> 'Shape':
        """The shape of a board, built once per process."""
        return cls(columns, rows)

    def square(self, index: int) -> Square:
        """The square (x, y) of a bit index."""
        return index % self.columns + 1, index // self.columns + 1

    def rows_ahead(self, pieces: int, player: str) -> int:
        """The rows player's pieces have advanced from player's first row, in all."""
        last = self.rows - 1
        return sum((y if player == 'B' else last - y) * (pieces & mask).bit_count()
                   for y, mask in enumerate(self.row_masks))

    def moves(self, own: int, other: int, player: str) -> list[BreakthroughMove]:
        """Player's moves, own being player's pieces: straight ahead onto an empty
        square, diagonally onto any but an own piece; ordered by the piece's square,
        then by the target's column."""
        found = []
        for step, (shift, source) in enumerate(self.steps[player]):
            targets = (own & source) << shift if shift > 0 else (own & source) >> -shift
            targets &= ~(own | other) if step == 1 else self.full & ~own
            while targets:
                low = targets & -targets
                found.append(3 * (low.bit_length() - 1 - shift) + step)
                targets ^= low
        found.sort()
        listed = self.listed[player]
        # each key found is that of a move on the board, never one of listed's Nones
        return cast('list[BreakthroughMove]', [listed[key] for key in found])


class Breakthrough(Game):
    """Breakthrough on a board of columns x rows (each from 2 to 16), set up as
    OpenSpiel sets it up: B fills row 1, and row 2 too on a board of TWO_ROWS_FROM
    rows or more, and moves up, first; W fills as many rows at the top and moves
    down. A move takes one piece one square forward, straight onto an empty square
    or diagonally onto an empty square or an opponent's piece, which it captures:
    ((x, y), (x2, y2)), squares numbered from 1. Reaching the far row, or capturing
    every opponent's piece, wins (utility 1 and -1)."""

    name = 'breakthrough'
    players = ('B', 'W')

    TWO_ROWS_FROM = 6
    """The fewest rows on which each side starts with two rows of pieces; one on fewer."""

    def __init__(self, rows: int = 8, columns: int = 8) -> None:
        self.rows = check_size('rows', rows, 2, 16)
        self.columns = check_size('columns', columns, 2, 16)
        self.shape = Shape.of(columns, rows)
        home = 2 if rows >= self.TWO_ROWS_FROM else 1
        pieces = (1 << home * columns) - 1
        self.initial = BreakthroughState('B', 0, pieces, pieces << columns * (rows - home),
                                         columns, rows)

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'rows': self.rows, 'columns': self.columns}

    def action_count(self) -> int:
        """A number for each square and each of the three ways forward from it."""
        return self.rows * self.columns * 3

    def action_number(self, move: BreakthroughMove) -> int:
        """((x, y), (x2, y2)) is 3 times the start's number (see square_number), and
        0, 1 or 2 for a step to the left, straight or to the right."""
        start, (x2, _) = move
        return square_number(start, self.columns) * 3 + x2 - start[0] + 1

    def observation(self, state: BreakthroughState, player: str) -> memoryview:
        """The board as planes (see Discs.planes) from player's side."""
        return state.board.planes(player)

    def actions(self, state: BreakthroughState) -> list[BreakthroughMove]:
        """Every move of the player to move, ((x, y), (x2, y2)), by the square of the
        piece (row by row from y = 1), then by the target's column; none once someone
        has won."""
        mover, utility, black, white, _, _ = state
        if utility:
            return []
        if mover == 'B':
            return self.shape.moves(black, white, mover)
        return self.shape.moves(white, black, mover)

    def result(self, state: BreakthroughState, move: BreakthroughMove) -> BreakthroughState:
        """Return the state after the player to move makes move, capturing what it lands on."""
        mover, utility, black, white, columns, rows = state
        own, other = (black, white) if mover == 'B' else (white, black)
        try:
            start, end, straight, known = self.shape.bits[mover][move]
        except (KeyError, TypeError):  # no move of mover's on this board, or unhashable
            start, end, straight = self._bits(state, move)
        else:
            if known is not move:  # equal to one of the tuples actions gives: read it as typed
                start, end, straight = self._bits(state, move)
        if utility or not own & start or own & end or straight and other & end:
            raise self._illegal(state, move)
        own ^= start | end
        other &= ~end
        if own & self.shape.far[mover] or not other:
            utility = 1 if mover == 'B' else -1
        if mover == 'B':
            return _make(BreakthroughState, ('W', utility, own, other, columns, rows))
        return _make(BreakthroughState, ('B', utility, other, own, columns, rows))

    def _bits(self, state: BreakthroughState, move: Any) -> tuple[int, int, bool]:
        """Return the bits of a move's two squares, ((x, y), (x2, y2)) of whole numbers
        one step forward for the player to move, and whether it goes straight ahead;
        raise IllegalMoveError for anything else."""
        try:
            (x, y), (x2, y2) = move
            if type(x) is type(y) is type(x2) is type(y2) is int:
                return self.shape.bits[state.to_move][(x, y), (x2, y2)][:3]
        except (TypeError, ValueError, KeyError):
            pass
        raise self._illegal(state, move)

    def _illegal(self, state: BreakthroughState, move: Any) -> IllegalMoveError:
        """The error for an illegal move, naming some legal ones."""
        shown = ', '.join(self.typed_move(legal) for legal in self.actions(state)[:8])
        return IllegalMoveError(f'illegal move {move!r}: a move is ((x, y), (x2, y2)), one '
                                f'piece one square forward; the legal moves include '
                                f'{shown or "none (the game is over)"}')

    def utility(self, state: BreakthroughState, player: str) -> float:
        """Return the value to player: 1 for a win, -1 for a loss, 0 while play goes on."""
        return state.utility if player == 'B' else -state.utility

    def terminal_test(self, state: BreakthroughState) -> bool:
        """The game is over once a piece has reached its far row or a side has no
        pieces left (a player always has a move until then)."""
        return state.utility != 0

    def advance(self, state: BreakthroughState, player: str) -> tuple[int, int]:
        """Return player's pieces and the rows they have advanced, in all."""
        pieces = state.black if player == 'B' else state.white
        rows = self.shape.rows_ahead(pieces, player)
        return pieces.bit_count(), rows

    PIECE_WEIGHT = 10
    """What a piece is worth in evaluate, in rows advanced."""

    def evaluate(self, state: BreakthroughState, player: str) -> float:
        """Material and advancement: PIECE_WEIGHT for each of player's pieces and one
        for each row they have advanced, less the same for the opponent, squashed into
        (-0.9, 0.9)."""
        (mine, ahead), (theirs, behind) = (self.advance(state, player),
                                           self.advance(state, 'W' if player == 'B' else 'B'))
        lead = self.PIECE_WEIGHT * (mine - theirs) + ahead - behind
        return 0.9 * lead / (abs(lead) + 20)

    def plies_left(self, state: BreakthroughState) -> int:
        """The most plies the game can last: each moves a piece one row nearer its far row."""
        if state.utility:
            return 0
        pieces = (state.black | state.white).bit_count()
        return ((self.rows - 1) * pieces - self.advance(state, 'B')[1]
                - self.advance(state, 'W')[1])

    def board_text(self, state: BreakthroughState,
                   last_move: BreakthroughMove | None = None) -> str:
        """Return the board, row `rows` at the top, columns and rows numbered, both
        squares of last_move in brackets."""
        return grid_text(state.board, self.columns, self.rows, last_move or ())

    def state_json(self, state: BreakthroughState) -> dict[str, Any]:
        """Return the player to move and the board as rows of pieces and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move, 'rows': state.board.rows()}

    def drawing(self, state: BreakthroughState,
                last_move: BreakthroughMove | None = None) -> dict[str, Any]:
        """Return the board as a grid of black and white pieces (see TicTacToe.drawing),
        and both squares of last_move."""
        board = state.board
        cells = [''.join(board.get((x, y), '.') for x in range(1, self.columns + 1))
                 for y in range(self.rows, 0, -1)]
        return {'kind': 'grid', 'style': 'pieces', 'columns': self.columns, 'rows': self.rows,
                'cells': cells, 'marks': [list(square) for square in last_move or ()]}

    def typed_move(self, move: BreakthroughMove) -> str:
        """A move is typed as its two squares: ((2, 2), (3, 3)) as '2 2 3 3'."""
        (x, y), (x2, y2) = move
        return f'{x} {y} {x2} {y2}'

    def describe_move(self, move: BreakthroughMove) -> str:
        """'2 2 -> 3 3'."""
        (x, y), (x2, y2) = move
        return f'{x} {y} -> {x2} {y2}'

    def parse_move(self, text: str, state: BreakthroughState) -> BreakthroughMove:
        """Read four numbers, 'x y x2 y2', as ((x, y), (x2, y2))."""
        numbers = super().parse_move(text.replace('-', ' ').replace('>', ' '), state)
        if not isinstance(numbers, tuple) or len(numbers) != 4:
            raise ValueError(f'expected four numbers, x y x2 y2, got {text!r}')
        return tuple(numbers[:2]), tuple(numbers[2:])
