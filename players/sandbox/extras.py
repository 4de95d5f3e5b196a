"""What the layers above give every jail besides the packages it asks for, in a
module of its own that imports nothing: a game made in a jail (an OpenSpiel game)
says what its jails need from here without bringing the jail servers' modules into
every jail, where a student's own module of the same name would then not be found."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:  # the kind of what the functions return, for mypy
    from .allowed import AllowedPackages

JAIL_EXTRAS: list[Callable[[], tuple['AllowedPackages', dict[str, str]]]] = []
"""Each a function that returns installed packages every jail may import and
environment variables for its jail server (variants.plugins adds the installed
plugins here, games.openspiel_game pyspiel); players.sandbox.servers reads them."""
