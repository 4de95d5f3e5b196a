#!/usr/bin/env python3
"""The command line: round-robin tournaments, interactive games and listings.

    python tournament.py                      # the default round robin
    python tournament.py play misere-nim human ab5
    python tournament.py list
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import tempfile

import tabulate

import games
import players
import variants
from games import referee
from games.tournament import export, tables
from games.tournament.loading import check_players
from games.tournament.match import Rules, play_match
from games.tournament.progress import Progress
from games.tournament.results import OVERALL, Results
from games.tournament.runner import run
from games.tournament.schedule import count_games, schedule
from games.tournament.store import Store, StoreError
from games.tournament.workers import SandboxExecutor
from players import bench, grading, treedraw
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


def cmd_check(args) -> int:
    """Grade a student's file: a PASS or FAIL line per check and a total; exit 0 only if all pass."""
    default_games = {name: make_game(name) for name in variants.DEFAULT_VARIANTS}
    if args.json and not os.path.isdir(os.path.dirname(os.path.abspath(args.json))):
        fail(f'cannot write the report {args.json!r}: no such folder')
    if args.json and os.path.isdir(args.json):
        fail(f'cannot write the report {args.json!r}: it is a folder')
    try:
        report = grading.grade(args.file, grading.make_checks(default_games), args.timeout)
    except grading.LoadError as error:
        fail(str(error))
    print('\n'.join(report.lines()))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as file:
            file.write(report.json() + '\n')
    return 0 if report.passed else 1


def cmd_tree(args) -> int:
    """Draw the minimax or alpha-beta tree below a position as Graphviz DOT."""
    game = make_game(args.variant)
    try:
        state = treedraw.start_position(game, args.position)
        root = treedraw.search_tree(game, state, args.algorithm, args.depth)
    except ValueError as error:
        fail(str(error))
    reach = f'{args.depth} plies' if args.depth else 'to the end'
    dot = treedraw.to_dot(game, root, f'{game}: {args.algorithm} {reach}')
    if args.out is None:
        print(dot, end='')
        return 0
    try:
        treedraw.render(dot, args.out)
    except (ValueError, RuntimeError, OSError) as error:
        fail(str(error))
    print(f'wrote {args.out}')
    return 0


def cmd_bench(args) -> int:
    """Time the engine cold: against the textbook and the installed peers on start
    positions, on random Connect Four positions beside Pons' solver, and abN's first move."""
    status = 0
    if args.only in (None, 'start'):
        print(f'Solving each start position cold; runs past {args.limit:g} s are stopped.',
              flush=True)
        table = []
        for name, measures in bench.run(args.limit, peers=not args.no_peers):
            table += bench.rows(name, measures)
            print(f'  {name}: done', flush=True)
        print(tabulate.tabulate(table, bench.HEADERS, disable_numparse=True))
        status = 0 if all(row[-1] != 'NO' for row in table) else 1
    if args.only in (None, 'connect4'):
        print(f'\nConnect Four, {bench.CONNECT_FOUR_COUNT} random positions a set (seed '
              f'{bench.CONNECT_FOUR_SEED}), each solved (win, draw or loss) in a fresh process; '
              f'Pons: his C++ solver\'s medians in issue 13.', flush=True)
        table = []
        for result in bench.run_connect_four(args.limit):
            table.append(bench.connect_four_row(result))
            print(f'  {result.moves} moves played: done', flush=True)
        print(tabulate.tabulate(table, bench.CONNECT_FOUR_HEADERS, disable_numparse=True))
    if args.only in (None, 'first-moves'):
        print('\nThe first move on the empty Connect Four board, in a fresh process:', flush=True)
        print(tabulate.tabulate(bench.run_first_moves(args.limit), bench.FIRST_MOVE_HEADERS,
                                disable_numparse=True))
    return status


def cmd_tournament(args) -> int:
    """Play the round robin (or the gauntlet), print its tables and write its files."""
    names = tournament_players(args.players, args.gauntlet, 2 * args.move_timeout + 1)
    canonical: dict[str, str] = {}
    for spec in args.variants or variants.DEFAULT_VARIANTS:  # a game once, however spelled
        canonical.setdefault(repr(make_game(spec)), spec)
    chosen = list(canonical.values())
    if args.format not in tabulate.tabulate_formats:
        fail(f'unknown table format {args.format!r}; '
             f'formats: {", ".join(tabulate.tabulate_formats)}')
    for path in filter(None, (args.json, args.csv, args.csv and export.standings_path(args.csv))):
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            fail(f'no folder for output file {path!r}')
        if os.path.isdir(path):
            fail(f'output file {path!r} is a folder')
        if args.db and os.path.abspath(path) == os.path.abspath(args.db):
            fail(f'output file {path!r} would write over the --db file')
    if args.resume and not args.db:
        fail('--resume needs the --db file of the run to continue')
    rules = Rules(args.openings, args.move_timeout, args.max_plies)
    settings = {'players': names, 'variants': chosen, 'games': args.games, 'seed': args.seed,
                'gauntlet': args.gauntlet, **vars(rules)}
    with tempfile.TemporaryDirectory() as scratch:
        try:
            store = Store(args.db or os.path.join(scratch, 'games.sqlite'), settings, args.resume)
        except StoreError as error:
            fail(str(error))
        total = count_games(names, chosen, args.games, args.gauntlet)
        progress = Progress(total, done=store.count())
        job = functools.partial(play_match, rules=rules, make_game=variants.make,
                                load_player=players.load_player)
        try:
            with SandboxExecutor(args.jobs, hard_timeout=2 * args.move_timeout + 1) as executor:
                run(schedule(names, chosen, args.games, args.seed, args.gauntlet), job, executor,
                    store, in_flight=2 * args.jobs, progress=progress)
        except KeyboardInterrupt:
            progress.close()
            kept = f'; they are in {args.db}: add --resume to go on' if args.db else ''
            print(f'Interrupted after {store.count()} of {total} games{kept}.', file=sys.stderr)
            store.close()
            return 130
        progress.close()
        report(args, settings, store, Results(names, chosen).add_all(store.records()))
        store.close()
    return 0


def tournament_players(text: str | None, gauntlet: str | None, seconds: float) -> list[str]:
    """Return the player specs of a tournament, each checked to load within seconds
    in a worker process: those given (comma-separated), or every registered
    non-interactive player."""
    if text is None:
        names = [name for name in players.PLAYER
                 if name not in players.INTERACTIVE and name not in players.ON_REQUEST]
    else:
        names = [name.strip() for name in text.split(',') if name.strip()]
    if gauntlet and gauntlet not in names:
        names.insert(0, gauntlet)
    names = list(dict.fromkeys(names))
    if len(names) < 2:
        fail(f'a tournament needs at least two players, got {", ".join(names) or "none"}')
    try:  # in workers: a file may exit, hang or print as it loads
        check_players(names, players.load_player, seconds)
    except ValueError as error:
        fail(str(error))
    return names


def report(args, settings: dict, store: Store, results: Results) -> None:
    """Print the tables and write the --json and --csv files."""
    kind = f'Gauntlet of {args.gauntlet}' if args.gauntlet else 'Round robin'
    print(f'{kind}: {plural(len(settings["players"]), "player")}, '
          f'{plural(len(settings["variants"]), "variant")}, {plural(store.count(), "game")} '
          f'(seed {args.seed})\n')
    by_variant = tables.all_standings(results)
    print(tables.report(results, by_variant, args.format))
    standings = {('overall' if variant is OVERALL else variant): rows
                 for variant, rows in by_variant.items()}
    if args.json:
        export.write_json(args.json, settings, store.records(), standings)
    if args.csv:
        export.write_csv(args.csv, store.records(), standings)


def plural(number: int, noun: str) -> str:
    """Return '1 game' or '3 games'."""
    return f'{number} {noun}' + ('' if number == 1 else 's')


def count(minimum: int):
    """Return an argparse type: a whole number of at least minimum."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f'expected a whole number, got {text!r}') from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f'expected at least {minimum}, got {value}')
        return value
    return whole


def seconds(text: str) -> float:
    """An argparse type: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected seconds, got {text!r}') from None
    if not 0 < value < float('inf'):
        raise argparse.ArgumentTypeError(f'expected a positive number of seconds, got {text}')
    return value


def add_tournament_options(parser: ArgumentParser) -> None:
    """Add the options of the round robin, which runs when no subcommand is given."""
    option = parser.add_argument
    option('--players', metavar='A,B,...', help='player specs: registry names, module:function or '
           'path/to/file.py:function (default: every registered non-interactive player)')
    option('--variants', nargs='+', metavar='V', help='variant names or specs (default: the '
           'default set, see list)')
    option('--gauntlet', metavar='PLAYER', help='play PLAYER against every other player '
           'instead of a full round robin')
    option('--games', type=count(1), default=1, metavar='N',
           help='game pairs per pairing per variant; a pair swaps the seats (default 1)')
    option('--openings', type=count(0), default=0, metavar='K',
           help='random plies before the players take over, the same for both games of a pair')
    option('--seed', type=int, default=0, help='the seed every random choice derives from '
           '(default 0)')
    option('--jobs', type=count(1), default=cpu_count(), metavar='J',
           help=f'worker processes (default: the CPU count, {cpu_count()})')
    option('--move-timeout', type=seconds, default=10.0, metavar='SECONDS',
           help='time for one move; a player past it forfeits (default 10)')
    option('--max-plies', type=count(1), default=None, metavar='N',
           help='adjudicate a draw after N plies')
    option('--db', metavar='FILE', help='SQLite results file; each game is written as it ends')
    option('--resume', action='store_true', help='continue the interrupted run in --db')
    option('--json', metavar='FILE', help='write the game records, standings and settings')
    option('--csv', metavar='FILE', help='write the game records, and the standings to '
           'FILE-standings.csv')
    option('--format', default='simple', metavar='FMT',
           help='table format: any of tabulate\'s (simple, github, latex, html, ...)')
    parser.set_defaults(run=cmd_tournament)


def cpu_count() -> int:
    """Return the number of CPUs this process may use."""
    if hasattr(os, 'sched_getaffinity'):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def build_parser() -> ArgumentParser:
    """Return the command line's parser, with a subcommand for each job."""
    parser = ArgumentParser(prog='tournament', description=__doc__.splitlines()[0])
    add_tournament_options(parser)
    commands = parser.add_subparsers(dest='command', parser_class=ArgumentParser)
    play = commands.add_parser('play', help='play one game, for example: play misere-nim human ab5')
    play.add_argument('variant', help='a variant name or spec')
    play.add_argument('first', help='the player who moves first')
    play.add_argument('second', help='the player who moves second')
    play.add_argument('--max-plies', type=count(1), default=None, metavar='N',
                      help='adjudicate a draw after N plies')
    play.set_defaults(run=cmd_play)
    listing = commands.add_parser('list', help='list the players and the variants')
    listing.set_defaults(run=cmd_list)
    check = commands.add_parser('check', help="grade a student's file, for example: check mine.py")
    check.add_argument('file', help='the Python file with the functions of players/template.py')
    check.add_argument('--json', metavar='REPORT', help='also write the report as JSON')
    check.add_argument('--timeout', type=seconds, default=30.0, metavar='S',
                       help='seconds for each check (default 30)')
    check.set_defaults(run=cmd_check)
    tree = commands.add_parser('tree', help='draw a game tree as Graphviz DOT, for example: '
                               "tree nim --position '1 2 2'")
    tree.add_argument('variant', help='a variant name or spec')
    tree.add_argument('--algorithm', choices=treedraw.ALGORITHMS, default='alphabeta',
                      help='the search drawn (default alphabeta: pruned moves drawn grey)')
    tree.add_argument('--depth', type=count(1), default=None, metavar='D',
                      help='plies to look ahead (default: to the end of the game)')
    tree.add_argument('--position', metavar='SPEC', help="the root: pile sizes such as '1 2 3' "
                      "for Nim and Grundy's game, else moves from the start such as '2 2; 1 1'")
    tree.add_argument('--out', metavar='FILE', help='write FILE.dot, or render FILE.svg, .png or '
                      ".pdf with Graphviz's dot (default: DOT to standard output)")
    tree.set_defaults(run=cmd_tree)
    bench_ = commands.add_parser('bench', help='time the search engine cold against the textbook, '
                                 "easyAI and OpenSpiel, and on Connect Four beside Pons' solver")
    bench_.add_argument('--limit', type=seconds, default=60.0, metavar='S',
                        help='stop a solver after S seconds on a position (default 60)')
    bench_.add_argument('--no-peers', action='store_true', help='leave out easyAI and OpenSpiel')
    bench_.add_argument('--only', choices=('start', 'connect4', 'first-moves'),
                        help='print one table: start positions, Connect Four beside Pons, '
                        "or abN's first move")
    bench_.set_defaults(run=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except KeyboardInterrupt:
        print('\nInterrupted.', file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into a program that stopped reading, such as head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == '__main__':
    sys.exit(main())
