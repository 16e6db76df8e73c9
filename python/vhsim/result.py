"""Results of one simulation run: summary dict, per-flow table, trace tables.

Trace tables arrive from the Rust core as columns of NumPy arrays and become
pandas DataFrames without creating a Python object per row.  Small-integer
code columns (flow, state, event, cause, link) become pandas Categoricals.

On disk a result is a folder with ``summary.json`` and one Parquet file per
trace table.  The Parquet files keep the categorical columns readable by any
Parquet tool, and carry the code lists and original integer types in their
schema metadata so :func:`read_result` restores exactly what was saved.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from . import atomic
from ._native import ScenarioError
from .errors import PATH_LIMIT, MissingPathError, path_error, shown
from .pcap import Capture, from_native, read_index, write_index

if TYPE_CHECKING:  # pandas is imported on first use: `import vhsim` stays fast
    import pandas as pd

__all__ = ["Result", "EncodedResult", "read_result", "DROP_CAUSES", "CODED_COLUMNS", "TRANSPORT_PARTS", "flow_figures"]

#: Drop causes the core reports; always present as ``drops_<cause>`` columns.
DROP_CAUSES = ("queue_overflow", "error_model", "link_down", "binding", "agent")

#: Transport-specific parts of a flow's summary (``flows.<f>.tcp``, ...); their figures join
#: the flow's own columns (``fast_retransmits``, not ``tcp.fast_retransmits``).
TRANSPORT_PARTS = ("tcp", "sctp", "datagram")

#: Key of a transport part holding one entry per path (SCTP: one per destination address);
#: path i's figures become ``path<i>.<metric>`` (``path1.cwnd_bytes``).
PATHS_KEY = "paths"


#: The flow summary's map of engagement counters (how often each configured mechanism acted).
ENGAGEMENT_KEY = "engagement"


def flow_figures(metrics: Mapping[str, Any]) -> dict[str, Any]:
    """A flow summary with its transport part's scalar figures merged into it; a part's
    per-path entries become ``path<i>.<metric>`` figures, the engagement counters
    ``engagement.<counter>`` figures."""
    out = {k: v for k, v in metrics.items() if k not in TRANSPORT_PARTS and k != ENGAGEMENT_KEY}
    for counter, n in (metrics.get(ENGAGEMENT_KEY) or {}).items():
        out[f"{ENGAGEMENT_KEY}.{counter}"] = n
    for part in TRANSPORT_PARTS:
        for key, value in (metrics.get(part) or {}).items():
            if key == PATHS_KEY and isinstance(value, list):
                for i, path in enumerate(value):
                    for metric, v in path.items():
                        out.setdefault(f"path{i}.{metric}", v)
            else:
                out.setdefault(key, value)
    return out

#: Trace columns holding small-integer codes that name something.
CODED_COLUMNS = ("flow", "state", "event", "cause", "link")

SUMMARY_FILE = "summary.json"
_META_KEY = b"vhsim"

#: Above this many flows (mobile nodes, handovers) a saved result keeps its per-flow
#: (per-mobile-node, per-handover) figures in ``flows.parquet`` (``mobiles.parquet``,
#: ``handovers.parquet``) instead of ``summary.json``, which then names the file
#: (``flows_table``, ...) and keeps the run's figures and its ``aggregate``
#: (docs/scenario-format.md "Results of many flows").
TABLE_LIMIT = 100

#: The per-entity tables a saved result may have, with the summary key they replace.
ENTITY_TABLES = {"flows": "flows_table", "mobiles": "mobiles_table", "handovers": "handovers_table"}

#: The index name of each per-entity table the core may hand over as columns.
ENTITY_INDEX = {"flows": "flow", "mobiles": "mobile"}


class MissingTableError(ScenarioError, KeyError):
    """The result has no such trace table (it was run at a lower ``detail``)."""

    def __str__(self) -> str:  # a KeyError would quote its message
        return str(self.args[0]) if self.args else ""


class Result:
    """The outcome of :meth:`vhsim.Scenario.run` (or :func:`read_result`).

    Attributes
    ----------
    summary:
        JSON-like dict with run metadata and per-flow / per-link counters.
    codes:
        ``{column: [name, ...]}`` mapping integer codes to names.
    captures:
        The packet captures the run wrote (:class:`vhsim.pcap.Capture`; docs/pcap.md).
    receive_windows:
        ``{flow: packets}``: the receive window each TCP flow's sender honours (see the property).
    """

    def __init__(
        self,
        summary: Mapping[str, Any],
        traces: Mapping[str, Mapping[str, np.ndarray]],
        codes: Mapping[str, list[str]],
        captures: Sequence[Capture] = (),
        scenario: Any = None,
        tables: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.summary: dict = dict(summary)
        self.captures: list[Capture] = list(captures)
        self._scenario = scenario  # the Scenario that ran (None when read from a folder)
        self._receive_windows: dict[str, float] | None = None
        self._traces: dict[str, dict[str, np.ndarray]] = {
            str(t): {str(c): np.asarray(a) for c, a in cols.items()} for t, cols in traces.items()
        }
        self.codes: dict[str, list[str]] = {str(k): [str(x) for x in v] for k, v in codes.items()}
        #: Per-flow and per-mobile-node tables read from a saved result (when summary.json
        #: does not hold them).
        self._entity_tables: dict[str, pd.DataFrame] = {}
        #: The same tables as the core hands them over for a run of more than TABLE_LIMIT flows
        #: (mobile nodes): {"names": [...], "columns": {name: ndarray | list}}; made DataFrames
        #: on first use.
        self._entity_columns: dict[str, Mapping[str, Any]] = dict(tables or {})
        for table, cols in self._traces.items():
            lengths = {len(a) for a in cols.values()}
            if len(lengths) > 1:
                raise ValueError(f"trace table {table!r} has columns of different lengths: {sorted(lengths)}")

    @classmethod
    def from_native(cls, raw: Mapping[str, Any], scenario: Any = None) -> "Result":
        """Build a Result from the dict returned by ``vhsim._native.run`` (``scenario``: the
        :class:`vhsim.Scenario` that ran)."""
        return cls(raw["summary"], raw.get("traces", {}), raw.get("codes", {}), from_native(raw.get("captures", [])),
                   scenario, raw.get("tables"))

    @property
    def receive_windows(self) -> dict[str, float]:
        """``{flow: packets}``: the receive window each TCP flow's sender honours, min(its
        ``tcp.window``, the sink's ``advertised_window``), read from the scenario that ran or
        from a saved result's trace files; empty when unknown (a folder saved by an older vhsim).
        Plots draw the effective window min(cwnd, rwnd) with it."""
        if self._receive_windows is None:
            self._receive_windows = receive_windows(self._scenario.resolved()) if self._scenario is not None else {}
        return self._receive_windows

    # -- metadata ------------------------------------------------------------
    @property
    def scenario_name(self) -> str:
        """Name of the scenario that produced this result."""
        return str(self.summary.get("scenario", ""))

    @property
    def seed(self) -> int | None:
        """Seed of the run."""
        return self.summary.get("seed")

    @property
    def version(self) -> str:
        """vhsim version that produced the result."""
        return str(self.summary.get("vhsim_version", ""))

    @property
    def flow_names(self) -> list[str]:
        """Flow names in code order (falls back to summary order)."""
        names = self.codes.get("flow")
        if names:
            return list(names)
        return list(self.summary.get("flows", {}))

    @property
    def tables(self) -> list[str]:
        """Names of the trace tables present (depends on the run's detail)."""
        return list(self._traces)

    def has_trace(self, name: str) -> bool:
        """True if trace table ``name`` was recorded."""
        return name in self._traces

    # -- tables ----------------------------------------------------------------
    @property
    def flows(self) -> pd.DataFrame:
        """One row per flow (index = flow name), scalar metrics as columns.

        Drop counters are flattened to ``drops_<cause>``, per-window goodputs to
        ``goodput_kbps_<window>`` and the figures of the k-th handover the flow measures to
        ``ho<k>.<metric>`` (``ho0.interruption_s``).
        """
        import pandas as pd

        if self._has_entity_table("flows"):
            return self._entity_table("flows").copy()
        rows = []
        names = []
        for name, metrics in self.summary.get("flows", {}).items():
            row: dict[str, Any] = {}
            for key, value in flow_figures(metrics).items():
                if key == "drops" and isinstance(value, Mapping):
                    for cause in DROP_CAUSES:
                        row[f"drops_{cause}"] = int(value.get(cause, 0))
                    for cause, count in value.items():
                        row[f"drops_{cause}"] = int(count)
                elif key == "windows" and isinstance(value, Mapping):
                    for window, kbps in value.items():
                        row[f"goodput_kbps_{window}"] = kbps
                elif key == "handovers" and isinstance(value, list):
                    for k, stats in enumerate(value):
                        row.update({f"ho{k}.{m}": v for m, v in stats.items() if not isinstance(v, (Mapping, list))})
                elif not isinstance(value, (Mapping, list, tuple)):
                    row[key] = value
            names.append(name)
            rows.append(row)
        df = pd.DataFrame(rows, index=pd.Index(names, name="flow"))
        for cause in DROP_CAUSES:
            col = f"drops_{cause}"
            if col not in df.columns:
                df[col] = pd.Series(0, index=df.index, dtype="int64")
        return df

    @property
    def mobiles(self) -> pd.DataFrame:
        """One row per mobile node (index = its node's name) when the scenario has several:
        handovers, binding drops and forwards, time in handovers, longest interruption of its
        flows; empty otherwise."""
        import pandas as pd

        if self._has_entity_table("mobiles"):
            return self._entity_table("mobiles").copy()
        rows = list(self.summary.get("mobiles") or [])
        return pd.DataFrame(rows, index=pd.Index([r["name"] for r in rows], name="mobile")).drop(
            columns=["name"], errors="ignore")

    def _has_entity_table(self, name: str) -> bool:
        """Whether this result holds ``name`` (flows, mobiles, handovers) as a table rather
        than in its summary (a result of more than :data:`TABLE_LIMIT` of them)."""
        return name in self._entity_tables or name in self._entity_columns

    def _entity_table(self, name: str) -> pd.DataFrame:
        """Table ``name``, made from the core's columns on first use (the columns are then
        dropped: the DataFrame holds the values)."""
        import pandas as pd

        if name not in self._entity_tables:
            raw = self._entity_columns.pop(name)
            index = pd.Index(list(raw["names"]), name=ENTITY_INDEX[name])
            self._entity_tables[name] = pd.DataFrame(dict(raw["columns"]), index=index)
        return self._entity_tables[name]

    @property
    def handovers(self) -> pd.DataFrame:
        """One row per handover of the run, in time order: its mobile node (when the scenario
        has several), kind, interfaces, start and completion (s)."""
        import pandas as pd

        if "handovers" in self._entity_tables:
            return self._entity_tables["handovers"].reset_index(drop=True)
        return pd.DataFrame(list(self.summary.get("handovers") or []))

    @property
    def links(self) -> pd.DataFrame:
        """One row per link direction (``<link>/<forward|reverse>``)."""
        import pandas as pd

        rows, names = [], []
        for name, metrics in self.summary.get("links", {}).items():
            row: dict[str, Any] = {"packets_sent": metrics.get("packets_sent", 0)}
            for key in ("drops", "window_drops"):
                drops = metrics.get(key, {}) or {}
                for cause in DROP_CAUSES:
                    row[f"{key}_{cause}"] = int(drops.get(cause, 0))
                for cause, count in drops.items():
                    row[f"{key}_{cause}"] = int(count)
            names.append(name)
            rows.append(row)
        return pd.DataFrame(rows, index=pd.Index(names, name="link"))

    def arrays(self, name: str) -> dict[str, np.ndarray]:
        """The raw NumPy columns of trace table ``name`` (codes as integers); a table the result
        does not have raises :class:`MissingTableError` (a ScenarioError and a KeyError)."""
        if isinstance(name, str) and name in self._traces:
            return dict(self._traces[name])
        raise MissingTableError(self._missing_message(name))

    def trace(self, name: str) -> pd.DataFrame:
        """Trace table ``name`` as a DataFrame with categorical code columns.

        Tables: ``goodput`` (always), ``timeseries`` (detail >= timeseries),
        ``packets`` (detail = packets).
        """
        import pandas as pd

        cols = self.arrays(name)
        data: dict[str, Any] = {}
        for col, arr in cols.items():
            names = self.codes.get(col)
            if col in CODED_COLUMNS and names is not None:
                data[col] = _categorical(arr, names, col)
            else:
                data[col] = arr
        n = len(next(iter(cols.values()))) if cols else 0
        return pd.DataFrame(data, index=pd.RangeIndex(n), copy=False)

    def decisions(self, flow: str) -> list[Any]:
        """What ``flow``'s sender decided and the numbers it used (TCP's cross-layer A1-A3;
        docs/schemes.md), each with the sender's traced state just before and right after it:
        :func:`vhsim.campaign.story.decisions`."""
        from .campaign.story import decisions

        return decisions(self, self._flow(flow))

    def state_around(self, flow: str, t: float) -> tuple[Any, Any]:
        """``flow``'s sender state (cwnd, ssthresh, RTO, FlightSize, state) just before time
        ``t`` (s) and right after it, from the time series: :func:`vhsim.campaign.story.state_around`."""
        from .campaign import metrics as M
        from .campaign.story import state_around

        flow = self._flow(flow)
        if isinstance(t, bool) or not isinstance(t, (int, float)) or t != t:
            raise ScenarioError(f"t: expected a time in seconds, got {shown(t)}")
        ts = self.trace("timeseries")
        try:
            return state_around(ts[ts[M.FLOW] == flow], float(t))
        except ValueError as err:  # nothing recorded at or before t
            raise ScenarioError(f"t: {err}") from None

    def entity_tables(self) -> list[str]:
        """The per-entity tables (``flows``, ``mobiles``, ``handovers``) :meth:`save` writes as
        Parquet files instead of in ``summary.json``: those of more than :data:`TABLE_LIMIT`
        entries."""
        return [name for name in ENTITY_TABLES
                if len(self.summary.get(name) or ()) > TABLE_LIMIT or self._has_entity_table(name)]

    def _flow(self, flow: Any) -> str:
        """``flow`` if this result has it; ScenarioError naming the flows otherwise."""
        names = list(self.summary.get("flows", {})) or self.flow_names
        if isinstance(flow, str) and flow in names:
            return flow
        raise ScenarioError(f"flow: no flow {shown(flow)} in this result (flows: {', '.join(names) or 'none'})")

    def _missing_message(self, name: str) -> str:
        have = ", ".join(self._traces) or "none"
        hint = ""
        if name == "timeseries":
            hint = " (run with detail='timeseries' or 'packets')"
        elif name == "packets":
            hint = " (run with detail='packets')"
        return f"no trace table {shown(name)} in this result{hint}; tables present: {have}"

    # -- persistence ---------------------------------------------------------
    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write ``summary.json`` and ``<table>.parquet`` files into ``directory``.

        Parquet files of tables that this result does not have are removed,
        so a folder never mixes tables from different runs.  ``summary.json``
        marks a complete result: it is removed first and written last (each
        file under a temporary name, then renamed), so a save cut short by
        Ctrl-C or a crash never leaves a folder that reads as complete.
        Packet captures (``*.pcap``) are indexed in ``captures.json`` (docs/pcap.md).
        A folder that cannot be written raises :class:`vhsim.errors.PathError` (a
        ScenarioError and an OSError) naming it.
        """
        return self.encoded().save(directory)

    def encoded(self) -> "EncodedResult":
        """This result as the bytes of the files :meth:`save` writes (:class:`EncodedResult`).

        A campaign's worker sends its run back encoded: the parent, the campaign folder's only
        writer, then writes bytes about a quarter the size of the trace arrays and never holds
        the arrays, the pickled scenario or Arrow's buffers of a run (issue #28)."""
        import pyarrow as pa

        summary = dict(self.summary)
        files: dict[str, bytes] = {}
        entities = {name: getattr(self, name) for name in self.entity_tables()}
        for name, df in entities.items():
            table = pa.Table.from_pandas(df if name == "handovers" else df.reset_index(), preserve_index=False)
            meta = {_META_KEY: json.dumps({"table": name, "entity": True}).encode()}
            files[f"{name}.parquet"] = _parquet_bytes(
                table.replace_schema_metadata({**(table.schema.metadata or {}), **meta}))
            summary.pop(name, None)
            summary[ENTITY_TABLES[name]] = f"{name}.parquet"
        for table, cols in self._traces.items():
            arrays, fields, dtypes, codes = [], [], {}, {}
            for col, arr in cols.items():
                names = self.codes.get(col)
                dtypes[col] = arr.dtype.str
                if col in CODED_COLUMNS and names is not None:
                    codes[col] = names
                    indices = _arrow_array(arr.astype(np.int32), mask=arr < 0)
                    arrays.append(pa.DictionaryArray.from_arrays(indices, _arrow_strings(names)))
                else:
                    arrays.append(_arrow_array(arr))
                fields.append(col)
            meta = {
                _META_KEY: json.dumps(
                    {"table": table, "dtypes": dtypes, "codes": codes, "all_codes": self.codes,
                     "receive_window_pkts": self.receive_windows}
                ).encode()
            }
            if arrays:
                pa_table = pa.Table.from_arrays(arrays, names=fields)
            else:
                pa_table = pa.table({})
            files[f"{table}.parquet"] = _parquet_bytes(
                pa_table.replace_schema_metadata({**(pa_table.schema.metadata or {}), **meta}))
        return EncodedResult(files, summary, list(self.captures))

    def __repr__(self) -> str:
        return (
            f"<vhsim.Result scenario={self.scenario_name!r} seed={self.seed} "
            f"flows={len(self.flow_names)} tables={self.tables}>"
        )


@dataclass
class EncodedResult:
    """A result as the bytes of its folder's files (:meth:`Result.encoded`): ``files`` (Parquet
    tables by file name, page checksums on), the ``summary`` object of ``summary.json`` and the
    packet captures to index; :meth:`save` writes them as :meth:`Result.save` does."""

    files: dict[str, bytes]
    summary: dict[str, Any]
    captures: list[Capture] = field(default_factory=list)

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write the files into ``directory`` (see :meth:`Result.save`)."""
        from .scenario import _folder

        out = Path(_folder(directory, "directory", required=True))
        try:
            self._write(out)
        except OSError as err:
            raise path_error(err, "directory") from None
        return out

    def _write(self, out: Path) -> None:
        out.mkdir(parents=True, exist_ok=True)
        (out / SUMMARY_FILE).unlink(missing_ok=True)
        for stale in out.glob("*.parquet"):
            if stale.name not in self.files:
                stale.unlink()
        for name, data in self.files.items():
            with atomic.replacing(out / name) as tmp:
                tmp.write_bytes(data)
        write_index(out, self.captures)
        atomic.write_text(out / SUMMARY_FILE, json.dumps(self.summary, indent=2, sort_keys=False) + "\n")


def _arrow_array(arr: np.ndarray, mask: np.ndarray | None = None) -> Any:
    """A pyarrow Array of a 1-D numeric NumPy array (``mask``: True where null), built from its
    buffers as ``pa.array(arr, mask=mask)`` would build it: ``pa.array`` imports pandas, ~50 MB
    in a campaign worker that otherwise never needs it (issue #28)."""
    import pyarrow as pa

    if arr.ndim != 1 or arr.dtype.kind not in "iuf":  # booleans are bit-packed in Arrow
        return pa.array(arr, mask=mask)
    arr = np.ascontiguousarray(arr)
    validity, nulls = None, 0
    if mask is not None and mask.any():
        validity, nulls = pa.py_buffer(np.packbits(~mask, bitorder="little")), int(mask.sum())
    return pa.Array.from_buffers(pa.from_numpy_dtype(arr.dtype), len(arr), [validity, pa.py_buffer(arr)],
                                 null_count=nulls)


def _arrow_strings(names: Sequence[str]) -> Any:
    """``pa.array(names, pa.string())`` without importing pandas (see :func:`_arrow_array`)."""
    import pyarrow as pa

    data = [str(n).encode("utf-8") for n in names]
    offsets = np.zeros(len(data) + 1, dtype=np.int32)
    offsets[1:] = np.cumsum([len(d) for d in data], dtype=np.int64)
    return pa.Array.from_buffers(pa.string(), len(data), [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))])


def _parquet_bytes(table: Any) -> bytes:
    """``table`` (a pyarrow Table) as a Parquet file's bytes, with page checksums (a damaged file
    fails to read)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def _categorical(arr: np.ndarray, names: list[str], col: str) -> pd.Categorical:
    import pandas as pd

    codes = np.asarray(arr)
    if codes.dtype.kind not in "iu":
        raise TypeError(f"column {col!r} should hold integer codes, has dtype {codes.dtype}")
    if len(codes) and (codes.max() >= len(names) or codes.min() < -1):
        raise ValueError(f"column {col!r} has codes outside 0..{len(names) - 1}")
    # from_codes wants signed codes; -1 becomes a missing value (e.g. link = none).
    return pd.Categorical.from_codes(codes.astype(np.int32, copy=False), categories=_unique(names, col))


def _unique(names: list[str], col: str) -> pd.Index:
    import pandas as pd

    idx = pd.Index(names, dtype=object)
    if not idx.is_unique:
        raise ValueError(f"code list for {col!r} has duplicate names: {names}")
    return idx


def read_result(directory: str | os.PathLike[str], tables: Sequence[str] | None = None) -> Result:
    """Read a folder written by :meth:`Result.save` (or ``vhsim run --out``); ``tables``: only
    these trace tables (``("timeseries",)``; default: all), so that a reader that needs one
    does not decode the others (a run's packet trace is most of its size).

    A folder that does not exist, or holds no complete result, raises
    :class:`vhsim.errors.MissingPathError` (a ScenarioError and a FileNotFoundError); a
    damaged one a :class:`ScenarioError` naming it."""
    from .scenario import _folder

    src = Path(_folder(directory, "directory", required=True))
    where = "directory: " + shown(os.fspath(src), PATH_LIMIT, quote=False)
    summary_path = src / SUMMARY_FILE
    if not summary_path.is_file():
        if not src.exists():
            raise MissingPathError(f"{where}: result folder not found")
        if any(src.glob("*.parquet")) or any(src.glob(".*.tmp")):
            raise MissingPathError(f"{where}: incomplete vhsim result folder (no {SUMMARY_FILE}; the run or its "
                                   "saving was interrupted)")
        raise MissingPathError(f"{where}: not a vhsim result folder (no {SUMMARY_FILE})")
    try:
        return _read(src, summary_path, tables)
    except OSError as err:
        raise path_error(err, "directory") from None
    except (ValueError, KeyError, TypeError) as err:  # pyarrow's errors are ValueErrors too
        if isinstance(err, ScenarioError):
            raise
        raise ScenarioError(f"{where}: not a readable vhsim result "
                            f"({type(err).__name__}: {shown(str(err), 200, quote=False)})") from None


def _read(src: Path, summary_path: Path, tables: Sequence[str] | None = None) -> Result:
    import pandas as pd

    import pyarrow.parquet as pq

    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    if not isinstance(summary, dict):
        raise ValueError(f"{SUMMARY_FILE} is not a JSON object")
    traces: dict[str, dict[str, np.ndarray]] = {}
    codes: dict[str, list[str]] = {}
    entities: dict[str, pd.DataFrame] = {}
    windows: dict[str, float] = {}
    for path in sorted(src.glob("*.parquet")):
        if tables is not None and path.stem not in tables and path.stem not in ENTITY_TABLES:
            continue  # a trace table not asked for (entity tables are part of the summary)
        table = pq.read_table(path, page_checksum_verification=True)
        raw_meta = (table.schema.metadata or {}).get(_META_KEY)
        meta = json.loads(raw_meta) if raw_meta else {}
        if meta.get("entity"):
            df = table.to_pandas()
            entities[meta["table"]] = df if meta["table"] == "handovers" else df.set_index(df.columns[0])
            continue
        dtypes = meta.get("dtypes", {})
        table_codes = meta.get("codes", {})
        for k, v in meta.get("all_codes", {}).items():
            codes.setdefault(k, v)
        windows.update({str(k): float(v) for k, v in (meta.get("receive_window_pkts") or {}).items()})
        cols: dict[str, np.ndarray] = {}
        for col in table.column_names:
            chunked = table.column(col)
            dtype = np.dtype(dtypes[col]) if col in dtypes else None
            if col in table_codes:
                names = table_codes[col]
                codes.setdefault(col, names)
                values = chunked.to_pandas()
                cat = pd.Categorical(values, categories=_unique(names, col))
                arr = cat.codes.astype(dtype or np.int32)
            else:
                arr = chunked.to_numpy()
                if dtype is not None:
                    arr = arr.astype(dtype, copy=False)
            cols[col] = np.ascontiguousarray(arr)
        traces[meta.get("table", path.stem)] = cols
    order = {"goodput": 0, "timeseries": 1, "packets": 2}
    traces = dict(sorted(traces.items(), key=lambda kv: (order.get(kv[0], 9), kv[0])))
    result = Result(summary, traces, codes, read_index(src))
    result._entity_tables = entities
    result._receive_windows = windows
    return result


def receive_windows(resolved: Mapping[str, Any]) -> dict[str, float]:
    """``{flow: packets}`` of a resolved scenario's TCP flows: min(``tcp.window``, the sink's
    ``advertised_window``), both resolved to packets (``"20pkt"``)."""
    out = {}
    for flow in resolved.get("flows", []):
        transport = flow.get("transport", {})
        if transport.get("protocol") != "tcp":
            continue
        limits = [transport.get("tcp", {}).get("window"), transport.get("sink", {}).get("advertised_window")]
        packets = [float(str(v).removesuffix("pkt")) for v in limits if str(v).endswith("pkt")]
        if packets:
            out[str(flow["name"])] = min(packets)
    return out
