"""A course's support files (aima-python's utils.py, a board library): named once,
with --support or a course file's support key, they are beside every student's
Python code in its jail, read-only, the installed packages they import allowed;
a student's own file of the same name wins. Students' files that `from utils import
*` play a tournament at both jail levels and are graded by check, searches and a
Game class alike."""

import pytest

from command_line import run
from jails import LEVELS, adopting_orphans
from players.cli import course
from players.cli.tournament_options import ArgumentParser, add_sandbox_option
from players.remote.player_code import PlayerCode, Support, beside, read_support
from players.tournaments.store import Store

pytestmark = pytest.mark.slow

UTILS = '''\
"""Helpers every submission may use, in the manner of aima-python's utils.py."""

import numpy as np


def argmax(seq, key=lambda x: x):
    """The item of seq with the largest key (the first of equals)."""
    return max(seq, key=key)


def argmin(seq, key=lambda x: x):
    """The item of seq with the smallest key (the first of equals)."""
    return min(seq, key=key)


def vector_add(a, b):
    """The sum of two vectors, as a tuple of whole numbers."""
    return tuple(int(x) for x in np.add(a, b))
'''
ALICE = '''\
from utils import *


def player(game, state):
    return argmax(game.actions(state), key=lambda move: vector_add(move, (0, 0)))
'''
BOB = '''\
from utils import argmin


def player(game, state):
    return argmin(game.actions(state))
'''
CAROL = '''\
from utils import pick


def player(game, state):
    return pick(game.actions(state))
'''
CAROLS_UTILS = '''\
def pick(moves):
    """Carol's own helper, which the course's utils.py has not."""
    return moves[-1]
'''
HOMEWORK = '''\
from games import *
from utils import *


def minmax_decision(state, game):
    player = game.to_move(state)

    def max_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return max(min_value(game.result(state, a)) for a in game.actions(state))

    def min_value(state):
        if game.terminal_test(state):
            return game.utility(state, player)
        return min(max_value(game.result(state, a)) for a in game.actions(state))

    return argmax(game.actions(state), key=lambda a: min_value(game.result(state, a)))


class GameOfNim(Game):
    def __init__(self, board=[3, 1]):
        self.initial = GameState(to_move='MAX', utility=0, board=list(board),
                                 moves=self.moves(board))

    def moves(self, board):
        return [(x, y) for x in range(len(board)) for y in range(1, board[x] + 1)]

    def actions(self, state):
        return list(state.moves)

    def result(self, state, move):
        taken = [move[1] if pile == move[0] else 0 for pile in range(len(state.board))]
        board = list(vector_add(state.board, [-count for count in taken]))
        turn = 'MIN' if state.to_move == 'MAX' else 'MAX'
        utility = (1 if turn == 'MAX' else -1) if sum(board) == 0 else 0
        return GameState(to_move=turn, utility=utility, board=board, moves=self.moves(board))

    def utility(self, state, player):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        return not state.moves
'''
SOLUTION = '''\
from games import Game, GameState


class GameOfNim(Game):
    """The instructor's Nim: take any number from one pile; who takes the last wins."""

    def __init__(self, board=(3, 1)):
        self.initial = GameState(to_move='MAX', utility=0, board=tuple(board), moves=None)

    def actions(self, state):
        return [(pile, taken) for pile, size in enumerate(state.board)
                for taken in range(1, size + 1)]

    def result(self, state, move):
        board = tuple(size - move[1] if pile == move[0] else size
                      for pile, size in enumerate(state.board))
        turn = 'MIN' if state.to_move == 'MAX' else 'MAX'
        utility = (1 if turn == 'MAX' else -1) if not any(board) else 0
        return GameState(to_move=turn, utility=utility, board=board, moves=None)

    def utility(self, state, player):
        return state.utility if player == 'MAX' else -state.utility

    def terminal_test(self, state):
        return not any(state.board)
'''


def course_file(level: str) -> str:
    """A course's tournament.toml: its class and its support file, for the
    tournament and for check, whose jails are at level."""
    return f'''\
variants = ["nim(piles=(2, 3))"]
players = ["random"]
submissions = "class"
support = ["utils.py"]
jobs = 2
move-timeout = 5
sandbox = "{level}"
db = "class.sqlite"

[check]
functions = ["minmax_decision"]
variants = ["nim(piles=(2, 3))"]
game = "GameOfNim(board=[3, 1])"
reference = "solution.py:GameOfNim"
support = ["utils.py"]
sandbox = "{level}"
'''


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A course's folder, the working folder: its support file, its solution, a class
    of three (alice and bob use the course's utils.py, carol's folder has its own)
    and a student's homework, but no course file yet."""
    (tmp_path / 'utils.py').write_text(UTILS)
    (tmp_path / 'solution.py').write_text(SOLUTION)
    (tmp_path / 'hw.py').write_text(HOMEWORK)
    students = tmp_path / 'class'
    (students / 'carol').mkdir(parents=True)
    (students / 'alice.py').write_text(ALICE)
    (students / 'bob.py').write_text(BOB)
    (students / 'carol' / 'player.py').write_text(CAROL)
    (students / 'carol' / 'utils.py').write_text(CAROLS_UTILS)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def endings(db: str) -> dict[str, set[str]]:
    """How the games of each player of a run's --db file ended."""
    store = Store.read(db)
    found: dict[str, set[str]] = {}
    for record in store.records():
        for name in (record.first, record.second):
            found.setdefault(name, set()).add(record.termination)
    store.close()
    return found


@pytest.mark.parametrize('level', LEVELS)
def test_a_course_folders_class_plays_with_its_support_file(folder, level):
    (folder / 'tournament.toml').write_text(course_file(level))
    with adopting_orphans():
        done = run()
    assert done.returncode == 0, done.stderr
    header = done.stdout.split('\n\n')[0]
    assert 'Players: random, alice, bob, carol' in header and 'cannot play' not in header
    assert '\nSupport files: utils.py\n' in header
    assert endings('class.sqlite') == {name: {'normal'} for name in ('random', 'alice', 'bob',
                                                                     'carol')}
    store = Store.read('class.sqlite')
    assert store.settings.support == ('utils.py',) and store.settings.allow == ('numpy',)
    store.close()


@pytest.mark.parametrize('level', LEVELS)
def test_check_grades_a_search_and_a_game_class_that_use_the_support_file(folder, level):
    (folder / 'tournament.toml').write_text(course_file(level))
    with adopting_orphans():
        done = run('check', 'hw.py')
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'support files: utils.py' in ' '.join(done.stdout.split())
    assert 'PASS 1/1 minmax_decision on fig52' in done.stdout
    assert 'PASS 2/2 GameOfNim.result: agrees with the reference' in done.stdout
    assert 'FAIL' not in done.stdout


def test_without_the_support_file_the_students_files_cannot_load(folder):
    (folder / 'tournament.toml').write_text(course_file('process').replace(
        'support = ["utils.py"]\n', ''))
    with adopting_orphans():
        done = run('check', 'hw.py')
    assert done.returncode == 1 and "No module named 'utils'" in done.stdout


def test_a_changed_support_file_plays_the_games_of_the_players_beside_it_again(folder):
    options = ('--players', 'random,class/alice.py,class/carol', '--variants',
               'nim(piles=(2, 3))', '--support', 'utils.py', '--sandbox', 'process',
               '--db', 'ladder.sqlite', '--jobs', '2')
    with adopting_orphans():
        first = run(*options)
        again = run(*options)
        (folder / 'utils.py').write_text(UTILS + '\nNOTE = "changed"\n')
        changed = run(*options)
    assert first.returncode == again.returncode == changed.returncode == 0, changed.stderr
    assert 'Games: 0 to play now, 6 reused' in again.stdout
    # carol's own utils.py is hers, not the course's: only alice's games are played again
    assert 'Games: 4 to play now, 2 reused' in changed.stdout
    assert endings('ladder.sqlite')['alice'] == {'normal'}


def test_a_students_own_file_of_the_same_name_wins():
    course = Support(('utils.py', 'boardlib/'), (('boardlib/__init__.py', b'course'),
                                                 ('utils.py', b'course')))
    own = PlayerCode('carol', 'import utils\n', 'player.py', files=(
        ('player.py', b'import utils\n'), ('utils/__init__.py', b'carol')))
    assert beside(own, course).files == (('boardlib/__init__.py', b'course'),
                                         ('player.py', b'import utils\n'),
                                         ('utils/__init__.py', b'carol'))
    alone = PlayerCode('alice.py', 'x = 1\n', 'alice.py')
    assert beside(alone, course).files == (('alice.py', b'x = 1\n'), *course.files)
    assert beside(PlayerCode('ab2'), course) == PlayerCode('ab2')


def test_the_support_files_imports_are_allowed_but_never_this_projects(tmp_path):
    (tmp_path / 'board').mkdir()
    (tmp_path / 'board' / '__init__.py').write_text('from .grid import *\nimport scipy\n')
    (tmp_path / 'utils.py').write_text('import numpy, os, board\nfrom players import solve\n'
                                       'from games import Game\n')
    support = read_support([str(tmp_path / 'utils.py'), str(tmp_path / 'board')])
    assert support.names == ('utils.py', 'board/')
    assert [path for path, _ in support.files] == ['board/__init__.py', 'utils.py']
    assert support.imports == ('numpy', 'scipy')
    assert support.allow(('scipy', 'yaml')) == ('scipy', 'yaml', 'numpy')


@pytest.mark.parametrize('command', [(), ('play', 'nim', 'random', 'random'),
                                     ('sprt', 'random', 'ab1'), ('check', 'hw.py')])
def test_a_missing_support_path_is_one_line_exit_2(folder, command):
    done = run(*command, '--support', 'utils.py,missing.py')
    assert done.returncode == 2 and done.stdout == ''
    assert done.stderr == "tournament: error: --support: no file or folder 'missing.py'\n"


@pytest.mark.parametrize('command', [(), ('check', 'hw.py')])
def test_a_course_files_missing_support_path_is_one_line_exit_2(folder, command):
    (folder / 'tournament.toml').write_text('support = ["lib"]\n[check]\nsupport = ["lib"]\n')
    done = run(*command)
    assert done.returncode == 2 and done.stdout == ''
    assert done.stderr == "tournament: error: --support: no file or folder 'lib'\n"


def test_a_course_files_support_paths_are_relative_to_its_folder(tmp_path):
    (tmp_path / 'tournament.toml').write_text('support = ["utils.py", "lib/board"]\n'
                                              '[check]\nsupport = ["utils.py"]\n')
    parser, check = ArgumentParser(), ArgumentParser()
    add_sandbox_option(parser)
    add_sandbox_option(check)
    course.apply(parser, check, str(tmp_path))
    assert parser.parse_args([]).support == (str(tmp_path / 'utils.py'),
                                             str(tmp_path / 'lib' / 'board'))
    assert check.parse_args([]).support == (str(tmp_path / 'utils.py'),)
