"""Tournaments on a Dask cluster of worker processes on this machine: the same games
as on one machine, a worker killed mid-run costs no game and no forfeit, a killed
run on a LocalCluster resumes, and without Dask's package --executor dask says
what to install."""

import importlib.util
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from functools import partial

import pytest
from places import ROOT
from jails import adopting_orphans, stored

import players
import variants
from games import referee
from players.remote import player_code
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.runner import run
from players.tournaments.schedule import schedule
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
from players.tournaments.workers import WorkerPool
import command_line

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(ROOT, 'tests', 'hostile_players.py')
QUIET = dict(cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
needs_dask = pytest.mark.skipif(importlib.util.find_spec('distributed') is None,
                                reason="needs Dask's distributed: pip install -e '.[dask]'")
VARIANTS = ['tictactoe', 'dice-nim']
RULES = Rules(openings=1, move_timeout=5, sandbox='process')
SLOW_PLAYER = '''import time


def player(game, state):
    """Play the first legal move, after a while, so that games last long enough to be cut."""
    time.sleep(0.03)
    return game.actions(state)[0]
'''


@pytest.fixture(scope='module')
def codes(tmp_path_factory):
    """The players: a file player that takes its time, one that plays with the
    random module (seeded per game), and a registry player."""
    slow = tmp_path_factory.mktemp('players') / 'slow.py'
    slow.write_text(SLOW_PLAYER)
    return {name: player_code.read_player(name) for name in (str(slow), f'{HOSTILE}:lucky', 'ab2')}


def play(executor, codes, db, in_flight=4, progress=lambda: None):
    """Play the round robin of the players on VARIANTS with executor; return the
    games played and the stored records."""
    job = partial(play_scheduled_game, rules=RULES, players=codes, make_game=variants.make,
                  load_player=players.load_player)
    store = Store(str(db), RunSettings(players=()))
    with executor:
        played = run(schedule(list(codes), VARIANTS, 1, seed=5), job, executor, store,
                     in_flight, progress)
    records = list(store.records())
    store.close()
    return played, records


def outcome(game):
    """A game's result (a record as plain data), without its timings."""
    return {key: value for key, value in game.items()
            if not key.startswith(('time_', 'nodes_'))}


@pytest.fixture(scope='module')
def cluster_tmp(tmp_path_factory):
    """The temporary folder (TMPDIR) of the cluster's processes."""
    return tmp_path_factory.mktemp('cluster_tmp')


@pytest.fixture(scope='module')
def cluster(tmp_path_factory, cluster_tmp):
    """The scheduler file of a cluster on this machine, started as on several machines
    (see docs/tournaments.md): `dask scheduler`, and `dask worker` with two worker
    processes of one thread each. (In other processes than the tests', which must
    leave no process behind, and start no thread before they fork.) They start
    while the tests go on: see scheduler."""
    pytest.importorskip('distributed')
    file = str(tmp_path_factory.mktemp('dask') / 'scheduler.json')
    dask = [sys.executable, '-m', 'dask']
    quiet = {**QUIET, 'env': {**os.environ, 'TMPDIR': str(cluster_tmp)}}
    started = [subprocess.Popen(dask + ['scheduler', '--port', '0', '--dashboard-address', ':0',
                                        '--scheduler-file', file], **quiet)]
    started.append(subprocess.Popen(dask + ['worker', '--scheduler-file', file, '--nworkers', '2',
                                            '--nthreads', '1', '--no-dashboard'], **quiet))
    try:
        yield file
    finally:
        for process in reversed(started):
            process.terminate()
            process.wait(timeout=30)


@pytest.fixture(scope='module')
def local_games(codes, tmp_path_factory, cluster):
    """The games as the local executor plays them (its processes forked before the
    cluster's threads start, as tests request it first; the cluster's processes
    start meanwhile)."""
    _, records = play(WorkerPool(2, hard_timeout=30), codes,
                      tmp_path_factory.mktemp('local') / 'games.sqlite')
    return [outcome(record.plain()) for record in records]


@pytest.fixture(scope='module')
def scheduler(cluster):
    """The address of the cluster's scheduler, once both its workers are up (this
    starts the tests' threads that talk to it)."""
    distributed = pytest.importorskip('distributed')
    with distributed.Client(scheduler_file=cluster, timeout=60, set_as_default=False) as client:
        client.wait_for_workers(2, timeout=60)
        return client.scheduler.address


@needs_dask
def test_a_cluster_plays_the_same_games_as_one_machine(codes, local_games, scheduler, tmp_path):
    from players.tournaments.cluster import DaskExecutor
    executor = DaskExecutor(scheduler, hard_timeout=30)
    assert executor.slots() == 2
    played, records = play(executor, codes, tmp_path / 'games.sqlite')
    assert played == len(local_games) == 12
    assert [outcome(record.plain()) for record in records] == local_games


@needs_dask
def test_a_worker_killed_mid_game_costs_no_game_and_no_forfeit(codes, local_games, scheduler,
                                                               cluster_tmp, tmp_path):
    """And it leaves nothing in the temporary folder but Dask's own scratch space
    (where Dask clears the folders of killed workers as it next starts one) and
    the folders of the jail servers still running (their name holds their pid)."""
    import distributed
    from players.tournaments.cluster import DaskExecutor
    killed = []
    with adopting_orphans(), distributed.Client(scheduler, set_as_default=False) as client:
        client.wait_for_workers(2)

        def kill_a_busy_worker():
            """After the first game, kill a worker process that is playing one."""
            if killed:
                return
            busy = [worker for worker, keys in client.processing().items() if keys]
            pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

        played, records = play(DaskExecutor(scheduler, hard_timeout=30), codes,
                               tmp_path / 'games.sqlite', progress=kill_a_busy_worker)
    assert killed and not alive(killed[0])
    left = [name for name in os.listdir(cluster_tmp) if name != 'dask-scratch-space'
            and not (name.startswith('jail-server-') and alive(int(name.split('-')[2])))]
    assert not left, 'the killed worker left these behind'
    assert played == len(records) == 12, 'a game was lost or stored twice'
    assert all(record.termination == referee.NORMAL for record in records)
    assert [outcome(record.plain()) for record in records] == local_games


@needs_dask
def test_a_player_that_dies_or_hangs_on_a_worker_forfeits_as_on_one_machine(scheduler, tmp_path):
    from players.tournaments.cluster import DaskExecutor
    codes = {name: player_code.read_player(f'{HOSTILE}:{name}')
             for name in ('dies', 'sleeps', 'first')}
    job = partial(play_scheduled_game, rules=Rules(move_timeout=0.5, sandbox='process'),
                  players=codes, make_game=variants.make, load_player=players.load_player)
    store = Store(str(tmp_path / 'games.sqlite'), RunSettings(players=()))
    with DaskExecutor(scheduler, hard_timeout=30) as executor:
        run(schedule(list(codes), ['nim(piles=(2, 3))'], 1, seed=0), job, executor, store, 4)
    records = list(store.records())
    store.close()
    assert len(records) == 6
    for record in records:
        seats = [record.first, record.second]
        loser = seats[0] if 'first' not in seats else seats[1 - seats.index('first')]
        assert record.forfeit == loser, 'the first hostile player to move forfeits'
        if loser == 'sleeps':
            assert record.termination == referee.TIMEOUT
        else:
            assert record.termination == referee.ERROR
            assert 'exited with status 7' in record.detail


def tournament(*args):
    """Run python tournament.py with args; return the finished process."""
    done = subprocess.run([sys.executable, 'tournament.py', *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done


def games_of(path):
    """The JSON file's games, without their timings."""
    with open(path) as file:
        return [outcome(game) for game in json.load(file)['games']]


def descendants(pid):
    """The processes below pid."""
    found = []
    for task in os.listdir(f'/proc/{pid}/task'):
        with open(f'/proc/{pid}/task/{task}/children') as file:
            for child in map(int, file.read().split()):
                found += [child, *descendants(child)]
    return found


def alive(pid):
    """Whether pid is a process that has not ended."""
    try:
        with open(f'/proc/{pid}/stat') as file:
            return file.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


@needs_dask
def test_a_killed_run_on_a_cluster_resumes_to_the_same_games(scheduler, tmp_path):
    """Kill the main process of a run on its own LocalCluster hard, part-way: its
    cluster ends with it, and the run resumes (here on another cluster) to the
    games of an uninterrupted local run."""
    options = ['--players', 'random,ab1,ab2', '--variants', 'simple-nim', '--games', '3',
               '--openings', '2', '--sandbox', 'process']
    db = str(tmp_path / 'run.sqlite')
    whole = subprocess.Popen([sys.executable, 'tournament.py', *options, '--json',  # meanwhile
                              str(tmp_path / 'whole.json')], **QUIET)
    try:
        killed_and_resumed(options, db, scheduler, tmp_path)
    finally:
        status = whole.wait(timeout=120)
    assert status == 0, 'the uninterrupted run failed'
    with sqlite3.connect(db) as connection:
        indexes = [row[0] for row in connection.execute('SELECT "index" FROM games')]
    assert sorted(indexes) == list(range(18))
    assert games_of(tmp_path / 'resumed.json') == games_of(tmp_path / 'whole.json')


def killed_and_resumed(options, db, scheduler, folder):
    """Run the tournament of options on db, on its own LocalCluster, kill it part-way
    and check that its cluster ends with it; resume it on scheduler, with its JSON
    in folder/resumed.json."""
    with open(folder / 'stderr', 'w+') as stderr:
        process = subprocess.Popen([sys.executable, 'tournament.py', *options, '--db', db,
                                    '--executor', 'dask', '--jobs', '1'], cwd=ROOT,
                                   stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            while stored(db) < 4 and process.poll() is None:
                time.sleep(0.01)
            below = descendants(process.pid)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait()
        stderr.seek(0)
        assert 0 < stored(db) < 18, f'the run was not killed part-way: {stderr.read()}'
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(map(alive, below)):
        time.sleep(0.1)
    assert not [pid for pid in below if alive(pid)], 'the cluster outlived its killed run'
    resumed = tournament(*options, '--db', db, '--resume', '--executor', 'dask',
                         '--scheduler', scheduler, '--json', str(folder / 'resumed.json'))
    assert 'Playing on the Dask scheduler at' in resumed.stderr


def test_a_local_run_never_imports_dask():
    """Not even where the jails' preloading imports every module of the project (as root)."""
    code = ('import sys, tournament; tournament.main(sys.argv[1:]); '
            'print("distributed" in sys.modules)')
    done = subprocess.run([sys.executable, '-c', code, '--players', 'random,ab1', '--variants',
                           'simple-nim', '--jobs', '1'], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.stdout.splitlines()[-1] == 'False', done.stderr


@pytest.mark.parametrize('args, message', [
    (['--executor', 'dask'], "--executor dask needs Dask's distributed"),
    (['--scheduler', 'tcp://127.0.0.1:8786'], '--scheduler is for --executor dask'),
])
def test_without_dask_or_without_its_executor_the_error_says_what_to_do(tmp_path, monkeypatch,
                                                                        args, message):
    monkeypatch.setitem(sys.modules, 'distributed', None)  # as if it were not installed
    done = command_line.run('--players', 'random,ab1', '--db', str(tmp_path / 'run.sqlite'), *args)
    assert done.returncode == 2 and done.stdout == ''
    assert done.stderr.count('\n') == 1 and message in done.stderr, done.stderr
    assert 'aima-games[dask]' in done.stderr or '--scheduler' in message
    assert not os.path.exists(tmp_path / 'run.sqlite')


@needs_dask
def test_a_malformed_scheduler_address_is_a_one_line_error():
    done = command_line.run('--players', 'random,ab1', '--executor', 'dask', '--scheduler',
                            'nonsense')
    assert done.returncode == 2 and done.stderr.count('\n') == 1
    assert "'nonsense' is no Dask scheduler address" in done.stderr
