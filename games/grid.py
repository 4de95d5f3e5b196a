"""Tic-tac-toe, Connect Four and Gomoku: k in a row on a board of squares, as in AIMA."""

from __future__ import annotations

from collections import namedtuple
from functools import cached_property

from . import pictures
from .base import Fixed, Game, IllegalMoveError
from .discs import board_line, grid_text



class GameState(namedtuple('GameState', 'to_move, utility, board, moves')):
    """AIMA's state: the player to move ('X' or 'O'), the utility to X
    (1, -1, or 0 while no one has won), the board (square -> 'X' or 'O') and the empty squares."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        squares = [*self.board, *self.moves]
        h = max((x for x, _ in squares), default=1)
        v = max((y for _, y in squares), default=1)
        caption = {1: 'X won', -1: 'O won'}.get(self.utility, f'{self.to_move} to move')
        return pictures.grid(self.board, h, v, caption if self.moves or self.utility else 'draw')

DIRECTIONS = ((0, 1), (1, 0), (1, -1), (1, 1))


class Squares(tuple, Fixed):
    """The empty squares of a state: a tuple, so states can be hashed, that prints
    as AIMA's list of moves does: [(1, 1), (1, 2)]."""

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(list(self))


class Board(dict):
    """A mapping of (x, y) squares to 'X' or 'O' that cannot be changed, so a
    player cannot alter the game's record. copy() returns an ordinary dict."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError('a board cannot be changed; use game.result(state, move) for a new state')

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict's is None: a board is hashable
        return hash(frozenset(self.items()))

    def __reduce__(self):
        return (Board, (dict(self),))

    def __deepcopy__(self, memo: dict) -> 'Board':
        # its squares and marks are tuples and strings: a new mapping is a deep copy
        return Board(self)


class TicTacToe(Game):
    """Play TicTacToe on an h x v board, with Max (first player) playing 'X'.
    A state has the player to move, a cached utility, the empty squares
    as Squares, a tuple of (x, y) positions that prints as a list, and a
    board, a Board: a mapping of {(x, y): Player} entries, where Player is
    'X' or 'O', that cannot be changed. Squares are numbered from 1: x is the column, y the row."""

    name = 'tictactoe'
    players = ('X', 'O')

    def __init__(self, h: int = 3, v: int = 3, k: int = 3):
        for key, value in (('h', h), ('v', v), ('k', k)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f'{key} must be a whole number >= 1, got {value!r}')
        if k > max(h, v):
            raise ValueError(f'k={k} in a row cannot fit on a {h} x {v} board')
        self.h, self.v, self.k = h, v, k
        moves = Squares((x, y) for x in range(1, h + 1) for y in range(1, v + 1))
        self.initial = GameState(to_move='X', utility=0, board=Board(), moves=moves)

    def params(self) -> dict:
        """Return the constructor arguments that make this game."""
        return {'h': self.h, 'v': self.v, 'k': self.k}

    def actions(self, state):
        """Legal moves are any square not yet taken."""
        return state.moves

    def result(self, state, move):
        """Return the state after the player to move takes the square move."""
        if not self._is_legal(state, move):
            raise IllegalMoveError(f'illegal move {move!r}: the legal squares are '
                                   f'{sorted(self.actions(state))}')
        board = dict(state.board)
        board[move] = state.to_move
        return GameState(to_move=('O' if state.to_move == 'X' else 'X'),
                         utility=self.compute_utility(board, move, state.to_move),
                         board=Board(board),
                         moves=Squares(square for square in state.moves if square != move))

    def check_move(self, state, move) -> None:
        """Raise IllegalMoveError unless move is one of the actions of state."""
        if not self._is_legal(state, move):
            super().check_move(state, move)

    def _is_legal(self, state, move) -> bool:
        """Is move one of the actions of state?"""
        return move in self.actions(state)

    def utility(self, state, player) -> float:
        """Return the value to player; 1 for win, -1 for loss, 0 otherwise."""
        return state.utility if player == 'X' else -state.utility

    def terminal_test(self, state) -> bool:
        """A state is terminal if it is won or there are no empty squares."""
        return state.utility != 0 or len(state.moves) == 0

    def compute_utility(self, board, move, player) -> int:
        """If 'X' wins with this move, return 1; if 'O' wins return -1; else return 0."""
        if any(self.k_in_row(board, move, player, delta) for delta in DIRECTIONS):
            return +1 if player == 'X' else -1
        return 0

    def k_in_row(self, board, move, player, delta_x_y) -> bool:
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
    def lines(self) -> tuple:
        """Every line of k squares on the board."""
        squares = {(x, y) for x in range(1, self.h + 1) for y in range(1, self.v + 1)}
        lines = []
        for x, y in sorted(squares):
            for dx, dy in DIRECTIONS:
                line = tuple((x + i * dx, y + i * dy) for i in range(self.k))
                if all(square in squares for square in line):
                    lines.append(line)
        return tuple(lines)

    def evaluate(self, state, player) -> float:
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

    def display(self, state) -> None:
        """Print the board as AIMA does: a line for each x, a square for each y, '.'
        for an empty one (show, board_text and a Jupyter cell draw it row v on top)."""
        board = state.board
        for x in range(1, self.h + 1):
            for y in range(1, self.v + 1):
                print(board.get((x, y), '.'), end=' ')
            print()

    def board_text(self, state, last_move=None) -> str:
        """Return the board, row v at the top, with the columns and rows numbered
        and the square of last_move in brackets: 'O[X].'."""
        return grid_text(state.board, self.h, self.v, [last_move] if last_move else [])

    def describe_state(self, state) -> str:
        """Return the board's rows on one line, top row first: 'X.O/X.O/O.X'."""
        return board_line(state.board, self.h, self.v)

    def state_json(self, state) -> dict:
        """Return the player to move and the board as rows of 'X', 'O' and '.', row 1
        first: rows[y - 1][x - 1] is the square (x, y)."""
        return {'to_move': state.to_move,
                'rows': [''.join(state.board.get((x, y), '.') for x in range(1, self.h + 1))
                         for y in range(1, self.v + 1)]}

    def drawing(self, state, last_move=None) -> dict:
        """Return the board as a grid of columns x rows drawn with crosses and
        noughts: cells, row v first, each 'X', 'O' or '.', and the square of last_move."""
        cells = [[state.board.get((x, y), '.') for x in range(1, self.h + 1)]
                 for y in range(self.v, 0, -1)]
        return {'kind': 'grid', 'style': 'xo', 'columns': self.h, 'rows': self.v,
                'cells': [''.join(row) for row in cells],
                'marks': [list(last_move)] if last_move is not None else []}


class ConnectFour(TicTacToe):
    """Connect Four: h columns of v rows; a piece drops to the lowest empty
    square of its column, and k in a row wins. A move is the (x, y) square."""

    name = 'connect4'

    def __init__(self, h: int = 7, v: int = 6, k: int = 4):
        super().__init__(h, v, k)

    def actions(self, state):
        """The lowest empty square of each column that is not full."""
        return [(x, y) for (x, y) in state.moves if y == 1 or (x, y - 1) in state.board]

    display = Game.display  # the columns stand upright: AIMA's lines would lay them down

    def drawing(self, state, last_move=None) -> dict:
        """Return the board as a grid of discs (see TicTacToe.drawing)."""
        return {**super().drawing(state, last_move), 'style': 'discs'}

    def typed_move(self, move) -> str:
        """A move is typed as its column: (4, 1) as '4'."""
        return str(move[0])

    def describe_move(self, move) -> str:
        """'column 4'."""
        return f'column {move[0]}'

    def parse_move(self, text: str, state):
        """Accept a column number alone, such as '4', as well as 'x y'."""
        move = super().parse_move(text, state)
        if isinstance(move, int):
            in_column = [square for square in self.actions(state) if square[0] == move]
            if not in_column:
                raise ValueError(f'column {move} is full or off the board')
            return in_column[0]
        return move


class Gomoku(TicTacToe):
    """Also known as Five in a row: k in a row on an h x v board (AIMA's defaults,
    15 x 16 and five in a row). Every empty square is a move; actions lists the
    squares within two of a stone (the centre on an empty board) first, where the
    play is, so that searches try them first."""

    name = 'gomoku'

    def __init__(self, h: int = 15, v: int = 16, k: int = 5):
        super().__init__(h, v, k)

    def actions(self, state):
        """Every empty square, those near the stones first."""
        near = self.near(state.board)
        return ([square for square in state.moves if square in near]
                + [square for square in state.moves if square not in near])

    def _is_legal(self, state, move) -> bool:
        """Is move an empty square? (It is quicker to ask than to list the actions, which
        are every empty square in another order; a subclass with actions of its own is
        asked its actions.)"""
        if type(self).actions is not Gomoku.actions:
            return super()._is_legal(state, move)
        return move in state.moves

    def near(self, board) -> set:
        """The squares within two of a stone (the centre square on an empty board)."""
        if not board:
            return {((self.h + 1) // 2, (self.v + 1) // 2)}
        return {(x + dx, y + dy) for x, y in board for dx in range(-2, 3) for dy in range(-2, 3)}
