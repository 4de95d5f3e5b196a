"""A student's challenges on the web: asked for from their page (an opponent among
those they may challenge, by a key that does not tell a classmate's id, a variant of
the ladder and a number of game pairs), each followed on a page of its own as its
games end, and each game replayed with the student's own log only. Staff see every
student's; a student only their own."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import game_pages
from .challenges import challenge_games
from .records import PLAYING, WAITING, Challenge
from .site import Site


class ChallengePages(Site):
    """A student's challenges (see the module's docstring)."""

    async def ask(self, request: Request) -> Response:
        """Ask for a challenge from the student's own page; answer where to follow it."""
        found, student = self.owner(request, own=True)
        form = await request.form(max_files=0, max_fields=4)
        opponent = self.chosen(self.arena.challenges.opponents(student), found,
                               str(form.get('opponent', '')))
        if opponent is None:
            return JSONResponse({'error': 'choose an opponent from the list'}, 400)
        try:
            pairs = int(str(form.get('pairs', '')))
        except ValueError:
            return JSONResponse({'error': 'give the game pairs as a whole number'}, 400)
        try:
            challenge = self.arena.challenges.ask(student, opponent, str(form.get('variant', '')),
                                                  pairs)
        except ValueError as error:
            return JSONResponse({'error': str(error)}, 400)
        return JSONResponse({'go': f'/students/{student}/challenges/{challenge.number}'})

    def challenge_page(self, request: Request) -> Response:
        """A challenge and its games so far (the page reloads itself while they play)."""
        found, student = self.owner(request)
        challenge = self.challenge_of(request, student)
        shown = self.all_shown()
        records, _ = challenge_games(self.arena.settings, challenge.id)
        rows = [game_pages.row_of(record, student, shown) for record in records]
        return self.page('challenge.html', found, student=self.records.student(student),
                         challenge=challenge, opponent=shown(challenge.opponent), rows=rows,
                         playing=challenge.status in (WAITING, PLAYING))

    def challenge_game(self, request: Request) -> Response:
        """One game of a challenge, replayed, with the log the student's bot wrote."""
        found, student = self.owner(request)
        challenge = self.challenge_of(request, student)
        records, settings = challenge_games(self.arena.settings, challenge.id)
        record = game_pages.find_game(records, request.path_params['game'])
        if record is None or settings is None:
            raise HTTPException(404)
        return self.replay(found, student, record, settings, challenge.version)

    def challenge_of(self, request: Request, student: str) -> Challenge:
        """Return the student's challenge the address names (by its number among
        theirs); else answer 404."""
        challenge = self.records.challenge_of(student, request.path_params['challenge'])
        if challenge is None:
            raise HTTPException(404)
        return challenge
