"""The PLAYER registry: player functions by name, and loading players from specs."""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import re
import sys
from typing import Callable

from games import Game, Player
from games.specs import bind, parameters, parse_call

from .clocked import make_clocked_alpha_beta_player, make_clocked_mcts_player
from .human import query_player
from .engine import clear_tables, search, solve_player
from .perfect import perfect_player
from .textbook import mcts_player, monte_carlo_tree_search, random_player

EvalFn = Callable[[Game, object, object], float]
MAX_DEPTH = 20


class PlayerLoadError(ValueError):
    """A player spec names a player, module, file or function that cannot be found."""


PLAYER: dict[str, Player] = {}
"""Player functions (game, state) -> move by name."""

INTERACTIVE = {'human'}
"""The names of players that need a person at the keyboard."""

FACTORY: dict[str, Callable[..., Player]] = {}
"""Factories of the players that take options, by name: the spec 'mcts(N=200)'
loads FACTORY['mcts'](N=200)."""

_OPTION_SPEC = re.compile(r'\s*([A-Za-z_]\w*)\s*(\(.*)?$', re.DOTALL)

ON_REQUEST: set[str] = set()
"""The names of players a tournament plays only when named: they think until their time is up."""

CLOCKED: set[str] = set()
"""The names of players whose moves depend on their clock, and so on how much their
search tables already hold: loading one empties the engine's tables. (Every other
player's move is the textbook search's whatever its tables hold; they only make it
faster, and stay.)"""


def register(name: str, interactive: bool = False, on_request: bool = False,
             clocked: bool = False) -> Callable[[Player], Player]:
    """Decorator that adds a player function to PLAYER under name:

        @register('greedy')
        def greedy_player(game, state): ...
    """
    def add(player: Player) -> Player:
        PLAYER[name] = player
        if interactive:
            INTERACTIVE.add(name)
        if on_request:
            ON_REQUEST.add(name)
        if clocked:
            CLOCKED.add(name)
        return player
    return add


def register_factory(name: str) -> Callable[[Callable[..., Player]], Callable[..., Player]]:
    """Decorator that adds a factory of players with options to FACTORY under name.
    The name is a Python identifier; the factory's keyword parameters, with their
    types and defaults, are the options:

        @register_factory('mcts')
        def mcts(N: int = 1000) -> Player: ...
    """
    if not name.isidentifier():
        raise ValueError(f'a player with options needs a name such as mcts or my_player, '
                         f'got {name!r}')

    def add(factory: Callable[..., Player]) -> Callable[..., Player]:
        FACTORY[name] = factory
        return factory
    return add


def options(name: str) -> str:
    """Return the options of a factory and their defaults, as 'N=1000' ('depth'
    for one without a default)."""
    return ', '.join(name if param.default is param.empty else f'{name}={param.default!r}'
                     for name, param in parameters(FACTORY[name]).items())


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
        stats: dict = {}
        move = search(game, state, depth, eval_fn, stats).move
        alpha_beta_player.stats = stats
        return move

    alpha_beta_player.__name__ = alpha_beta_player.__qualname__ = f'ab{depth}'
    alpha_beta_player.__doc__ = (f'Alpha-beta search {depth} ' + ('ply' if depth == 1 else 'plies')
                               + ' ahead, then the evaluation.')
    alpha_beta_player.depth = depth
    return alpha_beta_player


def load_player(spec: str) -> Player:
    """Return the player a spec names: a registry name ('ab5'), a registry player
    with options ('mcts(N=200)'), a module's function ('package.module:function')
    or a file's ('path/to/file.py:function'; the function defaults to 'player').
    Loading a player of CLOCKED empties the engine's search tables, so that a
    player loaded for a new game plays it as it would in a fresh process. Raises
    PlayerLoadError naming what is missing or wrong."""
    if spec.split('(')[0].strip() in CLOCKED:
        clear_tables()
    if spec in PLAYER:
        return PLAYER[spec]
    called = _OPTION_SPEC.match(spec)
    if called and (called.group(1) in FACTORY or called.group(2)):
        return _make_player(spec, called.group(1))
    if ':' in spec:
        location, function = spec.rsplit(':', 1)
    elif spec.endswith('.py'):
        location, function = spec, 'player'
    else:
        with_options = ', '.join(f'{name}({options(name)})' for name in FACTORY)
        raise PlayerLoadError(f'unknown player {spec!r}; known players: {", ".join(PLAYER)}; '
                              f'with options: {with_options} '
                              '(or give module:function or path/to/file.py:function)')
    if location.endswith('.py'):
        module = _load_file(location)
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
    if name not in FACTORY:
        raise PlayerLoadError(f'unknown player {name!r} in {spec!r}; players with options: '
                              f'{", ".join(FACTORY)}')
    try:
        _, keywords = parse_call(spec, 'player')
        kwargs = bind(FACTORY[name], keywords or {}, name)
    except ValueError as error:
        raise PlayerLoadError(str(error)) from None
    try:
        return FACTORY[name](**kwargs)
    except ValueError as error:  # a value of the right type but out of range
        raise PlayerLoadError(f'{name}: {error}') from None


def _load_file(path: str):
    """Import a Python file as a module of its own."""
    if not os.path.isfile(path):
        raise PlayerLoadError(f'no player file {path!r}')
    name = 'player_file_' + os.path.splitext(os.path.basename(path))[0]
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    try:
        module_spec.loader.exec_module(module)
    except BaseException as error:  # a broken student file must not stop the program
        del sys.modules[name]
        raise PlayerLoadError(f'cannot load player file {path!r}: '
                              f'{type(error).__name__}: {error}') from None
    return module


def description(name: str) -> str:
    """The first line of the docstring of a registered player (or player factory)."""
    doc = (PLAYER[name] if name in PLAYER else FACTORY[name]).__doc__ or ''
    return doc.strip().splitlines()[0] if doc.strip() else name


register('random')(random_player)
register('human', interactive=True)(query_player)
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
