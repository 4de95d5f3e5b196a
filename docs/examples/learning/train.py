"""Train an agent by Q-learning on a game's PettingZoo environment, and save what it
learned in a submission folder, as a numpy file (.npz) that the folder's player.py
plays:

    python docs/examples/learning/train.py tictactoe --self-play --episodes 3000 --out my-agent
    python docs/examples/learning/train.py connect4 --episodes 5000 --out my-agent

The agent learns the value of each action in each position it meets: after each
action, once it is its turn again (or the game is over), it moves the value of the
action towards the reward plus the discounted value of its best action now. It
plays the action it values most, but one time in five (epsilon) a random one, to
learn about the others too. It plays a random player in either seat, or itself in
both (--self-play). Tic-tac-toe has few enough positions to keep their values in
a table, keyed by the observation's 0s and 1s as bytes, each lesson learned in the
eight turns and reflections of the board too; Connect Four has too many, and a
network with one hidden layer gives their values. The same seed gives the same
weights."""

import argparse
import os
import shutil

import numpy as np

import variants

DISCOUNT, EPSILON = 0.9, 0.2


class Table:
    """Action values in a table: a row of values for each position of a square board
    met, the actions being its cells (as tic-tac-toe's are)."""

    def __init__(self, side, rate=0.3):
        cells = np.arange(side * side).reshape(side, side)
        self.orders = [np.rot90(board, turns).ravel() for board in (cells, cells.T)
                       for turns in range(4)]
        """The board's turns and reflections, each as the cells in their new order."""
        self.rate, self.rows = rate, {}

    def values(self, observation):
        """Return the values of the actions in the position observed, whose 0s and 1s
        as bytes are its key."""
        key = observation.astype(np.int8).tobytes()
        return self.rows.setdefault(key, np.zeros(len(self.orders[0])))

    def learn(self, observation, action, target):
        """Move the value of action in the position observed towards target, and in
        each of the position's turns and reflections the value of the same cell."""
        cells = observation.reshape(len(self.orders[0]), -1)
        for order in self.orders:
            row = self.values(cells[order])
            moved = np.flatnonzero(order == action)[0]
            row[moved] += self.rate * (target - row[moved])

    def weights(self):
        """Return the table as arrays: the observations met, and a row of values for each."""
        keys = [np.frombuffer(key, dtype=np.int8) for key in self.rows]
        values = np.array(list(self.rows.values()), dtype=np.float32)
        return {'observations': np.array(keys), 'values': values}


class Network:
    """Action values from a network: the observation's numbers, a hidden layer of
    tanh units, and a value for each action."""

    def __init__(self, inputs, actions, rng, hidden=128, rate=0.01):
        self.w1 = rng.normal(0, inputs ** -0.5, (inputs, hidden))
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0, 0.1 * hidden ** -0.5, (hidden, actions))
        self.b2 = np.zeros(actions)
        self.rate = rate

    def values(self, observation):
        """Return the values of the actions in the position observed."""
        return np.tanh(observation.ravel() @ self.w1 + self.b1) @ self.w2 + self.b2

    def learn(self, observation, action, target):
        """Take a step of gradient descent on (target - the value of action)²."""
        inputs = observation.ravel()
        hidden = np.tanh(inputs @ self.w1 + self.b1)
        error = target - (hidden @ self.w2[:, action] + self.b2[action])
        back = error * self.w2[:, action] * (1 - hidden ** 2)
        self.w2[:, action] += self.rate * error * hidden
        self.b2[action] += self.rate * error
        self.w1 += self.rate * np.outer(inputs, back)
        self.b1 += self.rate * back

    def weights(self):
        """Return the network's weights as arrays."""
        return {name: getattr(self, name).astype(np.float32) for name in ('w1', 'b1', 'w2', 'b2')}


def play_episode(env, model, learners, rng):
    """Play one game in env, the learners choosing with model and learning as they
    go, the other agents choosing at random."""
    env.reset()
    last: dict[str, tuple] = {}  # what each learner observed and did at its last turn
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        seen, legal = observation['observation'], np.flatnonzero(observation['action_mask'])
        if agent in last:
            target = reward if terminated or truncated else \
                DISCOUNT * model.values(seen)[legal].max()
            model.learn(*last[agent], target)
        if terminated or truncated:
            env.step(None)
            continue
        if agent in learners and rng.random() > EPSILON:
            action = legal[np.argmax(model.values(seen)[legal])]
        else:
            action = rng.choice(legal)
        if agent in learners:
            last[agent] = seen, action
        env.step(action)


def train(spec, episodes, seed=0, self_play=False):
    """Train an agent for a number of games of the variant spec names, against itself
    or a random player; return the game and what the agent learned."""
    env = variants.environment(spec)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    shape = env.observation_space(env.possible_agents[0])['observation'].shape
    actions = env.action_space(env.possible_agents[0]).n
    # a table for tic-tac-toe's 3 x 3 board, a network for bigger boards
    model = Table(3) if shape == (3, 3, 2) else Network(int(np.prod(shape)), actions, rng)
    for _ in range(episodes):
        learners = env.possible_agents if self_play else [rng.choice(env.possible_agents)]
        play_episode(env, model, learners, rng)
    return env.unwrapped.game, model


def save(game, model, folder):
    """Write what the agent learned into folder, as NAME.npz with the game it is for,
    and the example's player.py, which plays it, if the folder has none; return the
    file's path."""
    os.makedirs(folder, exist_ok=True)
    if not os.path.exists(os.path.join(folder, 'player.py')):
        shutil.copy(os.path.join(os.path.dirname(__file__), 'agent', 'player.py'), folder)
    path = os.path.join(folder, repr(game).partition('(')[0] + '.npz')
    np.savez_compressed(path, game=repr(game), kind=type(model).__name__.lower(),
                        **model.weights())
    return path


def main():
    """Train an agent as the command line says, and save it."""
    parser = argparse.ArgumentParser(description=__doc__.partition('\n\n')[0])
    parser.add_argument('game', help="a variant's name, such as tictactoe or connect4")
    parser.add_argument('--episodes', type=int, default=3000, help='games to play')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--self-play', action='store_true', help='play itself, not random')
    parser.add_argument('--out', default='agent', help='the submission folder to write to')
    options = parser.parse_args()
    game, model = train(options.game, options.episodes, options.seed, options.self_play)
    print(f'{options.episodes} games of {game!r}: weights in {save(game, model, options.out)}')


if __name__ == '__main__':
    main()
