"""The arena's grades for the staff to download: a row per student of the roster with
their standing on the ladder, their grade read off the anchors and the grader's
points of the version they play, as a spreadsheet's CSV and as the CSV Gradescope
takes to upload an assignment's scores (a name, the student's id and a score)."""

from __future__ import annotations

import csv
import io

from players.reports.player_text import for_csv
from .leaderboard import Board
from .records import Records

GRADE_COLUMNS = ('id', 'name', 'pseudonym', 'version', 'rank', 'elo', 'margin', 'games',
                 'score_pct', 'forfeits', 'grade', 'check_points')
"""The columns of the grades' CSV."""


def grade_rows(records: Records, board: Board) -> list[dict[str, object]]:
    """Return a row of GRADE_COLUMNS per student, by id; a student with no version
    that plays has only their id, name and pseudonym."""
    standing = {row.student: row.standing for row in board.rows if row.student is not None}
    playing = records.playing()
    rows = []
    for student in records.students():
        row: dict[str, object] = {'id': student.id, 'name': student.name,
                                  'pseudonym': student.pseudonym or ''}
        version, place = playing.get(student.id), standing.get(student.id)
        if version is not None:
            row.update(version=version.number, check_points=version.check_points)
        if place is not None:
            row.update(rank=place.rank, elo=place.elo, margin=place.margin, games=place.games,
                       score_pct=place.score_pct, forfeits=place.forfeits,
                       grade='' if place.grade is None else place.grade)
        rows.append(row)
    return rows


def grades_csv(records: Records, board: Board) -> str:
    """Return the grades as CSV, every cell a student wrote made safe for a spreadsheet."""
    out = io.StringIO()
    writer = csv.DictWriter(out, GRADE_COLUMNS, restval='')
    writer.writeheader()
    for row in grade_rows(records, board):
        writer.writerow({key: for_csv(value) if isinstance(value, str) else value
                         for key, value in row.items()})
    return out.getvalue()


def gradescope_csv(records: Records, board: Board) -> str:
    """Return the scores as Gradescope's upload of an assignment's scores takes them:
    Name, SID and Score, the score the student's grade (empty without one)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(['Name', 'SID', 'Score'])
    for row in grade_rows(records, board):
        writer.writerow([for_csv(str(row['name'])), for_csv(str(row['id'])), row.get('grade', '')])
    return out.getvalue()
