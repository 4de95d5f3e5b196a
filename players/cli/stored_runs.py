"""A stored run, read back from its --db file: its tables and files again, a
listing of its games, and one game replayed move by move."""

from __future__ import annotations

import sys
from typing import Any

import variants
from players.reports import replay, text_report, standings
from players.reports.player_text import for_terminal
from .inputs import UsageError, changed_game_files, matching_variant, usage_errors
from .outputs import ReportOptions, check_outputs, fitted, write_results
from players.tournaments.schedule import count_games
from players.tournaments.store import Store, StoreError

DETAIL_WIDTH = 50
"""The most characters of what went wrong in a game that games shows."""
MIN_DETAIL_WIDTH = 20
"""The fewest characters of it games cuts it to, to fit text_report.WIDTH."""


def open_run(path: str) -> Store:
    """Open the results file of a run to read it (close it, or use it in a with
    block, to leave nothing beside it), saying on stderr if a game file it played
    has changed since."""
    with usage_errors(StoreError):
        store = Store.read(path)
    for line in changed_game_files(store.settings.game_files):
        print(line, file=sys.stderr)
    return store


def report_run(db: str, report: ReportOptions) -> int:
    """Print the tables of the stored run in db and write its files, as report
    says; return the exit status."""
    check_outputs(report.files(), db)
    with open_run(db) as store:
        settings = store.settings
        unknown = [name for name in report.anchors or {} if name not in settings.players]
        if unknown:
            raise UsageError(f'--anchors: {unknown[0]!r} is no player of the run in {db}; '
                             f'its players: {", ".join(settings.players)}')
        total = count_games(settings.players, settings.variants, settings.games,
                            settings.gauntlet)
        print(text_report.header(settings, total))
        if store.count() < total:
            print(f'Only {store.count()} of the {total} games were played; '
                  'these tables are of those.\n')
        write_results(report, store, {'played': 0, 'reused': store.count()})
    return 0


def list_games(db: str, player: str | None, variant: str | None, result: str | None,
               ending: str | None, table_format: str) -> int:
    """Print the stored games of the run in db that match player, variant, result
    and ending (None: any), as a table of table_format; return the exit status."""
    with open_run(db) as store:
        settings = store.settings
        if player is not None and player not in settings.players:
            raise UsageError(f'no player {player!r} in {db}; players: '
                             f'{", ".join(settings.players)}')
        if result in ('win', 'loss') and player is None:
            raise UsageError(f'--result {result} needs --player')
        if variant is not None:
            stored = matching_variant(list(settings.variants), variant)
            if stored is None:
                raise UsageError(f'the run has no variant {variant!r}; its variants: '
                                 f'{", ".join(settings.variants)}')
            variant = stored
        rows: list[list[Any]] = [
            [record.index, record.variant, record.first, record.second,
             replay.score_text(record.score), record.termination, record.plies,
             for_terminal(record.detail or '')]
            for record in store.records(player, variant, result, ending)]
    if not rows:
        print('No stored game matches.')
        return 0

    def render(detail_width: int) -> str:
        return standings.terminal_table(
            [[*row[:-1], standings.shorten(row[-1], detail_width)] for row in rows],
            ['#', 'Variant', 'First', 'Second', 'Result', 'Ending', 'Plies', 'Detail'],
            tablefmt=table_format)
    print(fitted(render, DETAIL_WIDTH, MIN_DETAIL_WIDTH))
    print('', *text_report.wrapped(f'{text_report.plural(len(rows), "game")}; replay one with: '
                                   f'tournament.py replay --db {db} #'), sep='\n')
    return 0


def replay_game(db: str, index: int, step: bool) -> int:
    """Show the stored game of the run in db numbered index, move by move with the
    board after each; with step, wait for Enter after each move. Return the exit
    status."""
    with open_run(db) as store:
        record = store.record(index)
    if record is None:
        raise UsageError(f'no game {index} in {db}; list them with: tournament.py games '
                         f'--db {db}')
    with usage_errors():
        for number, block in enumerate(replay.lines(variants.make(record.variant), record)):
            if step and number >= 2 and not next_step():  # after the headline and start
                break
            print(block, flush=True)
    return 0


def next_step() -> bool:
    """Wait for Enter and return True, or return False for q or the end of input."""
    try:
        return input('(Enter: next move, q: stop) ').strip().lower() not in ('q', 'quit')
    except EOFError:
        return False
