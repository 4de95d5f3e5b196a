"""Kalah, the mancala of AI courses, with the rules of OpenSpiel's mancala."""

from __future__ import annotations

from collections import namedtuple

from . import pictures
from .base import Game, IllegalMoveError
from .discs import check_size


class KalahState(namedtuple('KalahState', 'to_move, board')):
    """A position: the player to move ('S' or 'N') and the board, a tuple of the
    seeds in S's pits 1 to p, S's store, N's pits 1 to p and N's store, in the order
    seeds are sown (counter-clockwise)."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        return pictures.kalah(self.board, f'{self.to_move} to move')


class Kalah(Game):
    """Kalah with pits pits a side and seeds seeds in each at the start; S (south)
    moves first. A move is one of the mover's non-empty pits, numbered from 1 in the
    direction of sowing: its seeds are sown one a pit counter-clockwise, into the
    mover's own store but never the opponent's. A last seed in the mover's store
    gives the mover another move; a last seed in an empty pit of the mover's side,
    facing a pit with seeds, captures both into the mover's store. When either side
    has no seeds left the game ends, each player keeping the seeds on their own
    side; more seeds wins (utility 1 and -1; 0 for a draw)."""

    name = 'kalah'
    players = ('S', 'N')

    def __init__(self, pits: int = 6, seeds: int = 4):
        self.pits = check_size('pits', pits, 1, 12)
        self.seeds = check_size('seeds', seeds, 1, 24)
        side = (seeds,) * pits
        self.initial = KalahState('S', side + (0,) + side + (0,))
        size = 2 * pits + 2
        self.paths = {}
        """For each pit's index, the indexes its seeds go to in turn, once round the
        board: every pit and store but the opponent's store."""
        for at in range(size):
            skipped = 2 * pits + 1 if at < pits else pits
            self.paths[at] = [pit % size for pit in range(at + 1, at + size)
                              if pit % size != skipped]

    def params(self) -> dict:
        """Return the constructor arguments that make this game."""
        return {'pits': self.pits, 'seeds': self.seeds}

    def side(self, board: tuple, player) -> tuple:
        """The seeds in player's pits 1 to p."""
        start = 0 if player == 'S' else self.pits + 1
        return board[start:start + self.pits]

    def actions(self, state) -> list:
        """The mover's non-empty pits, numbered from 1; none once the game is over."""
        if self.terminal_test(state):
            return []
        return [pit for pit, seeds in enumerate(self.side(state.board, state.to_move), 1)
                if seeds]

    def result(self, state, move) -> KalahState:
        """Return the state after the mover sows the seeds of pit move."""
        board, mover = list(state.board), state.to_move
        pits = self.pits
        first = 0 if mover == 'S' else pits + 1
        if type(move) is not int or not 1 <= move <= pits or not board[first + move - 1] \
                or self.terminal_test(state):
            raise IllegalMoveError(f'illegal move {move!r}: the legal moves are the pits '
                                   f'{self.actions(state) or "none (the game is over)"}')
        at = first + move - 1
        path = self.paths[at]
        laps, rest = divmod(board[at], len(path))
        board[at] = 0
        if laps:
            for pit in path:
                board[pit] += laps
        for pit in path[:rest]:
            board[pit] += 1
        last = path[rest - 1]
        store = pits if mover == 'S' else 2 * pits + 1
        if board[last] == 1 and first <= last < first + pits and board[2 * pits - last]:
            board[store] += 1 + board[2 * pits - last]
            board[last] = board[2 * pits - last] = 0
        if not any(board[:pits]) or not any(board[pits + 1:2 * pits + 1]):
            board[pits] += sum(board[:pits])
            board[2 * pits + 1] += sum(board[pits + 1:2 * pits + 1])
            board[:pits] = board[pits + 1:2 * pits + 1] = [0] * pits
        following = mover if last == store else ('N' if mover == 'S' else 'S')
        return KalahState(following, tuple(board))

    def terminal_test(self, state) -> bool:
        """The game is over when a side has no seeds left."""
        board, pits = state.board, self.pits
        return not any(board[:pits]) or not any(board[pits + 1:2 * pits + 1])

    def utility(self, state, player) -> float:
        """Return the value to player of a final state: 1 for more seeds, -1 for
        fewer, 0 otherwise."""
        if not self.terminal_test(state):
            return 0
        lead = self.store_lead(state.board, player)
        return (lead > 0) - (lead < 0)

    def store_lead(self, board: tuple, player) -> int:
        """The seeds in player's store less those in the opponent's."""
        south, north = board[self.pits], board[-1]
        return south - north if player == 'S' else north - south

    def evaluate(self, state, player) -> float:
        """The store difference: the seeds in player's store less those in the
        opponent's, squashed into (-0.9, 0.9)."""
        lead = self.store_lead(state.board, player)
        return 0.9 * lead / (abs(lead) + self.pits * self.seeds / 2)

    def plies_left(self, state) -> float:
        """No bound is known: seeds can go round and round."""
        return 0 if self.terminal_test(state) else float('inf')

    def board_text(self, state, last_move=None) -> str:
        """Return the board: N's pits along the top (numbered from N's right, the way N
        sows), S's along the bottom, each store at its owner's end, and the pit of
        last_move."""
        board, pits = state.board, self.pits
        width = max(2, *(len(str(seeds)) for seeds in board))
        cell = lambda seeds: f' {seeds:>{width}}'
        south, north = board[:pits], board[pits + 1:2 * pits + 1]
        numbers = ' ' * (width + 3) + ''.join(f' {pit:>{width}}' for pit in range(1, pits + 1))
        lines = [' ' * (width + 3) + ''.join(f' {pit:>{width}}' for pit in range(pits, 0, -1)),
                 f'N {"":>{width}}' + ''.join(cell(seeds) for seeds in reversed(north)),
                 f'  {board[-1]:>{width}}' + ' ' * ((width + 1) * pits)
                 + f'  {board[pits]:>{width}}',
                 f'S {"":>{width}}' + ''.join(cell(seeds) for seeds in south), numbers]
        if last_move is not None:
            lines.append(f'last move: pit {last_move}')
        return '\n'.join(line.rstrip() for line in lines)

    def drawing(self, state, last_move=None) -> dict:
        """Return the board for the report: S's and N's pits from 1, the stores."""
        board, pits = state.board, self.pits
        return {'kind': 'kalah', 'south': list(board[:pits]), 'north': list(board[pits + 1:-1]),
                'stores': [board[pits], board[-1]], 'to_move': state.to_move,
                'marks': [last_move] if last_move is not None else []}
