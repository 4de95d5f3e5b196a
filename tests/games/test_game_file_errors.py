"""A game file's own code that fails: as it loads, past the time limit, it is a
one-line usage error before anything runs."""

import time

import pytest

from command_line import run

from games import game_files


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder for game files; the tests run in it."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


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
