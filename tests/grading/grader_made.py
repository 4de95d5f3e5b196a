"""The grader's games and checks at the settings a test module grades with, each made
once, when a test first needs them: not at collection, where making them would cost
every xdist worker a second."""

import functools

from players import grading


@functools.cache
def games(settings: grading.Settings) -> list:
    """The grader's games at settings."""
    return grading.make_games(settings)


@functools.cache
def checks(settings: grading.Settings) -> list:
    """The grader's checks at settings, on its games."""
    return grading.make_checks(settings, games(settings))
