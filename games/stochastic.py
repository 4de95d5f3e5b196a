"""Games of chance, after AIMA's StochasticGame (section 5.5): dice between the moves.

A state where chance acts next (the dice are still to be rolled) is a chance
node: game.chances(state) lists the rolls, game.probability(chance) weighs each
and game.outcome(state, chance) is the state with the dice rolled, in which the
player to move chooses among game.actions(state). Rolls and moves are plain
data (whole numbers and tuples of them), so a game is replayed from its record
by replay(game, moves, rolls)."""

from __future__ import annotations

import random
from collections import namedtuple
from typing import TYPE_CHECKING, Any, Iterable, Sequence, TypeGuard

from . import pictures
from .base import Game, IllegalMoveError, Player, State, take_turns
from .nim import PileMove



class StochasticGameState(namedtuple('StochasticGameState',
                                     'to_move, utility, board, moves, chance')):
    """AIMA's state of a game of chance: the player to move, the utility to the
    first player (0 while the game goes on), the board, the legal moves (empty
    until the dice are rolled) and the roll (None until the dice are rolled)."""

    __slots__ = ()
    if TYPE_CHECKING:  # the fields' types, for mypy: board, moves and roll are each game's own
        to_move: str
        utility: int
        board: Any
        moves: Any
        chance: Any

    def _repr_svg_(self) -> str | None:
        """The board (backgammon's points, or piles) and the roll as a picture, for
        Jupyter; None for a board of another kind (such as AIMA's backgammon's list of
        points), which Jupyter then shows as text."""
        if self.utility:
            caption = 'the first player won' if self.utility > 0 else 'the second player won'
        elif self.chance is None:
            caption = f'{self.to_move} to roll'
        else:
            caption = f'{self.to_move} to move, rolled {self.chance}'
        if hasattr(self.board, 'points'):
            points, bar, off = self.board
            return pictures.backgammon(points, bar, off, caption)
        if isinstance(self.board, tuple) and all(type(count) is int for count in self.board):
            return pictures.piles(self.board, caption)
        return None


class StochasticGame(Game):
    """A stochastic game includes uncertain events which influence
    the moves of players at each state. To create a stochastic game, subclass
    this class and implement chances, outcome and probability along with the
    other unimplemented game class methods (and is_chance_node, if its states
    do not keep the roll in state.chance)."""

    def chances(self, state: State) -> Sequence[Any]:
        """Return a list of all possible uncertain events at a state."""
        raise NotImplementedError

    def outcome(self, state: State, chance: Any) -> State:
        """Return the state which is the outcome of a chance trial."""
        raise NotImplementedError

    def probability(self, chance: Any) -> float:
        """Return the probability of occurrence of a chance."""
        raise NotImplementedError

    def is_chance_node(self, state: State) -> bool:
        """Return True if chance acts next in this state: the dice are still to be rolled."""
        return state.chance is None and not self.terminal_test(state)

    def roll(self, state: State, rng: random.Random | Any = random) -> Any:
        """Return a chance drawn with rng (default: the random module), each
        weighted by its probability. Equally likely chances are drawn with
        rng.choice, as aima-python draws them, so a seeded game of aima-python's
        rolls the same dice here."""
        chances = list(self.chances(state))
        weights = [self.probability(chance) for chance in chances]
        if len(set(weights)) == 1:
            return rng.choice(chances)
        return rng.choices(chances, weights=weights)[0]

    def describe_chance(self, chance: Any) -> str:
        """Return a short text for a roll, as shown to a person: 'rolled 3 and 5'."""
        if isinstance(chance, tuple):
            return 'rolled ' + ' and '.join(map(str, chance))
        return f'rolled {chance}'

    def play_game(self, *players: Player, rng: random.Random | None = None) -> float:
        """Play an n-person, move-alternating stochastic game, as AIMA does: before
        each move the dice are rolled, every chance drawn as likely as any other with
        rng.choice (default: the random module's), whatever probability says; then
        the players move in turn, whatever to_move says. Return the utility of the
        final state to the player to move first."""
        def rolled(state: State) -> State:
            return self.outcome(state, (rng or random).choice(self.chances(state)))
        return take_turns(self, players, rolled)


def is_chance_node(game: Game, state: State) -> TypeGuard[StochasticGame]:
    """Return True if chance, not a player, acts next in state (never in a game without chance)."""
    return isinstance(game, StochasticGame) and game.is_chance_node(state)


def from_json(value: Any) -> Any:
    """Return a move or a roll read back from JSON (or a Python literal): lists
    become tuples, at every depth."""
    return tuple(from_json(item) for item in value) if isinstance(value, (list, tuple)) else value


def replay(game: Game, moves: Iterable[Any], rolls: Iterable[Any] = (),
           state: State = None) -> State:
    """Return the state after a game's record: from state (default: the start), roll
    the next of rolls wherever chance acts and play the next of moves wherever a
    player does, until both run out. Moves and rolls may come from JSON (lists for
    tuples). Raises IllegalMoveError for a move or a roll that cannot be played there."""
    state = game.initial if state is None else state
    moves, rolls = [from_json(move) for move in moves], [from_json(roll) for roll in rolls]
    moves.reverse()
    rolls.reverse()
    while moves or rolls:
        if is_chance_node(game, state):
            if not rolls:
                raise IllegalMoveError(f'the record has no roll for the {len(moves)} moves left')
            chance = rolls.pop()
            if chance not in list(game.chances(state)):
                raise IllegalMoveError(f'impossible roll {chance!r}')
            state = game.outcome(state, chance)
        elif moves:
            state = game.result(state, moves.pop())
        else:
            raise IllegalMoveError(f'{len(rolls)} rolls left over where a player moves')
    return state


class DiceNim(StochasticGame):
    """Dice Nim: before each move the player to move rolls a die of `sides` faces,
    then takes 1 to that many counters (at most the pile) from one pile; whoever
    takes the last counter wins (with misere=True, loses). A move is (pile, count),
    piles numbered from 1; a roll is the number rolled."""

    name = 'dicenim'
    players = ('P1', 'P2')

    def __init__(self, piles: tuple[int, ...] = (2, 3), sides: int = 3,
                 misere: bool = False) -> None:
        piles = tuple(piles)
        if not piles or any(isinstance(pile, bool) or not isinstance(pile, int) or pile < 0
                            for pile in piles):
            raise ValueError(f'piles must be whole numbers of counters >= 0, got {piles!r}')
        if isinstance(sides, bool) or not isinstance(sides, int) or sides < 1:
            raise ValueError(f'sides must be a whole number >= 1, got {sides!r}')
        self.piles, self.sides, self.misere = piles, sides, bool(misere)
        self.initial = StochasticGameState(to_move='P1', utility=0, board=piles, moves=(),
                                           chance=None)

    def params(self) -> dict[str, Any]:
        """Return the constructor arguments that make this game."""
        params = {'piles': self.piles, 'sides': self.sides}
        if self.misere:
            params['misere'] = True
        return params

    def chances(self, state: StochasticGameState) -> tuple[int, ...]:
        """The faces of the die."""
        return tuple(range(1, self.sides + 1))

    def probability(self, chance: int) -> float:
        """Every face is equally likely."""
        return 1 / self.sides

    def outcome(self, state: StochasticGameState, chance: int) -> StochasticGameState:
        """The state with the die showing chance: take 1 to chance counters from a pile."""
        moves = tuple((pile, count) for pile, size in enumerate(state.board, 1)
                      for count in range(1, min(size, chance) + 1))
        return state._replace(moves=moves, chance=chance)

    def actions(self, state: StochasticGameState) -> tuple[PileMove, ...]:
        """The takes the roll allows (none before the roll)."""
        moves: tuple[PileMove, ...] = state.moves  # as outcome gives them
        return moves

    def result(self, state: StochasticGameState, move: PileMove) -> StochasticGameState:
        """Return the state after taking counters; the next player's die is still to be rolled."""
        if state.chance is None:
            raise IllegalMoveError(f'illegal move {move!r}: the die is still to be rolled')
        if move not in state.moves:
            raise IllegalMoveError(f'illegal move {move!r}: with a roll of {state.chance} the '
                                   f'moves are {list(state.moves)}')
        pile, count = move
        board = state.board[:pile - 1] + (state.board[pile - 1] - count,) + state.board[pile:]
        utility = 0
        if not any(board):
            took_last = 1 if state.to_move == 'P1' else -1
            utility = -took_last if self.misere else took_last
        return StochasticGameState(to_move='P2' if state.to_move == 'P1' else 'P1',
                                   utility=utility, board=board, moves=(), chance=None)

    def utility(self, state: StochasticGameState, player: str) -> float:
        """+1 if player has won, -1 if lost, 0 while the game goes on."""
        return state.utility if player == 'P1' else -state.utility

    def terminal_test(self, state: StochasticGameState) -> bool:
        """The game ends when the last counter is taken."""
        return not any(state.board)

    def display(self, state: StochasticGameState) -> None:
        """Print the piles as numbered rows of counters, and the roll (the last move
        is not marked: see the moves printed as they are played)."""
        for number, count in enumerate(state.board, 1):
            print(f'{number:>3} | {"o " * count}({count})')
        if self.terminal_test(state):
            return
        if state.chance is None:
            print(f'{state.to_move} to roll')
        else:
            most = '1 counter' if state.chance == 1 else f'1 to {state.chance} counters'
            print(f'{state.to_move} rolled {state.chance}: take {most} from one pile')

    def action_count(self) -> int:
        """A number for each pile and each count a roll allows."""
        return len(self.piles) * self.sides

    def action_number(self, move: PileMove) -> int:
        """(pile, count) is (pile - 1) * sides + count - 1."""
        pile, count = move
        return (pile - 1) * self.sides + count - 1

    def observation(self, state: StochasticGameState, player: str) -> list[int]:
        """The piles' counts, then the roll (0 before it)."""
        return [*state.board, state.chance or 0]

    def describe_move(self, move: PileMove) -> str:
        """'take 3 from pile 2'."""
        pile, count = move
        return f'take {count} from pile {pile}'

    def state_json(self, state: StochasticGameState) -> dict[str, Any]:
        """Return the player to move, the piles and the roll: {"to_move": "P1",
        "piles": [2, 3], "roll": 2}."""
        return {'to_move': state.to_move, 'piles': list(state.board), 'roll': state.chance}
