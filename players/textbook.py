"""The search algorithms of AIMA chapter 5, as the book gives them.

These are the readable reference that students compare their own code with:
children are searched in actions order and alpha-beta prunes as in Figure 5.7.
Ties between equally good moves go to the first in actions order. Unlike
aima-python, a search always returns a legal move when there is one."""

from __future__ import annotations

import math
import random

infinity = math.inf


def minmax_decision(state, game):
    """Given a state in a game, calculate the best move by searching
    forward all the way to the terminal states. [Figure 5.3]"""

    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a)))
        return v

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a)))
        return v

    # Body of minmax_decision:
    return max(game.actions(state), key=lambda a: min_value(game.result(state, a)), default=None)


def alpha_beta_search(state, game):
    """Search game to determine best action; use alpha-beta pruning.
    As in [Figure 5.7], this version searches all the way to the leaves."""

    player = game.to_move(state)

    # Functions used by alpha_beta
    def max_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta):
        if game.terminal_test(state):
            return game.utility(state, player)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    # Body of alpha_beta_search:
    return _best_root_move(state, game, lambda child, alpha: min_value(child, alpha, infinity))


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """Search game to determine best action; use alpha-beta pruning.
    This version cuts off search and uses an evaluation function.

    As in AIMA, the root's children are at depth 1 and the search cuts off
    at depth > d, so d=N looks N+1 plies ahead (d=0 looks one ply ahead).
    By default a cut-off state is scored by the game's evaluate(state, player)
    and a terminal state by its utility."""

    player = game.to_move(state)

    # Functions used by alpha_beta
    def max_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = -infinity
        for a in game.actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
            if v >= beta:
                return v
            alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        if cutoff_test(state, depth):
            return eval_fn(state)
        v = infinity
        for a in game.actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
            if v <= alpha:
                return v
            beta = min(beta, v)
        return v

    # Body of alpha_beta_cutoff_search starts here:
    # The default test cuts off at depth d or at a terminal state
    cutoff_test = (cutoff_test or (lambda state, depth: depth > d or game.terminal_test(state)))
    eval_fn = eval_fn or (lambda state: game.utility(state, player) if game.terminal_test(state)
                          else game.evaluate(state, player))
    return _best_root_move(state, game, lambda child, alpha: min_value(child, alpha, infinity, 1))


def _best_root_move(state, game, min_value):
    """Return the first move, in actions order, whose min_value(child, alpha) is
    highest, alpha being the best value so far; the first move if all lose."""
    best_score = -infinity
    best_action = None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score)
        if v > best_score or best_action is None:
            best_score = v
            best_action = a
    return best_action


# ______________________________________________________________________________
# Monte Carlo Tree Search


class MCT_Node:
    """Node in the Monte Carlo search tree, keeps track of the children states.
    U is the total reward of the player who moved into this node, N its visits."""

    def __init__(self, parent=None, state=None, U=0, N=0):
        self.__dict__.update(parent=parent, state=state, U=U, N=N)
        self.children = {}
        self.actions = None


def ucb(n, C=1.4):
    """The upper confidence bound of a node: its mean reward plus an exploration bonus."""
    return infinity if n.N == 0 else n.U / n.N + C * math.sqrt(math.log(n.parent.N) / n.N)


def monte_carlo_tree_search(state, game, N=1000):
    """Choose a move by N rounds of select, expand, simulate (random play-out)
    and backpropagate, then take the most visited move. A win scores 1, a draw
    0.5, for the player who made the move into a node. Random choices use the
    random module, so random.seed makes a search repeat."""

    def select(n):
        """select a leaf node in the tree"""
        if n.children:
            return select(max(n.children.keys(), key=ucb))
        return n

    def expand(n):
        """expand the leaf node by adding all its children states"""
        if not n.children and not game.terminal_test(n.state):
            n.children = {MCT_Node(state=game.result(n.state, action), parent=n): action
                          for action in game.actions(n.state)}
        return select(n)

    def simulate(state):
        """simulate a random play-out; return the final state"""
        while not game.terminal_test(state):
            state = game.result(state, random.choice(list(game.actions(state))))
        return state

    def backprop(n, final):
        """pass the result of the play-out up the tree"""
        while n.parent is not None:
            mover = game.to_move(n.parent.state)
            value = game.utility(final, mover)
            n.U += 1 if value > 0 else 0.5 if value == 0 else 0
            n.N += 1
            n = n.parent
        n.N += 1

    root = MCT_Node(state=state)
    for _ in range(N):
        leaf = select(root)
        child = expand(leaf)
        backprop(child, simulate(child.state))
    if not root.children:
        return None
    return root.children[max(root.children, key=lambda node: node.N)]


# ______________________________________________________________________________
# Players for Games


def random_player(game, state):
    """A player that chooses a legal move at random."""
    actions = list(game.actions(state))
    return random.choice(actions) if actions else None


def alpha_beta_player(game, state):
    """A player that searches the whole game tree with alpha-beta."""
    return alpha_beta_search(state, game)


def minmax_player(game, state):
    """A player that searches the whole game tree with minimax."""
    return minmax_decision(state, game)


def mcts_player(game, state):
    """A player that chooses its move by Monte Carlo tree search."""
    return monte_carlo_tree_search(state, game)


# Names from earlier editions of aima-python, so that old exercises still run.
minimax_decision = minmax_decision
alphabeta_full_search = alpha_beta_search
alphabeta_search = alpha_beta_cutoff_search
alphabeta_player = alpha_beta_player
