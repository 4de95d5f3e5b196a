"""A search that keeps making the same children again and again."""


def minmax_decision(state, game):
    while True:
        for a in game.actions(state):
            game.result(state, a)
