"""A cut-off search whose default evaluation scores a state for the player to move in it."""
import math

infinity = math.inf


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
    eval_fn = eval_fn or (lambda state: game.utility(state, game.to_move(state)))
    best_score, best_action = -infinity, None
    for a in game.actions(state):
        v = min_value(game.result(state, a), best_score, infinity, 1)
        if v > best_score or best_action is None:
            best_score, best_action = v, a
    return best_action
