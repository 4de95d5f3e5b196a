"""A correct player for small games: it searches the whole game to its end, keeping
the value of each position it has searched."""
import functools


def player(game, state):
    me = game.to_move(state)

    @functools.lru_cache(maxsize=None)
    def value(position):
        """The value of position for me, both players playing their best."""
        if game.terminal_test(position):
            return game.utility(position, me)
        values = [value(game.result(position, move)) for move in game.actions(position)]
        return max(values) if game.to_move(position) == me else min(values)
    return max(game.actions(state), key=lambda move: value(game.result(state, move)))
