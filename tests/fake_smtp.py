"""A mail server for the tests: it speaks as much SMTP as smtplib needs to hand it a
message (no TLS, no login) and keeps each message it is given."""

from __future__ import annotations

import email
import socketserver
import threading
from email.message import Message


class FakeSMTP:
    """A mail server on a free port of 127.0.0.1 while in a with block; messages holds
    what it was given."""

    def __init__(self):
        self.messages: list[Message] = []
        kept = self.messages

        class Session(socketserver.StreamRequestHandler):
            def handle(self):
                self.say('220 fake ESMTP')
                while line := self.rfile.readline():
                    command = line.decode('ascii', 'replace').strip().upper()
                    if command.startswith(('EHLO', 'HELO')):
                        self.say('250-fake\r\n250 8BITMIME')
                    elif command == 'DATA':
                        self.say('354 end with .')
                        data = b''
                        while (part := self.rfile.readline()) not in (b'.\r\n', b''):
                            data += part[1:] if part.startswith(b'..') else part
                        kept.append(email.message_from_bytes(data))
                        self.say('250 kept')
                    elif command == 'QUIT':
                        self.say('221 bye')
                        return
                    else:
                        self.say('250 OK')

            def say(self, text):
                self.wfile.write(text.encode() + b'\r\n')

        self.server = socketserver.ThreadingTCPServer(('127.0.0.1', 0), Session)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]

    def __enter__(self) -> 'FakeSMTP':
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
