"""The search algorithms of AIMA chapter 5, as the book gives them.

These are the readable reference that students compare their own code with:
children are searched in actions order and alpha-beta prunes as in Figure 5.7.
Ties between equally good moves go to the first in actions order. Unlike
aima-python, a search always returns a legal move when there is one."""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING

from games.stochastic import is_chance_node

if TYPE_CHECKING:  # for mypy: games lends this module, so it imports no search at run time
    from .search.shared import SearchStats

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


# ______________________________________________________________________________


def expect_minmax(state, game):
    """
    [Figure 5.11]
    Return the best move for a player after dice are thrown. The game tree
    includes chance nodes along with min and max nodes.

    A chance node's value is the probability-weighted sum of its outcomes'
    values. Two bugs of aima-python's version are fixed: inside the loop over
    the chances it overwrote the state it rolls from with each outcome, and it
    divided the weighted sum by the number of chances again. A state reached by
    a move that is not a chance node (a game may give a player a move without a
    roll) is valued as a max or min node directly."""

    player = game.to_move(state)

    def max_value(state):
        v = -infinity
        for a in game.actions(state):
            v = max(v, chance_node(state, a))
        return v

    def min_value(state):
        v = infinity
        for a in game.actions(state):
            v = min(v, chance_node(state, a))
        return v

    def value(state):
        return max_value(state) if game.to_move(state) == player else min_value(state)

    def chance_node(state, action):
        res_state = game.result(state, action)
        if game.terminal_test(res_state):
            return game.utility(res_state, player)
        if not is_chance_node(game, res_state):
            return value(res_state)
        sum_chances = 0
        for chance in game.chances(res_state):
            sum_chances += value(game.outcome(res_state, chance)) * game.probability(chance)
        return sum_chances

    # Body of expect_minmax:
    return max(game.actions(state), key=lambda a: chance_node(state, a), default=None)


def alpha_beta_search(state, game, d=None, cutoff_test=None, eval_fn=None):
    """Search game to determine best action; use alpha-beta pruning.
    As in [Figure 5.7], this version searches all the way to the leaves.

    Given d, cutoff_test or eval_fn, as aima-python's alpha_beta_search and
    alphabeta_search took them until 2017 (and course slides still pass them),
    it searches cut off as alpha_beta_cutoff_search does (d=4 if not given)."""

    if d is not None or cutoff_test is not None or eval_fn is not None:
        return alpha_beta_cutoff_search(state, game, 4 if d is None else d, cutoff_test, eval_fn)
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
    As in AIMA, a cut-off state is scored by default with its utility,
    game.utility(state, player) (0 for most states of a game still going on);
    pass eval_fn=lambda s: game.evaluate(s, player) to use the game's heuristic."""

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
    eval_fn = eval_fn or (lambda state: game.utility(state, player))
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


def monte_carlo_tree_search(state, game, N=1000, *, deadline=None,
                            stats: SearchStats | None = None):
    """Choose a move by N rounds of select, expand, simulate (random play-out)
    and backpropagate, then take the most visited move. A win scores 1, a draw
    0.5, for the player who made the move into a node. In a game of chance, a
    chance node's children are its outcomes, and select and the play-outs roll
    the dice (each outcome weighted by its probability). Random choices use the
    random module, so random.seed makes a search repeat. (Not in AIMA: with a
    deadline, a time.monotonic() time, the rounds also stop there, after the
    first; stats, if given (a SearchStats), receives the number of play-outs.)"""

    def select(n):
        """select a leaf node in the tree"""
        if n.children:
            if is_chance_node(game, n.state):
                outcomes = list(n.children)
                weights = [game.probability(n.children[child]) for child in outcomes]
                return select(random.choices(outcomes, weights)[0])
            return select(max(n.children.keys(), key=ucb))
        return n

    def expand(n):
        """expand the leaf node by adding all its children states"""
        if not n.children and not game.terminal_test(n.state):
            if is_chance_node(game, n.state):
                n.children = {MCT_Node(state=game.outcome(n.state, chance), parent=n): chance
                              for chance in game.chances(n.state)}
            else:
                n.children = {MCT_Node(state=game.result(n.state, action), parent=n): action
                              for action in game.actions(n.state)}
        return select(n)

    def simulate(state):
        """simulate a random play-out; return the final state"""
        while not game.terminal_test(state):
            if is_chance_node(game, state):
                state = game.outcome(state, game.roll(state))
            else:
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
    playouts = 0
    while playouts < N and (deadline is None or not playouts or time.monotonic() < deadline):
        leaf = select(root)
        child = expand(leaf)
        backprop(child, simulate(child.state))
        playouts += 1
    if stats is not None:
        stats.playouts = playouts
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


def expect_minmax_player(game, state):
    """A player that searches the whole game tree, chance nodes too, with expectiminimax."""
    return expect_minmax(state, game)


# Names from earlier editions of aima-python, so that old exercises still run.
minimax_decision = minmax_decision
alphabeta_full_search = alphabeta_search = alpha_beta_search
alphabeta_cutoff_search = alpha_beta_cutoff_search
alphabeta_player = alpha_beta_player
expectiminimax = expect_minmax
expect_min_max_player = expectiminimax_player = expect_minmax_player
