"""AIMA's backgammon, the dice game of aima-python's games.py, with its rules as it
gives them (the registry's backgammon, with the real rules, is games.backgammon).

Points are numbered 0 to 23; W moves down from 23, B up from 0. A move names the
points of the checkers to move, one for each die, such as (12, 7); a roll is
kept in the state as the steps it allows, negative for W, such as (-6, -5).
Bearing off is allowed once a player's checkers are all in the home points, a
flag the game itself keeps and never lowers, as in AIMA."""

from __future__ import annotations

import copy
import itertools
from typing import Sequence

from .stochastic import StochasticGame, StochasticGameState
from .textbook import vector_add

START = ((0, 'B', 2), (23, 'W', 2), (5, 'W', 5), (18, 'B', 5), (7, 'W', 3), (16, 'B', 3),
         (11, 'B', 5), (12, 'W', 5))
"""The checkers at the start: (point, player, count)."""
HOME = {'W': range(0, 7), 'B': range(17, 24)}
"""The points each player counts as home (seven of them, as in AIMA)."""
POINTS = range(0, 24)
Checkers = dict[str, int]
"""The checkers on one point: {'W': count, 'B': count}; a board is a list of 24."""


class Backgammon(StochasticGame):
    """A two player game where the goal of each player is to move all the
    checkers off the board. The moves for each state are determined by
    rolling a pair of dice."""

    def __init__(self) -> None:
        board = [{'W': 0, 'B': 0} for _ in POINTS]
        for point, player, count in START:
            board[point][player] = count
        self.allow_bear_off = {'W': False, 'B': False}
        self.direction = {'W': -1, 'B': 1}
        self.initial = StochasticGameState(to_move='W', utility=0, board=board,
                                           moves=self.get_all_moves(board, 'W'), chance=None)

    def actions(self, state: StochasticGameState) -> list[tuple[int, ...]]:
        """Return a list of legal moves for a state: the moves the roll allows (the
        single move of a last checker as it is)."""
        moves: list[tuple[int, ...]] = state.moves
        if len(moves) == 1 and len(moves[0]) == 1:
            return moves
        return [move for move in moves
                if self.is_legal_move(copy.deepcopy(state.board), move, state.chance,
                                      state.to_move)]

    def result(self, state: StochasticGameState, move: tuple[int, ...]) -> StochasticGameState:
        """Move a checker from each point of move by its die; the other player rolls next."""
        board = copy.deepcopy(state.board)
        player = state.to_move
        steps = state.chance
        self.move_checker(board, move[0], steps[0], player)
        if len(move) == 2:  # else the one checker left at home
            self.move_checker(board, move[1], steps[1], player)
        to_move = 'W' if player == 'B' else 'B'
        return StochasticGameState(to_move=to_move,
                                   utility=self.compute_utility(board, move, player),
                                   board=board, moves=self.get_all_moves(board, to_move),
                                   chance=None)

    def utility(self, state: StochasticGameState, player: str) -> float:
        """Return the value to player; 1 for win, -1 for loss, 0 otherwise."""
        return state.utility if player == 'W' else -state.utility

    def terminal_test(self, state: StochasticGameState) -> bool:
        """A state is terminal if one player wins."""
        return state.utility != 0

    def get_all_moves(self, board: list[Checkers], player: str) -> Sequence[tuple[int, ...]]:
        """Every pair of points holding player's checkers, in both orders, and every
        point holding two or more twice; a lone checker at home moves alone."""
        taken = [point for point, checkers in enumerate(board) if checkers[player] > 0]
        if self.checkers_at_home(board, player) == 1:
            return [(taken[0],)]
        doubles = [(point, point) for point, checkers in enumerate(board)
                   if checkers[player] >= 2]
        return list(itertools.permutations(taken, 2)) + doubles

    def display(self, state: StochasticGameState) -> None:
        """Print the checkers of each point and the player to move, as AIMA does."""
        print('current state : ')
        for point, checkers in enumerate(state.board):
            print('point : ', point, '\tW : ', checkers['W'], '    B : ', checkers['B'])
        print('to play : ', state.to_move)

    def compute_utility(self, board: list[Checkers], move: tuple[int, ...], player: str) -> int:
        """If 'W' wins with this move, return 1; if 'B' wins return -1; else return 0."""
        if any(board[point][player] > 0 for point in POINTS):
            return 0
        return {'W': 1, 'B': -1}[player]

    def checkers_at_home(self, board: list[Checkers], player: str) -> int:
        """Return the no. of checkers at home for a player."""
        return sum(board[point][player] for point in HOME[player])

    def is_legal_move(self, board: list[Checkers], start: tuple[int, ...],
                      steps: Sequence[int], player: str) -> bool:
        """Is the move from the points start by steps legal? Each checker must land on
        a point open to player, or bear off where bearing off is allowed. The first
        checker is moved on board before the second is tried."""
        first, second = vector_add(start, steps)
        if first in POINTS:
            if not self.is_point_open(player, board[first]):
                return False
        elif not self.allow_bear_off[player]:
            return False
        self.move_checker(board, start[0], steps[0], player)
        if second in POINTS:
            return self.is_point_open(player, board[second])
        return self.allow_bear_off[player]

    def move_checker(self, board: list[Checkers], start: int, steps: int, player: str) -> None:
        """Move a checker from point start by steps (off the board if it lands off
        it); once all 15 are home, player may bear off from then on."""
        board[start][player] -= 1
        if start + steps in POINTS:
            board[start + steps][player] += 1
            if self.checkers_at_home(board, player) == 15:
                self.allow_bear_off[player] = True

    def is_point_open(self, player: str, point: Checkers) -> bool:
        """A point is open for a player if the no. of opponent's
        checkers already present on it is 0 or 1."""
        return point['B' if player == 'W' else 'W'] <= 1

    def chances(self, state: StochasticGameState) -> list[tuple[int, int]]:
        """Return a list of all possible dice rolls at a state: the 21 pairs (low, high)."""
        return list(itertools.combinations_with_replacement(range(1, 7), 2))

    def outcome(self, state: StochasticGameState, chance: tuple[int, int]) -> StochasticGameState:
        """Return the state after a roll, its dice turned into steps in the mover's direction."""
        steps = tuple(self.direction[state.to_move] * die for die in chance)
        return StochasticGameState(to_move=state.to_move, utility=state.utility,
                                   board=state.board, moves=state.moves, chance=steps)

    def probability(self, chance: tuple[int, int]) -> float:
        """Return the probability of occurrence of a dice roll."""
        return 1 / 36 if chance[0] == chance[1] else 1 / 18
