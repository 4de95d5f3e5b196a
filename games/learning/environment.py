"""A PettingZoo environment (AEC: agents act in turn) for any game: a fixed Discrete
set of actions with a mask of the legal ones, an array to observe, rewards from the
game's utility, dice rolled from the environment's seed, and the game's own picture
as its rendering."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..base import Game
from ..referee import seats_of
from ..stochastic import StochasticGame, is_chance_node
from .numbering import numbering_of
from .observing import observer_of


class GameEnvironment(AECEnv):  # type: ignore[misc]  # PettingZoo ships no types
    """A game as an AEC environment: each agent, named player_0, player_1, ... in the
    order of the game's seats (env.seats gives each one's seat, such as 'X'), observes
    {'observation': array, 'action_mask': int8 array} and acts with an
    action number (see Game.action_number). A move made in steps (backgammon's) is
    several actions in a row of the same agent, its info['steps'] the steps taken so
    far of the move under way. Each agent's reward is its utility when the game
    ends, 0 before; past max_plies actions the game is truncated. An
    action out of the mask ends the game, -1 for its agent and 0 for the others, as
    PettingZoo's board games do; a number out of range raises ValueError."""

    RENDER_MODES = ('human', 'ansi')
    metadata = {'render_modes': list(RENDER_MODES), 'name': 'aima_game_v0',
                'is_parallelizable': False, 'render_fps': 1}

    def __init__(self, game: Game, render_mode: str | None = None,
                 max_plies: int | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.RENDER_MODES):
            raise ValueError(f'render_mode must be one of {", ".join(self.RENDER_MODES)} '
                             f'or None, got {render_mode!r}')
        self.game, self.render_mode, self.max_plies = game, render_mode, max_plies
        self.seats = {f'player_{number}': seat for number, seat in enumerate(seats_of(game))}
        self.agent_of = {seat: agent for agent, seat in self.seats.items()}
        self.possible_agents = list(self.seats)
        self.numbering = numbering_of(game)
        self.observer = observer_of(game, self.seats['player_0'])
        low, high = (0, 1) if self.observer.binary else (-np.inf, np.inf)
        dtype = np.int8 if self.observer.binary else np.float32
        board = spaces.Box(low, high, self.observer.shape, dtype)
        mask = spaces.Box(0, 1, (self.numbering.count,), np.int8)
        self.observation_spaces = {agent: spaces.Dict({'observation': board,
                                                       'action_mask': mask})
                                   for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(self.numbering.count)
                              for agent in self.possible_agents}
        self.rng = random.Random()
        self.metadata = {**self.metadata, 'name': f'{game!r}'}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of agent (every agent's is the same)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of agent: Discrete(the game's action count)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; seed, if given, seeds the dice of this game and the next."""
        if seed is not None:
            self.rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.plies = 0
        self.state = self._settled(self.game.initial)
        self.made: tuple[int, ...] = ()
        self.agent_selection = self.agent_of[self.game.to_move(self.state)]
        self.choices = self._choices()
        self.seen: dict[str, dict[str, np.ndarray]] = {}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """What agent sees now: the position from its side and the actions it may take
        (none while it is not its turn). It is worked out once a step."""
        seen = self.seen.get(agent)
        if seen is None:
            mask = np.zeros(self.numbering.count, dtype=np.int8)
            if agent == self.agent_selection and not self.terminations[agent]:
                mask[list(self.choices)] = 1
            seen = self.seen[agent] = {
                'observation': self.observer.see(self.state, self.seats[agent]),
                'action_mask': mask}
        return seen

    def step(self, action: int | None) -> None:
        """Take action for the agent whose turn it is: the next step of its move, or
        the whole move."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.plies += 1
        if action not in self.choices:
            self._lose_for_illegal(agent, action)
        elif self.choices[action] is None:  # a step of a move that goes on
            self.made += (int(action),)
        else:
            self.state = self._settled(self.game.result(self.state, self.choices[action]))
            self.made = ()
            self._after_move()
        if self.made or 'steps' in self.infos[agent]:  # a move made in steps: those so far
            self.infos[agent] = {**self.infos[agent], 'steps': list(self.made)}
        self.choices = self._choices()
        self.seen = {}
        self._accumulate_rewards()
        if self.render_mode == 'human':
            self.render()

    def _lose_for_illegal(self, agent: str, action: Any) -> None:
        """End the game with -1 for agent, whose action is not in its mask, as
        PettingZoo's board games do. Raises ValueError for an action that is no action
        number at all."""
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < self.numbering.count:
            raise ValueError(f'an action is a whole number from 0 to '
                             f'{self.numbering.count - 1}, got {action!r}')
        gymnasium.logger.warn(f'illegal action {action} of {agent}: the game ends, '
                              f'{agent} losing')
        self.rewards[agent] = -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {**self.infos[agent], 'illegal_action': int(action)}

    def _after_move(self) -> None:
        """Hand the turn on, or end the game and give each agent its utility."""
        game, state = self.game, self.state
        if game.terminal_test(state):
            for agent, seat in self.seats.items():
                self.rewards[agent] = float(game.utility(state, seat))
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_plies is not None and self.plies >= self.max_plies:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.agent_of[game.to_move(state)]

    def _choices(self) -> dict[int, Any]:
        """The next steps the player to move may take (none once the game is over)."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return {}
        return self.numbering.choices(self.game, self.state, self.made)

    def _settled(self, state: Any) -> Any:
        """Return state with the dice rolled, wherever chance acts next."""
        game = self.game
        while is_chance_node(game, state):
            assert isinstance(game, StochasticGame)
            state = game.outcome(state, game.roll(state, self.rng))
        return state

    def render(self) -> str | None:
        """Show the position: print it ('human') or return it as text ('ansi')."""
        if self.render_mode is None:
            return None
        text = self.game.board_text(self.state)
        if self.render_mode == 'ansi':
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


def environment(game: Game, render_mode: str | None = None,
                max_plies: int | None = None) -> AECEnv:
    """Return game as a PettingZoo AEC environment that insists, as PettingZoo's own
    board games do, that its methods are called in order (reset first)."""
    return wrappers.OrderEnforcingWrapper(GameEnvironment(game, render_mode, max_plies))
