"""A progress line on a terminal: games done, the total, and the time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Count finished games and show them on stream, only if it is a terminal."""

    def __init__(self, total: int, done: int = 0, stream: TextIO = sys.stderr):
        self.total, self.done, self.stream = total, done, stream
        self.start_done, self.started = done, time.monotonic()
        self.shown = stream.isatty()

    def __call__(self) -> None:
        """Count one more finished game and redraw the line."""
        self.done += 1
        if self.shown:
            rate = (self.done - self.start_done) / max(time.monotonic() - self.started, 1e-9)
            left = (self.total - self.done) / rate if rate else 0
            self.stream.write(f'\r{self.done}/{self.total} games, '
                              f'{_clock(left)} left  \x1b[K')
            self.stream.flush()

    def close(self) -> None:
        """Clear the line."""
        if self.shown:
            self.stream.write('\r\x1b[K')
            self.stream.flush()


def _clock(seconds: float) -> str:
    """Return seconds as m:ss."""
    minutes, seconds = divmod(round(seconds), 60)
    return f'{minutes}:{seconds:02d}'
