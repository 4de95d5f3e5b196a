"""The PLAYER registry: player functions by name, and loading players from specs."""

from __future__ import annotations

import difflib
import importlib
import os
import random
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass, replace
from typing import Callable

from games import Game, Player
from games.sources import run_source
from games.specs import bind, parameters, parse_call

from .clocked import make_clocked_alpha_beta_player, make_clocked_mcts_player
from .human import human_player
from .perfect import perfect_player
from .player_spec import Kind, parse_spec
from .plugins import read_plugin_players
from .search.engine import keep_stats, search, solve_player
from .search.shared import EvalFn, SearchStats, clear_tables
from .textbook import mcts_player, monte_carlo_tree_search, random_player

MAX_DEPTH = 20


class PlayerLoadError(ValueError):
    """A player spec names a player, module, file or function that cannot be found."""


@dataclass(frozen=True)
class Entry:
    """A player of the registry: how to make it, and how it may be played."""

    name: str
    player: Player | None = None
    """The player function the bare name loads, if any."""
    factory: Callable[..., Player] | None = None
    """The factory of the player with options, if any: the spec 'mcts(N=200)' loads
    factory(N=200); the factory's keyword parameters, typed, are the options."""
    interactive: bool = False
    """Whether the player needs a person at the keyboard."""
    on_request: bool = False
    """Whether a tournament plays it only when named (it thinks until its time is up)."""
    clocked: bool = False
    """Whether its moves depend on its clock, and so on how much its search tables
    already hold: loading it empties the engine's tables. (Every other player's
    move is the textbook search's whatever its tables hold; they only make it
    faster, and stay.)"""

    @property
    def description(self) -> str:
        """The first line of the docstring of the player (or of its factory)."""
        doc = ((self.player or self.factory).__doc__ or '').strip()
        return doc.splitlines()[0] if doc else self.name

    @property
    def options(self) -> str:
        """The options of the factory and their defaults, as 'N=1000' ('depth' for
        one without a default); '' without a factory."""
        if self.factory is None:
            return ''
        return ', '.join(name if param.default is param.empty else f'{name}={param.default!r}'
                         for name, param in parameters(self.factory).items())


REGISTRY: dict[str, Entry] = {}
"""Every player of the registry, by name, in the order they were registered."""


class Players(MutableMapping):
    """The player functions (game, state) -> move of the registry by name, as a
    dict: PLAYER['ab5']; PLAYER[name] = player registers one, del forgets it."""

    def __getitem__(self, name: str) -> Player:
        found = REGISTRY.get(name)
        if found is None or found.player is None:
            raise KeyError(name)
        return found.player

    def __setitem__(self, name: str, player: Player) -> None:
        register(name)(player)

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        found = REGISTRY[name]
        if found.factory is None:
            del REGISTRY[name]
        else:
            REGISTRY[name] = replace(found, player=None)

    def __iter__(self):
        return iter([name for name, found in REGISTRY.items() if found.player is not None])

    def __len__(self) -> int:
        return sum(found.player is not None for found in REGISTRY.values())

    def __repr__(self) -> str:
        return repr(dict(self))


PLAYER = Players()
"""Player functions (game, state) -> move by name (a view of REGISTRY)."""


def register(name: str, interactive: bool = False, on_request: bool = False,
             clocked: bool = False) -> Callable[[Player], Player]:
    """Decorator that adds a player function to PLAYER under name:

        @register('greedy')
        def greedy_player(game, state): ...
    """
    def add(player: Player) -> Player:
        found = REGISTRY.get(name, Entry(name))
        REGISTRY[name] = replace(found, player=player, interactive=interactive,
                                 on_request=on_request, clocked=clocked)
        return player
    return add


def register_factory(name: str) -> Callable[[Callable[..., Player]], Callable[..., Player]]:
    """Decorator that adds a factory of players with options to the registry under
    name. The name is a Python identifier; the factory's keyword parameters, with
    their types and defaults, are the options:

        @register_factory('mcts')
        def mcts(N: int = 1000) -> Player: ...
    """
    if not name.isidentifier():
        raise ValueError(f'a player with options needs a name such as mcts or my_player, '
                         f'got {name!r}')

    def add(factory: Callable[..., Player]) -> Callable[..., Player]:
        REGISTRY[name] = replace(REGISTRY.get(name, Entry(name)), factory=factory)
        return factory
    return add


def is_interactive(spec: str) -> bool:
    """Return True if spec names a player of the registry that needs a person."""
    return spec in REGISTRY and REGISTRY[spec].interactive


def tournament_names() -> list[str]:
    """Return the names of the players a tournament plays when given none: every
    player of the registry that needs no person and is not played only on request."""
    return [name for name, found in REGISTRY.items()
            if found.player is not None and not found.interactive and not found.on_request]


def make_alpha_beta_player(depth: int, eval_fn: EvalFn | None = None) -> Player:
    """Return a player that searches exactly depth plies ahead with alpha-beta.
    Terminal states score their utility; states at the cut-off score
    eval_fn(game, state, player), by default game.evaluate(state, player).
    Ties go to the first best move in actions order. (It chooses the move of
    AIMA's alpha_beta_cutoff_search with d=depth-1, using the fast engine;
    after each move, player.stats holds the search's nodes, hits and depth.)"""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise ValueError(f'depth must be a whole number >= 1, got {depth!r}')

    def alpha_beta_player(game: Game, state):
        stats = SearchStats()
        move = search(game, state, depth, eval_fn, stats).move
        keep_stats(alpha_beta_player, stats)
        return move

    alpha_beta_player.__name__ = alpha_beta_player.__qualname__ = f'ab{depth}'
    alpha_beta_player.__doc__ = (f'Alpha-beta search {depth} ' + ('ply' if depth == 1 else 'plies')
                               + ' ahead, then the evaluation.')
    return alpha_beta_player


def load_player(spec: str) -> Player:
    """Return the player a spec names: a registry name ('ab5'), a registry player
    with options ('mcts(N=200)'), a module's function ('package.module:function')
    or a file's ('path/to/file.py:function'; the function defaults to 'player').
    Loading a clocked player (see Entry) empties the engine's search tables, so
    that a player loaded for a new game plays it as it would in a fresh process.
    Raises PlayerLoadError naming what is missing or wrong."""
    parsed = parse_spec(spec)
    found = REGISTRY.get(parsed.name) if parsed.kind is Kind.REGISTRY else None
    if found is not None and found.clocked:
        clear_tables()
    if spec in PLAYER:
        return PLAYER[spec]
    if parsed.kind is Kind.REGISTRY and (parsed.options or found and found.factory):
        return _make_player(spec, parsed.name)
    if parsed.kind in (Kind.REGISTRY, Kind.PROGRAM):
        with_options = ', '.join(f'{name}({options(name)})' for name in factories())
        raise PlayerLoadError(f'unknown player {spec!r}{_close_to(spec, list(PLAYER))}; known '
                              f'players: {", ".join(PLAYER)}; with options: {with_options} '
                              '(or give module:function or path/to/file.py:function)')
    location, function = parsed.location, parsed.function
    if parsed.kind is Kind.FILE:
        module = _load_file(location)
    elif parsed.kind is Kind.FOLDER:
        module = _load_file(os.path.join(location, parsed.entry), folder=location)
    else:
        try:
            module = importlib.import_module(location)
        except ImportError as error:
            raise PlayerLoadError(f'cannot import module {location!r} for player {spec!r}: '
                                  f'{error}') from None
        except BaseException as error:  # a broken student module must not stop the program
            raise PlayerLoadError(f'cannot import module {location!r}: '
                                  f'{type(error).__name__}: {error}') from None
    player = getattr(module, function, None)
    if not callable(player):
        raise PlayerLoadError(f'{location} has no player function {function!r}')
    return player


def _make_player(spec: str, name: str) -> Player:
    """Return the player of an option spec such as 'mcts(N=200)', its options
    checked against the factory's typed parameters."""
    factory = REGISTRY[name].factory if name in REGISTRY else None
    if factory is None:
        raise PlayerLoadError(f'unknown player {name!r} in {spec!r}{_close_to(name, factories())}'
                              f'; players with options: {", ".join(factories())}')
    try:
        _, keywords = parse_call(spec, 'player')
        kwargs = bind(factory, keywords or {}, name)
    except ValueError as error:
        raise PlayerLoadError(str(error)) from None
    try:
        return factory(**kwargs)
    except ValueError as error:  # a value of the right type but out of range
        raise PlayerLoadError(f'{name}: {error}') from None


def _close_to(name: str, known: list[str]) -> str:
    """Return ' (did you mean ...?)' with the known names closest to a misspelt name,
    or '' if none is close."""
    close = difflib.get_close_matches(name, known)
    return f' (did you mean {", ".join(map(repr, close))}?)' if close else ''


def factories() -> list[str]:
    """Return the names of the players of the registry that take options."""
    return [name for name, found in REGISTRY.items() if found.factory is not None]


def _load_file(path: str, folder: str | None = None):
    """Run a Python file as a module of its own and return the module; a submission's
    folder, if given, goes first on the import path, so its modules import."""
    if not os.path.isfile(path):
        raise PlayerLoadError(f'no player file {path!r}')
    name = 'player_file_' + os.path.splitext(os.path.basename(path))[0]
    if folder is not None and os.path.abspath(folder) not in sys.path:
        sys.path.insert(0, os.path.abspath(folder))
    try:
        with open(path, encoding='utf-8') as file:
            return run_source(file.read(), path, name)
    except BaseException as error:  # a broken student file must not stop the program
        raise PlayerLoadError(f'cannot load player file {path!r}: '
                              f'{type(error).__name__}: {error}') from None


def options(name: str) -> str:
    """Return the options of a registry player with options and their defaults,
    as 'N=1000' ('depth' for one without a default)."""
    return REGISTRY[name].options


def description(name: str) -> str:
    """The first line of the docstring of a registered player (or player factory)."""
    return REGISTRY[name].description


register('random')(random_player)
register('human', interactive=True)(human_player)
register('minimax')(solve_player)
register('perfect', clocked=True)(perfect_player)
for _depth in range(1, MAX_DEPTH + 1):
    register(f'ab{_depth}')(make_alpha_beta_player(_depth))
register('mcts')(mcts_player)


@register_factory('random')
def random_options(seed: int | None = None) -> Player:
    """A legal move at random; with a seed, from a random generator of its own
    seeded with it, so that it plays the same in every game."""
    if seed is None:
        return random_player
    chooser = random.Random(seed)

    def seeded_random_player(game: Game, state):
        actions = list(game.actions(state))
        return chooser.choice(actions) if actions else None
    return seeded_random_player


@register_factory('ab')
def alpha_beta_options(depth: int) -> Player:
    """Alpha-beta search depth plies ahead, then the evaluation: abN is ab(depth=N)."""
    return make_alpha_beta_player(depth)


@register_factory('mcts')
def mcts_options(N: int = 1000) -> Player:
    """Monte Carlo tree search with N play-outs a move."""
    if N < 1:
        raise ValueError(f'N must be at least 1, got {N}')

    def mcts_player_n(game: Game, state):
        return monte_carlo_tree_search(state, game, N)
    mcts_player_n.__doc__ = f'Monte Carlo tree search, {N} play-outs a move.'
    return mcts_player_n


register('ab-clock', on_request=True, clocked=True)(make_clocked_alpha_beta_player())
register('mcts-clock', on_request=True, clocked=True)(make_clocked_mcts_player())
read_plugin_players(register, REGISTRY)
