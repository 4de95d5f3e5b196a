"""The tables of a tournament (tabulate): standings per variant and overall, scores
by variant, the crosstable, how games ended, time per move and forfeits with reasons."""

from __future__ import annotations

from tabulate import tabulate

from . import ratings
from .results import ENDINGS, OVERALL, Results

STANDING_COLUMNS = {
    'rank': 'Rank', 'player': 'Player', 'elo': 'Elo', 'margin': '±', 'games': 'Games',
    'wins': 'W', 'draws': 'D', 'losses': 'L', 'points': 'Points', 'score_pct': 'Score %',
    'draw_pct': 'Draw %', 'forfeits': 'Forfeits'}
"""The standings' fields and their column headers."""
COMPACT_COLUMNS = ('rank', 'player', 'elo', 'margin', 'games', 'points', 'score_pct', 'forfeits')
"""The fields of the overall standings on a terminal."""
STANDING_FORMATS = {'score_pct': '.1f', 'draw_pct': '.1f'}
"""How the standings' fractional columns are shown: percentages with one decimal."""
ENDING_HEADERS = {'normal': 'Normal', 'adjudicated draw': 'Adjudicated', 'timeout': 'Timeout',
                  'illegal move': 'Illegal', 'error': 'Error',
                  'opponent forfeit': 'Opp. forfeit'}
"""Short column headers for ENDINGS."""
FORFEIT_REASONS = 3
"""How many different forfeit reasons of each player the forfeits table lists."""
REASON_WIDTH = 60
"""The most characters of a forfeit's reason the forfeits table shows."""


def standings(results: Results, variant=OVERALL) -> list[dict]:
    """Return the standings of a variant (or OVERALL) as dicts with the fields of
    STANDING_COLUMNS, best first by Elo (then by points). Players with the same
    Elo and the same wins, draws and losses share a rank."""
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
    ranked, previous = [], None
    for place, row in enumerate(rows, 1):
        record = (row['elo'], row['wins'], row['draws'], row['losses'])
        rank = ranked[-1]['rank'] if record == previous else place
        ranked.append({'rank': rank, **row})
        previous = record
    return ranked


def standings_table(rows: list[dict], fmt: str, columns=tuple(STANDING_COLUMNS)) -> str:
    """Return standings as a table of the given fields."""
    return tabulate([[row[key] for key in columns] for row in rows],
                    headers=[STANDING_COLUMNS[key] for key in columns], tablefmt=fmt,
                    floatfmt=[STANDING_FORMATS.get(key, 'g') for key in columns],
                    colalign=['left' if key == 'player' else 'right' for key in columns])


def variant_scores_table(by_variant: dict, fmt: str) -> str:
    """Return each player's score % on each variant (a column each), players in the
    order of the overall standings, given the standings by variant."""
    variants = [variant for variant in by_variant if variant is not OVERALL]
    scores = {(variant, row['player']): row['score_pct']
              for variant in variants for row in by_variant[variant]}
    rows = [[row['player'], *(scores.get((variant, row['player'])) for variant in variants),
             row['score_pct']] for row in by_variant[OVERALL]]
    return tabulate(rows, headers=['Player', *variants, 'All'], tablefmt=fmt, floatfmt='.1f',
                    missingval='')


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
    return tabulate(rows, headers=['Player', *(ENDING_HEADERS[e] for e in ENDINGS)],
                    tablefmt=fmt)


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


def forfeit_rows(results: Results, order: list[str], reasons: int | None = FORFEIT_REASONS,
                 width: int | None = REASON_WIDTH) -> list[list]:
    """Return rows [player, ending, games, first game, reason] of each player's
    forfeits by kind of fault, the most frequent first: at most reasons of them per
    player, then a row counting the rest. A reason is the first game's, cut to
    width characters."""
    rows = []
    for player in order:
        kept = sorted(results.reasons.get(player, {}).values(),
                      key=lambda reason: (-reason.games, reason.first_game))
        shown = kept if reasons is None else kept[:reasons]
        for reason in shown:
            text = shorten(reason.detail, width) if width else reason.detail
            rows.append([player, reason.termination, reason.games, reason.first_game, text])
        rest = sum(reason.games for reason in kept[len(shown):]) + results.unexplained[player]
        if rest:
            rows.append([player, '', rest, None, 'more, for other reasons'])
    return rows


def shorten(text: str, width: int) -> str:
    """Return text cut to width characters, with … where it was cut."""
    return text if len(text) <= width else text[:width - 1] + '…'


def forfeits_table(results: Results, order: list[str], fmt: str) -> str:
    """Return each player's forfeits with their reasons (see forfeit_rows)."""
    return tabulate(forfeit_rows(results, order), headers=['Player', 'Ending', 'Games',
                                                           'First game', "First game's reason"],
                    tablefmt=fmt, missingval='')


def all_standings(results: Results) -> dict:
    """Return the standings of each variant with games, then OVERALL, by variant."""
    variants = [variant for variant in results.variants if results.entrants(variant)]
    return {variant: standings(results, variant) for variant in [*variants, OVERALL]}
