"""Daniel & Kojo (2008) case studies: what one run did around its handoff, and the enhanced-TCP
claims of Figures 8, 9, 10, 12, 14, 20 and 24.

Helper of :mod:`vhsim.campaign.papers.danielkojo`.  A case study is one run per sender at the
paper's handoff instant, with its packet trace kept.  :func:`run_story` reads the traces of one
run: the sender's state just before the cross-layer notification arrives (FlightSize, cwnd,
ssthresh, RTO, recovery state) and just after it (what A1-A5 changed), the RTOs and fast
retransmits after the handoff, the first retransmission after the notification and the packets
the new link dropped in the case's window.  The claim checks find the runs through the result
table's ``attrs["campaign"]`` (set by the campaign store).

The paper's worked values (A1: minrto 552 ms, 1220 ms, 2.12 s; A2: FlightSize 39 against a new
BDP of 11) are asserted by the simulator's scripted tests (``crates/vhsim-tcp/tests/crosslayer.rs``:
551.85 ms, 1221.6 ms, 2121.6 ms, cwnd = ssthresh = 11).  Here the same formulas are evaluated
with *our* run's FlightSize, and the check is that the sender applied them; when our run does
not reach the paper's situation (e.g. not in fast recovery at the handoff) the check raises
:class:`NotReached` and the report says "could not be checked", with the reason.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from ..reproduce import Claim
from . import danielkojo_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

DATA_BITS = S.PACKET_BYTES * 8   # a data packet on the wire
ACK_BITS = 40 * 8                # an ACK (40-byte headers)
REST_OF_PATH_S = 0.2             # A1's rough rest-of-path term (ns-2's default minrto)
TOLERANCE_S = 0.005              # "within 5 ms"


class NotReached(Exception):
    """Our run does not reach the situation the paper's worked value is about."""


# -- the formulas of §5 (docs/schemes.md, "Cross-layer A1-A5") ----------------------------------
def rtt_old_newlink(old: S.Link, new: S.Link) -> float:
    """Data over the old access link, its ACK over the new one (one-way delays + serialisation)."""
    return old.ms / 1e3 + DATA_BITS / (old.kbps * 1e3) + new.ms / 1e3 + ACK_BITS / (new.kbps * 1e3)


def rtt_newlink(new: S.Link) -> float:
    return 2 * new.ms / 1e3 + DATA_BITS / (new.kbps * 1e3) + ACK_BITS / (new.kbps * 1e3)


def bdp_newlink(new: S.Link) -> float:
    """BDP of the new access link in packets, as A2 and A5 estimate it."""
    return new.kbps * 1e3 * rtt_newlink(new) / DATA_BITS


def a1_minrto(case: int, old: S.Link, new: S.Link, flight: float) -> float:
    """A1's minrto (s) for Case 1, 2 or 3 with ``flight`` packets outstanding."""
    if case == 1:
        return rtt_old_newlink(old, new) + flight * DATA_BITS / (old.kbps * 1e3) + REST_OF_PATH_S
    if case == 2:
        return rtt_newlink(new) + flight * DATA_BITS / (old.kbps * 1e3) + REST_OF_PATH_S
    return rtt_newlink(new) + flight * DATA_BITS / (new.kbps * 1e3) + REST_OF_PATH_S


def cut_window(new: S.Link) -> float:
    """cwnd = ssthresh = max(2, BDP_newlink) of A2/A5 (whole packets)."""
    return float(max(2, math.floor(bdp_newlink(new))))


# -- one run's story ---------------------------------------------------------------------------------
@dataclass
class Snapshot:
    time_s: float
    state: str
    flight: int
    cwnd: float
    ssthresh: float
    rto_s: float


@dataclass
class Story:
    sender: str
    start_s: float            # handoff start
    notify_s: float           # notification (handoff completion + notify_delay)
    before: Snapshot          # last trace row before the notification
    after: Snapshot           # state right after it (the notification's own row, if it changed anything)
    pre_acked_s: float        # when all data sent before the notification was cumulatively ACKed
    rto_s: list[float] = field(default_factory=list)            # RTOs in [start, start + window)
    fast_retransmit_s: list[float] = field(default_factory=list)
    first_retransmit_s: float = math.nan                        # first retransmission from the notification on
    new_drops: int = 0                                          # data dropped by the new link in the window
    # fast-recovery entries: the state just before and at each
    recovery_entries: list[tuple[Snapshot, Snapshot]] = field(default_factory=list)

    def describe(self) -> str:
        b, a = self.before, self.after
        return (f"at the notification ({self.notify_s:.2f} s) {self.sender} TCP is '{b.state}' with FlightSize "
                f"{b.flight}, cwnd {b.cwnd:.1f}, ssthresh {_pk(b.ssthresh)}, RTO {1e3 * b.rto_s:.0f} ms; after it "
                f"cwnd {a.cwnd:.1f}, ssthresh {_pk(a.ssthresh)}, RTO {1e3 * a.rto_s:.1f} ms")


def _pk(value: float) -> str:
    return "inf" if value >= 1e6 else f"{value:.0f}"


def _snap(row) -> Snapshot:
    return Snapshot(float(row["time_s"]), str(row["state"]), int(row["flight_pkts"]), float(row["cwnd_pkts"]),
                    float(row["ssthresh_pkts"]), float(row["rto_s"]))


def run_story(result, sender: str, window_s: float, flow: str = "bulk") -> Story:
    """What the sender of ``result`` (a run with a packet trace) did around its first handoff."""
    handoff = result.summary["handovers"][0]
    start, notify = float(handoff["start_s"]), float(handoff["done_s"])
    ts = result.trace("timeseries")
    ts = ts[ts["flow"] == flow].reset_index(drop=True)
    eps = 1e-9
    before_rows = ts[ts["time_s"] < notify - eps]
    at_rows = ts[(ts["time_s"] >= notify - eps) & (ts["time_s"] <= notify + eps)]
    before = _snap(before_rows.iloc[-1])
    after = _snap(at_rows.iloc[-1]) if len(at_rows) else before
    end = start + window_s
    pk = result.trace("packets")
    pk = pk[pk["flow"] == flow]
    sent = pk[(pk["event"].isin(["send", "retransmit"])) & (pk["time_s"] <= notify + eps)]
    pre_high = int(sent["seq"].max()) if len(sent) else -1
    acks = pk[(pk["event"] == "ack_receive") & (pk["time_s"] > notify) & (pk["seq"] > pre_high)]
    story = Story(sender, start, notify, before, after, float(acks["time_s"].iloc[0]) if len(acks) else math.inf)
    prev = None
    for _, row in ts[ts["time_s"] < end].iterrows():
        now = _snap(row)
        if prev is not None and now.time_s >= start - eps:
            # An RTO leaves cwnd at 1 in the loss state; a backed-off one (cwnd already 1) shows as
            # a new ssthresh or a doubled RTO with cwnd still 1 -- except at the notification,
            # where A3 itself restores ssthresh and restarts the RTT variables.
            at_notice = abs(now.time_s - notify) <= eps and prev.state == "loss"
            if not at_notice and now.state == "loss" and now.cwnd <= 1 + eps and (
                    prev.state != "loss" or prev.cwnd > 1 + eps or now.ssthresh != prev.ssthresh
                    or now.rto_s > prev.rto_s * 1.5):
                story.rto_s.append(now.time_s)
            if now.state == "recovery" and prev.state != "recovery":
                story.fast_retransmit_s.append(now.time_s)
                story.recovery_entries.append((prev, now))
        prev = now
    retx = pk[(pk["event"] == "retransmit") & (pk["time_s"] >= notify - eps)]
    if len(retx):
        story.first_retransmit_s = float(retx["time_s"].iloc[0])
    drops = pk[(pk["event"] == "drop") & (pk["link"].astype(str) == "new/forward") & (pk["time_s"] >= start)
               & (pk["time_s"] < end)]
    story.new_drops = int(len(drops))
    return story


def stories(df: "pd.DataFrame", window_s: float) -> dict[str, Story]:
    """The story of each sender's run in a case-study result table (traces from its campaign)."""
    from ...result import read_result
    from ..store import Campaign

    path = df.attrs.get("campaign")
    if not path:
        raise ValueError("the result table does not name its campaign (no traces to read)")
    camp = Campaign(path)
    out = {}
    for _, r in df.iterrows():
        out[str(r[S.SENDER])] = run_story(read_result(camp.trace_dir(str(r["run_id"]))), str(r[S.SENDER]), window_s)
    return out


def run_of(df: "pd.DataFrame", sender: str) -> "pd.Series":
    rows = df[df[S.SENDER].astype(str) == sender]
    if len(rows) != 1:
        raise ValueError(f"expected one {sender} run, got {len(rows)}")
    return rows.iloc[0]


def _time(r: "pd.Series") -> float:
    t = float(r[S.TIME])
    return math.inf if math.isnan(t) else t


def _t(value: float) -> str:
    return "not done" if math.isinf(value) else f"{value:.2f} s"


# -- claims ------------------------------------------------------------------------------------------
Check = Callable[["pd.DataFrame"], tuple[bool, str]]


def no_spurious_and_faster(sender: str = "enhanced") -> Check:
    """``sender`` avoids the spurious RTO regular TCP has at this instant and is faster (not
    reached when regular TCP has no spurious RTO here: there is nothing to avoid)."""
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        reg, enh = run_of(df, "regular"), run_of(df, sender)
        n, tr, te = int(enh[S.SPURIOUS_RTOS]), _time(reg), _time(enh)
        text = (f"{sender}: {int(enh[S.RTOS])} RTOs, {n} spurious, 100 packets in {_t(te)}; "
                f"regular: {int(reg[S.SPURIOUS_RTOS])} spurious RTOs, {_t(tr)}")
        if int(reg[S.SPURIOUS_RTOS]) == 0:
            raise NotReached(f"regular TCP has no spurious RTO at this instant, nothing to avoid ({text})")
        return n == 0 and te < tr, text
    return check


def faster(sender: str = "enhanced", than: str = "regular") -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        a, b = run_of(df, than), run_of(df, sender)
        ta, tb = _time(a), _time(b)
        return tb < ta, (f"100 packets ACKed after {_t(tb)} ({sender}, {int(b[S.RTOS])} RTOs) against {_t(ta)} "
                         f"({than}, {int(a[S.RTOS])} RTOs)")
    return check


def a1_worked(case: int, paper_flight: int, paper_ms: float, asserted_ms: float, window_s: float) -> Check:
    """A1 in our enhanced run: the RTO right after the trigger equals max(RTO, minrto) with our
    FlightSize (within 5 ms); the paper's value is the formula with its FlightSize."""
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        story = stories(df, window_s)["enhanced"]
        old, new = _links(run_of(df, "enhanced"))
        paper = a1_minrto(case, old, new, paper_flight)
        ref = (f"paper: {paper_ms:g} ms with FlightSize {paper_flight}; the formula gives {1e3 * paper:.2f} ms "
               f"(crosslayer.rs asserts {asserted_ms:g} ms)")
        b, a = story.before, story.after
        if case in (1, 2):
            if b.state == "loss":
                raise NotReached(f"{story.describe()}: in RTO recovery, where A1 does not act; {ref}")
            in_fr = b.state == "recovery"
            if case == 2 and not in_fr:
                raise NotReached(f"{story.describe()}: not in fast recovery, so Case 2 does not apply; {ref}")
            if case == 1 and (in_fr or rtt_old_newlink(old, new) <= b.rto_s):
                raise NotReached(f"{story.describe()}: RTT_old_newlink {1e3 * rtt_old_newlink(old, new):.1f} ms "
                                 f"is not above the RTO, so Case 1 does not apply; {ref}")
            trigger, flight, rto_before, rto_after = story.notify_s, b.flight, b.rto_s, a.rto_s
        else:
            entries = [(p, e) for p, e in story.recovery_entries if story.notify_s < e.time_s < story.pre_acked_s]
            if not entries:
                raise NotReached(f"{story.describe()}; our sender does not enter fast recovery between the "
                                 f"notification and the ACK of the data sent before it "
                                 f"({_t(story.pre_acked_s)}), so Case 3 does not apply; {ref}")
            p, e = entries[0]
            trigger, flight, rto_before, rto_after = e.time_s, p.flight, p.rto_s, e.rto_s
        ours = a1_minrto(case, old, new, flight)
        expected = max(rto_before, ours)
        holds = abs(rto_after - expected) <= TOLERANCE_S
        if flight == paper_flight:
            holds &= abs(ours - paper_ms / 1e3) <= TOLERANCE_S
        return holds, (f"Case {case} at {trigger:.3f} s with FlightSize {flight}: formula {1e3 * ours:.2f} ms, "
                       f"RTO set to {1e3 * rto_after:.2f} ms; {ref}")
    return check


def _q(value: object) -> float:
    from ..axes import quantity

    return quantity(str(value))


def _links(r: "pd.Series") -> tuple[S.Link, S.Link]:
    old = S.Link(int(round(_q(r[S.OLD_RATE]) / 1e3)), int(round(_q(r[S.OLD_DELAY]) * 1e3)))
    new = S.Link(int(round(_q(r[S.NEW_RATE]) / 1e3)), int(round(_q(r[S.NEW_DELAY]) * 1e3)))
    return old, new


def window_cut(sender: str, factor: float, window_s: float, paper: str) -> Check:
    """A2 (factor 2) or A5 (1.5 when the bandwidth falls >= 8x): cwnd = ssthresh = max(2, BDP_newlink)
    at the notification when FlightSize > factor x BDP_newlink and the sender is not in RTO recovery."""
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        story = stories(df, window_s)[sender]
        old, new = _links(run_of(df, sender))
        bdp, cut = bdp_newlink(new), cut_window(new)
        b, a = story.before, story.after
        ctx = f"BDP_newlink {bdp:.2f}, threshold {factor:g} x BDP = {factor * bdp:.2f}; {paper}"
        if b.state == "loss":
            raise NotReached(f"{story.describe()}: in RTO recovery, where the window cut does not act; {ctx}")
        if b.flight <= factor * bdp:
            raise NotReached(f"{story.describe()}: FlightSize not above the threshold; {ctx}")
        holds = abs(a.cwnd - cut) < 1e-6 and abs(a.ssthresh - cut) < 1e-6
        return holds, f"{story.describe()} (expected {cut:.0f}); {ctx}"
    return check


def new_link_drops(sender: str, window_s: float, at_most: int = 0, fewer_than: str | None = "regular",
                   at_least: int = 0) -> Check:
    """Data packets the new link dropped in [handoff, handoff + window): at most ``at_most`` (and at
    least ``at_least``), and fewer than ``fewer_than``'s."""
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        st = stories(df, window_s)
        n = st[sender].new_drops
        holds = at_least <= n <= at_most
        text = f"{sender}: {n} packets dropped by the new link in the {window_s:g} s after the handoff"
        others = [s for s in st if s != sender]
        if fewer_than is not None:
            holds &= n < st[fewer_than].new_drops
        text += "; " + ", ".join(f"{o}: {st[o].new_drops}" for o in others)
        return holds, text
    return check


def a3_at_reconnection(window_s: float) -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        st = stories(df, window_s)
        e, r = st["enhanced"], st["regular"]
        if e.before.state != "loss":
            raise NotReached(f"{e.describe()}: not in RTO recovery, so A3 does not act")
        saved = _saved_ssthresh(df, window_s)
        gap = e.first_retransmit_s - e.notify_s
        holds = gap <= 1e-3 and saved is not None and abs(e.after.ssthresh - saved) < 1e-6 and e.after.ssthresh > 2
        holds &= len(e.rto_s) == 1  # "reduce the ssthresh only once": no RTO after the one in the gap
        return holds, (f"{e.describe()}; first retransmission {1e3 * gap:.1f} ms after the notification; ssthresh "
                       f"saved at the first RTO {_pk(saved) if saved is not None else '?'}; enhanced RTOs at "
                       f"{', '.join(f'{t:.2f}' for t in e.rto_s)} s; regular: first retransmission "
                       f"{1e3 * (r.first_retransmit_s - r.notify_s):.0f} ms after the reconnection, RTOs at "
                       f"{', '.join(f'{t:.2f}' for t in r.rto_s)} s")
    return check


def _saved_ssthresh(df: "pd.DataFrame", window_s: float) -> float | None:
    """ssthresh set by the enhanced sender's first RTO after the handoff started."""
    from ...result import read_result
    from ..store import Campaign

    r = run_of(df, "enhanced")
    result = read_result(Campaign(df.attrs["campaign"]).trace_dir(str(r["run_id"])))
    story = run_story(result, "enhanced", window_s)
    if not story.rto_s:
        return None
    ts = result.trace("timeseries")
    row = ts[(ts["flow"] == "bulk") & (ts["time_s"] >= story.rto_s[0] - 1e-9)].iloc[0]
    return float(row["ssthresh_pkts"])


def describe_runs(df: "pd.DataFrame", window_s: float) -> str:
    """Per sender: the state at the notification and what followed (for the case-study tables)."""
    lines = []
    for sender, st in stories(df, window_s).items():
        rtos = ", ".join(f"{t:.2f}" for t in st.rto_s)
        frs = ", ".join(f"{t:.2f}" for t in st.fast_retransmit_s)
        lines.append(f"* {st.describe()}; RTOs {'at ' + rtos + ' s' if rtos else 'none'}; fast recoveries "
                     f"{'from ' + frs + ' s' if frs else 'none'}; {st.new_drops} new-link drops in the "
                     f"{window_s:g} s after the handoff.")
    return "\n".join(lines)


# -- the enhanced side of the case studies --------------------------------------------------------------
FIG8 = (
    Claim("Enhanced TCP (A1): no spurious RTO after the handoff, and 100 packets ACKed sooner than regular TCP.",
          no_spurious_and_faster()),
    Claim("A1 Case 1 sets minrto = RTT_old_newlink + FlightSize/BW_old + 200 ms (552 ms with the paper's 21 "
          "segments) and the RTO takes it at once; checked as: the RTO right after the notification equals "
          "max(RTO, minrto) with our FlightSize, within 5 ms.", a1_worked(1, 21, 552, 551.85, 5)),
)

FIG9 = (
    Claim("Enhanced TCP (A1) avoids regular TCP's spurious RTO, and gets 100 packets ACKed sooner.",
          no_spurious_and_faster()),
    Claim("A1 Case 2 (in fast recovery at the notification, 24 outstanding): minrto = RTT_newlink + "
          "FlightSize/BW_old + 200 ms = 1220 ms; checked on our run as for Figure 8.",
          a1_worked(2, 24, 1220, 1221.6, 5)),
)

FIG10 = (
    Claim("Enhanced TCP (A1) avoids regular TCP's spurious RTO, and gets 100 packets ACKed sooner.",
          no_spurious_and_faster()),
    Claim("A1 Case 3 (fast recovery entered after the handoff, before the data sent before it is ACKed; 22 "
          "outstanding in the paper, but its 2.12 s is the formula with 21): minrto = RTT_newlink + FlightSize/BW_new "
          "+ 200 ms = 2.12 s; checked on our run as for Figure 8.", a1_worked(3, 21, 2120, 2121.6, 5)),
)

FIG12 = (
    Claim("A2: FlightSize at the notification (39 in the paper) exceeds 2 x BDP_newlink (11.03 packets), so cwnd "
          "= ssthresh = 11 at once (crosslayer.rs asserts 11 with 39 in flight).",
          window_cut("enhanced", 2, 5, "paper: FlightSize 39, BDP 11")),
    Claim("Enhanced TCP avoids the congestion losses on the new link (none in the 5 s after the handoff, fewer "
          "than regular TCP).", new_link_drops("enhanced", 5)),
    Claim("...and gets 100 packets ACKed sooner than regular TCP (which needs ~2.5 s to recover in the paper).",
          faster()),
)

FIG14 = (
    Claim("A3: in RTO recovery when the link comes back (7.5 s), enhanced TCP retransmits the first unACKed "
          "segment at once (within 1 ms of the notification: no unused connection time), restores the ssthresh "
          "saved at the first RTO (above 2, where regular TCP ends) and reduces ssthresh only once (no RTO after "
          "the one in the gap).", a3_at_reconnection(5)),
    Claim("Enhanced TCP gets 100 packets ACKed sooner than regular TCP.", faster()),
)

FIG20 = (
    Claim("A2: with 124 packets outstanding and the BDP down from 80 to ~1 packet, cwnd is cut to "
          "max(2, BDP_newlink) = 2 at the notification, so the sender stops injecting segments.",
          window_cut("enhanced", 2, 11, "paper: 124 outstanding, cwnd cut to the new BDP")),
    Claim("Enhanced TCP avoids the congestion losses on the new link: fewer new-link drops than regular TCP in "
          "the 11 s after the handoff (the paper: only an occasional later drop).",
          new_link_drops("enhanced", 11, at_most=10**6)),
    Claim("Enhanced TCP gets 100 packets ACKed sooner than regular TCP.", faster()),
)

FIG24 = (
    Claim("Enhanced TCP with A2: no spurious RTO (A1) and 100 packets ACKed sooner than regular TCP.",
          no_spurious_and_faster()),
    Claim("With A2 the window is not cut (FlightSize < 2 x BDP_newlink) and the burst of new packets loses some "
          "on the new link, fewer than regular TCP (paper: 16 packets sent into the congested link, a fast "
          "retransmit at 10.7 s); checked as at least one drop in the 5 s after the handoff, fewer than regular.",
          new_link_drops("enhanced", 5, at_most=10**6, at_least=1)),
    Claim("A5 (the bandwidth falls 8-fold: threshold 1.5 x BDP_newlink) cuts the window at the notification "
          "although FlightSize < 2 x BDP_newlink.",
          window_cut("enhanced-a5", 1.5, 5, "paper: FlightSize between 1.5 and 2 x BDP")),
    Claim("A5 eliminates the packet losses: no new-link drop in the 5 s after the handoff.",
          new_link_drops("enhanced-a5", 5, at_most=0, fewer_than=None)),
    Claim("A5's transfer is slightly shorter than A2's (no losses to recover); checked as not longer.",
          lambda df: _not_longer(df, "enhanced-a5", "enhanced")),
)


def _not_longer(df: "pd.DataFrame", sender: str, than: str) -> tuple[bool, str]:
    a, b = _time(run_of(df, than)), _time(run_of(df, sender))
    return b <= a, f"100 packets ACKed after {_t(b)} ({sender}) against {_t(a)} ({than})"
