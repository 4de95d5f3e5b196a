"""Game specs such as 'nim(piles=(1, 3, 5, 7), misere=True)': parsed with ast, never eval."""

from __future__ import annotations

from games import Game
from games.specs import bind, parse_call

from .registry import ALIASES, GAMES


def parse(spec: str) -> Game:
    """Make the game a spec describes: 'GAME' or 'GAME(key=literal, ...)', GAME a
    registered game's name or alias. Raises ValueError naming what is wrong."""
    called, keywords = parse_call(spec, 'game')
    name = ALIASES.get(called.lower(), called.lower())
    if name not in GAMES:
        raise ValueError(f'unknown game {called!r} in {spec!r}; games: {", ".join(GAMES)}')
    cls = GAMES[name]
    kwargs = bind(cls, keywords or {}, name)
    try:
        return cls(**kwargs)
    except ValueError as error:
        raise ValueError(f'{cls.name}: {error}') from None
