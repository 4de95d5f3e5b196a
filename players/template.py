"""A student's template: copy this file, fill in the four functions, and check them with

    python tournament.py check mine.py

The grader wraps each game so that it sees every call to game.result, and runs
your search beside the textbook's (players/textbook.py, AIMA Figures 5.3 and
5.7) on Figure 5.2, on small trees built to catch the classic mistakes and on
real positions of Nim and tic-tac-toe. A search passes a check when it chooses
the textbook's move AND generates exactly the textbook's states: children in
game.actions order, each child made once by game.result. When it fails, the
message names the mistake: never prunes, prunes on strict inequality, wrong
tie rule, depth off by one, and so on.

Use only the game's methods: game.actions(state), game.result(state, move),
game.terminal_test(state), game.utility(state, player), game.to_move(state)
and, for an eval_fn of your player's, game.evaluate(state, player)."""

import math

infinity = math.inf


def minmax_decision(state, game):
    """Return the move with the best minimax value for the player to move,
    searching all the way to the terminal states. [Figure 5.3]

    Checked: the move, and that every state of the tree is generated, children
    in actions order. Of equally good moves, choose the first in actions order."""
    raise NotImplementedError


def alpha_beta_search(state, game):
    """Return the best move by minimax search with alpha-beta pruning, to the
    terminal states. [Figure 5.7]

    Checked: the move, and that exactly the states the textbook generates are
    generated: MAX-VALUE stops once v >= beta, MIN-VALUE once v <= alpha (equal
    values prune too), and alpha and beta are updated after each child. At the
    root, pass the best value so far as alpha to each child; of equally good
    moves, choose the first in actions order."""
    raise NotImplementedError


def alpha_beta_cutoff_search(state, game, d=4, cutoff_test=None, eval_fn=None):
    """Return the best move by alpha-beta search cut off below depth d.

    As in AIMA, the root's children are at depth 1 and, by default, a state is
    cut off when depth > d or it is terminal, so d=0 looks one ply ahead. A
    cut-off state scores eval_fn(state), by default (as in AIMA) its utility,
    game.utility(state, player), for the player to move at the root.

    Checked as alpha_beta_search, with several values of d on a tree whose best
    move changes with the depth: searching one ply too deep or too shallow fails."""
    raise NotImplementedError


def player(game, state):
    """Return a legal move for the player to move in state: the player you enter
    in the class tournament. A good start: alpha_beta_cutoff_search with a small d
    and an eval_fn that scores a final state with game.utility and any other
    with game.evaluate, for the player to move in state.

    Checked: legal moves on every default game against random players, never a
    loss to random at tic-tac-toe (10 games as X, 10 as O), and a short gauntlet
    against random, ab2 and ab3 on every default game, passed with 60% of the points."""
    raise NotImplementedError
