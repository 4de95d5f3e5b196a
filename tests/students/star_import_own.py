"""aima-python style: from games import *, then a search of its own."""
from games import *  # noqa: F401,F403


def minmax_decision(state, game):
    me = game.to_move(state)

    def value(s):
        if game.terminal_test(s):
            return game.utility(s, me)
        values = [value(game.result(s, a)) for a in game.actions(s)]
        return max(values) if game.to_move(s) == me else min(values)

    return max(game.actions(state), key=lambda a: value(game.result(state, a)))
