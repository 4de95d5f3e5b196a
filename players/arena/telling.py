"""What is told to a student of their versions, and when: a verdict that a version
cannot play, as it comes; its first games on the ladder, once the leaderboard shows
them; and its first forfeit there. Each is a notice on their page (players.arena.notices)
and, where the course has a mail server and the roster an address, an e-mail."""

from __future__ import annotations

from players.tournaments.record import GameRecord
from .leaderboard import Board
from .mail import Mailer
from .notices import CANNOT_PLAY, FIRST_GAMES, FORFEITED, Notices
from .records import Records, Version


class Teller:
    """Tells students of their versions (see the module's docstring); site is the
    arena's address, for the link in an e-mail."""

    def __init__(self, records: Records, notices: Notices, mailer: Mailer | None, site: str):
        self.records = records
        self.notices = notices
        self.mailer = mailer
        self.site = site

    def verdict(self, version: Version) -> None:
        """A version's verdict came: tell its student if it cannot play."""
        if version.status == CANNOT_PLAY:
            self.tell(version.student, version.number, CANNOT_PLAY,
                      f'Version {version.number} ({version.filename}) cannot play: '
                      f'{version.verdict}')

    def boarded(self, board: Board, forfeits: dict[str, GameRecord]) -> None:
        """A new leaderboard: tell each student whose version it shows with games for
        the first time, and each whose version forfeited a game on the ladder."""
        for row in board.rows:
            student, version = row.student, row.version
            if student is None or version is None:
                continue
            if row.standing.games and not self.notices.told(student, version, FIRST_GAMES):
                self.tell(student, version, FIRST_GAMES,
                          f'Version {version} played its first {row.standing.games} games on '
                          f'the ladder: rank {row.standing.rank} of {len(board.rows)}, Elo '
                          f'{row.standing.elo}.')
            record = forfeits.get(student)
            if record is not None and not self.notices.told(student, version, FORFEITED):
                seat = record.seat_of(student)
                opponent = self.records.student(record.names[1 - seat])
                self.tell(student, version, FORFEITED,
                          f'Version {version} forfeited a game of {record.variant} against '
                          f'{opponent.shown if opponent else record.names[1 - seat]}: '
                          f'{record.detail}. Its replay is among your games.')

    def tell(self, student: str, version: int, kind: str, text: str) -> None:
        """Tell a student something of a version, once: a notice, and an e-mail where
        there is a mail server and an address."""
        notice = self.notices.tell(student, version, kind, text)
        address = self.records.email(student) if notice and self.mailer else None
        if self.mailer is not None and address:
            self.mailer.send(address, f'Arena: version {version}: {kind}',
                             f'{text}\n\nYour page: {self.site}/students/{student}\n')
