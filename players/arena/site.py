"""What every page of the arena shares: the arena it shows, its templates (Jinja2,
every value escaped: its control characters and bidi overrides, then its markup),
who is asking and what they may see, and the names players are shown by. A route
that shows a student's things asks owner(), which answers 404 for a student the
viewer may not see, as for one that does not exist."""

from __future__ import annotations

import hmac
import json
import os
import time
from typing import Any, Callable, Iterable

import jinja2
import markupsafe
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse

from players.reports.html_report import games_panel
from players.reports.player_text import for_terminal
from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
from . import game_pages
from .access import Viewer, viewer_of
from .arena import Arena
from .challenges import Opponent
from .ladder_loop import GAMES_FILE
from .records import CHECKING, Version


class Site:
    """The arena's pages' shared parts."""

    def __init__(self, arena: Arena):
        self.arena = arena
        self.records = arena.records
        self.key = arena.secret().encode()
        self.templates = jinja2.Environment(
            loader=jinja2.PackageLoader(__package__, 'templates'), autoescape=True,
            undefined=jinja2.StrictUndefined, finalize=shown_text)
        self.templates.filters['lines'] = lambda text: markupsafe.escape(
            for_terminal(text, lines=True))
        self.templates.filters['when'] = lambda seconds: time.strftime(
            '%Y-%m-%d %H:%M:%S', time.localtime(seconds))

    def page(self, name: str, viewer: Viewer, status: int = 200, **context: Any) -> HTMLResponse:
        """Return the page of the template name, shown to viewer."""
        text = self.templates.get_template(name).render(
            viewer=viewer, closed=self.arena.hand_in.closed(),
            ladder_error=self.arena.ladder.error, **context)
        return HTMLResponse(text, status)

    def opaque(self, name: str, viewer: Viewer) -> str:
        """Return a player's name in a page's form shown to viewer: a keyed digest
        that stands for it without telling a student's id, which a pseudonym hides.
        It differs from viewer to viewer and changes with the name the player shows,
        so that no one can follow a classmate's key from one pseudonym to the next."""
        who = f'student:{viewer.student.id}' if viewer.student else f'staff:{viewer.staff}'
        made = '\0'.join((who, name, self.shown(name)))
        return hmac.new(self.key, made.encode(), 'sha256').hexdigest()[:16]

    def choices(self, opponents: Iterable[Opponent], viewer: Viewer) -> list[tuple[str, str]]:
        """Return the opponents as a form's choices shown to viewer: (key, name shown)."""
        return [(self.opaque(opponent.name, viewer), self.shown(opponent.name))
                for opponent in opponents]

    def chosen(self, opponents: Iterable[Opponent], viewer: Viewer,
               key: str) -> Opponent | None:
        """Return the opponent whose key (see choices) a form gave, or None."""
        return next((opponent for opponent in opponents
                     if self.opaque(opponent.name, viewer) == key), None)

    def shown(self, name: str) -> str:
        """Return the name a player is shown by: a student's pseudonym or name."""
        student = self.records.student(name)
        return student.shown if student else name

    def all_shown(self) -> Callable[[str], str]:
        """Return shown for many names at once: the students read once."""
        names = {student.id: student.shown for student in self.records.students()}
        return lambda name: names.get(name, name)

    def viewer(self, request: Request) -> Viewer:
        """Return who is asking."""
        return viewer_of(request, self.records)

    def signed_in(self, request: Request) -> Viewer:
        """Return who is asking, who must be signed in (else: to the home page)."""
        found = self.viewer(request)
        if not found.signed_in:
            raise HTTPException(303, headers={'location': '/'})
        return found

    def owner(self, request: Request, own: bool = False) -> tuple[Viewer, str]:
        """Return who is asking and the student of the address, one the viewer may see
        (with own, the viewer themself); else answer 404."""
        found = self.signed_in(request)
        student = request.path_params['student']
        if not found.may_see(student) or self.records.student(student) is None \
                or own and (found.student is None or found.student.id != student):
            raise HTTPException(404)
        return found, student

    def staff_only(self, request: Request) -> Viewer:
        """Return the member of staff asking; anyone else is answered 404."""
        found = self.signed_in(request)
        if found.staff is None:
            raise HTTPException(404)
        return found

    def replay(self, found: Viewer, student: str, record: GameRecord, settings: RunSettings,
               version: int | None) -> HTMLResponse:
        """The page of one of a student's games (played by their version of this
        number), replayed, with the log their bot wrote in it (and no other player's).
        Why an opponent forfeited is said in general terms (to staff, in full): what
        an opponent's code raised, or the move it made up, is that student's own."""
        seat = record.seat_of(student)
        if found.staff is None:
            record = game_pages.without_their_detail(record, student)
        data = game_pages.replay_data(record, settings, self.shown)
        return self.page('game.html', found, student=self.records.student(student),
                         record=record, seat=seat, panel=games_panel(listed=False),
                         log=(record.stderr_first, record.stderr_second)[seat],
                         data=json.dumps(data, separators=(',', ':')).replace('<', '\\u003c'),
                         forfeit=self.shown(record.forfeit) if record.forfeit else None,
                         opponent=self.shown(record.names[1 - seat]),
                         result=game_pages.result_for(record, student), version=version)

    def games_store(self) -> Store | None:
        """Return the ladder's results file, opened to read, or None before it has one."""
        path = self.arena.settings.path(GAMES_FILE)
        return Store.read(path) if os.path.isfile(path) else None


def shown_text(value: Any) -> Any:
    """Return a value of a page's template as the page shows it: a text with its
    control characters and bidi overrides escaped, newlines too (see
    player_text.for_terminal; the filter lines keeps them, for a text the page shows
    in lines), before Jinja2 escapes its markup; markup and other values as they are."""
    if isinstance(value, str) and not isinstance(value, markupsafe.Markup):
        return for_terminal(value)
    return value


def version_plain(version: Version) -> dict[str, object]:
    """Return what a student's page and terminal are told of a version."""
    return {'number': version.number, 'handed_in': version.handed_in, 'digest': version.digest,
            'filename': version.filename, 'status': version.status, 'verdict': version.verdict,
            'checking': version.status == CHECKING, 'check_lines': version.check_lines,
            'check_points': version.check_points}


def version_files(version: Version, limit: int = 200_000) -> list[tuple[str, str]]:
    """Return the files of a version as (path, text), the text cut at limit bytes,
    bytes that are not UTF-8 replaced, its lines ended by newlines (as Python reads
    a CR LF or a CR) and its tabs made spaces: a page shows the rest of its control
    characters escaped."""
    top = version.path if os.path.isdir(version.path) else os.path.dirname(version.path)
    found = [version.path] if os.path.isfile(version.path) else sorted(
        os.path.join(folder, name) for folder, _, names in os.walk(top) for name in names)
    files = []
    for path in found:
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), 'rb') as file:
            text = file.read(limit).decode('utf-8', errors='replace')
        lined = text.replace('\r\n', '\n').replace('\r', '\n').expandtabs()
        files.append((os.path.relpath(path, top), lined))
    return files
