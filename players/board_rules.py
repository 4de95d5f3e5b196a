"""How the search engine sees Othello, Kalah, Hex and Breakthrough.

Their states are already cheap (the boards are two bit masks, Kalah's a tuple), so a
position is the game's own state and its children come from the game's result; what
these rules add is what the engine needs to share its tables between moves and to
know a value is exact: a table key of the board and the side to move, the values'
bounds (-1 and 1), a bound on the plies left, and, for Kalah, which moves let the
mover move again. Hex's evaluation, a shortest path for each side, is the game's own
(computed on the bit masks: a few dozen big-number operations a side)."""

from __future__ import annotations

from games import Breakthrough, Hex, Kalah, Othello

from .rules import _KnownRules


class StateRules(_KnownRules):
    """A known game searched through its own states, which hold the side to move."""

    def key(self, pos, sign: int):
        """The board's masks and the side to move."""
        return pos.board.masks, pos.to_move

    def outcome(self, pos, sign: int):
        """The value of a final state to the player to move, or None if play goes on."""
        game = self.game
        return sign * game.utility(pos, self.root) if game.terminal_test(pos) else None

    def plies_left(self, pos) -> float:
        """The game's bound on the plies left."""
        return self.game.plies_left(pos)


class KalahRules(StateRules):
    """Kalah: a state (the mover and the tuple of pits) is its own key; a move that
    ends in the mover's store lets the mover move again."""

    def key(self, pos, sign: int):
        """The state itself."""
        return pos

    @staticmethod
    def same_mover(pos, child) -> bool:
        """Does the player to move in pos move again in child?"""
        return pos.to_move == child.to_move


class HexRules(StateRules):
    """Hex: the children in the order of their cells' distance from the centre, the
    strongest first (the engine's tables and null windows keep the textbook's choice
    of move, the first best in actions order)."""

    def __init__(self, game: Hex, root_player, eval_fn=None):
        super().__init__(game, root_player, eval_fn)
        n, middle = game.n, (game.n + 1) / 2
        cells = [(x, y) for y in range(1, n + 1) for x in range(1, n + 1)]
        cells.sort(key=lambda cell: abs(cell[0] - middle) + abs(cell[1] - middle)
                   + abs(cell[0] + cell[1] - 2 * middle))
        self.order = [(cell, 1 << (cell[1] - 1) * n + cell[0] - 1) for cell in cells]

    def children(self, pos, sign: int) -> list:
        """The states after a stone on each empty cell, the central cells first; only
        the first that wins at once, if one does (no value is higher)."""
        black, white = pos.board.masks
        own, other = (black, white) if pos.to_move == 'B' else (white, black)
        taken, result = black | white, self.game.result
        winning = self.game.shape.winning_cells(own, other, pos.to_move)
        if winning:
            return [result(pos, next(cell for cell, bit in self.order if winning & bit))]
        return [result(pos, cell) for cell, bit in self.order if not taken & bit]


RULES = {Othello: StateRules, Hex: HexRules, Breakthrough: StateRules, Kalah: KalahRules}
"""The rules of each game class that has them here."""
