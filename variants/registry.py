"""The registry of games and variants: the game classes specs can name, their
aliases, and the named variants, filled by register_game (see variants.catalog)."""

from __future__ import annotations

from dataclasses import dataclass

from games import Game


@dataclass(frozen=True)
class Variant:
    """A named game configuration."""

    name: str
    """The short name, such as 'misere-nim'."""
    spec: str
    """The game spec, such as 'nim(piles=(3, 4, 5), misere=True)'."""
    description: str
    """One line for people."""
    default: bool = True
    """Whether the default tournament plays it."""


GAMES: dict[str, type[Game]] = {}
"""Game classes by the name a spec calls them (the class's `name`)."""

ALIASES: dict[str, str] = {}
"""Other names a spec may call a game by, such as 'ttt' for 'tictactoe'."""

VARIANTS: dict[str, Variant] = {}
"""The named variants, in the order tables list them (the order they were registered)."""

DEFAULT_VARIANTS: list[str] = []
"""The variants a tournament plays unless told otherwise."""


def register_game(game: type[Game], *variants: Variant, aliases: tuple[str, ...] = ()) -> None:
    """Make game known to specs by its `name` (and by aliases), with its named
    variants. Raises ValueError if a name is already taken."""
    names = [game.name.lower(), *(alias.lower() for alias in aliases)]
    taken = [name for name in names if name in GAMES or name in ALIASES]
    taken += [variant.name for variant in variants if variant.name in VARIANTS]
    if taken:
        raise ValueError(f'cannot register {game.__name__}: '
                         f'{", ".join(dict.fromkeys(taken))} already taken')
    GAMES[names[0]] = game
    ALIASES.update(dict.fromkeys(names[1:], names[0]))
    for variant in variants:
        register_variant(variant)


def register_variant(variant: Variant) -> None:
    """Add a named variant (of a game registered, or to be). Raises ValueError if
    its name is already taken."""
    if variant.name in VARIANTS:
        raise ValueError(f'cannot register the variant {variant.name}: its name is already taken')
    VARIANTS[variant.name] = variant
    if variant.default:
        DEFAULT_VARIANTS.append(variant.name)
