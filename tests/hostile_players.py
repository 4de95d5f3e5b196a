"""Small hostile players for the tournament tests: each breaks the rules one way."""

import os
import random
import sys
import time


def first(game, state):
    """Play the first legal move."""
    return game.actions(state)[0]


def lucky(game, state):
    """Play a random legal move with the random module (seeded per game by the runner)."""
    return random.choice(game.actions(state))


def raises(game, state):
    """Raise an exception."""
    raise ValueError('boom')


def illegal(game, state):
    """Return a move that is never legal."""
    return (99, 99)


def returns_none(game, state):
    """Return no move."""
    return None


def sleeps(game, state):
    """Think far past any test's move timeout."""
    time.sleep(60)


def stubborn(game, state):
    """Hang and swallow the TimeoutError of the soft time limit, so only a kill stops it."""
    while True:
        try:
            time.sleep(60)
        except BaseException:
            pass


def exits(game, state):
    """Call sys.exit."""
    sys.exit(3)


def dies(game, state):
    """End its process at once, without cleaning up."""
    os._exit(7)


def chatty(game, state):
    """Print junk to stdout and stderr, through Python and straight to the file, then play."""
    print('junk ' * 100)
    print('more junk', file=sys.stderr)
    os.write(1, b'\x00\xffraw junk\n')
    return game.actions(state)[0]


def vandal(game, state):
    """Scribble on its copies of the state and the game, then play the first legal move."""
    move = type(game).actions(game, state)[0]
    board = getattr(state, 'board', None)
    if isinstance(board, dict):
        dict.clear(board)
    game.actions = lambda position: []
    game.initial = None
    return move


def counts_nodes(game, state):
    """Play the first legal move and report 10 nodes searched."""
    counts_nodes.stats = {'nodes': 10, 'depth': 1}
    return game.actions(state)[0]


calls = 0


def stateful(game, state):
    """Play the calls-th legal move, counting calls in a global that outlives a game."""
    global calls
    calls += 1
    moves = game.actions(state)
    return moves[calls % len(moves)]


def cheats(game, state):
    """Rewrite the game's class so that the opponent, moving next, has lost at once."""
    me = game.to_move(state)
    type(game).terminal_test = lambda self, position: position.to_move != me
    type(game).utility = lambda self, position, player: 1 if player == me else -1
    return game.actions(state)[0]
