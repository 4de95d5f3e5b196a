"""How the search engine sees Othello, Kalah, Hex and Breakthrough.

Othello's, Kalah's and Breakthrough's states are already cheap (two bit masks, or
Kalah's counts packed into one number), so there a position is the game's own state
and its children come from the game's result; what these encodings add is what the
engine needs to share its tables between moves and to know a value is exact: a
table key (the board and the side to move; Kalah's and Breakthrough's states are
their own), the values' bounds (-1 and 1), a bound on the plies left, and, for
Kalah, which moves let the mover move again. Hex's positions
are tuples of masks, so that the many children a search makes and never visits
cost little; its evaluation is the game's own, computed on the masks."""

from __future__ import annotations

from typing import Any

from games.breakthrough import Breakthrough
from games.discs import Discs
from games.hex import Hex, HexState
from games.kalah import Kalah
from games.othello import Othello

from .positions import Key, KnownPositions, Position
from .shared import EvalFn, State

HexPosition = tuple[int, int, str]
"""A Hex position: the masks of B's and W's stones, and the player to move."""


class StatePositions(KnownPositions):
    """A known game searched through its own states, which hold the side to move."""

    game: Othello | Kalah | Breakthrough

    def key(self, pos: Position, sign: int) -> Key | None:
        """The board's masks and the side to move."""
        return pos.board.masks, pos.to_move

    def outcome(self, pos: Position, sign: int) -> float | None:
        """The value of a final state to the player to move, or None if play goes on."""
        game = self.game
        return sign * game.utility(pos, self.root) if game.terminal_test(pos) else None

    def plies_left(self, pos: Position) -> float:
        """The game's bound on the plies left."""
        return self.game.plies_left(pos)


class PackedPositions(StatePositions):
    """A known game whose states are tuples of a few numbers (Breakthrough's masks,
    Kalah's packed counts), each its own key."""

    def key(self, pos: Key, sign: int) -> Key | None:
        """The state itself."""
        return pos


class KalahPositions(PackedPositions):
    """Kalah: a move that ends in the mover's store lets the mover move again."""

    alternates = False

    @staticmethod
    def same_mover(pos: Position, child: Position) -> bool:
        """Does the player to move in pos move again in child?"""
        return bool(pos.to_move == child.to_move)


class HexPositions(KnownPositions):
    """Hex: a position is the tuple (B's stones, W's stones, the player to move) of
    bit masks, its own key, whose children cost a tuple each (a search makes every
    child of a node it expands, and most are never visited); a child's win is found
    when it is visited. The children come in actions order (the cells nearest the
    centre first), or only the first that wins at once, if one does (no value is
    higher)."""

    game: Hex

    def __init__(self, game: Hex, root_player: Any, eval_fn: EvalFn | None = None):
        super().__init__(game, root_player, eval_fn)
        self.shape = game.shape

    def encode(self, state: State) -> HexPosition:
        """The masks of a state's stones and its player to move."""
        return (*state.board.masks, state.to_move)

    def key(self, pos: HexPosition, sign: int) -> HexPosition:
        """The position itself."""
        return pos

    def outcome(self, pos: HexPosition, sign: int) -> float | None:
        """-1 if the player who just moved has joined their sides, else None (a Hex
        board never fills without a winner)."""
        black, white, mover = pos
        last = (white, 'W') if mover == 'B' else (black, 'B')
        return -1 if self.shape.joined(*last) else None

    def evaluate(self, pos: HexPosition, sign: int) -> float:
        """The game's evaluation for the player to move."""
        black, white, mover = pos
        return self.shape.evaluate(black, white, mover)

    def children(self, pos: HexPosition, sign: int) -> list[HexPosition]:
        """The positions after a stone on each empty cell; only a winning one if there is one."""
        black, white, mover = pos
        shape = self.shape
        own, other = (black, white) if mover == 'B' else (white, black)
        winning = shape.winning_cells(own, other, mover)
        taken = black | white
        if winning:
            bits = [next(bit for _, bit in shape.order if winning & bit)]
        else:
            bits = [bit for _, bit in shape.order if not taken & bit]
        if mover == 'B':
            return [(black | bit, white, 'W') for bit in bits]
        return [(black, white | bit, 'B') for bit in bits]

    def plies_left(self, pos: HexPosition) -> int:
        """One ply per empty cell."""
        return self.shape.n ** 2 - (pos[0] | pos[1]).bit_count()

    def state(self, pos: HexPosition, sign: int) -> HexState:
        """The game state of a position."""
        black, white, mover = pos
        joined = self.shape.joined
        utility = 1 if joined(black, 'B') else -1 if joined(white, 'W') else 0
        return HexState(mover, utility, Discs(self.shape.n, self.shape.n, black, white))
