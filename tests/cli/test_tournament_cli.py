"""The tournament command: its tables, files, determinism, resuming, and bad input."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
from jails import stored
from places import ROOT

import tournament as command
from command_line import run
from players.cli import check_options

pytestmark = pytest.mark.slow

HOSTILE = os.path.join(ROOT, 'tests', 'hostile_players.py')
SMALL = ['--players', 'random,ab1,ab2', '--variants', 'nim(piles=(2, 3))', 'simple-nim',
         '--move-timeout', '5']


def tournament(*args, check=True):
    """Run the tournament command with args in this process, as python tournament.py
    would (a subprocess adds nothing here but its start); return what it did: its
    returncode, stdout and stderr, having checked that it succeeded, with check."""
    done = run(*args)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def games_of(path):
    """The JSON file's games, without their timings and node counts (a player may
    keep a table between games, and a worker plays the games it is given)."""
    with open(path) as file:
        data = json.load(file)
    return [{key: value for key, value in game.items() if not key.startswith(('time_', 'nodes_'))}
            for game in data['games']]


def test_prints_every_table_with_its_columns():
    out = tournament(*SMALL, '--games', '2', '--tables', 'all').stdout
    assert out.startswith('Round robin: 3 players, 2 variants, 24 games (seed 0)')
    for title in ('Standings: nim(piles=(2, 3))', 'Standings: simple-nim', 'Crosstable',
                  'How games ended', 'Time per move', 'Forfeits', 'Score % by variant',
                  'Standings'):
        assert f'\n{title}' in out
    header = ('Rank  Player      Elo    ±    Games    W    D    L    Points    Score %    '
              'Draw %    Forfeits')
    assert out.count(header) == 2
    assert out.rstrip().splitlines()[-5].split() == [
        'Rank', 'Player', 'Elo', '±', 'Games', 'Points', 'Score', '%', 'Forfeits']
    for column in ('Normal', 'Adjudicated', 'Timeout', 'Illegal', 'Error',
                   'Opp. forfeit', 'ms/move', 'Nodes/move'):
        assert column in out
    assert tournament(*SMALL, '--format', 'github', '--tables', 'all').stdout.count(
        'Rank | Player ') == 3


def test_json_and_csv_hold_the_records_standings_and_settings(tmp_path):
    tournament(*SMALL, '--openings', '1', '--json', str(tmp_path / 'r.json'),
               '--csv', str(tmp_path / 'r.csv'))
    data = json.loads((tmp_path / 'r.json').read_text())
    assert data['settings']['players'] == ['random', 'ab1', 'ab2']
    assert len(data['games']) == 2 * 3 * 2
    for game in data['games']:
        assert {'variant', 'first', 'second', 'score', 'termination', 'detail', 'moves', 'plies',
                'seed', 'opening'} <= set(game)
        assert game['score'] in (0, 0.5, 1) and game['plies'] == len(game['moves'])
        assert game['opening'] == 1
    for one, other in zip(data['games'][::2], data['games'][1::2]):
        assert one['moves'][0] == other['moves'][0] and one['seed'] == other['seed']
    assert set(data['standings']) == {'nim(piles=(2, 3))', 'simple-nim', 'overall'}
    assert sum(row['games'] for row in data['standings']['overall']) == 2 * 12
    assert (tmp_path / 'r.csv').read_text().count('\n') == 13
    assert (tmp_path / 'r-standings.csv').read_text().startswith('variant,rank,player,elo')


def test_the_same_seed_plays_the_same_games_whatever_the_jobs(tmp_path):
    runs = []
    for jobs, seed in ((1, 7), (2, 7), (2, 8)):
        path = str(tmp_path / f'{jobs}-{seed}.json')
        tournament('--players', 'random,mcts', '--variants', 'nim(piles=(2, 3))', '--games', '3',
                   '--openings', '1', '--seed', str(seed), '--jobs', str(jobs), '--json', path)
        runs.append(games_of(path))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_a_gauntlet_plays_one_player_against_each_other(tmp_path):
    path = str(tmp_path / 'g.json')
    out = tournament(*SMALL, '--gauntlet', 'ab2', '--json', path).stdout
    assert out.startswith('Gauntlet of ab2: 3 players, 2 variants, 8 games')
    assert all('ab2' in (game['first'], game['second']) for game in games_of(path))


def test_a_killed_run_resumes_to_every_game_exactly_once(tmp_path):
    """Kill a run hard part-way, resume it, and compare with an uninterrupted run."""
    options = ['--players', 'random,ab1,ab2', '--variants', 'simple-nim', '--games', '10',
               '--openings', '2', '--jobs', '2']
    db = str(tmp_path / 'run.sqlite')
    process = subprocess.Popen([sys.executable, 'tournament.py', *options, '--db', db], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while stored(db) < 10 and process.poll() is None:
            time.sleep(0.01)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()
    assert 0 < stored(db) < 60, 'the run was not killed part-way; make it longer'
    tournament(*options, '--db', db, '--resume', '--json', str(tmp_path / 'resumed.json'))
    tournament(*options, '--json', str(tmp_path / 'whole.json'))
    with sqlite3.connect(db) as connection:
        indexes = [row[0] for row in connection.execute('SELECT "index" FROM games')]
    assert sorted(indexes) == list(range(60))
    assert games_of(tmp_path / 'resumed.json') == games_of(tmp_path / 'whole.json')


def test_ctrl_c_stops_cleanly_and_keeps_the_finished_games(tmp_path):
    folder = tmp_path / ('x' * 60) / ('y' * 60)  # its path on a line of its own, shortened
    folder.mkdir(parents=True)
    db = str(folder / 'run.sqlite')
    process = subprocess.Popen([sys.executable, 'tournament.py', '--players', 'random,ab1',
                                '--variants', 'simple-nim', '--games', '2000', '--db', db],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    while stored(db) < 10 and process.poll() is None:
        time.sleep(0.01)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    kept = stored(db)
    assert process.returncode == 130 and 'Traceback' not in err
    assert f'Interrupted after {kept} of 4000 games' in err and '--resume' in err, err
    assert 10 <= kept < 4000
    assert max(len(line) for line in (out + err).splitlines()) <= 100


@pytest.mark.parametrize('args, message', [
    (['--players', 'random,nobody'], "unknown player 'nobody'"),
    (['--players', f'random,{ROOT}/no/such/file.py:player'], 'no player file'),
    (['--players', f'random,{HOSTILE}:missing', '--strict'], "no player function 'missing'"),
    (['--players', 'random,no_such_module:player'], "cannot find module 'no_such_module'"),
    (['--players', 'random'], 'at least two players'),
    (['--players', 'randon'], "unknown player 'randon' (did you mean 'random'?); known players"),
    (['--players', 'randon,ab2'], "unknown player 'randon' (did you mean 'random'?)"),
    (['--players', 'mcst(N=3),ab2'], "unknown player 'mcst' in 'mcst(N=3)' (did you mean 'mcts'?)"),
    (['--variants', 'nim(piles=(3, 4'], 'malformed game spec'),
    (['--variants', 'chess'], "unknown variant 'chess'"),
    (['--games', '-1'], 'expected at least 1'),
    (['--openings', '-2'], 'expected at least 0'),
    (['--jobs', '0'], 'expected at least 1'),
    (['--move-timeout', '-1'], 'positive number of seconds'),
    (['--format', 'nonsense'], "unknown table format 'nonsense'"),
    (['--resume'], '--resume needs the --db'),
])
def test_bad_input_is_one_line_and_status_2(args, message):
    done = tournament(*args, check=False)
    assert done.returncode == 2 and done.stdout == ''
    assert message in done.stderr and done.stderr.count('\n') == 1, done.stderr


def test_an_unusable_db_is_refused_and_left_as_it_was(tmp_path):
    junk = tmp_path / 'junk.sqlite'
    junk.write_bytes(b'not a database, just text ' * 100)
    for db in (str(junk), str(tmp_path)):
        done = tournament(*SMALL, '--db', db, check=False)
        assert done.returncode == 2 and 'cannot use results file' in done.stderr
        assert done.stderr.count('\n') == 1
    assert junk.read_bytes() == b'not a database, just text ' * 100


def test_a_db_holding_games_is_never_written_over(tmp_path):
    db = str(tmp_path / 'run.sqlite')
    tournament(*SMALL, '--db', db)
    before = stored(db)
    done = tournament(*SMALL, '--db', db)  # run again: a ladder, every game reused
    assert 'Games: 0 to play now, 12 reused' in done.stdout
    done = tournament(*SMALL, '--games', '2', '--db', db, '--resume', check=False)
    assert done.returncode == 2 and 'different tournament' in done.stderr
    assert stored(db) == before
    assert tournament(*SMALL, '--db', db, '--resume').stdout.startswith('Round robin')


def _children(pid):
    """The process ids of a process's children (Linux)."""
    found = set()
    for task in os.listdir(f'/proc/{pid}/task'):
        with open(f'/proc/{pid}/task/{task}/children') as file:
            found.update(int(child) for child in file.read().split())
    return found


def _workers(pid):
    """The workers of a tournament process: its children forked from it, which have
    its command line, unlike its jail servers (Linux)."""
    def command(pid):
        with open(f'/proc/{pid}/cmdline', 'rb') as file:
            return file.read()
    found = []
    for child in _children(pid):
        try:
            if command(child) == command(pid):
                found.append(child)
        except OSError:  # ended meanwhile
            pass
    return found


def _jails(pid, server=False):
    """The jails below a process: the processes a jail server forked (Linux)."""
    try:
        with open(f'/proc/{pid}/cmdline', 'rb') as file:
            here = b'jail_server_main.py' in file.read()
        children = _children(pid)
    except OSError:  # ended meanwhile
        return []
    found = [pid] if server and here else []
    for child in children:
        found += _jails(child, here)
    return found


@pytest.mark.skipif(not os.path.isdir('/proc/self/task'), reason='needs Linux /proc')
@pytest.mark.parametrize('second', ['ab1', f'{HOSTILE}:stubborn'])
def test_the_workers_of_a_killed_run_end_too(tmp_path, second):
    """Each worker holds the others' pipes open, so it must notice its parent's death
    itself, even while a player hangs in it."""
    db = str(tmp_path / 'run.sqlite')
    process = subprocess.Popen([sys.executable, 'tournament.py', '--players', f'random,{second}',
                                '--variants', 'simple-nim', '--games', '2000', '--jobs', '2',
                                '--move-timeout', '60', '--db', db], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60  # the workers start late on a busy machine
    while len(_workers(process.pid)) < 2 and process.poll() is None \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    while 'stubborn' in second and process.poll() is None and time.monotonic() < deadline \
            and not all(len(_jails(worker)) >= 2 for worker in _workers(process.pid)):
        time.sleep(0.05)  # each worker's game under way, in two jails
    if 'stubborn' in second:
        time.sleep(0.2)  # the stubborn player hangs in its move
    while stored(db) < 10 and process.poll() is None and 'stubborn' not in second:
        time.sleep(0.01)
    workers = _workers(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert len(workers) == 2
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(os.path.exists(f'/proc/{w}') for w in workers):
        time.sleep(0.1)
    alive = [w for w in workers if os.path.exists(f'/proc/{w}')
             and open(f'/proc/{w}/stat').read().split()[2] != 'Z']
    assert not alive, 'workers outlived their killed parent'


@pytest.mark.parametrize('source, message', [
    ('import os\nos._exit(0)\n', 'its process exited with status 0'),
    ('import time\ntime.sleep(60)\n', 'did not load within 2 s'),
])
def test_a_file_that_exits_or_hangs_as_it_loads_is_refused_if_strict(tmp_path, source, message):
    path = tmp_path / 'bad.py'
    path.write_text(source + 'def player(game, state):\n    return game.actions(state)[0]\n')
    done = tournament('--players', f'random,{path}', '--variants', 'simple-nim',
                      '--move-timeout', '0.5', '--strict', check=False)
    assert done.returncode == 2 and done.stdout == ''
    assert message in done.stderr and done.stderr.count('\n') == 1, done.stderr


def test_a_file_printing_as_it_loads_leaves_the_tables_clean(tmp_path):
    path = tmp_path / 'loud.py'
    path.write_text('import os, sys\nprint("junk")\nos.write(1, b"raw junk\\n")\n'
                    'os.write(2, b"raw junk\\n")\n'
                    'def player(game, state):\n    return game.actions(state)[0]\n')
    done = tournament('--players', f'random,{path}', '--variants', 'simple-nim')
    assert done.stdout.startswith('Round robin') and 'junk' not in done.stdout + done.stderr


@pytest.mark.parametrize('option', ['--json', '--csv'])
def test_an_output_file_that_is_a_folder_or_the_db_is_refused_before_play(tmp_path, option):
    db = tmp_path / 'run.sqlite'
    for path, message in ((tmp_path, 'is a folder'), (db, 'write over the --db file')):
        done = tournament(*SMALL, '--db', str(db), option, str(path), check=False)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert done.stderr.count('\n') == 1 and not db.exists()


def test_a_db_of_another_program_is_refused_and_left_as_it_was(tmp_path):
    db = tmp_path / 'grades.sqlite'
    with sqlite3.connect(db) as connection:
        connection.execute('CREATE TABLE grades (student TEXT, mark REAL)')
    before = db.read_bytes()
    done = tournament(*SMALL, '--db', str(db), check=False)
    assert done.returncode == 2 and 'not a tournament results file' in done.stderr
    assert done.stderr.count('\n') == 1 and db.read_bytes() == before


@pytest.mark.skipif(not os.path.isdir('/proc/self/task'), reason='needs Linux /proc')
def test_ctrl_c_while_players_load_stops_at_once(tmp_path):
    path = tmp_path / 'slow.py'
    path.write_text('import time\ntime.sleep(60)\n'
                    'def player(game, state):\n    return game.actions(state)[0]\n')
    process = subprocess.Popen([sys.executable, 'tournament.py', '--players', f'random,{path}'],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    deadline = time.monotonic() + 60  # the players' jails start late on a busy machine
    while not _jails(process.pid) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _jails(process.pid), 'no player was loading'
    time.sleep(0.2)  # the slow player's jail is loading it
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=20)  # at once: well before the player's 60 s
    except subprocess.TimeoutExpired:
        seen = _signals_and_threads(process.pid)
        process.kill()
        out, err = process.communicate()
        pytest.fail(f'still running 20 s after Ctrl-C; {seen}; it wrote {out!r} {err!r}')
    assert process.returncode == 130 and 'Traceback' not in err and out == ''


def _signals_and_threads(pid):
    """What a process does with signals (its masks, from /proc) and what each of its
    threads waits in, for the message of a run that did not stop."""
    with open(f'/proc/{pid}/status') as file:
        masks = [line.strip() for line in file if line.startswith(('SigBlk', 'SigIgn', 'SigCgt'))]
    waits = []
    for task in os.listdir(f'/proc/{pid}/task'):
        with open(f'/proc/{pid}/task/{task}/wchan') as file:
            waits.append(file.read() or '-')
    return f'{", ".join(masks)}; its threads wait in {", ".join(waits)}'


def test_a_variant_given_twice_in_different_spellings_is_played_once():
    out = tournament('--players', 'random,ab1', '--variants', 'nim', 'nim(piles=(3,4,5))',
                     'nim(piles=(2, 2))', 'nim(piles=(2,2))').stdout
    assert out.startswith('Round robin: 2 players, 2 variants, 4 games')


def test_the_standings_csv_may_not_write_over_the_db(tmp_path):
    db = tmp_path / 'r-standings.csv'
    done = tournament(*SMALL, '--db', str(db), '--csv', str(tmp_path / 'r.csv'), check=False)
    assert done.returncode == 2 and 'write over the --db file' in done.stderr
    assert not db.exists()


def test_the_bundle_writes_back_every_grading_option_it_was_given():
    """The autograder a bundle holds must grade as check would with the same options."""
    parser = command.build_parser()
    given = parser.parse_args(['gradescope-bundle', 'a.zip', '--functions',
                               'player,minmax_decision', '--variants', 'nim',
                               'nim(piles=(2, 3))', '--timeout', '2.5',
                               '--move-timeout', '3', '--player-budget', '30', '--memory', '512',
                               '--allow-reference', '--anchors', 'random=0,ab2=70.5',
                               '--sandbox', 'process', '--cases', 'cases.json',
                               '--allow', 'numpy', '--submission-mb', '2.5',
                               '--submission-files', '30', '--game', 'GameOfNim(board=[3, 1])',
                               '--reference', 'solution.py:GameOfNim', '--game-positions',
                               '(0, 1)', '(0, 3); (1, 1)'])
    words = check_options.command_line(given)
    again = parser.parse_args(['gradescope-bundle', 'a.zip', *words])
    for option in check_options.OPTIONS:
        if option.bundled:  # the bundle carries --cases's and --reference's files itself
            assert getattr(again, option.dest) == getattr(given, option.dest), option.flag
    assert '--cases' not in words and '--reference' not in words
    default = parser.parse_args(['gradescope-bundle', 'a.zip'])
    assert check_options.command_line(default) == [
        '--timeout', '10', '--move-timeout', '10', '--player-budget', '60',
        '--memory', str(default.memory), '--sandbox', 'auto', '--submission-mb', '32',
        '--submission-files', '1000']


def test_a_round_robin_starts_without_the_graders_and_the_benchmarks_modules():
    """Their commands import them, and add the options that need them when they are used."""
    code = ('import sys, tournament; tournament.build_parser().parse_args(["--games", "1"]); '
            'print(sorted(name for name in sys.modules '
            'if name.startswith(("players.grading", "players.bench"))))')
    done = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True, text=True)
    assert done.stdout.strip() == '[]', done.stderr
    args = command.build_parser().parse_args(['tree', 'nim', '--algorithm', 'minimax'])
    assert args.algorithm == 'minimax' and args.run is command.cmd_tree


def test_every_line_the_commands_print_is_within_100_columns(tmp_path):
    """list, check of a student's file, a short tournament (the file among its players,
    unable to play), games, replay and play at the keyboard print no line on stdout or
    stderr wider than 100 columns, in a folder with a long name."""
    folder = tmp_path / 'the-submissions-of-a-class-in-a-folder-with-a-long-name'
    folder.mkdir()
    mine, db = folder / 'mine.py', str(folder / 'class.sqlite')
    mine.write_text(open(os.path.join(ROOT, 'tests', 'students', 'no_alpha_update.py')).read())
    done = [run('list'),
            run('check', str(mine), '--functions', 'alpha_beta_search', '--variants', 'nim',
                '--sandbox', 'process'),
            run('--players', f'random,ab1,{mine}', '--variants', 'simple-nim', '--db', db,
                '--sandbox', 'process', '--jobs', '2'),
            run('games', '--db', db), run('replay', '--db', db, '0'),
            run('replay', '--db', db, '2'),
            run('play', 'tictactoe', 'human', 'ab1', stdin='2 2\n1 1\n3 3\n1 3\n3 1\n1 2\n')]
    assert [result.returncode for result in done] == [0, 1, 0, 0, 0, 0, 0], done
    assert 'mine: cannot play' in done[2].stdout and 'cannot play' in done[5].stdout
    for result in done:
        wide = [line for line in (result.stdout + result.stderr).splitlines() if len(line) > 100]
        assert not wide, (result.args, wide)
