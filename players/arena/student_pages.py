"""A student's pages: what they are told of their versions, their versions with the
verdicts, handing in (from the page or a terminal, with their token), their
pseudonym, their code, and their games, each replayed with the log their bot wrote.
Staff see every student's; a student only their own."""

from __future__ import annotations

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from . import game_pages
from .leaderboard import elo_line
from .names import pseudonym_problem
from .rating_history import changes
from .rating_plot import rating_plot
from .site import Site, version_files, version_plain
from .uploads import UploadError

PAGE_ROWS = 200
"""The most games a list shows."""
CHALLENGE_ROWS = 20
"""The most challenges a student's page lists, the newest."""
NOTICE_ROWS = 10
"""The most notices a student's page shows, the newest."""
PLAYED_ROWS = 10
"""The most games in the browser a student's page lists, the newest."""


class StudentPages(Site):
    """A student's pages (see the module's docstring)."""

    def student_page(self, request: Request) -> Response:
        """A student's page: the news of their versions, hand-in, pseudonym,
        challenges, games in the browser, versions with their verdicts and what each
        changed in the standings, and their Elo over time."""
        found, student = self.owner(request)
        notices = self.arena.notices.of(student, NOTICE_ROWS)
        if found.student is not None and found.student.id == student:
            self.arena.notices.seen(student)  # shown to them now, still marked new
        notes = self.arena.history.of(student)
        now = next((row for row in self.arena.leaderboard.board.rows if row.student == student),
                   None)
        by_version = [(f'version {number}', elo_line(notes, now) if now and now.version == number
                       else [(note.time, note.elo) for note in notes if note.version == number])
                      for number in sorted({note.version for note in notes if note.version})]
        return self.page('student.html', found, student=self.records.student(student),
                         versions=list(reversed(self.records.versions(student))),
                         playing=self.records.playing().get(student),
                         origin=str(request.base_url).rstrip('/'),
                         opponents=self.choices(self.arena.challenges.opponents(student), found),
                         challenges=self.records.challenges(student)[:CHALLENGE_ROWS],
                         shown=self.all_shown(), variants=self.arena.settings.variants,
                         rules=self.arena.settings.challenges, plot=rating_plot(by_version),
                         standing=changes(notes), notices=notices,
                         play_with=self.choices(self.arena.live.opponents(student), found),
                         played=self.arena.live.finished(student)[:PLAYED_ROWS],
                         play_games=self.arena.settings.play.games)

    def versions_json(self, request: Request) -> Response:
        """A student's versions as JSON, for the page that waits for a verdict."""
        _, student = self.owner(request)
        return JSONResponse([version_plain(version)
                             for version in self.records.versions(student)])

    async def upload(self, request: Request) -> Response:
        """Hand in a file from the student's own page."""
        _, student = self.owner(request, own=True)
        form = await request.form(max_files=1, max_fields=2)
        handed = form.get('file')
        if not isinstance(handed, UploadFile) or not handed.filename:
            return JSONResponse({'error': 'choose a file to hand in'}, 400)
        return await self.hand_in(student, await handed.read(), handed.filename)

    async def hand_in(self, student: str, data: bytes, filename: str) -> Response:
        """Hand in an upload as a student's new version; answer the version, or why not."""
        try:
            version = await run_in_threadpool(self.arena.hand_in.submit, student, data,
                                              filename)
        except UploadError as error:
            return JSONResponse({'error': str(error)}, 400)
        return JSONResponse(version_plain(version))

    async def pseudonym(self, request: Request) -> Response:
        """Set the name the student shows on the leaderboard."""
        _, student = self.owner(request, own=True)
        form = await request.form(max_files=0, max_fields=2)
        chosen = str(form.get('pseudonym', '')).strip()
        others = [name for other in self.records.students() if other.id != student
                  for name in (other.id, other.name, other.pseudonym) if name]
        problem = chosen and pseudonym_problem(chosen, [*others, *self.arena.settings.house,
                                                        *self.records.staff_names()])
        if problem:
            return JSONResponse({'error': problem}, 400)
        self.records.set_pseudonym(student, chosen or None)
        self.arena.leaderboard.changed()
        return JSONResponse({'go': f'/students/{student}'})

    def version_code(self, request: Request) -> Response:
        """The files of one of a student's versions."""
        found, student = self.owner(request)
        version = self.records.version(student, int(request.path_params['number']))
        if version is None:
            raise HTTPException(404)
        return self.page('code.html', found, student=self.records.student(student),
                         version=version, files=version_files(version))

    def games(self, request: Request) -> Response:
        """A student's games, filtered by opponent, variant, result and ending."""
        found, student = self.owner(request)
        chosen = {key: request.query_params.get(key) or None
                  for key in ('opponent', 'variant', 'result', 'ending')}
        if chosen['result'] not in (None, *game_pages.RESULTS) \
                or chosen['ending'] not in (None, *game_pages.ENDINGS):
            raise HTTPException(400)
        store, shown = self.games_store(), self.all_shown()
        rows, every, others = [], [], {}
        if store is not None:
            with store:
                others = {self.opaque(name, found): name for name in store.settings.players
                          if name != student}
                if chosen['opponent'] is not None:  # a key of none of them matches no game
                    chosen['opponent'] = others.get(chosen['opponent'], '\0')
                rows = game_pages.games_of(store, student, shown, **chosen)
                every = rows if not any(chosen.values()) else \
                    game_pages.games_of(store, student, shown)
        playing = self.records.playing().get(student)
        return self.page('games.html', found, student=self.records.student(student),
                         rows=rows[:PAGE_ROWS], count=len(rows), chosen=chosen,
                         records=game_pages.head_to_head(every),
                         version=playing.number if playing else None,
                         opponents=[(key, name, shown(name)) for key, name in others.items()],
                         variants=self.arena.settings.variants, results=game_pages.RESULTS,
                         endings=game_pages.ENDINGS)

    def game(self, request: Request) -> Response:
        """One of a student's games, replayed, with the log their bot wrote in it."""
        found, student = self.owner(request)
        store = self.games_store()
        if store is None:
            raise HTTPException(404)
        with store:
            record = game_pages.find_game(store.records(player=student),
                                          request.path_params['game'])
            settings = store.settings
        if record is None:
            raise HTTPException(404)
        playing = self.records.playing().get(student)
        return self.replay(found, student, record, settings,
                           playing.number if playing else None)

    def token_student(self, request: Request) -> str:
        """Return the id of the student whose token the request gives
        (Authorization: Bearer TOKEN); answer 401 without one."""
        scheme, _, token = request.headers.get('authorization', '').partition(' ')
        student = self.records.student_of_token(token) if scheme.lower() == 'bearer' else None
        if student is None:
            raise HTTPException(401, 'give your token: Authorization: Bearer TOKEN')
        return student.id

    async def api_submit(self, request: Request) -> Response:
        """Hand in from a terminal: the upload is the body, its name ?filename=."""
        student = self.token_student(request)
        data = b''.join([chunk async for chunk in request.stream()])
        return await self.hand_in(student, data, request.query_params.get('filename', ''))

    def api_version(self, request: Request) -> Response:
        """A version of the token's student, as JSON."""
        student = self.token_student(request)
        version = self.records.version(student, int(request.path_params['number']))
        if version is None:
            raise HTTPException(404)
        return JSONResponse(version_plain(version))
