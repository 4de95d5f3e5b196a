from games import *
from utils import *


class DiceNim(StochasticGame):
    """Roll a die of three faces, then take 1 to the roll from the pile.
    Whoever takes the last counter wins."""

    def __init__(self, counters=5):
        self.initial = StochasticGameState(to_move='Max', utility=0, board=counters,
                                           moves=[], chance=None)

    def actions(self, state):
        roll = state.chance if state.chance is not None else 3
        return list(range(1, min(roll, state.board) + 1))

    def result(self, state, move):
        board = state.board - move
        other = 'Min' if state.to_move == 'Max' else 'Max'
        utility = 0
        if board == 0:
            utility = 1 if state.to_move == 'Max' else -1
        return StochasticGameState(to_move=other, utility=utility, board=board,
                                   moves=[], chance=None)

    def utility(self, state, player):
        return state.utility if player == 'Max' else -state.utility

    def terminal_test(self, state):
        return state.board == 0

    def chances(self, state):
        return [1, 2, 3]

    def outcome(self, state, chance):
        return StochasticGameState(to_move=state.to_move, utility=state.utility,
                                   board=state.board, moves=self.actions(state._replace(chance=chance)),
                                   chance=chance)

    def probability(self, chance):
        return 1 / 3

    def display(self, state):
        print('pile:', state.board, 'roll:', state.chance, 'to move:', state.to_move)


game = DiceNim()
print(first(game.chances(game.initial)))
rolled = game.outcome(game.initial, 2)
print(expect_minmax(rolled, game))
random.seed(7)
print(game.play_game(expect_minmax_player, random_player))
random.seed(3)
print(game.play_game(query_player, expect_minmax_player))
