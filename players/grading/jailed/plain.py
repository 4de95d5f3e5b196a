"""What crosses between the grader and a student's jail, as plain JSON data:
states encoded field by field, and the positions a search check is run on."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii as json_string
from typing import Any, Callable, Sequence

from games import Game, TreeGame
from players.remote.plain_json import canonical as text

ROOT = 'A'
"""The root of every tree given as a table."""


def state_key(value: Any) -> str:
    """Return the text by which the grader tells states apart: the canonical JSON
    text (see players.remote.plain_json.canonical) of the state as plain data, with
    tuples and namedtuples as lists of their fields, dicts (and other mappings) as
    {"dict": [[key, value], ...]} sorted by their text, sets as {"set": [...]} sorted,
    floats that are not finite and other objects as their repr ({"repr": ...} for an
    object). Written at once, field by field, never serialized twice to be sorted."""
    if value is None or value is True or value is False:
        return 'null' if value is None else 'true' if value else 'false'
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, float):
        return float.__repr__(value) if math.isfinite(value) else json_string(repr(value))
    if isinstance(value, (tuple, list)):
        return '[' + ','.join(map(state_key, value)) + ']'
    if isinstance(value, Mapping):
        pairs = sorted(f'[{state_key(key)},{state_key(item)}]' for key, item in value.items())
        return '{"dict":[' + ','.join(pairs) + ']}'
    if isinstance(value, (set, frozenset)):
        return '{"set":[' + ','.join(sorted(map(state_key, value))) + ']}'
    return '{"repr":' + json_string(repr(value)[:200]) + '}'


def tree_game(tree: dict, utilities: dict) -> TreeGame:
    """Return a TreeGame from a table: each inner node maps to its children, and a
    move is the child's name in lower case (node 'B1' is reached by move 'b1')."""
    return TreeGame({node: {child.lower(): child for child in children}
                     for node, children in tree.items()}, utilities, ROOT)


@dataclass
class Position:
    """A search check's position, made from its plain spec (see build)."""

    game: Game
    state: Any
    options: dict
    """The keyword arguments the search is called with: d, eval_fn, cutoff_test."""


def build(spec: dict, make_game: Callable[[str], Game]) -> Position:
    """Return the position a plain spec describes. A spec has either 'tree' (inner
    node -> children) and 'utilities' (leaf -> value for MAX), or 'variant' (a
    variant spec for make_game) and 'position' (see parse_position; None for the
    start); and, for a cut-off search, 'd', 'eval' ('table' with 'evals' for a
    tree's inner nodes, 'evaluate' for the game's evaluate, or 'default' for none)
    and optionally 'cutoff' (names of tree nodes at which to cut off, as a given
    cutoff_test)."""
    game: Game
    if 'tree' in spec:
        game = tree_game(spec['tree'], spec['utilities'])
        state = game.initial
    else:
        game = make_game(spec['variant'])
        state = parse_position(game, spec.get('position'))
    options = {}
    if spec.get('d') is not None:
        options['d'] = spec['d']
        options['eval_fn'] = _eval_fn(spec, game, game.to_move(state))
        if spec.get('cutoff') is not None:
            options['cutoff_test'] = _cutoff_test(spec['cutoff'], game)
    return Position(game, state, options)


def _eval_fn(spec: dict, game: Game, player) -> Callable | None:
    """The evaluation a cut-off search is given, for the player to move at the root:
    a finished game scores its utility, another state the tree's table or evaluate."""
    kind = spec.get('eval', 'evaluate')
    if kind == 'default':
        return None
    evals = spec.get('evals', {})

    def eval_fn(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        if kind == 'table':
            value = evals.get(TreeGame.node(state), 0)
            return value if player == 'MAX' else -value
        return game.evaluate(state, player)
    return eval_fn


def _cutoff_test(nodes: list, game: Game) -> Callable:
    """A given cutoff_test: cut off at the named tree nodes and at finished games."""
    names = set(nodes)

    def cutoff_test(state, depth):
        return TreeGame.node(state) in names or game.terminal_test(state)
    return cutoff_test


PILE_LIMIT = 800
"""The biggest pile a position may have: a bigger one has more moves than anyone
can search or draw."""


def parse_position(game: Game, spec: str | None):
    """Return the state a position spec names, as `tree --position` and the
    grader's messages write it: None for the start; for games played on piles,
    the pile sizes, optionally after the player to move ('1 2 3', 'P2: 1 2 3' or
    'P2:1,2,3'); in a tree, a node's name ('C'); otherwise moves played from the
    start, separated by ';' ('2 2; 1 1' in tic-tac-toe, 'a1' in fig52). Raises
    ValueError naming what is wrong."""
    state = game.initial
    if spec is None:
        return state
    board = getattr(state, 'board', None)
    if isinstance(board, tuple) and all(isinstance(pile, int) for pile in board):
        return _piles(game, state, spec)
    if isinstance(game, TreeGame) and spec.strip() in game.depth:
        return game.state(spec.strip())
    for move_text in filter(str.strip, spec.split(';')):
        if game.terminal_test(state):
            raise ValueError(f'in position {spec!r}: the game is over before '
                             f'{move_text.strip()!r}')
        try:
            move = game.parse_move(move_text, state)
            game.check_move(state, move)
        except ValueError as error:  # IllegalMoveError too
            raise ValueError(f'in position {spec!r}: {error}') from None
        state = game.result(state, move)
    return state


def _piles(game: Game, state, spec: str):
    """The state of a piles spec such as '1 2 3' or 'P2: 1 2 3'."""
    mover, colon, sizes = spec.rpartition(':')
    seats = game.players or (state.to_move,)
    if colon and mover.strip() not in seats:
        raise ValueError(f'in position {spec!r}: {mover.strip()!r} is not a player; '
                         f'the players are {", ".join(seats)}')
    try:
        piles = tuple(int(word) for word in sizes.replace(',', ' ').split())
    except ValueError:
        raise ValueError(f'a position is pile sizes, such as "1 2 3" or "P2: 1 2 3"; '
                         f'got {spec!r}') from None
    if not piles or min(piles) < 0:
        raise ValueError(f'a position is one or more pile sizes >= 0, got {spec!r}')
    if max(piles) > PILE_LIMIT:
        raise ValueError(f'a pile of {max(piles)} has too many moves to draw or search; '
                         f'give piles of at most {PILE_LIMIT}')
    return state._replace(board=piles, to_move=mover.strip() if colon else state.to_move)


def position_text(game: Game, state, moves: Sequence = ()) -> str:
    """Return the position spec (see parse_position) of a state reached by moves
    from the start: pile sizes after the player to move, a tree's node, or the moves."""
    board = getattr(state, 'board', None)
    if isinstance(board, tuple) and all(isinstance(pile, int) for pile in board):
        return f'{state.to_move}: {" ".join(map(str, board))}'
    if isinstance(game, TreeGame):
        return str(game.node(state))
    return '; '.join(game.typed_move(move) for move in moves)


def describe(game: Game, state) -> str:
    """A short text for a state in messages, the game's own (Game.describe_state): a
    tree's node name, Nim's piles, a board drawn row by row (top row first)."""
    return game.describe_state(state)
