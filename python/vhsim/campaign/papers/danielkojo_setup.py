"""Daniel & Kojo (2008) handoff study: configurations and campaign definitions.

Helper of :mod:`vhsim.campaign.papers.danielkojo` (kept apart so that no file grows long).

A configuration of the study is a pair of access links (old, new), a handoff kind, a handoff
instant and a sender.  The router buffer in front of each access link follows that link
(max(BDP, 5) packets), so the buffers move with the links; the campaign is therefore a list
of explicit configurations, written as *zipped* axes (one value per configuration on every
axis) of the base scenario ``scenarios/danielkojo/base.toml``.  Every configuration runs once:
there is no randomness in the study (no link errors), so the spread comes from the 200
handoff instants, as in the paper.

Senders are an axis (``flows.bulk.scheme``, shown as the sender's name): the paper's "regular
TCP" is vhsim's ``sack`` preset (ns-2 Sack1, the same composition as the preset ``regular``),
its "enhanced TCP" the preset ``enhanced`` (A1+A2+A3+A4) and the A5 variant of §6.3
``enhanced-a5`` (A1+A5+A3+A4); see :data:`SENDERS`.

Dropped packets (Figure 23b) are counted in a fixed window after the handoff by a second, short
run of the same configuration that ends :data:`DROPS_WINDOW_S` after the handoff instant (the
simulator counts drops per link over a whole run): the new link carries data only from the
handoff on, so its queue-overflow count in that run is the number of packets the handoff's
burst cost, without the congestion-avoidance losses of the rest of a long run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterable, Sequence

from ..axes import Axis, AxisValue
from ..reproduce import scenario_file
from ..spec import CampaignSpec

BASE = "danielkojo/base.toml"

# -- the paper's settings -----------------------------------------------------------------
PACKET_BYTES = 1500          # TCP packet incl. headers (§4)
MIN_QUEUE_PKTS = 5           # "set to the BDP of the link if the BDP is greater than five packets"
BBM_GAP = "500ms"            # disconnection period of a break-before-make handoff
N_PACKETS = 100              # the performance index: time to get 100 new packets ACKed

# Handoff instants: 200 points 100 ms apart in a 20 s window.  The paper does not say where the
# window lies; ours is 1.0 .. 20.9 s, so that it covers slow start on every path (slow start on a
# 6400 kb/s / 9 ms path is over in well under a second), the slow-start overshoot (around 6.5 s
# at 800 kb/s / 300 ms and 9.3 s at 6400 kb/s / 300 ms in the paper), fast recovery and
# congestion avoidance.
INSTANT_FIRST_MS = 1000
INSTANT_STEP_MS = 100
INSTANTS_FULL = 200
INSTANTS_QUICK = 20          # every 10th instant: 1.0, 2.0, ..., 20.0 s
INSTANTS_QUICK_ENHANCED = 10  # the regular-vs-enhanced figures in quick mode: 1, 3, ..., 19 s

# Each run lasts until the handoff instant + a horizon that depends on the new link only (so it
# is the same for the 200 instants of a configuration).  A run whose 100 packets are not ACKed
# by then is known to need more than the horizon: it is counted as "> horizon" (a censored
# value, ranked above every completed one), never dropped, and the quartiles stay exact as long
# as fewer than a quarter of a configuration's instants are censored (the tables say when not).
# Longer horizons for slow new links, where 100 packets take long and simulating is cheap;
# shorter ones for fast new links, where the index completes within seconds and every second
# simulated costs hundreds of packets.  Chosen from a trial at every 10th instant with a 120 s
# horizon: the largest upper quartile was 51 s (6400 -> 200 kb/s at 300 ms, break-before-make),
# and at most 31 s, 20 s and 13 s for new links of 400, 800-1600 and 3200-6400 kb/s.
HORIZONS_S = ((400, 100), (1600, 50), (6400, 30))  # (new link rate up to, kb/s; horizon, s)


def horizon_s(new_kbps: int) -> int:
    """Simulated time after the handoff instant for a configuration whose new link has this rate."""
    for limit, horizon in HORIZONS_S:
        if new_kbps <= limit:
            return horizon
    return HORIZONS_S[-1][1]

# Handoff kinds: the whole timeline entry is replaced (make_before_break refuses `gap`,
# break_before_make needs it), then its `at`.
KINDS = {
    "MBB": '{at = "8.2s", action = "handover", kind = "make_before_break", to = "new"}',
    "BBM": f'{{at = "8.2s", action = "handover", kind = "break_before_make", gap = "{BBM_GAP}", to = "new"}}',
}
KIND_NAMES = {"MBB": "make-before-break", "BBM": "break-before-make"}

# Senders: name shown -> preset of `flows.bulk.scheme`.  "regular" stays `sack` (identical to the
# `regular` preset) so that the regular runs keep their identities.
SENDERS = {"regular": "sack", "enhanced": "enhanced", "enhanced-a5": "enhanced-a5"}
ENHANCED = ("regular", "enhanced")
WITH_A5 = ("regular", "enhanced", "enhanced-a5")

# Drops window (Figure 23b): new-link queue overflows in [handoff, handoff + 5 s), the same span
# in which `metrics.handover_window` counts RTOs.  In trials at 1600/37 .. 6400/9 -> 200/300 the
# handoff's drops all fell within 2 s; the next (congestion-avoidance) drop came after 5 s.
DROPS_WINDOW_S = 5

# -- result columns --------------------------------------------------------------------------
SENDER = "flows.bulk.scheme"
KIND = "timeline[0]"
AT = "timeline[0].at"
OLD_RATE, OLD_DELAY, OLD_QUEUE = "links.old.rate", "links.old.delay", "links.old.queue"
NEW_RATE, NEW_DELAY, NEW_QUEUE = "links.new.rate", "links.new.delay", "links.new.queue"
DURATION = "duration"
AXIS_KEYS = (SENDER, KIND, AT, OLD_RATE, OLD_DELAY, OLD_QUEUE, NEW_RATE, NEW_DELAY, NEW_QUEUE, DURATION)

TIME = "bulk.ho0.time_to_n_acked_s"
SPURIOUS_RTOS = "bulk.ho0.spurious_rtos"
RTOS = "bulk.ho0.rtos"
SPURIOUS_RETX = "bulk.ho0.spurious_retransmissions"
# Packets the handoff costs: queue overflows on the new link (it carries data only after the
# handoff) and the old link's `link_down` drops (break-before-make), data direction.
NEW_OVERFLOWS = "new/forward.drops_queue_overflow"
OLD_LINK_DOWN = "old/forward.drops_link_down"


@dataclass(frozen=True)
class Link:
    """An access link: rate in kb/s and one-way delay in ms."""

    kbps: int
    ms: int

    @property
    def label(self) -> str:
        return f"{self.kbps} kb/s / {self.ms} ms"

    @property
    def queue(self) -> int:
        return queue_packets(self.kbps, self.ms)


@dataclass(frozen=True)
class Pair:
    """One handoff configuration of links: from ``old`` to ``new``."""

    old: Link
    new: Link


def bdp_packets(kbps: float, delay_ms: float, packet_bytes: int = PACKET_BYTES) -> float:
    """Bandwidth-delay product of an access link in packets: rate x round trip (2 x delay)."""
    return kbps * 1000 * 2 * delay_ms / 1000 / (8 * packet_bytes)


def queue_packets(kbps: float, delay_ms: float, packet_bytes: int = PACKET_BYTES) -> int:
    """Router buffer in front of an access link (§4): its BDP in packets, rounded up, if that
    is more than five packets, else five.  6400 kb/s, 9 ms -> 9.6 -> 10; 200 kb/s, 1 ms -> 5."""
    bdp = bdp_packets(kbps, delay_ms, packet_bytes)
    # Round up, but not a BDP that is a whole number up to float noise (200 kb/s x 600 ms = 10).
    return max(MIN_QUEUE_PKTS, math.ceil(round(bdp, 9)))


def instants(quick: bool, quick_count: int = INSTANTS_QUICK) -> list[str]:
    """Handoff instants as duration strings ('1s', '1.1s', ...); in quick mode ``quick_count``
    of them spread over the same window (20: every 10th, 10: every 20th)."""
    if quick:
        count, step = quick_count, INSTANTS_FULL // quick_count * INSTANT_STEP_MS
    else:
        count, step = INSTANTS_FULL, INSTANT_STEP_MS
    return [_seconds(INSTANT_FIRST_MS + i * step) for i in range(count)]


def _seconds(ms: int) -> str:
    text = format((Decimal(ms) / 1000).normalize(), "f")
    return f"{text}s"


# -- the three experiment classes of §4 -----------------------------------------------------------
DELAYS_VARIED = (150, 75, 37, 18, 9, 1)          # against a fixed 300 ms link
DELAY_CLASS_RATES = (200, 1600, 6400)
RATES_VARIED = (200, 400, 800, 1600, 3200)        # against a fixed 6400 kb/s link
RATE_CLASS_DELAYS = (300, 75, 9, 1)
SAME_BDP = (Link(200, 300), Link(400, 150), Link(800, 75), Link(1600, 37), Link(3200, 18), Link(6400, 9))

# Quick mode: fewer points of the varied parameter (still both sides of the paper's 8x line).
QUICK_DELAYS = (150, 75, 18, 1)
QUICK_RATES = (200, 800, 3200)
QUICK_BDP_OLD_FOR_SLOW_NEW = (Link(400, 150), Link(1600, 37), Link(6400, 9))
QUICK_BDP_OLD_FOR_FAST_NEW = (Link(200, 300), Link(800, 75), Link(3200, 18))


def delay_pairs(increase: bool, quick: bool = False, rates: Sequence[int] = DELAY_CLASS_RATES,
                quick_delays: Sequence[int] = QUICK_DELAYS) -> list[Pair]:
    """Same bandwidth, different delay: one link at 300 ms, the other varied.

    ``increase``: low delay -> 300 ms (Figure 2, the old delay varies); else 300 ms -> low
    delay (Figure 3, the new delay varies)."""
    delays = quick_delays if quick else DELAYS_VARIED
    pairs = []
    for kbps in rates:
        for ms in delays:
            low, high = Link(kbps, ms), Link(kbps, 300)
            pairs.append(Pair(low, high) if increase else Pair(high, low))
    return pairs


def rate_pairs(increase: bool, quick: bool = False, delays: Sequence[int] = RATE_CLASS_DELAYS,
               quick_rates: Sequence[int] = QUICK_RATES) -> list[Pair]:
    """Same delay, different bandwidth: one link at 6400 kb/s, the other varied.

    ``increase``: low bandwidth -> 6400 kb/s (Figure 5, the old rate varies); else 6400 kb/s ->
    low bandwidth (Figure 4, the new rate varies)."""
    rates = quick_rates if quick else RATES_VARIED
    pairs = []
    for ms in delays:
        for kbps in rates:
            low, high = Link(kbps, ms), Link(6400, ms)
            pairs.append(Pair(low, high) if increase else Pair(high, low))
    return pairs


def same_bdp_pairs(to_slow: bool, quick: bool = False, olds: Sequence[Link] | None = None) -> list[Pair]:
    """Same BDP (10 packets): the new link fixed at 200 kb/s / 300 ms (``to_slow``, Figure 6)
    or 6400 kb/s / 9 ms (Figure 7); the old link is each of the six combinations (the one equal
    to the new link is the no-change reference), or ``olds`` in quick mode."""
    new = Link(200, 300) if to_slow else Link(6400, 9)
    if quick and olds is None:
        olds = QUICK_BDP_OLD_FOR_SLOW_NEW if to_slow else QUICK_BDP_OLD_FOR_FAST_NEW
    return [Pair(old, new) for old in (olds if quick else SAME_BDP)]


# -- campaign definitions -----------------------------------------------------------------------
@dataclass(frozen=True)
class Point:
    """One configuration: links, handoff kind and instant, sender."""

    pair: Pair
    kind: str          # key of KINDS
    at: str            # duration string
    sender: str = "regular"
    drops_run: bool = False  # the short run that counts drops in the DROPS_WINDOW_S after the handoff

    def values(self) -> tuple[AxisValue, ...]:
        at_s = float(self.at.rstrip("s"))
        span = DROPS_WINDOW_S if self.drops_run else horizon_s(self.pair.new.kbps)
        duration = _seconds(int(round((at_s + span) * 1000)))
        old, new = self.pair.old, self.pair.new
        return (
            AxisValue(self.sender, SENDERS[self.sender]),
            AxisValue(self.kind, KINDS[self.kind]),
            AxisValue(self.at, self.at),
            AxisValue(f"{old.kbps}kbps", f"{old.kbps}kbps"),
            AxisValue(f"{old.ms}ms", f"{old.ms}ms"),
            AxisValue(f"{old.queue}pkt", f"{old.queue}pkt"),
            AxisValue(f"{new.kbps}kbps", f"{new.kbps}kbps"),
            AxisValue(f"{new.ms}ms", f"{new.ms}ms"),
            AxisValue(f"{new.queue}pkt", f"{new.queue}pkt"),
            AxisValue(duration, duration),
        )


def points(pairs: Iterable[Pair], quick: bool, kinds: Sequence[str] = ("MBB", "BBM"),
           senders: Sequence[str] = ("regular",), at: Sequence[str] | None = None,
           drops: bool = False, quick_instants: int = INSTANTS_QUICK) -> list[Point]:
    """Every (sender, pair, kind, instant), in that nesting order; with ``drops``, then the same
    again as short drop-counting runs (:data:`DROPS_WINDOW_S`)."""
    times = list(at) if at is not None else instants(quick, quick_instants)
    pairs = list(pairs)
    pts = [Point(pair, kind, t, sender) for sender in senders for pair in pairs for kind in kinds for t in times]
    if drops:
        pts += [Point(p.pair, p.kind, p.at, p.sender, drops_run=True) for p in pts]
    return pts


def spec_for(pts: Sequence[Point], detail: str = "summary", fixed: Sequence[tuple[str, str]] = ()) -> CampaignSpec:
    """A campaign of exactly these configurations (zipped axes over the base scenario).

    Axis values repeat from one configuration to the next, which the zipped grid allows
    (the axes are built here, not parsed from ``-p``, where repeats are refused as typos)."""
    if not pts:
        raise ValueError("no configurations")
    if any(p.drops_run for p in pts):
        # Each axis value is first validated alone on the base scenario, whose handoff is at 8.2 s:
        # a drop-counting run's duration (instant + 5 s) can be shorter.  Every configuration sets
        # its own instant, so this changes no run.
        fixed = (("timeline[0].at", "0.5s"), *fixed)
    columns = list(zip(*(p.values() for p in pts)))
    axes = tuple(Axis(key, tuple(col)) for key, col in zip(AXIS_KEYS, columns))
    path = scenario_file(BASE)
    return CampaignSpec(path.read_text(encoding="utf-8"), str(path), tuple(fixed), axes, zip_axes=True,
                        replications=1, detail=detail)
