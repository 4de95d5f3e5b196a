"""Checking a student's player in real games: legal moves on every game, never a
loss to random at tic-tac-toe, and a short gauntlet against reference players."""

from __future__ import annotations

import copy
import random

from games import Game, Player, referee
from games.stochastic import is_chance_node

from ..registry import PLAYER

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


def opening(game: Game, rng: random.Random, plies: int):
    """The state after up to plies random moves from the start (the dice rolled
    with rng where chance acts)."""
    state = game.initial
    for _ in range(plies):
        if is_chance_node(game, state):
            state = game.outcome(state, game.roll(state, rng))
        if game.terminal_test(state):
            break
        state = game.result(state, rng.choice(list(game.actions(state))))
    return state


def play(game: Game, student: Player, opponent: Player, seat: int, state, seed: str):
    """Play one game with the student in seat (0 or 1) from state; return its record.
    The global random generator is seeded so that random players repeat."""
    random.seed(seed)
    players = [student, opponent] if seat == 0 else [opponent, student]
    return referee.play(game, players, state=state, max_plies=MAX_PLIES,
                        rng=random.Random(seed))


def _fault(name: str, game: Game, record, seat: int) -> str:
    """The message for a game the student forfeited."""
    plies = record.plies
    return (f'{name}: playing {referee.seats_of(game)[seat]}, {record.termination} after '
            f'{plies} move{"s" * (plies != 1)}: {record.detail}')


def unimplemented(student: Player, games: dict[str, Game]) -> bool:
    """Does the player raise NotImplementedError at the start of the first game?"""
    game = next(iter(games.values()))
    try:
        student(copy.deepcopy(game), game.initial)
    except NotImplementedError:
        return True
    except Exception:  # other faults show in the games, with their details
        pass
    return False


def check_legal(student: Player, games: dict[str, Game]) -> tuple[bool, str]:
    """Play each game against random from random openings; any forfeit fails."""
    if unimplemented(student, games):
        return False, NOT_IMPLEMENTED
    for name, game in games.items():
        rng = random.Random(name)
        for number in range(LEGAL_GAMES):
            seat = number % 2
            record = play(game, student, PLAYER['random'], seat, opening(game, rng, 2),
                          f'legal {name} {number}')
            if record.offender == seat:
                return False, _fault(name, game, record, seat)
    return True, (f'legal moves in {LEGAL_GAMES * len(games)} games against random on '
                  f'{", ".join(games)}')


def check_safe(student: Player, name: str, game: Game) -> tuple[bool, str]:
    """Play SAFE_GAMES games in each seat against random; any loss fails."""
    if unimplemented(student, {name: game}):
        return False, NOT_IMPLEMENTED
    seats = referee.seats_of(game)
    losses = {seat: 0 for seat in seats}
    for number in range(2 * SAFE_GAMES):
        seat = number % 2
        record = play(game, student, PLAYER['random'], seat, game.initial, f'safe {number}')
        if record.offender == seat:
            return False, _fault(name, game, record, seat)
        losses[seats[seat]] += record.score(seat) == 0
    lost = sum(losses.values())
    if lost:
        detail = ', '.join(f'as {seat}: {count}' for seat, count in losses.items())
        return False, f'{name}: lost {lost} of {2 * SAFE_GAMES} games to random ({detail})'
    return True, f'{name}: lost none of {2 * SAFE_GAMES} games to random'


def check_gauntlet(student: Player, games: dict[str, Game]) -> tuple[bool, str]:
    """Play a pair of games (one in each seat, from the same random opening) against
    each reference player on each game; pass with at least PASS_SHARE of the points."""
    if unimplemented(student, games):
        return False, NOT_IMPLEMENTED
    points = {opponent: 0.0 for opponent in GAUNTLET}
    for name, game in games.items():
        for opponent in GAUNTLET:
            start = opening(game, random.Random(f'{name} {opponent}'), 1)
            for seat in (0, 1):
                record = play(game, student, PLAYER[opponent], seat, start,
                              f'gauntlet {name} {opponent} {seat}')
                if record.offender == seat:
                    return False, _fault(name, game, record, seat)
                points[opponent] += record.score(seat)
    games_each = 2 * len(games)
    total = sum(points.values())
    share = total / (games_each * len(GAUNTLET))
    detail = ', '.join(f'{points[opponent]:g}/{games_each} against {opponent}'
                       for opponent in GAUNTLET)
    verdict = f'scored {total:g} of {games_each * len(GAUNTLET)} points ({share:.0%}: {detail})'
    return share >= PASS_SHARE, f'{verdict}; the pass mark is {PASS_SHARE:.0%}'
