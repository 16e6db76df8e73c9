"""The campaign folder: definition, one committed record per finished run, result table.

Layout (docs/campaigns.md has the full description)::

    DIR/campaign.json               definition (base scenario text, axes, ...) + active vhsim version
    DIR/runs/<version>/<run_id>.json one record per finished run: seed, axis labels, metrics
    DIR/traces/<run_id>/            summary.json + <table>.parquet, when detail != summary
    DIR/failures/<run_id>.json      last error of a run that failed (it is not counted as done)
    DIR/results.parquet             consolidated table, one row per run (rebuilt when stale)

Why one file per run: a run is "done" exactly when its record file exists, and a record
file is written under a temporary name, fsync'ed and renamed into place (``os.replace`` is
atomic on POSIX).  A SIGKILL at any moment leaves either no record or a complete one; a
stray temporary file is ignored and cleaned up by the next sweep.  Records are grouped by
vhsim version so that results of different versions are never mixed by accident.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator, Mapping

from .axes import CampaignError, column_values
from .spec import CampaignSpec, PlannedRun

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..result import Result

__all__ = ["Campaign", "CampaignVersionError", "flatten_summary", "open_campaign", "DETAIL_RANK"]

CAMPAIGN_FILE = "campaign.json"
RESULTS_FILE = "results.parquet"
LOCK_FILE = ".lock"
FORMAT = 1
DETAIL_RANK = {"summary": 0, "timeseries": 1, "packets": 2}
_TABLE_META_KEY = b"vhsim_campaign"

# Run-level summary entries that are not results of the simulation: they vary from one
# execution to the next (wall time) or repeat columns the table already has.
_NOT_METRICS = {"wall_s", "events_per_s", "vhsim_version", "seed", "scenario", "flows", "links"}


class CampaignVersionError(CampaignError):
    """The folder holds runs of another vhsim version; they are not mixed silently."""


def flatten_summary(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Scalar metrics of one run summary, flattened into ``<flow>.<metric>`` columns.

    Run-level counters keep their names (``events``, ``delivered_segments``, ``sim_s``);
    per flow: ``bulk.goodput_kbps``, ``bulk.drops_error_model``, ``bulk.goodput_kbps_<window>``,
    and per handover k ``bulk.ho<k>.<metric>`` (``bulk.ho0.time_to_n_acked_s``, ...);
    per link direction: ``access/forward.packets_sent``, ``access/forward.drops_<cause>``;
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


def _is_truncated(column: str) -> bool:
    """Whether a column of a run stopped early covers the whole run (and is thus truncated)."""
    if "." not in column:
        return column == "delivered_segments"
    metric = column.rsplit(".", 1)[-1]
    per_handover = re.search(r"\.ho\d+\.[^.]+$", column) is not None
    return not per_handover and not metric.startswith("goodput_kbps_") and metric not in ("scheme", "start_s", "node", "kind")


def _flatten(summary: Mapping[str, Any], DROP_CAUSES, flow_figures) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in summary.items():
        if key not in _NOT_METRICS and _is_scalar(value):
            out[key] = value
    for group in ("flows", "links"):
        for name, metrics in (summary.get(group) or {}).items():
            if group == "flows":
                metrics = flow_figures(metrics)
            for key, value in metrics.items():
                if key == "drops" and isinstance(value, Mapping):
                    causes = list(DROP_CAUSES) + sorted(c for c in value if c not in DROP_CAUSES)
                    for cause in causes:
                        out[f"{name}.drops_{cause}"] = int(value.get(cause, 0))
                elif key == "windows" and isinstance(value, Mapping):
                    for window, kbps in value.items():
                        out[f"{name}.goodput_kbps_{window}"] = kbps
                elif key == "handovers" and isinstance(value, list):
                    # Per handover k of the run: bulk.ho0.time_to_n_acked_s, bulk.ho0.rtos, ...
                    for k, stats in enumerate(value):
                        for metric, v in stats.items():
                            if _is_scalar(v):
                                out[f"{name}.ho{k}.{metric}"] = v
                elif _is_scalar(value):
                    out[f"{name}.{key}"] = value
    for i, agent in enumerate(summary.get("agents") or ()):
        for key, value in agent.items():
            if _is_scalar(value):
                out[f"agent{i}.{key}"] = value
    # Over all flows: aggregate.jain_index, aggregate.interruption_s.p95, aggregate.drops_<cause>.
    for key, value in (summary.get("aggregate") or {}).items():
        if isinstance(value, Mapping):
            for part, v in value.items():
                out[f"aggregate.{key}_{part}" if key == "drops" else f"aggregate.{key}.{part}"] = v
        elif _is_scalar(value):
            out[f"aggregate.{key}"] = value
    return out


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _atomic_write_text(path: Path, text: str, durable: bool = True) -> None:
    """Write ``text`` to ``path`` so that readers see the old file, or the new one, complete.

    The rename makes it atomic for every process, so a killed writer never leaves a partial
    file. ``durable`` also flushes it to the disk first (against a power loss); run records
    skip that, one fsync per record costing milliseconds (see Campaign.sync)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        if durable:
            fh.flush()
            os.fsync(fh.fileno())
    os.replace(tmp, path)


def _safe_version_dir(version: str) -> str:
    return "".join(c if c.isalnum() or c in ".-_+" else "_" for c in version) or "unknown"


class Campaign:
    """A campaign folder.  Open one with :func:`vhsim.campaign.open`."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        meta_path = self.path / CAMPAIGN_FILE
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(f"not a campaign folder (no {CAMPAIGN_FILE}): {os.fspath(path)}") from None
        except json.JSONDecodeError as err:
            raise CampaignError(f"{meta_path}: corrupt campaign file: {err}") from None
        self.spec = CampaignSpec.from_json(meta["spec"])
        self.active_version: str = str(meta["active_version"])
        self._plans: dict[str, list[PlannedRun]] = {}

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
        return self.runs_dir(version) / f"{run_id}.json"

    def trace_dir(self, run_id: str) -> Path:
        return self.path / "traces" / run_id

    def trace_for(self, row: Mapping[str, Any], rerun: bool = False) -> "Result":
        """The traces of one run (a row of :meth:`results`: ``run_id``, ``config``, ``rep``), read
        as a :class:`vhsim.Result`: the one way to a run's traces.

        The stored traces when the campaign kept them; if they lack the packet trace, with
        ``rerun``, the run is simulated again (its scenario and seed) with ``detail="packets"`` -- the simulator is
        deterministic, and the re-run's goodput is checked against the stored record (a warning
        names what differs, e.g. when another vhsim build made the campaign). Without ``rerun``
        a campaign that kept no traces (``detail = "summary"``) raises FileNotFoundError."""
        from ..result import read_result

        run_id = str(row["run_id"])
        path = self.trace_dir(run_id)
        if (path / "packets.parquet").is_file() or not rerun:
            return read_result(path)
        scenario, seed, _ = self.run_scenario(int(row["config"]), int(row["rep"]))
        result = scenario.run(seed=seed, detail="packets")
        self._check_same_run(run_id, result)
        return result

    def _check_same_run(self, run_id: str, result: "Result") -> None:
        import warnings

        record_path = self.record_path(run_id)
        if not record_path.is_file():
            return
        stored = json.loads(record_path.read_text(encoding="utf-8")).get("metrics", {})
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
                    n = sum(1 for _ in self._record_names(sub))
                    if n:
                        out[self._version_of(sub)] = n
        return out

    def _version_of(self, sub: Path) -> str:
        # The directory name is a sanitized version; the records hold the exact one.
        for name in self._record_names(sub):
            with contextlib.suppress(OSError, ValueError, KeyError):
                return str(json.loads((sub / name).read_text(encoding="utf-8"))["vhsim_version"])
        return sub.name

    @staticmethod
    def _record_names(directory: Path) -> Iterator[str]:
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
        ids = {name[:-5] for name in self._record_names(self.runs_dir(version))}
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
        for directory in (self.runs_dir(), self.path / "failures"):
            if directory.is_dir():
                for tmp in directory.glob(".*.tmp"):
                    tmp.unlink(missing_ok=True)
        traces = self.path / "traces"
        if traces.is_dir():
            for tmp in traces.glob(".*.tmp"):
                shutil.rmtree(tmp, ignore_errors=True)

    # -- committing ------------------------------------------------------------------
    def commit(self, run: PlannedRun, summary: Mapping[str, Any], result: "Result | None", version: str) -> None:
        """Store one finished run: traces first (if any), then the record that marks it done."""
        if result is not None:
            final = self.trace_dir(run.run_id)
            tmp = final.with_name(f".{run.run_id}.{os.getpid()}.tmp")
            shutil.rmtree(tmp, ignore_errors=True)
            result.save(tmp)
            if final.exists():
                shutil.rmtree(final)  # traces of a lower detail from an earlier sweep
            os.replace(tmp, final)
        record = {
            "run_id": run.run_id,
            "vhsim_version": version,
            "seed": run.seed,
            "rep": run.rep,
            "config": run.labels,
            "detail": self.spec.detail,
            "metrics": flatten_summary(summary),
            "wall_s": summary.get("wall_s"),
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        }
        directory = self.runs_dir(version)
        directory.mkdir(parents=True, exist_ok=True)
        _atomic_write_text(directory / f"{run.run_id}.json", json.dumps(record, allow_nan=True) + "\n",
                           durable=False)
        (self.path / "failures" / f"{run.run_id}.json").unlink(missing_ok=True)

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
        present = sorted(self._record_names(self.runs_dir(version)))
        key = self._table_key(version, present)
        table_path = self.path / RESULTS_FILE
        if not timing and table_path.is_file():
            with contextlib.suppress(Exception):  # unreadable or stale table: rebuild below
                table = pq.read_table(table_path)
                if (table.schema.metadata or {}).get(_TABLE_META_KEY, b"").decode() == key:
                    return self._annotate(table.to_pandas(), version)
        table = self._build_table(version, set(present), timing)
        if not timing:
            with contextlib.suppress(OSError):  # a read-only folder can still be read
                meta = {**(table.schema.metadata or {}), _TABLE_META_KEY: key.encode()}
                table = table.replace_schema_metadata(meta)
                tmp = table_path.with_name(f".{RESULTS_FILE}.{os.getpid()}.tmp")
                pq.write_table(table, tmp)
                os.replace(tmp, table_path)
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
        h.update(self.spec.digest().encode())
        h.update(version.encode())
        for name in present:
            h.update(name.encode())
        return h.hexdigest()

    def _build_table(self, version: str, present: set[str], timing: bool):
        import pandas as pd
        import pyarrow as pa

        axes = self.spec.axes
        columns = {a.key: dict(zip(a.labels, column_values(a))) for a in axes}
        rows = []
        for run in sorted(self.plan(version), key=lambda r: (r.config, r.rep)):
            if f"{run.run_id}.json" not in present:
                continue
            try:
                record = json.loads(self.record_path(run.run_id, version).read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue  # unreadable record: the run counts as missing
            row: dict[str, Any] = {"config": run.config, "rep": run.rep, "seed": run.seed,
                                   "run_id": run.run_id, "vhsim_version": record.get("vhsim_version", version)}
            for axis in axes:
                row[axis.key] = columns[axis.key][run.labels[axis.key]]
            for name, value in record.get("metrics", {}).items():
                if self.spec.metric_selected(name):
                    row[name] = value
            if timing:
                row["wall_s"] = record.get("wall_s")
            rows.append(row)
        head = ["config", "rep", "seed", "run_id", "vhsim_version", *[a.key for a in axes]]
        if rows:
            df = pd.DataFrame(rows)
        else:
            df = pd.DataFrame({c: pd.Series(dtype="int64" if c in ("config", "rep", "seed") else "object") for c in head})
        return pa.Table.from_pandas(df, preserve_index=False)

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
