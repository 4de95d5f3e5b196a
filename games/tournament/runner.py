"""Running a schedule: unplayed games to the executor, their records to the store."""

from __future__ import annotations

import contextlib
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Callable, Iterable, Iterator

from .match import lost_record
from .schedule import GameSpec
from .store import Store
from .workers import WorkerLost

POLL_SECONDS = 0.1


def run(specs: Iterable[GameSpec], job: Callable[[GameSpec], dict], executor: Executor,
        store: Store, in_flight: int, progress: Callable[[], None] = lambda: None) -> int:
    """Play every game of specs that store does not hold yet, as job(spec) on the
    executor with at most in_flight games submitted at a time, storing each
    record as it finishes and calling progress() after each. A game whose worker
    is lost counts as a forfeit of the player to move. Returns the games played.
    On any exception, Ctrl-C included, the running games are abandoned."""
    pending: dict[Future, GameSpec] = {}
    played = 0

    def finished(interrupted: Callable[[], bool]) -> set:
        """Wait briefly for games to finish; raise KeyboardInterrupt if Ctrl-C was pressed."""
        done = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED).done
        if interrupted():
            raise KeyboardInterrupt
        return done

    def collect(futures) -> None:
        nonlocal played
        for future in futures:
            spec = pending.pop(future)
            try:
                record = future.result()
            except WorkerLost as error:
                record = lost_record(spec, error)
            store.add(record)
            played += 1
            progress()

    with ctrl_c_as_flag() as interrupted:
        try:
            for spec in specs:
                if store.has(spec.index):
                    continue
                while len(pending) >= in_flight:
                    collect(finished(interrupted))
                pending[executor.submit(job, spec)] = spec
            while pending:
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
