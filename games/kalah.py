"""Kalah, the mancala of AI courses, with the rules of OpenSpiel's mancala."""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, Callable, NamedTuple, Sequence

from . import pictures
from .base import Fixed, Game, IllegalMoveError
from .discs import check_size

WIDTH = 16
"""The bits each pit and store takes in a packed board: room for 65,535 seeds in all."""
FULL = (1 << WIDTH) - 1


def pack(board: Sequence[int]) -> int:
    """Return a board's counts packed into one number, WIDTH bits each from the lowest;
    raise ValueError unless they are whole numbers from 0, at most FULL in all."""
    if any(type(seeds) is not int or seeds < 0 for seeds in board) or sum(board) > FULL:
        raise ValueError(f'a Kalah board is counts of seeds from 0, at most {FULL} in all; '
                         f'got {board!r}')
    return sum(seeds << WIDTH * at for at, seeds in enumerate(board))


def unpack(packed: int, pits: int) -> tuple[int, ...]:
    """Return the counts of a packed board of pits pits a side, as a tuple."""
    return tuple(packed >> WIDTH * at & FULL for at in range(2 * pits + 2))


class KalahState(namedtuple('KalahState', 'to_move, packed, pits')):
    """A position: the player to move ('S' or 'N') and the board, the seeds in S's
    pits 1 to p, S's store, N's pits 1 to p and N's store, in the order seeds are
    sown (counter-clockwise): KalahState('S', (3, 3, 0, 3, 3, 0)). It keeps them
    packed into one number (see pack) with p, pits; state.board unpacks them."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        packed: int
        pits: int

    def __new__(cls, to_move: str, board: Sequence[int]) -> KalahState:
        return super().__new__(cls, to_move, pack(board), len(board) // 2 - 1)

    def __getnewargs__(self) -> tuple[str, tuple[int, ...]]:
        return self.to_move, self.board

    @property
    def board(self) -> tuple[int, ...]:
        """The seeds in each pit and store, in the order they are sown."""
        return unpack(self.packed, self.pits)

    def _replace(self, **changes: Any) -> KalahState:
        """Return the state with to_move or board changed."""
        to_move, board = changes.pop('to_move', self.to_move), changes.pop('board', self.board)
        if changes:
            raise ValueError(f'Got unexpected field names: {list(changes)!r}')
        return KalahState(to_move, board)

    def __repr__(self) -> str:
        return f'KalahState({self.to_move!r}, {self.board!r})'

    def _repr_svg_(self) -> str:
        """The board as a picture, for Jupyter notebooks."""
        return pictures.kalah(self.board, f'{self.to_move} to move')


_make = tuple.__new__
"""Make a state of its fields (as namedtuple's _make does), with no check."""

if TYPE_CHECKING:  # the fields' types, for mypy
    class Sowing(NamedTuple):
        change: int
        last: int | None
        facing: int
        following: str
else:
    Sowing = namedtuple('Sowing', 'change, last, facing, following')
Sowing.__doc__ = """What sowing a pit's seeds does: the change to the packed board; the
shift of the pit the last seed lands in if it is one of the mover's pits (where it
may capture), else None; the shift of the pit facing it; who moves next."""


PitRule = tuple[int, int, list[Sowing | None]]
"""A pit's index, its shift in a packed board and the Sowing of each count of seeds."""


class Rules(dict[str, tuple[dict[int, PitRule], int, int]], Fixed):
    """A Kalah board's tables of sowing, by player (see Kalah.rules), shared by
    every copy of the game."""

    __slots__ = ()


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

    def __init__(self, pits: int = 6, seeds: int = 4) -> None:
        self.pits = check_size('pits', pits, 1, 12)
        self.seeds = check_size('seeds', seeds, 1, 24)
        side = (seeds,) * pits
        self.initial = KalahState('S', side + (0,) + side + (0,))
        south = sum(FULL << WIDTH * at for at in range(pits))
        self.sides = {'S': south, 'N': south << WIDTH * (pits + 1)}
        """For each player, the mask of their pits in a packed board."""
        self.pit_masks = {player: [(pit, FULL << WIDTH * (first + pit - 1))
                                   for pit in range(1, pits + 1)]
                          for player, first in (('S', 0), ('N', pits + 1))}
        """For each player, each pit's number and its mask in a packed board."""
        self.rules = Rules()
        """For each player: for each pit number, the pit's index, its shift in a packed
        board and the Sowing of each count of seeds it can hold at the start (see
        _sowings); the mask of the opponent's pits; the shift of the player's store."""
        for player, other, first in (('S', 'N', 0), ('N', 'S', pits + 1)):
            moves = {pit: (at, WIDTH * at, self._sowings(at, 2 * pits * seeds))
                     for pit, at in enumerate(range(first, first + pits), 1)}
            self.rules[player] = moves, self.sides[other], WIDTH * (first + pits)

    def _sowings(self, at: int, most: int) -> list[Sowing | None]:
        """The Sowing of the pit at index at holding each count of seeds from 1 to most
        (None for 0): its seeds go one a pit round the board from the next pit, into
        every pit and store but the opponent's store and the pit itself."""
        pits, size = self.pits, 2 * self.pits + 2
        south = at < pits
        mover, other = ('S', 'N') if south else ('N', 'S')
        store, skipped = (pits, size - 1) if south else (size - 1, pits)
        path = [pit % size for pit in range(at + 1, at + size) if pit % size != skipped]
        sown = [0]  # sown[r]: the change of a seed in each of the first r pits of the path
        for pit in path:
            sown.append(sown[-1] + (1 << WIDTH * pit))
        sowings: list[Sowing | None] = [None]
        for seeds in range(1, most + 1):
            laps, rest = divmod(seeds, len(path))
            last = path[rest - 1]
            own = last != store and (last < pits) == south
            sowings.append(Sowing(laps * sown[-1] + sown[rest] - (seeds << WIDTH * at),
                                  WIDTH * last if own else None, WIDTH * (2 * pits - last),
                                  mover if last == store else other))
        return sowings

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'pits': self.pits, 'seeds': self.seeds}

    def action_count(self) -> int:
        """A number for each pit of a side."""
        return self.pits

    def action_number(self, move: int) -> int:
        """Pit move is move - 1."""
        return move - 1

    def observation(self, state: KalahState, player: str) -> list[int]:
        """The seeds from player's side: player's pits from 1 and store, then the
        opponent's pits and store."""
        board, pits = state.board, self.pits
        return list(board if player == 'S' else board[pits + 1:] + board[:pits + 1])

    def actions(self, state: KalahState) -> list[int]:
        """The mover's non-empty pits, numbered from 1; none once the game is over."""
        packed, sides = state.packed, self.sides
        if not packed & sides['S'] or not packed & sides['N']:
            return []
        return [pit for pit, mask in self.pit_masks[state.to_move] if packed & mask]

    def result(self, state: KalahState, move: int) -> KalahState:
        """Return the state after the mover sows the seeds of pit move."""
        mover, packed, pits = state
        moves, other_side, store = self.rules[mover]
        pit = moves.get(move) if type(move) is int else None
        seeds = packed >> pit[1] & FULL if pit else 0
        if pit is None or not seeds or not packed & other_side:
            raise IllegalMoveError(f'illegal move {move!r}: the legal moves are the pits '
                                   f'{self.actions(state) or "none (the game is over)"}')
        sowings = pit[2]
        if seeds >= len(sowings):  # more seeds than the game has at the start
            sowings = self._sowings(pit[0], seeds)
        # seeds >= 1 here, so never the None of an empty pit
        change, last, facing, following = sowings[seeds]  # type: ignore[misc]
        packed += change
        if last is not None and packed >> last & FULL == 1 and packed >> facing & FULL:
            captured = packed >> facing & FULL
            packed += ((captured + 1) << store) - (1 << last) - (captured << facing)
        sides = self.sides
        if not packed & sides['S'] or not packed & sides['N']:
            board = unpack(packed, pits)
            south, north = sum(board[:pits]), sum(board[pits + 1:-1])
            side = (0,) * pits
            return KalahState(following,
                              side + (board[pits] + south,) + side + (board[-1] + north,))
        return _make(KalahState, (following, packed, pits))

    def terminal_test(self, state: KalahState) -> bool:
        """The game is over when a side has no seeds left."""
        packed, sides = state.packed, self.sides
        return not packed & sides['S'] or not packed & sides['N']

    def utility(self, state: KalahState, player: str) -> float:
        """Return the value to player of a final state: 1 for more seeds, -1 for
        fewer, 0 otherwise."""
        if not self.terminal_test(state):
            return 0
        lead = self.store_lead(state, player)
        return (lead > 0) - (lead < 0)

    def store_lead(self, state: KalahState, player: str) -> int:
        """The seeds in player's store less those in the opponent's."""
        packed, pits = state.packed, self.pits
        south, north = packed >> WIDTH * pits & FULL, packed >> WIDTH * (2 * pits + 1) & FULL
        return south - north if player == 'S' else north - south

    def evaluate(self, state: KalahState, player: str) -> float:
        """The store difference: the seeds in player's store less those in the
        opponent's, squashed into (-0.9, 0.9)."""
        lead = self.store_lead(state, player)
        return 0.9 * lead / (abs(lead) + self.pits * self.seeds / 2)

    def plies_left(self, state: KalahState) -> float:
        """No bound is known: seeds can go round and round."""
        return 0 if self.terminal_test(state) else float('inf')

    def board_text(self, state: KalahState, last_move: int | None = None) -> str:
        """Return the board: N's pits along the top (numbered from N's right, the way N
        sows), S's along the bottom, each store at its owner's end, and the pit of
        last_move."""
        board, pits = state.board, self.pits
        width = max(2, *(len(str(seeds)) for seeds in board))
        cell: Callable[[int], str] = lambda seeds: f' {seeds:>{width}}'
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

    def drawing(self, state: KalahState, last_move: int | None = None) -> dict[str, Any]:
        """Return the board for the report: S's and N's pits from 1, the stores."""
        board, pits = state.board, self.pits
        return {'kind': 'kalah', 'south': list(board[:pits]), 'north': list(board[pits + 1:-1]),
                'stores': [board[pits], board[-1]], 'to_move': state.to_move,
                'marks': [last_move] if last_move is not None else []}
