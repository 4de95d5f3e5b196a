"""The arena's ladder, played in the background without end: the course's players and
each student's latest version that plays, every pairing on every variant, the games
kept in the arena's results file. It plays only what changed (players.tournaments.ladder)
and begins again as soon as a version is checked, the newest versions' games first, so
that a student's new version is playing within seconds. A ladder stopped (or killed)
in the middle loses only the games under way, which the next start plays."""

from __future__ import annotations

import functools
import os
import threading
from concurrent.futures import Executor
from typing import Callable

from players.remote.player_code import PlayerCode, ProgramCode, beside
from players.tournaments import entrants
from players.tournaments.entrants import Entrants
from players.tournaments.record import GameRecord
from players.tournaments.runner import run
from players.tournaments.schedule import ScheduledGame
from players.tournaments.store import Store
from players.tournaments.tournament import Tournament, game_job
from .records import Records
from .settings import ArenaSettings

GAMES_FILE = 'games.sqlite'
"""The arena's results file, in its folder: a tournament's --db file."""
NICENESS = 10
"""The ladder's games' priority (their workers' and jails' nice value): below the web
pages', which share the machine's cores with them."""
HOLD_POLL_SECONDS = 0.5
"""How often a held ladder looks whether it is stopping."""
RETRY_SECONDS = 5.0
"""How long the ladder waits after a failure of the machinery before it tries again."""


def tournament_of(settings: ArenaSettings, records: Records) -> tuple[Tournament, dict[str, float]]:
    """Return the ladder's tournament as it stands (the course's players and each
    student's latest version that plays, by the student's id) and when each player's
    version was handed in (0 for the course's own)."""
    playing = records.playing()
    specs = dict(settings.house)
    specs.update({student: version.path for student, version in sorted(playing.items())})
    handed_in = {name: 0.0 for name in settings.house}
    handed_in.update({student: version.handed_in for student, version in playing.items()})
    return Tournament(specs, settings.variants, settings.rules, settings.games, settings.seed,
                      db=settings.path(GAMES_FILE)), handed_in


def read_entrants(tournament: Tournament, settings: ArenaSettings,
                  records: Records) -> Entrants:
    """Return the entrants of the ladder's tournament, each read (never loaded: each
    student's version was loaded in a jail when it was checked, and the course's
    players are the instructor's) with the course's support files beside it. A
    version that can no longer be read cannot play, said without its path (which names
    the student) since its opponents read why."""
    codes: dict[str, PlayerCode | ProgramCode] = {}
    broken: dict[str, str] = {}
    for name, spec in tournament.specs().items():
        try:
            codes[name] = beside(entrants.read(spec, settings.folder_limits), settings.support)
        except ValueError:
            broken[name] = 'its files can no longer be read'
    return Entrants(tournament.specs(), codes, broken)


def played_gently(job: Callable[[ScheduledGame], GameRecord],
                  game: ScheduledGame) -> GameRecord:
    """Play a game with job at the ladder's priority (NICENESS, set once in the
    worker, whose jail servers and jails inherit it)."""
    if os.getpriority(os.PRIO_PROCESS, 0) < NICENESS:
        os.setpriority(os.PRIO_PROCESS, 0, NICENESS)
    return job(game)


def newest_first(games: list[ScheduledGame], handed_in: dict[str, float]) -> list[ScheduledGame]:
    """Return the games in the order the ladder plays them: those of the newest
    versions first, else in the schedule's order."""
    return sorted(games, key=lambda game: (-max(handed_in[game.first], handed_in[game.second]),
                                           game.index))


class Ladder:
    """The background ladder: a thread that plays the ladder's games on an executor
    that make_executor returns, at most in_flight at a time, calling played() after
    each game, and begins again whenever wake() says a version changed. A failure of
    the machinery (a game that failed through no player's fault as often as it was
    tried) is kept in error, and the ladder tries again after RETRY_SECONDS on a new
    executor."""

    def __init__(self, settings: ArenaSettings, records: Records,
                 make_executor: Callable[[], Executor], in_flight: int,
                 played: Callable[[], None] = lambda: None):
        self.settings = settings
        self.records = records
        self.make_executor = make_executor
        self.executor = make_executor()
        self.in_flight = in_flight
        self.played = played
        self.error: str | None = None
        """Why the ladder stopped, if a failure of the machinery stopped it."""
        self._changed = threading.Event()
        self._stopping = threading.Event()
        self._free = threading.Event()
        """Clear while challenges hold the ladder (see hold)."""
        self._free.set()
        self._holds = 0
        self._holds_lock = threading.Lock()
        self._rerun = threading.Event()
        self._thread = threading.Thread(target=self._loop, name='ladder', daemon=True)

    def start(self) -> None:
        """Start playing."""
        self._changed.set()
        self._thread.start()

    def wake(self) -> None:
        """Say that a version changed: the ladder begins again with it."""
        self._changed.set()

    def rerun(self) -> None:
        """Play every game again: the games kept are dropped when the ladder next begins."""
        self._rerun.set()
        self._changed.set()

    def hold(self) -> None:
        """Let challenges go first: the ladder begins no game until each hold is
        released (its games waiting for a worker are cancelled, those under way end)."""
        with self._holds_lock:
            self._holds += 1
            self._free.clear()

    def release(self) -> None:
        """End a hold: once none is left, the ladder goes on where it was."""
        with self._holds_lock:
            self._holds -= 1
            if not self._holds:
                self._free.set()
                self._changed.set()

    def stop(self, timeout: float | None = None) -> None:
        """Stop the ladder once the games under way end (at most timeout seconds)."""
        self._stopping.set()
        self._changed.set()
        if self._thread.is_alive():
            self._thread.join(timeout)
        self.executor.shutdown(wait=False, cancel_futures=True)

    def _loop(self) -> None:
        """Play the ladder each time a version changes, until stopped."""
        while not self._stopping.is_set():
            self._changed.wait()
            while not self._free.wait(HOLD_POLL_SECONDS) and not self._stopping.is_set():
                pass
            if self._stopping.is_set():
                return
            try:
                self.play_once()
            except Exception as error:  # the machinery's: say so on the pages, try again later
                if self._stopping.is_set():  # its executor was shut down under it: no retry
                    return
                self.error = f'{type(error).__name__}: {error}'
                self.executor.shutdown(wait=False, cancel_futures=True)
                if self._stopping.wait(RETRY_SECONDS):
                    return
                self.executor = self.make_executor()
                self._changed.set()
            else:
                self.error = None

    def play_once(self) -> int:
        """Play the games of the ladder as it stands that its file does not hold, the
        newest versions' first, until they are done, a version changes or challenges
        hold the ladder; return how many were played."""
        self._changed.clear()  # a change from now on ends this round
        tournament, handed_in = tournament_of(self.settings, self.records)
        if len(tournament.specs()) < 2:
            return 0
        entered = read_entrants(tournament, self.settings, self.records)
        store, _ = tournament.open(entered)
        if self._rerun.is_set():
            self._rerun.clear()
            store.renumber({})
        try:
            games = newest_first(list(tournament.schedule(entered)), handed_in)
            job = functools.partial(played_gently, game_job(self.settings.rules, entered,
                                                            self.settings.variants))
            return run(games, job, self.executor, store, self.in_flight, self.played,
                       stop=lambda: self._changed.is_set() or self._stopping.is_set()
                       or not self._free.is_set())
        finally:
            store.close()


def open_games(settings: ArenaSettings, records: Records) -> Store:
    """Open the ladder's results file as the ladder stands, to check at start that it
    holds this course's tournament (raises StoreError if it holds another)."""
    tournament, _ = tournament_of(settings, records)
    return Store(settings.path(GAMES_FILE), tournament.settings(
        read_entrants(tournament, settings, records)))
