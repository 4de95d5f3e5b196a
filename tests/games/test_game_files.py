"""A game from a file (issue 31): an instructor's Konane and students' GameOfNim
classes, written as aima-python's users write them, play a round robin of random,
ab2, mcts and a student's file at each jail level, are drawn in the HTML report
and replayed; their folder's modules come along; a bad file, class or argument is
a one-line usage error, as are a game without a method it must write and arguments
to a game the file made (U3T = U3T(), which plays). A game's own code that fails:
tests/games/test_game_file_errors.py."""

import json
import os
import shutil
import sqlite3
import zipfile

import pytest
from places import TESTS

from command_line import run
from jails import LEVELS, adopting_orphans

import variants
from players import load_player
from players.remote.player_code import read_player
from players.tournaments.match import Rules, play_scheduled_game
from players.tournaments.schedule import ScheduledGame

pytestmark = pytest.mark.slow

KONANE = '''\
"""Konane on a small board: jump an enemy stone into the empty square beyond it."""
from games import *
from board import squares


class Konane(Game):
    def __init__(self, size=4):
        self.size = size
        board = {square: 'X' if sum(square) % 2 == 0 else 'O' for square in squares(size)}
        del board[(0, 0)], board[(0, 1)]
        self.initial = GameState(to_move='X', utility=0, board=board,
                                 moves=self.jumps(board, 'X'))

    def jumps(self, board, player):
        found = []
        for (r, c), who in board.items():
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
                if (who == player and board.get(over) not in (None, player)
                        and to not in board and to in squares(self.size)):
                    found.append(((r, c), to))
        return sorted(found)

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        (r, c), to = move
        board = dict(state.board)
        board[to] = board.pop((r, c))
        del board[((r + to[0]) // 2, (c + to[1]) // 2)]
        other = 'O' if state.to_move == 'X' else 'X'
        moves = self.jumps(board, other)
        utility = 0 if moves else (1 if state.to_move == 'X' else -1)
        return GameState(to_move=other, utility=utility, board=board, moves=moves)

    def utility(self, state, player):
        return state.utility if player == 'X' else -state.utility

    def terminal_test(self, state):
        return not state.moves

    def display(self, state):
        for r in range(self.size):
            print(' '.join(state.board.get((r, c), '.') for c in range(self.size)))


if __name__ == '__main__':
    print(Konane().play_game(query_player, random_player))
'''
BOARD = 'def squares(size):\n    return {(r, c) for r in range(size) for c in range(size)}\n'
AIMA_GAMES = 'raise ImportError("aima-python\'s own games.py must not be used")\n'
GAME_OF_NIM = '''\
from games import *


class GameOfNim(Game):
    """Nim as aima-python's students write it: a list board, the last mover loses."""

    def __init__(self, board=[3, 1]):
        self.initial = GameState(to_move=FIRST, utility=0, board=board,
                                 moves=self.moves_of(board))

    def moves_of(self, board):
        return [MOVE((x, y)) for x in range(len(board)) for y in range(1, board[x] + 1)]

    def actions(self, state):
        return state.moves

    def result(self, state, move):
        board = state.board.copy()
        board[move[0]] -= move[1]
        turn = SECOND if state.to_move == FIRST else FIRST
        utility = (1 if turn == FIRST else -1) if sum(board) == 0 else 0
        return GameState(to_move=turn, utility=utility, board=board, moves=self.moves_of(board))

    def utility(self, state, player):
        return state.utility if player == FIRST else -state.utility

    def terminal_test(self, state):
        return sum(state.board) == 0

    def display(self, state):
        print('board: ', state.board)
'''
MAX_MIN_NIM = GAME_OF_NIM.replace('FIRST', "'MAX'").replace('SECOND', "'MIN'").replace('MOVE', '')
"""GameOfNim with players 'MAX' and 'MIN', its moves tuples."""
UTILITY = ("    def utility(self, state, player):\n"
           "        return state.utility if player == 'MAX' else -state.utility\n\n")
"""MAX_MIN_NIM's utility, which a lazy student leaves out."""
assert UTILITY in MAX_MIN_NIM
STUDENT = ('import random\n\n\ndef player(game, state):\n'
           '    return random.choice(game.actions(state))\n')
PLAYERS = 'random,ab2,mcts(N=30),{student}'
STUDENTS = os.path.join(TESTS, 'students')


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder: konane.py with its helper module (and aima-python's own
    games.py beside it, which must not be used), two GameOfNim files and a
    student's player; the tests run in it."""
    files = {'course/konane.py': KONANE, 'course/board.py': BOARD, 'course/games.py': AIMA_GAMES,
             'hw/game_of_nim.py': MAX_MIN_NIM,
             'hw/nim_numbers.py': GAME_OF_NIM.replace('FIRST', '0').replace(
                 'SECOND', '1').replace('MOVE', 'list'),
             'subs/student.py': STUDENT}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize('level', LEVELS)
def test_a_konane_file_plays_a_round_robin_is_drawn_and_replayed(course, level):
    done = run('--players', PLAYERS.format(student='subs/student.py'), '--variants',
               'course/konane.py:Konane(size=4)', '--games', '1', '--sandbox', level,
               '--db', 'run.db', '--html', 'run.html', '--json', 'run.json', '--jobs', '2')
    assert done.returncode == 0, done.stderr
    records = json.loads((course / 'run.json').read_text())['games']
    assert len(records) == 12
    assert {record['termination'] for record in records} == {'normal'}
    page = (course / 'run.html').read_text()
    assert 'konane.py:Konane(size=4)' in page and 'X . X O' in page.replace('\\n', '\n')
    shown = run('replay', '--db', 'run.db', '1')
    assert shown.returncode == 0, shown.stderr
    assert 'konane.py:Konane(size=4)' in shown.stdout and '. . X O' in shown.stdout
    assert shown.stderr == ''
    with open('course/board.py', 'a') as file:  # the folder's module changes
        file.write('# changed\n')
    again = run('report', '--db', 'run.db')
    assert 'course/konane.py has changed since this run' in again.stderr


@pytest.mark.parametrize('level', LEVELS)
def test_students_list_board_nims_play_a_round_robin(course, level):
    done = run('--players', PLAYERS.format(student='subs/student.py'), '--variants',
               'hw/game_of_nim.py:GameOfNim(board=[3, 1])',
               'hw/nim_numbers.py:GameOfNim(board=[2, 2])',
               '--games', '1', '--sandbox', level, '--json', 'run.json', '--jobs', '2')
    assert done.returncode == 0, done.stderr
    records = json.loads((course / 'run.json').read_text())['games']
    assert len(records) == 24 and {record['termination'] for record in records} == {'normal'}
    # the last mover loses, and ab2 sees to the end: it never loses to random
    assert all(record['score'] != (0 if record['first'] == 'ab2' else 1)
               for record in records if {record['first'], record['second']} == {'ab2', 'random'})


def test_a_list_move_is_told_apart_from_a_tuple(course):
    done = run('play', 'hw/nim_numbers.py:GameOfNim(board=[1, 1])', 'human', 'random',
               stdin='(0, 1)\n[0, 1]\n')
    assert "'(0, 1)' is not a legal move here" in done.stdout
    assert 'human (0): [0, 1]' in done.stdout


def test_two_spellings_of_one_file_game_are_one_variant(course):
    done = run('--players', 'random,ab2', '--variants', 'hw/game_of_nim.py:GameOfNim(board=[3,1])',
               './hw/game_of_nim.py:GameOfNim(board=[3, 1])', 'hw/game_of_nim.py:GameOfNim',
               '--json', 'run.json')
    assert done.returncode == 0, done.stderr
    assert len(json.loads((course / 'run.json').read_text())['settings']['variants']) == 2


@pytest.mark.parametrize('spec, said', [
    ('nowhere.py:Konane', "no game file 'nowhere.py'"),
    ('course/konane.py:Konan', "course/konane.py has no class 'Konan'"),
    ('course/konane.py:GameState', 'is not a Game'),
    ('course/konane.py:Konane(side=6)', "has no parameter 'side'; its parameters: size"),
    ('course/konane.py:Konane(size=1)', 'cannot be made: KeyError: (0, 1) (konane.py, line 10)'),
    ('hw/game_of_nim.py:GameOfNim(board=[0])', 'the initial state has no legal move'),
    ('hw/game_of_nim.py:GameOfNim(board=7)', 'cannot be made: TypeError'),
    ('course/konane.py:Konane(size=[4,)', 'malformed game spec'),
    ('hw/asks.py:GameOfNim', "asks for input when imported: guard its script with if __name__"),
    ('hw/raises.py:GameOfNim',
     'hw/raises.py cannot load: ValueError: no board (raises.py, line 2)'),
    ('hw/lazy.py:GameOfNim',
     'hw/lazy.py:GameOfNim has no utility of its own: Game.utility is abstract, write one'),
    ('hw/dice.py:GameOfNim', 'hw/dice.py:GameOfNim has no chances or probability of its own: '
     'StochasticGame.chances and StochasticGame.probability are abstract, write them'),
    ('hw/u3t.py:U3T(board=[1, 1])', 'hw/u3t.py:U3T is a game, an instance of GameOfNim, not a '
     'class: an instance takes no arguments; name it alone, hw/u3t.py:U3T'),
    ('hw/u3t.py:rows', "hw/u3t.py:rows is not a Game"),
])
def test_a_game_that_cannot_be_had_is_a_one_line_usage_error(course, spec, said):
    (course / 'hw/raises.py').write_text('from games import *\nraise ValueError("no board")\n')
    (course / 'hw/asks.py').write_text(MAX_MIN_NIM + "\nname = input('Your name? ')\n")
    (course / 'hw/lazy.py').write_text(MAX_MIN_NIM.replace(UTILITY, ''))
    (course / 'hw/dice.py').write_text(MAX_MIN_NIM.replace('(Game)', '(StochasticGame)') +
                                       '\n    def outcome(self, state, chance):\n'
                                       '        return state\n')
    (course / 'hw/u3t.py').write_text(MAX_MIN_NIM + '\n\nU3T = GameOfNim()\nrows = [3, 1]\n')
    for command in (['--players', 'random,ab2', '--variants', spec],
                    ['play', spec, 'random', 'ab2'], ['tree', spec]):
        done = run(*command)
        assert done.returncode == 2, (command, done.stdout)
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert 'Traceback' not in done.stderr


U3T = MAX_MIN_NIM.replace('class GameOfNim', 'class U3T') + '\n\nU3T = U3T(board=[2, 2])\n'
"""A file that ends making its game, as aima-python's notebooks do."""


@pytest.mark.parametrize('level', LEVELS)
def test_a_game_the_file_made_plays(course, level):
    (course / 'hw/u3t.py').write_text(U3T)
    done = run('--players', 'random,ab2,subs/student.py', '--variants', 'hw/u3t.py:U3T',
               '--games', '1', '--sandbox', level, '--json', 'run.json', '--jobs', '2')
    assert done.returncode == 0, done.stderr
    records = json.loads((course / 'run.json').read_text())['games']
    assert len(records) == 6 and {record['termination'] for record in records} == {'normal'}
    assert {record['variant'] for record in records} == {'hw/u3t.py:U3T'}
    played = run('play', 'hw/u3t.py:U3T', 'random', 'ab2')
    assert played.returncode == 0 and 'board:  [0, 0]' in played.stdout, played.stderr
    drawn = run('tree', 'hw/u3t.py:U3T', '--depth', '1')
    assert drawn.returncode == 0 and 'board=[2, 2]' in drawn.stdout, drawn.stderr


def test_a_run_keeps_the_digest_of_its_game_file(course):
    assert run('--players', 'random,ab2', '--variants', 'hw/game_of_nim.py:GameOfNim',
               '--db', 'run.db').returncode == 0
    settings = json.loads(sqlite3.connect('run.db').execute('SELECT json FROM settings')
                          .fetchone()[0])
    assert list(settings['game_files']) == ['hw/game_of_nim.py:GameOfNim']
    (course / 'hw/game_of_nim.py').write_text(MAX_MIN_NIM + '# fixed\n')
    again = run('--players', 'random,ab2', '--variants', 'hw/game_of_nim.py:GameOfNim',
                '--db', 'run.db', '--resume')
    assert again.returncode == 2 and 'game_files' in again.stderr
    assert 'hw/game_of_nim.py has changed since this run' in run('games', '--db', 'run.db').stderr


PRYING = '''\
import os


def player(game, state):
    type(game).utility = lambda self, state, player: 99   # only its own copy
    for path in (GAME, os.path.join(os.path.dirname(GAME), 'board.py')):
        try:
            with open(path, 'a') as file:
                file.write('raise SystemExit("tampered")\\n')
        except OSError:
            pass
    return game.actions(state)[0]
'''


@pytest.mark.parametrize('level', LEVELS)
def test_a_hostile_player_changes_neither_the_game_nor_another_game(course, level):
    game = str(course / 'course/konane.py')
    (course / 'subs/pry.py').write_text(f'GAME = {game!r}\n' + PRYING)
    os.chmod(course / 'course', 0o755)
    before = (course / 'course/konane.py').read_text()
    done = run('--players', 'random,ab2,subs/pry.py', '--variants',
               'course/konane.py:Konane(size=4)', '--games', '2', '--sandbox', level,
               '--json', 'run.json')
    assert done.returncode == 0, done.stderr
    assert (course / 'course/konane.py').read_text() == before
    records = json.loads((course / 'run.json').read_text())['games']
    assert {record['termination'] for record in records} == {'normal'}
    assert all(record['score'] in (0, 1) for record in records)


def test_a_course_folder_plays_and_grades_its_game_file_with_no_options(course):
    (course / 'tournament.toml').write_text(
        'variants = ["course/konane.py:Konane(size=4)", "hw/game_of_nim.py:GameOfNim"]\n'
        'players = ["random", "ab2"]\nsubmissions = "subs"\ngames = 1\njson = "class.json"\n'
        'sandbox = "process"\n\n[check]\nfunctions = ["minmax_decision"]\n'
        'variants = ["hw/game_of_nim.py:GameOfNim(board=[2, 2])"]\nsandbox = "process"\n')
    played = run()
    assert played.returncode == 0, played.stderr
    records = json.loads((course / 'class.json').read_text())['games']
    assert {record['variant'] for record in records} == {'course/konane.py:Konane(size=4)',
                                                         'hw/game_of_nim.py:GameOfNim'}
    assert {'student'} <= {record['first'] for record in records}
    shutil.copy(os.path.join(STUDENTS, 'star_import_own.py'), course / 'mine.py')
    graded = run('check', 'mine.py')
    assert "PASS 1/1 minmax_decision on hw/game_of_nim.py:GameOfNim(board=[2, 2])" in graded.stdout
    assert 'FAIL' not in graded.stdout, graded.stdout


def test_a_gradescope_bundle_carries_its_game_files(course):
    made = run('gradescope-bundle', 'autograder.zip', '--functions', 'minmax_decision',
               '--variants', 'course/konane.py:Konane(size=4)', 'hw/game_of_nim.py:GameOfNim')
    assert made.returncode == 0, made.stderr
    with zipfile.ZipFile(course / 'autograder.zip') as archive:
        names = set(archive.namelist())
        script = archive.read('run_autograder').decode()
    assert {'project/game_files/konane.py', 'project/game_files/board.py',
            'project/game_files_2/game_of_nim.py'} <= names
    assert 'project/game_files/games.py' not in names  # aima-python's own is never used
    assert ("--variants 'game_files/konane.py:Konane(size=4)' "
            'game_files_2/game_of_nim.py:GameOfNim') in script


def test_a_worker_without_the_file_plays_its_game_from_the_source_it_is_handed(tmp_path):
    """As a Dask worker on another machine does: the path names no file there."""
    path = os.path.join(str(tmp_path), 'elsewhere', 'ghost_nim.py')
    spec = f'{path}:GameOfNim(board=[3, 1])'
    source = {'path': path, 'files': [['ghost_nim.py', MAX_MIN_NIM]]}
    first, lucky = (os.path.join(TESTS, f'hostile_players.py:{name}')
                    for name in ('first', 'lucky'))
    codes = {name: read_player(name) for name in (first, lucky)}  # files: no jail kept after
    with adopting_orphans():
        record = play_scheduled_game(ScheduledGame(0, spec, first, lucky, 0, 0, 1),
                                     Rules(move_timeout=5, sandbox='process'), codes,
                                     variants.make, load_player, sources=[source])
    assert not os.path.exists(path)
    assert record.termination == 'normal' and record.moves[0] == [0, 1]  # first's move
