"""Othello (Reversi) on an n x n board, n even: place a disc so that it brackets a
line of the opponent's discs, which turn to your colour."""

from __future__ import annotations

from collections import namedtuple
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Literal

from . import pictures
from .base import Fixed, Game, IllegalMoveError, Move
from .discs import Discs, Square, check_size, grid_text, square_number, squares_of

PASS: Final = 'pass'
"""The one move of a player who cannot place a disc while the opponent can."""
OthelloMove = Square | Literal['pass']
"""A move of Othello: the square (x, y) a disc is placed on, or PASS."""


class OthelloState(namedtuple('OthelloState', 'to_move, utility, board, moves')):
    """A position: the player to move ('B' or 'W'), the utility to B (1, -1, or 0
    while the game goes on or at a draw), the board (a Discs mapping of squares to
    'B' and 'W') and the legal moves of the player to move ((x, y) squares, or
    ('pass',); none once the game is over)."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        utility: int
        board: Discs
        moves: list[OthelloMove]

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        board = self.board
        if self.moves:
            caption = f'{self.to_move} to move'
        else:
            caption = {1: 'B won', -1: 'W won'}.get(self.utility, 'draw')
        return pictures.grid(board, board.h, board.v,
                              f'{caption}, B {board.count("B")} W {board.count("W")}', '#2e7d4f')


class Shape(Fixed):
    """The fixed bit tables of an n x n board: its squares, and for each of the eight
    directions the shift that moves a mask one square that way and the squares that
    can move so without leaving the board."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.full = (1 << n * n) - 1
        column = sum(1 << (y * n) for y in range(n))  # x = 1
        not_first, not_last = self.full ^ column, self.full ^ (column << (n - 1))
        self.directions: list[tuple[int, int]] = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    source = not_first if dx < 0 else not_last if dx > 0 else self.full
                    self.directions.append((dy * n + dx, source))

    @classmethod
    @lru_cache(maxsize=8)
    def of(cls, n: int) -> 'Shape':
        """The shape of an n x n board, built once per process."""
        return cls(n)

    def placements(self, own: int, other: int) -> int:
        """Return the mask of the empty squares where the owner of own can place:
        those at the end of a line of other's discs that starts next to one of own."""
        empty = self.full & ~(own | other)
        found = 0
        for shift, source in self.directions:
            if shift > 0:
                run = (own & source) << shift & other
                while run:
                    step = (run & source) << shift
                    found |= step & empty
                    run = step & other
            else:
                run = (own & source) >> -shift & other
                while run:
                    step = (run & source) >> -shift
                    found |= step & empty
                    run = step & other
        return found

    def flips(self, own: int, other: int, bit: int) -> int:
        """Return the mask of other's discs that placing bit turns over."""
        turned = 0
        for shift, source in self.directions:
            line, square = 0, bit
            while square & source:
                square = square << shift if shift > 0 else square >> -shift
                if square & other:
                    line |= square
                else:
                    if square & own:
                        turned |= line
                    break
        return turned


class Othello(Game):
    """Othello on an n x n board (n even, 4 to 16), B moving first from the four
    discs in the middle. A move places a disc on an empty square (x, y), both from
    1, that brackets at least one straight line of the opponent's discs between it
    and another of the mover's; those discs turn over. A player who cannot place
    has one move, 'pass'; when neither can, the game ends and whoever has more
    discs wins (utility 1 and -1; 0 for a draw)."""

    name = 'othello'
    players = ('B', 'W')

    def __init__(self, n: int = 8) -> None:
        self.n = check_size('n', n, 4, 16, even=True)
        self.shape = Shape.of(n)
        self.corners = self.bit((1, 1)) | self.bit((n, 1)) | self.bit((1, n)) | self.bit((n, n))
        m = n // 2
        black = self.bit((m, m)) | self.bit((m + 1, m + 1))
        white = self.bit((m, m + 1)) | self.bit((m + 1, m))
        self.initial = self._state('B', black, white)

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'n': self.n}

    def action_count(self) -> int:
        """A number for each square, and one for passing."""
        return self.n * self.n + 1

    def action_number(self, move: OthelloMove) -> int:
        """A square's number, row by row from y = 1 (see square_number); passing is n * n."""
        return self.n * self.n if move == PASS else square_number(move, self.n)

    def observation(self, state: OthelloState, player: str) -> memoryview:
        """The board as planes (see Discs.planes) from player's side."""
        return state.board.planes(player)

    def bit(self, square: Square) -> int:
        """Return the bit of a square (x, y)."""
        x, y = square
        return 1 << ((y - 1) * self.n + x - 1)

    def _state(self, mover: str, own: int, other: int) -> OthelloState:
        """Return the state with mover to move, own being the mover's discs: its legal
        moves, passing, or the end of the game and its utility."""
        black, white = (own, other) if mover == 'B' else (other, own)
        board = Discs(self.n, self.n, black, white)
        shape = self.shape
        squares = shape.placements(own, other)
        if squares:
            return OthelloState(mover, 0, board, squares_of(squares, self.n))
        if shape.placements(other, own):
            return OthelloState(mover, 0, board, [PASS])
        lead = black.bit_count() - white.bit_count()
        return OthelloState(mover, (lead > 0) - (lead < 0), board, [])

    def actions(self, state: OthelloState) -> list[OthelloMove]:
        """The empty squares where the player to move brackets a line of the
        opponent's discs, row by row from y = 1; ['pass'] if there are none but the
        opponent can place; none once the game is over."""
        return state.moves

    def result(self, state: OthelloState, move: OthelloMove) -> OthelloState:
        """Return the state after the player to move places a disc on move (turning
        over every line it brackets), or passes."""
        if move not in state.moves:
            raise IllegalMoveError(f'illegal move {move!r}: the legal moves are '
                                   f'{list(state.moves) or "none (the game is over)"}')
        move = state.moves[state.moves.index(move)]  # the game's own, (5, 3) for (5, 3.0)
        mover = state.to_move
        other_player = 'W' if mover == 'B' else 'B'
        own, other = state.board.masks if mover == 'B' else state.board.masks[::-1]
        if move == PASS:
            return self._state(other_player, other, own)
        bit = self.bit(move)
        turned = self.shape.flips(own, other, bit)
        return self._state(other_player, other ^ turned, own | turned | bit)

    def utility(self, state: OthelloState, player: str) -> float:
        """Return the value to player: 1 for a win, -1 for a loss, 0 otherwise."""
        return state.utility if player == 'B' else -state.utility

    def terminal_test(self, state: OthelloState) -> bool:
        """The game is over when neither player can place a disc."""
        return not state.moves

    CORNER_WEIGHT = 4
    """What a corner is worth in evaluate, in legal moves."""

    def evaluate(self, state: OthelloState, player: str) -> float:
        """Mobility and corners: the player's legal placements less the opponent's,
        plus CORNER_WEIGHT for each corner the player holds, less as much for each
        the opponent holds (corners can never be turned over), squashed into
        (-0.9, 0.9)."""
        mine, theirs = state.board.mask(player), state.board.mask('W' if player == 'B' else 'B')
        placements = self.shape.placements
        corners = self.corners
        score = (placements(mine, theirs).bit_count() - placements(theirs, mine).bit_count()
                 + self.CORNER_WEIGHT * ((mine & corners).bit_count()
                                         - (theirs & corners).bit_count()))
        return 0.9 * score / (abs(score) + 10)

    def plies_left(self, state: OthelloState) -> int:
        """The most plies the game can last: a disc on each empty square, each
        perhaps after a pass."""
        return 0 if not state.moves else 2 * (self.n * self.n - len(state.board))

    def board_text(self, state: OthelloState, last_move: OthelloMove | None = None) -> str:
        """Return the board, row n at the top, columns and rows numbered, the
        disc of last_move in brackets."""
        marks = [last_move] if isinstance(last_move, tuple) else []
        text = grid_text(state.board, self.n, self.n, marks)
        score = f'B {state.board.count("B")}, W {state.board.count("W")}'
        return text + f'\n{score}' + ('  (the last move passed)' if last_move == PASS else '')

    def state_json(self, state: OthelloState) -> dict[str, Any]:
        """Return the player to move and the board as rows of pieces and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move, 'rows': state.board.rows()}

    def drawing(self, state: OthelloState,
                last_move: OthelloMove | None = None) -> dict[str, Any]:
        """Return the board as a grid of black and white discs on green (see
        TicTacToe.drawing), and the square of last_move."""
        cells = [''.join(state.board.get((x, y), '.') for x in range(1, self.n + 1))
                 for y in range(self.n, 0, -1)]
        return {'kind': 'grid', 'style': 'othello', 'columns': self.n, 'rows': self.n,
                'cells': cells, 'marks': [list(last_move)] if isinstance(last_move, tuple) else []}

    def parse_move(self, text: str, state: OthelloState) -> Move:
        """Read 'x y' as a square, and 'pass'."""
        if text.strip().lower() == PASS:
            return PASS
        return super().parse_move(text, state)
