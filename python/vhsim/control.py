"""Stopping and watching a run: Ctrl-C / SIGTERM, progress of long runs.

The Rust core simulates with the GIL released and never calls back into Python.  Instead it
shares a :class:`vhsim._native.RunControl` with its caller: every few thousand events it
publishes the simulated time and the event count, and reads a stop flag.

Python runs signal handlers only in the main thread, and only between bytecodes, so a run
started from the main thread simulates in a helper thread while the main thread waits in short
steps.  Between steps it reports progress and, when a signal handler raises (Ctrl-C is
:class:`KeyboardInterrupt`), it sets the stop flag, waits for the core to notice (well under a
second) and lets the exception go on.  Nothing of the interrupted run is returned or saved.

The command line installs :func:`signal_handlers`, which turn SIGINT and SIGTERM into
:class:`Interrupted` (a ``KeyboardInterrupt`` that knows its signal, hence exit code 130 or 143).
"""

from __future__ import annotations

import contextlib
import os
import signal
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from . import _native

__all__ = ["Interrupted", "Progress", "RunControl", "signal_handlers", "run_native", "set_direct_runs",
           "exit_code"]

#: Stop flag and progress counters shared with a running simulation (``stop()``,
#: ``progress()``); pass one as ``Scenario.run(control=...)`` to stop a run from another thread.
RunControl = _native.RunControl

#: Seconds between two looks at a run from the waiting thread.
POLL_S = 0.1


class Interrupted(KeyboardInterrupt):
    """A run (or a whole command) was stopped by a signal; ``exit_code`` is 128 + signal."""

    def __init__(self, signum: int = signal.SIGINT, message: str = "interrupted") -> None:
        super().__init__(message)
        self.signum = int(signum)

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def exit_code(err: BaseException) -> int:
    """130 for Ctrl-C, 143 for SIGTERM, 128 + N for another :class:`Interrupted`."""
    return err.exit_code if isinstance(err, Interrupted) else 128 + signal.SIGINT


@dataclass(frozen=True)
class Progress:
    """Where a running simulation is."""

    sim_s: float
    """Simulated time reached (s)."""
    end_s: float
    """Simulated time at which the run ends (s)."""
    events: int
    """Events processed so far."""
    wall_s: float
    """Wall-clock time since the run started (s)."""

    @property
    def fraction(self) -> float:
        return min(1.0, self.sim_s / self.end_s) if self.end_s > 0 else 0.0

    @property
    def events_per_s(self) -> float:
        return self.events / self.wall_s if self.wall_s > 0 else 0.0

    @property
    def eta_s(self) -> float | None:
        """Wall seconds left at the pace so far (``None`` before there is a pace)."""
        if self.sim_s <= 0 or self.wall_s <= 0:
            return None
        return self.wall_s * max(0.0, self.end_s - self.sim_s) / self.sim_s


@contextlib.contextmanager
def signal_handlers() -> Iterator[None]:
    """Within the block, SIGINT and SIGTERM raise :class:`Interrupted` in the main thread.

    A second signal while the first is being handled ends the process at once with the same
    exit code (outputs are written so that such an exit never leaves one looking complete).
    Outside the main thread this does nothing.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []

    def handler(signum: int, _frame: Any) -> None:
        if seen:
            os._exit(128 + signum)
        seen.append(signum)
        raise Interrupted(signum)

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    for s in old:
        signal.signal(s, handler)
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h if h is not None else signal.SIG_DFL)


_direct = threading.local()


def set_direct_runs(on: bool = True) -> None:
    """Let runs of this thread call the core directly, without a helper thread: for worker
    processes of a sweep, which ignore SIGINT and are stopped by their parent instead."""
    _direct.on = bool(on)


def run_native(
    kwargs: dict[str, Any],
    on_progress: Callable[[Progress], None] | None = None,
    control: Any = None,
) -> dict[str, Any]:
    """Call ``_native.run(**kwargs)`` so that it can be interrupted and watched.

    ``on_progress`` is called about every :data:`POLL_S` seconds from the calling thread.
    ``control``: a ``_native.RunControl`` the caller keeps, e.g. to stop the run after a time
    limit (the run then raises :class:`Interrupted`).
    """
    ctl = control if control is not None else _native.RunControl()
    if getattr(_direct, "on", False) and on_progress is None:
        return _native.run(**kwargs, control=ctl)
    outcome: dict[str, Any] = {}
    # An Event, not Thread.join: on Python 3.11 a join interrupted by a signal handler marks
    # the thread stopped while it still runs (bpo-45274), and an interpreter that exits while
    # the core still runs aborts the process.
    done = threading.Event()

    def work() -> None:
        try:
            outcome["value"] = _native.run(**kwargs, control=ctl)
        except BaseException as err:  # noqa: BLE001 - handed over to the waiting thread
            outcome["error"] = err
        finally:
            done.set()

    started = time.perf_counter()
    launched = False
    try:
        _run_thread().put(work)
        launched = True
        while not done.wait(POLL_S):
            if on_progress is not None:
                sim_ns, end_ns, events = ctl.progress()
                on_progress(Progress(sim_ns / 1e9, end_ns / 1e9, int(events), time.perf_counter() - started))
    except BaseException:
        if launched:
            ctl.stop()
            _wait_through_interrupts(done)
        raise
    if "error" in outcome:
        err = outcome["error"]
        if isinstance(err, KeyboardInterrupt) and not isinstance(err, Interrupted):
            raise Interrupted(signal.SIGINT, str(err) or "interrupted") from None
        raise err
    return outcome["value"]


_jobs: "queue.Queue[Callable[[], None]] | None" = None
_jobs_lock = threading.Lock()


def _run_thread() -> "queue.Queue[Callable[[], None]]":
    """The queue of the one helper thread that runs simulations for this process's threads.
    One long-lived thread rather than a thread per run: starting a thread costs milliseconds
    on a loaded machine, as much as a short run (a sweep of many short runs in one process)."""
    global _jobs
    with _jobs_lock:
        if _jobs is None:
            jobs: "queue.Queue[Callable[[], None]]" = queue.Queue()

            def serve() -> None:
                while True:
                    jobs.get()()

            with _signals_held():  # a signal handler raising inside start() would lose the thread
                threading.Thread(target=serve, name="vhsim-run", daemon=True).start()
            _jobs = jobs
        return _jobs


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT and SIGTERM back (POSIX, main thread) for the duration of the block; they
    are delivered when it ends.  A thread started inside inherits the mask, so signals always
    go to the main thread, where Python handles them anyway."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    old = mask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, old)


def _wait_through_interrupts(done: threading.Event) -> None:
    """Wait until the stopped run has left the core (milliseconds), ignoring further Ctrl-C:
    leaving earlier would let the interpreter exit under a running core."""
    while True:
        try:
            if done.wait(1.0):
                return
        except KeyboardInterrupt:
            continue
