#!/usr/bin/env python3
"""The command line: round-robin tournaments, interactive games and listings.

    python tournament.py                      # the default round robin
    python tournament.py play misere-nim human ab5
    python tournament.py list
"""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import sys
import tempfile
from concurrent.futures import Executor
from typing import Callable

import tabulate

import games
import players
import variants
from games import referee
from players.arena import jail, program
from players.arena.jailed_player import Setup, play_with_jails
from players.arena.player_code import PlayerCode, ProgramCode, read_code
from players.player_spec import Kind, parse_spec
from players.arena import (export, grades, html_report, ladder, naming, replay, report,
                              sprt, tables)
from players.arena.loading import check_players
from players.arena.match import Rules, play_scheduled_game
from players.arena.progress import Progress
from players.arena.results import OVERALL, Results
from players.arena.runner import MachineryError, run
from players.arena.schedule import count_games, schedule
from players.arena.store import RESULTS, Store, StoreError
from players.arena.workers import WorkerPool
from players import grading
from players.grading import treedraw
from players.bench import boards as bench_boards, gomoku as bench_gomoku, speed as bench
from players.grading import batch, gradescope

USAGE_ERROR = 2
ENDING_CHOICES = (referee.NORMAL, referee.ADJUDICATED, 'forfeit', referee.TIMEOUT,
                  referee.ILLEGAL, referee.ERROR)
"""What games --ending accepts: how a game ended, 'forfeit' for any forfeit."""


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


new_setup = functools.partial(Setup, make_game=variants.make, load_player=players.load_player)
"""Return the Setup of a game's jails: Setup(game, level=..., limits=...), its players
loaded by the registry's load_player and its game made by variants.make."""


def player_code(spec: str) -> PlayerCode | ProgramCode:
    """Return the code of a player spec for a jail, or fail with its error: a
    registry player is checked here, a file or module player only read, a
    program's command only checked to name a program."""
    try:
        parsed = parse_spec(spec)
        if parsed.kind is Kind.REGISTRY:
            players.load_player(spec)
        return read_code(parsed)
    except ValueError as error:
        fail(str(error))


def sandbox_level(requested: str) -> str:
    """Return the jail level to use, or fail saying why the requested one cannot be had."""
    try:
        return jail.resolve_level(requested)
    except ValueError as error:
        fail(str(error))


def cmd_list(args) -> int:
    """Print the players and the variants, one line each."""
    print('Players (options and their defaults in brackets; give them as mcts(N=200)):')
    registry = players.registry
    for name in players.PLAYER:
        options = f'  [{registry.options(name)}]' if name in registry.factories() else ''
        print(f'  {name:<12} {registry.description(name)}{options}')
    for name in [name for name in registry.factories() if name not in players.PLAYER]:
        print(f'  {name + "(" + registry.options(name) + ")":<12} {registry.description(name)}')
    print('\nVariants (* = in the default tournament):')
    for name, variant in variants.VARIANTS.items():
        mark = '*' if variant.default else ' '
        print(f'{mark} {name:<12} {variant.description}  [{variant.spec}]')
    return 0


def cmd_play(args) -> int:
    """Play one game, showing each move, and announce the result."""
    game = make_game(args.variant)
    seats = referee.seats_of(game)
    specs = (args.first, args.second)
    codes = [None if players.registry.is_interactive(spec) else player_code(spec)
             for spec in specs]
    setup = new_setup(args.variant, level=sandbox_level(args.sandbox))
    names = dict(zip(seats, specs))
    print(f'{game}: {names[seats[0]]} plays {seats[0]}, {names[seats[1]]} plays {seats[1]}')
    jail.prepare_jailer()
    history: list = []
    last_move: list = [None]

    def at_keyboard(spec: str):
        """The interactive player of spec; a person is shown the last move marked."""
        player = players.load_player(spec)
        if player is players.query_player:
            return lambda game, state: player(game, state, last_move[0])
        return player

    chosen = [at_keyboard(spec) if code is None else
              program.stand_in(code, setup, str(seat), history, game=game, seat=seat)
              for seat, (spec, code) in enumerate(zip(specs, codes))]

    def show(state, move, new_state):
        last_move[0] = move
        mover = game.to_move(state)
        typed, described = game.typed_move(move), game.describe_move(move)
        print(f'{names[mover]} ({mover}): {typed}' + ('' if described == typed else f' ({described})'))

    def show_roll(state, chance, new_state):
        mover = game.to_move(state)
        print(f'{names[mover]} ({mover}) {game.describe_chance(chance)}')

    jailed = [player for player, code in zip(chosen, codes) if code is not None]
    try:
        record = play_with_jails(game, chosen, history, on_move=show, on_chance=show_roll,
                                 max_plies=args.max_plies)
    except games.PlayerQuit:
        print('Game abandoned.')
        return 0
    finally:
        for player in jailed:
            player.close()
    print(game.board_text(record.final_state, record.moves[-1] if record.moves else None))
    if record.offender is not None:
        loser = seats[record.offender]
        print(f'{names[loser]} ({loser}) forfeits: {record.termination}: {record.detail}')
    winner = record.winner
    print('Draw.' if winner is None else f'{names[seats[winner]]} ({seats[winner]}) wins.')
    return 0


def grading_settings(args) -> grading.Settings:
    """Return the grading settings of check's options, or fail naming the bad one."""
    functions = tuple(args.functions.split(',')) if args.functions else grading.FUNCTIONS
    unknown = [name for name in functions if name not in grading.FUNCTIONS]
    if unknown or not functions:
        fail(f'--functions: unknown function {unknown[0] if unknown else ""!r}; the functions '
             f'are {",".join(grading.FUNCTIONS)}')
    names = tuple(dict.fromkeys(args.variants or variants.DEFAULT_VARIANTS))
    for name in names:
        make_game(name)
    try:
        cases = tuple(grading.load_cases(args.cases)) if args.cases else ()
    except grading.CaseError as error:
        fail(str(error))
    for name in args.anchors or {}:
        if parse_spec(name).kind in (Kind.FILE, Kind.MODULE):
            fail(f'--anchors: {name!r}: the grader\'s anchors are players of the registry')
        player_code(name)
    return grading.Settings(functions, names, args.timeout, args.move_timeout,
                            sandbox_level(args.sandbox), args.memory, args.allow_reference, cases,
                            tuple((args.anchors or {}).items()), args.player_budget)


def writable(path: str, option: str) -> None:
    """Fail unless an output file can be written: its folder exists and it is no folder."""
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        fail(f'cannot write {option} {path!r}: no such folder')
    if os.path.isdir(path):
        fail(f'cannot write {option} {path!r}: it is a folder')


def cmd_check(args) -> int:
    """Grade students' files: for one file, a PASS or FAIL line per check and a total
    (exit 0 only if all pass); for a class, a line per student and a summary."""
    for path, option in ((args.json, '--json'), (args.gradescope, '--gradescope')):
        if path:
            writable(path, option)
    if args.out and not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
        fail(f'cannot write --out {args.out!r}: no such folder')
    if args.out and os.path.exists(args.out) and not os.path.isdir(args.out):
        fail(f'cannot write --out {args.out!r}: it is a file')
    settings = grading_settings(args)
    if args.gradescope:
        return check_gradescope(args, settings)
    try:
        files = batch.collect(args.paths)
    except grading.LoadError as error:
        fail(str(error))
    if not files:
        fail(f'no Python files in {", ".join(args.paths)}')
    one = len(files) == 1 and not os.path.isdir(args.paths[0])
    if args.json and not one:
        fail('--json is for one file; for a class, --out FOLDER writes every report')
    jail.prepare_jailer()
    if one and not args.out:
        report = grading.grade(files[0], settings)
        print('\n'.join(report.lines()))
        if args.json:
            with open(args.json, 'w', encoding='utf-8') as file:
                file.write(report.json() + '\n')
        return 0 if report.passed else 1
    names = batch.student_names(files)
    print(f'Grading {len(files)} files, {args.jobs} at a time: {settings.describe()}', flush=True)
    reports = []
    by_file = {path: name for path, name in names.items()}
    for report in batch.grade_all(files, settings, args.jobs):
        reports.append(report)
        print(batch.one_line(report, by_file[report.file]), flush=True)
    rows = batch.summary_rows(reports, names, settings.functions)
    print()
    print(tabulate.tabulate([[row['student'], *[row[f] for f in settings.functions],
                              f'{row["total"]}/{row["max"]}', tables.shorten(row['status'], 40)]
                             for row in rows],
                            headers=['Student', *settings.functions, 'Total', 'Status']))
    if args.out:
        written = batch.write_summary(args.out, reports, names, settings)
        print(f'\nwrote {written[0]}, {written[1]} and {len(written) - 2} report files in '
              f'{os.path.join(args.out, "reports")}')
    return 0 if all(report.passed for report in reports) else 1


def check_gradescope(args, settings: grading.Settings) -> int:
    """Grade one submission (a file, or a folder holding one Python file) and write
    Gradescope's results.json; a submission with nothing to grade gets results saying so."""
    if len(args.paths) != 1:
        fail('--gradescope grades one submission: give one file or folder')
    path = args.paths[0]
    if os.path.isdir(path):
        files = sorted(os.path.join(folder, name) for folder, _, names in os.walk(path)
                       for name in names if name.endswith('.py'))
    elif os.path.isfile(path):
        files = [path]
    else:
        fail(f'no such file or folder {path!r}')
    if len(files) != 1:
        found = ', '.join(os.path.relpath(name, path) for name in files) or 'none'
        message = (f'Submit one Python file with the functions of players/template.py; '
                   f'this submission has {len(files)} ({found}).')
        gradescope.write(args.gradescope, gradescope.no_submission(message))
        print(message)
        return 1
    jail.prepare_jailer()
    report = grading.grade(files[0], settings)
    gradescope.write(args.gradescope, gradescope.results(report))
    print('\n'.join(report.lines()))
    return 0 if report.passed else 1


def cmd_bundle(args) -> int:
    """Write a Gradescope autograder bundle that grades with check's options."""
    writable(args.bundle, 'the bundle')
    grading_settings(args)  # the options must make sense before they are baked in
    options = ['--timeout', f'{args.timeout:g}', '--move-timeout', f'{args.move_timeout:g}',
               '--player-budget', f'{args.player_budget:g}', '--memory', str(args.memory),
               '--sandbox', args.sandbox]
    if args.functions:
        options += ['--functions', args.functions]
    if args.variants:
        options += ['--variants', *args.variants]
    if args.allow_reference:
        options.append('--allow-reference')
    if args.anchors:
        options += ['--anchors', ','.join(f'{name}={grade:g}'
                                          for name, grade in args.anchors.items())]
    project = os.path.dirname(os.path.abspath(__file__))
    gradescope.bundle(args.bundle, project, options, args.cases)
    print(f'wrote {args.bundle}: upload it as the autograder of a Gradescope assignment')
    return 0


def cmd_tree(args) -> int:
    """Draw the minimax or alpha-beta tree below a position as Graphviz DOT."""
    game = make_game(args.variant)
    if isinstance(game, games.StochasticGame):
        fail(f'{game} is a game of chance: tree drawings are for games without chance nodes')
    try:
        state = treedraw.start_position(game, args.position)
        root = treedraw.search_tree(game, state, args.algorithm, args.depth)
    except ValueError as error:
        fail(str(error))
    reach = f'{args.depth} plies' if args.depth else 'to the end'
    title = f'{game} from {treedraw.root_name(game, state, args.position)}'
    dot = treedraw.to_dot(game, root, f'{title}: {args.algorithm} {reach}')
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
    if args.only in (None, 'boards'):
        print('\nMove counts from the start (perft), every sequence played to its end, cold: '
              'the Game API (actions, result) beside OpenSpiel\'s C++ games (state.child)',
              flush=True)
        print(tabulate.tabulate(bench_boards.run_perft(args.limit), bench_boards.PERFT_HEADERS,
                                disable_numparse=True))
        print('\nab4\'s first move from the start, in a fresh process:', flush=True)
        print(tabulate.tabulate(bench_boards.run_first_moves(args.limit),
                                bench_boards.FIRST_MOVE_HEADERS, disable_numparse=True))
    if args.only in (None, 'gomoku'):
        print('\nGomoku 15 x 15, five in a row: one move, cold')
        print(tabulate.tabulate(bench_gomoku.run(), bench_gomoku.HEADERS, disable_numparse=True))
    return status


def cmd_tournament(args) -> int:
    """Play the round robin (or the gauntlet), print its tables and write its files."""
    canonical: dict[str, str] = {}
    for spec in args.variants or variants.DEFAULT_VARIANTS:  # a game once, however spelled
        canonical.setdefault(repr(make_game(spec)), spec)
    chosen = list(canonical.values())
    check_outputs(args)
    if args.resume and not args.db:
        fail('--resume needs the --db file of the run to continue')
    check_executor(args)
    rules = Rules(args.openings, args.move_timeout, args.max_plies, args.clock,
                  sandbox_level(args.sandbox), args.memory)
    jail.prepare_jailer()
    specs, gauntlet = tournament_players(args.players, args.gauntlet, args.anchors)
    names = list(specs)
    codes = checked_players(specs, new_setup(chosen[0], level=rules.sandbox,
                                                limits=jail.Limits(memory_mb=rules.memory_mb)),
                            make_game(chosen[0]), rules.load_seconds())
    settings = {'players': names, 'specs': specs, 'variants': chosen, 'games': args.games,
                'seed': args.seed, 'gauntlet': gauntlet, **vars(rules),
                'digests': {name: ladder.digest(code) for name, code in codes.items()}}
    silence = 2 * rules.load_seconds() + args.move_timeout + 5
    executor, in_flight = start_executor(args, silence, rules.sandbox)
    with executor, tempfile.TemporaryDirectory() as scratch:
        try:
            store = Store(args.db or os.path.join(scratch, 'games.sqlite'), settings, args.resume)
        except StoreError as error:
            fail(str(error))
        reused = ladder.keep_unchanged(store, schedule(names, chosen, args.games, args.seed,
                                                       gauntlet), settings['digests'])
        created = reserve(output_paths(args))
        total = count_games(names, chosen, args.games, gauntlet)
        print(report.header(settings, total, reused if args.db else None, args.db), flush=True)
        progress = Progress(total, done=reused)
        job = functools.partial(play_scheduled_game, rules=rules, players=codes,
                                make_game=variants.make, load_player=players.load_player)
        try:
            played = run(schedule(names, chosen, args.games, args.seed, gauntlet), job,
                         executor, store, in_flight=in_flight, progress=progress)
        except (KeyboardInterrupt, MachineryError) as stop:
            progress.close()
            for path in created:
                os.remove(path)
            kept = f'; they are in {args.db}: add --resume to go on' if args.db else ''
            happened = 'Interrupted' if isinstance(stop, KeyboardInterrupt) else f'{stop}.\nStopped'
            print(f'{happened} after {store.count()} of {total} games{kept}.', file=sys.stderr)
            store.close()
            return 130 if isinstance(stop, KeyboardInterrupt) else 1
        progress.close()
        write_results(args, store, {'played': played, 'reused': reused})
        store.close()
    return 0


def cmd_sprt(args) -> int:
    """Play game pairs of PLAYER against BASELINE until the SPRT decides, printing
    its progress on a terminal, then the verdict; write --json if asked."""
    hypotheses = sprt_hypotheses(args)
    chosen = list({repr(make_game(spec)): spec
                   for spec in args.variants or variants.DEFAULT_VARIANTS}.values())
    if args.json:
        writable(args.json, '--json')
    rules = Rules(args.openings, args.move_timeout, args.max_plies, args.clock,
                  sandbox_level(args.sandbox), args.memory)
    jail.prepare_jailer()
    try:
        specs = naming.name_players([args.player, args.baseline])
    except ValueError as error:
        fail(str(error))
    if len(specs) == 1:  # the same player twice: tell the two apart
        name, spec = next(iter(specs.items()))
        specs = {name: spec, f'{name}-2': spec}
    player, baseline = specs
    codes = checked_players(specs, new_setup(chosen[0], level=rules.sandbox,
                                                limits=jail.Limits(memory_mb=rules.memory_mb)),
                            make_game(chosen[0]), rules.load_seconds())
    lower, upper = hypotheses.bounds()
    print(f'SPRT: {player} against {baseline}, H0: Elo <= {hypotheses.elo0:g}, H1: Elo >= '
          f'{hypotheses.elo1:g} (seed {args.seed})\nAlpha {hypotheses.alpha:g}, beta '
          f'{hypotheses.beta:g}: LLR bounds {lower:.2f}, {upper:.2f}')
    print(report.header_details({'variants': chosen, **vars(rules)}), flush=True)
    shown = sys.stderr.isatty()

    def show(test: sprt.Sequential) -> None:
        if shown:
            print(f'\r{test.status()}  \x1b[K', end='', file=sys.stderr, flush=True)

    test = sprt.Sequential(hypotheses, player, show)
    job = functools.partial(play_scheduled_game, rules=rules, players=codes,
                            make_game=variants.make, load_player=players.load_player)
    pairs = None if args.max_games is None else args.max_games // 2
    silence = 2 * rules.load_seconds() + args.move_timeout + 5
    created = reserve([args.json] if args.json else [])
    try:
        with WorkerPool(args.jobs, hard_timeout=silence) as pool:
            sprt.run_test(test, sprt.pair_specs(player, baseline, chosen, args.seed, pairs),
                          job, pool, 2 * args.jobs)
    except (KeyboardInterrupt, MachineryError) as stop:
        for path in created:
            os.remove(path)
        happened = 'Interrupted' if isinstance(stop, KeyboardInterrupt) else f'{stop}.\nStopped'
        print(f'\n{happened} after {2 * test.tally.pairs} games.', file=sys.stderr)
        return 130 if isinstance(stop, KeyboardInterrupt) else 1
    finally:
        if shown:
            print('\r\x1b[K', end='', file=sys.stderr, flush=True)
    print('\n'.join(sprt.lines(test, baseline)))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as file:
            json.dump({**test.summary(), 'player': player, 'baseline': baseline,
                       'specs': specs, 'variants': chosen, 'seed': args.seed}, file, indent=1)
            file.write('\n')
    return 0


def sprt_hypotheses(args) -> sprt.Hypotheses:
    """Return the SPRT's hypotheses and error rates, or fail naming the bad option."""
    for option in ('alpha', 'beta'):
        if not 0 < getattr(args, option) < 0.5:
            fail(f'--{option} must be between 0 and 0.5, got {getattr(args, option):g}')
    if not args.elo0 < args.elo1:
        fail(f'--elo0 must be below --elo1, got {args.elo0:g} and {args.elo1:g}')
    return sprt.Hypotheses(args.elo0, args.elo1, args.alpha, args.beta)


def check_executor(args) -> None:
    """Fail unless the executor asked for can be used: Dask's needs its package and
    a scheduler's address that it can try to reach."""
    if args.scheduler and args.executor != 'dask':
        fail('--scheduler is for --executor dask')
    if args.executor == 'dask':
        try:
            importlib.import_module('distributed')
        except ImportError as error:
            fail(f"--executor dask needs Dask's distributed ({error}); install it with "
                 "pip install 'aima-games[dask]'")
        from players.arena import cluster
        if args.scheduler:
            try:
                cluster.check_address(args.scheduler)
            except cluster.ClusterError as error:
                fail(str(error))


def start_executor(args, hard_timeout: float,
                   sandbox: str) -> tuple[Executor, int | Callable[[], int]]:
    """Return the executor that plays the games (worker processes here, or a Dask
    cluster's workers) and how many games to keep submitted to it, or fail."""
    if args.executor == 'local':
        return WorkerPool(args.jobs, hard_timeout=hard_timeout), 2 * args.jobs
    from players.arena import cluster
    try:
        executor = cluster.DaskExecutor(args.scheduler, args.jobs, hard_timeout, sandbox)
    except cluster.ClusterError as error:
        fail(str(error))
    print(executor.describe(), file=sys.stderr, flush=True)
    return executor, lambda: 2 * max(1, executor.slots())


def tournament_players(text: str | None, gauntlet: str | None,
                       anchors: dict | None = None) -> tuple[dict[str, str], str | None]:
    """Return the players of a tournament as {name: spec} (those given,
    comma-separated as SPEC or NAME=SPEC, or every registered non-interactive
    player, and the anchors that are not among them, as registry specs), and the
    name of the gauntlet player, added first if it is not among them."""
    if text is None:
        entries = players.registry.tournament_names()
    else:
        entries = naming.split_specs(text)
    try:
        specs = naming.name_players(entries)
        missing = [name for name in anchors or {} if name not in specs]
        if missing:
            specs = naming.name_players([*(f'{name}={spec}' for name, spec in specs.items()),
                                         *missing])
        if gauntlet is not None:
            gauntlet_name, gauntlet_spec = naming.split_entry(gauntlet)
            found = [name for name, spec in specs.items()
                     if name == (gauntlet_name or gauntlet_spec) or spec == gauntlet_spec]
            if found:
                gauntlet = found[0]
            else:
                specs = naming.name_players([gauntlet, *(f'{name}={spec}'
                                                         for name, spec in specs.items())])
                gauntlet = next(iter(specs))
    except ValueError as error:
        fail(str(error))
    if len(specs) < 2:
        fail(f'a tournament needs at least two players, got {", ".join(specs) or "none"}')
    return specs, gauntlet


def checked_players(specs: dict[str, str], setup: Setup, game: games.Game,
                    seconds: float) -> dict[str, PlayerCode | ProgramCode]:
    """Return the code of each player by name, each checked to load (a program: to
    start) within seconds in a jail for game, the game of setup (a file may exit,
    hang or print as it loads), or fail."""
    for name, spec in specs.items():
        if players.registry.is_interactive(spec):
            fail(f'player {name!r} needs a person at the keyboard; play it with play')
    codes = {name: player_code(spec) for name, spec in specs.items()}
    try:
        check_players(codes, setup, game, seconds)
    except ValueError as error:
        fail(str(error))
    return codes


def reserve(paths: list[str]) -> list[str]:
    """Create the output files that do not exist yet, so that no player can put
    anything in their place during the run; return those created."""
    created = []
    for path in paths:
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            created.append(path)
        except FileExistsError:
            pass
        except OSError as error:
            fail(f'cannot write output file {path!r}: {error.strerror}')
    return created


def output_paths(args) -> list[str]:
    """Return the output files a command writes."""
    csv_standings = args.csv and export.standings_path(args.csv)
    return [path for path in (args.json, args.csv, csv_standings, args.html) if path]


def check_outputs(args) -> None:
    """Fail unless every output file of the command can be written: its folder
    exists, it is no folder, and it is not the --db file."""
    for path in output_paths(args):
        if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            fail(f'no folder for output file {path!r}')
        if os.path.isdir(path):
            fail(f'output file {path!r} is a folder')
        if args.db and os.path.abspath(path) == os.path.abspath(args.db):
            fail(f'output file {path!r} would write over the --db file')


def write_results(args, store: Store, counts: dict) -> None:
    """Print the tables of the run in store and write its --json, --csv and --html
    files; counts ({'played': N, 'reused': M}) open the JSON."""
    settings = store.settings
    results = Results(settings['players'], settings['variants']).add_all(store.records())
    by_variant = tables.all_standings(results, args.anchors)
    print(report.body(results, by_variant, args.format, args.tables), end='')
    standings = {('overall' if variant is OVERALL else variant): rows
                 for variant, rows in by_variant.items()}
    if args.json:
        export.write_json(args.json, settings, store.records(), standings,
                          {**counts, 'anchors': args.anchors})
    if args.csv:
        export.write_csv(args.csv, store.records(), standings)
    if args.html:
        html_report.write(args.html, settings, results, by_variant, store.records(),
                          variants.make)
        print(f'\nwrote {args.html}')


def open_run(path: str) -> Store:
    """Open the results file of a run to read it, or fail with the reason."""
    try:
        return Store.read(path)
    except StoreError as error:
        fail(str(error))


def cmd_report(args) -> int:
    """Print the tables of a stored run and write its --json, --csv and --html files."""
    check_outputs(args)
    store = open_run(args.db)
    settings = store.settings
    unknown = [name for name in args.anchors or {} if name not in settings['players']]
    if unknown:
        fail(f'--anchors: {unknown[0]!r} is no player of the run in {args.db}; its players: '
             f'{", ".join(settings["players"])}')
    total = count_games(settings['players'], settings['variants'], settings['games'],
                        settings.get('gauntlet'))
    print(report.header(settings, total))
    if store.count() < total:
        print(f'Only {store.count()} of the {total} games were played; '
              'these tables are of those.\n')
    write_results(args, store, {'played': 0, 'reused': store.count()})
    store.close()
    return 0


def cmd_games(args) -> int:
    """List the stored games of a run, filtered by player, variant, result and ending."""
    store = open_run(args.db)
    settings = store.settings
    if args.player is not None and args.player not in settings['players']:
        fail(f'no player {args.player!r} in {args.db}; players: {", ".join(settings["players"])}')
    if args.result in ('win', 'loss') and args.player is None:
        fail(f'--result {args.result} needs --player')
    variant = None if args.variant is None else stored_variant(settings, args.variant)
    rows = [[record['index'], record['variant'], record['first'], record['second'],
             replay.score_text(record['score']), record['termination'], record['plies'],
             tables.shorten(record['detail'] or '', 50)]
            for record in store.records(args.player, variant, args.result, args.ending)]
    store.close()
    if not rows:
        print('No stored game matches.')
        return 0
    print(tabulate.tabulate(rows, headers=['#', 'Variant', 'First', 'Second', 'Result',
                                           'Ending', 'Plies', 'Detail'], tablefmt=args.format))
    print(f'\n{report.plural(len(rows), "game")}; '
          f'replay one with: tournament.py replay --db {args.db} #')
    return 0


def stored_variant(settings: dict, text: str) -> str:
    """Return the variant of a run that text names (as given to the run, or any
    spelling of the same game), or fail naming the run's variants."""
    if text in settings['variants']:
        return text
    wanted = repr(make_game(text))
    for variant in settings['variants']:
        if repr(variants.make(variant)) == wanted:
            return variant
    fail(f'the run has no variant {text!r}; its variants: {", ".join(settings["variants"])}')


def next_step() -> bool:
    """Wait for Enter and return True, or return False for q or the end of input."""
    try:
        return input('(Enter: next move, q: stop) ').strip().lower() not in ('q', 'quit')
    except EOFError:
        return False


def cmd_replay(args) -> int:
    """Show a stored game move by move, with the board after each move."""
    store = open_run(args.db)
    record = store.record(args.game)
    store.close()
    if record is None:
        fail(f'no game {args.game} in {args.db}; list them with: tournament.py games '
             f'--db {args.db}')
    try:
        for number, block in enumerate(replay.lines(variants.make(record['variant']), record)):
            if args.step and number >= 2 and not next_step():  # after the headline and start
                break
            print(block, flush=True)
    except ValueError as error:
        fail(str(error))
    return 0


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


def time_control(text: str) -> tuple[float, float]:
    """An argparse type: a time control BASE[+INC] in seconds, such as 60+0.5."""
    base, plus, increment = text.partition('+')
    return seconds(base), (increment_seconds(increment) if plus else 0.0)


def increment_seconds(text: str) -> float:
    """An argparse type: seconds of at least 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f'expected seconds, got {text!r}') from None
    if not 0 <= value < float('inf'):
        raise argparse.ArgumentTypeError(f'expected an increment of at least 0, got {text}')
    return value


def add_sandbox_option(parser: ArgumentParser) -> None:
    """Add --sandbox, the jail level players run in."""
    parser.add_argument('--sandbox', choices=jail.LEVELS, default='auto',
                        help='jail players with bubblewrap, or with process limits alone '
                        '(default auto: bwrap where it works)')


def add_grading_options(parser: ArgumentParser) -> None:
    """Add the options that say what check grades and how."""
    option = parser.add_argument
    option('--functions', metavar='F,G,...', help='the functions the assignment asks for; '
           f'a missing one scores 0 (default: all, {",".join(grading.FUNCTIONS)})')
    option('--variants', nargs='+', metavar='V', help='the games of the player checks and of the '
           "searches' real positions (default: the default set, see list)")
    option('--cases', metavar='FILE', help='your own trees and positions, as JSON (see the README)')
    option('--timeout', type=seconds, default=10.0, metavar='S',
           help='seconds for each search check and for loading the file (default 10)')
    option('--move-timeout', type=seconds, default=10.0, metavar='S',
           help="seconds for each of the player's moves, as in a tournament (default 10)")
    option('--player-budget', type=seconds, default=60.0, metavar='S',
           help='seconds all the player checks of one file may take; those not played by '
           'then fail, saying so (default 60)')
    option('--memory', type=count(64), default=jail.Limits.memory_mb, metavar='MB',
           help=f'address-space limit of the student\'s jail, in MiB (default '
           f'{jail.Limits.memory_mb})')
    option('--allow-reference', action='store_true', help="let students' code use this project's "
           'own searches (players.textbook and the rest); by default that fails')
    option('--anchors', type=anchor_grades, metavar='P=G,...', help="grade the player's "
           'strength off its rating between reference players of the registry, each standing '
           'for a grade, such as random=0,ab2=70,ab4=100 (instead of the gauntlet)')
    add_sandbox_option(parser)


def add_tournament_options(parser: ArgumentParser) -> None:
    """Add the options of the round robin, which runs when no subcommand is given."""
    option = parser.add_argument
    option('--players', metavar='A,B,...', help='player specs: registry names, with options such '
           'as mcts(N=200), module:function or path/to/file.py:function, programs in any '
           'language as exec:COMMAND or an executable file, each SPEC or NAME=SPEC '
           '(default: every registered non-interactive player)')
    option('--variants', nargs='+', metavar='V', help='variant names or specs (default: the '
           'default set, see list)')
    option('--gauntlet', metavar='PLAYER', help='play PLAYER against every other player '
           'instead of a full round robin')
    option('--games', type=count(1), default=1, metavar='N',
           help='game pairs per pairing per variant; a pair swaps the seats (default 1)')
    option('--jobs', type=count(1), default=cpu_count(), metavar='J',
           help=f'worker processes, here or in the LocalCluster of --executor dask '
           f'(default: the CPU count, {cpu_count()})')
    option('--executor', choices=('local', 'dask'), default='local',
           help='play the games in worker processes here (default), or on a Dask cluster: '
           "--scheduler's, or a LocalCluster of --jobs workers (needs the dask extra)")
    option('--scheduler', metavar='ADDRESS', help='the Dask scheduler of --executor dask, '
           'such as tcp://10.0.0.5:8786')
    add_rules_options(parser, openings=0)
    option('--db', metavar='FILE', help='SQLite results file; each game is written as it ends')
    option('--resume', action='store_true', help='continue the interrupted run in --db')
    add_output_options(parser)
    parser.set_defaults(run=cmd_tournament)


def add_rules_options(parser: ArgumentParser, openings: int) -> None:
    """Add the options of how each game is played: openings, seed, time, jails, length."""
    option = parser.add_argument
    option('--openings', type=count(0), default=openings, metavar='K',
           help='random plies before the players take over, the same for both games of a pair '
           f'(default {openings})')
    option('--seed', type=int, default=0, help='the seed every random choice derives from '
           '(default 0)')
    option('--move-timeout', type=seconds, default=10.0, metavar='SECONDS',
           help='time for one move; a player past it forfeits (default 10)')
    option('--clock', type=time_control, default=None, metavar='BASE[+INC]',
           help='a game clock per player: BASE seconds for the game, INC more after each '
           'move (such as 60+0.5); a player whose clock runs out forfeits on time')
    option('--memory', type=count(64), default=jail.Limits.memory_mb, metavar='MB',
           help=f'address-space limit of each player, in MiB (default {jail.Limits.memory_mb})')
    add_sandbox_option(parser)
    option('--max-plies', type=count(1), default=None, metavar='N',
           help='adjudicate a draw after N plies')


def add_sprt_parser(commands) -> None:
    """Add the sprt subcommand: is PLAYER stronger than BASELINE?"""
    test = commands.add_parser('sprt', help='play PLAYER against BASELINE in game pairs until '
                               'a sequential test decides whether it is stronger, for example: '
                               'sprt mine.py:player ab3 --elo1 20')
    option = test.add_argument
    option('player', help='the player tested: a registry spec, module:function or '
           'path/to/file.py:function, optionally NAME=SPEC')
    option('baseline', help='the player it is tested against, in the same forms')
    option('--variants', nargs='+', metavar='V', help='the variants, taken in turn one pair '
           'at a time (default: the default set, see list)')
    option('--elo0', type=float, default=0.0, help='H0: PLAYER is at most this many Elo '
           'stronger (default 0)')
    option('--elo1', type=float, default=10.0, help='H1: PLAYER is at least this many Elo '
           'stronger (default 10)')
    option('--alpha', type=float, default=0.05, help='the chance of accepting H1 when H0 '
           'holds (default 0.05)')
    option('--beta', type=float, default=0.05, help='the chance of accepting H0 when H1 '
           'holds (default 0.05)')
    option('--max-games', type=count(2), default=None, metavar='N',
           help='stop without a verdict after N games (default: no limit)')
    option('--jobs', type=count(1), default=cpu_count(), metavar='J',
           help=f'worker processes (default: the CPU count, {cpu_count()})')
    add_rules_options(test, openings=2)
    option('--json', metavar='FILE', help='write the result, games, llr, bounds, elo, '
           'elo_error and los')
    test.set_defaults(run=cmd_sprt)


def add_output_options(parser: ArgumentParser) -> None:
    """Add the options that choose the tables and the files a report writes."""
    option = parser.add_argument
    option('--json', metavar='FILE', help='write the game records, standings and settings')
    option('--csv', metavar='FILE', help='write the game records, and the standings to '
           'FILE-standings.csv')
    option('--html', metavar='FILE', help='write the report as one self-contained web page, '
           'with every game replayable')
    option('--format', type=table_format, default='simple', metavar='FMT',
           help='table format: any of tabulate\'s (simple, github, latex, html, ...)')
    option('--anchors', type=anchor_grades, metavar='P=G,...', help='reference players and '
           "the grade each stands for, such as random=0,ab2=70,ab4=100: every player's grade "
           'is read off its Elo between them (anchors not among the players are added)')
    option('--tables', type=tables_shown, default='auto', metavar='LIST',
           help='tables printed before the scores by variant and the standings: '
           f'auto (those that fit), all, or some of {",".join(report.OPTIONAL_TABLES)}')


def table_format(text: str) -> str:
    """An argparse type: one of tabulate's table formats."""
    if text not in tabulate.tabulate_formats:
        raise argparse.ArgumentTypeError(f'unknown table format {text!r}; '
                                         f'formats: {", ".join(tabulate.tabulate_formats)}')
    return text


def anchor_grades(text: str) -> dict[str, float]:
    """An argparse type: the anchors of --anchors (see grades.parse_anchors)."""
    try:
        return grades.parse_anchors(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def tables_shown(text: str):
    """An argparse type: the tables of --tables (see report.parse_tables)."""
    try:
        return report.parse_tables(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


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
    add_sandbox_option(play)
    play.set_defaults(run=cmd_play)
    listing = commands.add_parser('list', help='list the players and the variants')
    listing.set_defaults(run=cmd_list)
    check = commands.add_parser('check', help="grade students' files, for example: check "
                                'mine.py, or check submissions/ --jobs 2 --out grades')
    check.add_argument('paths', nargs='+', metavar='PATH', help='Python files with the functions '
                       'of players/template.py, or folders of them (one per student), or '
                       "programs (exec:COMMAND, or an executable file): their player's checks")
    check.add_argument('--json', metavar='REPORT', help='also write the report as JSON (one file)')
    check.add_argument('--out', metavar='FOLDER', help='write summary.csv, summary.json and each '
                       "student's report (reports/NAME.txt and .json) in FOLDER")
    check.add_argument('--gradescope', metavar='RESULTS', help="write Gradescope's results.json "
                       'for one submission (a file, or a folder holding one Python file)')
    check.add_argument('--jobs', type=count(1), default=cpu_count(), metavar='J',
                       help=f'files graded at once (default: the CPU count, {cpu_count()})')
    add_grading_options(check)
    check.set_defaults(run=cmd_check)
    bundle_ = commands.add_parser('gradescope-bundle', help='write a Gradescope autograder '
                                  'bundle, for example: gradescope-bundle autograder.zip '
                                  '--functions alpha_beta_search,player')
    bundle_.add_argument('bundle', metavar='ZIP', help='the bundle to write')
    add_grading_options(bundle_)
    bundle_.set_defaults(run=cmd_bundle)
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
    bench_.add_argument('--only', choices=('start', 'connect4', 'first-moves', 'gomoku', 'boards'),
                        help='print one table: start positions, Connect Four beside Pons, '
                        "abN's first move, Gomoku's moves, or Othello, Kalah, Hex and Breakthrough")
    bench_.set_defaults(run=cmd_bench)
    games_ = commands.add_parser('games', help='list the games stored in a --db file, for '
                                 'example: games --db run.sqlite --player alice --ending forfeit')
    games_.add_argument('--db', required=True, metavar='FILE', help='the results file of a run')
    games_.add_argument('--player', metavar='NAME', help="only this player's games")
    games_.add_argument('--variant', metavar='V', help='only the games of this variant')
    games_.add_argument('--result', choices=RESULTS, help='1-0 or 0-1 (a win of the first or '
                        'second player), draw, or win or loss for --player')
    games_.add_argument('--ending', metavar='E', choices=ENDING_CHOICES, help='how the game '
                        f'ended: {", ".join(ENDING_CHOICES)} (any of the last three)')
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
    add_sprt_parser(commands)
    report_ = commands.add_parser('report', help='print the tables of a stored run and write '
                                  'its files, for example: report --db run.sqlite --html run.html')
    report_.add_argument('--db', required=True, metavar='FILE', help='the results file of a run')
    add_output_options(report_)
    report_.set_defaults(run=cmd_report)
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
