"""What one run's sender did around a handover (its first by default), read from its traces (a
"run story").

:func:`run_story` needs a run with ``detail = "packets"`` (packet and time-series traces).  It
reports the sender's state just before the handover's notification and right after it, the
RTOs (with whether each one's retransmission was spurious, by the simulator's ground truth),
the fast recoveries, the retransmissions and the drops per link in a window after the handover.
A paper's case study turns these into per-run columns (:func:`story_columns`) that its claims
read like any other result column.

RTOs are not trace events: an RTO shows in the time series as the sender entering (or staying
in) the loss state with cwnd 1 and a new ssthresh or a backed-off RTO.

The numbers a sender's rules computed are not recomputed here: the simulator reports each
decision (TCP's cross-layer A1-A3: the rule, the numbers it read and set; docs/schemes.md) in
the flow's summary, and :func:`decisions` reads them, each with the sender's traced state just
before and right after it (:func:`state_around`, which works for any instant).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import metrics as M

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..result import Result

EPS = 1e-9


@dataclass(frozen=True)
class Snapshot:
    """The sender's state at one row of the time series."""

    time_s: float
    state: str
    flight: int
    cwnd: float
    ssthresh: float
    rto_s: float

    def describe(self) -> str:
        ss = "inf" if self.ssthresh >= 1e6 else f"{self.ssthresh:.0f}"
        return (f"'{self.state}' with FlightSize {self.flight}, cwnd {self.cwnd:.1f}, ssthresh {ss}, "
                f"RTO {1e3 * self.rto_s:.1f} ms")


def _snap(row: Any) -> Snapshot:
    return Snapshot(float(row[M.TIME]), str(row[M.STATE]), int(row[M.FLIGHT]), float(row[M.CWND]),
                    float(row[M.SSTHRESH]), float(row[M.RTO]))


def state_around(ts: "pd.DataFrame", t: float) -> tuple[Snapshot, Snapshot]:
    """The sender's state in one flow's time series ``ts`` just before ``t`` (the last row
    before it) and right after it (the last row at ``t``; the state before if nothing changed)."""
    earlier = ts[ts[M.TIME] < t - EPS]
    at = ts[(ts[M.TIME] >= t - EPS) & (ts[M.TIME] <= t + EPS)]
    if not len(earlier) and not len(at):
        raise ValueError(f"no time-series row at or before {t} s")
    before = _snap(earlier.iloc[-1]) if len(earlier) else _snap(at.iloc[0])
    return before, _snap(at.iloc[-1]) if len(at) else before


@dataclass(frozen=True)
class Decision:
    """One decision the simulator reported (summary ``flows.<f>.decisions``): the rule, what it
    read and what it set (keys ``<name>_<unit>``: ``flight_pkts``, ``minrto_s``), and the
    sender's traced state just before and right after it (``None`` without a time series)."""

    time_s: float
    rule: str
    inputs: dict[str, float]
    outputs: dict[str, float]
    before: Snapshot | None = None
    after: Snapshot | None = None


def decisions(result: "Result", flow: str = "bulk") -> list[Decision]:
    """Every decision ``flow``'s endpoints reported, in time order, with the sender's state
    around each when the run kept its time series."""
    raw = result.summary.get("flows", {}).get(flow, {}).get("decisions", [])
    ts = result.trace("timeseries") if raw and result.has_trace("timeseries") else None
    if ts is not None:
        ts = ts[ts[M.FLOW] == flow].reset_index(drop=True)
    out = []
    for d in raw:
        t = float(d["time_s"])
        before, after = state_around(ts, t) if ts is not None else (None, None)
        out.append(Decision(t, str(d["rule"]), dict(d["inputs"]), dict(d["outputs"]), before, after))
    return out


@dataclass
class Story:
    start_s: float                # the handover's start
    notify_s: float               # its completion (the notification, with notify_delay 0)
    before: Snapshot              # last state before the notification
    after: Snapshot               # state right after it (the notification's own row, if any)
    pre_acked_s: float            # when all data sent before the notification was cumulatively ACKed
    rto_s: list[float] = field(default_factory=list)           # RTOs in [start, start + window)
    rto_spurious: list[bool] = field(default_factory=list)     # ... whether each one's retransmission was spurious
    rto_ssthresh: list[float] = field(default_factory=list)    # ... ssthresh each one set
    fast_retransmit_s: list[float] = field(default_factory=list)
    recovery_entries: list[tuple[Snapshot, Snapshot]] = field(default_factory=list)  # (state before, at entry)
    retransmit_s: list[float] = field(default_factory=list)    # every retransmission in the window
    first_retransmit_s: float = math.nan                       # the first from the notification on
    drops_s: dict[str, list[float]] = field(default_factory=dict)  # data drops per link in the window
    outstanding: int = 0          # segments outstanding at the handover's start
    lost_outstanding: int = 0     # ... of which the transmission before it was dropped
    decisions: list[Decision] = field(default_factory=list)    # the sender's, from the notification on

    def decided(self, *rules: str) -> list[Decision]:
        """The decisions by one of ``rules`` (all with none) from the notification on."""
        return [d for d in self.decisions if not rules or d.rule in rules]

    def describe(self) -> str:
        return (f"at the notification ({self.notify_s:.2f} s) the sender is {self.before.describe()}; after it "
                f"cwnd {self.after.cwnd:.1f}, ssthresh "
                f"{'inf' if self.after.ssthresh >= 1e6 else f'{self.after.ssthresh:.0f}'}, "
                f"RTO {1e3 * self.after.rto_s:.1f} ms")

    def retransmissions_between(self, t0: float, t1: float) -> int:
        return sum(1 for t in self.retransmit_s if t0 - EPS <= t < t1 - EPS)


def run_story(result: "Result", window_s: float, flow: str = "bulk", handover: int = 0) -> Story:
    """The story of ``flow`` in ``result`` from its ``handover``-th handover's start (the first by
    default) to start + ``window_s``."""
    handover = result.summary["handovers"][handover]
    start, notify = float(handover["start_s"]), float(handover["done_s"])
    end = start + window_s
    ts = result.trace("timeseries")
    ts = ts[ts[M.FLOW] == flow].reset_index(drop=True)
    before, after = state_around(ts, notify)
    pk = result.trace("packets")
    pk = pk[pk[M.FLOW] == flow]
    sent = pk[pk[M.EVENT].isin([M.SEND, M.RETRANSMIT]) & (pk[M.TIME] <= notify + EPS)]
    pre_high = int(sent[M.SEQ].max()) if len(sent) else -1
    acks = pk[(pk[M.EVENT] == M.ACK_RECEIVE) & (pk[M.TIME] > notify) & (pk[M.SEQ] > pre_high)]
    story = Story(start, notify, before, after, float(acks[M.TIME].iloc[0]) if len(acks) else math.inf)
    # Only the rows from the one before the handover's start matter (each change is judged
    # against the row before it); slicing keeps long runs fast.
    first = int((ts[M.TIME] < start - EPS).sum())
    _read_state_changes(story, ts.iloc[max(first - 1, 0):][ts[M.TIME].iloc[max(first - 1, 0):] < end], notify)
    retx = pk[(pk[M.EVENT] == M.RETRANSMIT) & (pk[M.TIME] >= start - EPS) & (pk[M.TIME] < end)]
    story.retransmit_s = [float(t) for t in retx[M.TIME]]
    later = retx[retx[M.TIME] >= notify - EPS]
    story.first_retransmit_s = float(later[M.TIME].iloc[0]) if len(later) else math.nan
    for t in story.rto_s:
        at_rto = retx[(retx[M.TIME] >= t - EPS) & (retx[M.TIME] <= t + EPS)]
        story.rto_spurious.append(bool(len(at_rto)) and bool(at_rto[M.SPURIOUS].iloc[0]))
    drops = pk[(pk[M.EVENT] == M.DROP) & (pk[M.TIME] >= start - EPS) & (pk[M.TIME] < end)]
    for link, sub in drops.groupby(drops[M.LINK].astype(str), sort=True):
        story.drops_s[link] = [float(t) for t in sub[M.TIME]]
    story.outstanding, story.lost_outstanding = _lost_outstanding(pk, start)
    story.decisions = [d for d in decisions(result, flow) if d.time_s >= notify - EPS]
    return story


def _read_state_changes(story: Story, ts: "pd.DataFrame", notify: float) -> None:
    """The RTOs and fast-recovery entries in ``ts`` (one flow's time series from the row before
    the handover's start), each row judged against the row before it. The rules are evaluated
    on whole columns (a row loop over pandas rows was most of a case study's reading time:
    docs/performance.md "Plots in two processes"); only the rows they pick become snapshots."""
    import numpy as np

    if len(ts) < 2:
        return
    time = ts[M.TIME].to_numpy(dtype=float)
    state = ts[M.STATE].astype(str).to_numpy()
    cwnd, ssthresh, rto = (ts[c].to_numpy(dtype=float) for c in (M.CWND, M.SSTHRESH, M.RTO))
    flight = ts[M.FLIGHT].to_numpy()

    def snap(i: int) -> Snapshot:
        return Snapshot(float(time[i]), str(state[i]), int(flight[i]), float(cwnd[i]), float(ssthresh[i]), float(rto[i]))

    now, prev = slice(1, None), slice(None, -1)  # row i against row i - 1
    judged = time[now] >= story.start_s - EPS
    loss_now, loss_prev = state[now] == M.LOSS, state[prev] == M.LOSS
    # An RTO leaves cwnd at 1 in the loss state; a backed-off one (cwnd already 1) shows as a
    # new ssthresh or a doubled RTO with cwnd still 1 -- except at the notification, where a
    # cross-layer sender may itself restore ssthresh and restart the RTT variables.
    at_notice = (np.abs(time[now] - notify) <= EPS) & loss_prev
    is_rto = judged & ~at_notice & loss_now & (cwnd[now] <= 1 + EPS) & (
        ~loss_prev | (cwnd[prev] > 1 + EPS) | (ssthresh[now] != ssthresh[prev]) | (rto[now] > rto[prev] * 1.5))
    enters_recovery = judged & (state[now] == M.RECOVERY) & (state[prev] != M.RECOVERY)
    for i in (np.flatnonzero(is_rto) + 1).tolist():
        story.rto_s.append(float(time[i]))
        story.rto_ssthresh.append(float(ssthresh[i]))
    for i in (np.flatnonzero(enters_recovery) + 1).tolist():
        story.fast_retransmit_s.append(float(time[i]))
        story.recovery_entries.append((snap(i - 1), snap(i)))


def _lost_outstanding(pk: "pd.DataFrame", start: float) -> tuple[int, int]:
    """Segments outstanding at ``start`` (sent before it, above the highest cumulative ACK the
    sender had then), and how many of them were dropped at or after ``start``, before any
    retransmission of them."""
    acked = pk[(pk[M.EVENT] == M.ACK_RECEIVE) & (pk[M.TIME] < start)]
    cum = int(acked[M.SEQ].max()) if len(acked) else -1
    sent = pk[pk[M.EVENT].isin([M.SEND, M.RETRANSMIT]) & (pk[M.TIME] < start) & (pk[M.SEQ] > cum)]
    outstanding = set(int(s) for s in sent[M.SEQ])
    later = pk[pk[M.TIME] >= start - EPS]
    resent = later[later[M.EVENT] == M.RETRANSMIT].groupby(M.SEQ, observed=True)[M.TIME].min()
    dropped = later[later[M.EVENT] == M.DROP].groupby(M.SEQ, observed=True)[M.TIME].min()
    lost = sum(1 for seq, t in dropped.items() if int(seq) in outstanding and t < resent.get(seq, math.inf))
    return len(outstanding), lost


def story_columns(story: Story) -> dict[str, Any]:
    """The story as per-run columns (``story.<name>``) for a result table."""
    return {
        "story.rto_s": story.rto_s, "story.rto_spurious": story.rto_spurious,
        "story.rtos": len(story.rto_s), "story.fast_retransmits": len(story.fast_retransmit_s),
        "story.retransmissions_after_first_rto": (
            story.retransmissions_between(story.rto_s[0], story.rto_s[1] if len(story.rto_s) > 1 else math.inf)
            if story.rto_s else 0),
        "story.outstanding": story.outstanding, "story.lost_outstanding": story.lost_outstanding,
        "story.first_retransmit_delay_s": story.first_retransmit_s - story.notify_s,
        "story.before_state": story.before.state, "story.before_flight": story.before.flight,
        "story.after_cwnd": story.after.cwnd, "story.after_ssthresh": story.after.ssthresh,
    }
