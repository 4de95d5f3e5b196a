"""The files a run writes: checked before play, reserved while it plays, and
written with the tables printed at its end."""

from __future__ import annotations

import os
from argparse import Namespace
from dataclasses import dataclass
from typing import Callable

import variants
from players.reports import export, html_report, text_report, standings
from .inputs import UsageError
from players.tournaments.results import OVERALL, Results
from players.tournaments.store import Store


def check_output(option: str, path: str, db: str | None = None, folder: bool = False) -> None:
    """Raise a UsageError unless the file (or with folder, the folder) that option
    names can be written at path: the folder it goes in exists, it is no folder (no
    file), and it is not the db file."""
    def refuse(why: str) -> None:
        raise UsageError(f'cannot write {option} {path!r}: {why}')
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        refuse('no such folder')
    if folder and os.path.exists(path) and not os.path.isdir(path):
        refuse('it is a file')
    if not folder and os.path.isdir(path):
        refuse('it is a folder')
    if db and os.path.abspath(path) == os.path.abspath(db):
        refuse('it would write over the --db file')


def fitted(render: Callable[[int], str], most: int, least: int) -> str:
    """Return render(width) of the widest cut of a column, from most characters down
    to least, that keeps the table it renders within text_report.WIDTH columns."""
    text = render(most)
    excess = standings.widest(text) - text_report.WIDTH
    return text if excess <= 0 else render(max(least, most - excess))


@dataclass(frozen=True)
class ReportOptions:
    """What the report of a run prints and the files it writes (see
    tournament_options.add_output_options)."""

    json: str | None = None
    """The file of the game records, standings and settings as JSON, or None."""
    csv: str | None = None
    """The CSV file of the game records (the standings go beside it), or None."""
    html: str | None = None
    """The report as one web page, or None."""
    table_format: str = 'simple'
    """The tables' format: any of tabulate's."""
    tables: set[str] | str = 'auto'
    """The optional tables printed (see text_report.parse_tables)."""
    anchors: dict[str, float] | None = None
    """Reference players and the grade each stands for, or None."""

    @classmethod
    def of(cls, options: Namespace) -> 'ReportOptions':
        """Return the report options among a command's options."""
        return cls(options.json, options.csv, options.html, options.format, options.tables,
                   options.anchors)

    def files(self) -> list[tuple[str, str]]:
        """Return the files the report writes, as (option, path): those of --json,
        --csv (two files) and --html."""
        files = [('--json', self.json), ('--csv', self.csv),
                 ('--csv', self.csv and export.standings_path(self.csv)), ('--html', self.html)]
        return [(option, path) for option, path in files if path]


def check_outputs(files: list[tuple[str, str]], db: str | None = None) -> None:
    """Raise a UsageError unless every file of files, (option, path) each, can be
    written (see check_output)."""
    for option, path in files:
        check_output(option, path, db)


def reserve(files: list[tuple[str, str]]) -> list[str]:
    """Create the files of files, (option, path) each, that do not exist yet, so
    that no player can put anything in their place during the run; return the paths
    of those created."""
    created = []
    for option, path in files:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            created.append(path)
        except FileExistsError:
            pass
        except OSError as error:
            raise UsageError(f'cannot write {option} {path!r}: {error.strerror}') from None
    return created


def write_results(report: ReportOptions, store: Store, counts: dict) -> None:
    """Print the tables of the run in store as report says and write its files;
    counts ({'played': N, 'reused': M}) open the JSON."""
    settings = store.settings
    results = Results(settings.players, settings.variants).add_all(store.records())
    by_variant = standings.graded_standings(results, report.anchors)
    print(text_report.body(results, by_variant, report.table_format, report.tables), end='')
    named = {('overall' if variant is OVERALL else variant): rows
             for variant, rows in by_variant.items()}
    if report.json:
        export.write_json(report.json, settings, store.records(), named,
                          {**counts, 'anchors': report.anchors})
    if report.csv:
        export.write_csv(report.csv, store.records(), named)
    if report.html:
        html_report.write(report.html, settings, results, by_variant, store.records(),
                          variants.make)
        print(f'\nwrote {report.html}')
