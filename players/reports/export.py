"""Writing game records and standings to JSON and CSV files, a record at a time."""

from __future__ import annotations

import csv
import json
import os
from typing import Iterable, Mapping

from players.tournaments.ranking import Standing
from players.tournaments.record import COLUMNS, GameRecord
from players.tournaments.run_settings import RunSettings
from .player_text import for_csv
from .standings import STANDING_COLUMNS


def write_json(path: str, settings: RunSettings, records: Iterable[GameRecord],
               standings: Mapping[str, list[Standing]],
               counts: Mapping[str, object] | None = None) -> None:
    """Write {**counts, "settings": ..., "games": [...], "standings": {variant: [...]}}
    to path, one record at a time (counts such as {"played": 3, "reused": 9})."""
    plain = {variant: [standing.plain() for standing in rows]
             for variant, rows in standings.items()}
    opening = ''.join(f'{json.dumps(key)}: {json.dumps(value)}, ' for key, value in
                      (counts or {}).items())
    with open(path, 'w') as out:
        out.write('{' + opening + '"settings": ' + json.dumps(settings.to_json())
                  + ',\n "games": [')
        for number, record in enumerate(records):
            out.write((',\n  ' if number else '\n  ') + json.dumps(record.plain()))
        out.write('\n ],\n "standings": ' + json.dumps(plain, indent=1) + '}\n')


def standings_path(path: str) -> str:
    """Return the name of the standings CSV that goes with a games CSV:
    results.csv -> results-standings.csv."""
    stem, extension = os.path.splitext(path)
    return f'{stem}-standings{extension or ".csv"}'


def write_csv(path: str, records: Iterable[GameRecord],
              standings: Mapping[str, list[Standing]]) -> None:
    """Write one row per game to path (moves as JSON text) and the standings,
    one row per player per variant, to standings_path(path), no cell a formula
    (see player_text.for_csv)."""
    with open(path, 'w', newline='') as out:
        writer = csv.DictWriter(out, fieldnames=list(COLUMNS))
        writer.writeheader()
        for record in records:
            writer.writerow(csv_row({**record.plain(), 'moves': json.dumps(record.moves)}))
    with open(standings_path(path), 'w', newline='') as out:
        writer = csv.DictWriter(out, fieldnames=['variant', *STANDING_COLUMNS])
        writer.writeheader()
        for variant, rows in standings.items():
            for row in rows:
                writer.writerow(csv_row({'variant': variant, **row.plain()}))


def csv_row(row: Mapping[str, object]) -> dict[str, object]:
    """Return a CSV row, {column: value}, with no value a spreadsheet reads as a
    formula (see player_text.for_csv)."""
    return {column: for_csv(value) for column, value in row.items()}
