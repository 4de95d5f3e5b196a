"""The names students choose to be shown by: printable letters, digits, spaces and
marks of one script, and none that looks like a name someone else is shown or known by
(compared after Unicode's compatibility folding, without case or spaces), so that no
one can pass for another on the leaderboard."""

from __future__ import annotations

import unicodedata
from typing import Iterable

LONGEST = 30
"""The most characters of a pseudonym."""


INVISIBLE = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0xFFFD,
             *range(0x180B, 0x1810), *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)}
"""Characters that show as nothing (or as a blank, or as a stand-in for a byte that was
not text) though they are no format characters: the combining grapheme joiner,
fillers, variation selectors, the blank braille pattern, the replacement character."""
LOOK_ALIKE = str.maketrans({'I': 'l', '1': 'l', '|': 'l', '0': 'O'})
"""Letters and digits that look alike in most fonts, each made the one it looks like."""


def name_key(name: str) -> str:
    """Return what two names that look alike have in common: the name folded by
    NFKC, its look-alike letters made one (LOOK_ALIKE), without marks that combine
    with a letter, without case and without spaces."""
    folded = unicodedata.normalize('NFKD', unicodedata.normalize('NFKC', name))
    bare = ''.join(char for char in folded if unicodedata.category(char) != 'Mn')
    return ''.join(bare.translate(LOOK_ALIKE).casefold().split())


def script(char: str) -> str:
    """Return the script of a letter, as the first word of its Unicode name ('LATIN')."""
    return unicodedata.name(char, 'UNKNOWN').split()[0]


def pseudonym_problem(chosen: str, others: Iterable[str]) -> str | None:
    """Return why chosen cannot be a pseudonym, or None if it can: it must have 1 to
    LONGEST characters, none of them control, format, unassigned or INVISIBLE
    characters nor spaces other than the plain one, its letters of one script, and
    look like none of others
    (the names and pseudonyms of the other students, and the course's players)."""
    if not 1 <= len(chosen) <= LONGEST:
        return f'a pseudonym has 1 to {LONGEST} characters'
    odd = [char for char in chosen if unicodedata.category(char)[0] in 'CZ' and char != ' '
           or ord(char) in INVISIBLE]
    if odd:
        return f'a pseudonym may not hold the character U+{ord(odd[0]):04X}'
    scripts = {script(char) for char in chosen if char.isalpha()}
    if len(scripts) > 1:
        return 'a pseudonym writes its letters in one script, not ' + \
            ' and '.join(sorted(scripts)).lower()
    key = name_key(chosen)
    if any(name_key(other) == key for other in others):
        return f'{chosen!r} is taken, or looks like a name that is: choose another'
    return None
