"""Games for adversarial search, after AIMA's games.py: the Game class, its games and the referee."""

from .base import Game, IllegalMoveError, Move, Player, PlayerQuit, play_game
from .grid import Board, ConnectFour, GameState, TicTacToe
from .nim import GrundysGame, Nim, NimState
from .tree import Fig52Game, TreeGame, TreeState

__all__ = ['Game', 'IllegalMoveError', 'Move', 'Player', 'PlayerQuit', 'play_game',
           'Board', 'ConnectFour', 'GameState', 'TicTacToe',
           'GrundysGame', 'Nim', 'NimState', 'Fig52Game', 'TreeGame', 'TreeState']
