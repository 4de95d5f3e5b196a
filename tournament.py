#!/usr/bin/env python3
"""The command line: round-robin tournaments, interactive games and listings.

    python tournament.py                      # the default round robin
    python tournament.py play misere-nim human ab5
    python tournament.py list

A course file in the working folder (tournament.toml, or pyproject.toml's
[tool.aima-games] table) gives the round robin's and check's options their
defaults (see players/cli/course.py).

Each command parses its options, calls the one function that does its work, and
prints; a mistake in what the user typed is a UsageError wherever it is found,
printed on one line by main (exit status 2). The grader's and the benchmark's
modules are imported by the commands that use them (check, gradescope-bundle,
tree, bench), their options added when their parser is first used, so that
every other command starts without them.
"""

from __future__ import annotations

import os
import sys


def _working_folder_off_the_path() -> None:
    """Take the working folder off the import path unless it is this project's:
    `python -m tournament` run in a class's folder would otherwise import a
    student's copy.py or random.py in this trusted process, in place of Python's."""
    here, working = os.path.dirname(os.path.abspath(__file__)), os.getcwd()
    if working != here:
        sys.path[:] = [path for path in sys.path if os.path.abspath(path or os.curdir) != working]


_working_folder_off_the_path()

import players  # noqa: E402 (after the path is made safe)
import variants
from players.cli import course, live, stored_runs, tournament_runs
from players.cli.inputs import UsageError, course_support
from players.cli.tournament_options import (ENDING_CHOICES, USAGE_ERROR, ArgumentParser,
                                            add_output_options, add_sandbox_option,
                                            add_sprt_parser, add_tournament_options, count,
                                            cpu_count, folder_limits, seconds, table_format)
from players.cli.outputs import ReportOptions, check_output
from players.reports.player_text import for_terminal
from players.reports.text_report import WIDTH, wrapped
from players.tournaments.store import RESULTS


NAME_COLUMN = 12
"""The width of list's column of names."""


def cmd_list(args) -> int:
    """Print the players and the variants, one each (wrapped within 100 columns)."""
    print('Players (options and their defaults in brackets; give them as mcts(N=200)):')
    registry = players.registry
    for name in players.PLAYER:
        options = f'[{registry.options(name)}]' if name in registry.factories() else ''
        print(listed('  ', name, registry.description(name), options))
    for name in [name for name in registry.factories() if name not in players.PLAYER]:
        print(listed('  ', f'{name}({registry.options(name)})', registry.description(name)))
    print('\nVariants (* = in the default tournament):')
    for name, variant in variants.VARIANTS.items():
        mark = '* ' if variant.default else '  '
        print(listed(mark, name, variant.description, f'[{variant.spec}]'))
    print('  openspiel:NAME(...)  a game of OpenSpiel, such as openspiel:go(board_size=5) '
          '(docs/openspiel.md)')
    return 0


def listed(lead: str, name: str, about: str, bracket: str = '') -> str:
    """Return a row of list: lead, name in its column and what it is, wrapped under
    the column after it, then bracket kept whole; a name wider than its column has a
    line of its own."""
    indent = ' ' * (len(lead) + NAME_COLUMN + 1)
    if len(name) > NAME_COLUMN:
        lines = [lead + name, *wrapped(indent + about, indent)]
    else:
        lines = wrapped(f'{lead}{name:<{NAME_COLUMN}} {about}', indent)
    if bracket and len(lines[-1]) + 2 + len(bracket) <= WIDTH:
        lines[-1] += '  ' + bracket
    elif bracket:
        lines.append(indent + bracket)
    return '\n'.join(lines)


def cmd_play(args) -> int:
    """Play one game, showing each move, and announce the result."""
    return live.play_shown(args.variant, args.first, args.second, args.sandbox, args.max_plies,
                           args.allow, folder_limits(args), course_support(args))


def cmd_check(args) -> int:
    """Grade students' files: for one file, a PASS or FAIL line per check and a total
    (exit 0 only if all pass); for a class, a line per student and a summary."""
    from players.cli import check_command, check_options
    outputs = check_command.Outputs(args.json, args.out, args.gradescope)
    outputs.check()
    return check_command.check(args.paths, check_options.settings(args), outputs, args.jobs)


def cmd_bundle(args) -> int:
    """Write a Gradescope autograder bundle that grades with check's options."""
    from players.cli import check_options
    from players.grading import gradescope
    check_output('the bundle', args.bundle)
    check_options.settings(args)  # the options must make sense before they are baked in
    project, script = os.path.split(os.path.abspath(__file__))
    gradescope.bundle(args.bundle, project, script, check_options.command_line(args),
                      args.cases, args.reference)
    print(f'wrote {args.bundle}: upload it as the autograder of a Gradescope assignment')
    return 0


def cmd_tree(args) -> int:
    """Draw the minimax or alpha-beta tree below a position as Graphviz DOT."""
    from players.cli import tree_command
    return tree_command.draw(args.variant, args.position, args.algorithm, args.depth, args.out)


def cmd_bench(args) -> int:
    """Time the engine cold: against the textbook and the installed peers on start
    positions, on random Connect Four positions beside Pons' solver, and abN's first move."""
    from players.bench import tables as bench_tables
    return bench_tables.print_tables(args.limit, peers=not args.no_peers, only=args.only,
                                     pons=args.pons)


def cmd_tournament(args) -> int:
    """Play the round robin (or the gauntlet), print its tables and write its files."""
    return tournament_runs.play_tournament(args)


def cmd_sprt(args) -> int:
    """Play game pairs of PLAYER against BASELINE until the SPRT decides, printing
    its progress on a terminal, then the verdict; write --json if asked."""
    return tournament_runs.play_sprt(args)


def cmd_serve(args, check: ArgumentParser) -> int:
    """Serve the course's arena until Ctrl-C: the hand-in, the ladder, the pages."""
    from players.cli import serve_command
    return serve_command.serve(args, check if args.course_check else None)


def cmd_submit(args) -> int:
    """Hand in a file or folder to an arena and print its verdict."""
    from players.cli import serve_command
    return serve_command.submit(args)


def cmd_report(args) -> int:
    """Print the tables of a stored run and write its --json, --csv and --html files."""
    return stored_runs.report_run(args.db, ReportOptions.of(args))


def cmd_games(args) -> int:
    """List the stored games of a run, filtered by player, variant, result and ending."""
    return stored_runs.list_games(args.db, args.player, args.variant, args.result, args.ending,
                             args.format)


def cmd_replay(args) -> int:
    """Show a stored game move by move, with the board after each move."""
    return stored_runs.replay_game(args.db, args.game, args.step)


def build_parser() -> ArgumentParser:
    """Return the command line's parser, with a subcommand for each job, its defaults
    those of the course file in the working folder, if there is one."""
    parser = ArgumentParser(prog='tournament', description=__doc__.splitlines()[0])
    add_tournament_options(parser)
    parser.set_defaults(run=cmd_tournament)
    commands = parser.add_subparsers(dest='command', parser_class=ArgumentParser)
    play = commands.add_parser('play', help='play one game, for example: play misere-nim human ab5')
    play.add_argument('variant', help='a variant name or spec')
    play.add_argument('first', help='the player who moves first')
    play.add_argument('second', help='the player who moves second')
    play.add_argument('--max-plies', type=count(1), default=None, metavar='N',
                      help='adjudicate a draw after N plies')
    add_sandbox_option(play)
    play.set_defaults(run=cmd_play)
    listing = commands.add_parser('list', help='list the players and the variants')
    listing.set_defaults(run=cmd_list)
    check = commands.add_parser('check', help="grade students' files, for example: check "
                                'mine.py, or check submissions/ --jobs 2 --out grades',
                                options=add_check_arguments)
    check.set_defaults(run=cmd_check)
    serve_ = commands.add_parser('serve', help="serve the course's arena on the web, for "
                                 'example: serve --roster roster.csv',
                                 options=add_serve_options)
    serve_.set_defaults(run=lambda args: cmd_serve(args, check))
    submit_ = commands.add_parser('submit', help='hand in a file or folder to an arena, for '
                                  'example: submit http://127.0.0.1:8000 mine.py --token TOKEN',
                                  options=add_submit_options)
    submit_.set_defaults(run=cmd_submit)
    course.apply(parser, check, serve=serve_)
    bundle_ = commands.add_parser('gradescope-bundle', help='write a Gradescope autograder '
                                  'bundle, for example: gradescope-bundle autograder.zip '
                                  '--functions alpha_beta_search,player',
                                  options=add_bundle_arguments)
    bundle_.set_defaults(run=cmd_bundle)
    tree = commands.add_parser('tree', help='draw a game tree as Graphviz DOT, for example: '
                               "tree nim --position '1 2 2'", options=add_tree_arguments)
    tree.set_defaults(run=cmd_tree)
    bench_ = commands.add_parser('bench', help='time the search engine cold against the textbook, '
                                 "easyAI and OpenSpiel, and on Connect Four beside Pons' solver",
                                 options=add_bench_arguments)
    bench_.set_defaults(run=cmd_bench)
    games_ = commands.add_parser('games', help='list the games stored in a --db file, for '
                                 'example: games --db run.sqlite --player alice --ending forfeit')
    games_.add_argument('--db', required=True, metavar='FILE', help='the results file of a run')
    games_.add_argument('--player', metavar='NAME', help="only this player's games")
    games_.add_argument('--variant', metavar='V', help='only the games of this variant')
    games_.add_argument('--result', choices=RESULTS, help='1-0 or 0-1 (a win of the first or '
                        'second player), draw, or win or loss for --player')
    games_.add_argument('--ending', metavar='E', choices=ENDING_CHOICES, help='how the game '
                        f'ended: {", ".join(ENDING_CHOICES)} (forfeit: any of the 4 after it; '
                        'with --player, the games it forfeited)')
    games_.add_argument('--format', type=table_format, default='simple', metavar='FMT',
                        help='table format: any of tabulate\'s')
    games_.set_defaults(run=cmd_games)
    replay_ = commands.add_parser('replay', help='show a stored game move by move, for '
                                  'example: replay --db run.sqlite 17')
    replay_.add_argument('--db', required=True, metavar='FILE', help='the results file of a run')
    replay_.add_argument('game', type=count(0), help='the game\'s number, as games lists it')
    replay_.add_argument('--step', action='store_true',
                         help='wait for Enter after each move (q to stop)')
    replay_.set_defaults(run=cmd_replay)
    add_sprt_parser(commands).set_defaults(run=cmd_sprt)
    report_ = commands.add_parser('report', help='print the tables of a stored run and write '
                                  'its files, for example: report --db run.sqlite --html run.html')
    report_.add_argument('--db', required=True, metavar='FILE', help='the results file of a run')
    add_output_options(report_)
    report_.set_defaults(run=cmd_report)
    return parser


def add_check_arguments(check: ArgumentParser) -> None:
    """Add check's arguments: the files graded, where their reports go, and the
    grading options (whose modules, the grader's, are imported only here)."""
    from players.cli import check_options
    check.add_argument('paths', nargs='+', metavar='PATH', help='Python files with the functions '
                       'of players/grading/template.py, or folders of them (one per student), or '
                       "programs (exec:COMMAND, or an executable file): their player's checks")
    check.add_argument('--json', metavar='REPORT', help='also write the report as JSON (one file)')
    check.add_argument('--out', metavar='FOLDER', help='write summary.csv, summary.json and each '
                       "student's report (reports/NAME.txt and .json) in FOLDER")
    check.add_argument('--gradescope', metavar='RESULTS', help="write Gradescope's results.json "
                       'for one submission (a file, or a folder holding one Python file)')
    check.add_argument('--jobs', type=count(1), default=cpu_count(), metavar='J',
                       help=f'files graded at once (default: the CPU count, {cpu_count()})')
    check_options.add_grading_options(check)


def add_serve_options(serve_: ArgumentParser) -> None:
    """Add serve's options: the roster, the arena's folder, address, deadline and limits."""
    from players.cli import serve_command
    serve_command.add_serve_arguments(serve_)


def add_submit_options(submit_: ArgumentParser) -> None:
    """Add submit's arguments: the arena's address, the file or folder, the token."""
    from players.cli import serve_command
    serve_command.add_submit_arguments(submit_)


def add_bundle_arguments(bundle_: ArgumentParser) -> None:
    """Add gradescope-bundle's arguments: the bundle and check's grading options."""
    from players.cli import check_options
    bundle_.add_argument('bundle', metavar='ZIP', help='the bundle to write')
    check_options.add_grading_options(bundle_)


def add_tree_arguments(tree: ArgumentParser) -> None:
    """Add tree's arguments: the game, the search drawn, its depth and root, and the file."""
    from players.grading import treedraw
    tree.add_argument('variant', help='a variant name or spec')
    tree.add_argument('--algorithm', choices=treedraw.ALGORITHMS, default='alphabeta',
                      help='the search drawn (default alphabeta: pruned moves drawn grey)')
    tree.add_argument('--depth', type=count(1), default=None, metavar='D',
                      help='plies to look ahead (default: to the end of the game, or as '
                      'deep as a drawing of 400 nodes allows)')
    tree.add_argument('--position', metavar='SPEC', help="the root: pile sizes such as '1 2 3' "
                      "for Nim and Grundy's game, else moves from the start such as '2 2; 1 1'")
    tree.add_argument('--out', metavar='FILE', help='write FILE.dot, or render FILE.svg, .png or '
                      ".pdf with Graphviz's dot (default: DOT to standard output)")


def add_bench_arguments(bench_: ArgumentParser) -> None:
    """Add bench's options: the time limit, the peers, one table only, and Pons' solver."""
    from players.bench import tables as bench_tables
    bench_.add_argument('--limit', type=seconds, default=60.0, metavar='S',
                        help='stop a solver after S seconds on a position (default 60)')
    bench_.add_argument('--no-peers', action='store_true', help='leave out easyAI and OpenSpiel')
    bench_.add_argument('--only', choices=bench_tables.TABLES,
                        help='print one table: start positions, Connect Four beside Pons, '
                        "abN's first move, Gomoku's moves, or Othello, Kalah, Hex and Breakthrough")
    bench_.add_argument('--pons', metavar='PATH',
                        help="Pascal Pons' c4solver, built from his source, to run on the same "
                        'Connect Four positions (default: his medians recorded in issue 13)')


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit status; a usage error, like
    argparse's own, ends it with status 2 after one line on stderr, and a failure
    of the machinery (a jail server that did not start, say) with status 1 after one."""
    try:
        args = build_parser().parse_args(argv)
        return args.run(args)
    except UsageError as error:
        print(f'tournament: error: {for_terminal(str(error))}', file=sys.stderr)
        sys.exit(USAGE_ERROR)
    except tournament_runs.MACHINERY_FAULTS as fault:
        print(f'tournament: stopped: {for_terminal(str(fault))}', file=sys.stderr)
        return tournament_runs.MACHINERY_FAILED
    except KeyboardInterrupt:
        print('\nInterrupted.', file=sys.stderr)
        return tournament_runs.INTERRUPTED
    except BrokenPipeError:  # output piped into a program that stopped reading, such as head
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == '__main__':
    sys.exit(main())
