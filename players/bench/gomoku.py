"""The Gomoku benchmark: how long abN takes for a move on 15 x 15 five in a row,
cold (the engine's tables emptied and the board's fixed tables built again)."""

from __future__ import annotations

import time

from games import referee
from games.grid import Gomoku

from players.search import gomoku_positions, shared
from players.registry import PLAYER

GAME = Gomoku(15, 15, 5)
POSITIONS = [('empty board', ()),
             ('after 4 stones', ((8, 8), (8, 9), (9, 9), (7, 7))),
             ('after 10 stones', ((8, 8), (8, 9), (9, 9), (7, 7), (9, 8), (10, 10), (9, 10),
                                  (9, 7), (7, 9), (10, 9)))]
"""(name, moves from the start) of the positions measured."""
PLAYERS = ('ab2', 'ab4')
HEADERS = ['position', 'player', 'move', 'nodes', 'ms']


def run() -> list[list]:
    """Time each player's move from each position, cold; return the table's rows."""
    rows = []
    for name, moves in POSITIONS:
        state = GAME.initial
        for move in moves:
            state = GAME.result(state, move)
        for player_name in PLAYERS:
            shared.clear_tables()
            gomoku_positions._GomokuShape.of.cache_clear()
            player = PLAYER[player_name]
            start = time.perf_counter()
            chosen = player(GAME, state)
            seconds = time.perf_counter() - start
            nodes = referee.reported_nodes(getattr(player, 'stats', None))
            rows.append([name, player_name, GAME.describe_move(chosen), nodes,
                         f'{seconds * 1000:.1f}'])
    return rows
