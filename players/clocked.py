"""Players that use their clock: they think as long as their time allows
(players.search.timing gives each move its share) and always answer before it ends.

The alpha-beta player deepens its search one ply at a time and plays the move
of the deepest search it finished: the move abN plays, N being that depth. It
stops early once a search gives the game's exact value. The Monte Carlo player
runs play-outs until its time is spent (or a given number is reached)."""

from __future__ import annotations

import math
from itertools import count

from games.base import Game, Move, Player

from .search.engine import keep_stats, search
from .search.shared import EvalFn, SearchStats, State
from .search.timing import OutOfTime, move_deadline
from .textbook import monte_carlo_tree_search

DEFAULT_SECONDS = 1.0
"""The seconds a clocked player thinks about a move when no clock is set (a game at the
keyboard)."""


def deepening(game: Game, state: State, deadline: float,
              eval_fn: EvalFn | None = None) -> tuple[Move | None, SearchStats]:
    """Search one ply deeper at a time until the deadline or an exact value; return
    the deepest finished search's move (the first legal move if none finished)
    and stats: its depth (0 if none finished), whether its value is exact, and
    the nodes of all the searches."""
    actions = game.actions(state)
    move = actions[0] if actions else None
    finished, exact, nodes = 0, False, 0
    for depth in count(1):
        stats = SearchStats()
        try:
            solution = search(game, state, depth, eval_fn, stats, deadline)
        except OutOfTime:
            break
        finally:
            nodes += stats.nodes or 0
        move, finished, exact = solution.move, depth, bool(stats.exact)
        if exact:
            break
    return move, SearchStats(nodes=nodes, depth=finished, exact=exact)


def make_clocked_alpha_beta_player(eval_fn: EvalFn | None = None,
                                   seconds: float = DEFAULT_SECONDS) -> Player:
    """Return a player that deepens alpha-beta one ply at a time while its clock
    allows (seconds a move when no clock is set) and plays the move of the
    deepest search it finished; player.stats holds its nodes, depth and exact."""

    def clocked_alpha_beta_player(game: Game, state: State) -> Move | None:
        move, stats = deepening(game, state, move_deadline(seconds), eval_fn)
        keep_stats(clocked_alpha_beta_player, stats)
        return move

    clocked_alpha_beta_player.__doc__ = ('Alpha-beta, one ply deeper at a time while its clock '
                                         'allows; the deepest finished search\'s move.')
    return clocked_alpha_beta_player


def make_clocked_mcts_player(seconds: float = DEFAULT_SECONDS, N: int | None = None) -> Player:
    """Return a player that runs Monte Carlo play-outs while its clock allows
    (seconds a move when no clock is set), and at most N if N is given;
    player.stats holds its play-outs."""

    def clocked_mcts_player(game: Game, state: State) -> Move | None:
        stats = SearchStats()
        move = monte_carlo_tree_search(state, game, math.inf if N is None else N,
                                       deadline=move_deadline(seconds), stats=stats)
        keep_stats(clocked_mcts_player, stats)
        return move

    clocked_mcts_player.__doc__ = 'Monte Carlo tree search, play-outs while its clock allows.'
    return clocked_mcts_player
