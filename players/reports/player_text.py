"""Text a player wrote (its error messages, a program's standard error, a name
taken from a file's name) made safe to show: with its control characters and bidi
overrides escaped as repr shows them (for_terminal), wherever it is shown (a
terminal, the HTML report, the arena's pages, a CSV file), so that it cannot move
the cursor, clear the screen, draw over what the run printed or make a name read as
another; in a CSV file, besides, with a cell that a spreadsheet would read as a
formula made plain text."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar('T')

FORMULA_STARTS = ('=', '+', '-', '@')
"""What a spreadsheet reads a cell that starts with as a formula (OWASP's list for
CSV injection, whose tab and CR for_csv escapes)."""


def for_terminal(text: str, lines: bool = False) -> str:
    """Return text with each character that repr escapes (controls such as ESC, CR and
    backspace, C1 controls, bidi overrides and other invisible characters) written as
    repr writes it, such as \\x1b; printable text, accented and non-Latin letters are
    kept as they are. With lines, newlines are kept too."""
    if text.isprintable():
        return text
    return ''.join(char if char.isprintable() or lines and char == '\n' else repr(char)[1:-1]
                   for char in text)


def for_csv(value: T) -> T | str:
    """Return a CSV cell's value as a spreadsheet (or cat) should show it: a text
    written as UTF-8 can be (see writable), its control characters but newlines
    escaped (see for_terminal), and after a single quote if it starts with =, +, - or
    @, so that it is read as text and not as a formula (OWASP's rule); any other
    value as it is."""
    if isinstance(value, str):
        text = for_terminal(writable(value), lines=True)
        return "'" + text if text.startswith(FORMULA_STARTS) else text
    return value


def writable(text: str) -> str:
    """Return text as UTF-8 can write it: a byte of a file's name that is not UTF-8
    (which Python reads as a lone surrogate) as its escape, \\xff, and any other
    lone surrogate as \\ud800."""
    try:
        return text.encode('utf-8', 'surrogateescape').decode('utf-8', 'backslashreplace')
    except UnicodeEncodeError:
        return text.encode('utf-8', 'backslashreplace').decode('utf-8')
