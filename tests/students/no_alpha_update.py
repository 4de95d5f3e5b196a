"""Alpha-beta that never updates alpha in MAX-VALUE (beta is updated)."""
import math


def alpha_beta_search(state, game):
    me = game.to_move(state)

    def max_value(s, alpha, beta):
        if game.terminal_test(s):
            return game.utility(s, me)
        v = -math.inf
        for a in game.actions(s):
            v = max(v, min_value(game.result(s, a), alpha, beta))
            if v >= beta:
                return v
        return v

    def min_value(s, alpha, beta):
        if game.terminal_test(s):
            return game.utility(s, me)
        v = math.inf
        for a in game.actions(s):
            v = min(v, max_value(game.result(s, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    best, best_move = -math.inf, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best, math.inf)
        if v > best or best_move is None:
            best, best_move = v, a
    return best_move
