"""AIMA's own games, as aima-python's games.py gives them: the Figure 5.2 trees,
tic-tac-toe, Connect Four and Gomoku, with their states, moves, quirks and prints
(its backgammon is games.textbook_backgammon).

These are what `from games import *` gives under AIMA's names, so that code
written for aima-python runs and prints the same here. The registry's games of
the same names (variants, play) are the project's own, built on these or beside
them: games.grid's tic-tac-toe, Connect Four and Gomoku, games.tree's Figure 5.2
and games.backgammon. The board games here also have what the framework uses to
show and estimate a position (board_text, drawing, evaluate, ...), which AIMA's
code never calls."""

from __future__ import annotations

from collections import namedtuple
from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from . import pictures
from .base import Game
from .discs import Square, board_line, grid_text, square_number





def vector_add(a: Iterable[Any], b: Iterable[Any]) -> tuple[Any, ...]:
    """Component-wise addition of two vectors, as a tuple (as long as the shorter)."""
    return tuple(x + y for x, y in zip(a, b))


class GameState(namedtuple('GameState', 'to_move, utility, board, moves')):
    """AIMA's state: the player to move ('X' or 'O'), the utility to X
    (1, -1, or 0 while no one has won), the board (square -> 'X' or 'O') and the empty squares."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        utility: int
        board: dict[Square, str]
        moves: Sequence[Square]

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        squares = [*self.board, *self.moves]
        h = max((x for x, _ in squares), default=1)
        v = max((y for _, y in squares), default=1)
        caption = {1: 'X won', -1: 'O won'}.get(self.utility, f'{self.to_move} to move')
        return pictures.grid(self.board, h, v, caption if self.moves or self.utility else 'draw')


DIRECTIONS = ((0, 1), (1, 0), (1, -1), (1, 1))
"""The four directions of a line, in the order AIMA looks along them."""


class TreeNumbers(Game):
    """Action numbers and observations of a game given by its tree, succs mapping
    each inner node to {move: child}: a move is numbered by its name's place among
    the tree's move names, sorted; a node is observed as a 1 in its place among the
    tree's nodes (0 elsewhere)."""

    succs: Mapping[Any, Mapping[str, Any]]

    def node_of(self, state: Any) -> Any:
        """Return the node of a state: here the state itself."""
        return state

    def move_names(self) -> list[str]:
        """Return the names of the tree's moves, sorted."""
        return sorted({move for children in self.succs.values() for move in children})

    def action_count(self) -> int:
        """A number for each move name of the tree."""
        return len(self.move_names())

    def action_number(self, move: str) -> int:
        """A move's place among the tree's move names, sorted."""
        return self.move_names().index(move)

    def observation(self, state: Any, player: str) -> list[int]:
        """The node, as 1 in its place among the tree's nodes, inner nodes first."""
        node = self.node_of(state)
        nodes = dict.fromkeys([*self.succs, *(child for children in self.succs.values()
                                               for child in children.values())])
        return [int(known == node) for known in nodes]


class _TreeTable(TreeNumbers):
    """A game tree given by class tables, as AIMA gives its figures: succs maps each
    inner node to {move: child}, utils each leaf to its value for MAX. A state is
    the node itself, and a move that is not in the table raises KeyError."""

    # a node is a name (Fig52Game's) or a number (Fig52Extended's): each table its own
    succs: dict[Any, dict[str, Any]]
    utils: dict[Any, float]

    def result(self, state: Any, move: str) -> Any:
        """Return the child that move leads to."""
        return self.succs[state][move]

    def utility(self, state: Any, player: str) -> float:
        """The leaf's value for MAX, negated for any other player."""
        return self.utils[state] if player == 'MAX' else -self.utils[state]


class Fig52Game(_TreeTable):
    """The game represented in [Figure 5.2]. Serves as a simple test case."""

    succs = dict(A=dict(a1='B', a2='C', a3='D'),
                 B=dict(b1='B1', b2='B2', b3='B3'),
                 C=dict(c1='C1', c2='C2', c3='C3'),
                 D=dict(d1='D1', d2='D2', d3='D3'))
    utils = dict(B1=3, B2=12, B3=8, C1=2, C2=4, C3=6, D1=14, D2=5, D3=2)
    initial = 'A'

    def actions(self, state: str) -> list[str]:
        """The moves out of a node, in the table's order."""
        return list(self.succs.get(state, {}))

    def terminal_test(self, state: str) -> bool:
        """Every node but A, B, C and D is a leaf."""
        return state not in ('A', 'B', 'C', 'D')

    def to_move(self, state: str) -> str:
        """MIN at B, C and D (any part of the text 'BCD', as AIMA tests it), else MAX."""
        return 'MIN' if state in 'BCD' else 'MAX'


class Fig52Extended(_TreeTable):
    """Similar to Fig52Game but bigger. Useful for visualisation: nodes are the
    numbers 0 to 39, inner node i has the moves l, m and r to 3i+1, 3i+2 and 3i+3,
    and the leaves 13 to 39 have no utilities until they are given, as in AIMA:
    game.utils = {13: 3, ...}, or Fig52Extended(utils). As in AIMA, there is no
    initial state, and utils is one dict that every game shares until set."""

    succs = {i: dict(l=i * 3 + 1, m=i * 3 + 2, r=i * 3 + 3) for i in range(13)}
    utils: dict[int, float] = {}

    def __init__(self, utils: dict[int, float] | None = None) -> None:
        if utils is not None:
            self.utils = utils

    def actions(self, state: int) -> list[str]:
        """The moves out of a node, sorted: l, m, r."""
        return sorted(self.succs.get(state, {}))

    def terminal_test(self, state: int) -> bool:
        """The nodes from 0 to 12 have moves; every other one is a leaf."""
        return state not in range(13)

    def to_move(self, state: int) -> str:
        """MIN at nodes 1, 2 and 3, MAX everywhere else (the leaves too), as in AIMA."""
        return 'MIN' if state in {1, 2, 3} else 'MAX'


class TicTacToe(Game):
    """Play TicTacToe on an h x v board, with Max (first player) playing 'X'.
    A state has the player to move, a cached utility, a list of moves in
    the form of a list of (x, y) positions, and a board, in the form of
    a dict of {(x, y): Player} entries, where Player is 'X' or 'O'.
    A move that is not an empty square has no effect, as in AIMA."""

    def __init__(self, h: int = 3, v: int = 3, k: int = 3) -> None:
        self.h, self.v, self.k = h, v, k
        moves = [(x, y) for x in range(1, h + 1) for y in range(1, v + 1)]
        self.initial = GameState(to_move='X', utility=0, board={}, moves=moves)

    def actions(self, state: GameState) -> Sequence[Square]:
        """Legal moves are any square not yet taken."""
        return state.moves

    def result(self, state: GameState, move: Square) -> GameState:
        """Return the state after the player to move takes the square move, or the
        state itself if move is not an empty square."""
        if move not in state.moves:
            return state
        board = state.board.copy()
        board[move] = state.to_move
        moves = list(state.moves)
        moves.remove(move)
        return GameState(to_move='O' if state.to_move == 'X' else 'X',
                         utility=self.compute_utility(board, move, state.to_move),
                         board=board, moves=moves)

    def utility(self, state: GameState, player: str) -> float:
        """Return the value to player; 1 for win, -1 for loss, 0 otherwise."""
        return state.utility if player == 'X' else -state.utility

    def terminal_test(self, state: GameState) -> bool:
        """A state is terminal if it is won or there are no empty squares."""
        return state.utility != 0 or len(state.moves) == 0

    def display(self, state: GameState) -> None:
        """Print the board as AIMA does: a line for each x, a square for each y, '.'
        for an empty one (board_text and a Jupyter cell draw it row v on top)."""
        for x in range(1, self.h + 1):
            print(''.join(f'{state.board.get((x, y), ".")} ' for y in range(1, self.v + 1)))

    def action_count(self) -> int:
        """A number for each square."""
        return self.h * self.v

    def action_number(self, move: Square) -> int:
        """A square's number, row by row from y = 1 (see discs.square_number)."""
        return square_number(move, self.h)

    def observation(self, state: GameState, player: str) -> memoryview:
        """The board as [y - 1][x - 1][player's mark, the opponent's] (a memoryview of
        bytes, as Discs.planes gives)."""
        h = self.h
        cells = bytearray(2 * h * self.v)
        for (x, y), mark in state.board.items():
            cells[2 * ((y - 1) * h + x - 1) + (mark != player)] = 1
        return memoryview(cells).cast('b', (self.v, h, 2))

    def compute_utility(self, board: Mapping[Square, str], move: Square, player: str) -> int:
        """If 'X' wins with this move, return 1; if 'O' wins return -1; else return 0."""
        if any(self.k_in_row(board, move, player, delta) for delta in DIRECTIONS):
            return +1 if player == 'X' else -1
        return 0

    def k_in_row(self, board: Mapping[Square, str], move: Square, player: str,
                 delta_x_y: tuple[int, int]) -> bool:
        """Return true if there is a line through move on board for player."""
        (delta_x, delta_y) = delta_x_y
        x, y = move
        n = 0  # n is number of moves in row
        while board.get((x, y)) == player:
            n += 1
            x, y = x + delta_x, y + delta_y
        x, y = move
        while board.get((x, y)) == player:
            n += 1
            x, y = x - delta_x, y - delta_y
        n -= 1  # Because we counted move itself twice
        return n >= self.k

    @cached_property
    def lines(self) -> tuple[tuple[Square, ...], ...]:
        """Every line of k squares on the board."""
        squares = {(x, y) for x in range(1, self.h + 1) for y in range(1, self.v + 1)}
        lines = []
        for x, y in sorted(squares):
            for dx, dy in DIRECTIONS:
                line = tuple((x + i * dx, y + i * dy) for i in range(self.k))
                if all(square in squares for square in line):
                    lines.append(line)
        return tuple(lines)

    def evaluate(self, state: GameState, player: str) -> float:
        """Open lines: each line still open to only one side counts the square of
        its pieces for that side. The sum is squashed into (-0.9, 0.9)."""
        board = state.board
        score = 0
        for line in self.lines:
            pieces = [board.get(square) for square in line]
            xs, os = pieces.count('X'), pieces.count('O')
            if not os:
                score += xs * xs
            elif not xs:
                score -= os * os
        value = 0.9 * score / (abs(score) + 10)
        return value if player == 'X' else -value

    def board_text(self, state: GameState, last_move: Square | None = None) -> str:
        """Return the board, row v at the top, with the columns and rows numbered
        and the square of last_move in brackets: 'O[X].'."""
        return grid_text(state.board, self.h, self.v, [last_move] if last_move else [])

    def describe_state(self, state: GameState) -> str:
        """Return the board's rows on one line, top row first: 'X.O/X.O/O.X'."""
        return board_line(state.board, self.h, self.v)

    def state_json(self, state: GameState) -> dict[str, Any]:
        """Return the player to move and the board as rows of 'X', 'O' and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move,
                'rows': [''.join(state.board.get((x, y), '.') for x in range(1, self.h + 1))
                         for y in range(1, self.v + 1)]}

    def drawing(self, state: GameState, last_move: Square | None = None) -> dict[str, Any]:
        """Return the board as a grid of columns x rows drawn with crosses and
        noughts: cells, row v first, each 'X', 'O' or '.', and the square of last_move."""
        cells = [[state.board.get((x, y), '.') for x in range(1, self.h + 1)]
                 for y in range(self.v, 0, -1)]
        return {'kind': 'grid', 'style': 'xo', 'columns': self.h, 'rows': self.v,
                'cells': [''.join(row) for row in cells],
                'marks': [list(last_move)] if last_move is not None else []}


class ConnectFour(TicTacToe):
    """A TicTacToe-like game in which you can only make a move on the bottom
    row, or in a square directly above an occupied square. Traditionally
    played on a 7x6 board and requiring 4 in a row. As in AIMA, x is the line
    display prints and line h the bottom: the first moves are (h, 1) ... (h, v),
    and any empty square given to result is taken."""

    def __init__(self, h: int = 7, v: int = 6, k: int = 4) -> None:
        super().__init__(h, v, k)

    def actions(self, state: GameState) -> list[Square]:
        """The empty squares on line h, or just above (x - 1) a taken square."""
        return [(x, y) for (x, y) in state.moves if x == self.h or (x + 1, y) in state.board]

    def action_count(self) -> int:
        """A number for each line the pieces fall along: y."""
        return self.v

    def action_number(self, move: Square) -> int:
        """A move's y, from 0."""
        return move[1] - 1

    # the pieces fall along x, which the grid would draw across: show what display prints
    board_text = Game.board_text
    drawing = Game.drawing


class Gomoku(TicTacToe):
    """Also known as Five in a row."""

    def __init__(self, h: int = 15, v: int = 16, k: int = 5) -> None:
        super().__init__(h, v, k)
