"""Challenges: games a student asks for from their page against an opponent of their
choosing (a course player, or a classmate's version where the course allows it), on
one of the ladder's variants, played at once, ahead of the ladder (then beside it),
on its workers and in the same jails. Each challenge keeps its games in a results
file of its own (challenges/ID.sqlite in the arena's folder), so that a server killed
in the middle of one plays the rest at its next start. They count on the leaderboard
only where the course says so (ChallengeRules.count)."""

from __future__ import annotations

import functools
import os
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator, Mapping

from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from players.tournaments.runner import run
from players.tournaments.store import Store, StoreError
from players.tournaments.tournament import Tournament, game_job
from .ladder_loop import Ladder, played_gently, read_entrants
from .records import DONE, FAILED, PLAYING, WAITING, Challenge, Records
from .settings import ArenaSettings

FOLDER = 'challenges'
"""The challenges' results files, in the arena's folder."""


@dataclass(frozen=True)
class Opponent:
    """A player a student may challenge."""

    name: str
    """Its name in the games: a course player's, or a classmate's id."""
    spec: str
    """What it plays: a course player's spec, or the path of the classmate's version."""
    version: int | None = None
    """The number of the classmate's version (None for a course player)."""


def opponents(settings: ArenaSettings, records: Records, student: str) -> list[Opponent]:
    """Return the players a student may challenge: the course's, then (where the
    course allows it) each classmate's version on the ladder."""
    found = [Opponent(name, spec) for name, spec in settings.house.items()]
    if settings.challenges.classmates:
        found += [Opponent(other, version.path, version.number)
                  for other, version in sorted(records.playing().items()) if other != student]
    return found


def challenge_file(settings: ArenaSettings, id: int) -> str:
    """Return the path of a challenge's results file."""
    return settings.path(FOLDER, f'{id}.sqlite')


def challenge_tournament(challenge: Challenge, settings: ArenaSettings,
                         records: Records) -> Tournament:
    """Return the tournament a challenge plays: the student's version against the
    opponent, the pairs asked for on its variant, by the ladder's rules."""
    version = records.version(challenge.student, challenge.version)
    mine = version.path if version is not None else ''  # gone: it cannot play, and says so
    return Tournament({challenge.student: mine, challenge.opponent: challenge.spec},
                      (challenge.variant,), settings.rules, challenge.pairs,
                      settings.seed + challenge.id, db=challenge_file(settings, challenge.id))


def challenge_games(settings: ArenaSettings,
                    id: int) -> tuple[list[GameRecord], RunSettings | None]:
    """Return the games a challenge has played so far, in the order they were
    scheduled, and the settings of its results file (None before it has one)."""
    path = challenge_file(settings, id)
    if not os.path.isfile(path):
        return [], None
    try:
        with Store.read(path) as store:
            return sorted(store.records(), key=lambda record: record.index), store.settings
    except StoreError:
        return [], None


def counted_games(settings: ArenaSettings, records: Records,
                  on_ladder: Mapping[str, int]) -> Iterator[GameRecord]:
    """Generate the challenges' games that count on the leaderboard (none unless the
    course says so): those whose two versions are the ones whose games the ladder
    holds (on_ladder: each student's version's number)."""
    if not settings.challenges.count:
        return
    for challenge in records.challenges():
        if on_ladder.get(challenge.student) == challenge.version and (
                challenge.opponent_version is None
                and challenge.opponent in settings.house
                or on_ladder.get(challenge.opponent) == challenge.opponent_version):
            yield from challenge_games(settings, challenge.id)[0]


class Challenges:
    """The challenges asked for, played one at a time in a thread of their own, each
    holding the ladder until its first game ends; played(challenge) is called after
    each game."""

    def __init__(self, settings: ArenaSettings, records: Records, ladder: Ladder,
                 played: Callable[[Challenge], None] = lambda challenge: None):
        self.settings = settings
        self.records = records
        self.ladder = ladder
        self.played = played
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._loop, name='challenges', daemon=True)

    def opponents(self, student: str) -> list[Opponent]:
        """Return the players a student may challenge (see opponents)."""
        return opponents(self.settings, self.records, student)

    def ask(self, student: str, opponent: Opponent, variant: str, pairs: int) -> Challenge:
        """Record a student's challenge and put it in line; return it. Raise
        ValueError saying why it cannot be played: the course has none, the student
        has no version that plays, the variant is not the ladder's, too many pairs,
        or too many challenges this hour (records.TooManyChallenges)."""
        rules = self.settings.challenges
        if not rules.an_hour:
            raise ValueError('this course has no challenges')
        mine = self.records.playing().get(student)
        if mine is None:
            raise ValueError('none of your versions plays yet: hand in one that does')
        if variant not in self.settings.variants:
            raise ValueError('choose a variant of the ladder from the list')
        if not 1 <= pairs <= rules.pairs:
            raise ValueError(f'from 1 to {rules.pairs} game pairs')
        challenge = self.records.add_challenge(Challenge(
            0, student, 0, mine.number, opponent.name, opponent.spec, opponent.version, variant,
            pairs, time.time(), WAITING, ''), rules.an_hour)
        self._queue.put(challenge.id)
        return challenge

    def start(self) -> None:
        """Put back in line the challenges a stopped server left unplayed, and start."""
        for status in (PLAYING, WAITING):
            for challenge in reversed(self.records.challenges(status=status)):
                self._queue.put(challenge.id)
        self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """Stop once the games under way end (at most timeout seconds)."""
        self._stopping.set()
        self._queue.put(None)
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _loop(self) -> None:
        """Play each challenge in line, until stopped."""
        while not self._stopping.is_set():
            id = self._queue.get()
            challenge = None if id is None else self.records.challenge(id)
            if challenge is not None and challenge.status in (WAITING, PLAYING):
                self.play(challenge)

    def play(self, challenge: Challenge) -> None:
        """Play the games of a challenge its file does not hold, the ladder held until
        the first of them ends (then they share the workers, so that challenges
        cannot starve the ladder); a failure of the machinery fails the challenge,
        saying why."""
        self.records.set_challenge_status(challenge.id, PLAYING)
        self.ladder.hold()
        held = [True]

        def progress() -> None:
            if held[0]:
                held[0] = False
                self.ladder.release()
            self.played(challenge)
        try:
            os.makedirs(self.settings.path(FOLDER), mode=0o700, exist_ok=True)
            tournament = challenge_tournament(challenge, self.settings, self.records)
            entered = read_entrants(tournament, self.settings, self.records)
            store, _ = tournament.open(entered)
            try:
                job = functools.partial(played_gently, game_job(self.settings.rules, entered,
                                                                self.settings.variants))
                run(list(tournament.schedule(entered)), job, self.ladder.executor, store,
                    self.ladder.in_flight, progress, stop=self._stopping.is_set)
                complete = store.count() == tournament.count(entered)
            finally:
                store.close()
        except Exception as error:  # the machinery's: this challenge fails, the next plays
            self.records.set_challenge_status(challenge.id, FAILED,
                                              f'{type(error).__name__}: {error}')
        else:
            if complete:
                self.records.set_challenge_status(challenge.id, DONE)
        finally:
            if held[0]:
                self.ladder.release()
        self.played(challenge)
