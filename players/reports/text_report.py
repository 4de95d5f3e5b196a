"""The terminal report of a tournament: its header first, then its tables, with
the overall standings last, where they stay in view."""

from __future__ import annotations

import textwrap
from typing import Iterable, Mapping

from . import standings
from .player_text import for_terminal
from players.sandbox.levels import LEVELS
from games.referee import NORMAL
from players.tournaments.ranking import Standing
from players.tournaments.run_settings import RunSettings
from players.tournaments.results import OVERALL, Results

OPTIONAL_TABLES = ('details', 'crosstable', 'los', 'endings', 'speed', 'forfeits')
"""The tables printed before the scores by variant and the standings, which are
always printed: the standings of each variant, the crosstable, the likelihood of
superiority of the top players (only when asked for), how games ended, time per
move, and forfeits with their reasons."""
WIDTH = 100
"""The widest a line the commands print may be: lines are wrapped within it, and a
table wider is printed only when asked for."""
HEIGHT = 60
"""The most lines the per-variant standings (together) or the crosstable may
take to be printed without being asked for."""


def header(settings: RunSettings, total: int, reused: int | None = None, db: str = '',
           course: str | None = None) -> str:
    """Return the lines that open a tournament: what it plays, the course file its
    settings came from, if any, its players (and a line for each that cannot play,
    saying why, cut to WIDTH: the records say it all) and variants, and, given the
    games reused from the results file db, how many are played now."""
    players, variants = settings.players, settings.variants
    kind = f'Gauntlet of {settings.gauntlet}' if settings.gauntlet else 'Round robin'
    lines = [f'{kind}: {plural(len(players), "player")}, {plural(len(variants), "variant")}, '
             f'{plural(total, "game")} (seed {settings.seed})']
    if course:
        lines.append(path_line(course, 'Course settings: '))
    lines += wrapped('Players: ' + ', '.join(map(for_terminal, players)))
    lines += [standings.shorten(for_terminal(f'{name}: cannot play: {" ".join(why.split())}'),
                                WIDTH) for name, why in settings.broken.items()]
    lines.append(header_details(settings))
    if reused is not None:
        lines += [f'Games: {total - reused} to play now, {reused} reused (the games of players '
                  'whose code is unchanged) from', path_line(db)]
    return '\n'.join(lines) + '\n'


def wrapped(text: str, indent: str = '  ') -> list[str]:
    """Return the lines of one line of text wrapped within WIDTH columns between
    words (not at hyphens), each line after the first after indent."""
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_on_hyphens=False) or ['']


def path_line(path: str, before: str = '  ') -> str:
    """Return a path as a line of its own after before (an indent), at most WIDTH
    columns wide: a longer path keeps its start and its end (the file's name), with
    … between."""
    room = WIDTH - len(before)
    if len(path) > room:
        path = path[:room // 2] + '…' + path[-(room - room // 2 - 1):]
    return before + path


def header_details(settings: RunSettings) -> str:
    """Return the lines that say how the games are played: the variants, the jails
    (and the course's support files beside each file and folder player) and the time
    control."""
    lines = wrapped('Variants: ' + ', '.join(settings.variants))
    if settings.sandbox is not None:  # runs stored before jails had no sandbox
        lines.append(f'Jails: {LEVELS[settings.sandbox].isolation()}')
        if settings.support:
            lines += wrapped('Support files: ' + ', '.join(map(for_terminal, settings.support)))
        lines.append(f'Time: {time_control(settings)}')
    return '\n'.join(lines)


def time_control(settings: RunSettings) -> str:
    """Return a run's time control in words, such as '10 s a move, clock 60+0.5'."""
    words = [f'{settings.move_timeout:g} s a move']
    if settings.clock:
        base, increment = settings.clock
        words.append(f'clock {base:g}+{increment:g} (seconds a game + a move)')
    return ', '.join(words)


def parse_tables(text: str) -> set[str] | str:
    """Return the optional tables a --tables option asks for: 'auto', or a set of
    names from OPTIONAL_TABLES ('all' for every one). Raises ValueError for an unknown name."""
    words = {word.strip() for word in text.split(',') if word.strip()}
    if words == {'auto'}:
        return 'auto'
    if words == {'all'}:
        return set(OPTIONAL_TABLES)
    unknown = words - set(OPTIONAL_TABLES)
    if unknown or not words:
        raise ValueError(f'unknown table {", ".join(sorted(unknown)) or "(none)"}; tables: '
                         f'auto, all, or some of {", ".join(OPTIONAL_TABLES)}')
    return words


def fits(text: str, height: int = HEIGHT) -> bool:
    """Return True if text is at most WIDTH columns wide and height lines high."""
    lines = text.splitlines()
    return len(lines) <= height and max(map(len, lines), default=0) <= WIDTH


def body(results: Results, by_variant: Mapping[str | None, list[Standing]], fmt: str = 'simple',
         shown: Iterable[str] | str = 'auto') -> str:
    """Return the tables of a tournament, each under a title, given its standings
    by variant (from standings.graded_standings): the optional tables shown ('auto':
    those that fit, how games ended and time per move, and the forfeits if there
    were any; how games ended is one line when all ended on the board), then the
    scores by variant and the overall standings."""
    overall = by_variant[OVERALL]
    order = [row.player for row in overall]
    auto = shown == 'auto'
    shown = set(OPTIONAL_TABLES) if auto else set(shown)
    parts = []
    if 'details' in shown:
        details = [f'Standings: {variant}\n\n{standings.standings_table(rows, fmt)}'
                   for variant, rows in by_variant.items() if variant is not OVERALL]
        if not auto or fits('\n\n'.join(details)):
            parts += details
    if 'crosstable' in shown:
        cross = standings.crosstable(results, order, fmt)
        if not auto or fits(cross):
            parts.append(f'Crosstable (points/games, row against column)\n\n{cross}')
    if 'los' in shown and not auto:
        parts.append(f'Likelihood of superiority (%, row over column; the top '
                     f'{min(len(order), standings.LOS_PLAYERS)})\n\n'
                     f'{standings.superiority_table(results, order, fmt)}')
    if 'endings' in shown:
        endings = standings.endings_table(results, order, fmt)
        if auto and all_normal(results):
            endings = f'All {plural(results.game_count, "game")} ended on the board.'
        parts.append(f'How games ended\n\n{endings}')
    if 'speed' in shown:
        parts.append(f'Time per move\n\n{standings.speed_table(results, order, fmt)}')
    if 'forfeits' in shown and (results.reasons or not auto):
        forfeits = (standings.forfeits_table(results, order, fmt, WIDTH) if results.reasons
                    else 'No forfeits.')
        parts.append(f'Forfeits (the most frequent reasons of each player)\n\n{forfeits}')
    parts.append(f'Score % by variant\n\n{standings.variant_scores_table(by_variant, fmt, WIDTH)}')
    parts.append(f'Standings\n\n'
                 f'{standings.standings_table(overall, fmt, standings.COMPACT_COLUMNS)}')
    return '\n\n'.join(parts) + '\n'


def all_normal(results: Results) -> bool:
    """Return True if every game ended on the board (no forfeit, no adjudication)."""
    return all(set(tally.endings) <= {NORMAL} for (variant, _), tally in results.tallies.items()
               if variant is OVERALL)


def plural(number: int, noun: str) -> str:
    """Return '1 game' or '3 games' ('1 ply', '2 plies')."""
    if number == 1:
        return f'{number} {noun}'
    return f'{number} {noun[:-1]}ies' if noun.endswith('y') else f'{number} {noun}s'
