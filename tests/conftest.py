"""Let the tests, each in the folder of the package it tests, import the project and
the modules they share from this folder (places, theory, jails, command_line, the
hostile and prying players, browser), and mark as slow the modules whose tests play
whole tournaments in jails, so that `python -m pytest -q -m 'not slow'` runs the
rest alone, in seconds."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

SLOW = {'test_tournament_cli', 'test_submission_folders', 'test_tournament_faults',
        'test_cluster', 'test_game_files', 'test_plugins', 'test_programs',
        'test_grading_verdicts', 'test_sprt', 'test_ladder', 'test_temporary_folders',
        'test_jail_server', 'test_tournament_broken', 'test_board_games_play',
        'test_grading_game', 'test_report', 'test_tournament_jails', 'test_bench',
        'test_add_a_game', 'test_course', 'test_aima_homework', 'test_report_html',
        'test_grading_class', 'test_grades', 'test_types', 'test_tournament_api'}
"""The modules of the slow tests: each starts jails, workers or a cluster for most
of its tests, or runs the command line (or mypy) in fresh processes."""


def pytest_collection_modifyitems(items):
    """Mark the tests of the SLOW modules as slow."""
    for item in items:
        if item.module.__name__ in SLOW:
            item.add_marker(pytest.mark.slow)
