"""The worker pool's heartbeats: a task's moves tell the parent it is alive, a few
times a second at most."""

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
