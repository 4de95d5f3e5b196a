"""Which jail level a run uses: what a user may ask for, what 'auto' comes to on this
machine, and why a level cannot jail here. A level that must be tried (bubblewrap,
which a kernel or a container may forbid) is tried once a process, by starting a
jail server in it and asking it for a jail, as a tournament would."""

from __future__ import annotations

import functools

from .jail import Jail, JailError
from .levels import LEVELS
from .servers import SERVER_START_SECONDS, ServerLost, forget

AUTO = 'auto'
"""The level a user asks for to get the strongest that works here."""


def choices() -> tuple[str, ...]:
    """The levels a user may ask for: AUTO and each level, strongest first."""
    return (AUTO, *reversed(LEVELS))


def workable() -> list[str]:
    """The levels that work on this machine, strongest first."""
    return [name for name in reversed(LEVELS) if problem(name) is None]


def resolve(requested: str) -> str:
    """Return the level to use for a requested one: AUTO is the strongest level that
    works here. Raise ValueError for an unknown level, or one that does not work
    here, saying why."""
    if requested == AUTO:
        return workable()[0]
    if requested not in LEVELS:
        raise ValueError(f'unknown sandbox {requested!r}; choose one of {", ".join(choices())}')
    found = problem(requested)
    if found is not None:
        raise ValueError(f'--sandbox {requested}: {found}')
    return requested


def problem(name: str) -> str | None:
    """Return why this machine cannot jail at the level name, or None if it can."""
    level = LEVELS[name]
    found = level.problem()
    if found is None and level.probed:
        return _tried(name)
    return found


@functools.lru_cache(maxsize=None)
def _tried(name: str) -> str | None:
    """Start a jail server at the level name for no packages (it imports none, so the
    trial is quick) and ask it for a jail: return what went wrong, or None."""
    try:
        with Jail('players.sandbox.jail_server:probe', name, packages=()) as probe:
            answer = probe.receive(SERVER_START_SECONDS)
    except (ServerLost, JailError) as error:
        return f'{name} does not work here: {error}'
    finally:
        forget(name, ())
    return None if answer == {'probe': True} else f'{name} does not work here: {answer}'
