"""Other libraries' solvers on our games, for the benchmark: easyAI's Negamax
with its transposition table, and OpenSpiel's Python alpha-beta. Both are
optional (pip install '.[bench]'); each solver returns (value for the player
to move, nodes or None) and raises Unsupported for a game it cannot play."""

from __future__ import annotations

import importlib.util
from typing import Callable

from games import Game, Nim
from games.grid import TicTacToe


class Unsupported(Exception):
    """A peer library that is not installed or has no such game."""


def installed(module: str) -> bool:
    """Is a module importable?"""
    return importlib.util.find_spec(module) is not None


PRELOADS: dict[Callable, tuple[str, ...]] = {}
"""The modules of other libraries each solver uses, by solver, for preload."""


def preload(solve) -> None:
    """Import the installed libraries a solver uses (see PRELOADS), so that its
    time counts no import."""
    for module in PRELOADS.get(solve, ()):
        if installed(module.split('.')[0]):
            importlib.import_module(module)


def _nim_or_tictactoe(game: Game) -> Nim | None:
    """The Nim game, or None for tic-tac-toe, of the games peers have (3 x 3
    tic-tac-toe, Nim without a cap)."""
    if type(game) is Nim and game.max_take is None:
        return game
    if type(game) is TicTacToe and (game.h, game.v, game.k) == (3, 3, 3):
        return None
    raise Unsupported(f'no {game} there')


def easyai_solve(game: Game) -> tuple:
    """Solve the start with easyAI's Negamax and a TranspositionTable, as its docs show."""
    if not installed('easyAI'):
        raise Unsupported('easyAI is not installed')
    from easyAI import Negamax, TranspositionTable, TwoPlayerGame
    from easyAI.games import TicTacToe as EasyTicTacToe

    nim = _nim_or_tictactoe(game)
    counter = [0]

    class CountedTicTacToe(EasyTicTacToe):
        """easyAI's own tic-tac-toe, counting moves made."""

        def make_move(self, move):
            counter[0] += 1
            super().make_move(move)

        def ttentry(self):
            return tuple(self.board) + (self.current_player,)

    class EasyNim(TwoPlayerGame):
        """Nim for easyAI, as its Nim example writes it, in normal or misère play."""

        def __init__(self, nim: Nim):
            self.players, self.current_player = [None, None], 1
            self.piles, self.misere = list(nim.piles), nim.misere

        def possible_moves(self):
            return [(i, n) for i, pile in enumerate(self.piles) for n in range(1, pile + 1)]

        def make_move(self, move):
            counter[0] += 1
            self.piles[move[0]] -= move[1]

        def unmake_move(self, move):
            self.piles[move[0]] += move[1]

        def is_over(self):
            return not any(self.piles)

        def scoring(self):
            if not self.is_over():
                return 0
            return 100 if self.misere else -100

        def ttentry(self):
            return tuple(self.piles) + (self.current_player,)

    position = CountedTicTacToe([None, None]) if nim is None else EasyNim(nim)
    depth = 9 if nim is None else sum(nim.piles)
    solver = Negamax(depth, tt=TranspositionTable())
    solver(position)
    value = solver.alpha
    return (value > 0) - (value < 0), counter[0]


def openspiel_solve(game: Game) -> tuple:
    """Solve the start with OpenSpiel's Python alpha_beta_search."""
    if not installed('pyspiel'):
        raise Unsupported('OpenSpiel is not installed')
    import pyspiel
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    nim = _nim_or_tictactoe(game)
    if nim is not None:
        spiel = pyspiel.load_game('nim', {'pile_sizes': ';'.join(map(str, nim.piles)),
                                          'is_misere': nim.misere})
        depth = sum(nim.piles) + 1
    else:
        spiel, depth = pyspiel.load_game('tic_tac_toe'), 10
    value, _ = alpha_beta_search(spiel, maximum_depth=depth)
    return value, None


PRELOADS.update({easyai_solve: ('easyAI', 'easyAI.games'),
                 openspiel_solve: ('pyspiel', 'open_spiel.python.algorithms.minimax')})

PEERS = {'easyAI Negamax + TT': easyai_solve, 'OpenSpiel alpha_beta_search': openspiel_solve}
"""The peer solvers by the name the benchmark prints."""
