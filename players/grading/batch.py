"""Grading a whole class: many files (or folders of them) in parallel, one summary
(CSV and JSON: a row per student, points per function, total) and each student's
report. A file that cannot be loaded still gets its row and a report saying why."""

from __future__ import annotations

import concurrent.futures
import csv
import json
import multiprocessing
import os
from typing import Iterator

from players.sandbox import jail
from players.remote.player_code import program_names
from players.player_spec import parse_spec
from players.reports.export import csv_row
from players.reports.player_text import for_terminal, writable

from .checks import make_checks, make_games
from .grader import grade
from .loading import LoadError, handed_in, unloadable
from .report import Report
from .settings import FUNCTIONS, Settings

NAME_BYTES = 200
"""The longest a student's name may be, in bytes: its report's file name
(NAME.json) stays within the 255 bytes a file system allows, numbered if need be."""


def collect(paths: list[str]) -> list[str]:
    """Return the submissions the paths name: a Python file itself, a program's spec
    ('exec:COMMAND', an executable file), one submission folder ('carol:' or
    'carol:mine.py', see loading.read_submission), a folder's .py files and its
    folders (each a student's submission folder), sorted, hidden ones and
    __pycache__ left out. Raise LoadError for a path that does not exist."""
    files = []
    for path in paths:
        if parse_spec(path).is_program or not os.path.exists(path) and ':' in path \
                and os.path.isdir(path.rpartition(':')[0]):
            files.append(path)
        elif os.path.isdir(path):
            inside = [os.path.join(path, name) for name in sorted(os.listdir(path))
                      if not name.startswith('.') and name != '__pycache__']
            files += [name for name in inside if os.path.isdir(name)
                      or name.endswith('.py') and os.path.isfile(name)]
        elif os.path.isfile(path):
            files.append(path)
        else:
            raise LoadError(f'no such file or folder {path!r}')
    return list(dict.fromkeys(files))


def student_names(files: list[str]) -> dict[str, str]:
    """A name for each file's student: the file's name without .py (a submission
    folder's name), with its folder's name in front where two files share a name,
    and numbered where two still do (alice.py and the folder alice: subs-alice-2 and
    subs-alice-3 where a subs-alice.py takes subs-alice, else subs-alice and
    subs-alice-2); a name of a file's own is never given to another. A byte of a
    name that is not UTF-8 is written as its escape (see player_text.writable), and
    a name too long for its report's file is cut to NAME_BYTES."""
    stems = [_clipped(writable(
        program_names(path)[0] if parse_spec(path).is_program
        else os.path.splitext(os.path.basename(os.path.normpath(handed_in(path)[0])))[0]))
        for path in files]
    own = {path: stem for path, stem in zip(files, stems) if stems.count(stem) == 1}
    names = dict(own)
    for path, stem in zip(files, stems):
        if path in own:
            continue
        if parse_spec(path).is_program:
            name = program_names(path)[-1].replace('/', '-')
        else:
            name = f'{os.path.basename(os.path.dirname(os.path.abspath(path)))}-{stem}'
        name = unique = _clipped(writable(name))
        number = 1
        while unique in names.values():
            number += 1
            unique = f'{name}-{number}'
        names[path] = unique
    return {path: names[path] for path in files}


def _clipped(name: str) -> str:
    """Return name, cut to at most NAME_BYTES bytes of UTF-8 (at a character's end)."""
    return name.encode()[:NAME_BYTES].decode(errors='ignore')


def grade_all(files: list[str], settings: Settings, jobs: int = 1) -> Iterator[Report]:
    """Grade each file, jobs at a time; yield the reports as they are done."""
    if jobs <= 1 or len(files) <= 1:
        games = make_games(settings)
        checks = make_checks(settings, games)
        for path in files:
            yield _grade_one(path, settings, checks, games)
        return
    context = multiprocessing.get_context('fork')
    with concurrent.futures.ProcessPoolExecutor(jobs, context, initializer=_start_worker,
                                                initargs=(settings,)) as pool:
        futures = [pool.submit(_grade_in_worker, path) for path in files]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()


_worker: dict = {}


def _start_worker(settings: Settings) -> None:
    """In a grading worker: prepare to start jails, and make the checks once."""
    jail.prepare_jailer()
    games = make_games(settings)
    _worker.update(settings=settings, games=games, checks=make_checks(settings, games))


def _grade_in_worker(path: str) -> Report:
    return _grade_one(path, _worker['settings'], _worker['checks'], _worker['games'])


def _grade_one(path: str, settings: Settings, checks, games) -> Report:
    """Grade one file; a file that vanished or cannot be read gets a report saying so."""
    try:
        return grade(path, settings, checks, games)
    except LoadError as error:  # the file went away after it was listed
        return unloadable(path, settings, checks, str(error))


def summary_rows(reports: list[Report], names: dict[str, str],
                 functions: tuple = FUNCTIONS) -> list[dict]:
    """A row per student, in the order of names: points per function (and for the
    game class, under GAME, if it is graded), total, status."""
    by_file = {report.file: report for report in reports}
    rows = []
    for path, name in names.items():
        report = by_file[path]
        points = report.by_function()
        status = ('cannot load: ' + report.load_error if report.load_error else
                  'uses the reference implementations' if report.reference else 'graded')
        rows.append({'student': name, 'file': path,
                     **{function: points.get(function, 0) for function in functions},
                     'total': report.points, 'max': report.max_points,
                     'checks_passed': sum(result.passed for result in report.results),
                     'checks': len(report.results), 'status': status,
                     'seconds': round(report.seconds, 2)})
    return rows


def write_summary(folder: str, reports: list[Report], names: dict[str, str],
                  settings: Settings) -> list[str]:
    """Write summary.csv, summary.json and reports/NAME.txt and NAME.json in folder
    (made if missing), the student's text in NAME.txt escaped as on a terminal and
    summary.csv's cells safe for a spreadsheet; return the paths written."""
    os.makedirs(os.path.join(folder, 'reports'), exist_ok=True)
    rows = summary_rows(reports, names, settings.parts)
    written = [os.path.join(folder, 'summary.csv'), os.path.join(folder, 'summary.json')]
    with open(written[0], 'w', newline='', encoding='utf-8') as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]) if rows else ['student'])
        writer.writeheader()
        writer.writerows(map(csv_row, rows))
    with open(written[1], 'w', encoding='utf-8') as file:
        json.dump({'settings': settings.describe(), 'functions': list(settings.parts),
                   'students': rows}, file, indent=2)
        file.write('\n')
    by_file = {report.file: report for report in reports}
    for path, name in names.items():
        base = os.path.join(folder, 'reports', name)
        with open(base + '.txt', 'w', encoding='utf-8') as file:
            file.write('\n'.join(map(for_terminal, by_file[path].lines())) + '\n')
        with open(base + '.json', 'w', encoding='utf-8') as file:
            file.write(by_file[path].json() + '\n')
        written += [base + '.txt', base + '.json']
    return written


def one_line(report: Report, name: str) -> str:
    """A student's result in one line, for progress."""
    if report.load_error:
        return f'{name}: 0/{report.max_points}, cannot load: {report.load_error}'
    passed = sum(result.passed for result in report.results)
    return (f'{name}: {report.points}/{report.max_points} points, {passed} of '
            f'{len(report.results)} checks passed ({report.seconds:.1f} s)')

