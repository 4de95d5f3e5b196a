"""Minimax that calls game.result twice for each child: once to test it, once to search it."""


def minmax_decision(state, game):
    me = game.to_move(state)

    def value(s):
        if game.terminal_test(s):
            return game.utility(s, me)
        values = []
        for a in game.actions(s):
            if game.terminal_test(game.result(s, a)):
                values.append(game.utility(game.result(s, a), me))
            else:
                values.append(value(game.result(s, a)))
        return max(values) if game.to_move(s) == me else min(values)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
