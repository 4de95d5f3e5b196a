"""The course grader: checks a student's search functions and player, CS188-style,
and reports each check's points as PASS or FAIL lines, as JSON or for Gradescope.

The student's file runs only in a jail (players.sandbox.jail), loaded once for all
its checks; only plain data comes back (the move chosen, the states generated), and
every verdict is worked out here.

The modules: settings (what the instructor chooses), checks (what a file is graded
on), kinds (how each kind of check is run), grader (grading one file), loading,
report, cases (the positions searched), search and models (judging a search and
naming its mistake), playing and anchored (the player's games), session (the
student's jail), batch (a class), gradescope, treedraw (drawings of a search, for
teaching) and jailed (what runs in the student's jail)."""

from .cases import Case, CaseError, load_cases
from .checks import Check, make_checks, make_games
from .grader import grade
from .loading import LoadError
from .report import Report, Result
from .settings import FUNCTIONS, Settings

__all__ = ['Case', 'CaseError', 'Check', 'FUNCTIONS', 'LoadError', 'Report', 'Result',
           'Settings', 'grade', 'load_cases', 'make_checks', 'make_games']
