"""The numbers a learning agent's actions have: a game's own (action_count and
action_number), or, for a game without them, the moves of its reachable positions
numbered in the order a walk from the start finds them."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Sequence

from ..base import Game, State
from ..stochastic import StochasticGame, is_chance_node

MOST_POSITIONS = 20_000
"""The most positions walked to number a game's moves, or to observe its positions."""


@dataclass(frozen=True)
class Numbering:
    """How a game's moves are numbered for a learning agent: count actions, and each
    move a number, or the tuple of its steps' numbers (a move made in steps)."""

    count: int
    number: Callable[[Any], int | tuple[int, ...]]

    def steps(self, move: Any) -> tuple[int, ...]:
        """Return the numbers of a move's steps (one for a move made at once)."""
        number = self.number(move)
        return number if isinstance(number, tuple) else (number,)

    def choices(self, game: Game, state: State, made: tuple[int, ...]) -> dict[int, Any]:
        """Return the numbers of the next step a player may take in state, having
        taken the steps made of a move, each with the move it completes (None while the
        move goes on). Raises ValueError where two legal moves share their numbers."""
        moves = game.actions(state)
        if not made:  # most often each move is one step: a dict of them is all it takes
            numbers = [self.number(move) for move in moves]
            if all(type(number) is int for number in numbers):
                simple: dict[int, Any] = dict(zip(numbers, moves))  # type: ignore[arg-type]
                if len(simple) == len(moves) and 0 <= min(simple, default=0) \
                        and max(simple, default=0) < self.count:
                    return simple
        choices: dict[int, Any] = {}
        finished: dict[tuple[int, ...], Any] = {}
        depth = len(made)
        for move in moves:
            steps = self.steps(move)
            if steps[:depth] != made or len(steps) == depth:
                continue
            if steps in finished:
                raise ValueError(f'the moves {finished[steps]!r} and {move!r} have the same '
                                 f'action numbers {list(steps)}: action_number must tell '
                                 f'the legal moves of a state apart')
            finished[steps] = move
            following = steps[depth]
            if type(following) is not int or not 0 <= following < self.count:
                raise ValueError(f'action_number({move!r}) gave {following!r}, not a whole '
                                 f'number from 0 to action_count() - 1 = {self.count - 1}')
            choices[following] = move if len(steps) == depth + 1 else choices.get(following)
        return choices


def numbering_of(game: Game) -> Numbering:
    """Return the game's own numbering of its moves, or one found by walking its
    reachable positions. Raises ValueError, saying what to add, for a game with
    neither its own numbering nor few enough positions."""
    count = game.action_count()
    if count is not None:
        return Numbering(count, game.action_number)
    found: dict[Hashable, int] = {}
    for state in reachable(game):
        for move in game.actions(state):
            found.setdefault(_key(game, move), len(found))
    return Numbering(max(len(found), 1), lambda move: found[frozen(move)])


def frozen(value: Any) -> Hashable:
    """Return value as a key that can be hashed, the same for equal values, as AIMA's
    states need (their boards are lists and dicts): lists and tuples as tuples, sets
    as frozensets, dicts as frozensets of their items, other objects as their class
    and their attributes. Raises TypeError for an object with none of these."""
    if isinstance(value, (list, tuple)):
        return tuple(map(frozen, value))
    if isinstance(value, (set, frozenset)):
        return frozenset(map(frozen, value))
    if isinstance(value, dict):
        return frozenset((frozen(key), frozen(item)) for key, item in value.items())
    try:
        hash(value)
        return value  # type: ignore[no-any-return]
    except TypeError:
        if not hasattr(value, '__dict__'):
            raise
        return type(value).__qualname__, frozen(vars(value))


def reachable(game: Game, most: int | None = None) -> list[State]:
    """Return the positions reachable from the start (after each roll, in a game of
    chance) in the order a breadth-first walk finds them. Raises ValueError past
    most positions (default MOST_POSITIONS), saying what the game may give instead,
    or for positions that cannot be told apart (see frozen)."""
    most = MOST_POSITIONS if most is None else most
    seen: dict[Hashable, State] = {_key(game, game.initial): game.initial}
    frontier: deque[State] = deque([game.initial])
    while frontier:
        for following in _following(game, frontier.popleft()):
            key = _key(game, following)
            if key not in seen:
                seen[key] = following
                frontier.append(following)
        if len(seen) > most:
            raise ValueError(f'{game!r} has more than {most} positions, too many to number '
                             f'its moves and observe its positions: give its class '
                             f'action_count, action_number and observation '
                             f'(see docs/learning.md)')
    return list(seen.values())


def _key(game: Game, value: Any) -> Hashable:
    """Return frozen(value), a position or a move of game; raise ValueError, saying
    what the game may give instead, for one that cannot be frozen."""
    try:
        return frozen(value)
    except TypeError as error:
        raise ValueError(f"{game!r}'s positions or moves cannot be hashed ({error}): give "
                         f'its class action_count, action_number and observation '
                         f'(see docs/learning.md)') from None


def _following(game: Game, state: State) -> Sequence[State]:
    """Return the positions one roll or one move after state."""
    if is_chance_node(game, state):
        assert isinstance(game, StochasticGame)
        return [game.outcome(state, chance) for chance in game.chances(state)]
    if game.terminal_test(state):
        return []
    return [game.result(state, move) for move in game.actions(state)]
