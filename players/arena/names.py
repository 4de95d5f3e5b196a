"""The names students choose to be shown by on the leaderboard: ASCII letters and
digits, with spaces and a few marks between them, so that no character can hide or
pass for another; and none that looks like a name someone else is shown or known by
(compared by their skeletons: without accents, case, spaces or marks, and with the
letters that look alike in most fonts made one), nor like a player of the registry's."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Iterable

PSEUDONYM = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _.'-]{0,29}")
"""A pseudonym: 1 to 30 ASCII letters, digits, spaces and _ . ' -, from a letter or digit."""
DEPTH_PLAYER = re.compile(r"ab[0-9 _.'-]*[0-9][0-9 _.'-]*", re.IGNORECASE)
"""An alpha-beta player's name of any depth (ab21, AB 99: the registry's factory makes
them), written with marks between its digits or not."""
LOOK_ALIKE = (('rn', 'm'), ('vv', 'w'), ('i', 'l'), ('1', 'l'), ('|', 'l'), ('0', 'o'))
"""Letters (after case is folded) that look alike in most fonts, and the one each is
made, in this order."""


def skeleton(name: str) -> str:
    """Return what two names that look alike have in common: the name without
    accents and other combining marks (after Unicode's compatibility folding), without
    case, spaces or the marks _ . ' - , its look-alike letters made one (LOOK_ALIKE)."""
    folded = unicodedata.normalize('NFKD', unicodedata.normalize('NFKC', name))
    bare = ''.join(char for char in folded if not unicodedata.category(char).startswith('M'))
    text = ''.join(char for char in bare.casefold() if not char.isspace() and char not in "_.'-")
    for seen, made in LOOK_ALIKE:
        text = text.replace(seen, made)
    return text


def pseudonym_problem(chosen: str, others: Iterable[str]) -> str | None:
    """Return why chosen cannot be a pseudonym, or None if it can: it must match
    PSEUDONYM and look like none of others (the ids, names and pseudonyms of the other
    students, the course's players and the staff's names), nor like a player of the
    registry's or an alpha-beta player of any depth."""
    if not PSEUDONYM.fullmatch(chosen):
        return ("a pseudonym has 1 to 30 ASCII letters, digits, spaces and _ . ' -, "
                'from a letter or a digit')
    key = skeleton(chosen)
    if any(skeleton(other) == key for other in others) or key in _registry_skeletons() \
            or DEPTH_PLAYER.fullmatch(chosen):
        return f'{chosen!r} is taken, or looks like a name that is: choose another'
    return None


@functools.lru_cache(maxsize=1)
def _registry_skeletons() -> frozenset[str]:
    """Return the skeletons of the registry's players' names (random, minimax, ab1 to
    ab20, mcts, ...): a pseudonym must not pass for a player the course could run."""
    from players import registry
    return frozenset(skeleton(name) for name in registry.REGISTRY)
