"""A student's games in the browser on the web: started from their page against a
player of the arena (a course player, their own version on the ladder, or a
classmate's where the course allows challenging them), on a variant of the ladder
and in the seat they choose; played on a page whose board they click (each square
chooses the legal moves that mark it; the moves are listed in the notation `play`
uses), their moves answered as soon as the player has moved; and replayed when over.
Only the student plays their game; staff see its replay."""

from __future__ import annotations

import re

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response

from .live_games import LiveGame
from .site import Site

NUMBER = re.compile(r'[0-9]{1,6}')
"""A move's index, or a ply, in a form."""
MOVE_WAIT_SECONDS = 5.0
"""How long a move's answer waits for the player's reply (the page asks again after)."""


class PlayPages(Site):
    """A student's games in the browser (see the module's docstring)."""

    async def start(self, request: Request) -> Response:
        """Start a game in the browser from the student's own page; answer where to play it."""
        found, student = self.owner(request, own=True)
        form = await request.form(max_files=0, max_fields=4)
        chosen = self.chosen(self.arena.live.opponents(student), found,
                             str(form.get('opponent', '')))
        seat = {'first': 0, 'second': 1}.get(str(form.get('seat', '')))
        if chosen is None or seat is None:
            return JSONResponse({'error': 'choose an opponent and a seat from the lists'}, 400)
        try:
            game = await run_in_threadpool(self.arena.live.start, student, chosen,
                                           str(form.get('variant', '')), seat)
        except ValueError as error:
            return JSONResponse({'error': str(error)}, 400)
        return JSONResponse({'go': f'/students/{student}/play/{game.number}'})

    def play_page(self, request: Request) -> Response:
        """The page of a game under way (its replay once it is over)."""
        found, student = self.owner(request, own=True)
        game = self.live_game(request, student)
        if game is None:
            return RedirectResponse(f'{request.url.path}/replay', 303)
        return self.page('play.html', found, student=self.records.student(student), game=game,
                         opponent=self.shown(game.names[1 - game.person_seat]),
                         seat='first' if game.person_seat == 0 else 'second')

    def play_json(self, request: Request) -> Response:
        """A game under way, as its page's script reads it."""
        _, student = self.owner(request, own=True)
        return JSONResponse(self.plain(request, student, self.live_game(request, student)))

    async def move(self, request: Request) -> Response:
        """Play the student's move (the choice of this index at this ply: a request
        sent again, or late, changes nothing); answer the game once the player has
        replied."""
        _, student = self.owner(request, own=True)
        game = self.live_game(request, student)
        form = await request.form(max_files=0, max_fields=2)
        index, ply = (str(form.get(field, '')) for field in ('move', 'ply'))
        if game is not None and NUMBER.fullmatch(index) and NUMBER.fullmatch(ply):
            await run_in_threadpool(self.arena.live.move, game, int(index), int(ply),
                                    MOVE_WAIT_SECONDS)
        return JSONResponse(self.plain(request, student, game))

    async def resign(self, request: Request) -> Response:
        """Resign the student's game."""
        _, student = self.owner(request, own=True)
        game = self.live_game(request, student)
        if game is not None:
            self.arena.live.resign(game)
        return JSONResponse(self.plain(request, student, game))

    def replay_page(self, request: Request) -> Response:
        """A finished game in the browser, replayed."""
        found, student = self.owner(request)
        number = request.path_params['number']
        for kept, record, settings in self.arena.live.finished(student):
            if kept == number:
                return self.replay(found, student, record, settings, None)
        raise HTTPException(404)

    def live_game(self, request: Request, student: str) -> LiveGame | None:
        """Return the student's game under way that the address names, or None."""
        return self.arena.live.get(student, request.path_params['number'])

    def plain(self, request: Request, student: str, game: LiveGame | None) -> dict:
        """Return a game as its page's script reads it (over, without one: kept)."""
        if game is None:
            return {'status': 'over', 'replay': f'/students/{student}/play/'
                                                f'{request.path_params["number"]}/replay'}
        return {**game.plain(), 'names': [self.shown(name) for name in game.names],
                'replay': f'/students/{student}/play/{game.number}/replay'}
