"""A game file of the kind a course writes: Take Away, with no action numbers or
observation of its own (the learning environment finds them by walking its positions)."""

from collections import namedtuple
from games import Game

State = namedtuple('State', 'to_move, left')


class TakeAway(Game):
    """Take 1 or 2 from a heap; who takes the last wins. No action numbers of its own."""

    def __init__(self, heap=7):
        self.initial = State('A', heap)

    def actions(self, state):
        return [take for take in (1, 2) if take <= state.left]

    def result(self, state, move):
        return State('B' if state.to_move == 'A' else 'A', state.left - move)

    def utility(self, state, player):
        return 1 if player != state.to_move else -1

    def terminal_test(self, state):
        return state.left == 0
