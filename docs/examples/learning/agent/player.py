"""A trained agent: it plays the move whose action its learned values rate highest.
Its weights are the .npz files beside this file, one for each game, written by
docs/examples/learning/train.py; it refuses a game it has no weights for."""

import glob
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def load(path):
    """Return a function that gives the action values of an observation, from the
    weights in the file at path, and the game they are for."""
    with np.load(path) as weights:
        game, kind = str(weights['game']), str(weights['kind'])
        arrays = {name: weights[name] for name in weights.files}
    if kind == 'table':
        rows = dict(zip((row.tobytes() for row in arrays['observations']), arrays['values']))
        zeros = np.zeros(arrays['values'].shape[1])
        return game, lambda observation: rows.get(observation.astype(np.int8).tobytes(), zeros)
    w1, b1, w2, b2 = (arrays[name] for name in ('w1', 'b1', 'w2', 'b2'))
    return game, lambda observation: np.tanh(np.ravel(observation) @ w1 + b1) @ w2 + b2


VALUES = dict(load(path) for path in sorted(glob.glob(os.path.join(HERE, '*.npz'))))
"""The action values of each game this agent was trained on, by the game's spec."""


def player(game, state):
    """Return the legal move whose action number the agent's values rate highest."""
    values = VALUES.get(repr(game))
    if values is None:
        raise ValueError(f'this agent has no weights for {game!r}; it was trained on '
                         f'{", ".join(VALUES) or "no game"}')
    rated = values(np.asarray(game.observation(state, game.to_move(state)), dtype=np.float32))
    return max(game.actions(state), key=lambda move: rated[game.action_number(move)])
