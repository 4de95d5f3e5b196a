"""Checking a student's player in real games, played by the trusted referee against
the jailed player: legal moves on every game, never a loss to random at
tic-tac-toe, and a short gauntlet against reference players. Each move has a time
limit, as in a tournament."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

import variants
from games import Game, StochasticGame, referee
from players.arena import program
from players.arena.jailed_player import JailedPlayer, Setup, TimeControl, play_with_jails
from players.arena.player_code import PlayerCode, ProgramCode
from players.arena.jail import Limits
from players.arena.match import play_opening

from ..registry import load_player
from .session import Session

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


class BudgetSpent(Exception):
    """The player checks of a file have used up their time: its message is the check's."""


@dataclass
class PlayerTrial:
    """The student's player on trial: how to start it (its session's jail, or its
    program), the games it plays by variant name, its time for each move and for
    all its games, and what its games have spent and scored so far."""

    session: Session | None
    games: dict
    move_seconds: float
    budget: float = float('inf')
    """Seconds all the games of the player checks may take; once they are spent,
    play() refuses to start another."""
    spent: float = 0.0
    """Seconds the games played so far took."""
    leaderboard: dict = field(default_factory=dict)
    """What the gauntlet scored, in percent, once played."""
    program_code: ProgramCode | None = None
    """The student's program, started for each game, when the student gave one."""
    level: str = 'process'
    """The jail level of the program."""
    limits: Limits = field(default_factory=Limits)


def play(trial: PlayerTrial, name: str, opponent: str, seat: int, plies: int,
         seed: str) -> referee.GameRecord:
    """Play one game of variant name with the student in seat (0 or 1) against a
    reference player (a registry spec), from plies random opening moves; return its record.
    Raise BudgetSpent if the trial's budget is spent."""
    if trial.spent >= trial.budget:
        raise BudgetSpent(f'stopped: the player checks had {trial.budget:g} s in all, spent '
                          f'by the games played before ({trial.spent:.1f} s; a slow player? '
                          'see --player-budget)')
    started = time.monotonic()
    try:
        return _play(trial, name, opponent, seat, plies, seed)
    finally:
        trial.spent += time.monotonic() - started


def _play(trial: PlayerTrial, name: str, opponent: str, seat: int, plies: int, seed: str):
    """Play one game of the player checks (see play)."""
    game = trial.games[name]
    random.seed(seed)
    dice = random.Random(f'{seed}:dice')
    history, state = play_opening(game, plies, seed, dice)
    timing = TimeControl(move_seconds=trial.move_seconds)
    student = _student(trial, name, game, seat, f'{seed}:student', history, timing)
    reference = load_player(opponent)
    players = [student, reference] if seat == 0 else [reference, student]
    try:
        record = play_with_jails(game, players, history, state=state, max_plies=MAX_PLIES,
                                 isolate=False, rng=dice)
    finally:
        if trial.program_code is not None:  # a session's jail serves every check
            student.close()
    if trial.session and record.offender == seat and record.detail.startswith('ReferenceUsed'):
        trial.session.note({'reference': record.detail.split(': ', 1)[-1]})
    if record.offender == seat and record.termination == referee.TIMEOUT:
        raise PlayerTimeout(_fault(name, game, record, seat))
    return record


def _student(trial: PlayerTrial, name: str, game: Game, seat: int, seed: str, history: list,
             timing: TimeControl) -> JailedPlayer:
    """Return the stand-in for the student's player in seat: its program, started
    for this game, or the player function of the file loaded in its session's jail."""
    if trial.program_code is not None:
        setup = Setup(name, variants.make, load_player, trial.level, trial.limits)
        return program.ProgramPlayer(trial.program_code, setup, seed, history, timing,
                                     game=game, seat=seat)
    code = PlayerCode(trial.session.filename, None, trial.session.filename, 'player')
    return JailedPlayer(code, Setup(name, variants.make, load_player), seed, history, timing,
                        jail=trial.session.ready_jail())


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
    """Play each game against random from random openings; any forfeit fails."""
    for name, game in trial.games.items():
        for number in range(LEGAL_GAMES):
            seat = number % 2
            record = play(trial, name, 'random', seat, 2, f'legal {name} {number}')
            if record.offender == seat:
                return False, _forfeit_message(name, game, record, seat)
    return True, (f'legal moves in {LEGAL_GAMES * len(trial.games)} games against random on '
                  f'{", ".join(trial.games)}')


def check_safe(trial: PlayerTrial, name: str) -> tuple[bool, str]:
    """Play SAFE_GAMES games in each seat at variant name against random; any loss fails."""
    game = trial.games[name]
    seats = referee.seats_of(game)
    losses = {seat: 0 for seat in seats}
    for number in range(2 * SAFE_GAMES):
        seat = number % 2
        record = play(trial, name, 'random', seat, 0, f'safe {number}')
        if record.offender == seat:
            return False, _forfeit_message(name, game, record, seat)
        losses[seats[seat]] += record.score(seat) == 0
    lost = sum(losses.values())
    if lost:
        detail = ', '.join(f'as {seat}: {count}' for seat, count in losses.items())
        return False, f'{name}: lost {lost} of {2 * SAFE_GAMES} games to random ({detail})'
    return True, f'{name}: lost none of {2 * SAFE_GAMES} games to random'


def check_gauntlet(trial: PlayerTrial) -> tuple[bool, str]:
    """Play a pair of games (one in each seat, from the same random opening) against
    each reference player on each game without chance; pass with at least
    PASS_SHARE of the points."""
    fixed = {name: game for name, game in trial.games.items()
             if not isinstance(game, StochasticGame)}
    points = {opponent: 0.0 for opponent in GAUNTLET}
    for name, game in fixed.items():
        for opponent in GAUNTLET:
            for seat in (0, 1):
                record = play(trial, name, opponent, seat, 1, f'{name} {opponent}')
                if record.offender == seat:
                    return False, _forfeit_message(name, game, record, seat)
                points[opponent] += record.score(seat)
    games_each = 2 * len(fixed)
    total = sum(points.values())
    share = total / (games_each * len(GAUNTLET)) if fixed else 0.0
    detail = ', '.join(f'{points[opponent]:g}/{games_each} against {opponent}'
                       for opponent in GAUNTLET)
    trial.leaderboard['gauntlet %'] = round(100 * share, 1)
    verdict = f'scored {total:g} of {games_each * len(GAUNTLET)} points ({share:.0%}: {detail})'
    return share >= PASS_SHARE, f'{verdict}; the pass mark is {PASS_SHARE:.0%}'
