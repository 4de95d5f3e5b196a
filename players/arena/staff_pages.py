"""The staff's pages: every student with their versions and verdicts, the grades to
download, closing the hand-in, playing the ladder again and a student's new link."""

from __future__ import annotations

from typing import Callable

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .grades import grades_csv, gradescope_csv
from .records import Version
from .site import Site

DOWNLOADS = {'grades': grades_csv, 'gradescope': gradescope_csv}
"""The grades' files, by name: a spreadsheet's CSV, and Gradescope's."""


class StaffPages(Site):
    """The staff's pages (see the module's docstring)."""

    def staff(self, request: Request) -> Response:
        """Every student, their versions and what they play."""
        found = self.staff_only(request)
        everyone = self.records.students()
        versions: dict[str, list[Version]] = {student.id: [] for student in everyone}
        for version in self.records.versions():
            versions.setdefault(version.student, []).append(version)
        return self.page('staff.html', found, students=everyone, versions=versions,
                         playing=self.records.playing(), deadline=self.arena.settings.deadline)

    def download(self, kind: str) -> Callable[[Request], Response]:
        """Return the route of a grades file of DOWNLOADS."""
        def grades(request: Request) -> Response:
            self.staff_only(request)
            made = DOWNLOADS[kind](self.records, self.arena.leaderboard.board)
            return Response(made, media_type='text/csv; charset=utf-8', headers={
                'content-disposition': f'attachment; filename="{kind}.csv"'})
        return grades

    async def close_hand_in(self, request: Request) -> Response:
        """Close the hand-in (or open it again, with the field open=yes)."""
        self.staff_only(request)
        form = await request.form(max_files=0, max_fields=2)
        self.arena.close_hand_in(form.get('open') != 'yes')
        return JSONResponse({'go': '/staff'})

    def rerun(self, request: Request) -> Response:
        """Play every game of the ladder again."""
        self.staff_only(request)
        self.arena.rerun()
        return JSONResponse({'go': '/staff'})

    def new_link(self, request: Request) -> Response:
        """Give a student a new sign-in link, the old one no longer valid."""
        self.staff_only(request)
        try:
            token = self.records.new_token(request.path_params['student'])
        except KeyError:
            raise HTTPException(404) from None
        return JSONResponse({'link': f'{str(request.base_url).rstrip("/")}/signin/{token}'})
