#!/usr/bin/env python3
"""The command line: round-robin tournaments, interactive games and listings.

    python tournament.py                      # the default round robin
    python tournament.py play misere-nim human ab5
    python tournament.py list
"""

from __future__ import annotations

import argparse
import sys

import games
import players
import variants
from games import referee
from players.human import as_typed

USAGE_ERROR = 2


class ArgumentParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str):
        self.exit(USAGE_ERROR, f'{self.prog}: error: {message}\n')


def fail(message: str) -> None:
    """Print a one-line usage error and exit with status 2."""
    print(f'tournament: error: {message}', file=sys.stderr)
    sys.exit(USAGE_ERROR)


def make_game(name_or_spec: str) -> games.Game:
    """Return the game of a variant name or spec, or fail with its error."""
    try:
        return variants.make(name_or_spec)
    except ValueError as error:
        fail(str(error))


def get_player(spec: str) -> games.Player:
    """Return the player of a spec, or fail with its error."""
    try:
        return players.load_player(spec)
    except ValueError as error:
        fail(str(error))


def cmd_list(args) -> int:
    """Print the players and the variants, one line each."""
    print('Players:')
    for name in players.PLAYER:
        print(f'  {name:<12} {players.registry.description(name)}')
    print('\nVariants (* = in the default tournament):')
    for name, variant in variants.VARIANTS.items():
        mark = '*' if variant.default else ' '
        print(f'{mark} {name:<12} {variant.description}  [{variant.spec}]')
    return 0


def cmd_play(args) -> int:
    """Play one game, showing each move, and announce the result."""
    game = make_game(args.variant)
    seats = referee.seats_of(game)
    chosen = [get_player(spec) for spec in (args.first, args.second)]
    names = dict(zip(seats, (args.first, args.second)))
    print(f'{game}: {names[seats[0]]} plays {seats[0]}, {names[seats[1]]} plays {seats[1]}')

    def show(state, move, new_state):
        mover = game.to_move(state)
        typed, described = as_typed(move), game.describe_move(move)
        print(f'{names[mover]} ({mover}): {typed}' + ('' if described == typed else f' ({described})'))

    try:
        record = referee.play(game, chosen, max_plies=args.max_plies, on_move=show)
    except games.PlayerQuit:
        print('Game abandoned.')
        return 0
    game.display(record.final_state)
    if record.offender is not None:
        loser = seats[record.offender]
        print(f'{names[loser]} ({loser}) forfeits: {record.termination}: {record.detail}')
    winner = record.winner
    print('Draw.' if winner is None else f'{names[seats[winner]]} ({seats[winner]}) wins.')
    return 0


def build_parser() -> ArgumentParser:
    """Return the command line's parser, with a subcommand for each job."""
    parser = ArgumentParser(prog='tournament', description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest='command', parser_class=ArgumentParser)
    play = commands.add_parser('play', help='play one game, for example: play misere-nim human ab5')
    play.add_argument('variant', help='a variant name or spec')
    play.add_argument('first', help='the player who moves first')
    play.add_argument('second', help='the player who moves second')
    play.add_argument('--max-plies', type=int, default=None, help='adjudicate a draw past this')
    play.set_defaults(run=cmd_play)
    listing = commands.add_parser('list', help='list the players and the variants')
    listing.set_defaults(run=cmd_list)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = build_parser().parse_args(argv)
    if not args.command:
        fail('the round robin is not built yet; try: list, play')
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print('\nInterrupted.', file=sys.stderr)
        return 130


if __name__ == '__main__':
    sys.exit(main())
