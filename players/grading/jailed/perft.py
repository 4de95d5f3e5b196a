"""Perft, counted the same way for the reference, in the grader's process, and for a
student's Game class, in its jail (see rules): how many move sequences of each
length there are from the start."""

from __future__ import annotations

from typing import Any, Callable


def count_sequences(start: Any, actions: Callable, result: Callable, over: Callable,
                    depth: int, limit: int) -> list[int]:
    """Perft: the number of move sequences of each length up to depth from start, none
    going on past the end of a game, stopping before a length with more than limit."""
    counts: list[int] = []
    level = [start]
    while len(counts) < depth:
        following = []
        for state in level:
            for move in [] if over(state) else actions(state):
                following.append(result(state, move))
                if len(following) > limit:
                    return counts
        counts.append(len(following))
        level = following
    return counts
