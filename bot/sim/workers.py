"""A small process pool for the simulator: results in task order, no threads in the parent.

:class:`multiprocessing.pool.Pool` keeps three threads in the parent, and one of them wakes up
each time a result is ready and spins until another thread has read it: on a two-core machine
that took CPU from the workers. Here the parent's only thread sends each worker its next tasks
through a pipe and waits (:func:`multiprocessing.connection.wait`) for answers, so while the
workers play it sleeps.

Every worker starts with the run's ``job`` (inherited under fork, the Linux default here, so
the compiled kernel and the imported modules come for free; pickled once under spawn) and then
receives only small tasks. Each worker has up to :data:`IN_FLIGHT` tasks queued, so it never
waits for the parent between two of them. Results come back in task order whatever worker
played them, so a run's records are in game order.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar, cast

__all__ = ["IN_FLIGHT", "WorkerError", "Workers", "context"]

IN_FLIGHT = 2
"""Tasks sent to a worker ahead of its answers (one it plays, one waiting in the pipe)."""

_J = TypeVar("_J")
_T = TypeVar("_T")
_R = TypeVar("_R")


class WorkerError(RuntimeError):
    """A worker process ended without answering (killed, or out of memory)."""


_GONE = "a simulator worker process ended unexpectedly"


def context() -> Any:  # a multiprocessing context (typeshed's BaseContext lacks Process)
    """fork where it is safe (Linux): workers inherit the compiled kernel and the imported
    modules instead of loading them again (spawn, and forkserver, the default from Python
    3.14, cost every worker up to a second before its first game)."""
    if sys.platform.startswith("linux"):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Ctrl+C reaches the whole process group, and a worker must leave it to the parent (which
    stops the workers) from its very first instruction: SIGINT is blocked while a worker
    starts, so the worker is born with it blocked (the mask survives fork and exec), and a
    Ctrl+C in that moment reaches the parent as soon as it is unblocked, not lost."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not POSIX
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _serve(connection: Connection, play: Callable[[Any, Any], Any], job: Any) -> None:
    # Ctrl-C reaches the whole process group: the parent alone handles it (and stops us).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        task = connection.recv()
        if task is None:
            return
        try:
            answer: tuple[bool, Any] = (True, play(job, task))
        except Exception as error:  # sent to the parent, which raises it there
            answer = (False, error)
        connection.send(answer)


class Workers(Generic[_J, _T, _R]):
    """``count`` worker processes that each compute ``play(job, task)`` for the tasks given
    to :meth:`map`. ``play`` must be a module-level function (it pickles by name under spawn).
    Use as a context manager: leaving it stops the workers."""

    def __init__(self, count: int, play: Callable[[_J, _T], _R], job: _J) -> None:
        ctx = context()
        self._connections: list[Connection] = []
        self._processes: list[Any] = []
        try:
            for _ in range(count):
                ours, theirs = ctx.Pipe()
                process = ctx.Process(target=_serve, args=(theirs, play, job), daemon=True)
                with _sigint_held():
                    process.start()
                theirs.close()
                self._connections.append(ours)
                self._processes.append(process)
        except BaseException:
            self.close(now=True)
            raise

    def map(self, tasks: Sequence[_T]) -> Iterator[_R]:
        """``play(job, task)`` of every task, yielded in task order."""
        queued: dict[Connection, deque[int]] = {c: deque() for c in self._connections}
        ready: dict[int, _R] = {}
        sent = done = 0
        while done < len(tasks):
            for connection, waiting in queued.items():
                while len(waiting) < IN_FLIGHT and sent < len(tasks):
                    try:
                        connection.send(tasks[sent])
                    except OSError:  # its end of the pipe is closed: the worker is gone
                        raise WorkerError(_GONE) from None
                    waiting.append(sent)
                    sent += 1
            for answered in wait([c for c, waiting in queued.items() if waiting]):
                connection = cast(Connection, answered)
                try:
                    ok, value = connection.recv()
                except (EOFError, OSError):
                    raise WorkerError(_GONE) from None
                index = queued[connection].popleft()
                if not ok:
                    raise value
                ready[index] = value
            while done in ready:
                yield ready.pop(done)
                done += 1

    def close(self, now: bool = False) -> None:
        """Stop the workers: once idle (they finish what they were sent), or ``now``."""
        for connection in self._connections:
            with contextlib.suppress(OSError):  # a worker that is gone already
                connection.send(None)
        for process in self._processes:
            if not now:
                process.join(timeout=5.0)
            if process.is_alive():
                process.terminate()
            process.join()
        for connection in self._connections:
            connection.close()
        self._connections = []
        self._processes = []

    def __enter__(self) -> Workers[_J, _T, _R]:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        # After an error or Ctrl-C the remaining games are not wanted: stop at once.
        self.close(now=kind is not None)
