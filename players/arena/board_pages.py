"""The arena's front pages: the home page, signing in (a student by their link, staff by
their password) and out, and the leaderboard, kept live by server-sent events, with
its first players' Elo drawn over time."""

from __future__ import annotations

import asyncio
import json
from typing import AsyncIterator

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse

from .access import StaffSignIns, Viewer, sign_in_staff, sign_in_student, sign_out
from .arena import Arena
from .leaderboard import Board, elo_line
from .rating_plot import Series, rating_plot
from .site import Site

EVENT_POLL_SECONDS = 0.5
"""How often a live leaderboard's stream looks for a new board."""
KEEP_ALIVE_SECONDS = 15.0
"""The longest a live stream goes without a word."""
PLOT_PLAYERS = 10
"""The players whose Elo over time the leaderboard draws, from the first."""


class BoardPages(Site):
    """The home page, signing in and out, and the leaderboard."""

    def __init__(self, arena: Arena):
        super().__init__(arena)
        self.staff_sign_ins = StaffSignIns(self.records)

    def home(self, request: Request) -> Response:
        """The home page: to one's own page once signed in."""
        found = self.viewer(request)
        if found.student:
            return RedirectResponse(f'/students/{found.student.id}', 303)
        if found.staff:
            return RedirectResponse('/staff', 303)
        return self.page('home.html', found)

    def sign_in(self, request: Request) -> Response:
        """A student's sign-in link: a page that names whose link it is, with a button
        that signs in (a link alone never changes who the browser is signed in as, so
        another site cannot sign a student in as someone else); the button's post
        starts the session."""
        token = request.path_params['token']
        student = self.records.student_of_token(token)
        if student is None:
            return self.page('message.html', Viewer(), 403, title='Not a sign-in link',
                             message='This link is not valid (any more): ask your instructor '
                             'for a new one.')
        if request.method == 'GET':
            return self.page('signin.html', self.viewer(request), student=student, token=token)
        sign_in_student(request, self.records, student, token)
        return JSONResponse({'go': f'/students/{student.id}'})

    async def log_in(self, request: Request) -> Response:
        """The staff's sign-in form, and its answer."""
        if request.method == 'GET':
            return self.page('login.html', self.viewer(request))
        form = await request.form(max_files=0, max_fields=3)
        name, password = str(form.get('name', '')), str(form.get('password', ''))
        address = request.client.host if request.client else ''
        refused = await run_in_threadpool(self.staff_sign_ins.check, name, password, address)
        if refused:
            return JSONResponse({'error': refused}, 403)
        sign_in_staff(request, self.records, name)
        return JSONResponse({'go': '/staff'})

    def log_out(self, request: Request) -> Response:
        """End the session, and the account's others."""
        sign_out(request, self.records)
        return JSONResponse({'go': '/'})

    def board(self, request: Request) -> Response:
        """The leaderboard's page."""
        found = self.signed_in(request)
        me = found.student.id if found.student else None
        board = self.arena.leaderboard.board
        return self.page('board.html', found, board=board.plain(me),
                         plot=rating_plot(self.board_series(board, me),
                                          mine=self.shown(me) if me else None))

    def board_series(self, board: Board, me: str | None) -> list[Series]:
        """Return the lines of the leaderboard's plot: the Elo over time of the first
        PLOT_PLAYERS players' versions on the ladder (and the viewer's own), each by the
        name it shows."""
        rows = list(board.rows[:PLOT_PLAYERS])
        rows += [row for row in board.rows[PLOT_PLAYERS:] if me is not None and row.student == me]
        return [(row.name, elo_line(self.arena.history.of(row.standing.player), row))
                for row in rows]

    def board_json(self, request: Request) -> Response:
        """The leaderboard as JSON."""
        found = self.signed_in(request)
        me = found.student.id if found.student else None
        return JSONResponse(self.arena.leaderboard.board.plain(me))

    def events(self, request: Request) -> Response:
        """The leaderboard's live stream: each new board as an event 'board'."""
        found = self.signed_in(request)
        me = found.student.id if found.student else None
        leaderboard = self.arena.leaderboard

        async def stream() -> AsyncIterator[str]:
            shown, quiet = -1, 0.0
            while True:
                current = leaderboard.board
                if current.number != shown:
                    shown, quiet = current.number, 0.0
                    yield f'event: board\ndata: {json.dumps(current.plain(me))}\n\n'
                elif quiet >= KEEP_ALIVE_SECONDS:
                    quiet = 0.0
                    yield ': still here\n\n'
                await asyncio.sleep(EVENT_POLL_SECONDS)
                quiet += EVENT_POLL_SECONDS

        return StreamingResponse(stream(), media_type='text/event-stream',
                                 headers={'cache-control': 'no-store'})
