"""A tournament as a value: who plays, on which variants, by which rules and how
many games; run, it plays every game with each player in its jails and returns
its standings and its games' records. The command line makes one from its
options; a script makes one directly:

    from players.tournaments.match import Rules
    from players.tournaments.tournament import Tournament

    outcome = Tournament(['random', 'ab2'], ['simple-nim'], Rules(move_timeout=2),
                         games=2).run()
    for standing in outcome.overall:
        print(standing.rank, standing.player, standing.elo, standing.points)
"""

from __future__ import annotations

import functools
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping, Sequence

import variants
from games import game_files
from players.registry import load_player
from players.remote.player_code import FolderLimits, Support
from players.sandbox import jail
from . import entrants, ladder, naming, ranking
from .entrants import Entrants
from .match import Rules, play_scheduled_game
from .ranking import Standing
from .record import GameRecord
from .results import OVERALL, Results
from .run_settings import RunSettings
from .runner import run
from .schedule import ScheduledGame, count_games, schedule
from .store import Store
from .workers import WorkerPool


@dataclass(frozen=True)
class Outcome:
    """What a tournament came to: its settings, its games and its standings."""

    settings: RunSettings
    """The settings the results store keeps (see Tournament.settings)."""
    records: list[GameRecord]
    """Every game's record, in schedule order."""
    results: Results
    """The totals of the records, per variant and overall."""
    standings: dict[str | None, list[Standing]]
    """The standings of each variant with games, then OVERALL, best first."""
    played: int
    """The games played by this run."""
    reused: int
    """The games kept from the results file, their players' code unchanged."""

    @property
    def overall(self) -> list[Standing]:
        """The standings over all variants, best first."""
        return self.standings[OVERALL]

    @classmethod
    def read(cls, store: Store, played: int = 0, reused: int = 0) -> 'Outcome':
        """Return the outcome of the tournament in store, as far as it was played."""
        settings = store.settings
        records = list(store.records())
        results = Results(settings.players, settings.variants).add_all(records)
        return cls(settings, records, results, ranking.standings_by_variant(results), played,
                   reused)


@dataclass(frozen=True)
class Tournament:
    """A round robin (or a gauntlet) of players on variants. Each pairing plays
    `games` game pairs on each variant, the seats swapped between the games of a
    pair, both from the same opening."""

    players: Sequence[str] | Mapping[str, str]
    """The players: {name: spec}, or specs (and NAME=SPEC entries) named as the
    command line names them."""
    variants: Sequence[str]
    """The variant names or specs, each a different game."""
    rules: Rules = field(default_factory=Rules)
    """How every game is played."""
    games: int = 1
    """Game pairs per pairing per variant."""
    seed: int = 0
    """The seed every random choice of the run derives from."""
    gauntlet: str | None = None
    """The name of the player who plays every other, who then play no one else;
    None for a round robin."""
    jobs: int = 1
    """The games played at once, each by a worker process (see run)."""
    db: str | None = None
    """The results file (SQLite) the games are stored in as they end; None for a
    temporary one."""
    resume: bool = False
    """Go on with the run in db: play only the games it does not hold yet."""

    def specs(self) -> dict[str, str]:
        """Return each player's spec, by name."""
        if isinstance(self.players, Mapping):
            return dict(self.players)
        return naming.name_players(list(self.players))

    def entrants(self, strict: bool = True, submitted: Sequence[str] = (),
                 limits: FolderLimits = FolderLimits(),
                 support: Support = Support()) -> Entrants:
        """Return the players read, with the course's support files beside them, and
        checked to load in their jails (see entrants.check, which says when they
        raise PlayerError)."""
        return entrants.check(self.specs(), self.variants[0], self.rules, strict, submitted,
                              limits, support)

    def settings(self, entered: Entrants) -> RunSettings:
        """Return the settings of the run, as its results file keeps them."""
        rules = self.rules
        return RunSettings(
            players=tuple(entered.specs), specs=entered.specs, variants=tuple(self.variants),
            games=self.games, seed=self.seed, gauntlet=self.gauntlet, openings=rules.openings,
            move_timeout=rules.move_timeout, max_plies=rules.max_plies, clock=rules.clock,
            sandbox=rules.sandbox, memory_mb=rules.memory_mb, allow=rules.allow,
            support=rules.support, broken=entered.broken,
            digests=ladder.digests(entered.specs, entered.codes, entered.broken),
            game_files=game_digests(self.variants))

    def schedule(self, entered: Entrants) -> Iterator[ScheduledGame]:
        """Generate the games of the run, in order."""
        return schedule(list(entered.specs), list(self.variants), self.games, self.seed,
                        self.gauntlet)

    def count(self, entered: Entrants) -> int:
        """Return how many games the run plays in all."""
        return count_games(list(entered.specs), list(self.variants), self.games, self.gauntlet)

    def open(self, entered: Entrants) -> tuple[Store, int]:
        """Open the results file of the run (a temporary one without db) and keep
        the games stored there that the run would play again with the same players'
        code; return the store and how many games it kept. Raises StoreError for a
        file that holds another tournament."""
        store = Store(self.db or '', self.settings(entered), self.resume)
        return store, ladder.keep_unchanged(store, self.schedule(entered),
                                            store.settings.digests)

    def play(self, entered: Entrants, store: Store, executor: Executor,
             in_flight: int | Callable[[], int],
             progress: Callable[[], None] = lambda: None) -> int:
        """Play the games of the run that store does not hold yet on executor, at
        most in_flight at a time, storing each as it ends and calling progress()
        after each; return how many were played (see runner.run)."""
        return run(self.schedule(entered), game_job(self.rules, entered, self.variants),
                   executor, store, in_flight, progress)

    def run(self, progress: Callable[[], None] = lambda: None) -> Outcome:
        """Check the players, play the run on jobs worker processes, and return its
        outcome. Raises PlayerError for a player that cannot play (StoreError for a
        db that holds another tournament)."""
        jail.prepare_jailer()
        entered = self.entrants()
        with WorkerPool(self.jobs, hard_timeout=worker_silence(self.rules)) as pool:
            store, reused = self.open(entered)
            try:
                played = self.play(entered, store, pool, 2 * self.jobs, progress)
                return Outcome.read(store, played, reused)
            finally:
                store.close()


def worker_silence(rules: Rules) -> float | None:
    """Return the seconds a worker may go without a word before it is taken for
    lost: both players loading, one move, and 5 s to spare; None (no limit) when a
    move has none."""
    if rules.move_timeout is None:
        return None
    return 2 * rules.load_seconds() + rules.move_timeout + 5


def game_job(rules: Rules, entered: Entrants,
             chosen: Sequence[str] = ()) -> Callable[[ScheduledGame], GameRecord]:
    """Return the job that plays one scheduled game under rules between the
    entrants, those that cannot play forfeiting theirs unplayed; the sources of the
    chosen variants' game files go with it, as read here."""
    sources = [source for source in map(game_files.message, chosen) if source is not None]
    return functools.partial(play_scheduled_game, rules=rules, players=entered.codes,
                             make_game=variants.make, load_player=load_player,
                             broken=entered.broken, sources=sources)


def game_digests(specs: Sequence[str]) -> dict[str, str]:
    """Return the digest of the source of each game file that specs name, by spec."""
    return {spec: game_files.source_of(game_files.split(spec)[0]).digest
            for spec in specs if game_files.is_file_spec(spec)}
