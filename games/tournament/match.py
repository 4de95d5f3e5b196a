"""Playing one scheduled game in a worker: the opening, the players' time limit, and its record."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from .. import referee
from ..base import Game, Player, PlayerQuit
from .schedule import GameSpec
from .workers import WorkerLost, heartbeat

FIRST, SECOND = 0, 1


@dataclass(frozen=True)
class Rules:
    """The rules every game of a tournament is played by."""

    openings: int = 0
    """Random plies played from the start before the players take over."""
    move_timeout: float | None = 10.0
    """Seconds a player may think about one move."""
    max_plies: int | None = None
    """Plies (openings included) after which the game is adjudicated a draw."""


_games: dict = {}
"""The games a worker has made, by variant (the referee never changes a game)."""


def play_opening(game: Game, plies: int, seed) -> tuple[list, object]:
    """Return the moves and the state of plies random moves from the start, chosen
    by a random.Random(seed) among the moves that do not end the game."""
    chooser, state, moves = random.Random(seed), game.initial, []
    for _ in range(plies):
        choices = [move for move in game.actions(state)
                   if not game.terminal_test(game.result(state, move))]
        if not choices:
            break
        move = chooser.choice(choices)
        moves.append(move)
        state = game.result(state, move)
    return moves, state


def play_match(spec: GameSpec, rules: Rules, make_game: Callable[[str], Game],
               load_player: Callable[[str], Player]) -> dict:
    """Play the game spec describes and return its record as a dict (see record()).
    make_game(variant) and load_player(spec) build the game and the players."""
    if spec.variant not in _games:
        _games[spec.variant] = make_game(spec.variant)
    game = _games[spec.variant]
    opening, state = play_opening(game, rules.openings, spec.seed)
    moves_so_far = list(opening)
    seats = referee.seats_of(game)
    players = []
    for seat, name in enumerate((spec.first, spec.second)):
        heartbeat((seat, len(opening), moves_so_far))
        try:  # loaded afresh for each game: what a file keeps in its globals lasts one game
            players.append(load_player(name))
        except Exception as error:  # a player file that fails to load in this worker
            failed = referee.forfeited(seats, seat, referee.ERROR, f'cannot load player: {error}')
            return record(spec, opening, failed)

    def before_move(position):
        heartbeat((seats.index(game.to_move(position)), len(opening), moves_so_far))

    def after_move(position, move, new_state):
        moves_so_far.append(move)

    random.seed(spec.game_seed)
    max_plies = None if rules.max_plies is None else max(0, rules.max_plies - len(opening))
    call = _guarded(referee.time_limited(rules.move_timeout, before_move))
    played = referee.play(game, players, state=state, max_plies=max_plies,
                          on_move=after_move, call=call)
    return record(spec, opening, played)


def _guarded(call: Callable) -> Callable:
    """Wrap a call so that a player raising PlayerQuit or KeyboardInterrupt, which
    the referee lets through for people at the keyboard, forfeits instead."""
    def guarded(player, view, position):
        try:
            return call(player, view, position)
        except (KeyboardInterrupt, PlayerQuit) as error:
            raise RuntimeError(f'{type(error).__name__} raised by the player') from None
    return guarded


def record(spec: GameSpec, opening: list, played: referee.GameRecord) -> dict:
    """Return a game's record as a plain dict of JSON-friendly values."""
    time_moves = [[0.0, 0], [0.0, 0]]
    for seat, seconds in zip(played.movers, played.times):
        time_moves[seat][0] += seconds
        time_moves[seat][1] += 1
    names = (spec.first, spec.second)
    return {
        'index': spec.index, 'variant': spec.variant, 'first': spec.first, 'second': spec.second,
        'pair': spec.pair, 'leg': spec.leg, 'seed': spec.seed,
        'score': played.score(FIRST), 'termination': played.termination, 'detail': played.detail,
        'forfeit': None if played.offender is None else names[played.offender],
        'moves': _plain(list(opening) + played.moves), 'opening': len(opening),
        'plies': len(opening) + played.plies,
        'time_first': time_moves[FIRST][0], 'time_second': time_moves[SECOND][0],
        'moves_first': time_moves[FIRST][1], 'moves_second': time_moves[SECOND][1],
        'nodes_first': played.nodes[FIRST], 'nodes_second': played.nodes[SECOND],
    }


def lost_record(spec: GameSpec, error: WorkerLost) -> dict:
    """Return the record of a game whose worker was killed or died: the player
    whose move it was forfeits, on time if it was killed for going silent."""
    seat, opening, moves = error.payload if error.payload else (FIRST, 0, [])
    termination = referee.TIMEOUT if error.timed_out else referee.ERROR
    played = referee.forfeited(('first', 'second'), seat, termination, str(error))
    played.moves = list(moves[opening:])
    return record(spec, moves[:opening], played)


def _plain(moves: list) -> list:
    """Return moves as JSON-friendly values: tuples become lists."""
    return [list(_plain(move)) if isinstance(move, (tuple, list)) else move for move in moves]
