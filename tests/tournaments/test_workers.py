"""The worker pool: a task's moves tell the parent it is alive, a few times a
second at most, and a task submitted goes to an idle worker at once."""

import os
import time
from types import SimpleNamespace

from players.tournaments import workers


class Pipe:
    """A worker's end of the pipe, keeping what is sent."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def test_heartbeats_within_beat_seconds_are_sent_once(monkeypatch):
    pipe, now = Pipe(), [100.0]
    monkeypatch.setattr(workers, '_connection', pipe)
    monkeypatch.setattr(workers, '_last_beat', -float('inf'))
    monkeypatch.setattr(workers, 'time', SimpleNamespace(monotonic=lambda: now[0]))
    for _ in range(50):
        workers.heartbeat()
        now[0] += workers.BEAT_SECONDS / 10
    assert pipe.sent == [('beat',)] * 5


def test_a_heartbeat_outside_a_worker_does_nothing(monkeypatch):
    monkeypatch.setattr(workers, '_connection', None)
    workers.heartbeat()


def wait_for(path):
    """Wait until a file exists at path (30 s at most): a task that keeps its worker
    busy for as long as the test needs."""
    deadline = time.monotonic() + 30
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)


def test_the_pool_hands_a_task_to_an_idle_worker_at_once(monkeypatch, tmp_path):
    monkeypatch.setattr(workers, 'POLL_SECONDS', 60.0)  # a manager that polled would wait
    release = tmp_path / 'release'
    with workers.WorkerPool(2) as pool:
        first = pool.submit(wait_for, str(release))
        try:
            while not first.running():
                time.sleep(0.01)
            second = pool.submit(os.getpid)  # while the manager waits on the busy worker
            assert second.result(timeout=10) != os.getpid()
            assert not first.done()
        finally:
            release.touch()
        first.result(timeout=10)
