"""Games for adversarial search, after AIMA's games.py: the Game class, its games and the referee.

`from games import *` gives what aima-python's games.py gives, name for name:
its games (games.textbook's, as AIMA has them; the registry's own are in
games.grid, games.tree and games.backgammon), the modules and names it imports
(numpy's np where numpy is installed), and the searches and players too: those
live in the players package, which is imported only when one of them is first
asked for (so games never imports players at start-up)."""

# each name imported 'as' itself: what games gives, for mypy too (NAMES lists them)
import copy as copy
import itertools as itertools
import random as random
from collections import namedtuple as namedtuple
from typing import TYPE_CHECKING

from .base import Game as Game, IllegalMoveError as IllegalMoveError, Move as Move
from .base import Player as Player, PlayerQuit as PlayerQuit, play_game as play_game
from .breakthrough import Breakthrough as Breakthrough
from .grid import Board as Board
from .hex import Hex as Hex
from .kalah import Kalah as Kalah
from .nim import GrundysGame as GrundysGame, Nim as Nim, NimState as NimState
from .othello import Othello as Othello
from .stochastic import DiceNim as DiceNim, StochasticGame as StochasticGame
from .stochastic import StochasticGameState as StochasticGameState, replay as replay
from .textbook import ConnectFour as ConnectFour, Fig52Extended as Fig52Extended
from .textbook import Fig52Game as Fig52Game, GameState as GameState, Gomoku as Gomoku
from .textbook import TicTacToe as TicTacToe, vector_add as vector_add
from .textbook_backgammon import Backgammon as Backgammon
from .tree import TreeGame as TreeGame, TreeState as TreeState

if TYPE_CHECKING:  # what games lends, for mypy; at run time, imported on first use
    from types import ModuleType
    from typing import Any

    from players.human import query_player as query_player
    from players.textbook import *  # noqa: F403  (the names LENT lists)

LENT = {**dict.fromkeys(
    ('infinity', 'minmax_decision', 'minimax_decision', 'expect_minmax', 'expectiminimax',
     'alpha_beta_search', 'alphabeta_full_search', 'alpha_beta_cutoff_search',
     'alphabeta_cutoff_search', 'alphabeta_search', 'monte_carlo_tree_search', 'MCT_Node', 'ucb',
     'random_player', 'alpha_beta_player', 'alphabeta_player', 'minmax_player',
     'expect_minmax_player', 'expect_min_max_player', 'expectiminimax_player', 'mcts_player'),
    'textbook'), 'query_player': 'human'}
"""AIMA's searches and players, which games lends from the players package: each
name, under aima-python's, with the module of players that holds it. This is the
one list of them: players lends them too, by it."""

NAMES = ('Game', 'IllegalMoveError', 'Move', 'Player', 'PlayerQuit', 'play_game',
         'Board', 'ConnectFour', 'GameState', 'Gomoku', 'TicTacToe',
         'GrundysGame', 'Nim', 'NimState', 'Fig52Extended', 'Fig52Game', 'TreeGame', 'TreeState',
         'StochasticGame', 'StochasticGameState', 'DiceNim', 'Backgammon', 'replay',
         'Othello', 'Kalah', 'Hex', 'Breakthrough',
         'copy', 'itertools', 'random', 'namedtuple', 'vector_add')
"""What `from games import *` gives besides the searches and numpy's np: AIMA's
games and states and the names its games.py imports, and the project's games."""


def __getattr__(name: str) -> 'Any':
    """Lend AIMA's searches and players from the players package, imported on first
    use, and numpy as np where it can be imported; give `__all__`, the names that
    `from games import *` gives: np among them only where numpy can be imported."""
    if name == '__all__':
        return [*NAMES, *LENT, *(['np'] if _numpy() else [])]
    value = _lent(name)
    if value is None:
        raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    globals()[name] = value
    return value


def _lent(name: str) -> 'Any':
    """Return what games lends by name (a search or player, or numpy), or None."""
    if name in LENT:
        from players import human, textbook
        return getattr(human if LENT[name] == 'human' else textbook, name)
    return _numpy() if name == 'np' else None


def _numpy() -> 'ModuleType | None':
    """Return numpy, imported now if it can be (an optional dependency), or None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy
