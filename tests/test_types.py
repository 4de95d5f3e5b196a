"""The types: mypy, at setup.cfg's settings (--strict's checks on the packages a newcomer
changes first, the bodies of untyped functions checked everywhere), finds no error in
the project's code. It keeps its cache in the project's .mypy_cache, so that after
the first run it checks only what changed."""

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKED = ['games', 'variants', 'players', 'tournament.py']


def test_mypy_finds_no_error():
    run = subprocess.run([sys.executable, '-m', 'mypy', *CHECKED], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
