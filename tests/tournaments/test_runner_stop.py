"""A run stopped by its stop flag (the arena's ladder, when a new version comes) begins no
game once the flag is up: the games waiting for a worker are cancelled, and those under
way end and are stored."""

import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from players.tournaments.runner import run


class Games(dict):
    """A store: the games kept, by index."""

    def has(self, index):
        return index in self

    def add(self, record):
        self[record.index] = record


def test_a_stopped_run_begins_no_game_and_keeps_those_under_way():
    specs = [SimpleNamespace(index=index, variant='nim', first='a', second='b')
             for index in range(10)]
    begun = []

    def job(spec):
        begun.append(spec.index)
        time.sleep(0 if spec.index == 0 else 0.3)
        return SimpleNamespace(index=spec.index)

    games, flag = Games(), []
    with ThreadPoolExecutor(1) as executor:
        played = run(specs, job, executor, games, in_flight=4,
                     progress=lambda: flag.append(True), stop=lambda: bool(flag))
    assert set(games) == set(begun) and played == len(games)
    assert 0 in games and set(games) <= {0, 1}  # 2 and 3 waited for the worker: cancelled
