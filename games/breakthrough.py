"""Breakthrough: a row or two of pieces each, moving forward; the first to break through
wins."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache

from . import pictures
from .base import Game, IllegalMoveError
from .discs import Discs, check_size, grid_text


class BreakthroughState(namedtuple('BreakthroughState', 'to_move, utility, board')):
    """A position: the player to move ('B' or 'W'), the utility to B (1 or -1 once
    someone has broken through, else 0) and the board (a Discs mapping of squares to
    'B' and 'W')."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        caption = {1: 'B won', -1: 'W won'}.get(self.utility, f'{self.to_move} to move')
        return pictures.grid(self.board, self.board.h, self.board.v, caption)


class Shape:
    """The fixed bit tables of a board of columns x rows: square (x, y) is bit
    (y - 1) * columns + x - 1; for each player the shifts of a step forward (straight,
    then diagonally left and right, with the squares that can make it without leaving
    the board) and the far row."""

    def __init__(self, columns: int, rows: int):
        self.columns, self.rows = columns, rows
        full = self.full = (1 << columns * rows) - 1
        column = sum(1 << (y * columns) for y in range(rows))
        not_first, not_last = full ^ column, full ^ (column << (columns - 1))
        row = (1 << columns) - 1
        self.far = {'B': row << columns * (rows - 1), 'W': row}
        self.row_masks = [row << columns * y for y in range(rows)]
        c = columns
        self.steps = {'B': ((c, full), (c - 1, not_first), (c + 1, not_last)),
                      'W': ((-c, full), (-c - 1, not_first), (-c + 1, not_last))}

    @classmethod
    @lru_cache(maxsize=8)
    def of(cls, columns: int, rows: int) -> 'Shape':
        """The shape of a board, built once per process."""
        return cls(columns, rows)

    def rows_ahead(self, pieces: int, player) -> int:
        """The rows player's pieces have advanced from player's first row, in all."""
        last = self.rows - 1
        return sum((y if player == 'B' else last - y) * (pieces & mask).bit_count()
                   for y, mask in enumerate(self.row_masks))

    def moves(self, own: int, other: int, player) -> list:
        """The (from, to) bit indexes of player's moves, own being player's pieces:
        straight ahead onto an empty square, diagonally onto any but an own piece;
        ordered by the piece's square, then by the target's column."""
        found = []
        for number, (shift, source) in enumerate(self.steps[player]):
            targets = (own & source) << shift if shift > 0 else (own & source) >> -shift
            targets &= ~(own | other) if number == 0 else self.full & ~own
            while targets:
                low = targets & -targets
                to = low.bit_length() - 1
                found.append((to - shift, to))
                targets ^= low
        found.sort()
        return found


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

    def __init__(self, rows: int = 8, columns: int = 8):
        self.rows = check_size('rows', rows, 2, 16)
        self.columns = check_size('columns', columns, 2, 16)
        self.shape = Shape.of(columns, rows)
        home = 2 if rows >= self.TWO_ROWS_FROM else 1
        pieces = (1 << home * columns) - 1
        self.initial = BreakthroughState('B', 0, Discs(columns, rows, pieces,
                                                       pieces << columns * (rows - home)))

    def params(self) -> dict:
        """Return the constructor arguments that make this game."""
        return {'rows': self.rows, 'columns': self.columns}

    def square(self, index: int) -> tuple:
        """The square (x, y) of a bit index."""
        return index % self.columns + 1, index // self.columns + 1

    def actions(self, state) -> list:
        """Every move of the player to move, ((x, y), (x2, y2)), by the square of the
        piece (row by row from y = 1), then by the target's column; none once someone
        has won."""
        if state.utility:
            return []
        black, white = state.board.masks
        own, other = (black, white) if state.to_move == 'B' else (white, black)
        square = self.square
        return [(square(start), square(end))
                for start, end in self.shape.moves(own, other, state.to_move)]

    def result(self, state, move) -> BreakthroughState:
        """Return the state after the player to move makes move, capturing what it lands on."""
        mover = state.to_move
        black, white = state.board.masks
        own, other = (black, white) if mover == 'B' else (white, black)
        start, end = self._bits(state, move, own, other)
        own ^= start | end
        other &= ~end
        utility = 0
        if own & self.shape.far[mover] or not other:
            utility = 1 if mover == 'B' else -1
        board = Discs(self.columns, self.rows, *((own, other) if mover == 'B' else (other, own)))
        return BreakthroughState('W' if mover == 'B' else 'B', utility, board)

    def _bits(self, state, move, own: int, other: int) -> tuple:
        """Return the bits of a legal move's two squares; raise IllegalMoveError for
        anything else."""
        forward = 1 if state.to_move == 'B' else -1
        try:
            (x, y), (x2, y2) = move
            legal = (not state.utility and type(x) is type(y) is type(x2) is type(y2) is int
                     and 1 <= x <= self.columns and 1 <= x2 <= self.columns
                     and 1 <= y <= self.rows and 1 <= y2 <= self.rows
                     and y2 == y + forward and abs(x2 - x) <= 1)
        except (TypeError, ValueError):
            legal = False
        if legal:
            start = 1 << (y - 1) * self.columns + x - 1
            end = 1 << (y2 - 1) * self.columns + x2 - 1
            if own & start and not own & end and not (x2 == x and other & end):
                return start, end
        shown = ', '.join(self.typed_move(legal) for legal in self.actions(state)[:8])
        raise IllegalMoveError(f'illegal move {move!r}: a move is ((x, y), (x2, y2)), one '
                               f'piece one square forward; the legal moves include '
                               f'{shown or "none (the game is over)"}')

    def utility(self, state, player) -> float:
        """Return the value to player: 1 for a win, -1 for a loss, 0 while play goes on."""
        return state.utility if player == 'B' else -state.utility

    def terminal_test(self, state) -> bool:
        """The game is over once a piece has reached its far row or a side has no
        pieces left (a player always has a move until then)."""
        return state.utility != 0

    def advance(self, state, player) -> tuple:
        """Return player's pieces and the rows they have advanced, in all."""
        pieces = state.board.mask(player)
        rows = self.shape.rows_ahead(pieces, player)
        return pieces.bit_count(), rows

    PIECE_WEIGHT = 10
    """What a piece is worth in evaluate, in rows advanced."""

    def evaluate(self, state, player) -> float:
        """Material and advancement: PIECE_WEIGHT for each of player's pieces and one
        for each row they have advanced, less the same for the opponent, squashed into
        (-0.9, 0.9)."""
        (mine, ahead), (theirs, behind) = (self.advance(state, player),
                                           self.advance(state, 'W' if player == 'B' else 'B'))
        lead = self.PIECE_WEIGHT * (mine - theirs) + ahead - behind
        return 0.9 * lead / (abs(lead) + 20)

    def plies_left(self, state) -> int:
        """The most plies the game can last: each moves a piece one row nearer its far row."""
        if state.utility:
            return 0
        return ((self.rows - 1) * len(state.board) - self.advance(state, 'B')[1]
                - self.advance(state, 'W')[1])

    def board_text(self, state, last_move=None) -> str:
        """Return the board, row `rows` at the top, columns and rows numbered, both
        squares of last_move in brackets."""
        return grid_text(state.board, self.columns, self.rows, last_move or ())

    def state_json(self, state) -> dict:
        """Return the player to move and the board as rows of pieces and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move, 'rows': state.board.rows()}

    def drawing(self, state, last_move=None) -> dict:
        """Return the board as a grid of black and white pieces (see TicTacToe.drawing),
        and both squares of last_move."""
        cells = [''.join(state.board.get((x, y), '.') for x in range(1, self.columns + 1))
                 for y in range(self.rows, 0, -1)]
        return {'kind': 'grid', 'style': 'pieces', 'columns': self.columns, 'rows': self.rows,
                'cells': cells, 'marks': [list(square) for square in last_move or ()]}

    def typed_move(self, move) -> str:
        """A move is typed as its two squares: ((2, 2), (3, 3)) as '2 2 3 3'."""
        (x, y), (x2, y2) = move
        return f'{x} {y} {x2} {y2}'

    def describe_move(self, move) -> str:
        """'2 2 -> 3 3'."""
        (x, y), (x2, y2) = move
        return f'{x} {y} -> {x2} {y2}'

    def parse_move(self, text: str, state):
        """Read four numbers, 'x y x2 y2', as ((x, y), (x2, y2))."""
        numbers = super().parse_move(text.replace('-', ' ').replace('>', ' '), state)
        if not isinstance(numbers, tuple) or len(numbers) != 4:
            raise ValueError(f'expected four numbers, x y x2 y2, got {text!r}')
        return tuple(numbers[:2]), tuple(numbers[2:])
