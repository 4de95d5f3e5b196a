"""Any game as an OpenSpiel game: registered with pyspiel.register_game, so that
OpenSpiel's algorithms and bots (MCTS, CFR, its tests) run on a course's game. The
actions are the game's action numbers (games.learning.numbering), a move made in
steps is several actions of the same player, and chance outcomes are the places of
the rolls in the game's list of chances."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
import pyspiel

from ..base import Game
from ..openspiel_game import BRIDGED
from ..referee import seats_of
from ..stochastic import StochasticGame, is_chance_node
from .numbering import Numbering, numbering_of, reachable
from .observing import Observer, observer_of

LONGEST = 10_000
"""The most actions a game is said to last when it does not say (plies_left)."""
FEW_POSITIONS = 2_000
"""The most positions walked to find a game's lowest and highest utility."""

_REGISTERED: dict[str, str] = {}
"""The games registered in this process: each short name's game, as its repr."""


def openspiel_game(game: Game, short_name: str | None = None,
                   utilities: tuple[float, float] | None = None) -> Any:
    """Return game as an OpenSpiel game (a pyspiel.Game), registering it first under
    short_name (default: 'aima_' and the game's spec, such as aima_connect4_h_7_v_6_k_4),
    so that pyspiel.load_game(short_name) makes it too. utilities are the lowest and
    highest utility (default: those of its final positions where it has at most
    FEW_POSITIONS positions, else -1 and 1). Raises ValueError for a short name
    already taken by another game, or a game that cannot be numbered."""
    name = short_name or 'aima_' + re.sub(r'\W+', '_', repr(game)).strip('_').lower()
    if _REGISTERED.get(name, repr(game)) != repr(game) or (
            name not in _REGISTERED and name in pyspiel.registered_names()):
        raise ValueError(f'the OpenSpiel name {name} is taken by another game')
    if name not in _REGISTERED:
        numbering, seats = numbering_of(game), seats_of(game)
        observer = observer_of(game, seats[0])
        game_type, info = _description(game, name, numbering.count,
                                       utilities or _utility_range(game))

        class Made(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types
            """The game, for OpenSpiel."""

            def __init__(self, params: dict[str, Any] | None = None) -> None:
                super().__init__(game_type, info, params or {})
                self.game, self.numbering, self.seats = game, numbering, seats
                self.observer = observer

            def new_initial_state(self) -> SpielState:
                """The start, with the dice of a game of chance still to roll."""
                return SpielState(self)

            def make_py_observer(self, iig_obs_type: Any = None,
                                 params: Any = None) -> SpielObserver:
                """What a player sees: the game's observation (see games.learning.observing)."""
                return SpielObserver(self.observer, params)

        pyspiel.register_game(game_type, Made)
        _REGISTERED[name] = repr(game)
    return pyspiel.load_game(name)


def _description(game: Game, name: str, actions: int,
                 utilities: tuple[float, float]) -> tuple[Any, Any]:
    """Return OpenSpiel's GameType and GameInfo of game, of so many actions: two or
    more players moving in turn, zero-sum, rewarded at the end, with chance where
    the game has dice."""
    seats = seats_of(game)
    mode = pyspiel.GameType.ChanceMode
    game_type = pyspiel.GameType(
        short_name=name, long_name=f'{game!r}{BRIDGED}',
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=mode.EXPLICIT_STOCHASTIC if _most_chances(game) else mode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(seats), min_num_players=len(seats),
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={})
    low, high = utilities
    info = pyspiel.GameInfo(
        num_distinct_actions=actions,
        max_chance_outcomes=_most_chances(game), num_players=len(seats),
        min_utility=low, max_utility=high, utility_sum=0.0,
        max_game_length=_longest(game))
    return game_type, info


def _utility_range(game: Game) -> tuple[float, float]:
    """The lowest and highest utility of the game's final positions, where they are
    few enough to walk; else -1 and 1, as most games have."""
    try:
        finals = [state for state in reachable(game, FEW_POSITIONS)
                  if not is_chance_node(game, state) and game.terminal_test(state)]
    except ValueError:
        return -1.0, 1.0
    values = [float(game.utility(state, seat)) for state in finals for seat in seats_of(game)]
    return min(values, default=-1.0), max(values, default=1.0)


def _most_chances(game: Game) -> int:
    """The most outcomes a roll has: those of the first roll of the game (at least 1
    in a game of chance; 0 in a game without)."""
    if not isinstance(game, StochasticGame):
        return 0
    return len(game.chances(game.initial)) if is_chance_node(game, game.initial) else 1


def _longest(game: Game) -> int:
    """The most actions the game lasts: what plies_left says of the start, if it
    says a number, else LONGEST."""
    plies = getattr(game, 'plies_left', lambda state: math.inf)(game.initial)
    return int(plies) if math.isfinite(plies) else LONGEST


class SpielState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types
    """A position of the game for OpenSpiel: the game's own state, and the steps made
    so far of a move made in steps."""

    def __init__(self, made: Any) -> None:
        super().__init__(made)
        self.rules: Game = made.game
        self.numbering: Numbering = made.numbering
        self.seats: tuple[Any, ...] = made.seats
        self.state = self.rules.initial
        self.made: tuple[int, ...] = ()
        self.known: dict[int, Any] | None = None

    def choices(self) -> dict[int, Any]:
        """The next steps of the legal moves, each with the move it completes (None
        while the move goes on), worked out once a position."""
        if self.known is None:
            self.known = self.numbering.choices(self.rules, self.state, self.made)
        return self.known

    def current_player(self) -> int:
        """The seat to move (from 0), or OpenSpiel's CHANCE or TERMINAL."""
        if is_chance_node(self.rules, self.state):
            return int(pyspiel.PlayerId.CHANCE)
        if self.rules.terminal_test(self.state):
            return int(pyspiel.PlayerId.TERMINAL)
        return self.seats.index(self.rules.to_move(self.state))

    def _legal_actions(self, player: int) -> list[int]:
        """The action numbers of the next steps of the legal moves, in order."""
        return sorted(self.choices())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each roll's place in the game's chances, with its probability."""
        game = self.rules
        assert isinstance(game, StochasticGame)
        return [(place, game.probability(chance))
                for place, chance in enumerate(game.chances(self.state))]

    def _apply_action(self, action: int) -> None:
        """Roll the dice, take a step of a move or make a whole move."""
        game = self.rules
        if is_chance_node(game, self.state):
            assert isinstance(game, StochasticGame)
            self.state = game.outcome(self.state, game.chances(self.state)[action])
        elif self.choices()[action] is None:
            self.made += (action,)
        else:
            self.state, self.made = game.result(self.state, self.choices()[action]), ()
        self.known = None

    def _action_to_string(self, player: int, action: int) -> str:
        """A roll or a move as the game describes it; a step of a move by its number."""
        game = self.rules
        if player == pyspiel.PlayerId.CHANCE:
            assert isinstance(game, StochasticGame)
            return game.describe_chance(game.chances(self.state)[action])
        move = self.choices().get(action)
        return f'step {action}' if move is None else game.describe_move(move)

    def is_terminal(self) -> bool:
        """Is the game over?"""
        return not is_chance_node(self.rules, self.state) and \
            self.rules.terminal_test(self.state)

    def returns(self) -> list[float]:
        """Each seat's utility once the game is over; 0 before."""
        if not self.is_terminal():
            return [0.0] * len(self.seats)
        return [float(self.rules.utility(self.state, seat)) for seat in self.seats]

    def information_state_string(self, player: int | None = None) -> str:
        """Everything is seen: the actions so far."""
        return ' '.join(map(str, self.history()))

    def observation_string(self, player: int | None = None) -> str:
        """The board as text, and the steps made of a move."""
        return str(self)

    def __str__(self) -> str:
        board = self.rules.board_text(self.state)
        return board + (f'\nsteps so far: {list(self.made)}' if self.made else '')


class SpielObserver:
    """OpenSpiel's observer of a game: the game's observation of a state from a
    player's side, in the flat tensor and the dict of views OpenSpiel reads."""

    def __init__(self, observer: Observer, params: Any) -> None:
        if params:
            raise ValueError(f'the observer takes no parameters, got {params!r}')
        self.observer = observer
        self.tensor = np.zeros(int(np.prod(observer.shape)), np.float32)
        self.dict = {'observation': self.tensor.reshape(observer.shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        """Fill the tensor with what player sees of state."""
        self.tensor[:] = self.observer.see(state.state, state.seats[player]).ravel()

    def string_from(self, state: SpielState, player: int) -> str:
        """The board as text."""
        return str(state)


