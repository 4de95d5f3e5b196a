"""A student's games as the arena's pages show them: found by a name that stays the
same while the ladder renumbers its games, listed from the student's side, and each
made ready for the HTML report's replay with the players shown by the names they
show on the leaderboard (and no other player's name)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from typing import Callable, Iterable

import variants
from games.referee import CANNOT_LOAD, ERROR, ILLEGAL, TIMEOUT
from players.reports.html_report import GameData, game_data
from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store

ENDINGS = ('normal', 'adjudicated', 'forfeit')
"""The endings a student's list can be filtered by ('forfeit': any of the kinds)."""
RESULTS = ('win', 'loss', 'draw')
"""The results a student's list can be filtered by, from the student's side."""


def game_id(record: GameRecord) -> str:
    """Return a game's name in the arena's addresses: a digest of what makes it the
    game it is (its variant, players and their code, pair, leg and seed), which
    stays the same while the ladder renumbers its games."""
    made = [record.variant, record.first, record.first_digest, record.second,
            record.second_digest, record.pair, record.leg, record.seed]
    return hashlib.sha256(json.dumps(made).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class GameRow:
    """A line of a student's list of games."""

    id: str
    variant: str
    opponent: str
    """The opponent's name as shown."""
    seat: str
    """'first' or 'second': the student's seat."""
    result: str
    """'win', 'loss' or 'draw', for the student."""
    ending: str
    plies: int
    forfeit: str
    """Who forfeited, as shown ('' for no forfeit)."""


def result_for(record: GameRecord, player: str) -> str:
    """Return a game's result for one of its players: 'win', 'loss' or 'draw'."""
    points = record.points(record.seat_of(player))
    return 'win' if points == 1 else 'loss' if points == 0 else 'draw'


def games_of(store: Store, player: str, shown: Callable[[str], str], opponent: str | None = None,
             variant: str | None = None, result: str | None = None,
             ending: str | None = None) -> list[GameRow]:
    """Return the rows of a player's games in store, filtered by the opponent's name,
    the variant, the result for the player (RESULTS) and the ending (ENDINGS); shown
    gives the name a player is shown by."""
    termination = None if ending in (None, 'forfeit') else ending
    rows = []
    for record in store.records(player=player, variant=variant,
                                termination='forfeit' if ending == 'forfeit' else termination):
        row = row_of(record, player, shown)
        if (not opponent or record.names[1 - record.seat_of(player)] == opponent) \
                and (not result or row.result == result):
            rows.append(row)
    return rows


def row_of(record: GameRecord, player: str, shown: Callable[[str], str]) -> GameRow:
    """Return the line of a player's list for one of their games."""
    other = record.second if record.first == player else record.first
    return GameRow(game_id(record), record.variant, shown(other),
                   'first' if record.first == player else 'second', result_for(record, player),
                   str(record.termination), record.plies,
                   shown(record.forfeit) if record.forfeit else '')


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent."""

    opponent: str
    """The opponent's name as shown."""
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score_pct(self) -> float:
        """Wins and half the draws, as a percentage of the games, to one decimal."""
        return round(100 * (self.wins + self.draws / 2) / self.games, 1)


def head_to_head(rows: Iterable[GameRow]) -> list[HeadToHead]:
    """Return a player's record against each opponent of their games' rows, the
    opponents in the order first met."""
    tally: dict[str, dict[str, int]] = {}
    for row in rows:
        counts = tally.setdefault(row.opponent, {'win': 0, 'draw': 0, 'loss': 0})
        counts[row.result] += 1
    return [HeadToHead(opponent, sum(counts.values()), counts['win'], counts['draw'],
                       counts['loss']) for opponent, counts in tally.items()]


GENERAL_REASONS = {TIMEOUT: 'it ran out of time', ILLEGAL: 'it made an illegal move',
                   ERROR: 'its code failed', CANNOT_LOAD: 'it could not be loaded'}
"""Why a player forfeited, said without what their code wrote: by how the game ended."""


OWN_VERSION = 'version '
"""How a student's own version is named in a game they play against it in the
browser ('version 3'): no student's id, which has no spaces."""


def without_their_detail(record: GameRecord, player: str) -> GameRecord:
    """Return a record as one of its players may read it: if another student's bot
    or a course player forfeited, their reason in general terms (GENERAL_REASONS),
    never the text their code raised or the move it made up. The player's own
    version's reasons, where they played it in the browser, are theirs."""
    if record.forfeit is None or record.forfeit == player \
            or record.forfeit.startswith(OWN_VERSION):
        return record
    return replace(record, detail=GENERAL_REASONS.get(record.termination, 'it forfeited'))


def find_game(records: Iterable[GameRecord], id: str) -> GameRecord | None:
    """Return the game of records whose name is id, or None."""
    return next((record for record in records if game_id(record) == id), None)


def replay_data(record: GameRecord, settings: RunSettings,
                shown: Callable[[str], str]) -> GameData:
    """Return the data of the report's replay for one game, its players named as
    shown and no other player named."""
    first, second = shown(record.first), shown(record.second)
    if first == second:
        second += ' (2)'
    names = {record.first: first, record.second: second}
    renamed = replace(record, first=first, second=second,
                      forfeit=names.get(record.forfeit) if record.forfeit else None)
    return game_data([renamed], replace(settings, players=(first, second),
                                        specs={}, digests={}, broken={}), variants.make)
