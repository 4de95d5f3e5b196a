"""Issue 29's goals for the engine, each beside its anchor: the cold solve of each
start position against the fastest peer, Connect Four against Pons' solver, and
perft against OpenSpiel's C++ games. The bench command prints them last, from the
measurements of its tables (the tournament's goals are benchmark_tournament's)."""

from __future__ import annotations

import statistics

from .speed import ENGINE, TEXTBOOK, ConnectFourSet

START_GOAL = 30.0
"""The engine's cold solve of a start position: at least this many times faster
than the fastest peer (easyAI, OpenSpiel's Python search)."""
CONNECT_FOUR_GOAL = 10.0
"""Connect Four: the engine's median at most this many times Pons' on a set."""
PERFT_GOAL = 2.0
"""Perft through the Game API: at most this many times OpenSpiel's C++ games."""
HEADERS = ['Measure', 'Anchor', 'Now', 'Ratio', 'Goal', '']


def start_row(name: str, measures: list) -> list | None:
    """The goal's row of a start position: the engine's time beside the fastest
    peer that finished (None without a peer)."""
    ours = measures[0]
    peers = [measure for measure in measures[1:]
             if measure.solver not in (ENGINE, TEXTBOOK) and measure.value is not None]
    if ours.seconds is None or not peers:
        return None
    fastest = min(peers, key=lambda measure: measure.seconds)
    ratio = fastest.seconds / ours.seconds
    return [f'cold solve, {name}', f'{fastest.solver}: {fastest.seconds * 1000:.2f} ms',
            f'{ours.seconds * 1000:.2f} ms', f'{ratio:,.0f}x faster',
            f'at least {START_GOAL:g}x faster', _met(ratio >= START_GOAL)]


def connect_four_row(result: ConnectFourSet, medians: dict, source: str) -> list | None:
    """The goal's row of a Connect Four set: the engine's median beside Pons'."""
    pons = medians.get(result.moves)
    if not result.seconds or not pons:
        return None
    median = statistics.median(result.seconds)
    return [f'Connect Four, {result.moves} moves played', f'Pons ({source}): '
            f'{pons * 1e6:,.1f} µs', f'{median * 1e6:,.1f} µs', f'{median / pons:,.0f}x',
            f'at most {CONNECT_FOUR_GOAL:g}x', _met(median / pons <= CONNECT_FOUR_GOAL)]


def perft_row(row: list) -> list | None:
    """The goal's row of a game's perft, from its row of boards.run_perft."""
    name, depth, _, theirs, ours, ratio, _ = row
    if ratio == '–':
        return None
    value = float(ratio.rstrip('×'))
    return [f'perft, {name} to depth {depth}', f'OpenSpiel: {theirs} ms', f'{ours} ms',
            ratio, f'at most {PERFT_GOAL:g}x', _met(value <= PERFT_GOAL)]


def _met(met: bool) -> str:
    """The last column: whether the goal is met."""
    return 'met' if met else 'NOT MET'
