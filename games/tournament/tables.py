"""The tables of a tournament (tabulate): standings per variant and overall, the
crosstable, how games ended and time per move."""

from __future__ import annotations

from tabulate import tabulate

from . import ratings
from .results import ENDINGS, OVERALL, Results

STANDING_COLUMNS = {
    'rank': 'Rank', 'player': 'Player', 'elo': 'Elo', 'margin': '±', 'games': 'Games',
    'wins': 'W', 'draws': 'D', 'losses': 'L', 'points': 'Points', 'score_pct': 'Score %',
    'draw_pct': 'Draw %', 'forfeits': 'Forfeits'}
"""The standings' fields and their column headers."""
STANDING_FORMATS = {'score_pct': '.1f', 'draw_pct': '.1f'}
"""How the standings' fractional columns are shown: percentages with one decimal."""


def standings(results: Results, variant=OVERALL) -> list[dict]:
    """Return the standings of a variant (or OVERALL) as dicts with the fields of
    STANDING_COLUMNS, best first by Elo (then by points)."""
    entrants = results.entrants(variant)
    fitted = ratings.fit(entrants, results.pair_games(variant), results.pair_points(variant))
    rows = []
    for player in entrants:
        tally = results.tallies[variant, player]
        elo, margin = fitted[player]
        rows.append({
            'player': player, 'elo': round(elo), 'margin': round(margin), 'games': tally.games,
            'wins': tally.wins, 'draws': tally.draws, 'losses': tally.losses,
            'points': tally.points, 'score_pct': round(100 * tally.points / tally.games, 1),
            'draw_pct': round(100 * tally.draws / tally.games, 1), 'forfeits': tally.forfeits})
    rows.sort(key=lambda row: (-row['elo'], -row['points']))
    return [{'rank': rank, **row} for rank, row in enumerate(rows, 1)]


def standings_table(rows: list[dict], fmt: str) -> str:
    """Return standings as a table."""
    return tabulate([[row[key] for key in STANDING_COLUMNS] for row in rows],
                    headers=list(STANDING_COLUMNS.values()), tablefmt=fmt,
                    floatfmt=[STANDING_FORMATS.get(key, 'g') for key in STANDING_COLUMNS],
                    colalign=('right', 'left') + ('right',) * (len(STANDING_COLUMNS) - 2))


def crosstable(results: Results, order: list[str], fmt: str) -> str:
    """Return each player's points against each other player (row against column),
    as points/games, over all variants."""
    short = {player: str(number) for number, player in enumerate(order, 1)}
    rows = []
    for player in order:
        cells = []
        for other in order:
            pair = tuple(sorted((player, other), key=results.players.index))
            games = results.games[(OVERALL, *pair)]
            points = results.points[(OVERALL, player, other)]
            cells.append('' if player == other or not games else f'{points:g}/{games}')
        rows.append([short[player], player, *cells])
    return tabulate(rows, headers=['#', 'Player', *short.values()], tablefmt=fmt)


def endings_table(results: Results, order: list[str], fmt: str) -> str:
    """Return how each player's games ended, over all variants."""
    rows = [[player, *(results.tallies[OVERALL, player].endings[ending] for ending in ENDINGS)]
            for player in order]
    return tabulate(rows, headers=['Player', *(e.capitalize() for e in ENDINGS)], tablefmt=fmt)


def speed_table(results: Results, order: list[str], fmt: str) -> str:
    """Return each player's moves, thinking time per move and reported nodes per move."""
    rows = []
    for player in order:
        tally = results.tallies[OVERALL, player]
        per_move = 1000 * tally.seconds / tally.moves if tally.moves else None
        nodes = round(tally.nodes / tally.node_moves) if tally.node_moves else None
        rows.append([player, tally.moves, per_move, nodes])
    return tabulate(rows, headers=['Player', 'Moves', 'ms/move', 'Nodes/move'], tablefmt=fmt,
                    floatfmt='.2f', missingval='')


def all_standings(results: Results) -> dict:
    """Return the standings of each variant with games, then OVERALL, by variant."""
    variants = [variant for variant in results.variants if results.entrants(variant)]
    return {variant: standings(results, variant) for variant in [*variants, OVERALL]}


def report(results: Results, by_variant: dict, fmt: str = 'simple') -> str:
    """Return all the tables of a tournament, each under a title, given its
    standings by variant (from all_standings)."""
    parts = [f'{variant}\n\n{standings_table(rows, fmt)}'
             for variant, rows in by_variant.items() if variant is not OVERALL]
    overall = by_variant[OVERALL]
    order = [row['player'] for row in overall]
    parts.append(f'Overall\n\n{standings_table(overall, fmt)}')
    parts.append(f'Crosstable (points/games, row against column)\n\n'
                 f'{crosstable(results, order, fmt)}')
    parts.append(f'How games ended\n\n{endings_table(results, order, fmt)}')
    parts.append(f'Time per move\n\n{speed_table(results, order, fmt)}')
    return '\n\n'.join(parts) + '\n'
