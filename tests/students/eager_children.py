"""Correct minimax that makes a node's children before searching them, and an
alpha-beta that does the same only at the root (where nothing is pruned)."""
import math


def minmax_decision(state, game):
    me = game.to_move(state)

    def value(s):
        if game.terminal_test(s):
            return game.utility(s, me)
        children = [game.result(s, a) for a in game.actions(s)]
        values = [value(c) for c in children]
        return max(values) if game.to_move(s) == me else min(values)

    moves = game.actions(state)
    children = [game.result(state, a) for a in moves]
    scores = [value(c) for c in children]
    return moves[scores.index(max(scores))]


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
            alpha = max(alpha, v)
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

    moves = game.actions(state)
    children = [game.result(state, a) for a in moves]
    best, best_move = -math.inf, None
    for move, child in zip(moves, children):
        v = min_value(child, best, math.inf)
        if v > best or best_move is None:
            best, best_move = v, move
    return best_move
