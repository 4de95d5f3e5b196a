"""Checking that every player loads, in worker processes, so that a file that exits,
hangs or prints as it is imported cannot stop or spoil the tournament itself."""

from __future__ import annotations

from typing import Callable, Sequence

from .workers import SandboxExecutor, WorkerLost


def check_players(specs: Sequence[str], load_player: Callable[[str], object],
                  seconds: float, jobs: int = 2) -> None:
    """Load each spec with load_player in a worker process and raise ValueError,
    naming the first in order that fails: a load error, no result within seconds,
    or its process ending."""
    with SandboxExecutor(max(1, min(jobs, len(specs))), hard_timeout=seconds) as executor:
        try:
            futures = [executor.submit(load_problem, load_player, spec) for spec in specs]
            for spec, future in zip(specs, futures):
                try:
                    problem = future.result()
                except WorkerLost as error:
                    problem = (f'player {spec!r} did not load within {seconds:g} s'
                               if error.timed_out else
                               f'player {spec!r} ended its process as it loaded ({error})')
                if problem:
                    raise ValueError(problem)
        except BaseException:  # a failed load or Ctrl-C: stop the other loads at once
            executor.shutdown(wait=False, cancel_futures=True)
            raise


def load_problem(load_player: Callable[[str], object], spec: str) -> str | None:
    """Return what is wrong with loading spec, or None if it loads."""
    try:
        load_player(spec)
    except Exception as error:  # PlayerLoadError, or a loader's own failure
        return str(error) or type(error).__name__
    return None
