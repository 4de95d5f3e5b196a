"""Game specs such as 'nim(piles=(1, 3, 5, 7), misere=True)': parsed with ast, never eval."""

from __future__ import annotations

import ast
import inspect
import types
import typing

from games import (Backgammon, ConnectFour, DiceNim, Fig52Game, Game, Gomoku, GrundysGame, Nim,
                   TicTacToe)

GAMES: dict[str, type[Game]] = {cls.name: cls for cls in
                                (Nim, GrundysGame, TicTacToe, ConnectFour, Gomoku, Fig52Game,
                                 DiceNim, Backgammon)}
"""Game classes by the name a spec calls them."""

ALIASES = {'split': 'grundy', 'grundys': 'grundy', 'ttt': 'tictactoe', 'connectfour': 'connect4',
           'fiveinarow': 'gomoku'}


def parse(spec: str) -> Game:
    """Make the game a spec describes: 'GAME' or 'GAME(key=literal, ...)'.
    Raises ValueError naming what is wrong."""
    try:
        tree = ast.parse(spec.strip(), mode='eval').body
    except SyntaxError:
        raise ValueError(f'malformed game spec {spec!r}: expected GAME(key=value, ...)') from None
    call = tree if isinstance(tree, ast.Call) else None
    name_node = call.func if call else tree
    if not isinstance(name_node, ast.Name):
        raise ValueError(f'malformed game spec {spec!r}: expected GAME(key=value, ...)')
    name = ALIASES.get(name_node.id.lower(), name_node.id.lower())
    if name not in GAMES:
        raise ValueError(f'unknown game {name_node.id!r} in {spec!r}; games: {", ".join(GAMES)}')
    cls = GAMES[name]
    if call is None:
        return _construct(cls, {}, spec)
    if call.args:
        raise ValueError(f'in {spec!r}: give every parameter as key=value')
    hints = _parameter_types(cls)
    kwargs = {}
    for keyword in call.keywords:
        key = keyword.arg
        if key is None:
            raise ValueError(f'in {spec!r}: ** is not allowed in a spec')
        if key not in hints:
            valid = ', '.join(hints) or 'none'
            raise ValueError(f'{name} has no parameter {key!r}; its parameters: {valid}')
        if key in kwargs:
            raise ValueError(f'in {spec!r}: {key} is given twice')
        try:
            value = ast.literal_eval(keyword.value)
        except ValueError:
            raise ValueError(f'in {spec!r}: the value of {key} must be a literal, '
                             f'such as 3, (1, 2) or True') from None
        kwargs[key] = _coerce(value, hints[key], f'{name}: {key}')
    return _construct(cls, kwargs, spec)


def _construct(cls: type[Game], kwargs: dict, spec: str) -> Game:
    """Call the game's constructor, naming the spec in any error."""
    try:
        return cls(**kwargs)
    except ValueError as error:
        raise ValueError(f'{cls.name}: {error}') from None


def _parameter_types(cls: type[Game]) -> dict:
    """The constructor's parameters and their declared types."""
    hints = typing.get_type_hints(cls.__init__)
    return {name: hints.get(name, object)
            for name in list(inspect.signature(cls.__init__).parameters)[1:]}


def _coerce(value, hint, what: str):
    """Return value as the declared type hint, or raise ValueError saying what was expected."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        return _coerce(value, options[0], what)
    if origin is tuple:
        if isinstance(value, (list, tuple)):
            return tuple(_coerce(item, args[0], what) for item in value)
        return (_coerce(value, args[0], what),)  # piles=7 means one pile of 7
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f'{what} must be True or False, got {value!r}')
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f'{what} must be a whole number, got {value!r}')
        return value
    return value
