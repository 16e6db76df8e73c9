"""How big a run's traces will be, estimated before it runs.

A run at ``detail="packets"`` records a few rows per data segment, so a long run on a fast link
can produce gigabytes.  :func:`estimate` predicts the row counts from the resolved scenario:

* each flow sends data segments at most at the rate of the slowest link on its path, at most
  one window per round-trip time of the unloaded path, and for a CBR application at most at
  the application's rate, while the flow is active; flows that share a link split its rate;
  a mobile node's path follows the handovers of the timeline (nothing passes during a pause
  or a break-before-make gap; with ``mobility``, the fastest interface is assumed
  throughout); a ``set_link`` that raises a rate counts from the start;
* a data segment makes 2 packet rows (send, receive) plus 2 per ACK (sent, received; one ACK
  per segment, or one per two with delayed ACKs), and one sender-state row per ACK (the state
  changes on almost every ACK);
* the goodput table has one row per flow per ``metrics.goodput_interval``, at every detail.

Measured on every shipped scenario and bench, the packet-row estimate is 0.9 to 1.1 times
the real count for transfers limited by a link or a window, and up to 2 times it where losses
and timeouts keep flows below their path's rate (tests/test_traces.py checks a few).  Sizes are the bytes of the recorded columns
in memory; the Parquet files come out about 3x smaller.  Trace filters shrink the estimate
by the share of the run inside ``trace_window``, the share of flows in ``trace_flows``, and
the share of row kinds in ``trace_events``; ``trace_links`` is not taken into account
(conservative).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

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


def _path_links(routes: Sequence[Sequence[Any]], link_end: Sequence[int], src: int, dst: int) -> list[int]:
    """Link ids from ``src`` to ``dst`` through a routing table (empty if none); an entry
    ``("attach", node)`` crosses an attachment to a shared cell, which is no link."""
    links, node, seen = [], src, set()
    while node != dst and node not in seen:
        seen.add(node)
        link = routes[node][dst]
        if link is None:
            return []
        if isinstance(link, tuple):
            node = link[1]
            continue
        links.append(link)
        node = link_end[link]
    return links if node == dst else []


def _mobiles(r: dict) -> list[dict]:
    """The resolved mobile nodes (``mobile``: one object, or a list of several)."""
    m = r.get("mobile")
    return [] if m is None else [m] if isinstance(m, dict) else list(m)


def _route_tables(r: dict) -> list[list[list[Any]]]:
    """One routing table per interface index: every node's first hop towards every node while
    each mobile node uses that interface (the nodes' own routes, the mobile nodes' own links or
    attachments, and the anchors following the interface)."""
    base = [list(n["routes"]) for n in r["nodes"]]
    mobiles = _mobiles(r)
    if not mobiles:
        return [base]
    n = len(r["nodes"])
    tables = []
    for i in range(max(len(m["interfaces"]) for m in mobiles)):
        table = [list(row) for row in base]
        for m in mobiles:
            ifaces = m["interfaces"]
            for iface in ifaces:  # a cell reaches the mobile node by its attachment
                if iface.get("attach") is None:
                    table[iface["attach_node"]][m["node"]] = ("attach", m["node"])
            iface = ifaces[min(i, len(ifaces) - 1)]
            own = iface.get("attach")
            up = own[1] if own else ("attach", iface["attach_node"])
            table[m["node"]] = [None if d == m["node"] else up for d in range(n)]
            anchor, at = m["anchor"], iface["attach_node"]
            table[anchor][m["node"]] = (own[0] if own else ("attach", m["node"])) if anchor == at else base[anchor][at]
        tables.append(table)
    return tables


def _phases(r: dict, duration_ns: int) -> list[tuple[int, int, int | None]]:
    """``(start, end, table)`` intervals of the run: which routing table is in use (an index
    into the mobile node's interfaces, 0 without one), ``None`` while a pause or a
    break-before-make gap lets nothing through.  Mobility-driven handovers are not followed:
    the caller takes the fastest interface for them."""
    mobiles = _mobiles(r)
    current: int | None = int(mobiles[0]["initial"]) if mobiles else 0
    out, t = [], 0
    for entry in sorted(r.get("timeline", []), key=lambda e: int(e["at"])):
        action = entry["action"]
        if action.get("action") != "handover" or action.get("mobile", 0) != 0:
            continue
        at = min(int(entry["at"]), duration_ns)
        out.append((t, at, current))
        stall = int(action.get("gap") or action.get("duration") or 0)
        resume = min(at + stall, duration_ns)
        if resume > at:
            out.append((at, resume, None))
        t, current = resume, int(action["to"])
    out.append((t, duration_ns, current))
    return [p for p in out if p[1] > p[0]]


def _count(value: Any) -> int:
    """An integer of the resolved model, written bare or with its unit (``"1000B"``, ``"20pkt"``)."""
    if isinstance(value, (int, float)):
        return int(value)
    digits = re.match(r"\s*(\d+)", str(value))
    if not digits:
        raise ValueError(f"not a count: {value!r}")
    return int(digits.group(1))


def _transport(flow: dict) -> tuple[int, float, float]:
    """(bits on the wire of a data packet, window in packets, ACKs per data packet) of a flow's
    transport in the resolved model (``flow["transport"]``, tagged by ``protocol``)."""
    t = flow["transport"]
    if t["protocol"] == "tcp":
        tcp, sink = t["tcp"], t["sink"]
        window = min(_count(tcp["window"]), _count(sink["advertised_window"]))
        return 8 * (_count(tcp["segment_size"]) + _count(tcp["header_size"])), window, 0.5 if sink["delayed_ack"] else 1.0
    if t["protocol"] == "datagram":
        return 8 * (_count(t["size"]) + _count(t["header_size"])), float("inf"), 0.0
    # Other transports: a full-size packet each way, windowed by nothing the estimate knows.
    return 8 * 1500, float("inf"), 1.0


def _flow_caps(r: dict, routes: Sequence, link_end: Sequence[int], rate: Sequence[int]) -> list[tuple[float, list[int]]]:
    """Per flow: the most data segments per second it can send over ``routes`` (its path's
    slowest link, one window per unloaded round trip, a CBR application's rate) and its path."""
    links = r["links"]
    out = []
    for flow in r["flows"]:
        packet_bits, window, _ = _transport(flow)
        path = _path_links(routes, link_end, int(flow["src"]), int(flow["dst"]))
        back = _path_links(routes, link_end, int(flow["dst"]), int(flow["src"]))
        if not path:
            out.append((0.0, []))
            continue
        per_s = min(rate[link] for link in path) / packet_bits
        rtt_s = sum(int(links[link]["delay"]) for link in path + back) / 1e9
        if rtt_s > 0:
            per_s = min(per_s, window / rtt_s)
        app = flow.get("app") or {}
        if app.get("kind") == "cbr" and int(app.get("interval") or 0) > 0:
            per_s = min(per_s, int(app.get("segments_per_write", 1)) / (int(app["interval"]) / 1e9))
        out.append((per_s, path))
    return out


def _share_links(bits: Sequence[int], caps: list[tuple[float, list[int]]], active: list[bool],
                 rate: Sequence[int]) -> list[float]:
    """Segments per second of each active flow (of ``bits`` a data packet) when flows that share
    a link split its rate (proportional scaling, a few rounds: close to max-min sharing for these
    topologies)."""
    per_s = [cap if on else 0.0 for (cap, _), on in zip(caps, active)]
    for _ in range(4):
        load: dict[int, float] = {}
        for i, (_, path) in enumerate(caps):
            for link in path:
                load[link] = load.get(link, 0.0) + per_s[i] * bits[i]
        for i, (_, path) in enumerate(caps):
            for link in path:
                if load[link] > rate[link] > 0:
                    per_s[i] *= rate[link] / load[link]
    return per_s


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
    link_end = [int(link["to"]) for link in r["links"]]
    rate = [int(link["rate"]) for link in r["links"]]
    for entry in r.get("timeline", []):
        action = entry["action"]
        if action.get("action") == "set_link" and action.get("rate"):
            for link in action["links"]:
                rate[link] = max(rate[link], int(action["rate"]))
    mobiles = _mobiles(r)
    tables = _route_tables(r)
    caps = [_flow_caps(r, routes, link_end, rate) for routes in tables]
    if any(m.get("mobility") for m in mobiles):  # handovers follow the movement: take the best
        fastest = max(range(len(tables)), key=lambda k: sum(c for c, _ in caps[k]))
        phases = [(0, duration_ns, fastest)]
    else:
        phases = _phases(r, duration_ns)

    flows = r["flows"]
    bits = [_transport(f)[0] for f in flows]
    segments = [0.0] * len(flows)
    hop_segments = 0.0
    for start, end, table in phases:
        if table is None:
            continue
        # Flows that start or stop inside the phase count for the part they are active; they
        # share the links with the others active in it.
        active = [_overlaps(f, start, end, duration_ns) for f in flows]
        shares = _share_links(bits, caps[table], active, rate)
        for i, flow in enumerate(flows):
            f_start = int(flow["start"])
            f_stop = int(flow["stop"]) if flow.get("stop") is not None else duration_ns
            overlap = max(0, min(end, f_stop) - max(start, f_start)) / 1e9
            if overlap <= 0:
                continue
            per_s = shares[i]
            segments[i] += per_s * overlap
            hop_segments += per_s * overlap * len(caps[table][i][1])

    acks_per_segment = [_transport(f)[2] for f in flows]
    window_share = 1.0
    if trace_window:
        lo, _, hi = trace_window.partition("..")
        a = parse_ns(lo) if lo.strip() else 0
        b = parse_ns(hi) if hi.strip() else duration_ns
        window_share = max(0.0, min(b, duration_ns) - a) / duration_ns if duration_ns else 0.0
    keep_flow = [not trace_flows or f["name"] in set(trace_flows) for f in flows]
    kinds = set(trace_events)
    packet_rows = ts_rows = 0.0
    for n, acks, keep in zip(segments, acks_per_segment, keep_flow):
        if not keep:
            continue
        per_kind = {"send": n, "receive": n, "ack_send": n * acks, "ack_receive": n * acks}
        packet_rows += sum(v for k, v in per_kind.items() if not kinds or k in kinds)
        ts_rows += n * acks
    if kinds:
        packet_rows += 0.02 * sum(segments)  # retransmissions and drops are rare
    # A Delivery Service acknowledges each data packet it relays with a packet of its own
    # (control_send and control_receive rows); an upper bound: every data packet.
    relayed = any(a.get("kind", {}).get("kind") == "delivery_service_mobile" for a in r.get("agents", []))
    if relayed and (not kinds or kinds & {"control_send", "control_receive"}):
        packet_rows += 2 * sum(n for n, keep in zip(segments, keep_flow) if keep)
    rows: dict[str, int] = {}
    interval = max(1, int(r["metrics"]["goodput_interval"]))
    rows["goodput"] = len(flows) * math.ceil(duration_ns / interval)
    if detail in ("timeseries", "packets"):
        rows["timeseries"] = int(ts_rows * window_share)
    if detail == "packets":
        rows["packets"] = int(packet_rows * window_share)
    # Each data segment and its ACK cross every hop: a transmission end and an arrival each.
    events = int(4 * hop_segments + sum(segments))
    if relayed:  # each acknowledgement crosses the access hop, and the agent's timer runs
        events += int(3 * sum(segments))
    return TraceEstimate(rows, events)


def _overlaps(flow: dict, start: int, end: int, duration_ns: int) -> bool:
    f_stop = int(flow["stop"]) if flow.get("stop") is not None else duration_ns
    return int(flow["start"]) < end and f_stop > start


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
