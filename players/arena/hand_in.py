"""Handing in: an upload checked and unpacked as a student's new version, then its
checks in worker processes (the web process runs no student's code and starts no
jail): the load check in a jail, whose verdict says whether the version plays, then
the course's grader, if it has a [check] table. A version is recorded only once it is
unpacked, and a version whose checks a stopped server left unfinished is checked again
when it starts."""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable

from players.tournaments.workers import WorkerPool
from .fair_queue import FairQueue
from .records import CANNOT_PLAY, CHECKING, PLAYS, Records, Version
from .settings import ArenaSettings
from .uploads import UploadError, unpack

UPLOADS = 'uploads'
"""The arena's folder of versions: UPLOADS/STUDENT/NUMBER-DIGEST/, one a version."""


@dataclass(frozen=True)
class LoadVerdict:
    """Whether a version loads and plays, and if not, why."""

    plays: bool
    why: str = ''


@dataclass(frozen=True)
class GraderVerdict:
    """The grader's lines, as check prints them, and its total."""

    lines: str
    points: str


def load_verdict(path: str, settings: ArenaSettings) -> LoadVerdict:
    """Load the submission at path in a jail for the ladder's first variant, as a
    tournament loads its players, and say whether it plays (run in a worker that
    checks and does nothing else: its jail servers are kept for the next check)."""
    from players.sandbox import jail
    from players.tournaments import entrants
    jail.prepare_jailer()
    entered = entrants.check({'submission': path}, settings.variants[0], settings.rules,
                             strict=False, submitted=[path], limits=settings.folder_limits,
                             support=settings.support, keep_servers=True)
    why = entered.broken.get('submission')
    return LoadVerdict(why is None, why or '')


def grader_verdict(path: str, settings: ArenaSettings) -> GraderVerdict:
    """Grade the submission at path with the course's grader (run in a worker)."""
    from players.grading.grader import grade
    from players.sandbox import jail
    assert settings.check is not None
    jail.prepare_jailer()
    report = grade(path, settings.check)
    return GraderVerdict('\n'.join(report.lines()), f'{report.points:g}/{report.max_points:g}')


def folder_bytes(folder: str) -> int:
    """Return how many bytes the files under folder hold."""
    return sum(os.lstat(os.path.join(top, name)).st_size
               for top, _, names in os.walk(folder) for name in names)


def without_folder(text: str, version: Version) -> str:
    """Return a check's text with the arena's folder of the version left out of the
    paths it names: a student is told of their files by their own names."""
    student_folder = os.path.dirname(version.path)
    if os.path.isdir(version.path):  # a folder's files are named from its top
        text = text.replace(version.path + os.sep, '')
    return text.replace(student_folder + os.sep, '')


class HandIn:
    """Takes students' uploads and checks each version, one at a time, in worker
    processes, the students taking turns; calls checked(version) after each verdict,
    with the version as it is recorded."""

    def __init__(self, settings: ArenaSettings, records: Records,
                 checked: Callable[[Version], None] = lambda version: None):
        self.settings = settings
        self.records = records
        self.checked = checked
        self._loads = WorkerPool(1, start_method='spawn')
        self._grades = WorkerPool(1, start_method='spawn') if settings.check else None
        self._to_check: FairQueue[Version] = FairQueue()
        self._to_grade: FairQueue[Version] = FairQueue()
        self._threads = [threading.Thread(target=self._serve, args=(queue, work), daemon=True,
                                          name=name)
                         for queue, work, name in ((self._to_check, self._check, 'hand-in'),
                                                   (self._to_grade, self._grade, 'grading'))]
        self._lock = threading.Lock()
        os.makedirs(settings.path(UPLOADS), exist_ok=True)

    def start(self) -> None:
        """Remove what a stopped server unpacked but never recorded, and check again
        every version whose checks it left unfinished."""
        recorded = {os.path.realpath(path) for path in self.records.paths()}
        top = self.settings.path(UPLOADS)
        for student in os.listdir(top):
            for name in os.listdir(os.path.join(top, student)):
                folder = os.path.join(top, student, name)
                kept = os.path.realpath(folder)
                if not any(path == kept or path.startswith(kept + os.sep) for path in recorded):
                    shutil.rmtree(folder, ignore_errors=True)
        for thread in self._threads:
            thread.start()
        for version in self.records.versions(status=CHECKING):
            self._to_check.put(version.student, version)
        for version in self.records.versions():
            if version.status != CHECKING and self._grades and not version.check_lines:
                self._to_grade.put(version.student, version)

    def closed(self) -> str | None:
        """Say why the hand-in is closed, or None while it is open."""
        if self.records.get('closed') == 'yes':
            return 'the hand-in is closed'
        deadline = self.settings.deadline
        if deadline is not None and time.time() >= deadline:
            return f'the hand-in closed at {time.strftime("%Y-%m-%d %H:%M", time.localtime(deadline))}'
        return None

    def submit(self, student: str, data: bytes, filename: str) -> Version:
        """Check and unpack an upload as a student's new version, record it and queue
        its checks; return it. Raises UploadError for an upload refused (the hand-in
        closed, or the upload over a limit or malformed), with nothing kept."""
        why = self.closed()
        if why:
            raise UploadError(why)
        digest = hashlib.sha256(data).hexdigest()
        folder = self.settings.path(UPLOADS, student)
        os.makedirs(folder, exist_ok=True)
        unpacking = tempfile.mkdtemp(prefix='.incoming-', dir=folder)
        try:
            made = unpack(data, filename, unpacking, self.settings.limits)
            kept = folder_bytes(folder)
            if kept > self.settings.quota_mb * 1e6:
                raise UploadError(f'your versions hold {kept / 1e6:.1f} MB with this one; a '
                                  f'student may keep {self.settings.quota_mb:g} MB: ask your '
                                  'instructor')
            with self._lock:  # the folder's number is the version's
                number = self.records.next_number(student)
                final = os.path.join(folder, f'{number}-{digest[:12]}')
                os.rename(unpacking, final)
                version = self.records.add_version(
                    student, digest, filename, os.path.join(final, os.path.relpath(made, unpacking)))
        except BaseException:
            shutil.rmtree(unpacking, ignore_errors=True)
            raise
        self._to_check.put(student, version)
        return version

    @staticmethod
    def _serve(queue: FairQueue[Version], work: Callable[[Version], None]) -> None:
        """Do work on each version of queue, in turn, until it is closed."""
        while (version := queue.get()) is not None:
            work(version)

    def _check(self, version: Version) -> None:
        """Load a version in a jail and record the verdict; then queue its grading."""
        try:
            verdict = self._loads.submit(load_verdict, version.path, self.settings).result()
        except Exception as error:  # the machinery's, never the student's: say so
            verdict = LoadVerdict(False, f'the arena could not check it ({type(error).__name__}); '
                                  'hand it in again')
        status, why = PLAYS if verdict.plays else CANNOT_PLAY, without_folder(verdict.why, version)
        self.records.set_verdict(version.student, version.number, status, why)
        self.checked(replace(version, status=status, verdict=why))
        if self._grades:
            self._to_grade.put(version.student, version)

    def _grade(self, version: Version) -> None:
        """Grade a version with the course's grader and record its lines."""
        assert self._grades is not None
        try:
            graded = self._grades.submit(grader_verdict, version.path, self.settings).result()
        except Exception as error:
            graded = GraderVerdict(f'the arena could not grade it ({type(error).__name__})', '')
        self.records.set_grade(version.student, version.number,
                               without_folder(graded.lines, version), graded.points)

    def close(self) -> None:
        """Stop checking: the checks under way are abandoned (and done again at the
        next start)."""
        for queue in (self._to_check, self._to_grade):
            queue.close()
        for pool in (self._loads, self._grades):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
