"""The files a run writes: checked before play, reserved while it plays, and
written with the tables printed at its end."""

from __future__ import annotations

import os
from argparse import Namespace

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


def report_files(options: Namespace) -> list[tuple[str, str]]:
    """Return the files a report writes, as (option, path): those of --json, --csv
    (two files) and --html among options."""
    files = [('--json', options.json), ('--csv', options.csv),
             ('--csv', options.csv and export.standings_path(options.csv)), ('--html', options.html)]
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


def write_results(options: Namespace, store: Store, counts: dict) -> None:
    """Print the tables of the run in store and write the files of options (--json,
    --csv and --html; --anchors, --format and --tables choose what the tables
    show); counts ({'played': N, 'reused': M}) open the JSON."""
    settings = store.settings
    results = Results(settings['players'], settings['variants']).add_all(store.records())
    by_variant = standings.all_standings(results, options.anchors)
    print(text_report.body(results, by_variant, options.format, options.tables), end='')
    named = {('overall' if variant is OVERALL else variant): rows
             for variant, rows in by_variant.items()}
    if options.json:
        export.write_json(options.json, settings, store.records(), named,
                          {**counts, 'anchors': options.anchors})
    if options.csv:
        export.write_csv(options.csv, store.records(), named)
    if options.html:
        html_report.write(options.html, settings, results, by_variant, store.records(),
                          variants.make)
        print(f'\nwrote {options.html}')
