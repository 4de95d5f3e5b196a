"""The arena's web application: Starlette routes over an Arena's pages, with sessions and
forms protected by signed cookies (Starlette's sessions, starlette-csrf's double-submit
tokens; the terminal's hand-in, which carries a token instead of cookies, is exempt),
every answer guarded (access.Guard), and the arena's scripts and styles served as its
own files."""

from __future__ import annotations

import re
from importlib import resources

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route
from starlette_csrf import CSRFMiddleware

from .access import Guard
from .arena import Arena
from .board_pages import BoardPages
from .challenge_pages import ChallengePages
from .play_pages import PlayPages
from .staff_pages import StaffPages
from .student_pages import StudentPages

ASSETS = {'arena.js': (__package__, 'static/arena.js', 'text/javascript'),
          'game.js': (__package__, 'static/game.js', 'text/javascript'),
          'play.js': (__package__, 'static/play.js', 'text/javascript'),
          'arena.css': (__package__, 'static/arena.css', 'text/css'),
          'report.js': ('players.reports', 'html_report.js', 'text/javascript'),
          'board.js': ('players.reports', 'board_drawing.js', 'text/javascript'),
          'report.css': ('players.reports', 'html_report.css', 'text/css')}
"""The scripts and styles served, by name: the arena's own and the HTML report's replay."""
HOST_ONLY = '__Host-'
"""The prefix of the cookies' names over HTTPS: a browser takes such a cookie only from
this host, never one set for a sibling domain by another site."""
SESSION_SECONDS = 30 * 24 * 3600
"""How long a session lasts without signing in again."""


def make_app(arena: Arena, secure: bool = False) -> Starlette:
    """Return the arena's web application; secure, when students reach it over HTTPS
    (behind a reverse proxy), keeps its cookies off plain HTTP."""
    board, student, staff = BoardPages(arena), StudentPages(arena), StaffPages(arena)
    challenges, play = ChallengePages(arena), PlayPages(arena)
    secret = arena.secret()

    async def error_page(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 303:
            return RedirectResponse((error.headers or {})['location'], 303)
        if request.url.path.startswith('/api/'):
            return JSONResponse({'error': error.detail}, error.status_code)
        return board.page('message.html', board.viewer(request), error.status_code,
                          title=f'{error.status_code}: {error.detail}',
                          message='There is nothing here for you.')

    routes = [
        Route('/', board.home), Route('/signin/{token}', board.sign_in, methods=['GET', 'POST']),
        Route('/login', board.log_in, methods=['GET', 'POST']),
        Route('/logout', board.log_out, methods=['POST']),
        Route('/board', board.board), Route('/board.json', board.board_json),
        Route('/events', board.events),
        Route('/students/{student}', student.student_page),
        Route('/students/{student}/versions.json', student.versions_json),
        Route('/students/{student}/versions/{number:int}', student.version_code),
        Route('/students/{student}/upload', student.upload, methods=['POST']),
        Route('/students/{student}/pseudonym', student.pseudonym, methods=['POST']),
        Route('/students/{student}/games', student.games),
        Route('/students/{student}/games/{game}', student.game),
        Route('/students/{student}/challenges', challenges.ask, methods=['POST']),
        Route('/students/{student}/challenges/{challenge:int}', challenges.challenge_page),
        Route('/students/{student}/challenges/{challenge:int}/games/{game}',
              challenges.challenge_game),
        Route('/students/{student}/play', play.start, methods=['POST']),
        Route('/students/{student}/play/{number:int}', play.play_page),
        Route('/students/{student}/play/{number:int}.json', play.play_json),
        Route('/students/{student}/play/{number:int}/move', play.move, methods=['POST']),
        Route('/students/{student}/play/{number:int}/resign', play.resign, methods=['POST']),
        Route('/students/{student}/play/{number:int}/replay', play.replay_page),
        Route('/students/{student}/link', staff.new_link, methods=['POST']),
        Route('/staff', staff.staff),
        Route('/staff/grades.csv', staff.download('grades')),
        Route('/staff/gradescope.csv', staff.download('gradescope')),
        Route('/staff/close', staff.close_hand_in, methods=['POST']),
        Route('/staff/rerun', staff.rerun, methods=['POST']),
        Route('/api/submit', student.api_submit, methods=['POST']),
        Route('/api/versions/{number:int}', student.api_version),
        Route('/static/{name}', asset),
    ]
    middleware = [
        Middleware(Guard, upload_bytes=arena.settings.limits.bytes),
        Middleware(SessionMiddleware, secret_key=secret,
                   session_cookie=f'{HOST_ONLY if secure else ""}arena_session',
                   same_site='strict', max_age=SESSION_SECONDS, https_only=secure),
        Middleware(CSRFMiddleware, secret=secret, exempt_urls=[re.compile(r'^/api/')],
                   cookie_name=f'{HOST_ONLY if secure else ""}csrftoken',
                   cookie_samesite='strict', cookie_secure=secure),
    ]
    async def gone(request: Request, error: Exception) -> Response:
        return Response(status_code=400)  # the client left mid-request: no one to answer

    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={HTTPException: error_page, ClientDisconnect: gone})


def asset(request: Request) -> Response:
    """A script or style of ASSETS."""
    found = ASSETS.get(request.path_params['name'])
    if found is None:
        raise HTTPException(404)
    package, name, kind = found
    return Response(resources.files(package).joinpath(name).read_text('utf-8'), media_type=kind)
