"""The terminal report (shared ranks, widths, forfeits with reasons, the header first),
the game records in the store, and the games and replay commands."""

import json
import os
import sqlite3
import subprocess
import sys
from dataclasses import replace

import pytest
from places import ROOT

from games import Nim
from games.grid import ConnectFour, TicTacToe
from players.reports import text_report, standings
from players.reports.replay import replay
from players.tournaments.results import Results
from players.tournaments import ranking
from players.tournaments.record import GameRecord
from players.tournaments.run_settings import RunSettings
from players.tournaments.store import Store
import command_line

pytestmark = pytest.mark.slow


def run(*args, check=True):
    """Run the command line with args in this process and return what it did."""
    done = command_line.run(*args)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def record(index, first, second, score, variant='nim', forfeit=None, termination='normal',
           detail=''):
    """A game record as the store keeps it, with no moves."""
    return GameRecord(index=index, variant=variant, first=first, second=second,
                      first_spec=first, second_spec=second, pair=0, leg=index % 2,
                      seed=1, score=score, termination=termination, detail=detail,
                      forfeit=forfeit, moves=[], opening=0, plies=0, time_first=0.0,
                      time_second=0.0, moves_first=0, moves_second=0, nodes_first=None,
                      nodes_second=None)


def test_players_with_the_same_rating_and_record_share_a_rank():
    """A and B each beat C and D twice and draw each other; C and D likewise draw
    each other. The Bradley-Terry fit is symmetric in A and B (and in C and D), so
    they must tie: ranks 1, 1, 3, 3."""
    games, index = [], 0
    for a, b, score in [('A', 'C', 1), ('A', 'D', 1), ('B', 'C', 1), ('B', 'D', 1),
                        ('A', 'B', 0.5), ('C', 'D', 0.5)]:
        for first, second, points in ((a, b, score), (b, a, 1 - score)):
            games.append(record(index, first, second, points))
            index += 1
    rows = ranking.standings(Results('ABCD', ['nim']).add_all(games))
    assert [(row.player, row.rank) for row in rows] == [('A', 1), ('B', 1), ('C', 3), ('D', 3)]
    assert rows[0].elo == rows[1].elo > 0 > rows[2].elo == rows[3].elo


def class_results(players=24, variants=('simple-nim', 'nim', 'misere-nim', 'nim-limit',
                                        'split-nim', 'tictactoe')):
    """Results of a round robin of players with long names, the first player
    forfeiting some games for four kinds of fault."""
    names = [f'student{number:02d}' for number in range(players)]
    faults = ["TypeError: 'int' object is not subscriptable", 'no move within 10 s',
              'IllegalMoveError: illegal move (9, 9)', 'ZeroDivisionError: division by zero']
    results, index = Results(names, variants), 0
    for variant in variants:
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                if first == names[0] and index % 3 == 0:
                    fault = faults[index % 4]
                    termination = 'timeout' if fault.startswith('no move') else 'error'
                    results.add(record(index, first, second, 0, variant, first, termination,
                                       fault + f' (game {index})' * fault.startswith('Type')))
                else:
                    results.add(record(index, first, second, (index % 3) / 2, variant))
                index += 1
    return results


def test_the_default_report_of_24_players_fits_100_columns_and_ends_with_the_standings():
    results = class_results()
    by_variant = standings.graded_standings(results)
    out = text_report.body(results, by_variant)
    lines = out.splitlines()
    assert max(map(len, lines)) <= 100
    assert 'Crosstable' not in out and 'Standings: nim' not in out  # too wide, too long
    assert lines[-28] == 'Standings' and len(lines) < 140
    assert lines[-26].split() == ['Rank', 'Player', 'Elo', '±', 'Games', 'Points', 'Score',
                                  '%', 'Forfeits']
    asked = text_report.body(results, by_variant, shown={'crosstable'})
    assert 'Crosstable' in asked and 'Time per move' not in asked


def test_forfeits_are_listed_with_their_reasons_and_the_rest_counted():
    results = class_results(players=12, variants=('nim',))  # forfeits in games 0, 3, 6, 9
    rows = standings.forfeit_rows(results, results.players)
    player, ending, games, first_game, reason = rows[0]
    assert (player, ending) == ('student00', 'error') and games >= 1
    assert reason.startswith("TypeError: 'int' object is not subscriptable (game ")
    assert first_game == 0 and [row[3] for row in rows[1:-1]] == [3, 6]
    assert len(rows) == standings.FORFEIT_REASONS + 1
    assert rows[-1][1:] == ('', 1, None, 'more, for other reasons')
    out = text_report.body(results, standings.graded_standings(results))
    assert '\nForfeits' in out and 'ZeroDivisionError' in out and 'no move within' not in out


def test_parse_tables():
    assert text_report.parse_tables('auto') == 'auto'
    assert text_report.parse_tables('all') == set(text_report.OPTIONAL_TABLES)
    assert text_report.parse_tables('crosstable, speed') == {'crosstable', 'speed'}
    with pytest.raises(ValueError, match='unknown table chart'):
        text_report.parse_tables('chart')


def test_the_header_shows_before_the_games_are_played(tmp_path):
    slow = tmp_path / 'slow.py'
    slow.write_text('import time\ndef player(game, state):\n    time.sleep(0.3)\n'
                    '    return game.actions(state)[0]\n')
    process = subprocess.Popen([sys.executable, 'tournament.py', '--players', f'ab1,{slow}',
                                '--variants', 'nim(piles=(1, 1))', '--jobs', '1'], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    still_running = process.poll() is None
    rest = process.communicate(timeout=60)[0]
    assert first.startswith('Round robin: 2 players, 1 variant, 2 games (seed 0)')
    assert still_running and rest.rstrip().splitlines()[-4].split()[:2] == ['Rank', 'Player']


def test_every_line_of_the_report_fits_in_100_columns_whatever_the_db_path(tmp_path):
    long = tmp_path / ('x' * 60) / ('y' * 60)
    long.mkdir(parents=True)
    done = run('--players', 'random,ab1', '--variants', 'simple-nim', '--jobs', '1',
               '--db', str(long / 'default.sqlite'))
    lines = (done.stdout + done.stderr).splitlines()
    assert max(map(len, lines)) <= text_report.WIDTH and 'default.sqlite' in done.stdout
    db = '/tmp/pytest-of-someone/pytest-12/test_a_long_name_of_a_test0/default.sqlite'
    header = text_report.header(RunSettings(players=('ab1',) * 40, variants=('nim',)), 3864,
                                0, db)
    assert max(map(len, header.splitlines())) <= text_report.WIDTH and f'\n  {db}\n' in header


@pytest.fixture(scope='module')
def stored_run(tmp_path_factory):
    """A small stored run with a player that forfeits: (the --db path, its JSON)."""
    folder = tmp_path_factory.mktemp('run')
    broken = folder / 'broken.py'
    broken.write_text('def player(game, state):\n    if len(game.actions(state)) < 7:\n'
                      "        raise TypeError('no thanks')\n    return game.actions(state)[0]\n")
    db, path = str(folder / 'run.sqlite'), str(folder / 'run.json')
    run('--players', f'ab2,{broken},random', '--variants', 'tictactoe', 'connect4(h=10, v=4)',
        '--openings', '2', '--db', db, '--json', path)
    with open(path) as file:
        return db, json.load(file)


def test_games_lists_the_stored_games_by_player_variant_result_and_ending(stored_run):
    db, data = stored_run
    listed = run('games', '--db', db).stdout
    assert len(listed.split('\n\n')[0].splitlines()) == len(data['games']) + 2
    forfeits = run('games', '--db', db, '--player', 'broken', '--ending', 'forfeit').stdout
    expected = [game for game in data['games'] if game['forfeit'] == 'broken']
    assert expected and f'{len(expected)} games;' in forfeits and 'TypeError: no thanks' in forfeits
    wins = run('games', '--db', db, '--player', 'ab2', '--result', 'win',
               '--variant', 'ttt').stdout
    won = [game['index'] for game in data['games'] if game['variant'] == 'tictactoe' and (
        game['first'] == 'ab2' and game['score'] == 1 or
        game['second'] == 'ab2' and game['score'] == 0)]
    assert [int(line.split()[0]) for line in wins.splitlines()[2:2 + len(won)]] == won


def test_games_of_a_player_ending_in_a_forfeit_are_those_it_forfeited(stored_run):
    """random's opponent broken forfeits against it: those are broken's forfeits, not random's."""
    db, data = stored_run
    against = [game['index'] for game in data['games']
               if game['forfeit'] == 'broken' and 'random' in (game['first'], game['second'])]
    assert against and not [game for game in data['games'] if game['forfeit'] == 'random']
    for ending in ('forfeit', 'error'):
        listed = run('games', '--db', db, '--player', 'random', '--ending', ending).stdout
        assert listed == 'No stored game matches.\n'
        listed = run('games', '--db', db, '--player', 'broken', '--ending', ending).stdout
        assert [int(line.split()[0]) for line in listed.splitlines()[2:-2]
                if 'random' in line] == against
    helped = ' '.join(run('games', '--help').stdout.split())
    assert 'with --player, the games it forfeited' in helped


@pytest.mark.parametrize('args, message', [
    (('--player', 'nobody'), "no player 'nobody'"),
    (('--result', 'win'), '--result win needs --player'),
    (('--variant', 'nim'), "the run has no variant 'nim'"),
    (('--ending', 'tired'), 'invalid choice'),
])
def test_games_refuses_bad_filters(stored_run, args, message):
    done = run('games', '--db', stored_run[0], *args, check=False)
    assert done.returncode == 2 and message in done.stderr


def test_replay_shows_each_move_with_its_board(stored_run):
    db, data = stored_run
    game = next(game for game in data['games'] if game['variant'].startswith('connect4'))
    out = run('replay', '--db', db, str(game['index'])).stdout
    assert out.startswith(f'Game {game["index"]}: connect4(h=10, v=4), {game["first"]} (X)')
    assert f'Seed {game["seed"]}' in out and '2 opening plies' in out
    board = ConnectFour(h=10, v=4)
    for number, move in enumerate(game['moves'], 1):
        assert f'\n{number}. ' in out
        assert f'): {board.typed_move(tuple(move))} (column' in out.split(f'\n{number}. ')[1]
    assert out.count('[') == len(game['moves']) and '    1  2  3' in out and ' 10\n' in out
    assert out.count('opening for') == 2
    assert run('replay', '--db', db, '999', check=False).returncode == 2
    stepped = command_line.run('replay', '--db', db, str(game['index']), '--step',
                               stdin='\nq\n').stdout
    assert stepped.count('(Enter: next move, q: stop)') == 2
    assert '\n1. ' in stepped and '\n2. ' not in stepped


def test_a_replayed_record_reaches_the_stored_end(stored_run):
    """Replaying the stored moves ends in a state that agrees with the stored result."""
    _, data = stored_run
    for game in data['games']:
        if game['termination'] == 'normal' and game['variant'] == 'tictactoe':
            final = replay(TicTacToe(), GameRecord(**game))[-1].state
            assert TicTacToe().terminal_test(final)
            assert (TicTacToe().utility(final, 'X') + 1) / 2 == game['score']


def test_a_record_of_another_game_does_not_replay():
    bad = replace(record(3, 'a', 'b', 1), moves=[[1, 2], [1, 2]])
    with pytest.raises(ValueError, match='move 2, \\[1, 2\\], is not legal'):
        replay(Nim(piles=(3, 4)), bad)


def test_reading_a_stored_run_leaves_no_file_beside_it(stored_run, tmp_path):
    """games, replay and report leave the folder of a run as they found it, and a run
    still writing to the file goes on, its games listed as they are stored."""
    db = str(tmp_path / 'run.sqlite')
    with sqlite3.connect(stored_run[0]) as source, sqlite3.connect(db) as copy:
        source.backup(copy)
    copy.close()
    for args in (['games'], ['replay', '0'], ['report']):
        run(args[0], '--db', db, *args[1:])
        assert os.listdir(tmp_path) == ['run.sqlite'], args
    writer = Store(db, Store.read(db).settings)  # a run that goes on with the file
    first = writer.record(0)
    for index in (100, 101):
        writer.add(replace(first, index=index))
        table = run('games', '--db', db).stdout.split('\n\n')[0]
        assert table.splitlines()[-1].split()[0] == str(index)
    writer.close()
    assert os.listdir(tmp_path) == ['run.sqlite']


def test_report_reads_a_stored_run_and_an_older_file(stored_run, tmp_path):
    db, data = stored_run
    out = run('report', '--db', db, '--tables', 'forfeits').stdout
    assert out.startswith('Round robin: 3 players, 2 variants, 12 games')
    assert 'TypeError: no thanks' in out and out.rstrip().splitlines()[-7] == 'Standings'
    old = tmp_path / 'old.sqlite'  # a file from before the specs were stored
    with sqlite3.connect(db) as source, sqlite3.connect(old) as copy:
        source.backup(copy)
        copy.execute('ALTER TABLE games DROP COLUMN first_spec')
    store = Store.read(str(old))
    assert [game.first for game in store.records()] == [g['first'] for g in data['games']]
    assert store.record(0).first_spec is None
    done = run('report', '--db', str(tmp_path / 'missing.sqlite'), check=False)
    assert done.returncode == 2 and 'no results file' in done.stderr


def test_boards_mark_the_last_move_and_number_columns_past_nine(capsys):
    game = ConnectFour(h=11, v=2)
    state = game.result(game.result(game.initial, (11, 1)), (10, 1))
    assert game.board_text(state, (10, 1)).splitlines() == [
        ' 2  .  .  .  .  .  .  .  .  .  .  .',
        ' 1  .  .  .  .  .  .  .  .  . [O] X',
        '    1  2  3  4  5  6  7  8  9 10 11']
    assert game.typed_move((10, 1)) == '10' and game.parse_move('10', state) == (10, 2)
    nim = Nim(piles=(2, 3))
    nim.show(nim.result(nim.initial, (2, 1)), (2, 1))
    out = capsys.readouterr().out
    assert '  2 | o o (2)  <- take 1 from pile 2' in out and 'P2 to move' in out
    won = TicTacToe()
    for move in [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]:
        state = won.result(state if move != (1, 1) else won.initial, move)
    won.show(state, (1, 3))
    assert 'to move' not in capsys.readouterr().out


def test_play_lists_and_takes_connect_four_moves_as_columns():
    def play(*args, stdin=''):
        return command_line.run('play', *args, stdin=stdin).stdout
    out = play('connect4(h=4, v=4, k=3)', 'human', 'ab1', stdin='2\n')
    assert 'available moves: 1, 2, 3, 4' in out and 'human (X): 2 (column 2)' in out
    out = play('connect4(h=4, v=4, k=3)', 'ab1', 'ab2').rstrip().splitlines()
    assert out[-1].endswith(('wins.', 'Draw.')) and out[-2] == '   1 2 3 4'
    assert sum('[' in line for line in out[-6:-2]) == 1  # the last move, marked
