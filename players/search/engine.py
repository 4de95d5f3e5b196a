"""The search engine: negamax with alpha-beta, a transposition table and move
ordering; exact full-depth solving and depth-limited search with iterative deepening.

Values are exactly those of AIMA's minimax (the root player maximises at even
plies, the other player minimises at odd ones), and the move chosen is the
first move in actions order with the best value, as the textbook searches
choose; the table and the move order only make the search faster. Connect
Four (four in a row, any board) has searches of its own on bit masks
(players.search.connect4 and players.search.connect4_search), and so have Nim and Grundy's game
solved to the end (players.search.pile_search), with the same values and moves.
A search given a deadline (a time.monotonic() time) raises OutOfTime past it."""

from __future__ import annotations

import math
import time
from typing import Callable, Hashable, Protocol, TypeGuard, cast

from games.base import Game, Move
from games.grid import ConnectFour
from games.stochastic import StochasticGame

from . import connect4
from .connect4_search import DepthSearch, best_move
from .expectimax import search_chance, solve_chance
from .pile_search import pile_search
from .positions import (GamePositions, Key, KnownPositions, PilePositions, Position,
                        is_won_or_lost, positions_for)
from .shared import (EXACT, LOWER, TABLE_LIMIT, UPPER, EvalFn, SearchStats, Solution, State,
                     cached_table)
from .timing import CHECK_EVERY, OutOfTime

Entry = tuple[float, int, Key | None]
"""A table's entry: a value, its kind (EXACT, LOWER or UPPER) and the key of the best child."""


class Counted(Protocol):
    """A search that counts its nodes and the positions its tables answered."""

    @property
    def nodes(self) -> int:
        """The nodes searched."""

    @property
    def hits(self) -> int:
        """The positions a table answered without a search."""


class _Search:
    """One search: negamax over a game's positions with a bounded table."""

    def __init__(self, positions: GamePositions, table: dict[Key, Entry],
                 hints: dict[Key, Key | None] | None = None, deadline: float | None = None):
        self.positions, self.table, self.hints = positions, table, hints
        self.deadline = deadline
        self.nodes = self.hits = self.cutoffs = 0
        self._won: tuple[Callable[[Hashable], int], Callable[[], tuple[int, int]]] | None = None

    def node(self, pos: Position, key: Key | None, alpha: float, beta: float, depth: int,
                 sign: int) -> float:
        """Return the value of pos for the player to move: exact if strictly between
        alpha and beta, else a bound on the side it falls (fail-soft). depth < 0
        searches to the end; depth 0 evaluates; sign is +1 where the root player moves."""
        self.nodes += 1
        if not self.nodes & CHECK_EVERY and self.deadline is not None \
                and time.monotonic() > self.deadline:
            raise OutOfTime
        positions = self.positions
        value = positions.outcome(pos, sign)
        if value is not None:
            return value
        if depth == 0:
            self.cutoffs += 1
            return positions.evaluate(pos, sign)
        table, hints = self.table, self.hints
        slot = None if key is None else key if depth < 0 else (key, depth)
        entry = None if slot is None else table.get(slot)
        first = None
        alpha_in = alpha
        if entry is not None:
            value, flag, first = entry
            if flag == EXACT:
                self.hits += 1
                return value
            if flag == LOWER:
                if value > alpha:
                    alpha = value
            elif value < beta:
                beta = value
            if alpha >= beta:
                self.hits += 1
                return value
        elif hints is not None and key is not None:
            first = hints.get(key)
        if 0 <= depth < 2:
            children = positions.children(pos, sign)
        else:
            children = positions.children_to_search(pos, sign)
        key_of = positions.key
        if first is not None:
            for index, child in enumerate(children):
                if key_of(child, -sign) == first:
                    if index:
                        children.insert(0, children.pop(index))
                    break
            else:
                first = None
        best, best_key = -math.inf, None
        same_mover = None if positions.alternates else positions.same_mover
        for child in children:
            if first is None:
                child_key = key_of(child, -sign)
            else:
                child_key, first = first, None
            if same_mover is not None and same_mover(pos, child):  # moves again (Kalah)
                value = self.node(child, child_key, alpha, beta, depth - 1, sign)
            else:
                value = -self.node(child, child_key, -beta, -alpha, depth - 1, -sign)
            if value > best:
                best, best_key = value, child_key
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if slot is not None:
            if len(table) >= TABLE_LIMIT:
                table.clear()
            flag = UPPER if best <= alpha_in else LOWER if best >= beta else EXACT
            if depth < 0 and best in positions.bounds:  # no value lies beyond the bounds
                flag = EXACT
            table[slot] = (best, flag, best_key)
            if hints is not None:
                if len(hints) >= TABLE_LIMIT:
                    hints.clear()
                hints[key] = best_key
        return best

    def top(self, pos: Position, key: Key | None, alpha: float, beta: float, depth: int,
                sign: int) -> float:
        """Return node(...), or the exact value where every position is won or lost
        and the search goes to the end (by players.search.pile_search, without windows)."""
        positions = self.positions
        if depth >= 0 or not is_won_or_lost(positions):
            return self.node(pos, key, alpha, beta, depth, sign)
        if self._won is None:  # a solve's table holds pile_search's values alone (1 or -1)
            table = cast('dict[Hashable, int]', self.table)
            self._won = pile_search(positions, table, TABLE_LIMIT, self.deadline)
        won, counts = self._won
        try:
            return won(pos)
        finally:
            self.nodes, self.hits = counts()

    def value(self, state: State, depth: int) -> float:
        """Return the value of a state for the player to move, searched depth plies
        ahead (to the end if depth < 0)."""
        positions = self.positions
        pos = positions.encode(state)
        low, high = positions.bounds
        return self.top(pos, positions.key(pos, 1), low, high, depth, 1)

    def root(self, game: Game, state: State, depth: int) -> Solution:
        """Return the root's value and its first best move in actions order:
        search the root, then test the moves in order with a null window (from the
        root player's side when a move lets them move again)."""
        positions = self.positions
        value = self.value(state, depth)
        move = None
        if not game.terminal_test(state):
            pos = positions.encode(state)
            for move in game.actions(state):
                child = positions.child(pos, state, move)
                if not positions.alternates and positions.same_mover(pos, child):
                    below = math.nextafter(value, -math.inf)
                    if self.node(child, positions.key(child, 1), below, value,
                                 depth - 1, 1) >= value:
                        break
                elif self.top(child, positions.key(child, -1), -value,
                              math.nextafter(-value, math.inf), depth - 1, -1) <= -value:
                    break
        return Solution(value, move, self.nodes)


def _context(positions: GamePositions, kind: str) -> tuple[object, ...] | None:
    """The cache key of a search's table, or None for a fresh table each time:
    known games' tables are shared by their rules; other games' are never kept."""
    rules = positions.rules()
    return None if rules is None else rules + (kind,)


def _searcher(positions: GamePositions, kind: str, depth_limited: bool,
              deadline: float | None = None) -> _Search:
    """Make a search of a game's positions, with its (possibly cached) tables."""
    context = _context(positions, kind)
    table = {} if context is None else cached_table(context)
    hints = None
    if depth_limited:
        hints = {} if context is None else cached_table(context + ('hints',))
    return _Search(positions, table, hints, deadline)


def is_connect_four(game: Game, eval_fn: EvalFn | None = None) -> TypeGuard[ConnectFour]:
    """Do Connect Four's own searches apply (four in a row, the game's own evaluation)?"""
    return eval_fn is None and type(game) is ConnectFour and game.k == 4


def _connect_four_solver(game: ConnectFour, deadline: float | None) -> connect4.Solver:
    """Make Connect Four's exact solver for a game, with its cached table."""
    shape = connect4.Shape.of(game.h, game.v)
    return connect4.Solver(shape, _exact_table(shape), deadline)


def _exact_table(shape: connect4.Shape) -> connect4.ExactTable:
    """The cached table of Connect Four's exact solver on a board shape."""
    return cached_table((ConnectFour, shape.h, shape.v, 'solve'), lambda: connect4.new_table(shape))


def _report(stats: SearchStats | None, searcher: Counted, depth: int) -> None:
    """Put a search's nodes, table hits and depth (-1: to the end) into stats, if given."""
    if stats is not None:
        stats.nodes, stats.hits, stats.depth = searcher.nodes, searcher.hits, depth


def value(game: Game, state: State = None, stats: SearchStats | None = None,
          deadline: float | None = None) -> float:
    """Return the game-theoretic value of a state (the initial state by default)
    for the player to move, without looking for a move (for Connect Four, what
    Pons calls a weak solve: win 1, draw 0, loss -1). If stats is given (a
    SearchStats), it receives nodes, hits and depth (-1)."""
    state = game.initial if state is None else state
    if is_connect_four(game) and not game.terminal_test(state):
        solver = _connect_four_solver(game, deadline)
        try:
            return solver.value(*solver.encode(state))
        finally:
            _report(stats, solver, -1)
    searcher = _searcher(positions_for(game, game.to_move(state)), 'solve', False, deadline)
    try:
        return searcher.value(state, -1)
    finally:
        _report(stats, searcher, -1)


def solve(game: Game, state: State = None, stats: SearchStats | None = None,
          deadline: float | None = None) -> Solution:
    """Solve a game exactly from a state (the initial state by default): its
    game-theoretic value for the player to move, the first best move in
    actions order and the nodes searched. If stats is given (a SearchStats), it
    receives nodes, hits and depth (-1: to the end)."""
    if isinstance(game, StochasticGame):  # chance nodes: expectiminimax
        return solve_chance(game, state, stats)
    state = game.initial if state is None else state
    if is_connect_four(game) and not game.terminal_test(state):
        solver = _connect_four_solver(game, deadline)
        shape = solver.shape
        mine, mask, moves = solver.encode(state)
        try:
            result, x = solver.best_move(mine, mask, moves)
        finally:
            _report(stats, solver, -1)
        return Solution(result, shape.square(mask, x), solver.nodes)
    positions = positions_for(game, game.to_move(state))
    if is_won_or_lost(positions):
        return _solve_won_or_lost(game, state, positions, stats, deadline)
    searcher = _searcher(positions, 'solve', False, deadline)
    try:
        return searcher.root(game, state, -1)
    finally:
        _report(stats, searcher, -1)


def _solve_won_or_lost(game: Game, state: State, positions: PilePositions,
                       stats: SearchStats | None,
                       deadline: float | None) -> Solution:
    """Solve a state of a game whose every position is won or lost (by
    players.search.pile_search): the first move in actions order to a lost position wins
    (1); if none does, every move loses (-1), and the first is the move."""
    pos = positions.encode(state)
    won, counts = pile_search(positions, cached_table(_context(positions, 'solve')),
                              TABLE_LIMIT, deadline)
    value, best = positions.outcome(pos, 1), None
    try:
        if value is None:
            value = -1
            for move in game.actions(state):
                if best is None:
                    best = move
                if won(positions.child(pos, state, move)) < 0:
                    value, best = 1, move
                    break
    finally:
        nodes, hits = counts()
        if stats is not None:
            stats.nodes, stats.hits, stats.depth = nodes + 1, hits, -1
    return Solution(value, best, nodes + 1)



def search(game: Game, state: State, depth: int, eval_fn: EvalFn | None = None,
           stats: SearchStats | None = None, deadline: float | None = None) -> Solution:
    """Search depth plies ahead by iterative deepening, scoring final states by
    their utility and cut-off states by eval_fn(game, state, player) (by default
    game.evaluate(state, player)), player being the one to move at the root.
    The move is the one alpha_beta_cutoff_search(state, game, d=depth-1) chooses.
    If stats is given (a SearchStats), it receives nodes, hits, depth and exact: whether the
    value is the game's exact value (the game ends within depth plies, or the
    value is a win or a loss of a known game, whose evaluation stays between)."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f'depth must be a whole number >= 1, got {depth!r}')
    if isinstance(game, StochasticGame):  # chance nodes: expectiminimax
        return search_chance(game, state, depth, eval_fn, stats, deadline)
    if is_connect_four(game, eval_fn) and not game.terminal_test(state):
        shape = connect4.Shape.of(game.h, game.v)
        context = (ConnectFour, game.h, game.v)
        mine, mask, moves = shape.encode(state)
        table, hints, scores = (cached_table(context + (kind,))
                                for kind in ('evaluate', 'hints', 'scores'))
        deepening = DepthSearch(shape, table, hints, scores, _exact_table(shape), deadline,
                                symmetric=shape.mirror(mine + mask) == mine + mask)
        try:
            result, x = best_move(deepening, mine, mask, moves, depth)
        finally:
            _report(stats, deepening, depth)
        solution = Solution(result, shape.square(mask, x), deepening.nodes)
        exact = result in (connect4.WIN, connect4.LOSS) or shape.size - moves <= depth
    else:
        searcher = _searcher(positions_for(game, game.to_move(state), eval_fn), 'evaluate', True,
                             deadline)
        try:
            for shallower in range(1, depth):
                searcher.value(state, shallower)
            before = searcher.cutoffs, searcher.hits
            solution = searcher.root(game, state, depth)
        finally:
            _report(stats, searcher, depth)
        exact = _exact(game, searcher.positions, state, depth, solution.value, eval_fn,
                       (searcher.cutoffs, searcher.hits) == before)
    if stats is not None:
        stats.exact = exact
    return solution


def _exact(game: Game, positions: GamePositions, state: State, depth: int, result: float,
           eval_fn: EvalFn | None, no_cut_offs: bool) -> bool:
    """Is a value found depth plies ahead the game's exact value? For a known game:
    when it ends within depth plies, or (with its own evaluation) the value is a
    win or a loss; for another game, when the last search met no cut-off state
    and no table entry that might hide one."""
    if not isinstance(positions, KnownPositions):
        known = positions_for(game, game.to_move(state))
        if not isinstance(known, KnownPositions):
            return no_cut_offs
        positions = known
    elif eval_fn is None and result in positions.bounds:
        return True
    return positions.plies_left(positions.encode(state)) <= depth


def solve_player(game: Game, state: State) -> Move | None:
    """A perfect player: exact full-depth search (negamax, alpha-beta, transposition table)."""
    stats = SearchStats()
    move = solve(game, state, stats=stats).move
    keep_stats(solve_player, stats)
    return move


def keep_stats(player: Callable[..., object], stats: SearchStats) -> None:
    """Keep a search's stats on the player function that made it, as player.stats,
    a plain dict (stats.reported()), where the referee reads them after each move."""
    player.stats = stats.reported()  # type: ignore[attr-defined]  # an attribute of a function
