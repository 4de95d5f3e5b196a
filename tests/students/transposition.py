"""Minimax with a table of positions already searched: it searches a graph, not the tree."""


def minmax_decision(state, game):
    me = game.to_move(state)
    table = {}

    def value(s):
        if s in table:
            return table[s]
        if game.terminal_test(s):
            v = game.utility(s, me)
        else:
            values = [value(game.result(s, a)) for a in game.actions(s)]
            v = max(values) if game.to_move(s) == me else min(values)
        table[s] = v
        return v

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
