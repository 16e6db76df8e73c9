"""How big a run's traces will be, estimated before it runs.

A run at ``detail="packets"`` records a few rows per data segment, so a long run on a fast link
can produce gigabytes.  :func:`estimate` predicts the row counts from the resolved scenario:

* each flow sends data segments at most at the rate of the slowest link on its path, at most
  one window per round-trip time of the unloaded path, and for a CBR application at most at
  the application's rate, while the flow is active; flows that share a link split its rate;
  a mobile node's path follows the handovers of the timeline (nothing passes during a pause
  or a break-before-make gap; with ``mobility``, the fastest interface is assumed
  throughout), and an SCTP association with care-of addresses follows its scripted
  ``actions`` (Add-IP, Set-Primary, Delete-IP; MT-mSCTP sends on every usable address) and
  fails over at once from a path that is down; a ``set_link`` that raises a rate counts from
  the start;
* a data segment makes 2 packet rows (send, receive) plus 2 per ACK (sent, received; one ACK
  per segment, or one per two with delayed ACKs), and one sender-state row per ACK (the state
  changes on almost every ACK);
* the goodput table has one row per flow per ``metrics.goodput_interval``, at every detail.

Measured on every shipped scenario and bench, the packet-row estimate is 0.9 to 1.1 times
the real count for transfers limited by a link or a window, and up to 2 times it where losses,
timeouts and failovers keep flows below their path's rate (tests/test_traces.py checks a few).  Sizes are the bytes of the recorded columns
in memory; the Parquet files come out about 3x smaller.  Trace filters shrink the estimate
by the share of the run inside ``trace_window``, the share of flows in ``trace_flows``, and
the share of row kinds in ``trace_events``; ``trace_links`` is not taken into account
(conservative).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .scenario import Scenario

__all__ = ["TraceEstimate", "estimate", "parse_size", "format_size", "DEFAULT_LIMIT", "capture_links",
           "capture_bytes", "check_captures"]

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
    wire: dict[int, tuple[float, float]] = field(default_factory=dict)
    """Per link direction: the packets that cross it and their bytes (for :func:`capture_bytes`)."""

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


def parse_size(text: str, key: str = "trace_limit") -> int | None:
    """``"1GB"``, ``"500MB"``, ``"2GiB"`` -> bytes; ``"none"`` -> ``None`` (no limit). Errors name ``key``."""
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
        raise ScenarioError(f"{key}: {shown!r} is not a size; write e.g. 500MB, 1GB, 2GiB, or none")
    return int(value * _SIZE_UNITS[unit])


def format_size(n: float) -> str:
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


#: At most this many of the flows' start and stop times cut the run into intervals (a
#: population of 10,000 flows would otherwise make the estimate quadratic in flows).
FLOW_CUTS = 64


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


class _OneWay:
    """A mobile node's row of a routing table: one first hop towards every other node (a row
    per mobile node, not a list of every node: the tables stay linear in mobile nodes)."""

    __slots__ = ("node", "up")

    def __init__(self, node: int, up: Any) -> None:
        self.node, self.up = node, up

    def __getitem__(self, dst: int) -> Any:
        return None if dst == self.node else self.up


def _route_tables(r: dict) -> list[list[list[Any]]]:
    """One routing table per interface index: every node's first hop towards every node while
    each mobile node uses that interface (the nodes' own routes, the mobile nodes' own links or
    attachments, and the anchors following the interface)."""
    base = [list(n["routes"]) for n in r["nodes"]]
    mobiles = _mobiles(r)
    if not mobiles:
        return [base]
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
            table[m["node"]] = _OneWay(m["node"], up)
            anchor, at = m["anchor"], iface["attach_node"]
            table[anchor][m["node"]] = (own[0] if own else ("attach", m["node"])) if anchor == at else base[anchor][at]
        tables.append(table)
    return tables


def _world_phases(r: dict, duration_ns: int) -> list[tuple[int, int, int | None, frozenset[int]]]:
    """``(start, end, table, down)`` intervals of the run: which routing table is in use (an
    index into the mobile node's interfaces, 0 without one; ``None`` while a pause or a
    break-before-make gap lets nothing through) and which links are down (``link_down`` until
    ``link_up``).  Mobility-driven handovers are not followed: the caller takes the fastest
    interface for them.  With several mobile nodes, the first one's handovers stand for all."""
    mobiles = _mobiles(r)
    changes: list[tuple[int, int, Any]] = []  # (time, order, change)
    for entry in r.get("timeline", []):
        at, action = min(int(entry["at"]), duration_ns), entry["action"]
        kind = action.get("action")
        if kind == "handover" and action.get("mobile", 0) == 0:  # the first mobile node's
            stall = int(action.get("gap") or action.get("duration") or 0)
            changes.append((at, 0, ("table", None if stall > 0 else int(action["to"]))))
            if stall > 0:
                changes.append((min(at + stall, duration_ns), 1, ("table", int(action["to"]))))
        elif kind in ("link_down", "link_up"):
            changes.append((at, 0, (kind, frozenset(int(link) for link in action.get("links", [])))))
    table: int | None = int(mobiles[0]["initial"]) if mobiles else 0
    down: frozenset[int] = frozenset()
    out, t = [], 0
    for at, _, (what, value) in sorted(changes, key=lambda c: (c[0], c[1])):
        if at > t:
            out.append((t, at, table, down))
            t = at
        if what == "table":
            table = value
        elif what == "link_down":
            down = down | value
        else:
            down = down - value
    out.append((t, duration_ns, table, down))
    return [p for p in out if p[1] > p[0]]


def _sctp_moves(r: dict, flow: dict) -> list[tuple[int, str, int]] | None:
    """An SCTP flow's scripted address changes at the mobile node as ``(time, op, interface)``
    (op ``add``, ``set_primary``, ``delete``), sorted; ``None`` if the flow is not an SCTP
    association with care-of addresses or its addresses follow the handovers (a link trigger)."""
    t = flow["transport"]
    if t.get("protocol") != "sctp" or not t.get("mobile"):
        return None
    if t["config"].get("msctp_trigger", "scripted") != "scripted":
        return None
    moves = []
    for action in t["mobile"].get("actions", []):
        for op, addr in action["op"].items():
            iface = _interface_of(r, addr)
            if iface is not None:
                moves.append((int(action["at"]), str(op), iface))
    return sorted(moves, key=lambda m: m[0])


def _interface_of(r: dict, addr: Any) -> int | None:
    """The mobile node's interface a care-of address belongs to (None for a node address)."""
    addresses = r.get("addresses", [])
    if isinstance(addr, int) and 0 <= addr < len(addresses):
        iface = addresses[addr].get("interface")
        return None if iface is None else int(iface)
    return None


def _sctp_tables(r: dict, flow: dict, moves: list[tuple[int, str, int]], at: int) -> tuple[list[int], int | None]:
    """The interfaces an SCTP association with care-of addresses can send on at ``at`` (its
    addresses after the scripted actions before ``at``) and its primary's interface."""
    t = flow["transport"]
    side = int(t["mobile"].get("side", 1))
    addrs = t["to_addrs"] if side == 1 else t["from_addrs"]
    usable = [i for i in (_interface_of(r, a) for a in addrs) if i is not None]
    primary = _interface_of(r, t["primary"] if side == 1 else t["from_primary"])
    for when, op, iface in moves:
        if when > at:
            break
        if op == "add" and iface not in usable:
            usable.append(iface)
        elif op == "delete" and iface in usable and len(usable) > 1:
            usable.remove(iface)
        elif op == "set_primary":
            primary = iface
    return usable, primary


def _flow_tables(r: dict, flow: dict, moves, at: int, table: int | None, blocked: set[int]) -> list[int]:
    """The routing tables carrying ``flow``'s data at ``at``: the one in use by the mobile
    node, or for an SCTP association with care-of addresses the interface of its primary (every
    usable one for MT-mSCTP's concurrent sending, RFC 4960's failover to an alternate when
    the primary's path is down, taken at once: an upper bound)."""
    if moves is None:
        return [] if table is None else [table]
    usable, primary = _sctp_tables(r, flow, moves, at)
    alive = [i for i in usable if i not in blocked]
    if flow["transport"]["config"].get("msctp") == "multi_path" and len(alive) > 1:
        return alive
    if primary in alive:
        return [primary]
    return alive[:1]


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
    if t["protocol"] == "sctp":
        # Full-MTU packets of one DATA chunk; the peer's receive buffer bounds what is in
        # flight; a SACK per `sack_every` packets with delayed SACKs (RFC 4960 §6.2).
        c = t["config"]
        window = max(1.0, _count(c["receive_buffer"]) / max(1, _count(c["data_chunk_size"])))
        every = max(1, _count(c.get("sack_every", 2))) if c.get("delayed_sack") else 1
        return 8 * _count(c["mtu"]), window, 1.0 / every
    # Other transports: a full-size packet each way, windowed by nothing the estimate knows.
    return 8 * 1500, float("inf"), 1.0


def _flow_caps(r: dict, routes: Sequence, link_end: Sequence[int],
               rate: Sequence[int]) -> list[tuple[float, list[int], list[int]]]:
    """Per flow: the most data segments per second it can send over ``routes`` (its path's
    slowest link, one window per unloaded round trip, a CBR application's rate), its path and
    the acknowledgements' path."""
    links = r["links"]
    out = []
    for flow in r["flows"]:
        packet_bits, window, _ = _transport(flow)
        path = _path_links(routes, link_end, int(flow["src"]), int(flow["dst"]))
        back = _path_links(routes, link_end, int(flow["dst"]), int(flow["src"]))
        if not path:
            out.append((0.0, [], []))
            continue
        per_s = min(rate[link] for link in path) / packet_bits
        rtt_s = sum(int(links[link]["delay"]) for link in path + back) / 1e9
        if rtt_s > 0:
            per_s = min(per_s, window / rtt_s)
        app = flow.get("app") or {}
        if app.get("kind") == "cbr" and int(app.get("interval") or 0) > 0:
            per_s = min(per_s, int(app.get("segments_per_write", 1)) / (int(app["interval"]) / 1e9))
        out.append((per_s, path, back))
    return out


def _share_links(streams: list[tuple[int, float, list[int], list[int]]], bits: Sequence[int],
                 rate: Sequence[int], weights: Sequence[int] | None = None) -> list[float]:
    """Segments per second of each stream ``(flow, cap, path)`` (standing for ``weights[k]``
    alike ones, 1 without weights) when streams that share a link split its rate (proportional scaling, a few rounds: close to max-min sharing for these
    topologies). A stream is scaled by its most loaded link alone in each round: scaled by every
    overloaded link of its path at once, many flows through two such links (a core link and a
    cell) came out far below either link's share."""
    per_s = [stream[1] for stream in streams]
    weights = weights or [1] * len(streams)
    for _ in range(4):
        load: dict[int, float] = {}
        for k, (i, _, path, _) in enumerate(streams):
            for link in path:
                load[link] = load.get(link, 0.0) + per_s[k] * bits[i] * weights[k]
        for k, (_, _, path, _) in enumerate(streams):
            factor = min((rate[link] / load[link] for link in path if load[link] > rate[link] > 0), default=1.0)
            per_s[k] *= factor
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
    phases = _world_phases(r, duration_ns)
    if any(m.get("mobility") for m in mobiles):  # handovers follow the movement: take the best
        fastest = max(range(len(tables)), key=lambda k: sum(c[0] for c in caps[k]))
        phases = [(a, b, None if t is None else fastest, down) for a, b, t, down in phases]

    flows = r["flows"]
    transports = [_transport(f) for f in flows]
    bits = [t[0] for t in transports]
    acks_per_segment = [t[2] for t in transports]
    ack_bytes = [_ack_bytes(f) for f in flows]
    wire: dict[int, tuple[float, float]] = {}
    moves = [_sctp_moves(r, f) for f in flows]
    # Every instant something changes: the phases, flows starting or stopping, and the scripted
    # address changes of SCTP associations (issue #27: a switch to a faster path counts).
    # Of many flows' starts and stops (a population), FLOW_CUTS spread over them: a flow active
    # over part of an interval counts for that part, sharing with every flow active in it.
    cuts = {0, duration_ns} | {t for p in phases for t in p[:2]}
    flow_times: set[int] = set()
    for flow, m in zip(flows, moves):
        flow_times |= {min(int(flow["start"]), duration_ns), _stop(flow, duration_ns)}
        cuts |= {min(when, duration_ns) for when, _, _ in (m or [])}
    if len(flow_times) > FLOW_CUTS:
        ordered = sorted(flow_times)
        flow_times = {ordered[k * len(ordered) // FLOW_CUTS] for k in range(FLOW_CUTS)}
    bounds = sorted(cuts | flow_times)
    # Flows alike (the same capacity, paths and packet sizes: a population's) share the links
    # as one stream standing for all of them: an interval costs O(flows) and the sharing of a
    # few kinds of stream.
    kinds_of: dict[tuple, int] = {}
    kind_id = [[kinds_of.setdefault((cap, tuple(path), tuple(back), bits[i], acks_per_segment[i], ack_bytes[i]),
                                    len(kinds_of))
                for i, (cap, path, back) in enumerate(per_table)] for per_table in caps]
    lifetimes = [(int(f["start"]), _stop(f, duration_ns)) for f in flows]
    segments = [0.0] * len(flows)
    hop_segments = [0.0] * len(flows)
    for start, end in zip(bounds, bounds[1:]):
        _, _, table, down = next(p for p in phases if p[0] <= start < p[1])
        groups: dict[int, tuple[int, int, list[tuple[int, float]]]] = {}  # kind -> (flow, table, members)
        for i, (flow, (f_start, f_stop)) in enumerate(zip(flows, lifetimes)):
            active_ns = min(end, f_stop) - max(start, f_start)
            if active_ns <= 0:
                continue
            in_use = [] if table is None else [table]
            if moves[i] is not None:
                in_use = _flow_tables(r, flow, moves[i], start, table, _blocked(caps, i, down))
            for k in in_use:
                cap, path, _ = caps[k][i]
                if cap > 0 and not (down and down & set(path)):
                    groups.setdefault(kind_id[k][i], (i, k, []))[2].append((i, active_ns / 1e9))
        streams = [(i, *caps[k][i]) for i, k, _ in groups.values()]
        shares = _share_links(streams, bits, rate, [len(g[2]) for g in groups.values()])
        for (rep, _, path, back), per_s, (_, _, members) in zip(streams, shares, groups.values()):
            for i, span in members:
                segments[i] += per_s * span
                hop_segments[i] += per_s * span * len(path)  # per flow: its own ACKs per segment
            sent = per_s * sum(span for _, span in members)
            _on_wire(wire, path, sent, bits[rep] // 8)
            _on_wire(wire, back, sent * acks_per_segment[rep], ack_bytes[rep])

    window_share = 1.0
    if trace_window:
        a, b = _window_ns(trace_window, duration_ns)
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
    # Each data segment and each ACK arrive at the end of every hop; a transmission end is an
    # event only where a packet waits behind the frame (frames leave early otherwise: the
    # bottleneck, once per segment), plus about one event per segment for timers and bursts.
    events = int(sum(h * (1 + acks) for h, acks in zip(hop_segments, acks_per_segment)) + 2 * sum(segments))
    if relayed:  # each acknowledgement crosses the access hop, and the agent's timer runs
        events += int(3 * sum(segments))
    return TraceEstimate(rows, events, wire)


def _window_ns(text: str, duration_ns: int) -> tuple[int, int]:
    """``START..END`` in ns (a side left out: the run's start or end); errors name the option
    (the run checks the window again, against the scenario)."""
    from ._native import ScenarioError
    from ._native import duration_ns as parse_ns

    from .errors import shorten_quoted, shown

    lo, sep, hi = str(text).partition("..")
    try:
        if not sep:
            raise ScenarioError(f"{shown(text)} is not a window; write START..END, e.g. \"295s..320s\"")
        return (parse_ns(lo) if lo.strip() else 0), (parse_ns(hi) if hi.strip() else duration_ns)
    except ScenarioError as err:
        raise ScenarioError(f"trace_window: {shorten_quoted(str(err))}") from None


def _on_wire(wire: dict[int, tuple[float, float]], path: list[int], packets: float, size: int) -> None:
    for link in path:
        n, b = wire.get(link, (0.0, 0.0))
        wire[link] = (n + packets, b + packets * size)


def _ack_bytes(flow: dict) -> int:
    """Bytes on the wire of an acknowledgement (TCP's ``ack_size``; an SCTP SACK with a few gap
    blocks; a datagram has none)."""
    t = flow["transport"]
    if t["protocol"] == "tcp":
        return _count(t["tcp"].get("ack_size", 40))
    return 64


def _stop(flow: dict, duration_ns: int) -> int:
    return min(int(flow["stop"]), duration_ns) if flow.get("stop") is not None else duration_ns


def _blocked(caps: list, flow: int, down: frozenset[int]) -> set[int]:
    """Tables whose path for ``flow`` crosses a link that is down."""
    if not down:
        return set()
    return {k for k, per_table in enumerate(caps) if down & set(per_table[flow][1])}


#: Bytes of a pcap file's header, and of the record header before each packet.
PCAP_FILE_HEADER, PCAP_RECORD_HEADER = 24, 16


def capture_links(scenario: "Scenario", extra: Sequence[str] = ()) -> tuple[list[int], int | None]:
    """The link directions a run of ``scenario`` captures (its ``output.pcap`` and the ``extra``
    names, as ``--pcap`` takes them) and the snap length. A bad extra name is left out: the
    run itself reports it, naming the option."""
    import json

    from ._native import ScenarioError

    pcap = scenario.resolved().get("pcap") or {}
    links = {int(p["link"]) for p in pcap.get("points", [])}
    if extra:
        names = "[" + ", ".join(json.dumps(str(n)) for n in extra) + "]"
        try:
            more = scenario.set("output.pcap", names).resolved().get("pcap") or {}
        except ScenarioError:
            more = {}
        links |= {int(p["link"]) for p in more.get("points", [])}
    return sorted(links), pcap.get("snaplen")


def capture_bytes(est: TraceEstimate, links: Sequence[int], snaplen: int | None = None) -> int:
    """Bytes of the pcap files of ``links``: a file header, and per packet a record header and
    the packet (cut to ``snaplen``)."""
    total = 0.0
    for link in links:
        packets, size = est.wire.get(link, (0.0, 0.0))
        kept = size if not snaplen else min(size, packets * int(snaplen))
        total += PCAP_FILE_HEADER + packets * PCAP_RECORD_HEADER + kept
    return int(total)


def check_captures(size: int, links: Sequence[int], limit: int | None) -> str | None:
    """The refusal message if captures of ``size`` bytes exceed ``limit``, else ``None``."""
    if limit is None or size <= limit:
        return None
    need = format_size(size * 1.2).replace(" ", "")
    return (f"the packet captures of this run would take about {format_size(size)} on disk "
            f"({len(links)} link direction{'s' if len(links) != 1 else ''}), above the limit of {format_size(limit)}. "
            f"Capture less (fewer --pcap links, a shorter duration, output.pcap_snaplen) or raise the limit "
            f"(--pcap-limit {need}, or --pcap-limit none)")


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
