"""Tournaments on a Dask cluster: an Executor whose calls run on the workers of a
Dask scheduler (Dask's `distributed`), or of a LocalCluster on this machine.

A call runs on a Dask worker exactly as WorkerPool runs it on one machine: in a
referee process of a WorkerPool that the Dask worker keeps, one process per
worker thread, which starts the players' jails itself. The Dask worker process
runs many threads (its event loop, its task threads, a profiler), and a child
forked from it could inherit a lock that another thread held at that moment and
wait on it for ever; so the pool's processes are spawned, fresh processes with
one thread that import the project, and only they fork jails. (Not from a fork
server: its socket's folder, in the temporary folder, would outlive a Dask
worker that is killed.)

A worker lost mid-call is Dask's to handle: the scheduler runs the call again on
another worker (and after several losses fails it with KilledWorker, which the
tournament's runner replays). The function submitted goes to every worker once,
in a worker plugin (which also reaches workers that join later); each task then
carries only its arguments. Results come back to the process that submitted
them, which stays the single writer of the results.

Importing this module does not import `distributed` (a jail's preloading imports
every module of the project): only making a DaskExecutor and running its tasks do."""

# Dask's functions carry no types: calls into it are let through, as Any.
# mypy: untyped-calls-exclude=distributed

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import logging
import multiprocessing
import os
import signal
import threading
import time
import uuid
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ParamSpec, TypeVar

from players import PROJECT_PACKAGES
from players.sandbox import level_choice
from .workers import WorkerPool

if TYPE_CHECKING:
    import distributed

P = ParamSpec('P')
R = TypeVar('R')

CONNECT_SECONDS = 10.0
"""How long to try reaching a scheduler before giving up."""
SLOTS_SECONDS = 2.0
"""How often the number of the cluster's worker threads is read again."""


class ClusterError(Exception):
    """A Dask cluster that cannot be reached, or a worker that cannot play games as
    the machine running the tournament would: a fault of the machinery."""


class DaskExecutor(Executor):
    """Run each submitted call on a worker of a Dask cluster: the scheduler at an
    address, or, without one, a LocalCluster of `workers` worker processes on this
    machine. Calls run in each worker's referee processes (see the module's
    docstring); one that goes hard_timeout seconds without a heartbeat fails with
    WorkerLost, as in WorkerPool. Workers that cannot start jails of the `sandbox`
    level, or that have another version of the project, fail every call with
    ClusterError."""

    def __init__(self, scheduler: str | None = None, workers: int = 1,
                 hard_timeout: float | None = None, sandbox: str = 'process',
                 connect_seconds: float = CONNECT_SECONDS):
        import distributed
        self.address = scheduler
        self._cluster: distributed.LocalCluster | None = None
        if scheduler is None:
            self._cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True,
                dashboard_address=':0', silence_logs=logging.CRITICAL, preload=[__name__])
            self.address = self._cluster.scheduler_address
            self._client = distributed.Client(self._cluster, set_as_default=False)
        else:
            check_address(scheduler)
            try:
                self._client = distributed.Client(scheduler, set_as_default=False,
                                                  timeout=connect_seconds)
            except OSError as error:
                raise ClusterError(f'cannot reach the Dask scheduler at {scheduler}: '
                                   f'{error}') from None
        self._needs: dict[str, Any] = dict(hard_timeout=hard_timeout, sandbox=sandbox,
                                           project=project_fingerprint())
        self._plugin = distributed.WorkerPlugin
        self._jobs: dict[int, tuple[Callable[..., object], str]] = {}
        self._futures: set[distributed.Future[object]] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._slots, self._slots_read = 0, -SLOTS_SECONDS

    def describe(self) -> str:
        """Return a line saying where the games are played."""
        threads = self._client.nthreads()
        where = (f'a Dask LocalCluster on this machine ({self.address})' if self._cluster
                 else f'the Dask scheduler at {self.address}')
        waiting = '' if threads else ': no workers yet, the games wait for them'
        return (f'Playing on {where}: {len(threads)} workers, '
                f'{sum(threads.values())} threads in all{waiting}')

    def slots(self) -> int:
        """Return how many calls the cluster runs at once (its workers' threads), as
        read from the scheduler at most SLOTS_SECONDS ago."""
        now = time.monotonic()
        if now - self._slots_read >= SLOTS_SECONDS:
            try:
                self._slots = sum(self._client.nthreads().values())
            except OSError:  # the scheduler is out of reach for now: keep the last count
                pass
            self._slots_read = now
        return self._slots

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Schedule fn(*args, **kwargs) on a worker of the cluster and return its Future."""
        with self._lock:
            if self._closed:
                raise RuntimeError('cannot submit after shutdown')
            if id(fn) not in self._jobs:
                name = f'aima-games-{uuid.uuid4().hex}'
                plugin = self._plugin()  # a plugin that only carries the job, as an attribute
                plugin.job = Job(fn, **self._needs)  # type: ignore[attr-defined]
                self._client.register_plugin(plugin, name=name)
                self._jobs[id(fn)] = fn, name
            task = self._client.submit(_play, self._jobs[id(fn)][1], args, kwargs, pure=False)
            self._futures.add(task)
        future: Future[R] = Future()
        task.add_done_callback(functools.partial(self._settle, future))
        return future

    def _settle(self, future: Future[Any], task: distributed.Future[object]) -> None:
        """Give future the outcome of the finished task (called in a thread of Dask's)."""
        with self._lock:
            self._futures.discard(task)
        try:
            result = task.result()
        except BaseException as error:  # the task's failure, or its cancellation
            future.set_exception(error)
        else:
            future.set_result(result)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking calls; with wait, return once the running calls are done,
        otherwise (or if cancel_futures) cancel them; then leave the cluster (and
        close the LocalCluster, if this executor started it)."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            tasks = list(self._futures)
        if cancel_futures or not wait:
            self._client.cancel(tasks)
        else:
            self._client.gather(tasks, errors='skip')
        for _, name in self._jobs.values():
            try:
                self._client.unregister_worker_plugin(name)
            except Exception:  # a worker gone meanwhile: the job leaves with it
                pass
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def dask_setup(worker: distributed.Worker) -> None:
    """Make a worker process of this machine's LocalCluster (which preloads this
    module) ignore Ctrl-C, as WorkerPool's do: the process that runs the tournament
    handles it, and closes the cluster."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def check_address(address: str) -> None:
    """Raise ClusterError unless address is one of a scheduler that Dask can try to
    reach (a tls:// address also needs Dask's TLS settings)."""
    import distributed
    try:
        distributed.comm.get_address_host_port(address)
    except ValueError as error:
        raise ClusterError(f'{address!r} is no Dask scheduler address ({error}); give one '
                           'such as tcp://10.0.0.5:8786') from None
    if (address.startswith('tls://')
            and distributed.Security().get_connection_args('client')['ssl_context'] is None):
        raise ClusterError(f'{address} needs the TLS settings of Dask (distributed.comm.tls '
                           'in its configuration)')


@dataclass(frozen=True)
class Job:
    """What each worker keeps of a tournament: the function its tasks call, and
    what the worker must be able to do to call it as the tournament's machine would."""

    fn: Callable[..., object]
    """The function every task of the tournament calls."""
    hard_timeout: float | None
    """Seconds a call may go without a heartbeat before its referee process is killed."""
    sandbox: str
    """The jail level of the players: 'process' or 'bwrap'."""
    project: str
    """The project_fingerprint() of the machine running the tournament."""

    def problem(self) -> str | None:
        """Return why this worker cannot play the tournament's games, or None if it can."""
        if self.project != project_fingerprint():
            return ('it has another version of aima-games installed than the machine '
                    'running tournament.py')
        problem = level_choice.problem(self.sandbox)
        if problem is not None:
            return (f'it cannot jail players with {self.sandbox}: {problem}; install '
                    'what it needs there or play with --sandbox process')
        return None


_pools: dict[float | None, WorkerPool] = {}
"""In a Dask worker, its referee processes, by hard time limit."""
_pools_lock = threading.Lock()


def _play(name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
    """Call the job of the plugin name with args and kwargs in one of this Dask
    worker's referee processes, and return what it returns (run by Dask on a worker)."""
    import distributed
    worker = distributed.get_worker()
    if name not in worker.plugins:
        raise ClusterError(f'Dask worker {worker.address} does not have the job {name}')
    job = worker.plugins[name].job  # type: ignore[attr-defined]  # DaskExecutor.submit's
    problem = job.problem()
    if problem:
        raise ClusterError(f'Dask worker {worker.address} cannot play: {problem}')
    with _pools_lock:
        if job.hard_timeout not in _pools:
            # Dask starts its workers as daemons, which multiprocessing forbids to
            # have children lest a daemon's end orphan them; the pool's processes
            # end soon after this one anyway (they watch their parent), and their
            # jails with them.
            multiprocessing.current_process().daemon = False
            _pools[job.hard_timeout] = WorkerPool(worker.state.nthreads, job.hard_timeout,
                                                  start_method='spawn')
        pool = _pools[job.hard_timeout]
    return pool.submit(_referee, job.fn, args, kwargs).result()


def _referee(fn: Callable[..., object], args: tuple[Any, ...], kwargs: dict[str, Any]) -> object:
    """Return fn(*args, **kwargs), called in a referee process (a WorkerPool's
    process, which starts its own jail servers)."""
    return fn(*args, **kwargs)


@functools.lru_cache(maxsize=None)
def project_fingerprint() -> str:
    """Return a digest of the project's Python code (the files of PROJECT_PACKAGES): two
    machines with the same digest have the same code, and play every game alike."""
    digest = hashlib.sha256()
    for package in PROJECT_PACKAGES:
        top = os.path.dirname(os.path.dirname(inspect.getfile(importlib.import_module(package))))
        for folder, subfolders, files in os.walk(os.path.join(top, package)):
            subfolders.sort()
            for file in sorted(f for f in files if f.endswith('.py')):
                path = os.path.join(folder, file)
                digest.update(os.path.relpath(path, top).encode() + b'\0')
                with open(path, 'rb') as source:
                    digest.update(source.read() + b'\0')
    return digest.hexdigest()[:16]
