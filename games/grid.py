"""The registry's tic-tac-toe, Connect Four and Gomoku: k in a row on a board of
squares, AIMA's games (games.textbook) with states that cannot be changed, moves
checked, and Connect Four's columns upright."""

from __future__ import annotations

from typing import Any, Mapping, NoReturn

from . import textbook
from .base import Fixed, Game, IllegalMoveError, Move
from .discs import Square
from .textbook import GameState


class Squares(tuple[Square, ...], Fixed):
    """The empty squares of a state: a tuple, so states can be hashed, that prints
    as AIMA's list of moves does: [(1, 1), (1, 2)]."""

    __slots__ = ()

    def __repr__(self) -> str:
        return repr(list(self))


class Board(dict[Square, str]):
    """A mapping of (x, y) squares to 'X' or 'O' that cannot be changed, so a
    player cannot alter the game's record. copy() returns an ordinary dict."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError('a board cannot be changed; use game.result(state, move) for a new state')

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # dict's is None: a board is hashable
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[type[Board], tuple[dict[Square, str]]]:
        return (Board, (dict(self),))

    def __deepcopy__(self, memo: dict[int, Any]) -> 'Board':
        # its squares and marks are tuples and strings: a new mapping is a deep copy
        return Board(self)


class TicTacToe(textbook.TicTacToe):
    """AIMA's TicTacToe for the registry: the empty squares are Squares, a tuple of
    (x, y) positions that prints as a list, and the board a Board, a mapping of
    {(x, y): Player} entries, where Player is 'X' or 'O', that cannot be changed;
    result refuses an illegal move. Squares are numbered from 1: x is the column, y the row."""

    name = 'tictactoe'
    players = ('X', 'O')

    def __init__(self, h: int = 3, v: int = 3, k: int = 3) -> None:
        for key, value in (('h', h), ('v', v), ('k', k)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f'{key} must be a whole number >= 1, got {value!r}')
        if k > max(h, v):
            raise ValueError(f'k={k} in a row cannot fit on a {h} x {v} board')
        super().__init__(h, v, k)
        self.initial = self.initial._replace(board=Board(), moves=Squares(self.initial.moves))

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'h': self.h, 'v': self.v, 'k': self.k}

    def result(self, state: GameState, move: Square) -> GameState:
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

    def check_move(self, state: GameState, move: Any) -> None:
        """Raise IllegalMoveError unless move is one of the actions of state."""
        if not self._is_legal(state, move):
            super().check_move(state, move)

    def _is_legal(self, state: GameState, move: Any) -> bool:
        """Is move one of the actions of state?"""
        return move in self.actions(state)


class ConnectFour(TicTacToe):
    """Connect Four: h columns of v rows; a piece drops to the lowest empty
    square of its column, and k in a row wins. A move is the (x, y) square."""

    name = 'connect4'

    def __init__(self, h: int = 7, v: int = 6, k: int = 4) -> None:
        super().__init__(h, v, k)

    def actions(self, state: GameState) -> list[Square]:
        """The lowest empty square of each column that is not full."""
        return [(x, y) for (x, y) in state.moves if y == 1 or (x, y - 1) in state.board]

    def action_count(self) -> int:
        """A number for each column."""
        return self.h

    def action_number(self, move: Square) -> int:
        """A move's column, from 0."""
        return move[0] - 1

    display = Game.display  # the columns stand upright: AIMA's lines would lay them down

    def drawing(self, state: GameState, last_move: Square | None = None) -> dict[str, Any]:
        """Return the board as a grid of discs (see TicTacToe.drawing)."""
        return {**super().drawing(state, last_move), 'style': 'discs'}

    def typed_move(self, move: Square) -> str:
        """A move is typed as its column: (4, 1) as '4'."""
        return str(move[0])

    def describe_move(self, move: Square) -> str:
        """'column 4'."""
        return f'column {move[0]}'

    def parse_move(self, text: str, state: GameState) -> Move:
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

    def __init__(self, h: int = 15, v: int = 16, k: int = 5) -> None:
        super().__init__(h, v, k)

    def actions(self, state: GameState) -> list[Square]:
        """Every empty square, those near the stones first."""
        near = self.near(state.board)
        return ([square for square in state.moves if square in near]
                + [square for square in state.moves if square not in near])

    def _is_legal(self, state: GameState, move: Any) -> bool:
        """Is move an empty square? (It is quicker to ask than to list the actions, which
        are every empty square in another order; a subclass with actions of its own is
        asked its actions.)"""
        if type(self).actions is not Gomoku.actions:
            return super()._is_legal(state, move)
        return move in state.moves

    def near(self, board: Mapping[Square, str]) -> set[Square]:
        """The squares within two of a stone (the centre square on an empty board)."""
        if not board:
            return {((self.h + 1) // 2, (self.v + 1) // 2)}
        return {(x + dx, y + dy) for x, y in board for dx in range(-2, 3) for dy in range(-2, 3)}
