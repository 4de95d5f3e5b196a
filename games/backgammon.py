"""Backgammon with the real rules of play: the bar, hitting, bearing off, doubles
played four times, and as much of the roll as possible must be used.

Points are numbered 1 to 24 in the direction W moves: W moves from 24 down to 1
and bears off from its home board, points 1-6; B moves from 1 up to 24 and
bears off from 19-24. In a step (from, to), W's bar is 25 and its bearing off
goes to 0; B's bar is 0 and its bearing off goes to 25. A move is the whole
sequence of steps a roll allows, such as ((24, 18), (13, 11)); () passes when
the roll cannot be used at all. W moves first, with an ordinary roll. There is
no doubling cube, and a win counts 1 (no gammons)."""

from __future__ import annotations

import ast
import itertools
import re
from collections import namedtuple
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from .base import IllegalMoveError
from .stochastic import StochasticGame, StochasticGameState, from_json

if TYPE_CHECKING:  # the fields' types, for mypy
    class BackgammonBoard(NamedTuple):
        points: tuple[int, ...]
        bar: tuple[int, int]
        off: tuple[int, int]
else:
    BackgammonBoard = namedtuple('BackgammonBoard', 'points, bar, off')
BackgammonBoard.__doc__ = """A backgammon position: points, a tuple of 24 counts (index 0 is
point 1; W's checkers count positive, B's negative); bar, the checkers (W, B) on the bar;
off, the checkers (W, B) borne off."""

CHECKERS = 15
BAR, OFF = 25, 0
"""In the mover's own numbering (used to generate moves): the bar and bearing off."""
PLACES = 26  # the places a step goes from or to: 0 to 25
HOME = 6
Step = tuple[int, int]
"""A step of one checker, (from, to), in the board's numbering."""
BackgammonMove = tuple[Step, ...]
"""A whole move: the steps a roll allows, () to pass."""
Roll = tuple[int, int]
"""A roll of two dice, (low, high)."""
ROLLS = tuple(itertools.combinations_with_replacement(range(1, 7), 2))
"""The 21 distinct rolls of two dice, each as (low, high)."""


def _start() -> BackgammonBoard:
    """The starting position."""
    points = [0] * 24
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        points[point - 1] = count
        points[24 - point] = -count
    return BackgammonBoard(points=tuple(points), bar=(0, 0), off=(0, 0))


class Backgammon(StochasticGame):
    """A two player game where the goal of each player is to move all the
    checkers off the board. The moves for each state are determined by
    rolling a pair of dice."""

    name = 'backgammon'
    players = ('W', 'B')

    def __init__(self) -> None:
        self.initial = StochasticGameState(to_move='W', utility=0, board=_start(), moves=(),
                                           chance=None)

    def chances(self, state: StochasticGameState) -> tuple[Roll, ...]:
        """Return the 21 distinct rolls of two dice, as (low, high)."""
        return ROLLS

    def probability(self, chance: Roll) -> float:
        """Return the probability of a roll: 1/36 for a double, 1/18 otherwise."""
        return 1 / 36 if chance[0] == chance[1] else 1 / 18

    def outcome(self, state: StochasticGameState, chance: Roll) -> StochasticGameState:
        """Return the state with the dice showing chance, and its legal moves."""
        if chance not in ROLLS:
            raise IllegalMoveError(f'impossible roll {chance!r}: a roll is (low, high) of 1 to 6')
        return state._replace(moves=legal_moves(state.board, state.to_move, chance), chance=chance)

    def actions(self, state: StochasticGameState) -> tuple[BackgammonMove, ...]:
        """The legal moves for the roll (none before the roll)."""
        moves: tuple[BackgammonMove, ...] = state.moves  # as outcome gives them
        return moves

    def result(self, state: StochasticGameState, move: BackgammonMove) -> StochasticGameState:
        """Return the state after the whole move; the other player's dice are still to be rolled."""
        if state.chance is None:
            raise IllegalMoveError(f'illegal move {move!r}: the dice are still to be rolled')
        if move not in state.moves:
            shown = ', '.join(self.describe_move(legal) for legal in state.moves[:8])
            more = ', ...' if len(state.moves) > 8 else ''
            raise IllegalMoveError(f'illegal move {move!r} for the roll {state.chance}: the '
                                   f'legal moves include {shown}{more}')
        player = state.to_move
        view = _View(state.board, player)
        for start, end in move:
            view.step(_own(start, player), _own(end, player))
        board = view.board()
        utility = 0
        if board.off[0] == CHECKERS:
            utility = 1
        elif board.off[1] == CHECKERS:
            utility = -1
        return StochasticGameState(to_move='B' if player == 'W' else 'W', utility=utility,
                                   board=board, moves=(), chance=None)

    def utility(self, state: StochasticGameState, player: str) -> float:
        """Return the value to player; 1 for win, -1 for loss, 0 otherwise."""
        return state.utility if player == 'W' else -state.utility

    def terminal_test(self, state: StochasticGameState) -> bool:
        """A state is terminal if one player has borne off every checker."""
        return state.utility != 0

    def evaluate(self, state: StochasticGameState, player: str) -> float:
        """The race: the opponent's pip count less the player's (the steps each still
        has to move to bear off every checker), squashed into (-0.9, 0.9)."""
        pips = pip_counts(state.board)
        lead = pips[1] - pips[0] if player == 'W' else pips[0] - pips[1]
        return 0.9 * lead / (abs(lead) + 30)

    def state_json(self, state: StochasticGameState) -> dict[str, Any]:
        """Return the player to move, the 24 points (W's checkers positive, B's
        negative; points[0] is point 1), the checkers on the bar and borne off, each
        [W, B], and the roll [low, high]."""
        board = state.board
        return {'to_move': state.to_move, 'points': list(board.points), 'bar': list(board.bar),
                'off': list(board.off), 'roll': None if state.chance is None else list(state.chance)}

    def action_count(self) -> int:
        """A number for each step (from, to) of places 0 to 25, and one for passing."""
        return PLACES * PLACES + 1

    def action_number(self, move: BackgammonMove) -> tuple[int, ...]:
        """A move is made in steps: (from, to) is from * 26 + to, in the board's
        numbering; passing, (), is 26 * 26."""
        return tuple(start * PLACES + end for start, end in move) or (PLACES * PLACES,)

    def observation(self, state: StochasticGameState, player: str) -> list[int]:
        """From player's side: the player's and the opponent's checkers on each point
        (point 1 of player's own numbering first), on the bar and borne off, then the
        dice (0 and 0 before the roll)."""
        points, bar, off = state.board
        sign, at = (1, 0) if player == 'W' else (-1, 1)
        counts = [max(side * sign * count, 0) for count in points[::sign] for side in (1, -1)]
        return [*counts, bar[at], bar[1 - at], off[at], off[1 - at], *(state.chance or (0, 0))]

    def display(self, state: StochasticGameState) -> None:
        """Print the board: points 13-24 along the top, 12-1 along the bottom (the
        last move is not marked: see the moves printed as they are played)."""
        print(draw(state.board))
        if self.terminal_test(state):
            print(f'{"W" if state.utility > 0 else "B"} has borne off every checker')
        elif state.chance is None:
            print(f'{state.to_move} to roll')
        else:
            print(f'{state.to_move} to move, {self.describe_chance(state.chance)}')

    def describe_move(self, move: BackgammonMove) -> str:
        """A move in the usual notation: 'bar/22 13/11', '6/off', or 'pass'."""
        if not move:
            return 'pass'
        player = 'W' if _moves_down(move) else 'B'
        return ' '.join(f'{_name(start, player)}/{_name(end, player)}' for start, end in move)

    def parse_move(self, text: str, state: StochasticGameState) -> BackgammonMove:
        """Read the usual notation: steps such as '24/18 13/11' (or '24/18/13' for one
        checker moving twice, 'bar/22', '6/off'; a trailing '*' for a hit is allowed),
        'pass', or a move as a Python literal. Steps in any order that lead to the
        position a legal move leads to are that move."""
        text = text.strip()
        if text.startswith('('):
            try:
                steps = from_json(ast.literal_eval(text))
            except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                raise ValueError(f'cannot read {text!r} as a move') from None
        else:
            steps = self._read_steps(text, state.to_move)
        return self.same_move(state, steps)

    def _read_steps(self, text: str, player: str) -> BackgammonMove:
        """Read steps in the usual notation, or 'pass'."""
        words = text.replace(',', ' ').split()
        if [word.lower() for word in words] == ['pass']:
            return ()
        if not words:
            raise ValueError("expected steps such as '24/18 13/11', or 'pass'")
        steps: list[tuple[int, int]] = []
        for word in words:
            places = [_place(part, player) for part in word.rstrip('*').split('/')]
            if len(places) < 2:
                raise ValueError(f'expected a step such as 24/18, got {word!r}')
            steps += zip(places, places[1:])
        return tuple(steps)

    def same_move(self, state: StochasticGameState, steps: BackgammonMove) -> BackgammonMove:
        """Return the legal move that leads where steps lead (steps themselves if none does)."""
        if state.chance is None or steps in state.moves:
            return steps
        try:
            view = _View(state.board, state.to_move)
            for start, end in steps:
                start, end = _own(start, state.to_move), _own(end, state.to_move)
                if not (0 <= end < start <= BAR and view.counts[start] > 0):
                    return steps
                view.step(start, end)
        except (TypeError, ValueError, IndexError):
            return steps
        board = view.board()
        legal: tuple[BackgammonMove, ...] = state.moves
        for move in legal:
            if self.result(state, move).board == board:
                return move
        return steps


def _own(point: int, player: str) -> int:
    """Turn a point of the board's numbering into the player's own (and back)."""
    return point if player == 'W' else 25 - point


def _moves_down(move: BackgammonMove) -> bool:
    """Does a (non-empty) move go from higher to lower points, as W's do?"""
    start, end = move[0]
    return end < start


def _name(point: int, player: str) -> str:
    """A point of a step as written: a number, 'bar' or 'off'."""
    own = _own(point, player)
    return 'bar' if own == BAR else 'off' if own == OFF else str(point)


def _place(word: str, player: str) -> int:
    """Read one place of a step: a point number, 'bar' or 'off'."""
    word = word.strip().lower()
    if word == 'bar':
        return _own(BAR, player)
    if word == 'off':
        return _own(OFF, player)
    if not re.fullmatch(r'\d{1,2}', word):
        raise ValueError(f"expected a point 1-24, 'bar' or 'off', got {word!r}")
    return int(word)


class _View:
    """A position from one player's side, to generate and make moves: counts[p] for
    the player's own point p (1-24, the player moving down towards 1; own checkers
    positive, the opponent's negative) and counts[25], the player's bar."""

    __slots__ = ('player', 'counts', 'opponent_bar', 'off', 'other_off')

    def __init__(self, board: BackgammonBoard, player: str) -> None:
        mine, theirs = (0, 1) if player == 'W' else (1, 0)
        if player == 'W':
            points = list(board.points)
        else:
            points = [-count for count in reversed(board.points)]
        self.player = player
        self.counts = [0] + points + [board.bar[mine]]
        self.opponent_bar = board.bar[theirs]
        self.off, self.other_off = board.off[mine], board.off[theirs]

    def copy(self) -> '_View':
        """Return an independent copy."""
        other = _View.__new__(_View)
        other.player, other.counts = self.player, self.counts[:]
        other.opponent_bar, other.off, other.other_off = self.opponent_bar, self.off, self.other_off
        return other

    def key(self) -> tuple[int, ...]:
        """What identifies the position."""
        return (*self.counts, self.opponent_bar, self.off)

    def board(self) -> BackgammonBoard:
        """Return the position as a board."""
        points = self.counts[1:25]
        if self.player == 'W':
            return BackgammonBoard(tuple(points), (self.counts[BAR], self.opponent_bar),
                                   (self.off, self.other_off))
        return BackgammonBoard(tuple(-count for count in reversed(points)),
                               (self.opponent_bar, self.counts[BAR]), (self.other_off, self.off))

    def target(self, start: int, die: int) -> int | None:
        """Return where a checker on start may move with die (OFF to bear off), or None."""
        counts = self.counts
        if counts[start] <= 0 or (counts[BAR] and start != BAR):
            return None
        end = start - die
        if end >= 1:
            return end if counts[end] >= -1 else None
        if any(counts[point] > 0 for point in range(HOME + 1, BAR + 1)):
            return None  # bearing off needs every checker home
        if end < 0 and any(counts[point] > 0 for point in range(start + 1, HOME + 1)):
            return None  # a higher die bears off only from the highest point
        return OFF

    def step(self, start: int, end: int) -> None:
        """Move one checker from start to end (OFF: bear it off), hitting a lone
        opposing checker there."""
        counts = self.counts
        counts[start] -= 1
        if end == OFF:
            self.off += 1
        else:
            if counts[end] == -1:
                counts[end] = 0
                self.opponent_bar += 1
            counts[end] += 1


_Found = dict[tuple[int, tuple[int, ...]], tuple[BackgammonMove, tuple[int, ...]]]
"""Sequences of steps found, by their length and the position they lead to: each
with the dice it used."""


def legal_moves(board: BackgammonBoard, player: str, dice: Roll) -> tuple[BackgammonMove, ...]:
    """Return every legal move of player for a roll, one per position it leads to,
    sorted: each the longest sequence of steps the dice allow, using the larger
    die when only one die can be used; ((),) when no step can be made."""
    low, high = dice
    found: _Found = {}
    start = _View(board, player)
    if low == high:
        _extend(start, [low] * 4, (), (), found, BAR)
    else:
        _extend(start, [low, high], (), (), found, None)
        _extend(start, [high, low], (), (), found, None)
    if not found:
        return ((),)
    longest = max(length for length, _ in found)
    moves = [found[key] for key in found if key[0] == longest]
    if longest == 1 and low != high and any(used == (high,) for _, used in moves):
        moves = [(steps, used) for steps, used in moves if used == (high,)]
    return tuple(sorted(tuple((_own(a, player), _own(b, player)) for a, b in steps)
                        for steps, _ in moves))


def _extend(view: _View, dice: list[int], steps: BackgammonMove, used: tuple[int, ...],
            found: _Found, highest: int | None) -> None:
    """Add to found every sequence of steps that goes on from steps with the dice left,
    keyed by its length and the position it ends in. For doubles, steps are made from ever lower
    (or equal) points, highest being the last start, so that each set of steps is
    tried in one order."""
    die, rest = dice[0], dice[1:]
    moved = False
    for start in range(BAR if highest is None else highest, 0, -1):
        end = view.target(start, die)
        if end is None:
            continue
        moved = True
        child = view.copy()
        child.step(start, end)
        now_steps, now_used = steps + ((start, end),), used + (die,)
        if rest:
            _extend(child, rest, now_steps, now_used, found,
                    None if highest is None else start)
        else:
            found.setdefault((len(now_steps), child.key()), (now_steps, now_used))
    if not moved and steps:
        found.setdefault((len(steps), view.key()), (steps, used))


def pip_counts(board: BackgammonBoard) -> tuple[int, int]:
    """Return (W's, B's) pip counts: the steps each must still move to bear off every checker."""
    white = sum(point * count for point, count in enumerate(board.points, 1) if count > 0)
    black = sum((25 - point) * -count for point, count in enumerate(board.points, 1) if count < 0)
    return white + 25 * board.bar[0], black + 25 * board.bar[1]


def draw(board: BackgammonBoard) -> str:
    """Return a picture of the board in text: W's checkers as W, B's as B, up to five
    in a column with the count in the fifth place when there are more."""
    def column(point: int) -> list[str]:
        count = board.points[point - 1]
        mark = 'W' if count > 0 else 'B'
        count = abs(count)
        cells = [f' {mark}'] * min(count, 5) + ['  '] * (5 - min(count, 5))
        if count > 5:
            cells[4] = f'{count:>2}'
        return cells

    def row(points: Iterable[int], level: int) -> str:
        cells = [column(point)[level] for point in points]
        return ' ' + ' '.join(cells[:6]) + ' | ' + ' '.join(cells[6:])

    top, bottom = range(13, 25), range(12, 0, -1)
    lines = [' ' + ' '.join(f'{point:>2}' for point in top[:6]) + ' | '
             + ' '.join(f'{point:>2}' for point in top[6:]) + f'    B off: {board.off[1]}']
    lines += [row(top, level) for level in range(5)]
    lines.append(f'{"":>18} bar: W {board.bar[0]}, B {board.bar[1]}')
    lines += [row(bottom, level) for level in reversed(range(5))]
    lines.append(' ' + ' '.join(f'{point:>2}' for point in bottom[:6]) + ' | '
                 + ' '.join(f'{point:>2}' for point in bottom[6:]) + f'    W off: {board.off[0]}')
    return '\n'.join(lines)
