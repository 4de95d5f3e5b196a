"""Where things are: the tests' own folder (their students, homework and hostile
players) and the project's, whichever folder a test module is in."""

import os

TESTS = os.path.dirname(os.path.abspath(__file__))
"""The tests' folder."""
ROOT = os.path.dirname(TESTS)
"""The project's folder."""
