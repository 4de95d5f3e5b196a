"""What an arena plays, checks and takes: one typed value, made by the serve command
from the course's settings and read by every part of the arena."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from players.grading.settings import Settings
from players.remote.player_code import FolderLimits, Support
from players.tournaments.match import Rules
from .mail import MailSettings
from .uploads import UploadLimits


@dataclass(frozen=True)
class ChallengeRules:
    """What a student may ask for from their page: games now, against an opponent of
    their choosing."""

    an_hour: int = 12
    """The most challenges a student may ask for in an hour (0: none)."""
    pairs: int = 5
    """The most game pairs a challenge may ask for."""
    classmates: bool = False
    """Whether a classmate's version (playing on the ladder) may be challenged, as well
    as the course's players."""
    count: bool = False
    """Whether a challenge's games count on the leaderboard, while both versions that
    played them are the ones on the ladder."""


@dataclass(frozen=True)
class PlayRules:
    """Games students play in the browser."""

    move_seconds: float = 300.0
    """A person's time for each move."""
    games: int = 10
    """The most games played in the browser at once (each a process and a jail)."""


@dataclass(frozen=True)
class ArenaSettings:
    """A course's arena: where it keeps its files, its ladder's tournament, what a
    hand-in is checked with, and when the hand-in closes."""

    folder: str
    """The arena's folder: its records, games, uploads, secret key and sign-in links."""
    variants: tuple[str, ...]
    """The ladder's variants."""
    house: dict[str, str] = field(default_factory=dict)
    """The course's own players on the ladder ({name: spec}), the anchors among them."""
    anchors: dict[str, float] = field(default_factory=dict)
    """The grades the anchors stand for ({name: grade}); empty for no grades."""
    rules: Rules = Rules()
    """How every game is played."""
    games: int = 1
    """Game pairs per pairing per variant."""
    seed: int = 0
    """The seed of the ladder's schedule."""
    support: Support = Support()
    """The course's support files, beside each student's code."""
    limits: UploadLimits = UploadLimits()
    """How big a hand-in may be, packed and unpacked."""
    check: Settings | None = None
    """The grader's settings, from the course's [check] table; None without one."""
    deadline: float | None = None
    """When the hand-in closes (seconds since the epoch), or None."""
    quota_mb: float = 100.0
    """The most a student's versions may hold together, unpacked, in MB."""
    challenges: ChallengeRules = ChallengeRules()
    """What challenges a student may ask for."""
    url: str = 'http://127.0.0.1:8000'
    """The address students open (in the links of e-mails)."""
    mail: MailSettings | None = None
    """The mail server that tells students of their versions; None for none."""
    play: PlayRules = PlayRules()
    """Games in the browser."""

    @property
    def folder_limits(self) -> FolderLimits:
        """How big an unpacked submission folder may be."""
        return self.limits.folder

    def path(self, *parts: str) -> str:
        """Return the path of a file or folder of the arena's."""
        return os.path.join(self.folder, *parts)
