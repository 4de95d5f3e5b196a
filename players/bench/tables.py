"""The bench command's tables, printed as each set of measurements ends: start
positions against the textbook and the peers, Connect Four beside Pons' solver,
abN's first move, the board games' move counts, and Gomoku."""

from __future__ import annotations

import tabulate

from ..search import connect4
from . import boards, goals, gomoku, speed

KERNELS = ('in pure Python (AIMA_GAMES_PURE_PYTHON is set, or the compiled kernel is not built)',
           'with its compiled kernel (players/search/_connect4.c)')
"""How the engine searches Connect Four: (in pure Python, compiled)."""

TABLES = ('start', 'connect4', 'first-moves', 'gomoku', 'boards')
"""The tables bench --only may choose."""


def print_tables(limit: float, peers: bool = True, only: str | None = None,
                 pons: str | None = None) -> int:
    """Time the engine cold and print the tables (only the one of TABLES named by
    only, if given): against the textbook and, with peers, the installed peers on
    start positions; on random Connect Four positions beside Pons' solver; abN's
    first move; the board games' move counts; Gomoku. pons, the path of Pons'
    c4solver if given, is run on the same Connect Four positions (else his medians
    recorded in issue 13 are shown). A solver is stopped after
    limit seconds on a position. Return 1 if a solver disagrees with the engine on
    the value of a start position, else 0."""
    status, goal_rows = 0, []
    if only in (None, 'start'):
        print(f'Solving each start position cold; runs past {limit:g} s are stopped.',
              flush=True)
        table = []
        for name, measures in speed.run(limit, peers=peers):
            table += speed.rows(name, measures)
            goal_rows.append(goals.start_row(name, measures))
            print(f'  {name}: done', flush=True)
        print(tabulate.tabulate(table, speed.HEADERS, disable_numparse=True))
        status = 0 if all(row[-1] != 'NO' for row in table) else 1
    if only in (None, 'connect4'):
        medians = speed.PONS_MEDIANS if pons is None else speed.pons_medians(pons)
        source = 'recorded in issue 13' if pons is None else 'run here on the same positions'
        print(f'\nConnect Four, {speed.CONNECT_FOUR_COUNT} random positions a set (seed '
              f'{speed.CONNECT_FOUR_SEED}), each solved (win, draw or loss) in a fresh process; '
              f'Pons: his C++ solver\'s medians, {source}. The engine searches '
              f'{KERNELS[connect4.kernel is not None]}.', flush=True)
        table = []
        for result in speed.run_connect_four(limit):
            table.append(speed.connect_four_row(result, medians))
            goal_rows.append(goals.connect_four_row(result, medians, 'issue 13' if pons is None
                                                    else 'here'))
            print(f'  {result.moves} moves played: done', flush=True)
        print(tabulate.tabulate(table, speed.CONNECT_FOUR_HEADERS, disable_numparse=True))
    if only in (None, 'first-moves'):
        print('\nThe first move on the empty Connect Four board, in a fresh process:', flush=True)
        print(tabulate.tabulate(speed.run_first_moves(limit), speed.FIRST_MOVE_HEADERS,
                                disable_numparse=True))
    if only in (None, 'boards'):
        print('\nMove counts from the start (perft), every sequence played to its end, cold '
              f'(the best of {boards.PERFT_REPEAT} runs each, in turns): the Game API '
              '(actions, result) beside OpenSpiel\'s C++ games (state.child)', flush=True)
        perft = boards.run_perft(limit)
        goal_rows += [goals.perft_row(row) for row in perft]
        print(tabulate.tabulate(perft, boards.PERFT_HEADERS, disable_numparse=True))
        print('\nab4\'s first move from the start, in a fresh process:', flush=True)
        print(tabulate.tabulate(boards.run_first_moves(limit),
                                boards.FIRST_MOVE_HEADERS, disable_numparse=True))
    if only in (None, 'gomoku'):
        print('\nGomoku 15 x 15, five in a row: one move, cold')
        print(tabulate.tabulate(gomoku.run(), gomoku.HEADERS, disable_numparse=True))
    measured = [row for row in goal_rows if row is not None]
    if measured:
        print('\nThe goals (issue 29), each beside its anchor:')
        print(tabulate.tabulate(measured, goals.HEADERS, disable_numparse=True))
    return status
