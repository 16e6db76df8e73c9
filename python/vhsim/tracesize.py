"""How big a run's traces will be, estimated before it runs.

A run at ``detail="packets"`` records a few rows per data segment, so a long run on a fast link
can produce gigabytes.  :func:`estimate` predicts the row counts from the resolved scenario:

* each flow sends data segments at most at the rate of the slowest link on its path (for a
  mobile node, the fastest of its interfaces' paths; a ``set_link`` that raises a rate
  counts), at most one window per round-trip time of the unloaded path, and for a CBR
  application at most at the application's rate, while the flow is active;
* a data segment makes 4 packet rows (send, receive, ACK sent, ACK received) and about one
  sender-state row (the state changes on almost every ACK);
* the goodput table has one row per flow per ``metrics.goodput_interval``, at every detail.

Measured on the shipped scenarios the packet-row count comes out within a few per cent of the
real one for bulk transfers limited by a link or a window (it is an upper bound when losses
or timeouts keep a flow below its path's rate).  Sizes are the bytes of the recorded columns
in memory; the Parquet files come out about 3x smaller.  Trace filters shrink the estimate
by the share of the run inside ``trace_window``, the share of flows in ``trace_flows``, and
the share of row kinds in ``trace_events``; ``trace_links`` is not taken into account
(conservative).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .scenario import Scenario

__all__ = ["TraceEstimate", "estimate", "parse_size", "format_size", "DEFAULT_LIMIT"]

#: Bytes per row of the recorded columns (vhsim-sim trace.rs): packets
#: time u64 + flow u32 + event u8 + seq i64 + link i32 + cause u8 + label i8;
#: time series time u64 + flow u32 + 6 f64 + flight i64 + state u8; goodput time f64 + flow
#: i32 + bytes i64.
ROW_BYTES = {"packets": 27, "timeseries": 69, "goodput": 20}

#: Approximate Parquet bytes per row (measured on the shipped scenarios).
DISK_BYTES = {"packets": 9, "timeseries": 20, "goodput": 12}

#: Packet rows per data segment: send, receive, ACK sent, ACK received.
ROWS_PER_SEGMENT = 4

#: Default refusal limit of ``vhsim run`` (bytes of traces in memory).
DEFAULT_LIMIT = 10**9

#: Events per second assumed when warning about long runs (a loaded 2-core machine).
EVENTS_PER_S = 5e6

_SIZE_UNITS = {"B": 1, "kB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
               "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


@dataclass(frozen=True)
class TraceEstimate:
    """Predicted rows per trace table, bytes, and simulator events of one run."""

    rows: dict[str, int]
    events: int

    @property
    def bytes(self) -> int:
        """Bytes of the recorded columns in memory."""
        return sum(ROW_BYTES[t] * n for t, n in self.rows.items())

    @property
    def disk_bytes(self) -> int:
        """Approximate size of the Parquet files."""
        return sum(DISK_BYTES[t] * n for t, n in self.rows.items())

    @property
    def wall_s(self) -> float:
        """Rough wall time at :data:`EVENTS_PER_S`."""
        return self.events / EVENTS_PER_S

    def describe(self) -> str:
        parts = [f"{n:,} {t.replace('timeseries', 'time-series').replace('packets', 'packet')} rows"
                 for t, n in self.rows.items() if n]
        return (f"about {format_size(self.bytes)} of traces ({', '.join(parts) or 'no rows'}; "
                f"about {format_size(self.disk_bytes)} on disk)")


def parse_size(text: str) -> int | None:
    """``"1GB"``, ``"500MB"``, ``"2GiB"`` -> bytes; ``"none"`` -> ``None`` (no limit)."""
    from ._native import ScenarioError

    t = str(text).strip()
    if t.lower() in ("none", "off", "unlimited"):
        return None
    number = t.rstrip("".join(sorted({c for u in _SIZE_UNITS for c in u})))
    unit = t[len(number):].strip() or "B"
    try:
        value = float(number)
    except ValueError:
        value = math.nan
    if unit not in _SIZE_UNITS or not math.isfinite(value) or value < 0:
        shown = t if len(t) <= 40 else t[:30] + "..."
        raise ScenarioError(f"trace_limit: {shown!r} is not a size; write e.g. 500MB, 1GB, 2GiB, or none")
    return int(value * _SIZE_UNITS[unit])


def format_size(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def _path_links(routes: Sequence[Sequence[int | None]], link_end: Sequence[int], src: int, dst: int) -> list[int]:
    """Link ids from ``src`` to ``dst`` through a routing table (empty if none)."""
    links, node, seen = [], src, set()
    while node != dst and node not in seen:
        seen.add(node)
        link = routes[node][dst]
        if link is None:
            return []
        links.append(link)
        node = link_end[link]
    return links if node == dst else []


def estimate(
    scenario: "Scenario",
    detail: str | None = None,
    *,
    trace_window: str | None = None,
    trace_flows: Sequence[str] = (),
    trace_events: Sequence[str] = (),
) -> TraceEstimate:
    """Predict the trace rows of ``scenario`` at ``detail`` (default: the scenario's own)."""
    from ._native import duration_ns as parse_ns

    r = scenario.resolved()
    detail = detail or r["detail"]
    duration_ns = int(r["duration"])
    links = r["links"]
    link_end = [int(link["to"]) for link in links]
    rate = [int(link["rate"]) for link in links]
    for entry in r.get("timeline", []):
        action = entry["action"]
        if action.get("action") == "set_link" and action.get("rate"):
            for link in action["links"]:
                rate[link] = max(rate[link], int(action["rate"]))
    tables = [[n["routes"] for n in r["nodes"]]]
    if r.get("mobile"):
        tables = [i["routes"] for i in r["mobile"]["interfaces"]]

    segments, hops_weighted = 0.0, 0.0
    flow_names = [f["name"] for f in r["flows"]]
    for flow in r["flows"]:
        start = int(flow["start"])
        stop = int(flow["stop"]) if flow.get("stop") is not None else duration_ns
        active_s = max(0, min(stop, duration_ns) - start) / 1e9
        tcp = flow["tcp"]
        packet_bits = 8 * (int(tcp["segment_size"]) + int(tcp["header_size"]))
        best, hops = 0.0, 1
        for routes in tables:
            path = _path_links(routes, link_end, int(flow["src"]), int(flow["dst"]))
            back = _path_links(routes, link_end, int(flow["dst"]), int(flow["src"]))
            if not path:
                continue
            per_s = min(rate[l] for l in path) / packet_bits
            rtt_s = sum(int(links[l]["delay"]) for l in path + back) / 1e9
            window = min(int(tcp["window"]), int(flow["sink"]["advertised_window"]))
            if rtt_s > 0:
                per_s = min(per_s, window / rtt_s)
            if per_s > best:
                best, hops = per_s, len(path)
        app = flow.get("app") or {}
        if app.get("kind") == "cbr":
            interval_s = int(app.get("interval") or 0) / 1e9
            if interval_s > 0:
                best = min(best, int(app.get("segments_per_write", 1)) / interval_s)
        n = best * active_s
        segments += n
        hops_weighted += n * hops

    window_share = 1.0
    if trace_window:
        lo, _, hi = trace_window.partition("..")
        a = parse_ns(lo) if lo.strip() else 0
        b = parse_ns(hi) if hi.strip() else duration_ns
        window_share = max(0.0, min(b, duration_ns) - a) / duration_ns if duration_ns else 0.0
    flow_share = 1.0
    if trace_flows and flow_names:
        flow_share = sum(1 for f in flow_names if f in set(trace_flows)) / len(flow_names)
    event_share = 1.0
    if trace_events:
        # send+retransmit, receive, ack_send, ack_receive carry one quarter each; drops are rare.
        event_share = min(1.0, sum(0.25 for e in set(trace_events) if e in ("send", "receive", "ack_send",
                                                                                "ack_receive")) + 0.02)
    rows: dict[str, int] = {}
    interval = max(1, int(r["metrics"]["goodput_interval"]))
    rows["goodput"] = len(flow_names) * math.ceil(duration_ns / interval)
    if detail in ("timeseries", "packets"):
        rows["timeseries"] = int(segments * window_share * flow_share)
    if detail == "packets":
        rows["packets"] = int(segments * ROWS_PER_SEGMENT * window_share * flow_share * event_share)
    # Each data segment and its ACK cross every hop: a transmission end and an arrival each.
    events = int(hops_weighted * 4 + segments)
    return TraceEstimate(rows, events)


def check(est: TraceEstimate, limit: int | None) -> str | None:
    """The refusal message if ``est`` exceeds ``limit`` bytes, else ``None``."""
    if limit is None or est.bytes <= limit:
        return None
    need = format_size(est.bytes * 1.2).replace(" ", "")
    return (f"this run would record {est.describe()}, above the limit of {format_size(limit)}. "
            f"Record less (--trace-window START..END, --trace-flow, --trace-event, or --detail timeseries "
            f"or summary) or raise the limit (--trace-limit {need}, or --trace-limit none)")


def describe_long(est: TraceEstimate) -> str | None:
    """A note for runs expected to take more than a minute, else ``None``."""
    if est.wall_s < 60:
        return None
    minutes = est.wall_s / 60
    span = f"{minutes:.0f} min" if minutes < 120 else f"{minutes / 60:.1f} h"
    return (f"long run: about {est.events:,} events, roughly {span} at {EVENTS_PER_S / 1e6:.0f} M events/s; "
            "Ctrl-C stops it")
