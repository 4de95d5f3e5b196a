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
    """Hex: the children in actions order (the cells nearest the centre first), or
    only the first that wins at once, if one does (no value is higher)."""

    def children(self, pos, sign: int) -> list:
        """The states after a stone on each empty cell; only a winning one if there is one."""
        game = self.game
        black, white = pos.board.masks
        own, other = (black, white) if pos.to_move == 'B' else (white, black)
        winning = game.shape.winning_cells(own, other, pos.to_move)
        if winning:
            cell = next(cell for cell, bit in game.shape.order if winning & bit)
            return [game.result(pos, cell)]
        return [game.result(pos, cell) for cell in game.actions(pos)]


RULES = {Othello: StateRules, Hex: HexRules, Breakthrough: StateRules, Kalah: KalahRules}
"""The rules of each game class that has them here."""
