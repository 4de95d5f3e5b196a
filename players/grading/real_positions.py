"""Real positions of the games for the grader's search checks: random games played
from the start until the game tree left is small enough to search in full."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from games import Game

TREE_LIMIT = 3000
"""The most states a position's full minimax tree may have."""
ATTEMPTS = 20
"""The random games played, at most, to find each game's small position."""


@lru_cache(maxsize=None)
def real_position(name: str, game: Game, ending: bool = False) -> tuple[Any, list] | None:
    """The small position of game (with ending, where the player to move can end the
    game at once) that random games seeded with its name reach first (see
    small_position), or None: found once for each search function's cases."""
    rng = random.Random(name)
    return next(filter(None, (small_position(game, rng, ending) for _ in range(ATTEMPTS))),
                None)


def small_position(game: Game, rng: random.Random,
                   ending: bool = False) -> tuple[Any, list] | None:
    """Play random moves from the start until the game tree is small, and the players
    alternate all through it (AIMA's searches take turns MAX and MIN, so a tree where
    a player moves twice, as in Kalah, is no fair check of them), and, with ending,
    the player to move can end the game at once but need not; return the state and
    the moves (None if the game ends first). A state's tree holds the trees of the
    states after it, so the first small one on the game's path is found by bisection."""
    path, moves = [game.initial], []
    while not game.terminal_test(path[-1]):
        moves.append(rng.choice(list(game.actions(path[-1]))))
        path.append(game.result(path[-1], moves[-1]))
    low, high = 0, len(path) - 1  # the end's tree is small: it has no states below it
    while low < high:
        middle = (low + high) // 2
        if tree_size(game, path[middle], TREE_LIMIT, alternating=True) <= TREE_LIMIT:
            high = middle
        else:
            low = middle + 1
    return next(((path[index], moves[:index]) for index in range(low, len(path) - 1)
                 if len(game.actions(path[index])) > 1
                 and (not ending or ends_at_once(game, path[index]))), None)


def ends_at_once(game: Game, state: Any) -> bool:
    """Can the player to move end the game at once with a win or a loss (a utility
    other than 0), and has it a move that does not end the game?"""
    player = game.to_move(state)
    children = [game.result(state, move) for move in game.actions(state)]
    over = [child for child in children if game.terminal_test(child)]
    return len(over) < len(children) and any(game.utility(child, player) for child in over)


def tree_size(game: Game, state: Any, limit: int, alternating: bool = False) -> int:
    """The number of states below state, counting up to just past limit (or limit + 1
    at once, if alternating, when a move lets the player to move move again)."""
    count = 0
    stack = [state]
    while stack and count <= limit:
        node = stack.pop()
        if not game.terminal_test(node):
            for move in game.actions(node):
                child = game.result(node, move)
                if alternating and game.to_move(child) == game.to_move(node) \
                        and not game.terminal_test(child):
                    return limit + 1
                stack.append(child)
                count += 1
    return count
