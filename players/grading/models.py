"""Models of the textbook searches, each classic mistake made on purpose.

AlphaBeta generates the same states in the same order as
players.textbook.alpha_beta_search, and with d=N as alpha_beta_cutoff_search(d=N);
Minimax, which never prunes, as minmax_decision. Each mistake is a small subclass
that overrides the one step it gets wrong. The grader runs the mistaken models to
recognise, and name, the mistake a student made."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable

infinity = math.inf


class AlphaBeta:
    """AIMA's alpha-beta search (Figure 5.7), to the end of the game or, given d or
    a cutoff_test, cut off as alpha_beta_cutoff_search does: the root's children are
    at depth 1, and a state below depth d (or where cutoff_test says) is scored with
    eval_fn, by default with its utility. Each step a mistake can get wrong is a
    method of its own. on_cut(state, test) is told of each node where the search
    stops early, test being such as 'v = 3 <= alpha = 3'."""

    def __init__(self, game, d: int | None = None, eval_fn: Callable | None = None,
                 cutoff_test: Callable | None = None, on_cut: Callable | None = None):
        self.game, self.d, self.eval_fn, self.cutoff_test = game, d, eval_fn, cutoff_test
        self.on_cut = on_cut
        self.root_player = None

    @classmethod
    def search(cls, state, game, d: int | None = None, eval_fn: Callable | None = None,
               cutoff_test: Callable | None = None, on_cut: Callable | None = None) -> Any:
        """Search game from state as this model does, and return the move it chooses;
        called as the textbook's searches are."""
        return cls(game, d, eval_fn, cutoff_test, on_cut).decision(state)

    @staticmethod
    def shows_in(options: dict) -> bool:
        """Can the mistake show in a search called with these options (d, eval_fn,
        cutoff_test)?"""
        return True

    def decision(self, state) -> Any:
        """The first move, in actions order, of highest value; the first if all lose."""
        self.root_player = self.game.to_move(state)
        best_score, best_action = -infinity, None
        for move, child in self.children(state):
            v = self.min_value(child, self.root_alpha(best_score), infinity, 1)
            if best_action is None or self.better(v, best_score):
                best_score, best_action = v, move
        return best_action

    def max_value(self, state, alpha: float, beta: float, depth: int) -> float:
        """MAX-VALUE of Figure 5.7."""
        if self.cut_off(state, depth):
            return self.score(state)
        v = -infinity
        for _, child in self.children(state):
            v = max(v, self.min_value(child, alpha, beta, depth + 1))
            if self.prunes_max(v, alpha, beta):
                self._tell_cut(state, f'v = {v:g} >= beta = {beta:g}')
                return v
            alpha = self.raise_alpha(alpha, v)
        return v

    def min_value(self, state, alpha: float, beta: float, depth: int) -> float:
        """MIN-VALUE of Figure 5.7."""
        if self.cut_off(state, depth):
            return self.score(state)
        v = infinity
        for _, child in self.children(state):
            v = min(v, self.max_value(child, alpha, beta, depth + 1))
            if self.prunes_min(v, alpha, beta):
                self._tell_cut(state, f'v = {v:g} <= alpha = {alpha:g}')
                return v
            beta = self.lower_beta(beta, v)
        return v

    def _tell_cut(self, state, test: str) -> None:
        if self.on_cut:
            self.on_cut(state, test)

    # The steps, as the textbook takes them.

    def prunes_max(self, v: float, alpha: float, beta: float) -> bool:
        """MAX-VALUE stops once v >= beta."""
        return v >= beta

    def prunes_min(self, v: float, alpha: float, beta: float) -> bool:
        """MIN-VALUE stops once v <= alpha."""
        return v <= alpha

    def raise_alpha(self, alpha: float, v: float) -> float:
        """MAX-VALUE's alpha = max(alpha, v)."""
        return max(alpha, v)

    def lower_beta(self, beta: float, v: float) -> float:
        """MIN-VALUE's beta = min(beta, v)."""
        return min(beta, v)

    def root_alpha(self, best: float) -> float:
        """The alpha each root child is searched with: the best value so far."""
        return best

    def better(self, v: float, best: float) -> bool:
        """Does a root move of value v replace the best so far? Only if higher."""
        return v > best

    def actions(self, state) -> list:
        """The moves, in the order game.actions gives them."""
        return list(self.game.actions(state))

    def children(self, state):
        """Each move and its child, the child made just before it is searched."""
        return ((move, self.game.result(state, move)) for move in self.actions(state))

    def player(self, state):
        """The player a state is scored for: the player to move at the root."""
        return self.root_player

    def cut_off(self, state, depth: int) -> bool:
        """Does the search stop at state? At a finished game, and past the horizon."""
        return self.game.terminal_test(state) or self.past_horizon(state, depth)

    def past_horizon(self, state, depth: int) -> bool:
        """Is state where a cut-off search stops, by its depth or the given cutoff_test?"""
        if self.cutoff_test:
            return self.cutoff_test(state, depth)
        return self.d is not None and depth > self.d

    def score(self, state) -> float:
        """The value of a state where the search stops: eval_fn's, or by default
        the utility."""
        if self.eval_fn:
            return self.eval_fn(state)
        return self.game.utility(state, self.player(state))


class Minimax(AlphaBeta):
    """minmax_decision (Figure 5.3): it never prunes."""

    def prunes_max(self, v: float, alpha: float, beta: float) -> bool:
        return False

    def prunes_min(self, v: float, alpha: float, beta: float) -> bool:
        return False


class PrunesOnStrict(AlphaBeta):
    """Prunes only when v > beta or v < alpha."""

    def prunes_max(self, v: float, alpha: float, beta: float) -> bool:
        return v > beta

    def prunes_min(self, v: float, alpha: float, beta: float) -> bool:
        return v < alpha


class SwapsAlphaBeta(AlphaBeta):
    """Tests v <= alpha in MAX-VALUE and v >= beta in MIN-VALUE."""

    def prunes_max(self, v: float, alpha: float, beta: float) -> bool:
        return v <= alpha

    def prunes_min(self, v: float, alpha: float, beta: float) -> bool:
        return v >= beta


class KeepsAlpha(AlphaBeta):
    """Never updates alpha in MAX-VALUE."""

    def raise_alpha(self, alpha: float, v: float) -> float:
        return alpha


class KeepsBeta(AlphaBeta):
    """Never updates beta in MIN-VALUE."""

    def lower_beta(self, beta: float, v: float) -> float:
        return beta


class KeepsAlphaAndBeta(KeepsAlpha, KeepsBeta):
    """Never updates alpha nor beta."""


class NoRootAlpha(AlphaBeta):
    """Searches each root child with alpha = -infinity."""

    def root_alpha(self, best: float) -> float:
        return -infinity


class LastOfTies(AlphaBeta):
    """Takes the last of equally good root moves."""

    def better(self, v: float, best: float) -> bool:
        return v >= best


class Reversed(AlphaBeta):
    """Searches children in reverse actions order."""

    def actions(self, state) -> list:
        return list(self.game.actions(state))[::-1]


class Eager(AlphaBeta):
    """Makes all of a node's children before searching the first."""

    def children(self, state):
        return iter([(move, self.game.result(state, move)) for move in self.actions(state)])


class MoverView(AlphaBeta):
    """Scores each state for the player to move in it."""

    @staticmethod
    def shows_in(options: dict) -> bool:
        return options.get('eval_fn') is None

    def player(self, state):
        return self.game.to_move(state)


class TooDeep(AlphaBeta):
    """Cuts off one ply too deep: below depth d + 1."""

    @staticmethod
    def shows_in(options: dict) -> bool:
        return options.get('d') is not None and 'cutoff_test' not in options

    def past_horizon(self, state, depth: int) -> bool:
        return self.d is not None and depth > self.d + 1


class TooShallow(AlphaBeta):
    """Cuts off one ply too shallow: below depth d - 1."""

    @staticmethod
    def shows_in(options: dict) -> bool:
        return TooDeep.shows_in(options) and options['d'] >= 1

    def past_horizon(self, state, depth: int) -> bool:
        return self.d is not None and depth > self.d - 1


class IgnoresEval(AlphaBeta):
    """Scores cut-off states with the utility, though given an eval_fn."""

    @staticmethod
    def shows_in(options: dict) -> bool:
        return options.get('eval_fn') is not None

    def score(self, state) -> float:
        return self.game.utility(state, self.player(state))


class IgnoresCutoffTest(AlphaBeta):
    """Cuts off by depth alone, though given a cutoff_test."""

    @staticmethod
    def shows_in(options: dict) -> bool:
        return 'cutoff_test' in options

    def past_horizon(self, state, depth: int) -> bool:
        return self.d is not None and depth > self.d


class EvaluatesByDefault(AlphaBeta):
    """With no eval_fn, scores every state where it stops with game.evaluate, a
    finished game too (eval_fn = eval_fn or (lambda state: game.evaluate(state, player)))."""

    def score(self, state) -> float:
        if self.eval_fn is None:
            return self.game.evaluate(state, self.player(state))
        return super().score(state)


class PastTheEnd(AlphaBeta):
    """Cuts off by depth alone, searching on below finished games."""

    def cut_off(self, state, depth: int) -> bool:
        return self.past_horizon(state, depth)


@dataclass(frozen=True)
class Mistake:
    """A classic mistake: its name, what it means, and the model that makes it."""

    name: str
    """A few words, such as 'never prunes'."""
    explanation: str
    """One sentence for the student."""
    model: type[AlphaBeta]
    """The search that makes the mistake."""


def in_minimax(mistake: Mistake) -> Mistake:
    """The mistake made in minimax: its model's step changed in Minimax."""
    model = mistake.model
    return replace(mistake, model=type(model.__name__, (model, Minimax), {}))


NEVER_PRUNES = Mistake('never prunes', 'it generated the full minimax tree; alpha-beta must stop '
                       'searching a node once v >= beta (MAX) or v <= alpha (MIN)', Minimax)
STRICT = Mistake('prunes on strict inequality', 'it prunes only when v > beta or v < alpha; '
                 'Figure 5.7 prunes on v >= beta and v <= alpha, so equal values prune too',
                 PrunesOnStrict)
NO_UPDATE = Mistake('never updates alpha/beta', 'alpha = max(alpha, v) in MAX-VALUE and '
                    'beta = min(beta, v) in MIN-VALUE are missing, so deep cut-offs are missed',
                    KeepsAlphaAndBeta)
NO_ALPHA = Mistake('never updates alpha', 'alpha = max(alpha, v) is missing in MAX-VALUE, so MIN '
                   'nodes below miss their cut-offs', KeepsAlpha)
ROOT_ALPHA = Mistake('no alpha at the root', 'it searches each child of the root with alpha = '
                     '-infinity; pass the best value so far as alpha, as MAX-VALUE does at the '
                     'root in Figure 5.7', NoRootAlpha)
NO_BETA = Mistake('never updates beta', 'beta = min(beta, v) is missing in MIN-VALUE, so MAX '
                  'nodes below miss their cut-offs', KeepsBeta)
SWAPPED = Mistake('alpha and beta swapped', 'it tests v <= alpha in MAX-VALUE and v >= beta in '
                  'MIN-VALUE; MAX-VALUE stops once v >= beta, MIN-VALUE once v <= alpha',
                  SwapsAlphaBeta)
PRUNES = Mistake('prunes', 'it generated the alpha-beta tree; minimax must generate every state',
                 AlphaBeta)
LAST_TIE = Mistake('wrong tie rule', 'of equally good moves it takes the last; the textbook '
                   'takes the first in actions order', LastOfTies)
REVERSED = Mistake('children out of order', 'it searches children in reverse; search them in '
                   'the order game.actions gives', Reversed)
EAGER = Mistake('children made too early', 'it makes all of a node\'s children with game.result '
                'before searching the first, so it makes children that alpha-beta prunes; '
                'make each child just before searching it', Eager)
MOVER_VIEW = Mistake('wrong point of view', 'it scores states for the player to move in them; '
                     'score every state for the player to move at the root '
                     '(game.utility(state, player) with player = game.to_move of the root)',
                     MoverView)
DEFAULT_VIEW = Mistake('default evaluation from the wrong point of view', 'it scores a state '
                       'for the player to move in it, game.utility(state, game.to_move(state)), '
                       'so a state where the opponent is to move is scored for the opponent; '
                       "AIMA's default scores every cut-off state and finished game for the "
                       'player to move at the root: eval_fn = lambda state: game.utility(state, '
                       'player), with player = game.to_move(state) taken at the root', MoverView)
TOO_DEEP = Mistake('depth off by one (too deep)', 'it matches the textbook with d+1: the root\'s '
                   'children are at depth 1 and the cut-off test is depth > d', TooDeep)
TOO_SHALLOW = Mistake('depth off by one (too shallow)', 'it matches the textbook with d-1: the '
                      'root\'s children are at depth 1 and the cut-off test is depth > d',
                      TooShallow)
IGNORES_EVAL = Mistake('ignores eval_fn', 'it scored the cut-off states with game.utility; '
                       'use the eval_fn it is given, and the utility only when there is none',
                       IgnoresEval)
IGNORES_CUTOFF_TEST = Mistake('ignores cutoff_test', 'it cut off by depth alone; when a '
                              'cutoff_test is given, cut off where it says', IgnoresCutoffTest)
EVALUATE_DEFAULT = Mistake('evaluate by default', 'with no eval_fn it scored the cut-off states '
                           "with game.evaluate; AIMA's default is the state's utility, "
                           'game.utility(state, player)', EvaluatesByDefault)
NO_TERMINAL_TEST = Mistake('searches past the end of the game', 'it cuts off by depth alone, so '
                           'a finished game within the depth is searched as if play went on '
                           '(no moves: worth -infinity or +infinity); the cut-off test is '
                           'depth > d or game.terminal_test(state)', PastTheEnd)

STEP_MISTAKES = (NEVER_PRUNES, STRICT, NO_UPDATE, NO_ALPHA, NO_BETA, ROOT_ALPHA, SWAPPED, EAGER,
                 LAST_TIE, REVERSED)
"""The mistakes in alpha-beta's own steps, made alike with a cut-off or without."""
MINIMAX_MISTAKES = (PRUNES, in_minimax(LAST_TIE), in_minimax(MOVER_VIEW))
ALPHA_BETA_MISTAKES = STEP_MISTAKES + (MOVER_VIEW,)
CUTOFF_MISTAKES = STEP_MISTAKES + (DEFAULT_VIEW, TOO_DEEP, TOO_SHALLOW, IGNORES_EVAL,
                                   IGNORES_CUTOFF_TEST, EVALUATE_DEFAULT, NO_TERMINAL_TEST)
