"""Where things are: the tests' own folder (their students, homework and hostile
players) and the project's, whichever folder a test module is in."""

import os
import shutil

TESTS = os.path.dirname(os.path.abspath(__file__))
"""The tests' folder."""
ROOT = os.path.dirname(TESTS)
"""The project's folder."""


def copy_project(folder) -> str:
    """Copy the packages and the command line to folder, as a clone has them."""
    for package in ('games', 'players', 'variants'):
        shutil.copytree(os.path.join(ROOT, package), os.path.join(folder, package),
                        ignore=shutil.ignore_patterns('__pycache__'))
    shutil.copy(os.path.join(ROOT, 'tournament.py'), folder)
    return str(folder)
