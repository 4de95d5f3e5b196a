"""Playing one scheduled game: the opening, each player in a jail of its own, the
referee and the clocks on the trusted side, and the game's record."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from games import game_files, referee
from games.base import Game
from games.stochastic import is_chance_node
from players.remote import program
from players.sandbox.allowed import allowed_packages
from players.sandbox.jail import Limits
from players.remote.jailed_player import LOAD_SECONDS, Setup, event, play_with_jails
from players.remote.player_code import PlayerCode, ProgramCode
from players.remote.remote_player import RemotePlayer, TimeControl
from .record import FIRST, SECOND, GameRecord
from .schedule import ScheduledGame
from .workers import heartbeat


@dataclass(frozen=True)
class Rules:
    """The rules every game of a tournament is played by."""

    openings: int = 0
    """Random plies played from the start before the players take over."""
    move_timeout: float | None = 10.0
    """Seconds a player may think about one move."""
    max_plies: int | None = None
    """Plies (openings included) after which the game is adjudicated a draw."""
    clock: tuple[float, float] | None = None
    """A game clock per player, (base seconds, increment seconds per move), or None."""
    sandbox: str = 'process'
    """The jail level players run in: 'process' or 'bwrap'."""
    memory_mb: int = Limits.memory_mb
    """Each player's address-space limit, in MiB."""
    allow: tuple[str, ...] = ()
    """The installed packages that file and module players may import, such as ('numpy',)."""
    support: tuple[str, ...] = ()
    """The names of the course's support files, such as ('utils.py',), for the header
    and the settings: each file, module and folder player has them beside it, in its
    code (see player_code.beside)."""

    def load_seconds(self) -> float:
        """Return the seconds a player's jail may take to start and load it: twice
        a move's time and a second, but at least 2 s for bubblewrap to start."""
        if self.move_timeout is None:
            return LOAD_SECONDS
        return max(2.0, 2 * self.move_timeout + 1)

    def timing(self) -> TimeControl:
        """Return the time control of each player."""
        base, increment = self.clock or (None, 0.0)
        return TimeControl(self.move_timeout, base, increment)


_games: dict[str, Game] = {}
"""The games a worker has made, by variant (the referee never changes a game)."""


def play_opening(game: Game, plies: int, seed: int | str,
                 dice: random.Random) -> tuple[list[Any], object]:
    """Return the history (events, [kind, plain JSON value] each: see event) and the
    state of plies random moves
    from the start, chosen by a random.Random(seed) among the moves that do not
    end the game; in a game of chance the dice roll with dice between them."""
    chooser, state = random.Random(seed), game.initial
    history: list[Any] = []
    for _ in range(plies):
        while is_chance_node(game, state):
            chance = game.roll(state, dice)
            history.append(event('chance', chance))
            state = game.outcome(state, chance)
        choices = [move for move in game.actions(state)
                   if not game.terminal_test(game.result(state, move))]
        if not choices:
            break
        move = chooser.choice(choices)
        history.append(event('move', move))
        state = game.result(state, move)
    return history, state


def play_scheduled_game(spec: ScheduledGame, rules: Rules,
                        players: Mapping[str, PlayerCode | ProgramCode],
                        make_game: Callable[[str], Game], load_player: Callable[[str], object],
                        broken: Mapping[str, str] | None = None,
                        sources: Sequence[dict[str, object]] = (),
                        people: Mapping[int, Callable[[Game, Any], Any]] | None = None,
                        on_move: Callable[[Any, Any, Any], None] | None = None) -> GameRecord:
    """Play the game spec describes and return its record.
    players gives the code of each player by name; make_game(variant) makes the
    game, here and in the jails, where load_player(spec) loads registry players.
    Each player runs in a jail started for this game alone and killed at its end
    (a program is told the result first). A player of broken ({name: why it cannot
    play}) gets no jail: the game ends before its first move (see unplayed).
    sources are the game files' sources as the trusted side read them
    (games.game_files.message): a worker on another machine makes the game of a
    file from them, as every jail does. people gives the seats a person plays (a
    function of this process, keeping its own clock) instead of a jailed player;
    on_move(state, move, new_state) is told of each move."""
    for source in sources:
        game_files.provide(source)
    if spec.variant not in _games:
        _games[spec.variant] = make_game(spec.variant)
    game = _games[spec.variant]
    if broken and (spec.first in broken or spec.second in broken):
        return unplayed(spec, referee.seats_of(game), broken)
    dice = random.Random(f'{spec.seed}:dice')  # both games of a pair see the same dice
    history, state = play_opening(game, rules.openings, spec.seed, dice)
    opening = list(history)
    setup = Setup(spec.variant, make_game, load_player, rules.sandbox,
                  Limits(memory_mb=rules.memory_mb), allowed_packages(rules.allow))
    seats = referee.seats_of(game)
    people = people or {}
    jailed: dict[int, RemotePlayer] = {}
    try:
        for seat, name in enumerate((spec.first, spec.second)):
            if seat not in people:
                jailed[seat] = program.stand_in(players[name], setup, spec.player_seed(seat),
                                                history, rules.timing(), game=game, seat=seat,
                                                reuse=True)
        for seat, player in jailed.items():
            try:
                player.wait_ready(rules.load_seconds())
            except referee.Forfeit as forfeit:
                played = referee.forfeited(seats, seat, forfeit.termination, forfeit.detail)
                return GameRecord.from_play(spec, opening, played, _ended(jailed, played))

        moved = sum(kind == 'move' for kind, _ in opening)
        limit = rules.max_plies
        if limit is None and game_files.is_file_spec(spec.variant):
            limit = game_files.MAX_PLIES  # a game of someone's own might never end
        max_plies = None if limit is None else max(0, limit - moved)
        def moved(*move: Any) -> None:
            heartbeat()
            if on_move is not None:
                on_move(*move)
        seated = [people[seat] if seat in people else jailed[seat] for seat in range(2)]
        played = play_with_jails(game, seated, history, on_move=moved, state=state,
                                 max_plies=max_plies, isolate=False, rng=dice)
        return GameRecord.from_play(spec, opening, played, _errors(jailed))
    finally:
        for player in jailed.values():
            player.close()


def unplayed(spec: ScheduledGame, seats: tuple[object, ...],
             broken: Mapping[str, str]) -> GameRecord:
    """Return the record of a game that a player of broken ({name: why it cannot
    play}) cannot play, no move played: it forfeits, the termination 'cannot load'
    and its reason the detail. When neither player can play, the game is a draw
    charged to the first seat, whose reason comes first in the detail: a record
    names one player who forfeits, and the pair's other game, the seats swapped,
    charges the other."""
    first, second = spec.first, spec.second
    if first in broken and second in broken:
        played = referee.forfeited(seats, FIRST, referee.CANNOT_LOAD,
                                   f'{broken[first]}; {second} cannot play either: '
                                   f'{broken[second]}')
        played.utilities = (0, 0)
    else:
        seat = FIRST if first in broken else SECOND
        played = referee.forfeited(seats, seat, referee.CANNOT_LOAD, broken[(first, second)[seat]])
    return GameRecord.from_play(spec, [], played)


def _ended(jailed: Mapping[int, RemotePlayer], played: referee.PlayedGame) -> list[str | None]:
    """Tell the jailed players (by seat) how their game ended; return what each
    seat's wrote, for the record (see RemotePlayer.errors)."""
    for player in jailed.values():
        player.end(played)
    return _errors(jailed)


def _errors(jailed: Mapping[int, RemotePlayer]) -> list[str | None]:
    """Return what each seat's jailed player wrote (None for a person's seat)."""
    return [jailed[seat].errors() if seat in jailed else None for seat in range(2)]
