"""Let the tests, each in the folder of the package it tests, import the project and
the modules they share from this folder (places, theory, jails, command_line, the
hostile and prying players, browser). A module whose tests play whole tournaments
in jails marks itself slow (pytestmark = pytest.mark.slow), so that `python -m
pytest -q -m 'not slow'` runs the rest alone, in seconds."""

import compileall
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, HERE]


def pytest_configure(config):
    """Before the workers start, compile the project's modules once, as a first run
    of the program would where Python may write its bytecode: the suite starts
    hundreds of processes (jail servers, workers, commands), and where
    PYTHONDONTWRITEBYTECODE is set each would otherwise compile every module it
    imports from its source again."""
    if not hasattr(config, 'workerinput'):
        for package in ('games', 'variants', 'players'):
            compileall.compile_dir(os.path.join(ROOT, package), quiet=2)
        compileall.compile_file(os.path.join(ROOT, 'tournament.py'), quiet=2)
