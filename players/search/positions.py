"""How the search engine sees a game: positions, their table keys and children.

The engine works on positions, which may be the game's own states (GamePositions,
for any Game, keyed by the game's table_key) or a cheaper encoding of them that
this module (or gomoku_positions, board_positions) gives a known game:
Nim's piles as one number that counts the piles of each size (no order, no
empty ones), Grundy's game without the piles that cannot be split, a tic-tac-toe
board as two bit masks (the mover's squares and the opponent's) whose key is the
least of its symmetric images.
Every encoding answers the same few questions, with values for the player to
move, and `sign` telling whether that player is the root's player (+1) or not
(-1), as the textbook's max and min levels alternate."""

from __future__ import annotations

import importlib
import math
from bisect import bisect_left
from typing import Any, Hashable, TypeGuard, cast

from games.base import Game, Move
from games.breakthrough import Breakthrough
from games.grid import Board, ConnectFour, Gomoku, Squares, TicTacToe
from games.hex import Hex
from games.kalah import Kalah
from games.nim import GrundysGame, Nim, NimState
from games.othello import Othello
from games.textbook import GameState

from .board_shape import BoardShape
from .shared import EvalFn, State

Position = Any
"""A position: a game state here; in each encoding, its own value (a number, masks...)."""
Key = Hashable
"""A position's key in a table (None where it is not stored)."""


class GamePositions:
    """Any Game, through its public methods: a position is a state, its key the
    game's table_key of the state with the side to move (None: not stored)."""

    bounds: tuple[float, float] = (-math.inf, math.inf)
    """The least and greatest value a search can return."""
    won_or_lost = False
    """Is every position won or lost by the player to move (values 1 and -1 only)?"""
    alternates = False
    """Do the players always alternate, so that a search need not ask same_mover?"""

    def __init__(self, game: Game, root_player: Any, eval_fn: EvalFn | None = None):
        self.game, self.root, self.eval_fn = game, root_player, eval_fn

    def encode(self, state: State) -> Position:
        """Return the position of a game state."""
        return state

    def key(self, pos: Position, sign: int) -> Key | None:
        """Return the table key of a position (None: do not store it)."""
        key = self.game.table_key(pos)
        try:
            hash(key)
        except TypeError:
            return None
        return None if key is None else (key, sign)

    def rules(self) -> tuple[object, ...] | None:
        """Return what, besides their keys, the values of positions depend on, for
        the searches that share a table (None: each search has its own)."""
        return None

    def outcome(self, pos: Position, sign: int) -> float | None:
        """The value of a final position to the player to move, or None if play goes on."""
        game = self.game
        return sign * game.utility(pos, self.root) if game.terminal_test(pos) else None

    def evaluate(self, pos: Position, sign: int) -> float:
        """The cut-off value of a position to the mover, by the root player's evaluation."""
        state = self.state(pos, sign)
        if self.eval_fn is None:
            return sign * self.game.evaluate(state, self.root)
        return sign * self.eval_fn(self.game, state, self.root)

    def state(self, pos: Position, sign: int) -> State:
        """Return a game state for a position, the root player moving if sign is +1."""
        return pos

    def child(self, pos: Position, state: State, move: Move) -> Position:
        """Return the position after a legal move from a state whose position is pos."""
        return self.encode(self.game.result(state, move))

    def children(self, pos: Position, sign: int) -> list[Position]:
        """Return the position after each move, in the game's actions order (a new list)."""
        game = self.game
        return [game.result(pos, move) for move in game.actions(pos)]

    def children_to_search(self, pos: Position, sign: int) -> list[Position]:
        """Return the children a search must look at when it sees at least two plies
        ahead (or to the end): here, all of them."""
        return self.children(pos, sign)

    def same_mover(self, pos: Position, child: Position) -> bool:
        """Does the player to move in pos move again in child, as in Kalah? (The
        search then keeps its side; it never asks where the players alternate.)"""
        return bool(self.game.to_move(child) == self.game.to_move(pos))


class KnownPositions(GamePositions):
    """The encoding of a game class the engine knows: zero-sum, both seats alike,
    values in [-1, 1]."""

    bounds = (-1, 1)
    alternates = True

    def rules(self) -> tuple[object, ...] | None:
        """The game's class and spec: searches of one game share its tables."""
        return (type(self.game), repr(self.game))

    def plies_left(self, pos: Position) -> float:
        """Return the most plies the game can last from a position."""
        raise NotImplementedError


class PilePositions(KnownPositions):
    """The encoding of pile games, whose positions are canonical: each is its own key."""

    game: Nim | GrundysGame
    won_or_lost = True
    final_value = -1
    """The value of the final position (no counters, or no pile to split) to the
    player to move: whoever cannot move loses, but in misère Nim."""

    def outcome(self, pos: Position, sign: int) -> float | None:
        """The final position's value (a position is final when empty), or None."""
        return None if pos else self.final_value

    def key(self, pos: Key, sign: int) -> Key | None:
        """The position is its own key: it is already canonical."""
        return pos

    def plies_left(self, pos: Position) -> int:
        """Each move takes a counter or splits a pile: at most one a counter."""
        return sum(self.piles(pos))

    def piles(self, pos: Position) -> tuple[int, ...]:
        """The canonical piles of a position, sorted."""
        piles: tuple[int, ...] = pos
        return piles

    def state(self, pos: Position, sign: int) -> NimState:
        """A state of the pile game with the canonical piles."""
        mover = self.root if sign > 0 else self.game.other(self.root)
        return NimState(to_move=mover, board=self.piles(pos))


def is_won_or_lost(positions: GamePositions) -> TypeGuard[PilePositions]:
    """Is every position of an encoding won or lost (a flag the pile encodings alone set)?"""
    return positions.won_or_lost


class NimPositions(PilePositions):
    """Nim: a position is the multiset of the non-empty piles (order and empties
    are moot) as one number, a field of `width` bits for each pile size counting
    the piles of that size, so that a take is an addition."""

    game: Nim

    def __init__(self, game: Nim, root_player: Any, eval_fn: EvalFn | None = None):
        super().__init__(game, root_player, eval_fn)
        self.final_value = 1 if game.misere else -1
        self.cap = game.max_take
        self.width = len(game.piles).bit_length()
        self.mask = (1 << self.width) - 1
        self.units = [0]
        """units[size]: the number of one pile of that size (0 for none)."""
        self.sizes: list[tuple[int, int, list[int]]] = []
        """For each pile size from 1: the field of its count, its unit, and the units
        of what a take from such a pile may leave, the least first."""
        self._grow(max(game.piles))

    def _grow(self, most: int) -> None:
        """Make units and sizes up to piles of most counters."""
        units, cap = self.units, self.cap
        for size in range(len(units), most + 1):
            unit = 1 << self.width * size
            least = 0 if cap is None or size <= cap else size - cap
            self.sizes.append((unit * self.mask, unit, units[least:size]))
            units.append(unit)

    def rules(self) -> tuple[object, ...]:
        """Normal or misère play, the cap and the width: Nim games alike in them share tables."""
        return (NimPositions, self.game.misere, self.cap, self.width)

    def encode(self, state: State) -> int:
        """The number of the non-empty piles of a state."""
        board, units = state.board, self.units
        if len(board) >> self.width:
            raise ValueError(f'{state} has more piles than a state of {self.game}')
        if max(board) >= len(units):  # bigger piles than the game's
            self._grow(max(board))
        return sum(map(units.__getitem__, board))

    def piles(self, pos: int) -> tuple[int, ...]:
        """The non-empty piles of a position, sorted."""
        width, mask = self.width, self.mask
        piles: list[int] = []
        size = 0
        while pos:
            piles += [size] * (pos & mask)
            pos >>= width
            size += 1
        return tuple(piles)

    def child(self, pos: int, state: State, move: Move) -> int:
        """The position after a take: one pile of the size taken from less, one of
        what is left more."""
        number, taken = cast('tuple[int, int]', move)  # Nim's moves are (pile, counters)
        size: int = state.board[number - 1]
        units = self.units
        return pos - units[size] + units[size - taken]

    def children(self, pos: int, sign: int) -> list[int]:
        """The positions after each take, once per distinct pile size (the smallest
        first), biggest takes first."""
        result: list[int] = []
        for field, unit, leaves in self.sizes:
            if pos & field:
                result += map((pos - unit).__add__, leaves)
            elif field > pos:
                break
        return result


class GrundyPositions(PilePositions):
    """Grundy's game: a position is the sorted tuple of the piles that can split (3 or more)."""

    def rules(self) -> tuple[object, ...]:
        """Every Grundy's game has the same rules, and so shares the tables."""
        return (GrundyPositions,)

    def encode(self, state: State) -> tuple[int, ...]:
        """The piles of a state that can still be split, sorted."""
        return tuple(sorted(pile for pile in state.board if pile > 2))

    def children(self, pos: tuple[int, ...], sign: int) -> list[tuple[int, ...]]:
        """The positions after each split, once per distinct pile size."""
        result: list[tuple[int, ...]] = []
        previous = None
        for index, pile in enumerate(pos):
            if pile == previous:
                continue
            previous = pile
            rest = pos[:index] + pos[index + 1:]
            for small in range(1, (pile + 1) // 2):
                child = rest
                for part in (pile - small, small):
                    if part > 2:
                        at = bisect_left(child, part)
                        child = child[:at] + (part,) + child[at:]
                result.append(child)
        return result


class TicTacToePositions(KnownPositions):
    """Tic-tac-toe on h x v: a position is the int mover | opponent << n of two
    n-bit masks of squares; its key is the least image under the board's
    symmetries (8 on a square board, 4 otherwise)."""

    gravity = False

    def __init__(self, game: TicTacToe, root_player: Any, eval_fn: EvalFn | None = None):
        super().__init__(game, root_player, eval_fn)
        shape = BoardShape.of(game.h, game.v, game.k, self.gravity)
        self.shape = shape
        self.n, self.low, self.order, self.won = shape.n, shape.low, shape.order, shape.won
        # the shape's function itself, a call fewer for each child a search keys (mypy
        # takes an instance's function for the method, self and all: hence assignment)
        self.key = shape.canonical  # type: ignore[method-assign, assignment]

    def encode(self, state: State) -> int:
        """The two masks of a state, the mover's in the low bits."""
        mine = other = 0
        for square, piece in state.board.items():
            bit = 1 << self.shape.index[square]
            if piece == state.to_move:
                mine |= bit
            else:
                other |= bit
        return mine | other << self.n

    def plies_left(self, pos: int) -> int:
        """One ply per empty square."""
        return len(self.shape.squares) - (pos & self.low | pos >> self.n).bit_count()

    def outcome(self, pos: int, sign: int) -> float | None:
        """-1 if the opponent has just made a line, 0 if the board is full, else None."""
        opponent = pos >> self.n
        if self.won(opponent):
            return -1
        full = self.shape.full
        return 0 if (pos | opponent) & full == full else None

    def children(self, pos: int, sign: int) -> list[int]:
        """The positions after each empty square is taken, the squares on most lines
        first; only the first that makes a line, if one does (no value is higher)."""
        n, won = self.n, self.won
        mine, opponent = pos & self.low, pos >> n
        taken = mine | opponent
        result = []
        for bit in self.order:
            if not taken & bit:
                if won(mine | bit):
                    return [opponent | (mine | bit) << n]
                result.append(opponent | (mine | bit) << n)
        return result

    def children_to_search(self, pos: int, sign: int) -> list[int]:
        """The children, but where the mover cannot make a line and the opponent could
        at once, the child that takes the opponent's first such square: any other move
        loses (-1, seen two plies ahead), and none is worth less."""
        children = self.children(pos, sign)
        if len(children) > 1:
            opponent, mine = pos >> self.n, pos & self.low
            for bit in self.order:
                if not (mine | opponent) & bit and self.won(opponent | bit):
                    return [opponent | (mine | bit) << self.n]
        return children

    def state(self, pos: int, sign: int) -> GameState:
        """The game state of a position: the board with pieces by colour, and its empty squares."""
        shape = self.shape
        mover = self.root if sign > 0 else ('O' if self.root == 'X' else 'X')
        other = 'O' if mover == 'X' else 'X'
        board = {}
        for square in shape.squares:
            index = shape.index[square]
            if pos >> index & 1:
                board[square] = mover
            elif pos >> (index + self.n) & 1:
                board[square] = other
        moves = Squares(square for square in shape.squares if square not in board)
        won = self.won(pos >> self.n)
        utility = (1 if other == 'X' else -1) if won else 0
        return GameState(to_move=mover, utility=utility, board=Board(board), moves=moves)


class ConnectFourPositions(TicTacToePositions):
    """Connect Four: as tic-tac-toe, each column v + 1 bits (the top one always
    empty, so that lines can be found by shifts); pieces drop, the middle columns
    are tried first, and a position is its own key."""

    gravity = True
    children_to_search = GamePositions.children_to_search  # a square to block may be out of reach

    def __init__(self, game: ConnectFour, root_player: Any, eval_fn: EvalFn | None = None):
        super().__init__(game, root_player, eval_fn)
        stride, middle = game.v + 1, (game.h - 1) / 2
        self.columns = [x * stride for x in sorted(range(game.h), key=lambda x: abs(x - middle))]
        self.column_full = (1 << game.v) - 1

    def children(self, pos: int, sign: int) -> list[int]:
        """The positions after a piece drops into each column that is not full."""
        n, full = self.n, self.column_full
        mine, opponent = pos & self.low, pos >> n
        taken = mine | opponent
        result = []
        for shift in self.columns:
            column = taken >> shift & full
            if column != full:
                result.append(opponent | (mine | (column + 1) << shift) << n)
        return result


ENCODINGS: dict[type, str] = {
    Nim: 'positions:NimPositions', GrundysGame: 'positions:GrundyPositions',
    TicTacToe: 'positions:TicTacToePositions', ConnectFour: 'positions:ConnectFourPositions',
    Gomoku: 'gomoku_positions:GomokuPositions', Othello: 'board_positions:StatePositions',
    Hex: 'board_positions:HexPositions', Breakthrough: 'board_positions:PackedPositions',
    Kalah: 'board_positions:KalahPositions'}
"""The engine's own encoding of each game class it knows, as 'module:class' in this
package, imported when a search first meets the game (a new encoding is its class
and one entry here)."""
_encodings: dict[type, type[GamePositions]] = {
    kind: globals()[spec.partition(':')[2]]
    for kind, spec in ENCODINGS.items() if spec.startswith('positions:')}
"""The encodings of ENCODINGS at hand, by game class: this module's own from the
start, the others' once imported."""


def positions_for(game: Game, root_player: Any, eval_fn: EvalFn | None = None) -> GamePositions:
    """Return the fastest encoding that gives the same values as the game itself:
    a known game's own (when the evaluation is the game's, which it respects),
    else the game's public methods (GamePositions)."""
    kind = type(game)
    if eval_fn is not None or kind not in ENCODINGS:
        return GamePositions(game, root_player, eval_fn)
    if kind not in _encodings:
        module, _, name = ENCODINGS[kind].partition(':')
        _encodings[kind] = getattr(importlib.import_module(f'{__package__}.{module}'), name)
    return _encodings[kind](game, root_player)
