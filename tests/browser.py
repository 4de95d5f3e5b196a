"""Headless Chromium driven over the Chrome DevTools protocol on a pipe
(--remote-debugging-pipe: commands on the browser's file descriptor 3, replies on
4, each a JSON message ended by a NUL byte), so the tests need no driver package.

    with Browser() as browser:
        browser.open('file:///tmp/report.html')
        browser.evaluate('document.title')
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

NAMES = ('chromium', 'chromium-browser', 'google-chrome')
FLAGS = ('--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
         '--disable-component-update', '--disable-sync', '--no-first-run',
         '--disable-default-apps', '--mute-audio', '--remote-debugging-pipe')


def find() -> str | None:
    """Return the path of an installed Chromium, or None."""
    return next(filter(None, map(shutil.which, NAMES)), None)


def _above_four(fd: int) -> int:
    """Return a copy of a file descriptor numbered above 4, closing the original."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD, 5)
    os.close(fd)
    return high


class BrowserError(RuntimeError):
    """The browser failed a command, or did not answer in time."""


class Browser:
    """One headless Chromium with a fresh profile and one page."""

    def __init__(self, width: int = 1200, height: int = 900, timeout: float = 30):
        self.timeout = timeout
        self.profile = tempfile.TemporaryDirectory()
        commands_read, self.commands = os.pipe()
        self.replies, replies_write = os.pipe()
        # the browser's ends go to descriptors 3 and 4, from above 4 so none is overwritten
        commands_read, replies_write = (_above_four(fd) for fd in (commands_read, replies_write))
        wrapper = (f'exec "$0" "$@" 3<&{commands_read} 4>&{replies_write} '
                   f'{commands_read}<&- {replies_write}>&-')
        self.process = subprocess.Popen(
            ['bash', '-c', wrapper, find(), *FLAGS, f'--user-data-dir={self.profile.name}',
             f'--window-size={width},{height}', 'about:blank'],
            pass_fds=(commands_read, replies_write),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(replies_write)
        self.buffer, self.next_id, self.events = b'', 0, []
        target = self.send('Target.createTarget', url='about:blank')['targetId']
        self.session = self.send('Target.attachToTarget', targetId=target,
                                 flatten=True)['sessionId']
        for domain in ('Page', 'Runtime', 'Log'):
            self.send(f'{domain}.enable', session=True)
        self.send('Emulation.setDeviceMetricsOverride', session=True, width=width,
                  height=height, deviceScaleFactor=1, mobile=False)

    def send(self, method: str, session: bool = False, **params) -> dict:
        """Send a command (to the page with session) and return its result."""
        self.next_id += 1
        message = {'id': self.next_id, 'method': method, 'params': params}
        if session:
            message['sessionId'] = self.session
        os.write(self.commands, json.dumps(message).encode() + b'\0')
        while True:
            reply = self._receive()
            if reply.get('id') == self.next_id:
                if 'error' in reply:
                    raise BrowserError(f'{method}: {reply["error"]}')
                return reply['result']
            self.events.append(reply)

    def _receive(self) -> dict:
        """Return the next message from the browser."""
        deadline = time.monotonic() + self.timeout
        while b'\0' not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.replies], [], [], left)[0]:
                raise BrowserError('the browser did not answer in time')
            chunk = os.read(self.replies, 1 << 16)
            if not chunk:
                raise BrowserError('the browser closed its pipe')
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b'\0', 1)
        return json.loads(message)

    def open(self, url: str) -> None:
        """Load url in the page and wait until it has loaded (not an earlier page)."""
        before = len(self.events)
        self.send('Page.navigate', session=True, url=url)
        while not any(event.get('method') == 'Page.loadEventFired'
                      for event in self.events[before:]):
            self.events.append(self._receive())

    def evaluate(self, expression: str):
        """Return the value of a JavaScript expression in the page."""
        result = self.send('Runtime.evaluate', session=True, expression=expression,
                           returnByValue=True, awaitPromise=True)
        if 'exceptionDetails' in result:
            raise BrowserError(f'{expression}: {result["exceptionDetails"]}')
        return result['result'].get('value')

    def errors(self) -> list[str]:
        """Return the script errors and error messages the page reported so far."""
        found = []
        for event in self.events:
            method, params = event.get('method'), event.get('params', {})
            if method == 'Runtime.exceptionThrown':
                found.append(json.dumps(params['exceptionDetails'])[:500])
            elif method == 'Runtime.consoleAPICalled' and params.get('type') == 'error':
                found.append(json.dumps(params.get('args'))[:500])
            elif method == 'Log.entryAdded' and params['entry'].get('level') == 'error':
                found.append(params['entry'].get('text', ''))
        return found

    def screenshot(self, path: str) -> None:
        """Save a PNG of the page's viewport to path."""
        data = self.send('Page.captureScreenshot', session=True, format='png')['data']
        with open(path, 'wb') as out:
            out.write(base64.b64decode(data))

    def close(self) -> None:
        """End the browser and remove its profile."""
        try:
            self.send('Browser.close')
        except (BrowserError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self.commands)
        os.close(self.replies)
        self.profile.cleanup()

    def __enter__(self) -> 'Browser':
        return self

    def __exit__(self, *exc) -> None:
        self.close()
