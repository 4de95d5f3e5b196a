"""What the instructor chooses for a grading: the functions asked for, the games,
the limits and the jail."""

from __future__ import annotations

from dataclasses import dataclass

import variants
from players.sandbox.jail import Limits
from players.sandbox.levels import LEVELS
from players.remote.player_code import FolderLimits, Support

from .cases import SEARCH_FUNCTIONS

PLAYER_FUNCTION = 'player'
FUNCTIONS = (*SEARCH_FUNCTIONS, PLAYER_FUNCTION)
"""The functions a student's file may define, in the order they are graded."""
GAME = 'game'
"""What the checks of a student's Game class grade, beside the functions."""


@dataclass(frozen=True)
class Settings:
    """What the instructor chooses: the functions asked for, the games, the limits."""

    functions: tuple = FUNCTIONS
    """The functions the assignment asks for: a missing one scores 0 of its points."""
    variants: tuple = tuple(variants.DEFAULT_VARIANTS)
    """The games of the player checks, and of the search checks' real positions."""
    timeout: float = 10.0
    """Seconds for each search check, and for loading the file."""
    move_timeout: float = 10.0
    """Seconds for each move of the player, as in a tournament."""
    sandbox: str = 'process'
    """The jail level: 'process' or 'bwrap'."""
    memory_mb: int = Limits.memory_mb
    """The memory limit of the student's jail, in MB."""
    allow_reference: bool = False
    """May the student's code use the project's own searches?"""
    cases: tuple = ()
    """The instructor's own cases (see cases.load_cases)."""
    anchors: tuple = ()
    """((registry spec, grade), ...): with them the player's strength is graded off
    its rating between these reference players' instead of by the gauntlet."""
    player_budget: float = 60.0
    """Seconds the games of the player checks of one file should take in all: each
    check plays rounds of its games while its share lasts, and is judged on those it
    played, saying so (a slow player cannot hold up a class, and a player that keeps
    to its time for each move is judged on fewer games, never failed for it)."""
    allow: tuple = ()
    """The installed packages students' code may import, such as ('numpy',)."""
    folder_limits: FolderLimits = FolderLimits()
    """How big a student's submission folder may be."""
    game: str | None = None
    """The student's Game class to grade, as a call such as 'GameOfNim(board=[3, 1])'."""
    reference: str | None = None
    """The game the student's class is compared with: a variant or a game file's class
    (see reference.make_reference)."""
    game_positions: tuple = ()
    """Positions of the reference the student's class is also compared at, each the
    moves from the start as Python literals separated by ';'."""
    support: Support = Support()
    """The course's support files, beside each student's code in its jail (their
    installed packages' names are in allow)."""

    @property
    def parts(self) -> tuple:
        """What is graded: the functions asked for, then the game class if one is."""
        return self.functions + ((GAME,) if self.game else ())

    def describe(self) -> str:
        """One line saying how the file is graded."""
        anchored = ('; the player graded against ' + ', '.join(
            f'{name}={grade:g}' for name, grade in self.anchors)) if self.anchors else ''
        game = (f'the class {self.game} against {self.reference}, {self.timeout:g} s for its '
                'checks' if self.game else '')
        functions = (f'{self.timeout:g} s for each search check, {self.move_timeout:g} s for each '
                     f'move of the player, {self.player_budget:g} s for the games of the player '
                     'checks (a slow player is judged on fewer)' if self.functions else '')
        support = ('support files: ' + ', '.join(self.support.names)) if self.support.names \
            else ''
        return '; '.join(filter(None, (functions, game,
                                       f'jail: {LEVELS[self.sandbox].isolation()}{anchored}',
                                       support)))

    def limits(self) -> Limits:
        """The limits of the student's jail."""
        return Limits(memory_mb=self.memory_mb)
