"""Nim and Grundy's game: impartial games played on piles of counters."""

from __future__ import annotations

from collections import namedtuple
from typing import TYPE_CHECKING, Any, Iterable

from . import pictures
from .base import Game, IllegalMoveError



class NimState(namedtuple('NimState', 'to_move, board')):
    """A position: the player to move and the piles, a tuple of counts."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy
        to_move: str
        board: tuple[int, ...]

    def _repr_svg_(self) -> str:
        """The piles as a picture, for Jupyter notebooks."""
        return pictures.piles(self.board, f'{self.to_move} to move')

FIRST, SECOND = 'P1', 'P2'


PileMove = tuple[int, int]
"""A move of a pile game: (pile, count), piles numbered from 1."""


def _check_piles(piles: Iterable[Any], what: str = 'pile') -> tuple[int, ...]:
    """Return piles as a tuple of counts, or raise ValueError naming the bad one."""
    piles = tuple(piles)
    if not piles:
        raise ValueError('there must be at least one pile')
    for count in piles:
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f'a {what} must be a whole number of counters >= 0, got {count!r}')
    return piles


def _is_pile_move(move: Any, piles: tuple[int, ...]) -> bool:
    """Is move a (pile, count) pair of whole numbers naming one of the piles?"""
    return (isinstance(move, tuple) and len(move) == 2
            and all(type(part) is int for part in move) and 1 <= move[0] <= len(piles))


class PileGame(Game):
    """What Nim and Grundy's game share: two players, P1 and P2, take turns on piles."""

    players = (FIRST, SECOND)
    misere = False

    def result(self, state: NimState, move: PileMove) -> NimState:
        """Return the state after move, checking that it is legal."""
        self.check_move(state, move)
        return NimState(to_move=self.other(state.to_move), board=self.apply(state.board, move))

    def apply(self, piles: tuple[int, ...], move: PileMove) -> tuple[int, ...]:
        """Return the piles after a legal move."""
        raise NotImplementedError

    @staticmethod
    def other(player: str) -> str:
        """Return the opponent of player."""
        return SECOND if player == FIRST else FIRST

    def terminal_test(self, state: NimState) -> bool:
        """The game ends when the player to move has no move."""
        return not self.actions(state)

    def utility(self, state: NimState, player: str) -> float:
        """+1 if player has won, -1 if lost, 0 while the game goes on. In normal
        play whoever cannot move loses; in misère play they win."""
        if not self.terminal_test(state):
            return 0
        mover_wins = self.misere
        return 1 if (player == state.to_move) == mover_wins else -1

    def most_piles(self) -> int:
        """Return the most piles a position of the game can have."""
        raise NotImplementedError

    def most_taken(self) -> int:
        """Return the most counters a move can take or split off (at least 1)."""
        raise NotImplementedError

    def action_count(self) -> int:
        """A number for each pile and count a move can name."""
        return self.most_piles() * self.most_taken()

    def action_number(self, move: PileMove) -> int:
        """(pile, count) is (pile - 1) * most_taken() + count - 1."""
        pile, count = move
        return (pile - 1) * self.most_taken() + count - 1

    def observation(self, state: NimState, player: str) -> list[int]:
        """The piles' counts, with 0 for the piles a later split may add."""
        return [*state.board, *[0] * (self.most_piles() - len(state.board))]

    def board_text(self, state: NimState, last_move: PileMove | None = None) -> str:
        """Return the piles as numbered rows of counters, the pile of last_move marked."""
        marked = last_move[0] if last_move is not None else None
        return '\n'.join(f'{number:>3} | {"o " * count}({count})'
                         + (f'  <- {self.describe_move(last_move)}' if number == marked else '')
                         for number, count in enumerate(state.board, 1))

    def state_json(self, state: NimState) -> dict[str, Any]:
        """Return the player to move and the piles: {"to_move": "P1", "piles": [3, 4, 5]}."""
        return {'to_move': state.to_move, 'piles': list(state.board)}

    def drawing(self, state: NimState, last_move: PileMove | None = None) -> dict[str, Any]:
        """Return the piles, and the pile of last_move (from 1) with what it did."""
        return {'kind': 'piles', 'piles': list(state.board),
                'marks': [last_move[0]] if last_move is not None else [],
                'note': self.describe_move(last_move) if last_move is not None else ''}


class Nim(PileGame):
    """Nim: take at least one counter from one pile. With misere=True whoever
    takes the last counter loses; max_take caps the counters taken at once.
    A move is (pile, count), piles numbered from 1."""

    name = 'nim'

    def __init__(self, piles: tuple[int, ...] = (3, 4, 5), misere: bool = False,
                 max_take: int | None = None) -> None:
        self.piles = _check_piles(piles)
        if max_take is not None and (isinstance(max_take, bool) or not isinstance(max_take, int)
                                     or max_take < 1):
            raise ValueError(f'max_take must be a whole number >= 1, got {max_take!r}')
        self.misere = bool(misere)
        self.max_take = max_take
        self.initial = NimState(to_move=FIRST, board=self.piles)

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        params: dict[str, object] = {'piles': self.piles}
        if self.misere:
            params['misere'] = True
        if self.max_take is not None:
            params['max_take'] = self.max_take
        return params

    def most_piles(self) -> int:
        """The piles of the start."""
        return len(self.piles)

    def most_taken(self) -> int:
        """The largest pile, or max_take if it is smaller."""
        return max(1, min(max(self.piles), self.max_take or max(self.piles)))

    def actions(self, state: NimState) -> list[PileMove]:
        """Every (pile, count) with 1 <= count <= the pile (and <= max_take)."""
        cap = self.max_take
        return [(pile, count)
                for pile, size in enumerate(state.board, 1)
                for count in range(1, (size if cap is None else min(size, cap)) + 1)]

    def apply(self, piles: tuple[int, ...], move: PileMove) -> tuple[int, ...]:
        """Return the piles after taking count counters from pile."""
        pile, count = move
        return piles[:pile - 1] + (piles[pile - 1] - count,) + piles[pile:]

    def check_move(self, state: NimState, move: Any) -> None:
        """Raise IllegalMoveError unless move takes 1 to max_take counters from a pile that has them."""
        if not _is_pile_move(move, state.board) or not (
                1 <= move[1] <= min(state.board[move[0] - 1], self.max_take or move[1])):
            raise IllegalMoveError(f'illegal move {move!r}: a move is (pile, count), taking '
                                   f'1 to {self.max_take or "all the"} counters from one of '
                                   f'the piles {state.board}')

    def describe_move(self, move: PileMove) -> str:
        """'take 3 from pile 2'."""
        pile, count = move
        return f'take {count} from pile {pile}'


class GrundysGame(PileGame):
    """Grundy's game: split one pile into two piles of different sizes; whoever
    cannot move loses. A move is (pile, count): split count counters off pile,
    leaving the larger part in its place and putting the smaller part after it."""

    name = 'grundy'

    def __init__(self, pile: int = 7) -> None:
        (self.pile,) = _check_piles([pile])
        self.initial = NimState(to_move=FIRST, board=(self.pile,))

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        return {'pile': self.pile}

    def most_piles(self) -> int:
        """One pile a counter at most."""
        return max(1, self.pile)

    def most_taken(self) -> int:
        """Less than half the pile."""
        return max(1, (self.pile - 1) // 2)

    def actions(self, state: NimState) -> list[PileMove]:
        """Every (pile, count) with 1 <= count < size - count."""
        return [(pile, count)
                for pile, size in enumerate(state.board, 1)
                for count in range(1, (size + 1) // 2)]

    def apply(self, piles: tuple[int, ...], move: PileMove) -> tuple[int, ...]:
        """Return the piles after splitting count counters off pile."""
        pile, count = move
        return piles[:pile - 1] + (piles[pile - 1] - count, count) + piles[pile:]

    def check_move(self, state: NimState, move: Any) -> None:
        """Raise IllegalMoveError unless move splits a pile into two unequal, non-empty parts."""
        if not _is_pile_move(move, state.board) or not (
                1 <= move[1] < state.board[move[0] - 1] - move[1]):
            raise IllegalMoveError(f'illegal move {move!r}: a move is (pile, count), splitting '
                                   f'count counters off a pile of the piles {state.board} so '
                                   f'that the two parts differ')

    def describe_move(self, move: PileMove) -> str:
        """'split 2 off pile 1'."""
        pile, count = move
        return f'split {count} off pile {pile}'
