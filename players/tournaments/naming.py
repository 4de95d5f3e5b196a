"""Player names: the short name a table shows for each player spec of a tournament.

A registry player is named by its spec ('ab5', 'mcts(N=200)'); a file or module
player by the file's or module's stem ('subs/alice.py:player' is 'alice'), a
submission folder by its name ('subs/carol/' is 'carol'), with
more of its spec added when two collide ('alice.other' for another function,
'b/alice' for another folder, then 'alice-2'); a program by the stem of the
first file or folder its command names ('exec:java -cp subs/alice Bot' is
'alice'); 'NAME=SPEC' names one explicitly. An entry of a class's folder of
submissions is a path, named by its file's or folder's name whatever that holds
('subs/alice:player.py' is 'alice:player', 'subs/x=y.py' is 'x=y')."""

from __future__ import annotations

import os
import re
from typing import Collection, Sequence

from players.player_spec import DEFAULT_FUNCTION, Kind, parse_spec, path_spec
from players.remote.player_code import program_names

NAME = re.compile(r'[A-Za-z0-9_][A-Za-z0-9_.+-]*$')
"""What an explicit name may be: letters, digits and _ . + -, not starting with a sign."""


def split_specs(text: str) -> list[str]:
    """Return the entries of a comma-separated list of player specs, leaving the
    commas inside brackets alone: 'ab2, mcts(N=9, c=1)' -> ['ab2', 'mcts(N=9, c=1)']."""
    entries, depth, start = [], 0, 0
    for position, char in enumerate(text):
        depth += (char in '([{') - (char in ')]}')
        if char == ',' and depth <= 0:
            entries.append(text[start:position])
            start = position + 1
    entries.append(text[start:])
    return [entry.strip() for entry in entries if entry.strip()]


def split_entry(entry: str) -> tuple[str | None, str]:
    """Return the explicit name and the spec of an entry: 'alice=subs/a.py:player'
    -> ('alice', 'subs/a.py:player'); an entry without a name -> (None, entry).
    Raises ValueError for an empty name or spec."""
    head, equals, spec = entry.partition('=')
    head, spec = head.strip(), spec.strip()
    if not equals or head and not NAME.match(head):  # no name, or an option: mcts(N=200)
        return None, entry.strip()
    if not head or not spec:
        raise ValueError(f'in {entry!r}: give a player as NAME=SPEC, such as '
                         'alice=subs/alice.py:player')
    return head, spec


def is_code_spec(spec: str) -> bool:
    """Return True for the spec of a file or module player or of a program (as
    opposed to a registry name)."""
    return parse_spec(spec).is_code


def _candidates(spec: str, paths: Collection[str]) -> list[str]:
    """Return the names of a file, module or program spec, or of a submission's
    path among paths, shortest first."""
    parsed = path_spec(spec) if spec in paths else parse_spec(spec)
    if parsed.kind is Kind.PROGRAM:
        return program_names(spec)
    location, function = parsed.location, parsed.function or DEFAULT_FUNCTION
    if parsed.kind in (Kind.FILE, Kind.FOLDER):
        folder, file = os.path.split(os.path.normpath(location))
        stem, parent = os.path.splitext(file)[0], os.path.basename(folder)
    else:
        parent, _, stem = location.rpartition('.')
        parent = parent.rpartition('.')[2]
    named = stem if function == DEFAULT_FUNCTION else f'{stem}.{function}'
    return list(dict.fromkeys([stem, named, f'{parent}/{named}' if parent else named]))


def name_players(entries: Sequence[str], paths: Collection[str] = ()) -> dict[str, str]:
    """Return {name: spec} for player entries ('SPEC' or 'NAME=SPEC') in their order,
    each name unique; an unnamed spec given twice is one player. The entries among
    paths are the paths of a class's submissions, their own specs, never read as
    NAME=SPEC. Raises ValueError for a name given to two players."""
    named: dict[str, str] = {}
    unnamed: list[str] = []
    for entry in entries:
        name, spec = (None, entry) if entry in paths else split_entry(entry)
        if name is None:
            if spec not in unnamed:
                unnamed.append(spec)
            continue
        if name in named and named[name] != spec:
            raise ValueError(f'the name {name!r} is given to two players: '
                             f'{named[name]!r} and {spec!r}')
        named[name] = spec
    explicit = set(named)
    registry = [spec for spec in unnamed if spec not in paths and not is_code_spec(spec)]
    for spec in registry:  # a registry spec is its own name, and may not clash with one given
        if spec in explicit and named[spec] != spec:
            raise ValueError(f'the name {spec!r} is given to {named[spec]!r} and is also a '
                             f'player of the registry; choose another name')
    chosen = _short_names([spec for spec in unnamed if spec not in registry],
                          taken={*explicit, *registry}, paths=paths)
    names: dict[str, str] = {}
    for entry in entries:
        name, spec = (None, entry) if entry in paths else split_entry(entry)
        if name is None:
            name = chosen.get(spec, spec)
        names.setdefault(name, spec)
    return names


def _short_names(specs: list[str], taken: set[str], paths: Collection[str]) -> dict[str, str]:
    """Return {spec: name} for file and module specs (and submissions' paths among
    paths): each the shortest of its candidates that no other spec shares and that
    is not taken, else numbered."""
    options = {spec: _candidates(spec, paths) for spec in specs}
    level = dict.fromkeys(specs, 0)
    while True:
        current = {spec: options[spec][level[spec]] for spec in specs}
        clashes = [spec for spec in specs
                   if current[spec] in taken
                   or list(current.values()).count(current[spec]) > 1]
        movable = [spec for spec in clashes if level[spec] + 1 < len(options[spec])]
        if not movable:
            break
        for spec in movable:
            level[spec] += 1
    names: dict[str, str] = {}
    used = set(taken)
    for spec in specs:
        name, number = current[spec], 1
        while name in used:
            number += 1
            name = f'{current[spec]}-{number}'
        names[spec] = name
        used.add(name)
    return names
