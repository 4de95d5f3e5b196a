"""A game file's own code that fails: as it loads, past the time limit, it is a
one-line usage error before anything runs; in play (a method raises, to_move names a
stranger, utility is no number), the command stops, saying where, and scores nothing."""

import json
import os
import time

import pytest
from places import TESTS

from command_line import run

from games import game_files

FIRST = os.path.join(TESTS, 'hostile_players.py:first')
"""A jailed file player that plays the first legal move, never asking the game more."""


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder for game files; the tests run in it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


BROKEN = '''\
from games import *


class Breaks(Game):
    def __init__(self, how='raise'):
        self.how = how
        self.initial = GameState(to_move='A', utility=0, board=[0], moves=[])

    def actions(self, state):
        return [1, 2]

    def result(self, state, move):
        n = state.board[0] + 1
        if self.how == 'raise' and n == 3:
            raise RuntimeError('result broke')
        mover = 'Z' if self.how == 'stranger' and n == 3 else 'B' if state.to_move == 'A' else 'A'
        return GameState(to_move=mover, utility=0, board=[n], moves=[])

    def utility(self, state, player):
        return None if self.how == 'none' else 0

    def terminal_test(self, state):
        return self.how != 'endless' and state.board[0] >= 4
'''


FAILURES = {
    'raise': 'the game failed: RuntimeError: result broke (breaks.py, line 15), in result',
    'stranger': "the game failed: to_move names 'Z', who has no seat",
    'none': 'the game failed: utility returned None, not a number',
}


@pytest.mark.parametrize('how', FAILURES)
def test_a_game_that_fails_in_play_stops_the_command_and_scores_nothing(folder, how):
    """The instructor's error, never a result: a tournament stops at the game, saying
    which; play stops at the move."""
    (folder / 'breaks.py').write_text(BROKEN)
    spec = f"breaks.py:Breaks(how='{how}')"
    done = run('--players', f'random,{FIRST}', '--variants', 'simple-nim', spec,
               '--json', 'run.json', '--sandbox', 'process', '--jobs', '2')
    assert done.returncode == 1, done.stderr
    assert f'({spec}: ' in done.stderr and f'): {FAILURES[how]}' in done.stderr, done.stderr
    assert 'Traceback' not in done.stderr and not (folder / 'run.json').exists()
    played = run('play', spec, 'random', 'random')
    assert played.returncode == 1 and 'wins' not in played.stdout and 'Draw' not in played.stdout
    [said] = played.stderr.splitlines()
    assert said.startswith(f'tournament: stopped: {FAILURES[how]}'), said


def test_a_game_from_a_file_that_never_ends_is_adjudicated_a_draw(folder):
    (folder / 'breaks.py').write_text(BROKEN)
    done = run('--players', f'random,{FIRST}', '--variants',
               "breaks.py:Breaks(how='endless')", '--json', 'run.json', '--sandbox', 'process')
    assert done.returncode == 0, done.stderr
    records = json.loads((folder / 'run.json').read_text())['games']
    assert [(record['termination'], record['detail']) for record in records] == \
        [('adjudicated draw', 'no result after 1000 plies')] * 2


LOOPS = """\
import time
from games import *

until = time.monotonic() + 3  # a loop that ends, so that a test run on old code fails, not hangs
while time.monotonic() < until:
    pass
"""


def test_a_game_file_that_loops_as_it_loads_is_refused_after_the_limit(folder, monkeypatch):
    monkeypatch.setattr(game_files, 'LOAD_SECONDS', 0.5)
    (folder / 'loops.py').write_text(LOOPS)
    said = ('tournament: error: loops.py did not finish loading within 0.5 s: does it loop '
            "as it is imported? (its script belongs under if __name__ == '__main__':)")
    for command in (['--players', 'random,ab2', '--variants', 'loops.py:GameOfNim'],
                    ['play', 'loops.py:GameOfNim', 'random', 'ab2'],
                    ['tree', 'loops.py:GameOfNim']):
        started = time.monotonic()
        done = run(*command)
        assert time.monotonic() - started < 2.5
        assert done.returncode == 2 and done.stderr.splitlines() == [said], done.stderr


def test_a_students_player_that_raises_on_a_game_file_fails_its_checks(folder):
    """The student's error, not the game's: it scored draws, and passed legal moves."""
    (folder / 'breaks.py').write_text(BROKEN)
    (folder / 'raiser.py').write_text('def player(game, state):\n    raise NotImplementedError\n')
    done = run('check', 'raiser.py', '--functions', 'player', '--variants',
               "breaks.py:Breaks(how='sound')")
    assert done.stderr == '' and 'the game failed' not in done.stdout, done.stderr
    assert ('FAIL 0/2 player: legal moves: not implemented (player raises NotImplementedError)'
            in done.stdout), done.stdout
    assert 'FAIL 0/3 player: gauntlet: not implemented' in done.stdout
