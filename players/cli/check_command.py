"""What check does with what it is given: one student's file graded check by check,
a class graded file by file with a summary, or one Gradescope submission."""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass

from players.sandbox import jail
from players.reports import standings
from players.reports.player_text import for_terminal
from players.reports.text_report import WIDTH, wrapped
from players.grading import batch, gradescope
from players.grading.grader import grade
from players.grading.loading import LoadError, read_submission
from players.grading.report import Report
from players.grading.settings import Settings

from .inputs import UsageError, usage_errors
from .outputs import check_output, fitted

STATUS_WIDTH = 40
"""The most characters of a student's status a class's table shows."""
MIN_STATUS_WIDTH = 20
"""The fewest characters of a status the table cuts one to, to fit WIDTH."""


@dataclass(frozen=True)
class Outputs:
    """The files check writes, besides what it prints (None: not written)."""

    json: str | None = None
    """The report of one file, as JSON."""
    out: str | None = None
    """A folder for a class's summary and every student's report."""
    gradescope: str | None = None
    """Gradescope's results.json of one submission."""

    def check(self) -> None:
        """Raise a UsageError unless each file (and the folder) can be written."""
        for path, option in ((self.json, '--json'), (self.gradescope, '--gradescope')):
            if path:
                check_output(option, path)
        if self.out:
            check_output('--out', self.out, folder=True)


def check(paths: list[str], settings: Settings, outputs: Outputs = Outputs(),
          jobs: int = 1) -> int:
    """Grade the files of paths with settings: for one file, print a PASS or FAIL
    line per check and a total (outputs.json: write the report); for a class, a
    line per student and a summary, grading jobs files at once (outputs.out: write
    every report); for outputs.gradescope, write the submission's results.json
    (and its report, for outputs.json). Return 0 only if all pass."""
    if outputs.gradescope:
        if outputs.out:
            raise UsageError('--gradescope grades one submission; --out is for a class')
        return check_submission(paths, settings, outputs.gradescope, outputs.json)
    with usage_errors(LoadError):
        files = batch.collect(paths)
    if not files:
        raise UsageError(f'no Python files in {", ".join(paths)}')
    one = len(files) == 1 and not os.path.isdir(paths[0])
    if outputs.json and not one:
        raise UsageError('--json is for one file; for a class, --out FOLDER writes every report')
    jail.prepare_jailer()
    if one and not outputs.out:
        report = grade(files[0], settings)
        print_lines(report.lines())
        _write_report(report, outputs.json)
        return 0 if report.passed else 1
    return check_class(files, settings, jobs, outputs.out)


def check_class(files: list[str], settings: Settings, jobs: int, out: str | None) -> int:
    """Grade a class's files, jobs at a time, printing a line per student as each is
    graded and then a summary table; write every report in the folder out if given.
    Return 0 only if all pass."""
    names = batch.student_names(files)
    print_lines([f'Grading {len(files)} files, {jobs} at a time: {settings.describe()}'])
    reports = []
    for report in batch.grade_all(files, settings, jobs):
        reports.append(report)
        print_lines([batch.one_line(report, names[report.file])])
    print()
    print(summary_table(batch.summary_rows(reports, names, settings.parts), settings.parts))
    if out:
        written = batch.write_summary(out, reports, names, settings)
        print(f'\nwrote {written[0]}, {written[1]} and {len(written) - 2} report files in '
              f'{os.path.join(out, "reports")}')
    return 0 if all(report.passed for report in reports) else 1


def check_submission(paths: list[str], settings: Settings, results: str,
                     report_file: str | None = None) -> int:
    """Grade one submission (a file, or a folder: its Python file, with any helper
    modules and data files beside it, see loading.read_submission) and write
    Gradescope's results.json to results, and the report as JSON to report_file if
    given; a submission with nothing to grade gets results saying so. Return 0 only
    if all pass."""
    if len(paths) != 1:
        raise UsageError('--gradescope grades one submission: give one file or folder')
    path = paths[0]
    if not os.path.exists(path):
        raise UsageError(f'no such file or folder {path!r}')
    while os.path.isdir(path) and not any(name.endswith('.py') for name in os.listdir(path)):
        inside = [os.path.join(path, name) for name in os.listdir(path)
                  if os.path.isdir(os.path.join(path, name)) and not name.startswith('.')]
        if len(inside) != 1:
            break
        path = inside[0]  # an uploaded folder, its files inside
    if os.path.isdir(path):
        try:
            read_submission(path, settings.folder_limits)
        except LoadError as error:
            message = f'Submit a Python file with the functions of players/grading/template.py: {error}'
            gradescope.write(results, gradescope.no_submission(message))
            print(for_terminal(message))
            return 1
    jail.prepare_jailer()
    report = grade(path, settings)
    gradescope.write(results, gradescope.results(report))
    _write_report(report, report_file)
    print_lines(report.lines())
    return 0 if report.passed else 1


def _write_report(report: Report, path: str | None) -> None:
    """Write a file's report as JSON to path, if given."""
    if path:
        with open(path, 'w', encoding='utf-8') as file:
            file.write(report.json() + '\n')


def summary_table(rows: list[dict], parts: tuple[str, ...]) -> str:
    """Return a class's table, a row per student (see batch.summary_rows), within
    WIDTH columns if it can be: the functions' names broken after underscores and
    the status cut to fit, when it is wider."""
    def render(headers: list[str], status_width: int = STATUS_WIDTH) -> str:
        table = [[row['student'], *[row[part] for part in parts], f'{row["total"]}/{row["max"]}',
                  standings.shorten(for_terminal(row['status']), status_width)] for row in rows]
        return standings.terminal_table(table, ['Student', *headers, 'Total', 'Status'])
    text = render(list(parts))
    if standings.widest(text) <= WIDTH:
        return text
    headers = [broken_name(part) for part in parts]
    return fitted(lambda width: render(headers, width), STATUS_WIDTH, MIN_STATUS_WIDTH)


def broken_name(name: str) -> str:
    """Return a function's name over lines of at most 14 columns, broken after
    underscores: 'alpha_beta_cutoff_search' as 'alpha_beta_' above 'cutoff_search'."""
    return '\n'.join(line.replace(' ', '') for line in textwrap.wrap(name.replace('_', '_ '), 14))


def print_lines(lines: list[str]) -> None:
    """Print the lines of a report, each as a terminal should show it (see
    player_text.for_terminal: a student's messages may hold anything), wrapped
    within WIDTH columns."""
    print('\n'.join(part for line in lines for part in wrapped(for_terminal(line))), flush=True)
