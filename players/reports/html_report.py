"""The HTML report of a tournament: one self-contained page, with no network and no
external script, that shows the standings, the scores by variant, the crosstable and
the likelihood of superiority as heat maps, a plot of every player's Elo with its 95%
interval, how games ended, the forfeits with their reasons, and every game,
replayable on a drawn board.

The tables and the plot are written here as HTML and SVG, so they show without
scripts; the page's script (board_drawing.js and html_report.js, written into the
page) lists the games and replays them from the positions this module computes with
the game's own rules, so the page never needs the rules itself."""

from __future__ import annotations

import html
import json
import math
from importlib import resources
from typing import Callable, Iterable, Mapping, Sequence, TypedDict

from games.base import Game
from games.referee import ADJUDICATED, CANNOT_LOAD, ERROR, ILLEGAL, NORMAL, TIMEOUT
from players.tournaments.ranking import Standing
from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from .player_text import for_terminal
from .replay import outcome, replay, score_text
from .text_report import plural
from players.tournaments.results import OPPONENT_FORFEIT, OVERALL, Results
from .standings import (ENDING_HEADERS, LOS_PLAYERS, STANDING_COLUMNS, STANDING_FORMATS,
                        cells, forfeit_rows, standing_columns, top_superiority)

ENDING_COLOURS = {NORMAL: '#4e79a7', ADJUDICATED: '#bab0ac', TIMEOUT: '#f28e2b',
                  ILLEGAL: '#e15759', ERROR: '#b07aa1', CANNOT_LOAD: '#9c755f',
                  OPPONENT_FORFEIT: '#59a14f'}
"""The colour of each way a game can end, in the endings bars."""
SHARED_KEYS = ('kind', 'style', 'columns', 'rows')
"""The keys of a drawing that stay the same through a game, kept once per variant."""


class GameData(TypedDict):
    """What the page's script is given: the run's players and variants, the parts
    of each variant's drawings that stay the same (by the variant's number), and
    every game (see game_data)."""

    players: list[str]
    variants: list[str]
    boards: dict[int, dict[str, object]]
    games: list[dict[str, object]]


class Raw(str):
    """HTML that is already safe to put in the page (never text from a record)."""


def escape(value: object) -> str:
    """Return a value as HTML: Raw as it is, None as nothing, anything else as text,
    its control characters and bidi overrides escaped (see player_text.for_terminal)
    and then its markup."""
    if isinstance(value, Raw):
        return value
    return '' if value is None else html.escape(for_terminal(str(value)))


def table(headers: Sequence[str], rows: Iterable[Sequence[object]],
          numeric: Sequence[bool] = (), caption: str = '') -> Raw:
    """Return an HTML table; numeric[i] right-aligns column i."""
    def align(i: int) -> str:
        return ' class="num"' if i < len(numeric) and numeric[i] else ''
    head = ''.join(f'<th{align(i)}>{escape(h)}</th>' for i, h in enumerate(headers))
    body = ''.join('<tr>' + ''.join(f'<td{align(i)}>{escape(cell)}</td>'
                                    for i, cell in enumerate(row)) + '</tr>' for row in rows)
    caption = f'<caption>{escape(caption)}</caption>' if caption else ''
    return Raw(f'<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>')


def heat(fraction: float | None, text: str, title: str = '') -> Raw:
    """Return a cell's content on a colour from red (0) through white (0.5) to blue (1)."""
    if fraction is None:
        return Raw(escape(text))
    low, middle, high = (202, 0, 32), (247, 247, 247), (5, 113, 176)
    end, share = (high, 2 * fraction - 1) if fraction >= 0.5 else (low, 1 - 2 * fraction)
    colour = ','.join(str(round(m + (e - m) * share)) for m, e in zip(middle, end))
    ink = '#fff' if share > 0.6 else '#000'
    return Raw(f'<span class="heat" style="background:rgb({colour});color:{ink}" '
               f'title="{escape(title)}">{escape(text)}</span>')


def standings_section(rows: list[Standing]) -> Raw:
    """Return the overall standings table (with the grades, if the rows have them)."""
    def shown(key: str, value: object) -> object:
        return format(value, STANDING_FORMATS[key]) if key in STANDING_FORMATS else value
    columns = standing_columns(rows)
    return table([STANDING_COLUMNS[key] for key in columns],
                 [[shown(key, value) for key, value in zip(columns, cells(row, columns))]
                  for row in rows],
                 [key != 'player' for key in columns])


def elo_plot(rows: list[Standing]) -> Raw:
    """Return an SVG plot of each player's Elo (a dot) and 95% interval (a bar),
    best at the top."""
    if not rows:
        return Raw('')
    lows = [row.elo - row.margin for row in rows]
    highs = [row.elo + row.margin for row in rows]
    step = _tick_step(max(highs) - min(lows))
    left_value = math.floor(min(lows) / step) * step
    right_value = math.ceil(max(highs) / step) * step or step
    left, width, row_height, top = 150, 520, 20, 10
    height = top + row_height * len(rows) + 30

    def x(value: float) -> float:
        return left + width * (value - left_value) / max(right_value - left_value, 1)
    parts = [f'<svg class="elo" viewBox="0 0 {left + width + 20} {height}" role="img" '
             f'aria-label="Elo with 95% intervals">']
    axis_y = top + row_height * len(rows)
    value = left_value
    while value <= right_value:
        parts.append(f'<line class="grid" x1="{x(value):.1f}" y1="{top}" x2="{x(value):.1f}" '
                     f'y2="{axis_y}"/><text class="tick" x="{x(value):.1f}" y="{axis_y + 16}">'
                     f'{value:g}</text>')
        value += step
    for number, (row, low, high) in enumerate(zip(rows, lows, highs)):
        y = top + row_height * number + row_height / 2
        tip = escape(f'{row.player}: Elo {row.elo} ± {row.margin} ({row.games} games)')
        parts.append(f'<g><title>{tip}</title>'
                     f'<text class="name" x="{left - 8}" y="{y + 4:.1f}">'
                     f'{escape(row.player)}</text>'
                     f'<line class="interval" x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" '
                     f'y2="{y:.1f}"/><circle cx="{x(row.elo):.1f}" cy="{y:.1f}" r="4"/></g>')
    parts.append('</svg>')
    return Raw(''.join(parts))


def _tick_step(span: float) -> float:
    """Return a round step (1, 2 or 5 times a power of ten) giving about 6 ticks over span."""
    rough = max(span, 1) / 6
    power: float = 10 ** math.floor(math.log10(rough))  # an int from 1 up, as ticks show it
    return next(step * power for step in (1, 2, 5, 10) if step * power >= rough)


def variant_scores_section(by_variant: Mapping[str | None, list[Standing]]) -> Raw:
    """Return each player's score % on each variant, as a heat map."""
    variants = [variant for variant in by_variant if variant is not OVERALL]
    scores = {(variant, row.player): row for variant in variants for row in by_variant[variant]}
    rows = []
    for row in by_variant[OVERALL]:
        line: list[object] = [row.player]
        for variant in [*variants, OVERALL]:
            found = scores.get((variant, row.player)) if variant is not OVERALL else row
            line.append(None if found is None else heat(
                found.score_pct / 100, f'{found.score_pct:.1f}',
                f'{row.player}: {found.points:g} of {found.games} games'))
        rows.append(line)
    return table(['Player', *variants, 'All'], rows, [False] + [True] * (len(variants) + 1))


def crosstable_section(results: Results, order: list[str]) -> Raw:
    """Return each player's points against each other (row against column) as a heat map."""
    rows = []
    for number, player in enumerate(order, 1):
        line: list[object] = [number, player]
        for other in order:
            first, second = sorted((player, other), key=results.players.index)
            games = results.games[OVERALL, first, second]
            points = results.points[OVERALL, player, other]
            line.append(None if player == other or not games else heat(
                points / games, f'{points:g}/{games}', f'{player} against {other}'))
        rows.append(line)
    headers = ['#', 'Player', *(str(number) for number in range(1, len(order) + 1))]
    return table(headers, rows, [True, False] + [True] * len(order))


def superiority_section(results: Results, order: list[str]) -> Raw:
    """Return the likelihood of superiority of each of the top players over each
    other (row over column) as a heat map."""
    top, likelihood = top_superiority(results, order)
    rows = [[number, player, *(None if player == other else heat(
        likelihood[player, other], f'{100 * likelihood[player, other]:.0f}',
        f'{player} is stronger than {other}: {100 * likelihood[player, other]:.1f}%')
        for other in top)] for number, player in enumerate(top, 1)]
    headers = ['#', 'Player', *(str(number) for number in range(1, len(top) + 1))]
    return table(headers, rows, [True, False] + [True] * len(top))


def endings_section(results: Results, order: list[str]) -> Raw:
    """Return how each player's games ended, with a bar of the shares."""
    endings, rows = results.endings(), []
    for player in order:
        tally = results.tallies[OVERALL, player]
        counts = [tally.endings[ending] for ending in endings]
        rows.append([player, *counts, _bar(endings, counts, tally.games)])
    legend = ''.join(f'<span class="key" style="background:{ENDING_COLOURS[e]}"></span>'
                     f'{escape(ENDING_HEADERS[e])} ' for e in endings)
    return Raw(table(['Player', *(ENDING_HEADERS[e] for e in endings), 'Share'], rows,
                     [False] + [True] * len(endings)) + f'<p class="legend">{legend}</p>')


def _bar(endings: tuple[str, ...], counts: list[int], total: int) -> Raw:
    """Return a stacked bar of counts (one per ending of endings) as a small SVG."""
    parts, start = ['<svg class="bar" viewBox="0 0 100 10" preserveAspectRatio="none">'], 0.0
    for ending, count in zip(endings, counts):
        if count:
            share = 100 * count / total
            parts.append(f'<rect x="{start:.2f}" width="{share:.2f}" height="10" '
                         f'fill="{ENDING_COLOURS[ending]}"/>')
            start += share
    return Raw(''.join(parts) + '</svg>')


def forfeits_section(results: Results, order: list[str]) -> Raw:
    """Return every player's forfeits with their reasons, each with a link to its first game."""
    rows = forfeit_rows(results, order, reasons=None)
    if not rows:
        return Raw('<p>No player forfeited a game.</p>')
    linked = [[player, ending, games,
               Raw(f'<a href="#game-{first}">{first}</a>') if first is not None else '', reason]
              for player, ending, games, first, reason in rows]
    return table(['Player', 'Ending', 'Games', 'First game', "First game's reason"], linked,
                 [False, False, True, True, False])


def players_section(specs: Mapping[str, str], broken: Mapping[str, str]) -> Raw:
    """Return each player's name and spec, and for those that could not play, why."""
    if not broken:
        return table(['Name', 'Spec'], specs.items())
    return table(['Name', 'Spec', 'Cannot play'],
                 [(name, spec, broken.get(name, '')) for name, spec in specs.items()])


def game_data(records: Iterable[GameRecord], settings: RunSettings,
              make_game: Callable[[str], Game]) -> GameData:
    """Return the games for the page's script: each game's players, result and
    ending, and its boards from the start, computed with the game's own rules; the
    players' names and how each game ended as the page shows them (see
    player_text.for_terminal)."""
    players, variants = list(settings.players), list(settings.variants)
    made: dict[str, Game] = {}
    boards: dict[int, dict[str, object]] = {}
    games: list[dict[str, object]] = []
    for record in records:
        variant = variants.index(record.variant)
        if record.variant not in made:
            made[record.variant] = make_game(record.variant)
        game = made[record.variant]
        drawings, moves = [game.drawing(game.initial)], []
        for ply in replay(game, record):
            drawings.append(game.drawing(ply.state, ply.move))
            moves.append([players.index(ply.player), game.typed_move(ply.move)])
        boards.setdefault(variant, {key: drawings[0][key] for key in SHARED_KEYS
                                    if key in drawings[0]})
        games.append({
            'index': record.index, 'variant': variant,
            'first': players.index(record.first), 'second': players.index(record.second),
            'result': score_text(record.score), 'ending': record.termination,
            'outcome': for_terminal(outcome(record)), 'opening': record.opening,
            'seed': str(record.seed),  # 63 bits: more than a JavaScript number holds
            'moves': moves,
            'frames': [{key: value for key, value in drawing.items() if key not in SHARED_KEYS}
                       for drawing in drawings]})
    return {'players': [for_terminal(name) for name in players], 'variants': variants,
            'boards': boards, 'games': games}


def render(settings: RunSettings, results: Results, by_variant: Mapping[str | None, list[Standing]],
           records: Iterable[GameRecord], make_game: Callable[[str], Game]) -> str:
    """Return the report page of a tournament, given its settings, its results,
    its standings by variant (standings.graded_standings) and its game records."""
    overall = by_variant[OVERALL]
    order = [row.player for row in overall]
    specs = settings.specs or {name: name for name in settings.players}
    kind = f'Gauntlet of {settings.gauntlet}' if settings.gauntlet else 'Round robin'
    data = game_data(records, settings, make_game)
    games = data['games']
    rules = (f'{plural(settings.games, "game pair")} per pairing per variant, '
             f'{plural(settings.openings, "opening ply")}, seed {settings.seed}, '
             f'{settings.move_timeout:g} s a move'
             + (f', a draw after {plural(settings.max_plies, "ply")}'
                if settings.max_plies else ''))
    sections = [
        ('standings', 'Standings', standings_section(overall)),
        ('elo', 'Elo with its 95% interval', elo_plot(overall)),
        ('variants', 'Score % by variant', variant_scores_section(by_variant)),
        ('crosstable', 'Crosstable (points/games, row against column)',
         crosstable_section(results, order)),
        ('los', f'Likelihood of superiority (%, row over column; the top '
         f'{min(len(order), LOS_PLAYERS)})', superiority_section(results, order)),
        ('endings', 'How games ended', endings_section(results, order)),
        ('forfeits', 'Forfeits and their reasons', forfeits_section(results, order)),
        ('games', 'Games', Raw(games_panel())),
        ('players', 'Players', players_section(specs, settings.broken)),
    ]
    nav = ' · '.join(f'<a href="#{key}">{escape(title.split(" (")[0])}</a>'
                     for key, title, _ in sections)
    body = '\n'.join(f'<section id="{key}"><h2>{escape(title)}</h2>{content}</section>'
                     for key, title, content in sections)
    payload = json.dumps(data, separators=(',', ':')).replace('<', '\\u003c')
    return _PAGE.format(
        title=escape(f'{kind}: {len(settings.players)} players, '
                     f'{len(settings.variants)} variants, {len(games)} games'),
        rules=escape(rules), nav=nav, body=body, data=payload,
        style=_asset('html_report.css'),
        script=_asset('board_drawing.js') + _asset('html_report.js'))


def write(path: str, settings: RunSettings, results: Results,
          by_variant: Mapping[str | None, list[Standing]],
          records: Iterable[GameRecord], make_game: Callable[[str], Game]) -> None:
    """Write the report page of a tournament to path (see render)."""
    page = render(settings, results, by_variant, records, make_game)
    with open(path, 'w', encoding='utf-8') as out:
        out.write(page)


def _asset(name: str) -> str:
    """Return the text of a file that ships beside this module."""
    return resources.files(__package__).joinpath(name).read_text(encoding='utf-8')


def games_panel(listed: bool = True) -> str:
    """Return the markup of the games' panel that html_report.js fills: the filters,
    the list of games and the replay; without listed, the filters and the list are
    there but hidden (a page of one game)."""
    hidden = '' if listed else ' hidden'
    return f'''<div class="filters"{hidden}>
<label>Player <select id="filter-player"><option value="">any</option></select></label>
<label>Variant <select id="filter-variant"><option value="">any</option></select></label>
<label>Result <select id="filter-result"><option value="">any</option>
<option>1-0</option><option>0-1</option><option>½-½</option></select></label>
<label>Ending <select id="filter-ending"><option value="">any</option></select></label>
<span id="game-count"></span></div>
<div class="games-and-viewer">
<div class="game-list"{hidden}><table><thead><tr><th class="num">#</th><th>Variant</th><th>First</th>
<th>Second</th><th>Result</th><th>Ending</th><th class="num">Plies</th></tr></thead>
<tbody id="game-rows"></tbody></table><button id="more" type="button">Show more</button></div>
<div class="viewer" id="viewer"><p id="viewer-title">Choose a game to replay it.</p>
<div id="board" class="board"></div>
<div class="controls"><button id="first" type="button" title="start (Home)">|◀</button>
<button id="prev" type="button" title="back (←)">◀</button>
<input id="slider" type="range" min="0" max="0" value="0" aria-label="move">
<button id="next" type="button" title="forward (→)">▶</button>
<button id="last" type="button" title="end (End)">▶|</button></div>
<p id="ply"></p><ol id="move-list" class="moves"></ol></div></div>'''


_PAGE = '''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{title}</title><style>{style}</style></head>
<body><header><h1>{title}</h1><p>{rules}</p><nav>{nav}</nav></header>
<main>{body}</main>
<script type="application/json" id="report-data">{data}</script>
<script>{script}</script>
</body></html>
'''
