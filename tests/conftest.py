"""Let the tests, each in the folder of the package it tests, import the project and
the modules they share from this folder (places, theory, jails, command_line, the
hostile and prying players, browser). A module whose tests play whole tournaments
in jails marks itself slow (pytestmark = pytest.mark.slow), so that `python -m
pytest -q -m 'not slow'` runs the rest alone, in seconds."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
