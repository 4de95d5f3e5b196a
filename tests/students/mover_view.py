"""Minimax that scores each finished game for the player to move in it."""


def minmax_decision(state, game):
    def value(s):
        if game.terminal_test(s):
            return game.utility(s, game.to_move(s))
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == game.to_move(state) else min(values)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
