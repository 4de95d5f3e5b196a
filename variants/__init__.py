"""Variants: named game configurations, and making a game from a name or a spec."""

from __future__ import annotations

from typing import Any

from games import Game, game_files, openspiel_game

from . import catalog  # noqa: F401  (registers the games and variants)
from . import plugins  # noqa: F401  (registers those of the plugins installed)
from .registry import DEFAULT_VARIANTS, GAMES, VARIANTS, Variant, register_game
from .spec import parse


def make(name_or_spec: str) -> Game:
    """Return the game of a variant name ('misere-nim'), a spec
    ('nim(piles=(1, 3, 5, 7), misere=True)'), a game file's spec
    ('course/konane.py:Konane(size=6)') or an OpenSpiel game's
    ('openspiel:breakthrough(rows=6, columns=6)'). Raises ValueError naming what is wrong."""
    if game_files.is_file_spec(name_or_spec):
        return game_files.make(name_or_spec)
    if openspiel_game.is_spec(name_or_spec):
        return openspiel_game.make(name_or_spec)
    variant = VARIANTS.get(name_or_spec.strip())
    if variant:
        return parse(variant.spec)
    try:
        return parse(name_or_spec)
    except ValueError as error:
        if '(' in name_or_spec or name_or_spec.strip().lower() in GAMES:
            raise
        raise ValueError(f'unknown variant {name_or_spec!r}; variants: {", ".join(VARIANTS)} '
                         f'(or a spec such as nim(piles=(1, 3, 5, 7), misere=True))') from error


def environment(name_or_spec: str, render_mode: str | None = None,
                max_plies: int | None = None) -> Any:
    """Return the game of a variant name or spec (see make) as a PettingZoo AEC
    environment (see games.learning.environment; it needs pip install -e '.[rl]').
    Raises ValueError naming what is wrong, ImportError saying what to install."""
    game = make(name_or_spec)
    try:
        from games.learning.environment import environment as game_environment
    except ImportError as error:
        raise ImportError(f"a learning environment needs {error.name}: "
                          f"pip install -e '.[rl]'") from None
    return game_environment(game, render_mode, max_plies)


__all__ = ['GAMES', 'VARIANTS', 'DEFAULT_VARIANTS', 'Variant', 'environment', 'make', 'parse',
           'register_game']
