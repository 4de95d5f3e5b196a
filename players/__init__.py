"""Players and searches: AIMA's algorithms, the PLAYER registry and loading players.

Its names are imported on first use (PEP 562), as `games` lends its searches, so
that a subpackage (the sandbox, a jail's side of the protocol) imports only what it
uses. The registry, once imported, holds the players of the installed plugins too."""

import importlib

PROJECT_PACKAGES = ('games', 'players', 'variants')
"""The packages of this project's code: what every machine of a cluster must have
alike, and what the grader's bundle ships."""

_HOMES = {
    'engine': ('Solution', 'solve'),
    'human': ('human_player', 'query_player'),
    'perfect': ('perfect_player',),
    'registry': ('PLAYER', 'REGISTRY', 'PlayerLoadError', 'load_player',
                 'make_alpha_beta_player', 'register', 'register_factory'),
    'textbook': ('MCT_Node', 'alpha_beta_cutoff_search', 'alpha_beta_player',
                 'alpha_beta_search', 'alphabeta_cutoff_search', 'alphabeta_full_search',
                 'alphabeta_player', 'alphabeta_search', 'expect_min_max_player',
                 'expect_minmax', 'expect_minmax_player', 'expectiminimax',
                 'expectiminimax_player', 'mcts_player', 'minimax_decision', 'minmax_decision',
                 'minmax_player', 'monte_carlo_tree_search', 'random_player', 'ucb'),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}
"""The module of players that holds each of its public names."""

__all__ = ['PROJECT_PACKAGES', *_HOME]


def __getattr__(name: str):
    """Import a public name's module on first use, and keep the name."""
    if name not in _HOME:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    value = getattr(importlib.import_module(f'{__name__}.{_HOME[name]}'), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The names of the module, those imported on first use among them."""
    return sorted({*globals(), *_HOME})
