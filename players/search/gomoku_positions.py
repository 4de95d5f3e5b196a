"""How the search engine sees Gomoku: bit masks, an evaluation kept up to date
move by move, and only the moves near the stones.

A position is (mine, theirs, near, score, won): the stones of the player to
move and of the opponent as bit masks, the squares within two of a stone, the
game's open-lines evaluation before squashing (TicTacToe.evaluate's sum) for
the player to move, and whether the opponent's last stone made k in a row. A
move changes only the lines through its square, so a child's score is its
parent's plus the change on those lines. Children are the empty squares near
the stones (the centre on an empty board), the best by that change first: so
abN on Gomoku searches the moves near the play, not every empty square."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from games.grid import Board, Gomoku, Squares
from games.textbook import GameState

from .positions import KnownPositions
from .shared import EvalFn, State

MINE, THEIRS, NEAR, SCORE, WON = range(5)
WIN_FIRST = 1 << 20
"""Added to a winning move's change when ordering the children, so that it comes first."""
GomokuPosition = tuple[int, int, int, int, bool]
"""A Gomoku position: (mine, theirs, near, score, won), as the module's docstring says."""


def line_value(mine: int, theirs: int) -> int:
    """A line's share of the evaluation for the player owning mine stones on it: the
    square of the stones of the only side on it, negative for the opponent's."""
    if not theirs:
        return mine * mine
    return -theirs * theirs if not mine else 0


class _GomokuShape:
    """The fixed tables of an h x v board with k in a row: square numbering
    (column by column), each square's lines as masks and its neighbourhood."""

    def __init__(self, h: int, v: int, k: int):
        self.k = k
        self.squares = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.index = {(x, y): (x - 1) * v + y - 1 for x, y in self.squares}
        self.n = h * v
        self.full = (1 << self.n) - 1
        self.lines = [sum(1 << self.index[square] for square in line)
                      for line in Gomoku(h, v, k).lines]
        self.through = [[line for line in self.lines if line >> i & 1] for i in range(self.n)]
        self.neighbours = [sum(1 << self.index[(x + dx, y + dy)]
                               for dx in range(-2, 3) for dy in range(-2, 3)
                               if (x + dx, y + dy) in self.index)
                           for x, y in self.squares]
        self.centre = 1 << self.index[((h + 1) // 2, (v + 1) // 2)]
        self.gain = [[line_value(mine + 1, theirs) - line_value(mine, theirs)
                      for theirs in range(k + 1)] for mine in range(k + 1)]

    @classmethod
    @lru_cache(maxsize=8)
    def of(cls, h: int, v: int, k: int) -> '_GomokuShape':
        """The shape of a board, built once per process."""
        return cls(h, v, k)


class GomokuPositions(KnownPositions):
    """Gomoku for the engine: see the module's docstring."""

    def __init__(self, game: Gomoku, root_player: Any, eval_fn: EvalFn | None = None):
        super().__init__(game, root_player, eval_fn)
        self.shape = _GomokuShape.of(game.h, game.v, game.k)

    def encode(self, state: State) -> GomokuPosition:
        """The position of a game state, its evaluation counted line by line."""
        shape = self.shape
        mine = theirs = 0
        for square, piece in state.board.items():
            if piece == state.to_move:
                mine |= 1 << shape.index[square]
            else:
                theirs |= 1 << shape.index[square]
        near = 0
        stones = mine | theirs
        for i in range(shape.n):
            if stones >> i & 1:
                near |= shape.neighbours[i]
        score = sum(line_value((mine & line).bit_count(), (theirs & line).bit_count())
                    for line in shape.lines)
        return (mine, theirs, near or shape.centre, score, state.utility != 0)

    def key(self, pos: GomokuPosition, sign: int) -> int:
        """The stones of both sides, as one number."""
        return pos[MINE] | pos[THEIRS] << self.shape.n

    def plies_left(self, pos: GomokuPosition) -> int:
        """One ply per empty square."""
        return self.shape.full.bit_count() - (pos[MINE] | pos[THEIRS]).bit_count()

    def outcome(self, pos: GomokuPosition, sign: int) -> float | None:
        """-1 if the opponent's last stone made k in a row, 0 if the board is full, else None."""
        if pos[WON]:
            return -1
        return 0 if pos[MINE] | pos[THEIRS] == self.shape.full else None

    def evaluate(self, pos: GomokuPosition, sign: int) -> float:
        """TicTacToe.evaluate's squashed sum, for the player to move."""
        score = pos[SCORE]
        return 0.9 * score / (abs(score) + 10)

    def children(self, pos: GomokuPosition, sign: int) -> list[GomokuPosition]:
        """The positions after a stone on each empty square near the stones, the
        best for the player to move by the change in the evaluation first."""
        mine, theirs, near, score, _ = pos
        shape = self.shape
        through, neighbours, gain, k = shape.through, shape.neighbours, shape.gain, shape.k
        free = near & ~(mine | theirs)
        ranked: list[tuple[int, int, GomokuPosition]] = []
        while free:
            bit = free & -free
            free ^= bit
            i = bit.bit_length() - 1
            change, won = 0, False
            for line in through[i]:
                count = (mine & line).bit_count()
                change += gain[count][(theirs & line).bit_count()]
                if count + 1 == k:
                    won = True
            ranked.append((-(change + WIN_FIRST * won), i,
                           (theirs, mine | bit, near | neighbours[i], -(score + change), won)))
        ranked.sort()
        return [child for _, _, child in ranked]

    def state(self, pos: GomokuPosition, sign: int) -> GameState:
        """The game state of a position."""
        shape = self.shape
        mover = self.root if sign > 0 else ('O' if self.root == 'X' else 'X')
        other = 'O' if mover == 'X' else 'X'
        board = {}
        for square in shape.squares:
            bit = 1 << shape.index[square]
            if pos[MINE] & bit:
                board[square] = mover
            elif pos[THEIRS] & bit:
                board[square] = other
        moves = Squares(square for square in shape.squares if square not in board)
        utility = (1 if other == 'X' else -1) if pos[WON] else 0
        return GameState(to_move=mover, utility=utility, board=Board(board), moves=moves)
