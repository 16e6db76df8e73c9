"""Executing a campaign: inline, on a local process pool, or on a Dask cluster.

Workers only simulate: :func:`execute_run` takes the scenario text, overrides and seed and
returns the summary, flattened into the result table's columns there (the parent, which writes
every record, is the busier process), and the traces when asked.  The process that called
:func:`run_campaign` is the only one that writes to the campaign folder, so the store works
the same whatever the backend -- including Dask workers on other machines that do not see
the folder -- and the result table cannot depend on the backend or the number of workers.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from .axes import CampaignError
from .spec import MAX_RUNS, CampaignSpec, PlannedRun
from .store import LOCK_FILE, Campaign, DamagedRecord

__all__ = ["run_campaign", "WorkerPool", "execute_run", "execute_unit", "branch_units", "SweepReport", "default_workers"]

# A task is plain data so that it pickles cheaply for any backend:
# (run_id, scenario_text, overrides, scenario_path, seed, detail)
Task = tuple[str, str, tuple[tuple[str, str], ...], "str | None", int, str]
# A unit of work: one task, or tasks that differ only in a handover instant (and the duration),
# run as branches of one trunk (vhsim_sim::branch).
Unit = list[Task]

#: Override keys a branch group may vary: a timeline entry's time, and the duration.
_BRANCH_KEY = re.compile(r"timeline\[\d+\]\.at|duration")
#: Most runs in one branch group: a group's results stay in memory until it ends.
_GROUP_MAX = {"summary": 256, "timeseries": 32, "packets": 8}


def default_workers() -> int:
    """All cores this process may use."""
    with contextlib.suppress(AttributeError):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def execute_run(task: Task) -> dict[str, Any]:
    """Run one simulation (in a worker).  Never raises: failures come back as data."""
    from .._native import SimulationError
    from ..scenario import Scenario

    run_id, text, overrides, path, seed, detail = task
    try:
        result = Scenario(text, overrides, path).run(seed=seed, detail=detail)
    except SimulationError as err:
        return {"run_id": run_id, "ok": False, "error": f"simulation failed: {err}"}
    except Exception as err:  # noqa: BLE001 - a worker must report, not die
        return {"run_id": run_id, "ok": False, "error": f"{type(err).__name__}: {err}"}
    return _finished(run_id, result, detail)


def _finished(run_id: str, result, detail: str) -> dict[str, Any]:
    """A finished run's outcome: its flattened summary (``values``) and, besides, only what
    the record takes from the summary (its wall time) unless the traces go back too. A few
    hundred outcomes wait in the parent's queue at a time (Daniel & Kojo: ~40 MB whole).
    Traces go back as arrays, encoded by the parent (:meth:`vhsim.Result.encoded`): encoding
    them here would import pyarrow into every worker (issue #28: a Sobral worker then took
    ~110-135 MB instead of ~60)."""
    from .store import flatten_summary, metrics_values

    summary = result.summary if detail != "summary" else {"wall_s": result.summary.get("wall_s")}
    # The metrics go back as their names and the record's JSON text of their values: encoding them
    # is then the workers' work, and one string pickles faster than ~200 figures.
    return {"run_id": run_id, "ok": True, "summary": summary, "values": metrics_values(flatten_summary(result.summary)),
            "result": result if detail != "summary" else None}


def execute_unit(unit: Unit) -> list[dict[str, Any]]:
    """Run a unit (in a worker): one task alone, or a group as branches of one trunk. A group
    the core finds not branchable runs task by task. Never raises."""
    if len(unit) == 1:
        return [execute_run(unit[0])]
    from .. import _native

    from ..result import TABLE_LIMIT

    _, text, _, path, seed, detail = unit[0]
    try:
        raws = _native.run_branches(text, [list(t[2]) for t in unit], seed, detail, tables_above=TABLE_LIMIT)
    except Exception:  # noqa: BLE001 - not branchable, or one variant fails: run them alone
        return [execute_run(t) for t in unit]
    from ..result import Result
    from ..scenario import Scenario

    # The scenario that ran goes with a result whose traces go back (Result.receive_windows
    # reads it); a summary-only outcome needs none.
    return [_finished(task[0], Result.from_native(raw, scenario=Scenario(text, task[2], path) if detail != "summary" else None),
                      detail) for task, raw in zip(unit, raws)]


def branch_units(tasks: list[Task]) -> list[Unit]:
    """Tasks grouped for branching: same seed, same overrides but for timeline times and the
    duration (and at least one such key). Order: groups in the order of their first task."""
    groups: dict[Any, Unit] = {}
    units: list[Unit] = []
    for task in tasks:
        run_id, text, overrides, path, seed, detail = task
        varied = [k for k, _ in overrides if _BRANCH_KEY.fullmatch(k)]
        if not varied:
            units.append([task])
            continue
        key = (seed, detail, tuple((k, v) for k, v in overrides if not _BRANCH_KEY.fullmatch(k)))
        group = groups.get(key)
        if group is None or len(group) >= _GROUP_MAX.get(detail, 8):
            group = groups[key] = []
            units.append(group)
        group.append(task)
    return units


@dataclass
class SweepReport:
    """What a sweep did."""

    campaign: Campaign
    total: int
    already_done: int
    executed: int = 0
    failed: list[tuple[PlannedRun, str]] = field(default_factory=list)
    wall_s: float = 0.0
    backend: str = "inline"
    damaged: list[DamagedRecord] = field(default_factory=list)
    """Damaged records found when the sweep started, set aside in ``DIR/corrupt/`` and run again."""

    @property
    def done(self) -> int:
        return self.already_done + self.executed

    def line(self) -> str:
        failed = f", {len(self.failed)} failed" if self.failed else ""
        damaged = f", {len(self.damaged)} damaged records run again" if self.damaged else ""
        return (f"campaign {self.campaign.path}: {self.done}/{self.total} runs done "
                f"({self.executed} run now on {self.backend}, {self.already_done} already stored{failed}{damaged}) "
                f"in {self.wall_s:.1f} s")


# --------------------------------------------------------------------------- backends
def _inline(units: list[Unit], workers: int) -> Iterator[list[dict]]:
    for unit in units:
        yield execute_unit(unit)


def _exit_with_sweep(sweep_pid: int) -> None:
    """Worker initializer: exit when the sweep process that started the pool dies.

    After a SIGKILL of the sweep, a pool worker would wait on its task queue forever (the
    queue's pipe stays open in the other workers, and the forkserver, their parent, lives
    as long as they do), so each worker watches the sweep's pid instead.

    Workers ignore SIGINT and SIGTERM: Ctrl-C (or a SIGTERM to the process group) reaches
    every process of the group, and the sweep alone decides what happens (it kills its
    workers, see _process_pool, and exits with 130 / 143 rather than "a worker died"); they
    run simulations directly, without the helper thread that makes a run interruptible.
    """
    import signal
    import threading

    from ..control import set_direct_runs

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    set_direct_runs(True)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            try:
                os.kill(sweep_pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:  # pid reused by another user's process: ours is gone
                os._exit(1)

    threading.Thread(target=watch, name="vhsim-sweep-watch", daemon=True).start()


def _pool_context():
    """fork on Linux, spawn elsewhere.

    fork, because forkserver and spawn re-import the user's ``__main__`` in every worker:
    a notebook-style script that calls run_campaign at top level would then run the
    campaign again inside each worker.  Forking is safe for what a worker does (simulate,
    pickle the result): all pool workers are forked at the first submit, before the
    progress bar starts its thread (see _Progress).  macOS and Windows cannot fork safely,
    so there scripts need the usual ``if __name__ == "__main__":`` guard.
    """
    import multiprocessing

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    return multiprocessing.get_context(method)


def _new_executor(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=_pool_context(), initializer=_exit_with_sweep,
                               initargs=(os.getpid(),))


def _ready() -> None:
    """A task that does nothing: submitted once to start a pool's workers."""


class WorkerPool:
    """Local worker processes kept warm across several campaigns::

        with WorkerPool(2) as pool:
            for spec, folder in campaigns:
                run_campaign(spec, folder, pool=pool)

    The workers start when the pool is entered (with fork, all of them at the first task), so
    they are copies of the caller *before* it builds and plans the campaigns: a worker's
    memory is its own runs', not a copy of every grid and plan the caller holds (Daniel &
    Kojo's 76,815 runs made each worker of a per-campaign pool 450 MB resident; the garbage
    collector of a worker touches every inherited object, so even unused copies cost), and
    no campaign waits for processes to start. A campaign interrupted or failing on the pool stops its workers; the pool cannot
    be used after that.
    """

    def __init__(self, workers: int) -> None:
        self.workers = max(1, int(workers))
        self._executor: ProcessPoolExecutor | None = None

    def __enter__(self) -> "WorkerPool":
        self._executor = _new_executor(self.workers)
        self._executor.submit(_ready).result()
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if self._executor is not None:
            if kind is not None:
                _terminate(self._executor)
            self._executor.shutdown(wait=kind is None, cancel_futures=True)
            self._executor = None

    @property
    def executor(self) -> ProcessPoolExecutor:
        if self._executor is None:
            raise CampaignError("the worker pool is not running (use it inside `with WorkerPool(n) as pool:`)")
        return self._executor


def _process_pool(tasks: list[Unit], workers: int, pool: WorkerPool | None = None) -> Iterator[list[dict]]:
    # A few tasks queued per worker keeps the workers busy without holding every task
    # (and, with traces, every result) in memory at once. A finished run with traces waits
    # in this process, arrays and all, until it is written: two per worker then (issue #28).
    window = workers * (4 if not tasks or tasks[0][0][5] == "summary" else 2)
    pending = iter(tasks)
    executor = pool.executor if pool is not None else _new_executor(workers)
    try:
        in_flight = set()
        for task in pending:
            in_flight.add(executor.submit(execute_unit, task))
            if len(in_flight) >= window:
                break
        while in_flight:
            finished, in_flight = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in finished:
                yield future.result()  # BrokenProcessPool if a worker died
                for task in pending:
                    in_flight.add(executor.submit(execute_unit, task))
                    break
    except BaseException:
        # Interrupted (or a worker died): stop the runs in flight at once rather than let
        # them finish; only this process writes to the campaign folder, so nothing is lost
        # but unfinished runs.
        _terminate(executor)
        raise
    finally:
        if pool is None:
            executor.shutdown(wait=False, cancel_futures=True)


def _terminate(executor: ProcessPoolExecutor) -> None:
    """Stop a pool at once, so that nothing joins it forever afterwards (issue #27).

    The workers are killed (they ignore SIGTERM). A worker killed while it was sending a
    result leaves a partial message in the result pipe, which the executor's manager thread
    then waits to read to its end, forever -- and the interpreter joins that thread at exit.
    Closing this process's own write end of the pipe (the workers' ends died with them) turns
    that wait into an end of file, on which the thread gives up; it is then joined with a
    time limit only."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.kill()  # workers ignore SIGTERM
    for proc in processes:
        with contextlib.suppress(Exception):
            proc.join(timeout=2)
    queue = getattr(executor, "_result_queue", None)
    with contextlib.suppress(Exception):
        queue._writer.close()
    manager = getattr(executor, "_executor_manager_thread", None)
    wakeup = getattr(executor, "_executor_manager_thread_wakeup", None)
    with contextlib.suppress(Exception):
        wakeup.wakeup()
    if manager is not None:
        manager.join(timeout=5)


def _dask(address: str) -> Callable[[list[Unit], int], Iterator[list[dict]]]:
    def backend(tasks: list[Unit], workers: int) -> Iterator[list[dict]]:
        try:
            from distributed import Client, LocalCluster, as_completed
        except ImportError:
            raise CampaignError("--dask needs dask.distributed: pip install 'vhsim[dask]'") from None
        import logging

        with contextlib.ExitStack() as stack:
            if address == "local":
                cluster = stack.enter_context(LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True,
                    dashboard_address=None, silence_logs=logging.ERROR))
                client = stack.enter_context(Client(cluster))
            else:
                client = stack.enter_context(Client(address))
            # Keys are the run ids: a task resubmitted by a second client is the same task.
            futures = client.map(execute_unit, tasks, key=[f"vhsim-run-{t[0][0]}-{len(t)}" for t in tasks],
                                 pure=False)
            try:
                for future in as_completed(futures):
                    yield future.result()
                    future.release()
            finally:
                client.cancel(futures)

    return backend


def _pick_backend(workers: int, dask: str | None,
                  pool: WorkerPool | None = None) -> tuple[str, Callable[[list[Unit], int], Iterator[list[dict]]]]:
    if pool is not None and not dask and workers > 1:
        return f"{pool.workers} local processes (kept warm)", lambda units, n: _process_pool(units, n, pool)
    if dask == "local":
        return f"a dask LocalCluster of {workers} workers", _dask(dask)
    if dask:
        return f"dask scheduler {dask}", _dask(dask)
    if workers <= 1:
        return "1 process", _inline
    return f"{workers} local processes", _process_pool


# ---------------------------------------------------------------------------- locking
_LOCKED_HERE: set[str] = set()


@contextlib.contextmanager
def _folder_lock(folder: Path) -> Iterator[None]:
    """One sweep per folder at a time.

    A POSIX record lock (lockf) rather than flock: it belongs to this process only, so pool
    workers forked while it is held do not keep it alive after a SIGKILL of the sweep, and
    the kernel drops it when the process dies.  Record locks do not exclude threads of one
    process, hence the set of folders locked here.
    """
    import fcntl

    folder.mkdir(parents=True, exist_ok=True)
    key = os.path.realpath(folder)
    busy = CampaignError(f"campaign {folder} is being run by another process; wait for it to finish")
    if key in _LOCKED_HERE:
        raise busy
    with open(folder / LOCK_FILE, "a+") as fh:
        try:
            fcntl.lockf(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # EACCES or EAGAIN, depending on the system
            raise busy from None
        _LOCKED_HERE.add(key)
        try:
            yield
        finally:
            _LOCKED_HERE.discard(key)
            fcntl.lockf(fh.fileno(), fcntl.LOCK_UN)


# ----------------------------------------------------------------------------- progress
class _Progress:
    """A rich progress bar on stderr (runs done/total, failures, ETA), or nothing.

    The bar (and its refresh thread) starts at the first finished run, after the process
    pool has forked its workers: a fork never copies a thread in the middle of drawing.
    """

    def __init__(self, enabled: bool, total: int, done: int, label: str) -> None:
        self._enabled, self._total, self._done, self._label = enabled, total, done, label
        self._bar = None

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                   TimeRemainingColumn)

        self._bar = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("runs, [red]{task.fields[failed]} failed"), TimeElapsedColumn(),
            TextColumn("ETA"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=False)
        self._bar.start()
        self._task = self._bar.add_task(self._label, total=self._total, completed=self._done, failed=0)

    def advance(self, failed: int) -> None:
        if not self._enabled:
            return
        if self._bar is None:
            self._start()
        self._bar.update(self._task, advance=1, failed=failed)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()


# ---------------------------------------------------------------------------- the sweep
# Run records are not flushed one by one (see Campaign.sync): at most this much work is exposed
# to an operating-system crash or power loss; a killed sweep process loses nothing.
SYNC_EVERY_S = 30.0

def run_campaign(
    spec: CampaignSpec,
    folder: str | os.PathLike[str],
    *,
    workers: int | None = None,
    dask: str | None = None,
    rerun_other_versions: bool = False,
    progress: bool | None = None,
    on_run: Callable[[PlannedRun, bool], None] | None = None,
    branching: bool = True,
    pool: WorkerPool | None = None,
    max_runs: int | None = MAX_RUNS,
    table: bool = True,
) -> SweepReport:
    """Run the missing runs of ``spec`` into ``folder`` and return a :class:`SweepReport`.

    Every configuration is validated first (:class:`CampaignError` names the axis).  Runs
    already committed in the folder are skipped; each finished run is committed at once,
    so an interruption (Ctrl-C, SIGKILL, a dead worker) loses no finished run.
    ``workers``: local processes (default: all cores; 1 runs in this process).
    ``dask``: ``"local"`` for a dask.distributed LocalCluster of ``workers`` processes, or
    a scheduler address such as ``"tcp://10.0.0.5:8786"``.  ``progress``: show a progress
    bar on stderr (default: when stderr is a terminal). ``branching``: runs that differ only
    in a handover instant (``timeline[i].at``, and the duration) share their common past
    (:func:`branch_units`; the results are those of independent runs). ``pool``: a running
    :class:`WorkerPool` to use instead of starting processes for this campaign (``workers``
    then defaults to its size). ``max_runs``: refuse a campaign of more runs (CampaignError;
    None: no limit). ``table``: bring ``results.parquet`` up to date at the end (False: the
    caller reads the table when it needs it, and it is built then, once).

    Records damaged since they were written (a full disk, a crash) are found first, moved to
    ``DIR/corrupt/`` and run again (``SweepReport.damaged``). After any error the worker
    processes are stopped, never waited for.
    """
    import multiprocessing

    from .. import __version__ as version

    if multiprocessing.parent_process() is not None and __import__("__main__").__name__ == "__mp_main__":
        raise CampaignError(
            "run_campaign was called while a worker process imported your script (spawn start method); "
            "put the script's code under `if __name__ == \"__main__\":`")
    started = time.perf_counter()
    folder = Path(folder)
    spec.check_size(max_runs)
    spec.plan(version, cache_dir=folder, write_cache=False)  # validate before touching the folder
    if pool is not None and workers is None:
        workers = pool.workers
    workers = default_workers() if workers is None else max(1, int(workers))
    if pool is not None:
        workers = min(workers, pool.workers)
    with _folder_lock(folder):
        campaign = Campaign.prepare(folder, spec, version, rerun_other_versions=rerun_other_versions)
        campaign.clean_temporary_files()
        damaged = campaign.verify(version)
        campaign.set_aside(damaged)
        plan = campaign.plan(version)
        todo = campaign.missing(version)
        report = SweepReport(campaign, total=len(plan), already_done=len(plan) - len(todo), damaged=damaged)
        label, backend = _pick_backend(min(workers, max(1, len(todo))) if not dask else workers, dask, pool)
        report.backend = label
        if progress is None:
            progress = sys.stderr.isatty()
        bar = _Progress(bool(progress) and bool(todo), report.total, report.already_done, f"sweep {folder.name}")
        by_id = {run.run_id: run for run in todo}
        tasks: list[Task] = [(r.run_id, spec.scenario_text, r.overrides, spec.scenario_path, r.seed, spec.detail)
                             for r in todo]
        units = branch_units(tasks) if branching else [[t] for t in tasks]
        stream = backend(units, workers) if tasks else iter(())
        interrupted = False
        synced = time.perf_counter()
        try:
            if tasks:
                for outcome in (o for outcomes in stream for o in outcomes):
                    run = by_id[outcome["run_id"]]
                    if outcome["ok"]:
                        campaign.commit(run, outcome["summary"], outcome.get("result"), version,
                                        metrics=outcome.get("metrics"), values=outcome.get("values"))
                        report.executed += 1
                    else:
                        campaign.record_failure(run, outcome["error"])
                        report.failed.append((run, outcome["error"]))
                    bar.advance(len(report.failed))
                    if time.perf_counter() - synced > SYNC_EVERY_S:
                        campaign.sync()
                        synced = time.perf_counter()
                    if on_run is not None:
                        on_run(run, bool(outcome["ok"]))
        except KeyboardInterrupt:
            interrupted = True
            raise
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()  # a process pool stops its workers (interrupt) and shuts down
            bar.close()
            campaign.sync()
            report.wall_s = time.perf_counter() - started
            # Keep results.parquet current (errors here must not hide another failure). After
            # Ctrl-C the table is left stale, to stop at once: it is rebuilt when next read.
            if not interrupted and table:
                with contextlib.suppress(Exception):
                    campaign.results()
    return report

