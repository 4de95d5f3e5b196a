"""The benchmark: cold starts in fresh processes, every solver's value agrees, slow
solvers are stopped, Connect Four's random positions are as Pons' are, bad options refused;
and every script the README and docs/ tell people to run (the benchmark scripts
among them) starts."""

import ast
import glob
import importlib
import inspect
import os
import re
import subprocess
import sys
import time

import pytest
from places import ROOT

from games import Nim
from games.grid import ConnectFour, TicTacToe
from players.bench import speed as bench
from command_line import run

pytestmark = pytest.mark.slow

BENCHMARKS = sorted(os.path.relpath(path, ROOT) for path in
                    glob.glob(os.path.join(ROOT, 'players', 'bench', 'benchmark_*.py')))
"""The benchmark scripts, run by hand and by no other test."""
MANUAL = [os.path.join(ROOT, 'README.md'), *sorted(glob.glob(os.path.join(ROOT, 'docs', '*.md')))]
"""The README and the pages of docs/."""
NAMED = {path for page in MANUAL for path in
         re.findall(r'\bpython3? ((?:[\w-]+/)*[\w-]+\.py)\b', open(page, encoding='utf-8').read())}
"""Every script the README and docs/ tell people to run, as `python path/to/script.py`."""
SCRIPTS = sorted(set(BENCHMARKS) | {path for path in NAMED
                                    if os.path.isfile(os.path.join(ROOT, path))})
"""Every script the README and docs/ tell people to run, and every benchmark script."""


def test_a_cold_run_is_a_fresh_process_that_has_never_searched():
    value, nodes, seconds = bench.cold(bench._engine, (Nim((1, 2)),), limit=30)
    assert (value, nodes) == (1, bench._engine(Nim((1, 2)))[1]) and 0 < seconds < 30
    # In this process the engine has searched, and its tables are warm; there they were not.
    outcome = bench.cold(_tables_in_use, (), limit=30)
    assert outcome[0] == 0


def _tables_in_use(*args):
    from players.search import shared
    return len(shared._TABLES), None


def test_every_solver_agrees_on_small_positions():
    positions = [('nim', Nim((1, 2, 3))), ('misère nim', Nim((1, 2, 2), misere=True)),
                 ('ttt', TicTacToe(3, 3, 3))]
    for name, measures in bench.run(limit=20, positions=positions, run=bench.timed):
        rows = bench.rows(name, measures)
        assert rows[0][:2] == [name, bench.ENGINE]
        for row in rows:
            assert row[-1] == 'yes' or 'not installed' in row[-1], row


def forever(game):
    while True:
        time.sleep(0.01)


def test_a_slow_solver_is_stopped():
    measure = bench.measure('slow', forever, Nim((1,)), limit=0.2, run=bench.timed)
    assert measure.value is None and 'stopped after 0.2 s' in measure.note
    # The engine is faster than a stopped solver by at least the limit over its own time.
    ours = bench.Measure(bench.ENGINE, 1, 10, 0.001, '')
    row = bench.rows('nim', [ours, measure])[1]
    assert row[1] == 'slow' and row[-2] == '> 200x' and row[-1] == 'stopped after 0.2 s'


def test_bench_refuses_a_bad_limit():
    done = run('bench', '--limit', 'soon')
    assert done.returncode == 2 and 'expected seconds' in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_checking_a_value_is_not_timed(monkeypatch):
    # The textbook's value is checked by the engine after the clock stops, not on its time:
    # each reading of this clock takes one second, and the check reads it once.
    clock = iter(range(100))
    monkeypatch.setattr(bench.time, 'perf_counter', lambda: next(clock))

    def solver(game):
        return (lambda: bench.time.perf_counter() and 1), 5
    assert bench.timed(solver, (Nim((1,)),), limit=5) == (1, 5, 1)


def test_connect_four_positions_are_random_unfinished_and_not_won_at_once():
    game = ConnectFour()
    positions = bench.connect_four_positions(12, count=10)
    assert positions == bench.connect_four_positions(12, count=10)
    assert len({columns for columns, _ in positions}) == 10
    for columns, state in positions:
        assert len(columns) == 12 == len(state.board) and not game.terminal_test(state)
        replayed = game.initial
        for column in columns:
            replayed = game.result(replayed, game.parse_move(column, replayed))
        assert replayed == state
        assert all(game.utility(game.result(state, move), state.to_move) == 0
                   for move in game.actions(state))


def test_connect_four_table_gives_the_median_beside_pons():
    result = bench.ConnectFourSet(28, [1, 0, -1, -1], [1e-4, 2e-4, 3e-4, 4e-4], [5, 6, 7, 8], 1)
    row = bench.connect_four_row(result)
    assert row == [28, '2 µs', '250 µs', '125x', '400 µs', '6', '4/5', '1W 1D 2L']
    sets = list(bench.run_connect_four(limit=10, sets=(36,), count=3, run=bench.timed))
    assert len(sets[0].values) == 3 and sets[0].stopped == 0
    assert all(value in (-1, 0, 1) for value in sets[0].values)



def test_perft_rows_show_each_sides_best_run_taken_in_turns():
    from players.bench import boards
    seconds = {'_ours': [0.4, 0.2, 0.3], '_openspiel': [0.1, 0.3, 0.2]}
    calls = []

    def run(solve, args, limit):
        calls.append(solve.__name__)
        turn = calls.count(solve.__name__) - 1
        return 1000, None, seconds[solve.__name__][turn % 3]
    rows = boards.run_perft(run=run)
    assert calls[:4] == ['_ours', '_openspiel', '_ours', '_openspiel']
    assert len(calls) == 2 * 3 * len(boards.PERFT)
    assert rows[0][2:] == ['1,000', '100', '200', '2.0×', 'yes']

def test_the_docs_name_every_benchmark_script():
    assert BENCHMARKS and set(BENCHMARKS) <= NAMED, set(BENCHMARKS) - NAMED


@pytest.mark.parametrize('script', SCRIPTS)
def test_every_script_starts(script):
    """Run as the docs run it, so its imports run as they do for a user; --help
    then stops it (a player program reads an empty input and stops)."""
    done = subprocess.run([sys.executable, script, '--help'], cwd=ROOT, capture_output=True,
                          stdin=subprocess.DEVNULL, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == '', done.stderr


def _from_import(module: str, name: str):
    """What `from module import name` gives: the module's attribute, else its
    submodule of that name (imported then, as Python imports it)."""
    found = importlib.import_module(module)
    if hasattr(found, name):
        return getattr(found, name)
    return importlib.import_module(f'{module}.{name}')


@pytest.mark.parametrize('script', BENCHMARKS)
def test_every_name_a_benchmark_script_takes_from_a_module_is_there(script):
    """What --help does not reach: each module.name the script uses, where module is
    one it imports, names something of that module (a function moved away does not)."""
    with open(os.path.join(ROOT, script)) as file:
        tree = ast.parse(file.read())
    imported = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name if alias.asname else alias.name.split('.')[0]
                imported[alias.asname or name] = importlib.import_module(name)
        elif isinstance(node, ast.ImportFrom):
            for alias in node.names:
                value = _from_import(node.module, alias.name)
                if inspect.ismodule(value):
                    imported[alias.asname or alias.name] = value
    missing = [f'{node.value.id}.{node.attr}' for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
               and node.value.id in imported and not hasattr(imported[node.value.id], node.attr)]
    assert not missing


def test_pons_medians_are_read_from_his_solver_s_lines(tmp_path):
    solver = tmp_path / 'c4solver'
    solver.write_text('#!/bin/sh\nwhile read line; do echo "$line -1 7 ${#line}"; done\n')
    solver.chmod(0o755)
    assert bench.pons_medians(str(solver), sets=(12, 14), count=3) == {12: 12e-6, 14: 14e-6}
    result = bench.ConnectFourSet(12, [1], [3e-4], [5], 0)
    assert bench.connect_four_row(result, {12: 12e-6})[1:4] == ['12 µs', '300 µs', '25x']


def test_the_goals_table_puts_each_measure_beside_its_anchor_and_says_if_it_is_met():
    from players.bench import goals
    from players.bench.speed import ENGINE, TEXTBOOK, ConnectFourSet, Measure
    measures = [Measure(ENGINE, 1, 30, 0.001, ''), Measure(TEXTBOOK, 1, 900, 0.5, ''),
                Measure('easyAI Negamax + TT', 1, 90, 0.02, ''),
                Measure('OpenSpiel alpha_beta_search', 1, 90, 0.04, '')]
    row = goals.start_row('Nim', measures)  # the fastest peer is the anchor, not the textbook
    assert row[1].startswith('easyAI') and row[3] == '20x faster' and row[-1] == 'NOT MET'
    assert goals.start_row('Nim', measures[:2]) is None  # no peer, no goal
    shallow = ConnectFourSet(32, [1, 0, -1], [30e-6, 35e-6, 40e-6], [2, 3, 4], 0)
    assert goals.connect_four_row(shallow, {32: 3e-6}, 'issue 13')[-1] == 'NOT MET'  # 12x
    assert goals.connect_four_row(shallow, {32: 3.5e-6 * 10}, 'here')[-1] == 'met'
    perft = ['Kalah 6 pits, 4 seeds', 8, '1,000', '510', '1,004', '2.0×', 'yes']
    assert goals.perft_row(perft)[-1] == 'met'
    assert goals.perft_row([*perft[:5], '2.4×', 'yes'])[-1] == 'NOT MET'
