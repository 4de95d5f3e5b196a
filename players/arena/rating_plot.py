"""Ratings over time drawn as an SVG image, written here as text with every name
escaped as the HTML report escapes it (no script, no style, so the pages'
Content-Security-Policy lets it be): a line a series, a dot at each note, the Elo
and the dates on the axes, and a legend."""

from __future__ import annotations

import time
from typing import Sequence

from players.reports.html_report import escape

COLOURS = ('#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b',
           '#e377c2', '#7f7f7f', '#bcbd22')
"""The series' colours, in turn."""
WIDTH, HEIGHT, LEFT, BOTTOM, LEGEND = 640, 220, 48, 24, 150
"""The image's size, the room for the Elo's labels and the dates, and the legend's width."""

Series = tuple[str, Sequence[tuple[float, int]]]
"""A line of the plot: its name and its points, (time, Elo), oldest first."""


def rating_plot(series: Sequence[Series], mine: str | None = None) -> str:
    """Return an SVG image of the series (the one named mine drawn thicker), or ''
    when they hold no point."""
    points = [point for _, line in series for point in line]
    if not points:
        return ''
    times, elos = [when for when, _ in points], [elo for _, elo in points]
    first, last = min(times), max(times)
    low, high = min(elos) - 20, max(elos) + 20
    plot_width, plot_height = WIDTH - LEFT - LEGEND, HEIGHT - BOTTOM - 8

    def x(when: float) -> float:
        return LEFT + (plot_width * (when - first) / (last - first) if last > first else plot_width)

    def y(elo: int) -> float:
        return 8 + plot_height * (high - elo) / (high - low)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="ratings" viewBox="0 0 {WIDTH} '
             f'{HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="Elo over time">',
             f'<line x1="{LEFT}" y1="{8 + plot_height}" x2="{LEFT + plot_width}" '
             f'y2="{8 + plot_height}" stroke="#999"/>',
             f'<line x1="{LEFT}" y1="8" x2="{LEFT}" y2="{8 + plot_height}" stroke="#999"/>']
    for elo in sorted({high - 20, low + 20}):  # one label where every note is one Elo
        parts.append(f'<text x="{LEFT - 4}" y="{y(elo) + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{elo}</text>')
    for when, anchor in ((first, 'start'), (last, 'end'))[:1 if first == last else 2]:
        parts.append(f'<text x="{x(when):.1f}" y="{HEIGHT - 6}" text-anchor="{anchor}" '
                     f'font-size="11">{time.strftime("%b %d %H:%M", time.localtime(when))}</text>')
    for number, (name, line) in enumerate(series):
        colour, width = COLOURS[number % len(COLOURS)], 3 if name == mine else 1.5
        coordinates = ' '.join(f'{x(when):.1f},{y(elo):.1f}' for when, elo in line)
        title = f'<title>{escape(name)}</title>'
        if len(line) > 1:
            parts.append(f'<polyline class="series" fill="none" stroke="{colour}" '
                         f'stroke-width="{width}" points="{coordinates}">{title}</polyline>')
        parts += [f'<circle cx="{x(when):.1f}" cy="{y(elo):.1f}" r="{width + 0.5}" '
                  f'fill="{colour}"/>' for when, elo in line]
        label_y = 14 + 14 * number
        if label_y < HEIGHT - BOTTOM:
            parts.append(f'<text x="{WIDTH - LEGEND + 8}" y="{label_y}" font-size="11" '
                         f'fill="{colour}" font-weight="{700 if name == mine else 400}">'
                         f'{escape(name)}</text>')
    parts.append('</svg>')
    return ''.join(parts)
