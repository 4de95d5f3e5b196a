"""A process-pool Executor for the referees: each worker process runs one task at
a time, silenced, and is killed and replaced when its task stops reporting
progress for too long or when it dies. Workers run only the project's own code;
players run in jails that the workers start (players.sandbox.jail), which adopt their
orphans, so closing a jail also kills what its player hid away."""

from __future__ import annotations

import collections
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, Future
from multiprocessing.connection import Connection
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any, Callable, ParamSpec, TypeVar

from players.sandbox import jail

POLL_SECONDS = 0.05
ORPHAN_POLL_SECONDS = 0.5
"""How often a worker checks that its parent is still alive."""
BEAT_SECONDS = 0.25
"""The least time between two heartbeats a worker sends: a hard time limit is
seconds, where a move often takes a millisecond."""

P = ParamSpec('P')
R = TypeVar('R')
Task = tuple['Future[Any]', Callable[..., Any], tuple[Any, ...], dict[str, Any]]
"""A submitted call waiting for a worker: its future, function, arguments and
keyword arguments (any, as Executor.submit takes)."""

_connection: Connection | None = None
"""Inside a worker, its end of the pipe to the parent; None elsewhere."""
_last_beat = -math.inf
"""When this worker last sent a heartbeat (time.monotonic())."""


def heartbeat() -> None:
    """Tell the parent that this worker's task is alive, unless it was told less than
    BEAT_SECONDS ago; this restarts the task's hard time limit. Does nothing
    outside a worker."""
    global _last_beat
    if _connection is not None:
        now = time.monotonic()
        if now - _last_beat >= BEAT_SECONDS:
            _last_beat = now
            _connection.send(('beat',))


class WorkerLost(Exception):
    """A task's worker process died, or was killed for going silent past the hard
    time limit: a fault of the machinery, not of a player."""

    def __init__(self, message: str, timed_out: bool = False):
        super().__init__(message)
        self.timed_out = timed_out
        """True if the parent killed the worker for going silent too long."""


class _Worker:
    """A worker process, its pipe, and the task it is running."""

    def __init__(self, context: BaseContext):
        self.connection, child_end = context.Pipe()
        # every context get_context returns has Process; typeshed's BaseContext lacks it
        process = context.Process  # type: ignore[attr-defined]
        self.process: BaseProcess = process(target=_work, args=(child_end,), daemon=True)
        self.process.start()
        child_end.close()
        self.future: Future[Any] | None = None
        self.last_beat = 0.0
        self.sent: Callable[..., Any] | None = None
        """The function of the last task sent, which the worker keeps: a task of the same
        function is sent without it (a tournament's job holds every player's code)."""

    def start(self, future: Future[Any], fn: Callable[..., Any], args: tuple[Any, ...],
              kwargs: dict[str, Any]) -> None:
        """Send the worker a task."""
        self.future, self.last_beat = future, time.monotonic()
        self.connection.send((None if fn is self.sent else fn, args, kwargs))
        self.sent = fn

    def stop(self) -> None:
        """Kill the worker process and close its pipe."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.connection.close()


class WorkerPool(Executor):
    """Run each submitted call in one of max_workers worker processes. A call that
    goes hard_timeout seconds without a heartbeat() has its worker killed and its
    future fails with WorkerLost(timed_out=True); a worker that dies (os._exit, a
    crash) fails its future with WorkerLost. Either way a new worker takes its
    place. Workers ignore Ctrl-C (the parent handles it) and write their standard
    output and error to os.devnull. Workers start as start_method says (see
    multiprocessing; default: fork where the system has it); a pool made in a
    process with other threads should use 'spawn', so that no worker is forked
    holding a lock another thread held."""

    def __init__(self, max_workers: int | None = None, hard_timeout: float | None = None,
                 start_method: str | None = None):
        if max_workers is None:
            max_workers = os.cpu_count() or 1
        if max_workers < 1:
            raise ValueError('max_workers must be at least 1')
        if start_method is None and 'fork' in multiprocessing.get_all_start_methods():
            start_method = 'fork'
        self._context = multiprocessing.get_context(start_method)
        self._hard_timeout = hard_timeout
        self._tasks: collections.deque[Task] = collections.deque()
        self._lock = threading.Lock()
        self._wake, self._waker = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        """A pipe the manager waits on with the busy workers' pipes: a byte on it says
        that a task was submitted or the pool shut down, so it acts at once."""
        self._closing = False
        self._abandon = False
        self._workers = [_Worker(self._context) for _ in range(max_workers)]
        self._manager = threading.Thread(target=self._manage, name='sandbox-manager', daemon=True)
        self._manager.start()

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Schedule fn(*args, **kwargs) in a worker process and return its Future."""
        future: Future[R] = Future()
        with self._lock:
            if self._closing:
                raise RuntimeError('cannot submit after shutdown')
            self._tasks.append((future, fn, args, kwargs))
            self._wake_manager()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; cancel the queued ones if asked; with wait, return once
        the running calls are done (without it, kill the workers at once)."""
        with self._lock:
            self._closing = True
            self._abandon = not wait
            if cancel_futures or not wait:
                while self._tasks:
                    self._tasks.popleft()[0].cancel()
            self._wake_manager()
        self._manager.join()
        with self._lock:
            if self._waker >= 0:  # the first shutdown closes the pipe the manager woke on
                os.close(self._wake)
                os.close(self._waker)
                self._wake = self._waker = -1

    def _wake_manager(self) -> None:
        """Have the manager look at the tasks and the pool's state at once (called
        holding the lock)."""
        if self._waker >= 0:
            try:
                os.write(self._waker, b'.')
            except BlockingIOError:  # the pipe is full: the manager has been woken already
                pass

    def _manage(self) -> None:
        """Hand tasks to idle workers, collect results, and replace lost workers."""
        while True:
            with self._lock:
                self._assign()
                busy = [worker for worker in self._workers if worker.future is not None]
                if self._abandon or (not busy and self._closing and not self._tasks):
                    break
            ready = multiprocessing.connection.wait(
                [self._wake, *(worker.connection for worker in busy)], POLL_SECONDS)
            if self._wake in ready:
                os.read(self._wake, 4096)
            for worker in busy:
                if worker.connection in ready:
                    self._receive(worker)
                elif (self._hard_timeout is not None
                      and time.monotonic() - worker.last_beat > self._hard_timeout):
                    self._replace(worker, WorkerLost(
                        f'no progress within {self._hard_timeout:g} s; worker killed', True))
        for worker in self._workers:
            if worker.future is not None:
                worker.future.set_exception(WorkerLost('the executor was shut down'))
            worker.stop()

    def _assign(self) -> None:
        """Start queued tasks on idle workers (called holding the lock)."""
        for worker in self._workers:
            while worker.future is None and self._tasks:
                future, fn, args, kwargs = self._tasks.popleft()
                if future.set_running_or_notify_cancel():
                    try:
                        worker.start(future, fn, args, kwargs)
                    except Exception as error:  # a task that cannot be sent, such as a lambda
                        worker.future = None
                        future.set_exception(error)

    def _receive(self, worker: _Worker) -> None:
        """Read one message from a busy worker: a heartbeat or its task's outcome."""
        try:
            kind, *message = worker.connection.recv()
        except (EOFError, OSError):
            worker.process.join()
            self._replace(worker, WorkerLost(
                f'worker process exited with status {worker.process.exitcode}'))
            return
        except Exception as error:  # a message the parent cannot unpickle
            self._replace(worker, WorkerLost(
                f'unreadable message from the worker: {type(error).__name__}: {error}'))
            return
        if kind == 'beat':
            worker.last_beat = time.monotonic()
            return
        future, worker.future = worker.future, None
        ok, value = message
        if future is None:  # busy workers have one: a task's outcome settles it
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _replace(self, worker: _Worker, error: WorkerLost) -> None:
        """Kill a worker, fail its task with error, and start a new worker in its place."""
        future = worker.future
        worker.stop()
        if future is not None:
            future.set_exception(error)
        self._workers[self._workers.index(worker)] = _Worker(self._context)


def _work(connection: Connection) -> None:
    """A worker process's loop: run each task it is sent and send back its outcome."""
    global _connection
    _connection = connection
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    jail.prepare_jailer()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True).start()
    fn: Callable[..., Any]  # the last function sent: a task of the same one comes without it
    while True:
        try:
            task = connection.recv()
        except (EOFError, OSError):
            return
        sys.stdout = sys.stderr = open(os.devnull, 'w')
        fn, args, kwargs = task[0] or fn, task[1], task[2]
        try:
            outcome = ('done', True, fn(*args, **kwargs))
        except BaseException as error:  # the task's failure goes to its future
            outcome = ('done', False, error)
        try:
            connection.send(outcome)
        except Exception as error:  # an outcome that cannot be pickled
            connection.send(('done', False, RuntimeError(
                f'unpicklable outcome: {type(error).__name__}: {error}')))


def _watch_parent(parent: int) -> None:
    """End this worker at once when its parent dies: the other workers hold its pipe
    open, so no end of file tells it, and a hung player would keep it running anyway."""
    while os.getppid() == parent:
        time.sleep(ORPHAN_POLL_SECONDS)
    os._exit(1)
