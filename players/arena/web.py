"""The arena's web pages: Starlette routes over an Arena, with sessions and forms
protected by signed cookies (Starlette's sessions, starlette-csrf's double-submit
tokens) and every text a student controls escaped by Jinja2's templates. Every
route that shows a student's things asks access.Viewer.may_see; one that may not
answers 404, as for a student that does not exist."""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
from importlib import resources
from typing import Any, AsyncIterator, Callable

import jinja2
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import (HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse,
                                 Response, StreamingResponse)
from starlette.routing import Route
from starlette_csrf import CSRFMiddleware

from players.tournaments.store import Store
from . import game_pages
from .access import (Guard, Viewer, password_matches, sign_in_staff, sign_in_student, viewer_of)
from .arena import Arena
from .grades import grades_csv, gradescope_csv
from .ladder_loop import GAMES_FILE
from .records import CHECKING, Version
from .uploads import UploadError

PSEUDONYM = re.compile(r'[^\x00-\x1f\x7f]{1,30}')
"""A pseudonym: 1 to 30 characters, none of them control characters."""
PAGE_ROWS = 200
"""The most games a list shows."""
EVENT_POLL_SECONDS = 0.5
"""How often a live leaderboard's stream looks for a new board."""
KEEP_ALIVE_SECONDS = 15.0
"""The longest a live stream goes without a word."""
STATIC = {'arena.js': 'text/javascript', 'game.js': 'text/javascript', 'arena.css': 'text/css'}
"""The arena's own scripts and styles, by name."""
REPORT_ASSETS = {'report.js': ('html_report.js', 'text/javascript'),
                 'report.css': ('html_report.css', 'text/css')}
"""The HTML report's replay, served as the arena's own, by name."""


def make_app(arena: Arena) -> Starlette:
    """Return the arena's web application."""
    records = arena.records
    secret = arena.secret()
    templates = jinja2.Environment(
        loader=jinja2.PackageLoader(__package__, 'templates'), autoescape=True,
        undefined=jinja2.StrictUndefined)
    templates.filters['when'] = lambda seconds: time.strftime('%Y-%m-%d %H:%M:%S',
                                                              time.localtime(seconds))

    def page(request: Request, name: str, viewer: Viewer, status: int = 200,
             **context: Any) -> HTMLResponse:
        text = templates.get_template(name).render(viewer=viewer, closed=arena.hand_in.closed(),
                                                   ladder_error=arena.ladder.error, **context)
        return HTMLResponse(text, status)

    def shown(name: str) -> str:
        student = records.student(name)
        return student.shown if student else name

    def viewer(request: Request) -> Viewer:
        return viewer_of(request, records)

    def signed_in(request: Request) -> Viewer:
        found = viewer(request)
        if not found.signed_in:
            raise HTTPException(303, headers={'location': '/'})
        return found

    def owner(request: Request) -> tuple[Viewer, str]:
        """The viewer and the student of the address, who must be one the viewer may see."""
        found = signed_in(request)
        student = request.path_params['student']
        if not found.may_see(student) or records.student(student) is None:
            raise HTTPException(404)
        return found, student

    def staff_only(request: Request) -> Viewer:
        found = signed_in(request)
        if found.staff is None:
            raise HTTPException(404)
        return found

    def games_store() -> Store | None:
        path = arena.settings.path(GAMES_FILE)
        return Store.read(path) if os.path.isfile(path) else None

    # Signing in and out.
    def home(request: Request) -> Response:
        found = viewer(request)
        if found.student:
            return RedirectResponse(f'/students/{found.student.id}', 303)
        if found.staff:
            return RedirectResponse('/staff', 303)
        return page(request, 'home.html', found)

    def sign_in(request: Request) -> Response:
        token = request.path_params['token']
        student = records.student_of_token(token)
        if student is None:
            return page(request, 'message.html', Viewer(), 403, title='Not a sign-in link',
                        message='This link is not valid (any more): ask your instructor for '
                        'a new one.')
        sign_in_student(request, student, token)
        return RedirectResponse(f'/students/{student.id}', 303)

    async def log_in(request: Request) -> Response:
        if request.method == 'GET':
            return page(request, 'login.html', viewer(request))
        form = await request.form()
        name, password = str(form.get('name', '')), str(form.get('password', ''))
        hashed = records.staff_hash(name)
        if hashed is None or not await run_in_threadpool(password_matches, hashed, password):
            return JSONResponse({'error': 'no such name and password'}, 403)
        sign_in_staff(request, name)
        return JSONResponse({'go': '/staff'})

    def log_out(request: Request) -> Response:
        request.session.clear()
        return JSONResponse({'go': '/'})

    # The leaderboard.
    def board(request: Request) -> Response:
        found = signed_in(request)
        me = found.student.id if found.student else None
        return page(request, 'board.html', found, board=arena.leaderboard.board.plain(me))

    def board_json(request: Request) -> Response:
        found = signed_in(request)
        return JSONResponse(arena.leaderboard.board.plain(found.student and found.student.id))

    def events(request: Request) -> Response:
        found = signed_in(request)
        me = found.student.id if found.student else None

        async def stream() -> AsyncIterator[str]:
            shown_number = -1
            quiet = 0.0
            while True:
                current = arena.leaderboard.board
                if current.number != shown_number:
                    shown_number = current.number
                    quiet = 0.0
                    yield f'event: board\ndata: {json.dumps(current.plain(me))}\n\n'
                elif quiet >= KEEP_ALIVE_SECONDS:
                    quiet = 0.0
                    yield ': still here\n\n'
                await asyncio.sleep(EVENT_POLL_SECONDS)
                quiet += EVENT_POLL_SECONDS

        return StreamingResponse(stream(), media_type='text/event-stream',
                                 headers={'cache-control': 'no-store'})

    # A student's page.
    def student_page(request: Request) -> Response:
        found, student = owner(request)
        return page(request, 'student.html', found, student=records.student(student),
                    versions=list(reversed(records.versions(student))),
                    playing=records.playing().get(student),
                    origin=str(request.base_url).rstrip('/'))

    def versions_json(request: Request) -> Response:
        _, student = owner(request)
        return JSONResponse([version_plain(version) for version in records.versions(student)])

    async def upload(request: Request) -> Response:
        found, student = owner(request)
        if found.student is None or found.student.id != student:
            raise HTTPException(404)
        form = await request.form(max_files=1, max_fields=2)
        handed = form.get('file')
        if not isinstance(handed, UploadFile) or not handed.filename:
            return JSONResponse({'error': 'choose a file to hand in'}, 400)
        data = await handed.read()
        return await hand_in(student, data, handed.filename)

    async def hand_in(student: str, data: bytes, filename: str) -> Response:
        try:
            version = await run_in_threadpool(arena.hand_in.submit, student, data, filename)
        except UploadError as error:
            return JSONResponse({'error': str(error)}, 400)
        return JSONResponse(version_plain(version))

    async def pseudonym(request: Request) -> Response:
        found, student = owner(request)
        if found.student is None or found.student.id != student:
            raise HTTPException(404)
        form = await request.form(max_files=0, max_fields=2)
        chosen = str(form.get('pseudonym', '')).strip()
        if chosen and not PSEUDONYM.fullmatch(chosen):
            return JSONResponse({'error': 'a pseudonym has 1 to 30 characters, none of them '
                                          'control characters'}, 400)
        taken = {other.shown for other in records.students() if other.id != student}
        if chosen and (chosen in taken or chosen in arena.settings.house):
            return JSONResponse({'error': f'{chosen!r} is taken: choose another'}, 400)
        records.set_pseudonym(student, chosen or None)
        arena.leaderboard.changed()
        return JSONResponse({'go': f'/students/{student}'})

    def version_code(request: Request) -> Response:
        found, student = owner(request)
        version = records.version(student, int(request.path_params['number']))
        if version is None:
            raise HTTPException(404)
        return page(request, 'code.html', found, student=records.student(student),
                    version=version, files=version_files(version))

    def games(request: Request) -> Response:
        found, student = owner(request)
        chosen = {key: request.query_params.get(key) or None
                  for key in ('opponent', 'variant', 'result', 'ending')}
        if chosen['result'] not in (None, *game_pages.RESULTS) \
                or chosen['ending'] not in (None, *game_pages.ENDINGS):
            raise HTTPException(400)
        store = games_store()
        rows, players, variants = [], [], list(arena.settings.variants)
        if store is not None:
            with store:
                rows = game_pages.games_of(store, student, shown, **chosen)
                players = [name for name in store.settings.players if name != student]
        return page(request, 'games.html', found, student=records.student(student),
                    rows=rows[:PAGE_ROWS], count=len(rows), chosen=chosen,
                    opponents=[(name, shown(name)) for name in players], variants=variants,
                    results=game_pages.RESULTS, endings=game_pages.ENDINGS)

    def game(request: Request) -> Response:
        found, student = owner(request)
        store = games_store()
        if store is None:
            raise HTTPException(404)
        with store:
            record = game_pages.find_game(store.records(player=student),
                                          request.path_params['game'])
            settings = store.settings
        if record is None:
            raise HTTPException(404)
        seat = record.seat_of(student)
        log = (record.stderr_first, record.stderr_second)[seat]
        data = game_pages.replay_data(record, settings, shown)
        payload = json.dumps(data, separators=(',', ':')).replace('<', '\\u003c')
        return page(request, 'game.html', found, student=records.student(student),
                    record=record, seat=seat, log=log, data=payload,
                    forfeit=shown(record.forfeit) if record.forfeit else None,
                    opponent=shown(record.names[1 - seat]),
                    result=game_pages.result_for(record, student))

    # The staff's pages.
    def staff(request: Request) -> Response:
        found = staff_only(request)
        everyone = records.students()
        versions: dict[str, list[Version]] = {student.id: [] for student in everyone}
        for version in records.versions():
            versions.setdefault(version.student, []).append(version)
        return page(request, 'staff.html', found, students=everyone, versions=versions,
                    playing=records.playing(), deadline=arena.settings.deadline)

    def download(kind: str) -> Callable[[Request], Response]:
        def grades(request: Request) -> Response:
            staff_only(request)
            made = (gradescope_csv if kind == 'gradescope' else grades_csv)(
                records, arena.leaderboard.board)
            return Response(made, media_type='text/csv; charset=utf-8', headers={
                'content-disposition': f'attachment; filename="{kind}.csv"'})
        return grades

    async def close_hand_in(request: Request) -> Response:
        staff_only(request)
        form = await request.form(max_files=0, max_fields=2)
        arena.close_hand_in(form.get('open') != 'yes')
        return JSONResponse({'go': '/staff'})

    def rerun(request: Request) -> Response:
        staff_only(request)
        arena.rerun()
        return JSONResponse({'go': '/staff'})

    def new_link(request: Request) -> Response:
        staff_only(request)
        student = request.path_params['student']
        try:
            token = records.new_token(student)
        except KeyError:
            raise HTTPException(404) from None
        return JSONResponse({'link': f'{str(request.base_url).rstrip("/")}/signin/{token}'})

    # The terminal's hand-in: the student's token in the Authorization header.
    def token_student(request: Request) -> str:
        scheme, _, token = request.headers.get('authorization', '').partition(' ')
        student = records.student_of_token(token) if scheme.lower() == 'bearer' else None
        if student is None:
            raise HTTPException(401, 'give your token: Authorization: Bearer TOKEN')
        return student.id

    async def api_submit(request: Request) -> Response:
        student = token_student(request)
        filename = request.query_params.get('filename', '')
        data = b''.join([chunk async for chunk in request.stream()])
        return await hand_in(student, data, filename)

    def api_version(request: Request) -> Response:
        student = token_student(request)
        version = records.version(student, int(request.path_params['number']))
        if version is None:
            raise HTTPException(404)
        return JSONResponse(version_plain(version))

    def asset(request: Request) -> Response:
        name = request.path_params['name']
        if name in STATIC:
            text = resources.files(__package__).joinpath('static', name).read_text('utf-8')
            return Response(text, media_type=STATIC[name])
        if name in REPORT_ASSETS:
            file, kind = REPORT_ASSETS[name]
            return Response(resources.files('players.reports').joinpath(file).read_text('utf-8'),
                            media_type=kind)
        raise HTTPException(404)

    async def error_page(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 303:
            return RedirectResponse(error.headers['location'], 303)
        if request.url.path.startswith('/api/'):
            return JSONResponse({'error': error.detail}, error.status_code)
        return page(request, 'message.html', viewer(request), error.status_code,
                    title=f'{error.status_code}: {error.detail}',
                    message='There is nothing here for you.')

    routes = [
        Route('/', home), Route('/signin/{token}', sign_in),
        Route('/login', log_in, methods=['GET', 'POST']),
        Route('/logout', log_out, methods=['POST']),
        Route('/board', board), Route('/board.json', board_json), Route('/events', events),
        Route('/students/{student}', student_page),
        Route('/students/{student}/versions.json', versions_json),
        Route('/students/{student}/versions/{number:int}', version_code),
        Route('/students/{student}/upload', upload, methods=['POST']),
        Route('/students/{student}/pseudonym', pseudonym, methods=['POST']),
        Route('/students/{student}/games', games),
        Route('/students/{student}/games/{game}', game),
        Route('/students/{student}/link', new_link, methods=['POST']),
        Route('/staff', staff),
        Route('/staff/grades.csv', download('grades')),
        Route('/staff/gradescope.csv', download('gradescope')),
        Route('/staff/close', close_hand_in, methods=['POST']),
        Route('/staff/rerun', rerun, methods=['POST']),
        Route('/api/submit', api_submit, methods=['POST']),
        Route('/api/versions/{number:int}', api_version),
        Route('/static/{name}', asset),
    ]
    middleware = [
        Middleware(Guard, limit=arena.settings.limits.bytes + 64 * 1024),
        Middleware(SessionMiddleware, secret_key=secret, session_cookie='arena_session',
                   same_site='strict', max_age=30 * 24 * 3600),
        Middleware(CSRFMiddleware, secret=secret, exempt_urls=[re.compile(r'^/api/')],
                   cookie_samesite='strict'),
    ]
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={HTTPException: error_page})


def version_plain(version: Version) -> dict[str, object]:
    """Return what a student's page and terminal are told of a version."""
    return {'number': version.number, 'handed_in': version.handed_in, 'digest': version.digest,
            'filename': version.filename, 'status': version.status, 'verdict': version.verdict,
            'checking': version.status == CHECKING, 'check_lines': version.check_lines,
            'check_points': version.check_points}


def version_files(version: Version, limit: int = 200_000) -> list[tuple[str, str]]:
    """Return the files of a version as (path, text), the text cut at limit characters
    and bytes that are not UTF-8 replaced."""
    top = version.path if os.path.isdir(version.path) else os.path.dirname(version.path)
    found = [version.path] if os.path.isfile(version.path) else sorted(
        os.path.join(folder, name) for folder, _, names in os.walk(top) for name in names)
    files = []
    for path in found:
        with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), 'rb') as file:
            text = file.read(limit).decode('utf-8', errors='replace')
        files.append((os.path.relpath(path, top), text))
    return files
