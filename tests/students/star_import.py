"""aima-python style: from games import *, and the textbook's searches are used as they are."""
from games import *  # noqa: F401,F403


def player(game, state):
    return alpha_beta_search(state, game)  # noqa: F405
