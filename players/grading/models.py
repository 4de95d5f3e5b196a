"""A model of the textbook searches that can make each classic mistake on purpose.

With its defaults, model_search(state, game) generates the same states in the
same order as players.textbook.alpha_beta_search, and with d=N as
alpha_beta_cutoff_search(d=N); prune=False makes it minmax_decision. The grader
runs the mistaken versions to recognise, and name, the mistake a student made."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

infinity = math.inf


def model_search(state, game, d: int | None = None, eval_fn: Callable | None = None,
                 cutoff_test: Callable | None = None, prune: bool = True,
                 strict: bool = False, update_alpha: bool = True, update_beta: bool = True,
                 root_alpha: bool = True, swapped: bool = False, last_tie: bool = False,
                 reverse: bool = False,
                 eager: bool = False, evaluate: bool = False, mover_view: bool = False,
                 terminal_test: bool = True, on_cut: Callable | None = None):
    """Search like the textbook, or with a mistake: never prune, prune only on
    strict inequality, never update alpha (or beta) in MAX-VALUE (MIN-VALUE), search
    each root child with alpha = -infinity (not root_alpha), test v <= alpha in MAX-VALUE
    and v >= beta in MIN-VALUE (swapped), take the last of tied moves, search
    children in reverse actions order, make all of a node's children before
    searching the first (eager), without an eval_fn score cut-off states with
    game.evaluate instead of AIMA's default, the utility, score states for the
    player to move in them (mover_view), or cut off only by depth, searching on
    below finished games. d=None searches to the end; d=N cuts off below depth
    N as AIMA's alpha_beta_cutoff_search does. on_cut(state, v, test) is told of
    each node where the search stops, test being such as 'v = 3 <= alpha = 3'."""
    root_player = game.to_move(state)

    def player(state):
        return game.to_move(state) if mover_view else root_player

    def actions(state):
        moves = list(game.actions(state))
        return moves[::-1] if reverse else moves

    def children(state):
        if eager:
            return iter([game.result(state, a) for a in actions(state)])
        return (game.result(state, a) for a in actions(state))

    def value(state, depth):
        terminal = game.terminal_test(state) if terminal_test else False
        if d is not None or cutoff_test is not None:
            cut = cutoff_test(state, depth) if cutoff_test else depth > d
            if terminal or cut:
                if eval_fn:
                    return eval_fn(state)
                if evaluate and not game.terminal_test(state):
                    return game.evaluate(state, player(state))
                return game.utility(state, player(state))
            return None
        return game.utility(state, player(state)) if terminal else None

    def max_value(state, alpha, beta, depth):
        leaf = value(state, depth)
        if leaf is not None:
            return leaf
        v = -infinity
        for child in children(state):
            v = max(v, min_value(child, alpha, beta, depth + 1))
            bound = alpha if swapped else beta
            if prune and (swapped and v <= bound or not swapped and (v > bound if strict
                                                                      else v >= bound)):
                if on_cut:
                    on_cut(state, f'v = {v:g} >= beta = {beta:g}')
                return v
            if update_alpha:
                alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        leaf = value(state, depth)
        if leaf is not None:
            return leaf
        v = infinity
        for child in children(state):
            v = min(v, max_value(child, alpha, beta, depth + 1))
            bound = beta if swapped else alpha
            if prune and (swapped and v >= bound or not swapped and (v < bound if strict
                                                                      else v <= bound)):
                if on_cut:
                    on_cut(state, f'v = {v:g} <= alpha = {alpha:g}')
                return v
            if update_beta:
                beta = min(beta, v)
        return v

    best_score, best_action = -infinity, None
    moves = actions(state)
    made = [game.result(state, a) for a in moves] if eager else None
    for index, a in enumerate(moves):
        child = made[index] if eager else game.result(state, a)
        v = min_value(child, best_score if prune and root_alpha else -infinity, infinity, 1)
        if v > best_score or best_action is None or (last_tie and v == best_score):
            best_score, best_action = v, a
    return best_action


@dataclass(frozen=True)
class Mistake:
    """A classic mistake: its name, what it means, and how model_search makes it."""

    name: str
    """A few words, such as 'never prunes'."""
    explanation: str
    """One sentence for the student."""
    options: dict = field(default_factory=dict)
    """model_search's keyword arguments that make the mistake."""
    depth_change: int = 0
    """For a depth-limited search: the error in d (+1 searches one ply too deep)."""


NEVER_PRUNES = Mistake('never prunes', 'it generated the full minimax tree; alpha-beta must stop '
                       'searching a node once v >= beta (MAX) or v <= alpha (MIN)',
                       {'prune': False})
STRICT = Mistake('prunes on strict inequality', 'it prunes only when v > beta or v < alpha; '
                 'Figure 5.7 prunes on v >= beta and v <= alpha, so equal values prune too',
                 {'strict': True})
NO_UPDATE = Mistake('never updates alpha/beta', 'alpha = max(alpha, v) in MAX-VALUE and '
                    'beta = min(beta, v) in MIN-VALUE are missing, so deep cut-offs are missed',
                    {'update_alpha': False, 'update_beta': False})
NO_ALPHA = Mistake('never updates alpha', 'alpha = max(alpha, v) is missing in MAX-VALUE, so MIN '
                   'nodes below miss their cut-offs', {'update_alpha': False})
ROOT_ALPHA = Mistake('no alpha at the root', 'it searches each child of the root with alpha = '
                     '-infinity; pass the best value so far as alpha, as MAX-VALUE does at the '
                     'root in Figure 5.7', {'root_alpha': False})
NO_BETA = Mistake('never updates beta', 'beta = min(beta, v) is missing in MIN-VALUE, so MAX '
                  'nodes below miss their cut-offs', {'update_beta': False})
SWAPPED = Mistake('alpha and beta swapped', 'it tests v <= alpha in MAX-VALUE and v >= beta in '
                  'MIN-VALUE; MAX-VALUE stops once v >= beta, MIN-VALUE once v <= alpha',
                  {'swapped': True})
PRUNES = Mistake('prunes', 'it generated the alpha-beta tree; minimax must generate every state',
                 {'prune': True})
LAST_TIE = Mistake('wrong tie rule', 'of equally good moves it takes the last; the textbook '
                   'takes the first in actions order', {'last_tie': True})
REVERSED = Mistake('children out of order', 'it searches children in reverse; search them in '
                   'the order game.actions gives', {'reverse': True})
EAGER = Mistake('children made too early', 'it makes all of a node\'s children with game.result '
                'before searching the first, so it makes children that alpha-beta prunes; '
                'make each child just before searching it', {'eager': True})
MOVER_VIEW = Mistake('wrong point of view', 'it scores states for the player to move in them; '
                     'score every state for the player to move at the root '
                     '(game.utility(state, player) with player = game.to_move of the root)',
                     {'mover_view': True})
TOO_DEEP = Mistake('depth off by one (too deep)', 'it matches the textbook with d+1: the root\'s '
                   'children are at depth 1 and the cut-off test is depth > d', {}, +1)
TOO_SHALLOW = Mistake('depth off by one (too shallow)', 'it matches the textbook with d-1: the '
                      'root\'s children are at depth 1 and the cut-off test is depth > d', {}, -1)
IGNORES_EVAL = Mistake('ignores eval_fn', 'it scored the cut-off states with game.utility; '
                       'use the eval_fn it is given, and the utility only when there is none',
                       {'eval_fn': None})
IGNORES_CUTOFF_TEST = Mistake('ignores cutoff_test', 'it cut off by depth alone; when a '
                              'cutoff_test is given, cut off where it says', {'cutoff_test': None})
EVALUATE_DEFAULT = Mistake('evaluate by default', 'with no eval_fn it scored the cut-off states '
                           "with game.evaluate; AIMA's default is the state's utility, "
                           'game.utility(state, player)', {'evaluate': True})
NO_TERMINAL_TEST = Mistake('searches past the end of the game', 'it cuts off by depth alone, so '
                           'a finished game within the depth is searched as if play went on '
                           '(no moves: worth -infinity or +infinity); the cut-off test is '
                           'depth > d or game.terminal_test(state)', {'terminal_test': False})

MINIMAX_MISTAKES = (PRUNES, LAST_TIE, MOVER_VIEW)
ALPHA_BETA_MISTAKES = (NEVER_PRUNES, STRICT, NO_UPDATE, NO_ALPHA, NO_BETA, ROOT_ALPHA, SWAPPED,
                       EAGER,
                       LAST_TIE, REVERSED, MOVER_VIEW)
CUTOFF_MISTAKES = ALPHA_BETA_MISTAKES + (TOO_DEEP, TOO_SHALLOW, IGNORES_EVAL, IGNORES_CUTOFF_TEST,
                                         EVALUATE_DEFAULT, NO_TERMINAL_TEST)
