"""A student's template: copy this file, fill in the four functions, and check them with

    python tournament.py check mine.py

Your file runs in a jail, loaded once for all the checks: it may not use this
project's own searches (importing players, or reading their files, fails every
check), and what it prints is thrown away. The grader sees every state your
search makes with game.result (on the game it is given, or on a copy of it)
and compares them with the textbook's search (AIMA Figures 5.3 and 5.7) on
Figure 5.2, on small trees built to catch the classic mistakes and on real
positions of the assignment's games (Nim and tic-tac-toe by default; Othello,
Kalah, Hex or Breakthrough when your instructor names them). A search passes a check when it chooses the
textbook's move AND generates the textbook's states, each as many times: make
a child with game.result once, just before searching it (minimax, and
alpha-beta at the root, may make all the children first; below the root that
makes children alpha-beta prunes). When it fails, the message names the
mistake: never prunes, prunes on strict inequality, never updates alpha,
wrong tie rule, depth off by one, and so on, and the positions it names can be
drawn with `python tournament.py tree VARIANT --position '...'`.

Use only the game's methods: game.actions(state), game.result(state, move),
game.terminal_test(state), game.utility(state, player), game.to_move(state)
and, for an eval_fn of your player's, game.evaluate(state, player). A function
left out of the file scores 0 for its checks, as does one that raises
NotImplementedError; after a check times out, that function's other checks are
skipped."""

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
    game.utility(state, player), for the player to move at the root. When a
    cutoff_test(state, depth) is given, it decides where to cut off instead.

    Checked as alpha_beta_search, with several values of d on a tree whose best
    move changes with the depth (one ply too deep or too shallow fails), on trees
    where games end within the depth, with no eval_fn (a state where the opponent
    is to move, a finished game too, is still scored for the player at the root)
    and with a cutoff_test."""
    raise NotImplementedError


def player(game, state):
    """Return a legal move for the player to move in state: the player you enter
    in the class tournament. A good start: alpha_beta_cutoff_search with a small d
    and an eval_fn that scores a final state with game.utility and any other
    with game.evaluate, for the player to move in state.

    In Othello a player who cannot place a disc has one move, 'pass'; in Kalah
    a sowing that ends in your own store lets you move again, so look at
    game.to_move(state) rather than assume the players take turns. Each game's
    game.evaluate is a plain heuristic you can read and beat: mobility and
    corners (Othello), store difference (Kalah), shortest-path distances (Hex),
    material and advancement (Breakthrough).

    Checked in games played by the grader's referee, each move within a time
    limit (10 s unless your instructor says otherwise): legal moves on every game
    of the assignment against random players, never a loss to random at
    tic-tac-toe (10 games as X, 10 as O), and a short gauntlet against random,
    ab2 and ab3 on every game without dice, passed with 60% of the points. Only
    a move over the time limit fails for time: a player that thinks long at every
    move is judged on fewer of these games, those that fit in the checks' time
    budget (60 s unless your instructor says otherwise), and the report says so."""
    raise NotImplementedError
