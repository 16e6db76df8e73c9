"""Kim & Koh reproduction: what one run's traces say around a primary switch.

The claims of Figures 8, 9, 11, 13, 14 and 16 are about events in time (reordering at the
mobile node, spurious fast retransmissions, timeouts, the new path's cwnd), so each run's
stored traces are read into per-run columns (:func:`derive`), which the claims then compare
across schemes and replications like any result column.

The switch time of a run is when the correspondent (CN) received the mobile node's
Set-Primary ASCONF (the first ASCONF arriving after the scripted time): from then on the CN's
scheme acts.  Without a packet trace it is when the time series shows the new path become the
CN's primary (``primary_bool``), the same instant.  Paths: 0 = 3G (``umts``), 1 = WLAN, in the order of the mobile node's
interfaces (the association's path index = interface index in these scenarios).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .. import metrics as M

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

FLOW = "ftp"
UMTS, WLAN = 0, 1
CN_ADDR = 0  # the correspondent node is the first node of the scenarios
KIND_ASCONF = 0x10  # vhsim_sctp::wire::KIND_ASCONF (the packet trace's flags column)
MTU = 1468  # chunk bytes of one full packet (docs/sctp.md): cwnd in MTUs = cwnd_bytes / MTU
CWND, ERRORS, PRIMARY = "cwnd_bytes", "errors_count", "primary_bool"


def flow_rows(table: "pd.DataFrame") -> "pd.DataFrame":
    return table[table[M.FLOW] == FLOW]


def switch_time(packets: "pd.DataFrame", scripted_s: float) -> float:
    """When the CN received the first ASCONF sent at or after ``scripted_s`` (NaN if none)."""
    t = packets[M.TIME].to_numpy()
    ok = ((packets[M.EVENT] == "control_receive").to_numpy() & ((packets["flags"].to_numpy() & KIND_ASCONF) != 0)
          & (packets["dst"].to_numpy() == CN_ADDR) & (t >= scripted_s))
    return float(t[ok][0]) if ok.any() else math.nan


def primary_switch_time(ts: "pd.DataFrame", new: int, scripted_s: float) -> float:
    """When path ``new`` became the CN's primary at or after ``scripted_s`` (NaN if never)."""
    t, v = path_series(ts, new, PRIMARY)
    ok = (t >= scripted_s) & (v == 1.0)
    return float(t[ok][0]) if ok.any() else math.nan


def first_arrivals(packets: "pd.DataFrame") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(times, TSNs, first-copy flags) of the DATA the mobile node received, in time order."""
    rx = packets[packets[M.EVENT] == "receive"]
    t, seq = rx[M.TIME].to_numpy(float), rx[M.SEQ].to_numpy()
    _, first_index = np.unique(seq, return_index=True)
    first = np.zeros(len(seq), dtype=bool)
    first[first_index] = True
    return t, seq, first


def reordering(packets: "pd.DataFrame", t0: float, t1: float) -> tuple[int, float]:
    """First copies of TSNs arriving in [t0, t1) below a TSN already received: (count, first time)."""
    t, seq, first = first_arrivals(packets)
    highest = np.maximum.accumulate(np.where(first, seq, 0))
    below = first & (seq < np.concatenate(([0], highest[:-1])))
    sel = below & (t >= t0) & (t < t1)
    return int(sel.sum()), (float(t[sel][0]) if sel.any() else math.nan)


def spurious_retransmissions(packets: "pd.DataFrame", t0: float, t1: float) -> np.ndarray:
    """Times of the retransmissions in [t0, t1) the ground truth calls spurious."""
    t = packets[M.TIME].to_numpy(float)
    sel = (packets[M.EVENT] == "retransmit").to_numpy() & (packets[M.SPURIOUS].to_numpy() == 1) & (t >= t0) & (t < t1)
    return t[sel]


def old_data_acked_after(packets: "pd.DataFrame", switch: float) -> float:
    """Seconds from the switch until the cumulative ack passes every TSN sent before it."""
    t = packets[M.TIME].to_numpy(float)
    sent = (packets[M.EVENT].isin(["send", "retransmit"])).to_numpy() & (t < switch)
    if not sent.any():
        return math.nan
    highest = int(packets[M.SEQ].to_numpy()[sent].max())
    # An SCTP SACK's trace seq is its cumulative TSN ack.
    acked = (packets[M.EVENT] == "ack_receive").to_numpy() & (packets[M.SEQ].to_numpy() >= highest) & (t >= switch)
    return float(t[acked][0] - switch) if acked.any() else math.inf


def path_series(ts: "pd.DataFrame", path: int, column: str) -> tuple[np.ndarray, np.ndarray]:
    rows = ts[ts["path"] == path]
    return rows[M.TIME].to_numpy(float), rows[column].to_numpy(float)


def value_at(ts: "pd.DataFrame", path: int, column: str, at: float) -> float:
    """The path's variable as last recorded before ``at`` (NaN before its first row)."""
    t, v = path_series(ts, path, column)
    i = np.searchsorted(t, at, side="left") - 1
    return float(v[i]) if i >= 0 else math.nan


def increments(ts: "pd.DataFrame", path: int, column: str, t0: float, t1: float) -> np.ndarray:
    """Times in [t0, t1) at which the path's counter rose (T3 expiries raise the error counter)."""
    t, v = path_series(ts, path, column)
    rose = np.concatenate(([False], np.diff(v) > 0))
    return t[rose & (t >= t0) & (t < t1)]


def derive_switch(camp, df: "pd.DataFrame", scripted_s: float, new: int, old: int, packets: bool,
                  horizon: float = 3.0, cwnd_after: Sequence[float] = (0.5, 1.0, 2.0, 4.0)) -> "pd.DataFrame":
    """Per run, around the switch scripted at ``scripted_s`` from path ``old`` to ``new``: the
    switch time; the new path's cwnd (MTUs) ``cwnd_after`` seconds after it and the old path's
    just before it; with ``packets``: reordering, spurious retransmissions and T3 expiries
    within ``horizon`` s, and when the old data was acknowledged."""
    cols: dict[str, list] = {}

    def put(name: str, value) -> None:
        cols.setdefault(name, []).append(value)

    for _, row in df.iterrows():
        result = camp.trace_for(row)
        ts = flow_rows(result.trace("timeseries"))
        pk = flow_rows(result.trace("packets")) if packets else None
        sw = switch_time(pk, scripted_s) if pk is not None else primary_switch_time(ts, new, scripted_s)
        put("switch_s", sw)
        put("old_cwnd_before", value_at(ts, old, CWND, sw) / MTU)
        for dt in cwnd_after:
            put(f"new_cwnd_{dt:g}s", value_at(ts, new, CWND, sw + dt) / MTU)
        t3 = increments(ts, old, ERRORS, sw - 0.5, sw + horizon)
        put("old_t3", len(t3))
        put("old_t3_times", ", ".join(f"{x:.2f}" for x in t3))
        if pk is not None:
            n, first = reordering(pk, sw, sw + horizon)
            spurious = spurious_retransmissions(pk, sw, sw + horizon)
            put("reorders", n)
            put("reorder_first_s", first)
            put("spurious_n", len(spurious))
            put("spurious_first_s", spurious[0] if len(spurious) else math.nan)
            put("spurious_last_s", spurious[-1] if len(spurious) else math.nan)
            put("old_acked_s", old_data_acked_after(pk, sw))
    return df.assign(**{k: v for k, v in cols.items()}) if cols else df.copy()


def cumulative_chunks(result, at: Sequence[float], chunk_payload: int = MTU - 16) -> list[float]:
    """Chunks delivered in order to the mobile node's application by each time of ``at``, from
    the goodput trace (bytes per bin, each row at its bin's end)."""
    g = flow_rows(result.trace("goodput"))
    t, b = g[M.TIME].to_numpy(float), np.cumsum(g["bytes"].to_numpy(float))
    return [float(b[t <= x + 1e-9][-1]) / chunk_payload if (t <= x + 1e-9).any() else 0.0 for x in at]
