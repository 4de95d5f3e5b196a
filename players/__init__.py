"""Players and searches: AIMA's algorithms, the PLAYER registry and loading players."""

from .engine import Solution, solve
from .human import human_player, query_player
from .perfect import perfect_player
from .registry import (PLAYER, REGISTRY, PlayerLoadError, load_player, make_alpha_beta_player,
                       register, register_factory)
from .textbook import (MCT_Node, alpha_beta_cutoff_search, alpha_beta_player, alpha_beta_search,
                       alphabeta_cutoff_search, alphabeta_full_search, alphabeta_player,
                       alphabeta_search, expect_min_max_player, expect_minmax,
                       expect_minmax_player, expectiminimax, expectiminimax_player, mcts_player,
                       minimax_decision, minmax_decision, minmax_player, monte_carlo_tree_search,
                       random_player, ucb)
from . import plugins  # noqa: F401  (registers the players of the plugins installed)

PROJECT_PACKAGES = ('games', 'players', 'variants')
"""The packages of this project's code: what every machine of a cluster must have
alike, and what the grader's bundle ships."""

__all__ = ['PROJECT_PACKAGES', 'Solution', 'solve', 'perfect_player', 'human_player',
           'query_player', 'PLAYER', 'REGISTRY', 'PlayerLoadError', 'load_player',
           'make_alpha_beta_player', 'register', 'MCT_Node', 'alpha_beta_cutoff_search',
           'alpha_beta_player', 'alpha_beta_search', 'alphabeta_cutoff_search',
           'alphabeta_full_search', 'alphabeta_player', 'alphabeta_search',
           'expect_min_max_player', 'expect_minmax', 'expect_minmax_player', 'expectiminimax',
           'expectiminimax_player', 'mcts_player', 'minimax_decision', 'minmax_decision',
           'minmax_player', 'monte_carlo_tree_search', 'random_player', 'ucb',
           'register_factory']
