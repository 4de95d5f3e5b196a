"""Depth-limited alpha-beta for Connect Four on bit masks: the abN players'
search, giving exactly the values of AIMA's alpha_beta_cutoff_search.

A position N plies from the cut-off is scored as the textbook scores it: a
final position by its utility, a cut-off one by the game's evaluate. Rules that
the textbook's search would find by looking two plies ahead are applied at
once, and change no value: a player who can make four in a row wins (1); with
two plies left to look at, a player who cannot block every square where the
opponent would win at once loses (-1), must block the only one, and never
plays just under one. When the plies left reach the end of the game, the exact
solver answers. A transposition table keeps bounds per position and plies left,
and the best move found at a position is tried first at the next depth."""

from __future__ import annotations

import math
import time
from typing import Callable

from .connect4 import (DRAW, LOSS, TABLE_LIMIT, WIN, Counts, ExactTable, Shape, Solver,
                       moves_to_search)
from .timing import CHECK_EVERY, OutOfTime

Node = Callable[[int, int, int, float, float, int, int, int], float]
"""The depth-limited search: node(mine, mask, moves, alpha, beta, depth, wins, threats)."""


class DepthSearch:
    """Alpha-beta to a fixed depth on one board shape, with tables that may
    live on between searches: bounds by position and depth, best moves by
    position, evaluations by position, and the exact solver's table."""

    def __init__(self, shape: Shape, table: dict[int, tuple[float, float]], hints: dict[int, int],
                 scores: dict[int, float], exact_table: ExactTable,
                 deadline: float | None = None, symmetric: bool = False):
        self.shape, self.table, self.hints, self.scores = shape, table, hints, scores
        self.symmetric = symmetric
        self.deadline = deadline
        self.exact = Solver(shape, exact_table, deadline)
        self.winning = shape.winning
        self._node, self._counts = self._make_node()

    @property
    def nodes(self) -> int:
        """The number of positions searched so far (the exact solver's included)."""
        return self._counts()[0] + self.exact.nodes

    @property
    def hits(self) -> int:
        """The number of positions the tables answered without a search."""
        return self._counts()[1] + self.exact.hits

    def value(self, mine: int, mask: int, moves: int, depth: int,
              alpha: float = -math.inf, beta: float = math.inf) -> float:
        """Return the value of a position that is not over, for the player to move,
        looking depth plies ahead (fail-soft: a bound outside alpha..beta)."""
        winning, empty = self.winning, self.shape.board ^ mask
        return self._node(mine, mask, moves, alpha, beta, depth,
                          winning(mine, empty), winning(mine ^ mask, empty))

    def _make_node(self) -> tuple[Node, Counts]:
        """Return the search function, with everything it reads bound locally,
        and a function that returns its counts of nodes and table hits. (A search
        kernel: one long function on purpose, since a call per node costs time.)"""
        shape, table, hints, winning = self.shape, self.table, self.hints, self.winning
        bottom, board, size = shape.bottom, shape.board, shape.size
        ordered, evaluate, exact = shape.ordered, shape.evaluation(), self.exact
        get, hint_of, limit = table.get, hints.get, TABLE_LIMIT
        scores = self.scores
        score_of = scores.get
        check, clock, deadline = CHECK_EVERY, time.monotonic, self.deadline
        mirror, symmetric, searched = shape.mirror, self.symmetric, moves_to_search
        nodes = hits = 0

        def node(mine: int, mask: int, moves: int, alpha: float, beta: float, depth: int,
                 wins: int, threats: int) -> float:
            """Return the value of a position where no one has won yet and the board
            is not full, for the player to move, depth plies ahead: exact if strictly
            between alpha and beta, else a bound on the side it falls. wins and threats
            are the squares where the player to move and the opponent would make four."""
            nonlocal nodes, hits
            nodes += 1
            if not nodes & check and deadline is not None and clock() > deadline:
                raise OutOfTime
            if not depth:
                key = mine + mask
                score = score_of(key)
                if score is None:
                    if len(scores) >= limit:
                        scores.clear()
                    score = scores[key] = evaluate(mine, mine ^ mask)
                return score
            possible = (mask + bottom) & board
            if wins & possible:
                return WIN
            if depth >= size - moves:
                return exact.value(mine, mask, moves)
            if depth > 1:
                possible = searched(possible, threats)
                if not possible:
                    return LOSS
            key = mine + mask
            if symmetric:
                image = mirror(key)
                if image < key:
                    key = image
            slot = key << 6 | depth
            entry = get(slot)
            if entry is not None:
                low, high = entry
                if low >= beta or high <= alpha or low == high:
                    hits += 1
                    return low if low >= beta or low == high else high
                if low > alpha:
                    alpha = low
                if high < beta:
                    beta = high
            else:
                low, high = -math.inf, math.inf
            empty = board ^ mask
            first = hint_of(key, 0)
            if first and key != mine + mask:
                first = mirror(first)
            first &= possible
            children: list[tuple[int, int, int, int]] = []
            if depth > 1:
                for rank, column in ordered:
                    move = possible & column
                    if move and move != first:
                        made = winning(mine | move, empty ^ move)
                        children.append((made.bit_count(), rank, move, made))
                children.sort(reverse=True)
                if first:
                    children.insert(0, (0, 0, first, winning(mine | first, empty ^ first)))
            else:
                if first:
                    children.append((0, 0, first, 0))
                for rank, column in ordered:
                    move = possible & column
                    if move and move != first:
                        children.append((0, 0, move, 0))
            alpha_in, best, best_move = alpha, -math.inf, 0
            theirs = mine ^ mask
            moves += 1
            depth -= 1
            for _, _, move, made in children:
                if moves == size:
                    value: float = DRAW
                else:
                    value = -node(theirs, mask | move, moves, -beta, -alpha, depth,
                                  threats & ~move, made)
                if value > best:
                    best, best_move = value, move
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            break
            if len(table) >= limit:
                table.clear()
                hints.clear()
            if best <= alpha_in:
                table[slot] = (low, best if best < high else high)
            elif best >= beta:
                table[slot] = (best if best > low else low, high)
            else:
                table[slot] = (best, best)
            hints[key] = best_move if key == mine + mask else mirror(best_move)
            return best

        def counts() -> tuple[int, int]:
            return nodes, hits
        return node, counts


def best_move(search: DepthSearch, mine: int, mask: int, moves: int,
              depth: int) -> tuple[float, int]:
    """Return (value, column) for a position that is not over, depth plies ahead:
    the column (from 0) is the first, left to right, of the best moves, as
    AIMA's alpha_beta_cutoff_search chooses it. Shallower searches come first,
    to fill the tables that order the moves."""
    for shallower in range(1, depth):
        search.value(mine, mask, moves, shallower)
    value = search.value(mine, mask, moves, depth)
    shape = search.shape
    wins = search.winning(mine, shape.board ^ mask)
    below, above = -value, math.nextafter(-value, math.inf)
    playable = (mask + shape.bottom) & shape.board
    for x, column in enumerate(shape.columns):
        move = playable & column
        if not move:
            continue
        if move & wins:
            if value == WIN:
                return value, x
        elif moves + 1 == shape.size:
            return value, x
        elif search.value(mine ^ mask, mask | move, moves + 1, depth - 1, below, above) <= below:
            return value, x
    raise AssertionError('no move reaches the value of its position')
