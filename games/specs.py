"""Typed specs such as 'nim(piles=(1, 3, 5, 7), misere=True)' or 'mcts(N=200)': read
with ast, never eval, and checked against the declared types of the function they call."""

from __future__ import annotations

import ast
import inspect
import types
import typing
from typing import Any, Callable


def parse_call(spec: str, what: str) -> tuple[str, dict[str, Any] | None]:
    """Return the name and the keyword literals of a spec 'NAME' or 'NAME(key=literal, ...)';
    the keywords are None for a bare name. what names the kind of spec in errors ('game').
    Raises ValueError naming what is wrong."""
    malformed = f'malformed {what} spec {spec!r}: expected {what.upper()}(key=value, ...)'
    try:
        tree = ast.parse(spec.strip(), mode='eval').body
    except SyntaxError:
        raise ValueError(malformed) from None
    call = tree if isinstance(tree, ast.Call) else None
    name_node = call.func if call else tree
    if not isinstance(name_node, ast.Name):
        raise ValueError(malformed)
    if call is None:
        return name_node.id, None
    if call.args:
        raise ValueError(f'in {spec!r}: give every parameter as key=value')
    keywords: dict[str, Any] = {}
    for keyword in call.keywords:
        key = keyword.arg
        if key is None:
            raise ValueError(f'in {spec!r}: ** is not allowed in a spec')
        if key in keywords:
            raise ValueError(f'in {spec!r}: {key} is given twice')
        try:
            keywords[key] = ast.literal_eval(keyword.value)
        except ValueError:
            raise ValueError(f'in {spec!r}: the value of {key} must be a literal, '
                             f'such as 3, (1, 2) or True') from None
    return name_node.id, keywords


def parameters(function: Callable[..., object]) -> dict[str, inspect.Parameter]:
    """Return the keyword parameters of a function or a class's constructor, by name
    (self, *args and **kwargs left out)."""
    params = list(inspect.signature(_constructor(function)).parameters.values())
    if isinstance(function, type):
        params = params[1:]
    return {param.name: param for param in params
            if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)}


def bind(function: Callable[..., object], keywords: dict[str, Any],
         name: str) -> dict[str, Any]:
    """Return keywords checked against the parameters of function (a class means
    its constructor) and converted to their declared types. name is what errors
    call the function. Raises ValueError naming an unknown parameter, a bad value
    or a missing required one."""
    params = parameters(function)
    hints = _parameter_types(_constructor(function))
    for key in keywords:
        if key not in params:
            raise ValueError(f'{name} has no parameter {key!r}; its parameters: '
                             f'{", ".join(params) or "none"}')
    missing = [key for key, param in params.items()
               if param.default is param.empty and key not in keywords]
    if missing:
        raise ValueError(f'{name} needs {", ".join(missing)}, such as '
                         f'{name}({missing[0]}=...)')
    return {key: coerce(value, hints.get(key, object), f'{name}: {key}')
            for key, value in keywords.items()}


def _constructor(function: Callable[..., object]) -> Callable[..., object]:
    """Return a class's __init__, or a function itself: what its parameters are read from."""
    if isinstance(function, type):
        # read as function.__init__ is; mypy would check that against object's own
        # __init__, which a class's differs from (so it calls the access unsound)
        init: Callable[..., object] = getattr(function, '__init__')
        return init
    return function


def _parameter_types(target: Callable[..., object]) -> dict[str, Any]:
    """Return the declared types of a function's parameters that can be resolved (a
    return type, or a name the function's module cannot resolve, is left out)."""
    resolved: dict[str, Any] = {}
    for name, annotation in getattr(target, '__annotations__', {}).items():
        if name == 'return':
            continue
        holder = types.SimpleNamespace(__annotations__={name: annotation})
        try:
            resolved.update(typing.get_type_hints(holder, getattr(target, '__globals__', {})))
        except Exception:  # NameError and the like: the value is taken as it is
            pass
    return resolved


def coerce(value: Any, hint: Any, what: str) -> Any:
    """Return value as the declared type hint, or raise ValueError saying what was expected."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        return coerce(value, options[0], what)
    if origin is tuple:
        if isinstance(value, (list, tuple)):
            return tuple(coerce(item, args[0], what) for item in value)
        return (coerce(value, args[0], what),)  # piles=7 means one pile of 7
    if hint is bool:
        if not isinstance(value, bool):
            raise ValueError(f'{what} must be True or False, got {value!r}')
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f'{what} must be a whole number, got {value!r}')
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f'{what} must be a number, got {value!r}')
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise ValueError(f'{what} must be a string in quotes, got {value!r}')
        return value
    return value
