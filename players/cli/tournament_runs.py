"""Runs from start to end: a round robin (or a gauntlet) and an SPRT, each with its
players checked before play, its files reserved, and a clean stop on Ctrl-C or a
failure of the machinery (the games played so far kept)."""

from __future__ import annotations

import importlib
import json
import os
import sys
from argparse import Namespace
from concurrent.futures import Executor
from typing import Callable

import variants
from games.referee import GameFailed
from players.sandbox import jail
from players.tournaments import entrants, naming, sprt
from players.reports import text_report
from players.reports.player_text import for_terminal
from players.sandbox.allowed import allowed_packages
from .inputs import (UsageError, class_submissions, course_support, distinct_variants,
                     sandbox_level, tournament_players, usage_errors)
from players.tournaments.entrants import PlayerError
from players.tournaments.match import Rules
from players.remote.player_code import Support
from players.tournaments.tournament import Tournament, game_job, worker_silence
from .tournament_options import folder_limits
from .outputs import ReportOptions, check_output, check_outputs, reserve, write_results
from .progress import Progress
from players.tournaments.run_settings import RunSettings
from players.tournaments.runner import MachineryError
from players.tournaments.store import StoreError
from players.tournaments.workers import WorkerPool
from players.sandbox.servers import ServerLost

INTERRUPTED = 130
"""The exit status of a run stopped by Ctrl-C."""
MACHINERY_FAILED = 1
"""The exit status of a command stopped by a failure of the machinery."""
MACHINERY_FAULTS = (MachineryError, ServerLost, GameFailed)
"""The failures of the machinery, never a player's nor the user's: a game that failed
through no player's fault as often as it was tried, a jail server that did not start
or was lost, a game whose own code failed in play."""


def rules_of(options: Namespace, support: Support) -> Rules:
    """Return how each game is played, from the rules options (see
    options.add_rules_options) and the course's support files, the packages they
    import allowed too; the packages allowed must be installed."""
    allow = support.allow(options.allow)
    with usage_errors():
        allowed_packages(allow)
    return Rules(options.openings, options.move_timeout, options.max_plies, options.clock,
                 sandbox_level(options.sandbox), options.memory, allow, support.names)


def stopped(stop: BaseException, created: list[str], done: str, before: str = '') -> int:
    """Remove the files created for a run that stopped (by Ctrl-C or a failure of
    the machinery) after done, say so on stderr (after before), and return the exit
    status."""
    for path in created:
        os.remove(path)
    happened = ('Interrupted' if isinstance(stop, KeyboardInterrupt)
                else f'{for_terminal(str(stop))}.\nStopped')
    print(f'{before}{happened} after {done}.', file=sys.stderr)
    return INTERRUPTED if isinstance(stop, KeyboardInterrupt) else MACHINERY_FAILED


def play_tournament(options: Namespace) -> int:
    """Play the round robin (or the gauntlet) of options (see
    options.add_tournament_options), print its tables and write its files; return
    the exit status."""
    chosen = distinct_variants(options.variants or variants.DEFAULT_VARIANTS)
    report = ReportOptions.of(options)
    check_outputs(report.files(), options.db)
    if options.resume and not options.db:
        raise UsageError('--resume needs the --db file of the run to continue')
    check_executor(options)
    support = course_support(options)
    rules = rules_of(options, support)
    jail.prepare_jailer()
    submitted = class_submissions(options.submissions) if options.submissions else []
    specs, gauntlet = tournament_players(options.players, options.gauntlet, options.anchors or (),
                                         submitted)
    tournament = Tournament(specs, chosen, rules, options.games, options.seed, gauntlet,
                            options.jobs, options.db, options.resume)
    with usage_errors(PlayerError):
        entered = tournament.entrants(options.strict, submitted, folder_limits(options), support)
    executor, in_flight = start_executor(options, worker_silence(rules), rules.sandbox)
    with executor:
        with usage_errors(StoreError):
            store, reused = tournament.open(entered)
        created = reserve(report.files())
        total = tournament.count(entered)
        print(text_report.header(store.settings, total, reused if options.db else None,
                                 options.db, options.course), flush=True)
        progress = Progress(total, done=reused)
        try:
            played = tournament.play(entered, store, executor, in_flight, progress)
        except (KeyboardInterrupt, MachineryError) as stop:
            progress.close()
            kept = (f'; they are in\n{text_report.path_line(options.db)}\nadd --resume to go on'
                    if options.db else '')
            status = stopped(stop, created, f'{store.count()} of {total} games{kept}')
            store.close()
            return status
        progress.close()
        write_results(report, store, {'played': played, 'reused': reused})
        store.close()
    return 0


def check_executor(options: Namespace) -> None:
    """Raise a UsageError unless the executor asked for can be used: Dask's needs
    its package and a scheduler's address that it can try to reach."""
    if options.scheduler and options.executor != 'dask':
        raise UsageError('--scheduler is for --executor dask')
    if options.executor == 'dask':
        try:
            importlib.import_module('distributed')
        except ImportError as error:
            raise UsageError(f"--executor dask needs Dask's distributed ({error}); install it "
                             "with pip install 'aima-games[dask]'") from None
        from players.tournaments import cluster
        if options.scheduler:
            with usage_errors(cluster.ClusterError):
                cluster.check_address(options.scheduler)


def start_executor(options: Namespace, hard_timeout: float | None,
                   sandbox: str) -> tuple[Executor, int | Callable[[], int]]:
    """Return the executor that plays the games (worker processes here, or a Dask
    cluster's workers) and how many games to keep submitted to it."""
    if options.executor == 'local':
        return WorkerPool(options.jobs, hard_timeout=hard_timeout), 2 * options.jobs
    from players.tournaments import cluster
    with usage_errors(cluster.ClusterError):
        executor = cluster.DaskExecutor(options.scheduler, options.jobs, hard_timeout, sandbox)
    print(executor.describe(), file=sys.stderr, flush=True)
    return executor, lambda: 2 * max(1, executor.slots())


def sprt_hypotheses(options: Namespace) -> sprt.Hypotheses:
    """Return the SPRT's hypotheses and error rates of options."""
    for option in ('alpha', 'beta'):
        if not 0 < getattr(options, option) < 0.5:
            raise UsageError(f'--{option} must be between 0 and 0.5, got '
                             f'{getattr(options, option):g}')
    if not options.elo0 < options.elo1:
        raise UsageError(f'--elo0 must be below --elo1, got {options.elo0:g} and '
                         f'{options.elo1:g}')
    return sprt.Hypotheses(options.elo0, options.elo1, options.alpha, options.beta)


def sprt_players(player: str, baseline: str) -> dict[str, str]:
    """Return the SPRT's two players as {name: spec}, the player first; the same
    player twice gets two names."""
    with usage_errors():
        specs = naming.name_players([player, baseline])
    if len(specs) == 1:
        name, spec = next(iter(specs.items()))
        specs = {name: spec, f'{name}-2': spec}
    return specs


def play_sprt(options: Namespace) -> int:
    """Play game pairs of the player against the baseline of options (see
    options.add_sprt_parser) until the SPRT decides, printing its progress on a
    terminal, then the verdict; write --json if asked; return the exit status."""
    hypotheses = sprt_hypotheses(options)
    chosen = distinct_variants(options.variants or variants.DEFAULT_VARIANTS)
    if options.json:
        check_output('--json', options.json)
    support = course_support(options)
    rules = rules_of(options, support)
    jail.prepare_jailer()
    specs = sprt_players(options.player, options.baseline)
    player, baseline = specs
    with usage_errors(PlayerError):
        entered = entrants.check(specs, chosen[0], rules, limits=folder_limits(options),
                                 support=support)
    lower, upper = hypotheses.bounds()
    print(f'SPRT: {for_terminal(player)} against {for_terminal(baseline)}, H0: Elo <= '
          f'{hypotheses.elo0:g}, H1: Elo >= {hypotheses.elo1:g} (seed {options.seed})\nAlpha '
          f'{hypotheses.alpha:g}, beta {hypotheses.beta:g}: LLR bounds {lower:.2f}, {upper:.2f}')
    print(text_report.header_details(RunSettings(players=tuple(specs), variants=tuple(chosen),
                                                 **vars(rules))), flush=True)
    shown = sys.stderr.isatty()

    def show(test: sprt.Sequential) -> None:
        if shown:
            print(f'\r{test.status()}  \x1b[K', end='', file=sys.stderr, flush=True)

    test = sprt.Sequential(hypotheses, player, show)
    pairs = None if options.max_games is None else options.max_games // 2
    created = reserve([('--json', options.json)] if options.json else [])
    try:
        with WorkerPool(options.jobs, hard_timeout=worker_silence(rules)) as pool:
            sprt.run_test(test, sprt.pair_specs(player, baseline, chosen, options.seed, pairs),
                          game_job(rules, entered, chosen), pool, 2 * options.jobs)
    except (KeyboardInterrupt, MachineryError) as stop:
        return stopped(stop, created, f'{2 * test.tally.pairs} games', before='\n' if shown else '')
    finally:
        if shown:
            print('\r\x1b[K', end='', file=sys.stderr, flush=True)
    print('\n'.join(map(for_terminal, sprt.lines(test, baseline))))
    if options.json:
        with open(options.json, 'w', encoding='utf-8') as file:
            json.dump({**test.summary(), 'player': player, 'baseline': baseline,
                       'specs': specs, 'variants': chosen, 'seed': options.seed}, file, indent=1)
            file.write('\n')
    return 0
