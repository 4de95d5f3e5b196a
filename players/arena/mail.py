"""E-mail to students, where the course has a mail server: each notice sent as it is
told, from a thread of its own, so that a slow or absent mail server delays no page
and no game. A message that cannot be sent is said once on the server's standard
error and the notice stays on the student's page."""

from __future__ import annotations

import queue
import smtplib
import ssl
import sys
import threading
from dataclasses import dataclass
from email.message import EmailMessage

TIMEOUT_SECONDS = 30.0
"""How long a mail server may take to answer."""


@dataclass(frozen=True)
class MailSettings:
    """A course's mail server, and what its messages say they are from."""

    host: str
    port: int
    sender: str
    """The From address."""
    user: str | None = None
    """The name to log in with, if the server wants one."""
    password: str | None = None
    """Its password (from the environment, never the course file)."""


class Mailer:
    """Sends messages through a mail server, one at a time, in a thread of its own:
    over TLS from the start on port 465, else with STARTTLS where the server offers
    it; logged in where settings give a user."""

    def __init__(self, settings: MailSettings):
        self.settings = settings
        self._queue: queue.Queue[EmailMessage | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name='mail', daemon=True)
        self._thread.start()
        self.failed = 0
        """Messages that could not be sent."""

    def send(self, to: str, subject: str, body: str) -> None:
        """Put a plain-text message in line to be sent."""
        message = EmailMessage()
        message['From'], message['To'], message['Subject'] = self.settings.sender, to, subject
        message.set_content(body)
        self._queue.put(message)

    def stop(self, timeout: float | None = None) -> None:
        """Send what is in line (for at most timeout seconds), then stop."""
        self._queue.put(None)
        self._thread.join(timeout)

    def _loop(self) -> None:
        while (message := self._queue.get()) is not None:
            try:
                self._deliver(message)
            except (OSError, smtplib.SMTPException) as error:
                self.failed += 1
                print(f'arena: could not e-mail {message["To"]} through {self.settings.host}:'
                      f'{self.settings.port}: {type(error).__name__}: {error}', file=sys.stderr)

    def _deliver(self, message: EmailMessage) -> None:
        settings = self.settings
        context = ssl.create_default_context()
        if settings.port == 465:
            server: smtplib.SMTP = smtplib.SMTP_SSL(settings.host, settings.port,
                                                    timeout=TIMEOUT_SECONDS, context=context)
        else:
            server = smtplib.SMTP(settings.host, settings.port, timeout=TIMEOUT_SECONDS)
        with server:
            server.ehlo()
            if settings.port != 465 and server.has_extn('starttls'):
                server.starttls(context=context)
                server.ehlo()
            if settings.user:
                server.login(settings.user, settings.password or '')
            server.send_message(message)
