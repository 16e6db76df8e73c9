"""The campaign folder: definition, one committed record per finished run, result table.

Layout (docs/campaigns.md has the full description)::

    DIR/campaign.json               definition (base scenario text, axes, ...) + active vhsim version
    DIR/runs/<version>/records.jsonl one sealed line per finished run: seed, axis labels, metrics
    DIR/traces/<run_id>/            summary.json + <table>.parquet, when detail != summary
    DIR/failures/<run_id>.json      last error of a run that failed (it is not counted as done)
    DIR/corrupt/<version>/          damaged records a sweep set aside (their runs are done again)
    DIR/results.parquet             consolidated table, one row per run (rebuilt when stale)

A run is "done" exactly when its complete line is in its version's record log (:mod:`.records`:
how a killed writer, a full disk or a damaged line are recognised; why lines rather than a file
per run). Records are grouped by vhsim version so that results of different versions are never
mixed by accident.

Each line carries a checksum of its content, so a record damaged later -- cut short by a full
disk, edited by hand -- is recognised (:meth:`Campaign.verify`): a sweep moves it to
``DIR/corrupt/`` and runs it again, reading the table warns about it, and ``vhsim sweep
--check DIR`` lists it; it is never read as a row of missing values (issue #27). Campaigns
written before the log kept one file per run, ``DIR/runs/<version>/<run_id>.json`` (with a
checksum, or, older still, without one): those are still read, checked and set aside the same
way, and new runs of such a folder go to its log.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import shutil
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Iterator, Mapping, Sequence  # not typing's: isinstance on those is slow
from typing import TYPE_CHECKING, Any

from .. import atomic
from .axes import CampaignError, column_values
from .records import BadLine, RecordLog
from .table import Columns
from ..errors import shown
from .spec import CampaignSpec, PlannedRun

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..result import EncodedResult, Result

__all__ = ["Campaign", "CampaignVersionError", "DamagedRecord", "flatten_summary", "metrics_values", "open_campaign",
           "DETAIL_RANK"]

CAMPAIGN_FILE = "campaign.json"
RESULTS_FILE = "results.parquet"
LOCK_FILE = ".lock"
CORRUPT_DIR = "corrupt"
FORMAT = 1
DETAIL_RANK = {"summary": 0, "timeseries": 1, "packets": 2}
_TABLE_META_KEY = b"vhsim_campaign"

# Run-level summary entries that are not results of the simulation: they vary from one
# execution to the next (wall time) or repeat columns the table already has.
_NOT_METRICS = {"wall_s", "events_per_s", "vhsim_version", "seed", "scenario", "flows", "links"}


class CampaignVersionError(CampaignError):
    """The folder holds runs of another vhsim version; they are not mixed silently."""


def metrics_values(metrics: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    """A run's flattened metrics as its record line holds them: their names, and their values as
    a JSON list (NaN allowed) in that order (:mod:`.records`)."""
    return tuple(metrics), json.dumps(list(metrics.values()), allow_nan=True)


def flatten_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Scalar metrics of one run summary, flattened into ``<flow>.<metric>`` columns.

    Run-level counters keep their names (``events``, ``delivered_segments``, ``sim_s``);
    per flow: ``bulk.goodput_kbps``, ``bulk.drops_error_model``, ``bulk.goodput_kbps_<window>``,
    and per handover k ``bulk.ho<k>.<metric>`` (``bulk.ho0.time_to_n_acked_s``, ...);
    per link direction: ``access/forward.packets_sent``, ``access/forward.drops_<cause>`` and its
    drops while a handover window was open, ``access/forward.window_drops_<cause>``;
    per node agent i (file order): ``agent<i>.node``, ``agent<i>.kind`` and its counters
    (``agent0.failures``: interfaces a Delivery Service declared failed; ``agent1.dropped``:
    repeated ACKs its active mode destroyed; ``agent0.resent``: kept copies sent again).
    Wall-clock figures are left out: they are not reproducible. A run stopped early
    (``metrics.stop = "when_complete"``, ``stopped_at_s`` set) reports its per-handover metrics
    and goodput windows exactly, but its whole-run totals only up to the stop: those columns are
    left empty (None), never silently different from a run to the end.
    """
    from ..result import DROP_CAUSES, flow_figures

    out = _flatten(summary, DROP_CAUSES, flow_figures)
    if summary.get("stopped_at_s") is not None:
        for key in out:
            if _is_truncated(key):
                out[key] = None
    return out


@functools.lru_cache(maxsize=4096)  # a campaign's runs share their column names
def _is_truncated(column: str) -> bool:
    """Whether a column of a run stopped early covers the whole run (and is thus truncated)."""
    if "." not in column:
        return column == "delivered_segments"
    metric = column.rsplit(".", 1)[-1]
    per_handover = re.search(r"\.ho\d+\.[^.]+$", column) is not None
    windowed = metric.startswith(("goodput_kbps_", "window_drops_"))
    return not per_handover and not windowed and metric not in ("scheme", "start_s", "node", "kind")


@functools.lru_cache(maxsize=4096)  # a campaign's runs share their link and flow names
def _drop_columns(name: str, key: str, others: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """``(cause, column)`` of a drop count map: every known cause, then the others met."""
    from ..result import DROP_CAUSES

    return tuple((cause, f"{name}.{key}_{cause}") for cause in (*DROP_CAUSES, *others))


def _flatten(summary: Mapping[str, Any], DROP_CAUSES, flow_figures) -> dict[str, Any]:
    # Runs in the workers, once per run (~180 columns): the checks are inlined.
    out: dict[str, Any] = {}
    for key, value in summary.items():
        if key not in _NOT_METRICS and isinstance(value, _SCALARS):
            out[key] = value
    for group in ("flows", "links"):
        for name, metrics in (summary.get(group) or {}).items():
            if group == "flows":
                metrics = flow_figures(metrics)
            for key, value in metrics.items():
                if key in ("drops", "window_drops") and (type(value) is dict or isinstance(value, Mapping)):
                    known = _known_causes(DROP_CAUSES)
                    others = () if known.issuperset(value) else tuple(sorted(c for c in value if c not in known))
                    for cause, column in _drop_columns(name, key, others):
                        out[column] = int(value.get(cause, 0))
                elif key == "windows" and isinstance(value, Mapping):
                    for window, kbps in value.items():
                        out[f"{name}.goodput_kbps_{window}"] = kbps
                elif key == "handovers" and isinstance(value, list):
                    # Per handover k of the run: bulk.ho0.time_to_n_acked_s, bulk.ho0.rtos, ...
                    for k, stats in enumerate(value):
                        for metric, v in stats.items():
                            if isinstance(v, _SCALARS):
                                out[f"{name}.ho{k}.{metric}"] = v
                elif isinstance(value, _SCALARS):
                    out[f"{name}.{key}"] = value
    for i, agent in enumerate(summary.get("agents") or ()):
        for key, value in agent.items():
            if isinstance(value, _SCALARS):
                out[f"agent{i}.{key}"] = value
    # Over all flows: aggregate.jain_index, aggregate.interruption_s.p95, aggregate.drops_<cause>.
    for key, value in (summary.get("aggregate") or {}).items():
        if isinstance(value, Mapping):
            for part, v in value.items():
                out[f"aggregate.{key}_{part}" if key == "drops" else f"aggregate.{key}.{part}"] = v
        elif isinstance(value, _SCALARS):
            out[f"aggregate.{key}"] = value
    return out


_SCALARS = (bool, int, float, str, type(None))  # a summary's scalar figures
_known_causes = functools.lru_cache(maxsize=1)(frozenset)  # result.DROP_CAUSES as a set, made once


def _atomic_write_text(path: Path, text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` so that readers see the old file, or the new one, complete.

    The rename makes it atomic for every process, so a killed writer never leaves a partial
    file. ``durable`` also flushes it to the disk first (against a power loss); run records
    skip that, one fsync per record costing milliseconds (see Campaign.sync)."""
    atomic.write_text(path, text, durable=durable)


@dataclass(frozen=True)
class DamagedRecord:
    """A run record that cannot be trusted: where it is and what is wrong with it."""

    path: Path
    problem: str
    #: A damaged line of a record log (None: the whole record file ``path``).
    bad_line: BadLine | None = None

    @property
    def run_id(self) -> str | None:
        """The run it is the record of, if that can be told."""
        return self.bad_line.run_id if self.bad_line is not None else self.path.stem

    def line(self, folder: Path) -> str:
        where = os.fspath(self.path)
        with contextlib.suppress(ValueError):
            where = os.fspath(self.path.relative_to(folder))
        if self.bad_line is not None:
            run = f" (run {self.bad_line.run_id[:12]})" if self.bad_line.run_id else ""
            where += f", line {self.bad_line.number}{run}"
        return f"{where}: {self.problem}"


def read_record(path: str | os.PathLike[str], run_id: str, parse: bool = True) -> dict[str, Any] | None:
    """The record of ``run_id`` at ``path`` (``parse=False``: only checked, None returned);
    ValueError saying what is wrong with a damaged one: empty, cut short, not JSON, another
    run's, not matching its checksum. A record without a checksum (written before they
    existed) is checked for being a complete JSON record of its run."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise ValueError(f"unreadable ({err.strerror or err})") from None
    if not data.strip():
        raise ValueError(f"empty ({len(data)} bytes)")
    sealed = atomic.seal_holds(data)
    if sealed is False:
        raise ValueError("its checksum does not match its content (changed after it was written)")
    if sealed:
        if f'"run_id": "{run_id}"'.encode() not in data:
            raise ValueError(f"holds another run than {run_id[:12]}")
        if not parse:
            return None
    try:
        record = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as err:
        raise ValueError(f"not UTF-8 text (byte {err.start} of {len(data)})") from None
    except ValueError as err:
        raise ValueError(f"not complete JSON ({getattr(err, 'msg', err)} at byte {getattr(err, 'pos', '?')} "
                         f"of {len(data)}; cut short?)") from None
    if not isinstance(record, dict):
        raise ValueError(f"not a run record (a JSON {type(record).__name__})")
    missing = [k for k in ("run_id", "seed", "rep", "metrics") if k not in record]
    if missing:
        raise ValueError(f"not a complete run record (no {', '.join(missing)})")
    if record["run_id"] != run_id:
        raise ValueError(f"holds run {shown(str(record['run_id'])[:12])}, not {run_id[:12]}")
    if not isinstance(record["metrics"], dict):
        raise ValueError("its metrics are not a table")
    return record


def _safe_version_dir(version: str) -> str:
    return "".join(c if c.isalnum() or c in ".-_+" else "_" for c in version) or "unknown"


class Campaign:
    """A campaign folder.  Open one with :func:`vhsim.campaign.open`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        meta_path = self.path / CAMPAIGN_FILE
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            self.spec = CampaignSpec.from_json(meta["spec"])
            self.active_version: str = str(meta["active_version"])
        except FileNotFoundError:
            raise FileNotFoundError(f"not a campaign folder (no {CAMPAIGN_FILE}): {os.fspath(path)}") from None
        except UnicodeDecodeError as err:
            raise CampaignError(f"{meta_path}: corrupt campaign file: not UTF-8 text (byte {err.start})") from None
        except json.JSONDecodeError as err:
            raise CampaignError(f"{meta_path}: corrupt campaign file: {err}") from None
        except CampaignError as err:
            raise CampaignError(f"{meta_path}: corrupt campaign file: {err}") from None
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            what = f"no {err}" if isinstance(err, KeyError) else f"{type(err).__name__}: {shown(str(err), 120, quote=False)}"
            raise CampaignError(f"{meta_path}: corrupt campaign file ({what})") from None
        except IsADirectoryError:
            raise CampaignError(f"{meta_path}: corrupt campaign folder ({CAMPAIGN_FILE} is a folder)") from None
        self._plans: dict[str, list[PlannedRun]] = {}
        self._logs: dict[str, RecordLog] = {}  # version -> its record log, once a commit wrote to it
        self._failed: set[str] | None = None  # run ids with a failure record (see _failed_ids)

    # -- creating / updating -------------------------------------------------------
    @classmethod
    def prepare(cls, path: str | os.PathLike[str], spec: CampaignSpec, version: str,
                rerun_other_versions: bool = False) -> "Campaign":
        """Create the folder or update its definition, refusing to mix vhsim versions.

        Raises :class:`CampaignVersionError` if the folder's runs were made by another
        vhsim version, unless ``rerun_other_versions``: then the campaign switches to
        ``version`` and runs everything again (old records stay in ``runs/<old version>/``).
        """
        folder = Path(path)
        meta_path = folder / CAMPAIGN_FILE
        if folder.exists() and not folder.is_dir():
            raise CampaignError(f"campaign folder {folder} exists and is not a folder")
        if folder.is_dir() and not meta_path.exists() and any(p.name != LOCK_FILE for p in folder.iterdir()):
            raise CampaignError(
                f"{folder} is not empty and is not a campaign folder (no {CAMPAIGN_FILE}); choose a new or empty folder"
            )
        active = version
        if meta_path.exists():
            old = cls(folder)
            active = old.active_version
            stored = old.versions()
            others = {v: n for v, n in stored.items() if v != version}
            if active != version and others:
                if not rerun_other_versions:
                    listing = ", ".join(f"{n} runs made by vhsim {v}" for v, n in sorted(others.items()))
                    raise CampaignVersionError(
                        f"campaign {folder} holds {listing}; this is vhsim {version} and results of different "
                        f"versions are not mixed. Run again with --rerun-other-versions to redo the campaign with "
                        f"vhsim {version} (the old runs stay readable: vhsim.campaign.open(DIR).results("
                        f"version='{active}')), or use another --campaign folder"
                    )
            active = version
        folder.mkdir(parents=True, exist_ok=True)
        meta = {"format": FORMAT, "spec": spec.to_json(), "active_version": active,
                "updated": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        _atomic_write_text(meta_path, json.dumps(meta, indent=1) + "\n")
        return cls(folder)

    # -- layout ----------------------------------------------------------------------
    def runs_dir(self, version: str | None = None) -> Path:
        return self.path / "runs" / _safe_version_dir(version or self.active_version)

    def record_path(self, run_id: str, version: str | None = None) -> Path:
        """Where a run's own record file is, in a folder written before the record log."""
        return self.runs_dir(version) / f"{run_id}.json"

    def record_log(self, version: str | None = None) -> RecordLog:
        """The record log of ``version`` (default: active)."""
        return RecordLog(self.runs_dir(version))

    def record(self, run_id: str, version: str | None = None) -> dict[str, Any] | None:
        """The stored record of ``run_id`` (``metrics`` a dict), None if it has none; ValueError
        if its record file is damaged (a damaged line of the log reads as no record)."""
        scan = self.record_log(version).scan([run_id])
        if run_id in scan.runs:
            return scan.record(run_id)
        path = self.record_path(run_id, version)
        return read_record(path, run_id) if path.is_file() else None

    def stored_ids(self, version: str | None = None) -> set[str]:
        """Run ids with a record of ``version`` (in its log or, older, a file of their own), unchecked."""
        directory = self.runs_dir(version)
        return RecordLog(directory).ids() | {name[:-5] for name in self._record_names(directory)}

    def trace_dir(self, run_id: str) -> Path:
        return self.path / "traces" / run_id

    def trace_for(self, row: Mapping[str, Any], rerun: bool = False, tables: Sequence[str] | None = None) -> "Result":
        """The traces of one run (a row of :meth:`results`: ``run_id``, ``config``, ``rep``), read
        as a :class:`vhsim.Result`: the one way to a run's traces (``tables``: only these stored
        trace tables, :func:`vhsim.read_result`).

        The stored traces when the campaign kept them; if they lack the packet trace, with
        ``rerun``, the run is simulated again (its scenario and seed) with ``detail="packets"`` -- the simulator is
        deterministic, and the re-run's goodput is checked against the stored record (a warning
        names what differs, e.g. when another vhsim build made the campaign). Without ``rerun``
        a campaign that kept no traces (``detail = "summary"``) raises FileNotFoundError."""
        from ..result import read_result

        run_id = str(row["run_id"])
        path = self.trace_dir(run_id)
        if (path / "packets.parquet").is_file() or not rerun:
            return read_result(path, tables)
        scenario, seed, _ = self.run_scenario(int(row["config"]), int(row["rep"]))
        result = scenario.run(seed=seed, detail="packets")
        self._check_same_run(run_id, result)
        return result

    def _check_same_run(self, run_id: str, result: "Result") -> None:
        import warnings

        try:
            record = self.record(run_id)
        except ValueError:
            return  # a damaged record: nothing to compare with
        if record is None:
            return
        stored = record["metrics"]
        again = flatten_summary(result.summary)
        differing = [k for k in stored if k.endswith(".goodput_kbps") and stored[k] != again.get(k)]
        if differing:
            warnings.warn(f"re-run of {run_id[:12]} differs from the stored run in {', '.join(differing)}; "
                          "the campaign was probably made by another vhsim build", stacklevel=3)

    def versions(self) -> dict[str, int]:
        """``{vhsim version: number of stored runs}`` over everything in the folder."""
        out: dict[str, int] = {}
        runs = self.path / "runs"
        if runs.is_dir():
            for sub in sorted(runs.iterdir()):
                if sub.is_dir():
                    n = len(RecordLog(sub).ids() | {name[:-5] for name in self._record_names(sub)})
                    if n:
                        out[self._version_of(sub)] = n
        return out

    def _version_of(self, sub: Path) -> str:
        # The directory name is a sanitized version; the records hold the exact one (a damaged
        # record is passed over: the fuzz's find, a record of `0` raised TypeError here).
        scan = RecordLog(sub).scan()
        for run_id in scan.runs:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                return str(scan.record(run_id)["vhsim_version"])
        for name in self._record_names(sub):
            with contextlib.suppress(ValueError, KeyError):
                return str(read_record(sub / name, name[:-5])["vhsim_version"])
        return sub.name

    @staticmethod
    def _record_names(directory: Path) -> Iterator[str]:
        """Names of the run record files of a version folder written before the record log."""
        with contextlib.suppress(FileNotFoundError):
            for entry in os.scandir(directory):
                if entry.name.endswith(".json") and not entry.name.startswith("."):
                    yield entry.name

    # -- planning / progress -----------------------------------------------------------
    def plan(self, version: str | None = None) -> list[PlannedRun]:
        """The runs of the current definition, with ids for ``version`` (default: active)."""
        version = version or self.active_version
        if version not in self._plans:
            self._plans[version] = self.spec.plan(version, cache_dir=self.path)
        return self._plans[version]

    def forget_plans(self) -> None:
        """Drop the run lists this object and the process memo hold for its definition (a
        reproduction does once a figure is done: Daniel & Kojo's 76,815 planned runs took
        118 MB); the next :meth:`plan` reads the cached plan file again."""
        from .spec import forget_plan

        for version in self._plans:
            forget_plan(self.spec, version)
        self._plans.clear()

    def done_ids(self, version: str | None = None) -> set[str]:
        """Run ids with a committed record (and the traces the definition asks for)."""
        ids = self.stored_ids(version)
        if self.spec.detail != "summary":
            table = f"{self.spec.detail}.parquet"
            ids = {i for i in ids if (self.trace_dir(i) / table).is_file()}
        return ids

    def missing(self, version: str | None = None) -> list[PlannedRun]:
        done = self.done_ids(version)
        return [run for run in self.plan(version) if run.run_id not in done]

    def status(self) -> dict[str, Any]:
        """Counts for a progress report: total, done, missing, failed, versions."""
        plan = self.plan()
        done = self.done_ids()
        n_done = sum(1 for r in plan if r.run_id in done)
        failures = self.path / "failures"
        failed = sorted(p.stem for p in failures.glob("*.json")) if failures.is_dir() else []
        return {"total": len(plan), "done": n_done, "missing": len(plan) - n_done,
                "failed": len(failed), "active_version": self.active_version, "versions": self.versions()}

    def clean_temporary_files(self) -> None:
        """Remove leftovers of writers killed mid-write (only call while holding the lock)."""
        for directory in (self.path, self.runs_dir(), self.path / "failures"):
            if directory.is_dir():
                for tmp in directory.glob(".*.tmp"):
                    atomic.remove(tmp)
        traces = self.path / "traces"
        if traces.is_dir():
            for tmp in traces.glob(".*.tmp"):
                shutil.rmtree(tmp, ignore_errors=True)

    def verify(self, version: str | None = None) -> list[DamagedRecord]:
        """The damaged run records of ``version`` (default: active): lines of its log that are
        empty, cut short or do not match their checksum (:meth:`RecordLog.scan`), and record files
        of an older folder that are empty, cut short, not JSON, holding another run, or not
        matching their checksum (:func:`read_record`)."""
        directory = self.runs_dir(version)
        log = RecordLog(directory)
        damaged = [DamagedRecord(Path(log.path), bad.problem, bad) for bad in log.scan().damaged]
        for name in sorted(self._record_names(directory)):
            try:
                read_record(directory / name, name[:-5], parse=False)
            except ValueError as err:
                damaged.append(DamagedRecord(directory / name, str(err)))
        return damaged

    def set_aside(self, damaged: list[DamagedRecord]) -> None:
        """Move damaged records to ``DIR/corrupt/<version>/`` (kept to look at, no longer counted
        as done: the next sweep runs them again). Call only while holding the folder's lock."""
        lines = [record for record in damaged if record.bad_line is not None]
        for path in {record.path for record in lines}:
            RecordLog(path.parent).remove([r.bad_line for r in lines if r.path == path],
                                          self.path / CORRUPT_DIR / path.parent.name)
        for record in damaged:
            if record.bad_line is not None:
                continue
            target = self.path / CORRUPT_DIR / record.path.parent.name / record.path.name
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(record.path, target)

    # -- committing ------------------------------------------------------------------
    def commit(self, run: PlannedRun, summary: Mapping[str, Any], result: "Result | EncodedResult | None",
               version: str, metrics: Mapping[str, Any] | None = None,
               values: tuple[Sequence[str], str] | None = None) -> None:
        """Store one finished run: traces first (if any; a worker's run comes encoded), then the
        record line that marks it done.
        ``metrics``: ``flatten_summary(summary)`` if the worker computed it already; ``values``:
        that as its names and the JSON text of its values (:func:`metrics_values`, made by the
        worker: encoding ~200 figures was most of this process's work per run); ``summary`` is
        then only read for its ``wall_s``. The record is the same either way."""
        if result is not None:
            final = self.trace_dir(run.run_id)
            if final.exists():
                shutil.rmtree(final)  # traces of a lower detail from an earlier sweep
            with atomic.replacing(final) as tmp:
                result.save(tmp)
        if values is None:
            values = metrics_values(flatten_summary(summary) if metrics is None else metrics)
        head = json.dumps({"run_id": run.run_id, "vhsim_version": version, "seed": run.seed, "rep": run.rep,
                           "config": run.labels, "detail": self.spec.detail})
        tail = json.dumps({"wall_s": summary.get("wall_s"), "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z")},
                          allow_nan=True)
        log = self._logs.get(version)
        if log is None:
            log = self._logs[version] = self.record_log(version)
        log.append(head, values[0], values[1], tail)
        if run.run_id in self._failed_ids():
            (self.path / "failures" / f"{run.run_id}.json").unlink(missing_ok=True)
            self._failed.discard(run.run_id)

    def adopt(self, other: "Campaign", run_ids: Sequence[str], version: str) -> None:
        """Add the records of ``run_ids`` from ``other`` (a campaign sharing these runs): lines of
        its log are copied to this one's, record files of an older folder too."""
        log = self.record_log(version)
        source = other.record_log(version)
        in_log = source.ids()
        log.copy_lines(source, [run_id for run_id in run_ids if run_id in in_log])
        for run_id in run_ids:
            if run_id not in in_log and other.record_path(run_id, version).is_file():
                target = self.record_path(run_id, version)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(other.record_path(run_id, version), target)

    def _failed_ids(self) -> set[str]:
        """Run ids with a failure record (read once; a commit removes its run's)."""
        if self._failed is None:
            failures = self.path / "failures"
            self._failed = {name[:-5] for name in self._record_names(failures)} if failures.is_dir() else set()
        return self._failed

    def sync(self) -> None:
        """Flush the run records to the disk (a sweep does it every 30 s and when it ends):
        records are written without a flush each, atomic against a killed process but not a
        power loss. ``os.sync`` flushes every file system, not only this folder's: one call
        instead of an fsync per record file."""
        with contextlib.suppress(OSError):
            os.sync()

    def record_failure(self, run: PlannedRun, message: str) -> None:
        directory = self.path / "failures"
        directory.mkdir(parents=True, exist_ok=True)
        payload = {"run_id": run.run_id, "seed": run.seed, "rep": run.rep, "config": run.labels, "error": message}
        _atomic_write_text(directory / f"{run.run_id}.json", json.dumps(payload, indent=1) + "\n")
        self._failed_ids().add(run.run_id)

    # -- reading -----------------------------------------------------------------------
    def results(self, version: str | None = None, timing: bool = False) -> "pd.DataFrame":
        """One row per finished run of the current definition, sorted by (config, rep).

        Columns: ``config`` (index in sweep order), ``rep``, ``seed``, ``run_id``,
        ``vhsim_version``, one column per axis (named by its key; numbers when every value
        is a bare number), then the metrics (``<flow>.<metric>`` ...), filtered by the
        definition's ``metrics`` patterns.  ``timing=True`` adds ``wall_s`` (not
        reproducible, hence not included by default).  Runs not yet finished are absent.
        """
        import pyarrow.parquet as pq

        version = version or self.active_version
        present = sorted(self.stored_ids(version))
        key = self._table_key(version, present)
        table_path = self.path / RESULTS_FILE
        if not timing and table_path.is_file():
            with contextlib.suppress(Exception):  # unreadable or stale table: rebuild below
                # Page checksums: a damaged table is rebuilt, never read as it is (issue #27).
                table = pq.read_table(table_path, page_checksum_verification=True)
                if (table.schema.metadata or {}).get(_TABLE_META_KEY, b"").decode() == key:
                    return self._annotate(table.to_pandas(), version)
        table, damaged = self._build_table(version, set(present), timing)
        if not timing and not damaged:  # a table missing damaged runs is not kept as current
            with contextlib.suppress(OSError):  # a read-only folder can still be read
                meta = {**(table.schema.metadata or {}), _TABLE_META_KEY: key.encode()}
                table = table.replace_schema_metadata(meta)
                with atomic.replacing(table_path) as tmp:
                    pq.write_table(table, tmp, write_page_checksum=True)
        return self._annotate(table.to_pandas(), version)

    def _annotate(self, df: "pd.DataFrame", version: str) -> "pd.DataFrame":
        """Attach what plots and stats need to know about the table (``df.attrs``)."""
        df.attrs.update({
            "axes": [a.key for a in self.spec.axes],
            "scenario": self.scenario_name,
            "replications": self.spec.replications,
            "paired_seeds": self.spec.paired_seeds,
            "vhsim_version": version,
            "campaign": os.fspath(self.path),
        })
        return df

    @property
    def scenario_name(self) -> str:
        """The base scenario's ``name`` (its file stem if it cannot be resolved)."""
        try:
            return str(self.spec.base_scenario().resolved().get("name", ""))
        except Exception:  # noqa: BLE001 - a name for captions only
            return Path(self.spec.scenario_path or "scenario").stem

    def _table_key(self, version: str, present: list[str]) -> str:
        h = hashlib.sha256()
        h.update(b"page checksums")  # tables written before they had them are rebuilt once
        h.update(self.spec.digest().encode())
        h.update(version.encode())
        for run_id in present:
            h.update(run_id.encode())
        with contextlib.suppress(OSError):  # a damaged line set aside and its run done again: same ids
            h.update(str(os.path.getsize(self.record_log(version).path)).encode())
        return h.hexdigest()

    def _build_table(self, version: str, present: set[str], timing: bool):
        """The result table of the records ``present``, and whether some were damaged."""
        import pandas as pd
        import pyarrow as pa

        axes = self.spec.axes
        columns = {a.key: dict(zip(a.labels, column_values(a))) for a in axes}
        rows, damaged = Columns(), []
        directory = os.fspath(self.runs_dir(version))
        log = RecordLog(directory)
        scan = log.scan()
        damaged = [DamagedRecord(Path(log.path), bad.problem, bad) for bad in scan.damaged
                   if bad.run_id is None or bad.run_id not in scan.runs]
        files = set(self._record_names(Path(directory)))  # a folder's records from before the log
        # The rows of the log's lines go to the table as lists of values, never as dicts: one
        # layout (column names, the metrics selected) per set of metric names.
        head_keys = ("config", "rep", "seed", "run_id", "vhsim_version", *(a.key for a in axes))
        layouts: dict[str, tuple[tuple[str, ...], list[int] | None]] = {}
        for run in sorted(self.plan(version), key=lambda r: (r.config, r.rep)):
            if run.run_id not in present:
                continue
            head = [run.config, run.rep, run.seed, run.run_id]
            if run.run_id in scan.runs:
                entry = json.loads(scan.line(run.run_id))
                keys, picks = layouts.get(entry["columns"]) or layouts.setdefault(
                    entry["columns"], self._layout(head_keys, scan.columns[entry["columns"]], timing))
                values = entry["values"] if picks is None else [entry["values"][i] for i in picks]
                head.append(entry.get("vhsim_version", version))
                head.extend(columns[axis.key][run.labels[axis.key]] for axis in axes)
                rows.add_values(keys, [*head, *values, entry.get("wall_s")] if timing else [*head, *values])
                continue
            if f"{run.run_id}.json" not in files:
                continue  # its line is damaged: said above
            else:
                path = os.path.join(directory, f"{run.run_id}.json")
                try:
                    record = read_record(path, run.run_id)
                except ValueError as err:  # left out, and said so: never a row of missing values
                    damaged.append(DamagedRecord(Path(path), str(err)))
                    continue
            row: dict[str, Any] = {"config": run.config, "rep": run.rep, "seed": run.seed,
                                   "run_id": run.run_id, "vhsim_version": record.get("vhsim_version", version)}
            for axis in axes:
                row[axis.key] = columns[axis.key][run.labels[axis.key]]
            metrics = record.get("metrics", {})
            row.update(metrics if not self.spec.metrics else
                       {name: value for name, value in metrics.items() if self.spec.metric_selected(name)})
            if timing:
                row["wall_s"] = record.get("wall_s")
            rows.add(row)
        del scan  # the log's bytes: not held while the table is converted
        if damaged:
            listing = "; ".join(d.line(self.path) for d in damaged[:3]) + ("; ..." if len(damaged) > 3 else "")
            warnings.warn(f"campaign {self.path}: {len(damaged)} damaged run record{'s' if len(damaged) > 1 else ''} "
                          f"left out of the table ({listing}); `vhsim sweep --campaign {self.path}` runs "
                          "them again", stacklevel=3)
        head = ["config", "rep", "seed", "run_id", "vhsim_version", *[a.key for a in axes]]
        if rows.n:
            df = rows.frame()
        else:
            df = pd.DataFrame({c: pd.Series(dtype="int64" if c in ("config", "rep", "seed") else "object") for c in head})
        return pa.Table.from_pandas(df, preserve_index=False), bool(damaged)

    def _layout(self, head: tuple[str, ...], names: Sequence[str],
                timing: bool) -> tuple[tuple[str, ...], list[int] | None]:
        """A table row's column names for a record of metric ``names``, and which of its values
        are kept (None: all; the definition's ``metrics`` patterns select some)."""
        picks = None if not self.spec.metrics else [i for i, n in enumerate(names) if self.spec.metric_selected(n)]
        kept = names if picks is None else [names[i] for i in picks]
        return (*head, *kept, *(("wall_s",) if timing else ())), picks

    def export_csv(self, dest: str | os.PathLike[str], version: str | None = None) -> Path:
        out = Path(dest)
        out.parent.mkdir(parents=True, exist_ok=True)
        self.results(version).to_csv(out, index=False)
        return out

    def run_scenario(self, config: int, rep: int):
        """``(Scenario, seed, PlannedRun)`` of one run, to re-run it (e.g. with more detail)."""
        from ..scenario import Scenario

        for run in self.plan():
            if run.config == config and run.rep == rep:
                return Scenario(self.spec.scenario_text, run.overrides, self.spec.scenario_path), run.seed, run
        n_conf = len(self.spec.configurations())
        raise CampaignError(
            f"no run with config={config}, rep={rep} (configs 0..{n_conf - 1}, reps 0..{self.spec.replications - 1})"
        )

    def __repr__(self) -> str:
        return f"<vhsim campaign {os.fspath(self.path)!r}: {self.spec.describe()}>"


def open_campaign(path: str | os.PathLike[str]) -> Campaign:
    """Open an existing campaign folder (written by ``vhsim sweep`` or :func:`run_campaign`)."""
    return Campaign(path)
