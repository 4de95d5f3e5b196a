"""A course's roster: a CSV file of its students, one a row, with an id, a name and,
where the course e-mails its students, an e-mail address."""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass

ID = re.compile(r'[A-Za-z0-9][A-Za-z0-9_.-]{0,39}')
"""A student's id: a letter or digit, then at most 39 letters, digits, '_', '.' or '-',
so that it is a player's name and a folder's as it is."""
NAME_LIMIT = 100
"""The most characters of a student's name."""
EMAIL = re.compile(r'[^@\s<>,;"]{1,64}@[A-Za-z0-9.-]{1,190}\.[A-Za-z]{2,63}')
"""An e-mail address as a roster gives one: a name, @, and a domain with a dot."""


@dataclass(frozen=True)
class Enrolled:
    """A student as the roster gives them."""

    id: str
    name: str
    email: str | None = None
    """Their e-mail address, if the roster has an email column and gives one."""


class RosterError(ValueError):
    """A roster that cannot be read, said in one line with the file and its line."""


def read_roster(path: str) -> list[Enrolled]:
    """Return each student of the roster file at path: a CSV file whose first row
    names its columns, among them 'id', 'name' and perhaps 'email' (others are left
    alone). Raises RosterError for a file that cannot be read, a missing column, an
    id that is not one (see ID), an id given twice, a name that is empty, too long or
    holds control characters, or an e-mail address that is not one."""
    try:
        with open(path, newline='', encoding='utf-8-sig') as file:
            rows = list(csv.reader(file))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f'roster {path}: cannot be read: {error}') from None
    if not rows:
        raise RosterError(f'roster {path}: is empty; its first row names the columns id,name')
    columns = [heading.strip().lower() for heading in rows[0]]
    missing = [column for column in ('id', 'name') if column not in columns]
    if missing:
        raise RosterError(f'roster {path}: line 1: no column {missing[0]!r} (the columns are '
                          f'{", ".join(map(repr, columns))}; give id,name)')
    at_id, at_name = columns.index('id'), columns.index('name')
    at_email = columns.index('email') if 'email' in columns else None
    students: dict[str, Enrolled] = {}
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        where = f'roster {path}: line {line}'
        if len(row) <= max(at_id, at_name):
            raise RosterError(f'{where}: expected {len(columns)} cells, got {len(row)}')
        id, name = row[at_id].strip(), row[at_name].strip()
        if not ID.fullmatch(id):
            raise RosterError(f'{where}: {id!r} is not an id: letters, digits, _ . and -, '
                              'at most 40, starting with a letter or digit')
        if id in students:
            raise RosterError(f'{where}: the id {id!r} is given twice')
        if not name or len(name) > NAME_LIMIT or not name.isprintable():
            raise RosterError(f'{where}: the name of {id!r} must be 1 to {NAME_LIMIT} printable '
                              'characters')
        email = row[at_email].strip() if at_email is not None and at_email < len(row) else ''
        if email and not EMAIL.fullmatch(email):
            raise RosterError(f'{where}: the email of {id!r} is not an e-mail address')
        students[id] = Enrolled(id, name, email or None)
    if not students:
        raise RosterError(f'roster {path}: has no students')
    return list(students.values())
