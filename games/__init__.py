"""Games for adversarial search, after AIMA's games.py: the Game class, its games and the referee.

`from games import *` gives every name of aima-python's games.py: its games as
AIMA has them (games.textbook's; the registry's own are in games.grid, games.tree and
games.backgammon), and the searches and players too: those live in the players package, which is imported only when
one of them is first asked for (so games never imports players at start-up)."""

import random

from .breakthrough import Breakthrough
from .base import Game, IllegalMoveError, Move, Player, PlayerQuit, play_game
from .grid import Board
from .hex import Hex
from .kalah import Kalah
from .nim import GrundysGame, Nim, NimState
from .othello import Othello
from .stochastic import DiceNim, StochasticGame, StochasticGameState, replay
from .textbook import ConnectFour, Fig52Extended, Fig52Game, GameState, Gomoku, TicTacToe
from .textbook_backgammon import Backgammon
from .tree import TreeGame, TreeState

PLAYER_NAMES = ('infinity', 'minmax_decision', 'minimax_decision', 'expect_minmax',
                'expectiminimax', 'alpha_beta_search', 'alphabeta_full_search',
                'alpha_beta_cutoff_search', 'alphabeta_cutoff_search', 'alphabeta_search',
                'monte_carlo_tree_search', 'MCT_Node', 'ucb', 'query_player', 'random_player',
                'alpha_beta_player', 'alphabeta_player', 'minmax_player', 'expect_minmax_player',
                'expect_min_max_player', 'expectiminimax_player', 'mcts_player')
"""AIMA's searches and players, which `games` lends from the players package."""

__all__ = ['Game', 'IllegalMoveError', 'Move', 'Player', 'PlayerQuit', 'play_game',
           'Board', 'ConnectFour', 'GameState', 'Gomoku', 'TicTacToe',
           'GrundysGame', 'Nim', 'NimState', 'Fig52Extended', 'Fig52Game', 'TreeGame', 'TreeState',
           'StochasticGame', 'StochasticGameState', 'DiceNim', 'Backgammon', 'replay',
           'Othello', 'Kalah', 'Hex', 'Breakthrough',
           'random', *PLAYER_NAMES]


def __getattr__(name: str):
    """Lend AIMA's searches and players from the players package, imported on first use."""
    if name in PLAYER_NAMES:
        from players import human, textbook
        value = getattr(human if name == 'query_player' else textbook, name)
        globals()[name] = value
        return value
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
