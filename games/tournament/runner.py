"""Running a schedule: unplayed games to the executor, their records to the store."""

from __future__ import annotations

from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Callable, Iterable

from .match import lost_record
from .schedule import GameSpec
from .store import Store
from .workers import WorkerLost


def run(specs: Iterable[GameSpec], job: Callable[[GameSpec], dict], executor: Executor,
        store: Store, in_flight: int, progress: Callable[[], None] = lambda: None) -> int:
    """Play every game of specs that store does not hold yet, as job(spec) on the
    executor with at most in_flight games submitted at a time, storing each
    record as it finishes and calling progress() after each. A game whose worker
    is lost counts as a forfeit of the player to move. Returns the games played.
    On any exception, Ctrl-C included, the running games are abandoned."""
    pending: dict[Future, GameSpec] = {}
    played = 0

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

    try:
        for spec in specs:
            if store.has(spec.index):
                continue
            while len(pending) >= in_flight:
                collect(wait(pending, return_when=FIRST_COMPLETED).done)
            pending[executor.submit(job, spec)] = spec
        while pending:
            collect(wait(pending, return_when=FIRST_COMPLETED).done)
    except BaseException:
        executor.shutdown(wait=False, cancel_futures=True)
        raise
    return played
