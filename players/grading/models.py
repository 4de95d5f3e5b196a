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
                 prune: bool = True, strict: bool = False, update: bool = True,
                 last_tie: bool = False, reverse: bool = False, evaluate: bool = False):
    """Search like the textbook, or with a mistake: never prune, prune only on
    strict inequality, never update alpha and beta, take the last of tied moves,
    search children in reverse actions order, or without an eval_fn score cut-off
    states with game.evaluate instead of AIMA's default, the utility. d=None
    searches to the end; d=N cuts off below depth N as AIMA's
    alpha_beta_cutoff_search does."""
    player = game.to_move(state)

    def actions(state):
        moves = list(game.actions(state))
        return moves[::-1] if reverse else moves

    def value(state, depth):
        terminal = game.terminal_test(state)
        if d is not None and (terminal or depth > d):
            if eval_fn:
                return eval_fn(state)
            if evaluate and not terminal:
                return game.evaluate(state, player)
            return game.utility(state, player)
        return game.utility(state, player) if terminal else None

    def max_value(state, alpha, beta, depth):
        leaf = value(state, depth)
        if leaf is not None:
            return leaf
        v = -infinity
        for a in actions(state):
            v = max(v, min_value(game.result(state, a), alpha, beta, depth + 1))
            if prune and (v > beta if strict else v >= beta):
                return v
            if update:
                alpha = max(alpha, v)
        return v

    def min_value(state, alpha, beta, depth):
        leaf = value(state, depth)
        if leaf is not None:
            return leaf
        v = infinity
        for a in actions(state):
            v = min(v, max_value(game.result(state, a), alpha, beta, depth + 1))
            if prune and (v < alpha if strict else v <= alpha):
                return v
            if update:
                beta = min(beta, v)
        return v

    best_score, best_action = -infinity, None
    for a in actions(state):
        v = min_value(game.result(state, a), best_score if prune else -infinity, infinity, 1)
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
                    {'update': False})
PRUNES = Mistake('prunes', 'it generated the alpha-beta tree; minimax must generate every state',
                 {'prune': True})
LAST_TIE = Mistake('wrong tie rule', 'of equally good moves it takes the last; the textbook '
                   'takes the first in actions order', {'last_tie': True})
REVERSED = Mistake('children out of order', 'it searches children in reverse; search them in '
                   'the order game.actions gives', {'reverse': True})
TOO_DEEP = Mistake('depth off by one (too deep)', 'it matches the textbook with d+1: the root\'s '
                   'children are at depth 1 and the cut-off test is depth > d', {}, +1)
TOO_SHALLOW = Mistake('depth off by one (too shallow)', 'it matches the textbook with d-1: the '
                      'root\'s children are at depth 1 and the cut-off test is depth > d', {}, -1)

IGNORES_EVAL = Mistake('ignores eval_fn', 'it scored the cut-off states with game.utility; '
                       'use the eval_fn it is given, and the utility only when there is none',
                       {'eval_fn': None})
EVALUATE_DEFAULT = Mistake('evaluate by default', 'with no eval_fn it scored the cut-off states '
                           "with game.evaluate; AIMA's default is the state's utility, "
                           'game.utility(state, player)', {'evaluate': True})

MINIMAX_MISTAKES = (PRUNES, LAST_TIE, REVERSED)
ALPHA_BETA_MISTAKES = (NEVER_PRUNES, STRICT, NO_UPDATE, LAST_TIE, REVERSED)
CUTOFF_MISTAKES = ALPHA_BETA_MISTAKES + (TOO_DEEP, TOO_SHALLOW, IGNORES_EVAL, EVALUATE_DEFAULT)
