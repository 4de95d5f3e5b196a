"""An arena as a whole: its folder and records, the hand-in, the background ladder, the
challenges, the games played in the browser, the leaderboard and what students are
told, started and stopped together. The web pages (players.arena.web) read and change
it only through this object."""

from __future__ import annotations

import os
import secrets
from concurrent.futures import Executor
from typing import Callable

from .challenges import Challenges
from .hand_in import HandIn
from .ladder_loop import Ladder
from .leaderboard import Leaderboard
from .live_games import LiveGames
from .mail import Mailer
from .notices import Notices
from .rating_history import RatingHistory
from .records import PLAYS, Records, Version
from .settings import ArenaSettings
from .telling import Teller

RECORDS_FILE = 'arena.sqlite'
"""The arena's records, in its folder."""
HISTORY_FILE = 'ratings.sqlite'
"""The leaderboard's history, in its folder."""
NOTICES_FILE = 'notices.sqlite'
"""What students were told of their versions, in its folder."""
MAIL_STOP_SECONDS = 10.0
"""How long a stopping server goes on sending the e-mails in line."""
SECRET_FILE = 'secret'
"""The key that signs the sessions' and forms' cookies, in the arena's folder."""


class Arena:
    """A course's arena (see the module's docstring)."""

    def __init__(self, settings: ArenaSettings, make_executor: Callable[[], Executor],
                 in_flight: int):
        self.settings = settings
        os.makedirs(settings.folder, mode=0o700, exist_ok=True)
        self.records = Records(settings.path(RECORDS_FILE))
        self.history = RatingHistory(settings.path(HISTORY_FILE))
        self.notices = Notices(settings.path(NOTICES_FILE))
        self.mailer = Mailer(settings.mail) if settings.mail else None
        self.teller = Teller(self.records, self.notices, self.mailer, settings.url)
        self.leaderboard = Leaderboard(settings, self.records, self.history,
                                       boarded=self.teller.boarded)
        self.ladder = Ladder(settings, self.records, make_executor, in_flight,
                             played=self.leaderboard.changed)
        self.hand_in = HandIn(settings, self.records, checked=self._checked)
        self.challenges = Challenges(settings, self.records, self.ladder,
                                     played=lambda challenge: self._challenge_played())
        self.live = LiveGames(settings, self.records)

    def secret(self) -> str:
        """Return the arena's secret key, made the first time (readable by its owner only)."""
        path = self.settings.path(SECRET_FILE)
        try:
            with open(path, encoding='ascii') as file:
                return file.read().strip()
        except FileNotFoundError:
            key = secrets.token_urlsafe(48)
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, 'w', encoding='ascii') as file:
                file.write(key + '\n')
            return key

    def start(self) -> None:
        """Check what a stopped server left unchecked and start the ladder."""
        self.leaderboard.start()
        self.hand_in.start()
        self.ladder.start()
        self.challenges.start()

    def stop(self) -> None:
        """Stop the checks and the ladder (the games under way are played again at
        the next start) and close the records."""
        self.hand_in.close()
        self.live.stop()
        self.challenges.stop(timeout=1.0)
        self.ladder.stop(timeout=1.0)
        self.leaderboard.stop()
        if self.mailer is not None:
            self.mailer.stop(timeout=MAIL_STOP_SECONDS)
        self.records.close()
        self.history.close()
        self.notices.close()

    def close_hand_in(self, closed: bool = True) -> None:
        """Close the hand-in (or open it again): uploads are refused while it is closed."""
        self.records.put('closed', 'yes' if closed else 'no')

    def rerun(self) -> None:
        """Play the whole ladder again from no games."""
        self.ladder.rerun()

    def _challenge_played(self) -> None:
        """A challenge's game ended: the board follows, if challenges count on it."""
        if self.settings.challenges.count:
            self.leaderboard.changed()

    def _checked(self, version: Version) -> None:
        """A version's verdict came: its student is told if it cannot play; if it
        plays, the ladder begins again, and the board follows."""
        self.teller.verdict(version)
        if version.status == PLAYS:
            self.ladder.wake()
            self.leaderboard.changed()
