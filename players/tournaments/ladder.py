"""The ladder: a tournament run again on its results file plays only what changed.

A player is known by its name and the digest of its code: a file or module
player's source and function, every file of a submission folder, and the
course's support files that come beside them (so a changed support file plays
every Python player's games again; see player_code.beside), a shipped
player's spec (its registry name and options), a program's command and the
files and folders it names; a player that cannot play by that digest (or its spec, if
its code could not be read) and why it cannot. A game is known by its variant,
its players so known, its pair, its leg and its seed. Run again with a new
player, the games that involve it are missing; with a player's file changed, its
old games no longer match and are replaced; with a player gone, its games are
dropped. Every other game is kept, under its place in the new schedule, so the
tables are those of a full run."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Iterable, Mapping

from players.remote.player_code import FolderLimits, PlayerCode, ProgramCode
from .schedule import ScheduledGame
from .store import Store


def digest(code: PlayerCode | ProgramCode) -> str:
    """Return the digest of a player's code: of its source and function (and, for
    a submission folder or code with support files beside it, its entry and every
    file of it), of the spec of a
    registry player, or of a program's command and every file it names or that is in
    the folders it names."""
    if isinstance(code, ProgramCode):
        return _program_digest(code)
    made = [code.spec] if code.source is None else [code.function, code.source]
    if code.files:
        made.append(code.filename)
    digested = hashlib.sha256(json.dumps(made).encode())
    for path, content in code.files:
        digested.update(os.fsencode(path) + b'\0' + hashlib.sha256(content).digest())
    return digested.hexdigest()[:16]


def digests(specs: Mapping[str, str], codes: Mapping[str, PlayerCode | ProgramCode],
            broken: Mapping[str, str]) -> dict[str, str]:
    """Return the digest of each player of specs by name: that of its code in codes
    (see digest), and for a player that cannot play (broken gives why), that of its
    code's digest, or its spec if it has no code, with the reason, so that its games
    are played again once it plays (its code fixed, or a load that timed out on a
    busy machine now in time) or fails otherwise."""
    found = {}
    for name, spec in specs.items():
        known = digest(codes[name]) if name in codes else spec
        if name in broken:
            known = hashlib.sha256(json.dumps([known, broken[name]]).encode()).hexdigest()[:16]
        found[name] = known
    return found


def _program_digest(code: ProgramCode) -> str:
    """Return the digest of a program's command and of the files it names or that
    are in the folders it names."""
    made = hashlib.sha256(json.dumps(code.argv).encode())
    for top in code.paths:
        for path in _files(top):
            made.update(os.fsencode(os.path.relpath(path, top)) + b'\0')
            try:
                with open(path, 'rb') as file:  # a piece at a time: the file may be huge
                    for piece in iter(lambda: file.read(1 << 20), b''):
                        made.update(piece)
            except OSError:  # a file that cannot be read counts as its name alone
                pass
    return made.hexdigest()[:16]


def _files(top: str) -> list[str]:
    """Return top if it is a file, else every file in the folder top, in order, down
    to as many folders deep as a submission folder's may be."""
    if not os.path.isdir(top):
        return [top]
    found = []
    for folder, subfolders, names in os.walk(top):
        deep = os.path.relpath(folder, top).count(os.sep) + 1 >= FolderLimits().depth
        subfolders[:] = [] if deep else sorted(subfolders)
        found += [os.path.join(folder, name) for name in sorted(names)]
    return found


def game_key(variant: str, first: str, first_digest: str | None, second: str,
             second_digest: str | None, pair: int, leg: int,
             seed: int) -> tuple[str, str, str | None, str, str | None, int, int, int]:
    """Return what makes a game the game it is (see the module's docstring)."""
    return (variant, first, first_digest, second, second_digest, pair, leg, seed)


def keep_unchanged(store: Store, specs: Iterable[ScheduledGame],
                   digests: Mapping[str, str]) -> int:
    """Keep the stored games that the schedule specs plays again with the same
    players' code, each under its index in specs, and drop every other; return how
    many were kept."""
    if not store.count():
        return 0
    wanted = {game_key(spec.variant, spec.first, digests[spec.first], spec.second,
                       digests[spec.second], spec.pair, spec.leg, spec.seed): spec.index
              for spec in specs}
    kept = {}
    for identity in store.identities():
        new = wanted.pop(game_key(*identity[1:]), None)
        if new is not None:
            kept[identity[0]] = new
    store.renumber(kept)
    return len(kept)
