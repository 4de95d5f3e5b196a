"""Checking a student's player in real games, played by the trusted referee against
the jailed player: legal moves on every game, never a loss to random at
tic-tac-toe, and a short gauntlet against reference players. Each move has a time
limit, as in a tournament; the games of all the checks have a budget, which a slow
player's checks meet by playing fewer rounds of games, never by failing."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Iterator

import variants
from games import Game, StochasticGame, referee
from players.remote import program
from players.remote.jailed_player import JailedPlayer, Setup, play_with_jails
from players.remote.remote_player import RemotePlayer, TimeControl
from players.remote.player_code import PlayerCode, ProgramCode
from players.sandbox.jail import Limits
from players.tournaments.match import play_opening

from ..registry import load_player
from .session import Session, faults

GAUNTLET = ('random', 'ab2', 'ab3')
"""The reference players of the gauntlet, by registry name."""
PASS_SHARE = 0.6
"""The share of the gauntlet's points a player needs to pass."""
LEGAL_GAMES = 2
"""Games against random per game in the legality check, one in each seat."""
SAFE_GAMES = 10
"""Games against random in each seat at tic-tac-toe, none of which may be lost."""
MAX_PLIES = 500
"""Games longer than this are adjudicated draws."""
NOT_IMPLEMENTED = 'not implemented (player raises NotImplementedError)'


class PlayerTimeout(Exception):
    """The student's player ran out of time for a move: its message is the check's."""


@dataclass
class PlayerTrial:
    """The student's player on trial: how to start it (its session's jail, or its
    program), the games it plays by variant name, its time for each move and for
    all its games, and what its games have spent and scored so far."""

    session: Session | None
    games: dict
    move_seconds: float
    budget: float = float('inf')
    """Seconds the games of the player checks should take in all: each check has an
    even share of what is left of it when it starts (see Sample)."""
    checks: int = 1
    """The player checks still to play, among which what is left of the budget is shared."""
    spent: float = 0.0
    """Seconds the games played so far took."""
    leaderboard: dict = field(default_factory=dict)
    """What the gauntlet scored, in percent, once played."""
    program_code: ProgramCode | None = None
    """The student's program, started for each game, when the student gave one."""
    level: str = 'process'
    """The jail level of the program."""
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class Fixture:
    """One game of a player check: the student in seat (0 or 1) against a reference
    player (a registry spec) at a variant, from plies random opening moves drawn
    from seed."""

    variant: str
    opponent: str
    seat: int
    plies: int
    seed: str


class Sample:
    """The games a player check judges the student on: its rounds (each a list of
    fixtures, the smallest set of games the check can judge on), played one round at
    a time while the check's share of the trial's budget lasts. The first round is
    always played, so a player that keeps to its time for each move is judged on
    fewer games when it is slow, never failed; iterating yields (fixture, record)."""

    def __init__(self, trial: PlayerTrial, rounds: list[list[Fixture]]):
        self.trial = trial
        self.rounds = rounds
        self.played = 0
        """The rounds played to their end."""
        self.games = 0
        """The games played."""

    def __iter__(self) -> Iterator[tuple[Fixture, referee.PlayedGame]]:
        """Play the rounds while the share lasts, yielding each game's fixture and record."""
        trial = self.trial
        share = (trial.budget - trial.spent) / max(1, trial.checks)
        trial.checks -= 1
        started = trial.spent
        for fixtures in self.rounds:
            if self.played and trial.spent - started >= share:
                return
            for fixture in fixtures:
                record = play(trial, fixture)
                self.games += 1
                yield fixture, record
            self.played += 1

    def note(self) -> str:
        """'' when every round was played, else what the check was judged on and why."""
        if self.played == len(self.rounds):
            return ''
        planned = sum(map(len, self.rounds))
        return (f'; judged on {self.games} of {planned} games ({self.played} of '
                f"{len(self.rounds)} rounds), those that fit in the player checks' "
                f'{self.trial.budget:g} s (see --player-budget)')


def play(trial: PlayerTrial, fixture: Fixture) -> referee.PlayedGame:
    """Play one game of the player checks and return its record; count its time as spent."""
    started = time.monotonic()
    try:
        return _play(trial, fixture)
    finally:
        trial.spent += time.monotonic() - started


def _play(trial: PlayerTrial, fixture: Fixture) -> referee.PlayedGame:
    """Play one game of the player checks (see play)."""
    name, opponent, seat, plies, seed = (fixture.variant, fixture.opponent, fixture.seat,
                                         fixture.plies, fixture.seed)
    game = trial.games[name]
    random.seed(seed)
    dice = random.Random(f'{seed}:dice')
    history, state = play_opening(game, plies, seed, dice)
    timing = TimeControl(move_seconds=trial.move_seconds)
    student = _student(trial, name, game, seat, f'{seed}:student', history, timing)
    reference = load_player(opponent)
    players = [student, reference] if seat == 0 else [reference, student]
    try:
        record = _ready(student, game, seat) or play_with_jails(
            game, players, history, state=state, max_plies=MAX_PLIES, isolate=False, rng=dice)
    finally:
        if trial.program_code is not None:  # a session's jail serves every check
            student.close()
    if trial.session and record.offender == seat and record.detail.startswith('ReferenceUsed'):
        trial.session.note(record.detail.split(': ', 1)[-1])
    if record.offender == seat and record.termination == referee.TIMEOUT:
        raise PlayerTimeout(_fault(name, game, record, seat))
    return record


def _student(trial: PlayerTrial, name: str, game: Game, seat: int, seed: str, history: list,
             timing: TimeControl) -> RemotePlayer:
    """Return the stand-in for the student's player in seat: its program, started
    for this game, or the player function of the file loaded in its session's jail.
    Raise StudentFault if the player's jail is gone before it is told of the game."""
    if trial.program_code is not None:
        setup = Setup(name, variants.make, load_player, trial.level, trial.limits)
        with faults():  # a program that ended at once
            return program.ProgramPlayer(trial.program_code, setup, seed, history, timing,
                                         game=game, seat=seat)
    session = trial.session
    if session is None:
        raise ValueError('a player on trial has a session or a program')
    code = PlayerCode(session.filename, None, session.filename, 'player')
    jail = session.ready_jail()
    with faults(session):  # a jail that ended after its last answer
        return JailedPlayer(code, Setup(name, variants.make, load_player), seed, history,
                            timing, jail=jail)


def _ready(student: RemotePlayer, game: Game, seat: int) -> referee.PlayedGame | None:
    """Wait for the student's jail to answer the game's start, before the game, as a
    tournament does: a game can end before the student's first move, and a session's
    jail serves the next game, so an answer left unread would meet the next request.
    Return None when it is ready, else the record of the game it forfeits, its jail
    closed: the next game starts another, whatever this one sends late."""
    try:
        student.wait_ready()
    except referee.Forfeit as forfeit:
        student.close()
        return referee.forfeited(referee.seats_of(game), seat, forfeit.termination,
                                 forfeit.detail)
    return None


def _fault(name: str, game: Game, record, seat: int) -> str:
    """The message for a game the student forfeited."""
    plies = record.plies
    return (f'{name}: playing {referee.seats_of(game)[seat]}, {record.termination} after '
            f'{plies} move{"s" * (plies != 1)}: {record.detail}')


def _forfeit_message(name: str, game: Game, record, seat: int) -> str:
    """A forfeit's message, or NOT_IMPLEMENTED for a player that is only a stub."""
    if record.detail.startswith('NotImplementedError'):
        return NOT_IMPLEMENTED
    return _fault(name, game, record, seat)


def check_legal(trial: PlayerTrial) -> tuple[bool, str]:
    """Play each game against random from random openings, LEGAL_GAMES rounds of one
    game on each; any forfeit fails."""
    sample = Sample(trial, [[Fixture(name, 'random', number % 2, 2, f'legal {name} {number}')
                             for name in trial.games] for number in range(LEGAL_GAMES)])
    for fixture, record in sample:
        if record.offender == fixture.seat:
            return False, _forfeit_message(fixture.variant, trial.games[fixture.variant],
                                           record, fixture.seat)
    return True, (f'legal moves in {sample.games} games against random on '
                  f'{", ".join(trial.games)}{sample.note()}')


def check_safe(trial: PlayerTrial, name: str) -> tuple[bool, str]:
    """Play SAFE_GAMES pairs of games (one in each seat) at variant name against
    random; any loss fails."""
    game = trial.games[name]
    seats = referee.seats_of(game)
    losses = {seat: 0 for seat in seats}
    sample = Sample(trial, [[Fixture(name, 'random', seat, 0, f'safe {2 * pair + seat}')
                             for seat in (0, 1)] for pair in range(SAFE_GAMES)])
    for fixture, record in sample:
        if record.offender == fixture.seat:
            return False, _forfeit_message(name, game, record, fixture.seat)
        losses[seats[fixture.seat]] += record.score(fixture.seat) == 0
    lost = sum(losses.values())
    if lost:
        detail = ', '.join(f'as {seat}: {count}' for seat, count in losses.items())
        return False, (f'{name}: lost {lost} of {sample.games} games to random ({detail})'
                       f'{sample.note()}')
    return True, f'{name}: lost none of {sample.games} games to random{sample.note()}'


def check_gauntlet(trial: PlayerTrial) -> tuple[bool, str]:
    """Play a pair of games (one in each seat, from the same random opening) against
    each reference player, a round on each game without chance; pass with at least
    PASS_SHARE of the points."""
    fixed = [name for name, game in trial.games.items()
             if not isinstance(game, StochasticGame)]
    sample = Sample(trial, [[Fixture(name, opponent, seat, 1, f'{name} {opponent}')
                             for opponent in GAUNTLET for seat in (0, 1)] for name in fixed])
    points = {opponent: 0.0 for opponent in GAUNTLET}
    for fixture, record in sample:
        if record.offender == fixture.seat:
            return False, _forfeit_message(fixture.variant, trial.games[fixture.variant],
                                           record, fixture.seat)
        points[fixture.opponent] += record.score(fixture.seat)
    games_each = 2 * sample.played
    total = sum(points.values())
    share = total / (games_each * len(GAUNTLET)) if fixed else 0.0
    detail = ', '.join(f'{points[opponent]:g}/{games_each} against {opponent}'
                       for opponent in GAUNTLET)
    trial.leaderboard['gauntlet %'] = round(100 * share, 1)
    verdict = f'scored {total:g} of {games_each * len(GAUNTLET)} points ({share:.0%}: {detail})'
    return share >= PASS_SHARE, f'{verdict}; the pass mark is {PASS_SHARE:.0%}{sample.note()}'
