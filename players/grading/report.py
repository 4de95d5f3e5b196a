"""What grading a file comes to: each check's result, and the report of them all
as PASS or FAIL lines or as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


@dataclass
class Result:
    """The outcome of a check."""

    check: str
    function: str
    passed: bool
    points: float
    max_points: float
    message: str
    visibility: str = 'visible'
    seconds: float = 0.0


@dataclass
class Report:
    """The outcomes of grading a file."""

    file: str
    results: list
    settings: str = ''
    """How the file was graded (Settings.describe)."""
    load_error: str | None = None
    """Why the file could not be loaded, if it could not."""
    reference: str | None = None
    """The project's reference implementation the file tried to use, if any."""
    seconds: float = 0.0
    loads: int = 0
    """How many times the file was loaded (once, plus once after each timeout or crash)."""
    missing: list = field(default_factory=list)
    """The functions asked for that the file does not define."""
    leaderboard: dict = field(default_factory=dict)
    """Figures for a leaderboard, such as the gauntlet's score in percent."""
    note: str | None = None
    """What the reader should know about how it was graded, such as a program's
    checks being its player's alone."""

    @property
    def points(self) -> float:
        """The points earned."""
        return round(sum(result.points for result in self.results), 2)

    @property
    def max_points(self) -> float:
        """The points that could be earned."""
        return sum(result.max_points for result in self.results)

    @property
    def passed(self) -> bool:
        """Did every check pass?"""
        return all(result.passed for result in self.results)

    def by_function(self) -> dict[str, float]:
        """The points earned for each function."""
        points: dict[str, float] = {}
        for result in self.results:
            points[result.function] = points.get(result.function, 0) + result.points
        return points

    def lines(self) -> list[str]:
        """A header, a PASS or FAIL line for each check, then the total."""
        lines = [f'Grading {self.file}: {self.settings}']
        if self.note:
            lines.append(self.note)
        if self.load_error:
            lines.append(f'Cannot load {self.file}: {self.load_error}')
        if self.reference:
            lines.append(f'{self.file} {self.reference}: it fails every check')
        lines += [f'{"PASS" if result.passed else "FAIL"} {result.points:g}/{result.max_points:g} '
                  f'{result.check}: {result.message}' for result in self.results]
        failed = sum(not result.passed for result in self.results)
        lines.append(f'Total: {self.points:g}/{self.max_points:g} points, '
                     f'{len(self.results) - failed} of {len(self.results)} checks passed')
        return lines

    def json(self) -> str:
        """The report as a JSON document."""
        return json.dumps(self.as_dict(), indent=2)

    def as_dict(self) -> dict:
        """The report as plain data, for a JSON file."""
        return {'file': self.file, 'points': self.points, 'max_points': self.max_points,
                'passed': self.passed, 'by_function': self.by_function(),
                'load_error': self.load_error, 'reference': self.reference,
                'missing': self.missing, 'settings': self.settings, 'note': self.note,
                'seconds': round(self.seconds, 3), 'checks': [asdict(r) for r in self.results]}
