"""Expectiminimax for games of chance, with tables: exact values for the minimax
and perfect players, and a depth-limited search for the abN players.

Depth counts the players' moves (plies), as abN's N does in every game: the roll
before a move is not a ply, and every chance node met within the depth is
averaged over all its outcomes. Values are for the player to move at the root:
terminal states score their utility, states at the depth limit their
evaluation. A value found without scoring any state at the depth limit is
exact and is kept for every depth; the others are kept for their depth."""

from __future__ import annotations

import math
import time
from typing import Any, Hashable

from games.base import Game
from games.stochastic import StochasticGameState, is_chance_node

from .shared import TABLE_LIMIT, EvalFn, SearchStats, Solution, State, cached_table
from .timing import CHECK_EVERY, OutOfTime

def _key(state: State) -> Hashable | None:
    """Return what a table keys a state by (a state of chance without its list of moves,
    which the rest determines), or None if it cannot be hashed."""
    if isinstance(state, StochasticGameState):
        state = (state.to_move, state.board, state.chance)
    try:
        hash(state)
    except TypeError:
        return None
    key: Hashable = state
    return key


class _ChanceSearch:
    """One search from a root player's point of view, with its exact and cut-off tables."""

    def __init__(self, game: Game, player: Any, eval_fn: EvalFn | None,
                 exact: dict[Hashable, float], cutoff: dict[tuple[Hashable, int], float],
                 deadline: float | None = None):
        self.game, self.player, self.eval_fn = game, player, eval_fn
        self.exact, self.cutoff, self.deadline = exact, cutoff, deadline
        self.nodes = self.hits = 0

    def value(self, state: State, depth: int) -> tuple[float, bool]:
        """Return the value of state, depth plies ahead (to the end if depth < 0),
        and whether it is exact."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.deadline is not None \
                and time.monotonic() > self.deadline:
            raise OutOfTime
        game = self.game
        if game.terminal_test(state):
            return game.utility(state, self.player), True
        key = _key(state)
        if key is not None:
            if key in self.exact:
                self.hits += 1
                return self.exact[key], True
            if (key, depth) in self.cutoff:
                self.hits += 1
                return self.cutoff[key, depth], False
        if depth == 0:
            return self.evaluate(state), False
        if is_chance_node(game, state):
            value, exact = 0.0, True
            for chance in game.chances(state):
                child, child_exact = self.value(game.outcome(state, chance), depth)
                value += game.probability(chance) * child
                exact = exact and child_exact
        else:
            children = [self.value(game.result(state, move), depth - 1)
                        for move in game.actions(state)]
            best = max if game.to_move(state) == self.player else min
            value = best(child for child, _ in children)
            exact = all(child_exact for _, child_exact in children)
        if key is not None:
            # keyed by state where exact, by (state, depth) where not
            table: dict[Any, float] = self.exact if exact else self.cutoff
            if len(table) >= TABLE_LIMIT:
                table.clear()
            table[key if exact else (key, depth)] = value
        return value, exact

    def evaluate(self, state: State) -> float:
        """The root player's evaluation of a state at the depth limit."""
        if self.eval_fn is None:
            return self.game.evaluate(state, self.player)
        return self.eval_fn(self.game, state, self.player)

    def root(self, state: State, depth: int) -> tuple[Solution, bool]:
        """Return the value of state and the first best move in actions order (None
        where no player moves: at the end, or where the dice are still to be
        rolled), and whether the value is exact."""
        game = self.game
        if game.terminal_test(state) or is_chance_node(game, state):
            value, exact = self.value(state, depth)
            return Solution(value, None, self.nodes), exact
        best, best_move, exact = -math.inf, None, True
        for move in game.actions(state):
            value, child_exact = self.value(game.result(state, move), depth - 1)
            exact = exact and child_exact
            if value > best or best_move is None:
                best, best_move = value, move
        return Solution(best, best_move, self.nodes), exact


def _searcher(game: Game, state: State, eval_fn: EvalFn | None,
              deadline: float | None = None) -> _ChanceSearch:
    """Make a search from the point of view of the player to move in state, with
    the tables kept for its game and that player."""
    player = game.to_move(state)
    context = (type(game), repr(game), player)
    return _ChanceSearch(game, player, eval_fn, cached_table(context + ('exact',)),
                         cached_table(context + ('cut-off', eval_fn)), deadline)


def solve_chance(game: Game, state: State = None, stats: SearchStats | None = None) -> Solution:
    """Return the exact expectiminimax value of a state (default: the start) for
    the player to move, the first best move in actions order and the nodes searched.
    If stats is given (a SearchStats), it receives nodes, hits and depth (-1)."""
    state = game.initial if state is None else state
    searcher = _searcher(game, state, None)
    solution = searcher.root(state, -1)[0]
    if stats is not None:
        stats.nodes, stats.hits, stats.depth = searcher.nodes, searcher.hits, -1
    return solution


def search_chance(game: Game, state: State, depth: int, eval_fn: EvalFn | None = None,
                  stats: SearchStats | None = None,
                  deadline: float | None = None) -> Solution:
    """Return the expectiminimax value and first best move looking depth plies
    ahead, scoring states at the limit by eval_fn(game, state, player) (by default
    game.evaluate(state, player)), player being the one to move at the root.
    stats, if given (a SearchStats), receives nodes, hits, depth and exact (no
    state was scored at the limit); past deadline (a time.monotonic() time) it raises OutOfTime."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f'depth must be a whole number >= 1, got {depth!r}')
    searcher = _searcher(game, state, eval_fn, deadline)
    solution, exact = searcher.root(state, depth)
    if stats is not None:
        stats.nodes, stats.hits = searcher.nodes, searcher.hits
        stats.depth, stats.exact = depth, exact
    return solution
