"""Reading the fields of a message from a student's jail, which is hostile JSON: each
field of its type, or ProtocolError saying which is not (see messages). This module
runs in the jail too."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Callable, TypeVar

from players.remote.protocol import ProtocolError, shown

Item = TypeVar('Item')


class Fields:
    """A message's fields, read one by one: each of its type, or ProtocolError."""

    def __init__(self, message: Any, record: type):
        """Take message if it is an object of record's kind with exactly its fields."""
        self.kind: str = getattr(record, 'KIND')
        names = {field.name for field in fields(record)}
        if not isinstance(message, dict) or message.keys() != {'type', *names}:
            raise ProtocolError(f'a {self.kind!r} message without exactly the fields '
                                f'{", ".join(sorted(names))}: {shown(message, 60)}')
        self.message = message

    def get(self, name: str, test: Callable[[Any], bool], what: str) -> Any:
        """The field name, if test holds for it; else raise ProtocolError."""
        value = self.message[name]
        if not test(value):
            raise ProtocolError(f'a {self.kind!r} message whose {name} is not {what}: '
                                f'{shown(value, 60)}')
        return value

    def text(self, name: str) -> str:
        """A field that is a string."""
        return str(self.get(name, lambda value: isinstance(value, str), 'a string'))

    def maybe_text(self, name: str) -> str | None:
        """A field that is a string or null."""
        value = self.get(name, lambda value: value is None or isinstance(value, str),
                         'a string or null')
        return None if value is None else str(value)

    def whole(self, name: str) -> int:
        """A field that is a whole number."""
        return int(self.get(name, lambda value: type(value) is int, 'a whole number'))

    def number(self, name: str) -> float:
        """A field that is a number."""
        return float(self.get(name, lambda value: type(value) in (int, float), 'a number'))

    def flag(self, name: str) -> bool:
        """A field that is true or false."""
        return bool(self.get(name, lambda value: type(value) is bool, 'true or false'))

    def plain(self, name: str) -> Any:
        """A field of any plain data (the JSON it was parsed from)."""
        return self.message[name]

    def object(self, name: str, null: bool = False) -> Any:
        """A field that is an object (or, if null, null)."""
        return self.get(name, lambda value: isinstance(value, dict) or null and value is None,
                        'an object' + (' or null' if null else ''))

    def items(self, name: str, item: Callable[[Any], Item], what: str) -> tuple[Item, ...]:
        """A field that is a list: each of its items read by item, which raises
        ValueError or TypeError for one that is not what."""
        values = self.get(name, lambda value: isinstance(value, list), 'a list')
        try:
            return tuple(item(value) for value in values)
        except (ValueError, TypeError):
            raise ProtocolError(f'a {self.kind!r} message whose {name} is not a list of '
                                f'{what}: {shown(values, 60)}') from None


def string(value: Any) -> str:
    """value, if it is a string; else raise TypeError."""
    if not isinstance(value, str):
        raise TypeError(value)
    return value


def count(value: Any) -> int:
    """value, if it is a whole number; else raise TypeError."""
    if type(value) is not int:
        raise TypeError(value)
    return int(value)


def pair(value: Any) -> tuple[Any, Any]:
    """value as a pair, if it is a list of two; else raise TypeError."""
    if not (isinstance(value, list) and len(value) == 2):
        raise TypeError(value)
    return value[0], value[1]


def call(value: Any) -> tuple[str, Any]:
    """A call of result: [the key of the state it was made on, the move]."""
    key, move = pair(value)
    return string(key), move


def link(value: Any) -> tuple[int | None, Any]:
    """A position asked about: [the index of the one before it, or null; the move]."""
    before, move = pair(value)
    return (None if before is None else count(before)), move


def said(value: Any) -> dict[str, Any]:
    """What a class said at a position: an object, or {} (saying nothing) for anything else."""
    return value if isinstance(value, dict) else {}
