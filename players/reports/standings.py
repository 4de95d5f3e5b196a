"""The tables of a tournament (tabulate): standings per variant and overall, scores
by variant, the crosstable, how games ended, time per move and forfeits with reasons."""

from __future__ import annotations

import textwrap
from typing import Any, Mapping, Sequence

from tabulate import tabulate

from games.referee import ADJUDICATED, CANNOT_LOAD, ERROR, ILLEGAL, NORMAL, TIMEOUT
from players.tournaments import ranking, ratings
from players.tournaments.ranking import Standing
from .grades import graded
from .player_text import for_terminal
from players.tournaments.results import OPPONENT_FORFEIT, OVERALL, Results

STANDING_COLUMNS = {
    'rank': 'Rank', 'player': 'Player', 'elo': 'Elo', 'margin': '±', 'games': 'Games',
    'wins': 'W', 'draws': 'D', 'losses': 'L', 'points': 'Points', 'score_pct': 'Score %',
    'draw_pct': 'Draw %', 'forfeits': 'Forfeits', 'grade': 'Grade'}
"""The standings' fields (those of ranking.Standing) and their column headers ('grade'
only with anchors)."""
COMPACT_COLUMNS = ('rank', 'player', 'elo', 'margin', 'games', 'points', 'score_pct', 'forfeits',
                   'grade')
"""The fields of the overall standings on a terminal."""
STANDING_FORMATS = {'score_pct': '.1f', 'draw_pct': '.1f', 'grade': '.1f'}
"""How the standings' fractional columns are shown: percentages and grades with one
decimal."""
ENDING_HEADERS = {NORMAL: 'Normal', ADJUDICATED: 'Adjudicated', TIMEOUT: 'Timeout',
                  ILLEGAL: 'Illegal', ERROR: 'Error', CANNOT_LOAD: 'Cannot load',
                  OPPONENT_FORFEIT: 'Opp. forfeit'}
"""Short column headers for results.ENDINGS."""
FORFEIT_REASONS = 3
"""How many different forfeit reasons of each player the forfeits table lists."""
REASON_WIDTH = 60
"""The most characters of a forfeit's reason the forfeits table shows."""
MIN_REASON_WIDTH = 20
"""The fewest characters of a reason the forfeits table cuts one to, to fit a width."""
HEADER_WRAP = 7
"""The width variants' names are wrapped to when the scores by variant are too wide."""
LOS_PLAYERS = 10
"""How many of the top players the likelihood-of-superiority matrix shows."""
ForfeitRow = tuple[str, str, int, int | None, str]
"""A row of the forfeits table: player, ending, games, first game (None for the row
that counts the rest) and reason."""


def terminal_table(rows: Sequence[Sequence[object]], headers: Sequence[str],
                   **options: Any) -> str:
    """Return tabulate's table of rows under headers, with tabulate's options, each
    text in its cells as a terminal should show it (see player_text.for_terminal)."""
    return tabulate([[for_terminal(cell) if isinstance(cell, str) else cell for cell in row]
                     for row in rows], headers=headers, **options)


def standing_columns(rows: Sequence[Standing],
                     columns: Sequence[str] = tuple(STANDING_COLUMNS)) -> list[str]:
    """Return the fields of columns that the standings have: all but the grade when
    they have none."""
    return [key for key in columns if key != 'grade' or not rows or rows[0].grade is not None]


def cells(standing: Standing, columns: Sequence[str]) -> list[object]:
    """Return the values of a standing's fields named by columns (of STANDING_COLUMNS)."""
    return [getattr(standing, key) for key in columns]


def standings_table(rows: Sequence[Standing], fmt: str,
                    columns: Sequence[str] = tuple(STANDING_COLUMNS)) -> str:
    """Return standings as a table of the given fields that the rows have."""
    columns = standing_columns(rows, columns)
    return terminal_table([cells(row, columns) for row in rows],
                          [STANDING_COLUMNS[key] for key in columns], tablefmt=fmt,
                          floatfmt=[STANDING_FORMATS.get(key, 'g') for key in columns],
                          colalign=['left' if key == 'player' else 'right' for key in columns])


def variant_scores_table(by_variant: Mapping[str | None, list[Standing]], fmt: str,
                         width: int | None = None) -> str:
    """Return each player's score % on each variant (a column each), players in the
    order of the overall standings, given the standings by variant. Wider than
    width, the variants' names are wrapped over lines, and if that is not enough
    the variants are shown in several tables, each as wide as width allows."""
    variants = [variant for variant in by_variant if variant is not OVERALL]
    scores = {(variant, row.player): row.score_pct
              for variant in variants for row in by_variant[variant]}
    overall = by_variant[OVERALL]

    def render(chosen: list[str], last: bool, wrap: bool) -> str:
        headers = ['\n'.join(textwrap.wrap(name, HEADER_WRAP, break_long_words=False))
                   if wrap else name for name in chosen]
        rows = [[row.player, *(scores.get((variant, row.player)) for variant in chosen),
                 *([row.score_pct] if last else [])] for row in overall]
        return terminal_table(rows, ['Player', *headers, *(['All'] if last else [])],
                              tablefmt=fmt, floatfmt='.1f', missingval='')

    whole = render(variants, True, False)
    if width is None or widest(whole) <= width:
        return whole
    parts: list[str] = []
    chunk: list[str] = []
    for variant in variants:
        if chunk and widest(render([*chunk, variant], False, True)) > width:
            parts.append(render(chunk, False, True))
            chunk = []
        chunk.append(variant)
    last = render(chunk, True, True)
    if widest(last) > width and len(chunk) > 1:
        parts.append(render(chunk[:-1], False, True))
        last = render(chunk[-1:], True, True)
    return '\n\n'.join([*parts, last])


def widest(text: str) -> int:
    """Return the length of the longest line of text."""
    return max(map(len, text.splitlines()), default=0)


def top_superiority(results: Results,
                    order: list[str]) -> tuple[list[str], dict[tuple[str, str], float]]:
    """Return the top LOS_PLAYERS players of order (best first) and the likelihood
    of superiority of every player over every other, {(a, b): chance}, from the
    overall fit."""
    likelihood = ratings.superiority(results.entrants(OVERALL), results.pair_games(OVERALL),
                                     results.pair_points(OVERALL))
    return order[:LOS_PLAYERS], likelihood


def superiority_table(results: Results, order: list[str], fmt: str) -> str:
    """Return the likelihood of superiority, in percent, of each of the top players
    over each other (row over column)."""
    top, likelihood = top_superiority(results, order)
    rows = [[number, player, *('' if player == other else f'{100 * likelihood[player, other]:.0f}'
                               for other in top)] for number, player in enumerate(top, 1)]
    return terminal_table(rows, ['#', 'Player', *map(str, range(1, len(top) + 1))],
                          tablefmt=fmt, disable_numparse=True,
                          colalign=['right', 'left', *['right'] * len(top)])


def crosstable(results: Results, order: list[str], fmt: str) -> str:
    """Return each player's points against each other player (row against column),
    as points/games, over all variants."""
    short = {player: str(number) for number, player in enumerate(order, 1)}
    rows = []
    for player in order:
        line = []
        for other in order:
            first, second = sorted((player, other), key=results.players.index)
            games = results.games[OVERALL, first, second]
            points = results.points[OVERALL, player, other]
            line.append('' if player == other or not games else f'{points:g}/{games}')
        rows.append([short[player], player, *line])
    return terminal_table(rows, ['#', 'Player', *short.values()], tablefmt=fmt)


def endings_table(results: Results, order: list[str], fmt: str) -> str:
    """Return how each player's games ended, over all variants."""
    endings = results.endings()
    rows = [[player, *(results.tallies[OVERALL, player].endings[ending] for ending in endings)]
            for player in order]
    return terminal_table(rows, ['Player', *(ENDING_HEADERS[e] for e in endings)],
                          tablefmt=fmt)


def speed_table(results: Results, order: list[str], fmt: str) -> str:
    """Return each player's moves, thinking time per move and reported nodes per move."""
    rows = []
    for player in order:
        tally = results.tallies[OVERALL, player]
        per_move = 1000 * tally.seconds / tally.moves if tally.moves else None
        nodes = round(tally.nodes / tally.node_moves) if tally.node_moves else None
        rows.append([player, tally.moves, per_move, nodes])
    return terminal_table(rows, ['Player', 'Moves', 'ms/move', 'Nodes/move'], tablefmt=fmt,
                          floatfmt='.2f', missingval='')


def forfeit_rows(results: Results, order: list[str],
                 reasons: int | None = FORFEIT_REASONS) -> list[ForfeitRow]:
    """Return rows [player, ending, games, first game, reason] of each player's
    forfeits by kind of fault, the most frequent first: at most reasons of them per
    player, then a row counting the rest. A reason is the first game's, as the
    player wrote it."""
    rows: list[ForfeitRow] = []
    for player in order:
        kept = sorted(results.reasons.get(player, {}).values(),
                      key=lambda reason: (-reason.games, reason.first_game))
        shown = kept if reasons is None else kept[:reasons]
        for reason in shown:
            rows.append((player, reason.termination, reason.games, reason.first_game,
                         reason.detail))
        rest = sum(reason.games for reason in kept[len(shown):]) + results.unexplained[player]
        if rest:
            rows.append((player, '', rest, None, 'more, for other reasons'))
    return rows


def shorten(text: str, width: int) -> str:
    """Return text cut to width characters, with … where it was cut."""
    return text if len(text) <= width else text[:width - 1] + '…'


def forfeits_table(results: Results, order: list[str], fmt: str,
                   width: int | None = None) -> str:
    """Return each player's forfeits with their reasons (see forfeit_rows), each
    reason as a terminal should show it cut to REASON_WIDTH characters, or shorter
    if that makes the table fit width columns (at most to MIN_REASON_WIDTH)."""
    rows = forfeit_rows(results, order)

    def render(reason_width: int) -> str:
        return terminal_table([[*row[:-1], shorten(for_terminal(row[-1]), reason_width)]
                               for row in rows],
                              ['Player', 'Ending', 'Games', 'First game', "First game's reason"],
                              tablefmt=fmt, missingval='')
    text = render(REASON_WIDTH)
    if width is None or widest(text) <= width:
        return text
    return render(max(MIN_REASON_WIDTH, REASON_WIDTH - (widest(text) - width)))


def graded_standings(results: Results, anchors: dict[str, float] | None = None,
                     ) -> dict[str | None, list[Standing]]:
    """Return the standings of each variant with games, then OVERALL, by variant
    (see ranking.standings_by_variant); with anchors ({player: grade}), the overall
    standings have each player's grade. Raises ValueError for an anchor that is no
    player."""
    by_variant = ranking.standings_by_variant(results)
    if anchors:
        by_variant[OVERALL] = graded(by_variant[OVERALL], anchors)
    return by_variant
