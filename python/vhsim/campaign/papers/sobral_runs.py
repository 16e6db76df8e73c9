"""Sobral et al.: what each run did, as per-run columns read from its traces.

Every run keeps its packet and time-series traces (``detail = "packets"``; one run is about
1.6 MB).  :func:`derive` adds the columns the claims, tables and plots read: the story of each
of the two handovers (:func:`vhsim.campaign.story.run_story`: RTOs with their ssthresh and
whether the ground truth calls them spurious, fast recoveries), the repeated ACKs that reach the
sender after each RTO, the segment numbers at those instants, the RTT estimates the paper
quotes, and the throughput in 1 s bins (data delivered in order, payload).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import metrics as M
from ..story import run_story

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ...result import Result

FLOW = "cbr"
HANDOVERS = (100.0, 300.0)          # §5: to WLAN at 100 s, back to 3G at 300 s
STORY_WINDOW_S = 10.0               # the events the paper narrates all fall within 10 s
PATH_3G_KBPS = 300.0 * 1000 / 1040  # the 3G link's payload rate: 1000 B of data in 1040 B packets
EPS = 1e-9


def goodput_kbps(result: "Result") -> "pd.Series":
    """Payload delivered in order per 1 s bin (kb/s), indexed by the bin's start (s); bins with
    nothing delivered are 0."""
    import pandas as pd

    g = result.trace("goodput")
    g = g[g[M.FLOW] == FLOW]
    end = int(math.ceil(float(result.summary[M.Run.SIM_S])))
    series = pd.Series(0.0, index=np.arange(end + 1, dtype=float))
    series.loc[g[M.TIME].to_numpy(float)] = g[M.GOODPUT_BYTES].to_numpy(float) * 8 / 1000
    return series


def delivered_kb(kbps: "pd.Series", start: float, seconds: float) -> float:
    """kB delivered in [start, start + seconds) (whole 1 s bins)."""
    return float(kbps[(kbps.index >= start) & (kbps.index < start + seconds)].sum()) / 8


def recovery_s(kbps: "pd.Series", start: float, level: float = 0.95 * PATH_3G_KBPS, hold: int = 3) -> float:
    """Seconds from ``start`` until the start of the first 1 s bin from which the throughput is
    at least ``level`` for ``hold`` bins in a row (inf if never)."""
    after = kbps[kbps.index >= start]
    ok = (after >= level).to_numpy()
    for i in range(len(ok) - hold + 1):
        if ok[i:i + hold].all():
            return float(after.index[i] - start)
    return math.inf


def _repeated(pk: "pd.DataFrame", t: float, value: int) -> float | None:
    """When the ACK ``value`` reaches the sender for the second time after ``t``: the first
    repeated ACK of the go-back-N retransmissions that followed the timeout at ``t`` (the paper's
    "repeated ACKs (with the value of 18736)", the highest segment sent before the timeout)."""
    acks = pk[(pk[M.EVENT] == M.ACK_RECEIVE) & (pk[M.TIME] > t) & (pk[M.SEQ] == value)]
    return float(acks[M.TIME].iloc[1]) if len(acks) > 1 else None


def _highest_sent(sent: "pd.DataFrame", t: float) -> int:
    before = sent[sent[M.TIME] <= t + EPS]
    return int(before[M.SEQ].max()) if len(before) else -1


def _rtt_after(sent: "pd.DataFrame", pk: "pd.DataFrame", t: float) -> float:
    """Send-to-ACK time of the first new segment sent at or after ``t`` (a sample of the path's RTT)."""
    new = sent[(sent[M.EVENT] == M.SEND) & (sent[M.TIME] >= t - EPS)]
    if not len(new):
        return math.nan
    t0, seq = float(new[M.TIME].iloc[0]), int(new[M.SEQ].iloc[0])
    acks = pk[(pk[M.EVENT] == M.ACK_RECEIVE) & (pk[M.SEQ] > seq) & (pk[M.TIME] > t0)]
    return float(acks[M.TIME].iloc[0]) - t0 if len(acks) else math.nan


def _last(ts: "pd.DataFrame", column: str, before: float) -> float:
    rows = ts[ts[M.TIME] < before]
    return float(rows[column].iloc[-1]) if len(rows) else math.nan


def first_3g_ack(pk: "pd.DataFrame", at: float) -> tuple[float, float]:
    """When the first ACK the mobile node sends by the 3G interface at or after ``at`` leaves it,
    and when that ACK reaches the sender (nan, nan if there is none).

    The 3G interface is the one the ACKs of the first 100 s took (the initial interface).  The
    packet trace names the interface of an ACK where it is sent; at the sender an ACK is matched
    by its value: the first arrival of that value at least the 3G uplink's transit after the
    sending (the shortest ACK transit of the first 100 s, when the 3G path was the only one;
    copies of the same value sent earlier by the faster WLAN arrive before that)."""
    acks_out = pk[pk[M.EVENT] == M.ACK_SEND]
    acks_in = pk[pk[M.EVENT] == M.ACK_RECEIVE]
    early_out, early_in = acks_out[acks_out[M.TIME] < HANDOVERS[0]], acks_in[acks_in[M.TIME] < HANDOVERS[0]]
    n = min(len(early_out), len(early_in))
    if not n:
        return math.nan, math.nan
    iface = int(early_out[M.PATH].mode().iloc[0])
    transit = float((early_in[M.TIME].to_numpy()[:n] - early_out[M.TIME].to_numpy()[:n]).min())
    by_3g = acks_out[(acks_out[M.TIME] >= at - EPS) & (acks_out[M.PATH] == iface)]
    if not len(by_3g):
        return math.nan, math.nan
    left, value = float(by_3g[M.TIME].iloc[0]), int(by_3g[M.SEQ].iloc[0])
    arrivals = acks_in[(acks_in[M.SEQ] == value) & (acks_in[M.TIME] >= left + transit - EPS)]
    return left, float(arrivals[M.TIME].iloc[0]) if len(arrivals) else math.nan


def inflations(pk: "pd.DataFrame", start: float, end: float) -> int:
    """Bursts of repeated ACKs in [start, end) on whose third or later duplicate the sender sent a
    segment: the window inflated outside a fast retransmit (ns-2 NewReno's fast recovery with
    ``exitFastRetrans_`` false, which its trace logs as NEWRENO_FAST_RECOVERY).  Limited transmit
    answers only the first two duplicates."""
    acks = pk[(pk[M.EVENT] == M.ACK_RECEIVE) & (pk[M.TIME] >= start) & (pk[M.TIME] < end)]
    sent_at = set(pk[pk[M.EVENT].isin([M.SEND, M.RETRANSMIT])][M.TIME].to_numpy().tolist())
    bursts, dup, previous, inflated = 0, 0, None, False
    for t, value in zip(acks[M.TIME].to_numpy(), acks[M.SEQ].to_numpy()):
        dup = dup + 1 if value == previous else 0
        if dup == 0:
            inflated = False
        previous = value
        if dup >= 3 and not inflated and float(t) in sent_at:
            bursts, inflated = bursts + 1, True
    return bursts


def cwnd_back_s(ts: "pd.DataFrame", at: float, rto_s: list, ssthresh: list) -> float:
    """Seconds from ``at`` until cwnd, after the first timeout of the handover, first reaches the
    ssthresh that timeout set (nan without a timeout, inf if never within the story window)."""
    if not len(rto_s):
        return math.nan
    after = ts[(ts[M.TIME] > rto_s[0]) & (ts[M.TIME] < at + STORY_WINDOW_S) & (ts[M.CWND] >= ssthresh[0] - EPS)]
    return float(after[M.TIME].iloc[0]) - at if len(after) else math.inf


def run_columns(result: "Result") -> dict[str, Any]:
    """The per-run columns of one run (see the module docstring)."""
    ts = result.trace("timeseries")
    ts = ts[ts[M.FLOW] == FLOW].reset_index(drop=True)
    pk = result.trace("packets")
    pk = pk[pk[M.FLOW] == FLOW].reset_index(drop=True)
    sent = pk[pk[M.EVENT].isin([M.SEND, M.RETRANSMIT])]
    kbps = goodput_kbps(result)
    out: dict[str, Any] = {}
    for k, at in enumerate(HANDOVERS):
        tag = f"{at:.0f}"
        story = run_story(result, STORY_WINDOW_S, FLOW, handover=k)
        window = ts[(ts[M.TIME] >= at) & (ts[M.TIME] < at + 5)]
        out.update({
            f"rto{tag}": len(story.rto_s), f"rto{tag}_s": story.rto_s, f"rto{tag}_spurious": story.rto_spurious,
            f"rto{tag}_ssthresh": story.rto_ssthresh, f"fr{tag}": len(story.fast_retransmit_s),
            f"cwnd_min{tag}": float(window[M.CWND].min()) if len(window) else math.nan,
            f"kb_20s_{tag}": delivered_kb(kbps, at, 20), f"kb_10s_{tag}": delivered_kb(kbps, at, 10),
            f"kb_5s_{tag}": delivered_kb(kbps, at, 5), f"done{tag}_s": story.notify_s,
        })
    # The 300 s story in the paper's terms: each RTO's segment, the sender's highest segment then,
    # the backed-off RTO, and the first repeated ACK after it.
    rto300 = out["rto300_s"]
    out["rto300_seq"] = [int(sent[(sent[M.EVENT] == M.RETRANSMIT) & (sent[M.TIME] >= t - EPS)][M.SEQ].iloc[0])
                         for t in rto300]
    out["rto300_highest"] = [_highest_sent(sent, t) for t in rto300]
    out["rto300_rto"] = [_last(ts, M.RTO, t + EPS) for t in rto300]
    # Our ACKs carry the next segment expected: one past the highest sent before the timeout.
    repeats = [(_repeated(pk, t, h + 1), h + 1) for t, h in zip(rto300, out["rto300_highest"])]
    repeats = [(t, ack) for t, ack in repeats if t is not None]
    out["dup300_s"] = [t for t, _ in repeats]
    out["dup300_ack"] = [ack for _, ack in repeats]
    out["dup300_highest"] = [_highest_sent(sent, t) for t, _ in repeats]
    # The return to 3G (issue #26): the first ACK by the 3G interface, the window's rise, and
    # the repeated-ACK bursts that inflated the window.
    out["ack3g_leave300_s"], out["ack3g300_s"] = first_3g_ack(pk, HANDOVERS[1])
    out["cwnd_back300_s"] = cwnd_back_s(ts, HANDOVERS[1], rto300, out["rto300_ssthresh"])
    out["inflated300"] = inflations(pk, HANDOVERS[1], HANDOVERS[1] + STORY_WINDOW_S)
    # The sender is back to normal when it last leaves the loss or disorder state after 300 s.
    late = ts[(ts[M.TIME] >= 300) & (ts[M.TIME] < 300 + STORY_WINDOW_S)]
    unsettled = late[late[M.STATE] != M.OPEN]
    stable = float(late[late[M.TIME] > unsettled[M.TIME].max()][M.TIME].min()) if len(unsettled) else 300.0
    out.update({
        "stable300_s": stable, "rtt_stable_s": _rtt_after(sent, pk, stable),
        "srtt_3g_s": _last(ts, M.SRTT, HANDOVERS[0]), "srtt_wlan_s": _last(ts, M.SRTT, HANDOVERS[1]),
        "srtt_end_s": _last(ts, M.SRTT, math.inf), "seg_at_300": _highest_sent(sent, HANDOVERS[1]),
        "peak_kbps_100": float(kbps[(kbps.index >= 100) & (kbps.index < 120)].max()),
        "recover300_s": recovery_s(kbps, HANDOVERS[1]),
        "data_lost": _lost(pk),
    })
    return out


def _lost(pk: "pd.DataFrame") -> int:
    """Data segments dropped and never received afterwards (lost end to end)."""
    drops = pk[pk[M.EVENT] == M.DROP].groupby(M.SEQ, observed=True)[M.TIME].min()
    received = pk[pk[M.EVENT] == M.RECEIVE].groupby(M.SEQ, observed=True)[M.TIME].max()
    return int(sum(1 for seq, t in drops.items() if received.get(seq, -math.inf) < t))


def with_run_columns(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    """The result table with every run's columns (:func:`run_columns`)."""
    out = df.copy()
    rows = [run_columns(camp.trace_for(row)) for _, row in df.iterrows()]
    for key in rows[0] if rows else ():
        out[key] = [r[key] for r in rows]
    return out
