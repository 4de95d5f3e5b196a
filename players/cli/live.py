"""One game played at the terminal, each move shown as it is made: people at the
keyboard against jailed players, or jailed players against each other."""

from __future__ import annotations

from typing import cast

import games
import players
from games import referee
from games.stochastic import StochasticGame
from players.sandbox import jail
from players.remote import program
from players.sandbox.allowed import allowed_packages
from players.reports.player_text import for_terminal
from players.reports.text_report import wrapped
from .inputs import make_game, new_setup, player_code, sandbox_level, usage_errors
from players.remote.player_code import FolderLimits, Support, beside
from players.remote.jailed_player import play_with_jails


def play_shown(variant: str, first: str, second: str, sandbox: str = 'auto',
               max_plies: int | None = None, allow: tuple[str, ...] = (),
               limits: FolderLimits = FolderLimits(), support: Support = Support()) -> int:
    """Play one game of variant between the player specs first and second, jailed
    at the sandbox level unless they need a person (a file or folder player may
    import the installed packages of allow and those the support files import,
    which it has beside it; a folder is read within limits), showing each move;
    announce the result and return the exit status (0, also for a game a person
    abandons)."""
    game = make_game(variant)
    seats = referee.seats_of(game)
    specs = (first, second)
    codes = [None if players.registry.is_interactive(spec) else
             beside(player_code(spec, limits), support) for spec in specs]
    with usage_errors():
        allowed = allowed_packages(support.allow(allow))
    setup = new_setup(variant, level=sandbox_level(sandbox), allowed=allowed)
    names = {seat: for_terminal(spec) for seat, spec in zip(seats, specs)}
    say(f'{game}: {names[seats[0]]} plays {seats[0]}, {names[seats[1]]} plays {seats[1]}')
    jail.prepare_jailer()
    history: list = []
    last_move: list = [None]

    def at_keyboard(spec: str):
        """The interactive player of spec; a person is shown the last move marked."""
        player = players.load_player(spec)
        if player is players.human_player:
            return lambda game, state: player(game, state, last_move[0])
        return player

    chosen = [at_keyboard(spec) if code is None else
              program.stand_in(code, setup, str(seat), history, game=game, seat=seat)
              for seat, (spec, code) in enumerate(zip(specs, codes))]

    def show(state, move, new_state):
        last_move[0] = move
        mover = game.to_move(state)
        typed, described = game.typed_move(move), game.describe_move(move)
        say(f'{names[mover]} ({mover}): {typed}'
            + ('' if described == typed else f' ({described})'))

    def show_roll(state, chance, new_state):
        mover = game.to_move(state)
        rolled = cast(StochasticGame, game).describe_chance(chance)  # only games of chance roll
        say(f'{names[mover]} ({mover}) {rolled}')

    jailed = [player for player, code in zip(chosen, codes) if code is not None]
    try:
        record = play_with_jails(game, chosen, history, on_move=show, on_chance=show_roll,
                                 max_plies=max_plies)
    except games.PlayerQuit:
        print('\nGame abandoned.')  # a player may leave at its prompt's line (Ctrl-D)
        return 0
    finally:
        for player in jailed:
            player.close()
    announce(game, record, names)
    return 0


def announce(game: games.Game, record: referee.PlayedGame, names: dict) -> None:
    """Print the final board of record, its forfeit if any (what the player wrote
    shown as a terminal should show it) and who won, each seat named by names."""
    seats = referee.seats_of(game)
    print(game.board_text(record.final_state, record.moves[-1] if record.moves else None))
    if record.offender is not None:
        loser = seats[record.offender]
        say(f'{names[loser]} ({loser}) forfeits: {record.termination}: '
            f'{for_terminal(record.detail)}')
    winner = record.winner
    say('Draw.' if winner is None else f'{names[seats[winner]]} ({seats[winner]}) wins.')


def say(line: str) -> None:
    """Print a line of the game, wrapped within text_report.WIDTH columns."""
    print('\n'.join(wrapped(line)))
