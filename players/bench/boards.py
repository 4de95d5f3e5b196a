"""The benchmark of Othello, Kalah, Hex and Breakthrough: move counts from the start
(perft) through the Game API beside OpenSpiel's C++ games driven from Python, and
abN's first move on each full-size variant; every figure a cold start (a fresh
process, the libraries imported, nothing searched or played), each count the best
of PERFT_REPEAT runs of each side, taken in turns."""

from __future__ import annotations

import variants
from games.base import Game

from players.search import engine
from players.search.shared import SearchStats

from .speed import cold
from .peers import PRELOADS, Unsupported, installed

PERFT = [
    ('Othello 8x8', 'othello(n=8)', 'othello', 7),
    ('Kalah 6 pits, 4 seeds', 'kalah(pits=6, seeds=4)', 'mancala', 8),
    ('Hex 5x5', 'hex(n=5)', 'hex(board_size=5)', 3),
    ('Breakthrough 6x6', 'breakthrough(rows=6, columns=6)', 'breakthrough(rows=6,columns=6)', 4),
]
"""(name, our spec, OpenSpiel's game, depth) of the move counts measured."""

FIRST_MOVE_VARIANTS = ('othello', 'othello-6x6', 'kalah', 'hex', 'hex-11', 'breakthrough',
                       'breakthrough-6x6')
FIRST_MOVE_DEPTH = 4


def perft(game: Game, state, depth: int, bulk: bool = False) -> int:
    """The move sequences of length depth from state, through actions and result
    (each played to its end, or with bulk the last ply only counted)."""
    moves = game.actions(state)
    if depth == 1 and bulk:
        return len(moves)
    if depth == 1:
        for move in moves:
            game.result(state, move)
        return len(moves)
    return sum(perft(game, game.result(state, move), depth - 1, bulk) for move in moves)


def perft_openspiel(state, depth: int, bulk: bool = False) -> int:
    """The same count for an OpenSpiel state, through legal_actions and child."""
    moves = [] if state.is_terminal() else state.legal_actions()
    if depth == 1 and bulk:
        return len(moves)
    if depth == 1:
        for move in moves:
            state.child(move)
        return len(moves)
    return sum(perft_openspiel(state.child(move), depth - 1, bulk) for move in moves)


def _ours(spec: str, depth: int) -> tuple:
    """Count through the Game API: (count, None)."""
    game = variants.make(spec)
    return perft(game, game.initial, depth), None


def _openspiel(name: str, depth: int) -> tuple:
    """Count with OpenSpiel: (count, None)."""
    if not installed('pyspiel'):
        raise Unsupported('OpenSpiel is not installed (pip install open-spiel)')
    import pyspiel
    return perft_openspiel(pyspiel.load_game(name).new_initial_state(), depth), None


PRELOADS[_openspiel] = ('pyspiel',)


PERFT_REPEAT = 3
"""The cold runs of each count, the Game API's and OpenSpiel's taking turns."""


def _best(outcomes: list) -> tuple:
    """The fastest of one side's outcomes, or the first that did not finish."""
    unfinished = [outcome for outcome in outcomes if len(outcome) != 3]
    return unfinished[0] if unfinished else min(outcomes, key=lambda outcome: outcome[2])


def run_perft(limit: float = 60.0, run=cold, repeat: int = PERFT_REPEAT) -> list:
    """Count each game's move sequences to its depth both ways, each cold, the two
    taking turns repeat times; return rows (game, depth, sequences, OpenSpiel ms, Game
    API ms, ratio, counts agree) of each side's best run."""
    rows = []
    for name, spec, spiel, depth in PERFT:
        turns = [(run(_ours, (spec, depth), limit), run(_openspiel, (spiel, depth), limit))
                 for _ in range(repeat)]
        ours, theirs = (_best([turn[side] for turn in turns]) for side in (0, 1))
        count = ours[0] if len(ours) == 3 else None
        ms = [f'{outcome[2] * 1000:,.0f}' if len(outcome) == 3 else outcome[0]
              for outcome in (theirs, ours)]
        ratio = (f'{ours[2] / theirs[2]:.1f}×' if len(ours) == len(theirs) == 3 else '–')
        agree = ('yes' if count == theirs[0] else 'NO') if len(theirs) == 3 else '–'
        rows.append([name, depth, f'{count:,}' if count is not None else '–', *ms, ratio, agree])
    return rows


PERFT_HEADERS = ['game', 'depth', 'sequences', 'OpenSpiel ms', 'Game API ms',
                 'Game API / OpenSpiel', 'counts agree']


def _first_move(spec: str, depth: int) -> tuple:
    """abN's first move from the start: (the move as typed, nodes)."""
    game = variants.make(spec)
    stats = SearchStats()
    move = engine.search(game, game.initial, depth, stats=stats).move
    return game.typed_move(move), stats.nodes


def run_first_moves(limit: float = 60.0, run=cold) -> list:
    """Time ab4's first move on each full-size variant, cold; return rows
    (variant, move, nodes, ms)."""
    rows = []
    for name in FIRST_MOVE_VARIANTS:
        outcome = run(_first_move, (name, FIRST_MOVE_DEPTH), limit)
        if len(outcome) == 3:
            move, nodes, seconds = outcome
            rows.append([name, move, f'{nodes:,}', f'{seconds * 1000:,.0f}'])
        else:
            rows.append([name, '–', '–', f'{outcome[0]} ({outcome[1]})'])
    return rows


FIRST_MOVE_HEADERS = ['variant', f'ab{FIRST_MOVE_DEPTH} first move', 'nodes', 'ms (cold)']
