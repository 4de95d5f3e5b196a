"""Running a schedule: unplayed games to the executor, their records to the store."""

from __future__ import annotations

import contextlib
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Callable, Iterable, Iterator, Protocol

from games.referee import GameFailed
from .record import GameRecord
from .schedule import ScheduledGame

POLL_SECONDS = 0.1
TRIES = 3
"""How often a game is played before a fault of the machinery stops the run."""


class Games(Protocol):
    """Where run keeps the games it plays: a Store, or what stands in for one."""

    def has(self, index: int) -> bool:
        """Is the game of this index in the schedule kept already?"""

    def add(self, record: GameRecord) -> None:
        """Keep a finished game's record."""


class MachineryError(RuntimeError):
    """A game failed through no player's fault: its worker process was lost, or the
    referee itself failed, as many times as it was tried; or the game's own code
    failed (referee.GameFailed), at once."""


def run(specs: Iterable[ScheduledGame], job: Callable[[ScheduledGame], GameRecord],
        executor: Executor, store: Games, in_flight: int | Callable[[], int],
        progress: Callable[[], None] = lambda: None,
        stop: Callable[[], bool] = lambda: False) -> int:
    """Play every game of specs that store does not hold yet, as job(spec) on the
    executor with at most in_flight games submitted at a time (a number, or a
    function that returns it, for an executor whose workers come and go), storing each
    record as it finishes and calling progress() after each. A game that fails
    through no player's fault (its worker is lost: the players' faults are in
    the records) is played again, up to TRIES times, and then raises
    MachineryError; a game whose own code failed raises it at once. Once stop()
    returns True, no game is begun: those waiting for a worker are cancelled, and the
    games under way end and are stored. Returns
    the games played. On any exception, Ctrl-C included, the running games are
    abandoned."""
    pending: dict[Future[GameRecord], ScheduledGame] = {}
    failures: dict[int, int] = {}
    played = 0
    limit = in_flight if callable(in_flight) else lambda: in_flight

    def finished(interrupted: Callable[[], bool]) -> set[Future[GameRecord]]:
        """Wait briefly for games to finish; raise KeyboardInterrupt if Ctrl-C was pressed."""
        done = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED).done
        if interrupted():
            raise KeyboardInterrupt
        return done

    def collect(futures: Iterable[Future[GameRecord]]) -> None:
        nonlocal played
        for future in futures:
            spec = pending.pop(future)
            try:
                record = future.result()
            except GameFailed as failed:  # the instructor's rules: no result, no retry
                raise MachineryError(f'game {spec.index + 1} ({spec.variant}: {spec.first} '
                                     f'against {spec.second}): {failed}') from None
            except Exception as error:  # the machinery's fault: play the game again
                failures[spec.index] = failures.get(spec.index, 0) + 1
                if failures[spec.index] >= TRIES:
                    raise MachineryError(
                        f'game {spec.index + 1} ({spec.variant}: {spec.first} against '
                        f'{spec.second}) failed {TRIES} times, through no fault of a '
                        f'player: {type(error).__name__}: {error}') from None
                pending[executor.submit(job, spec)] = spec
                continue
            store.add(record)
            played += 1
            progress()

    with ctrl_c_as_flag() as interrupted:
        try:
            for spec in specs:
                if stop():
                    break
                if store.has(spec.index):
                    continue
                while len(pending) >= limit():
                    collect(finished(interrupted))
                pending[executor.submit(job, spec)] = spec
            while pending:
                if stop():  # the games waiting for a worker are not begun
                    for future in [future for future in pending if future.cancel()]:
                        del pending[future]
                collect(finished(interrupted))
        except BaseException:
            executor.shutdown(wait=False, cancel_futures=True)
            raise
    return played


@contextlib.contextmanager
def ctrl_c_as_flag() -> Iterator[Callable[[], bool]]:
    """While in effect, Ctrl-C only sets a flag, read by the function this yields, so
    that the KeyboardInterrupt is raised where the runner checks for it and never
    inside the executor while it holds a lock. Outside the main thread, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return
    pressed = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.set())
    try:
        yield pressed.is_set
    finally:
        signal.signal(signal.SIGINT, previous)
