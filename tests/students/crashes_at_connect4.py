"""A player that plays the first move in Nim and tic-tac-toe and raises in Connect Four."""


def player(game, state):
    if game.name == 'connect4':
        raise ValueError('connect four is not done yet')
    return game.actions(state)[0]
