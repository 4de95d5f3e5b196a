"""A correct negamax alpha-beta in a class, searching a deep copy of the game."""
import copy
import math


class Searcher:
    def __init__(self, game, player):
        self.game, self.player = game, player

    def value(self, s, alpha, beta, sign):
        if self.game.terminal_test(s):
            return sign * self.game.utility(s, self.player)
        best = -math.inf
        for a in self.game.actions(s):
            best = max(best, -self.value(self.game.result(s, a), -beta, -alpha, -sign))
            if best >= beta:
                return best
            alpha = max(alpha, best)
        return best


def alpha_beta_search(state, game):
    game = copy.deepcopy(game)
    searcher = Searcher(game, game.to_move(state))
    best, best_move = -math.inf, None
    for a in game.actions(state):
        v = -searcher.value(game.result(state, a), -math.inf, -best, -1)
        if v > best or best_move is None:
            best, best_move = v, a
    return best_move
