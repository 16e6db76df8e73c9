"""Sobral et al.'s statements about Figures 4-7 (§5.1, §5.2) as claims, with the rules that judge
them on our runs (the per-run columns of :mod:`.sobral_runs`).

Rules (docs/reproductions.md, sobral section): event times within 0.1 s of the paper's (half of
the 0.2 s minimum RTO they depend on: the framework's :class:`~vhsim.campaign.claims.Events`
default); "no difference": within +-5%; "almost like": within +-25% (the framework's level
band); "slightly worse": worse by less than half; segment numbers, which depend on the
calibration, compared as offsets from the first timeout's segment, each within 5 segments.
Every run is deterministic (one run per configuration: the figures are declared
``deterministic``), so comparisons use exact values.  Calibrations (the server-core delay for
the WLAN RTT of 0.14 s, the 3G rate and window for the 3G RTT of 1.11 s, the CBR reading for
the paper's segment numbers) are reported as calibrations, and the throughput spike that
follows from the setup as a consistency test.

Claims about the Delivery Service name its counters (the result columns ``agent<i>.<counter>``;
docs/handover.md): the active mode's claims the repeated ACKs the mobile node's filter destroyed
(``agent1.dropped``), the forced handover's claims at 300 s the anchor's failure declaration
(``agent0.failures``: the DS timeout completed the handover) and, where nothing is lost, the
copies it sent again (``agent0.resent``).  Statements about the timer variant
(ambiguity A2) and the other CBR reading are not paper claims: they are the same claims under
another reading of an unstated choice, except where the variant acts (MIP at 100 s).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .. import metrics as M
from ...wording import counted
from ..claims import (CALIBRATION, CONSISTENCY, AllOf, Band, Bound, Check, Engagement, Events, Gain, Level, Measure,
                      Negligible, NotCheckable, NotInResults, above, around, below, each, plusminus)

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

FLOW = "cbr"
NR = {"scheme": "newreno", "timer": "impatient"}
UH, FH, MIP = {"case": "UH"}, {"case": "FH"}, {"case": "MIP"}
CASES = ("UH", "FH", "MIP")
SCHEMES, TIMERS = ("newreno", "sack"), ("impatient", "slow_but_steady")
ACTIVE = "2s any"   # the chosen active mode as Figure 7 shows it (sobral.ACTIVE_CHOSEN, after every handover)
# The paper's 300 s story (§5.1): timeouts at 300.28 s (segment 18716, 18736 already sent) and
# 301.54 s (segment 18737, sender at 18758); repeated ACKs from 301.1 s (value 18736, sender at
# 18758) and 302.32 s (value 18758, sender at 18768).
PAPER_RTOS = ((300.28, True), (301.54, True))
PAPER_REPEATS = ((301.1, None), (302.32, None))
# Offsets from the first timeout's segment (18716); ns-2's ACK value is the highest segment
# received, ours the next expected, so an ns-2 ACK of 18736 reads 18737 here.
PAPER_OFFSETS = {"in flight at the 1st timeout": 20, "sender at the 1st repeated ACKs": 42,
                 "ACK value of the 1st repeated ACKs": 21, "2nd timeout's segment": 21,
                 "sender at the 2nd timeout": 42, "sender at the 2nd repeated ACKs": 52,
                 "ACK value of the 2nd repeated ACKs": 43}
SEGMENT_TOLERANCE = 5
# The bounds the metrics live under.  After the handover to 3G at 300 s the data delivered in T s is
# at most the 3G link's payload rate (300 kb/s x 1000/1040) for T s plus one window (window_ 40 x
# 1000 B) already on its way; after 100 s the 3G backlog drains over the WLAN, and nothing simple
# bounds it (no ceiling).
CBR_KBPS, PATH_3G_KBPS, WINDOW_KB = 500.0, 300.0 * 1000 / 1040, 40.0
GOODPUT_WINDOW_S = 15.0   # the summary's goodput_after window (metrics.handover_window of the scenarios)


def after_3g_kb(seconds: float) -> Bound:
    return Bound(PATH_3G_KBPS * seconds / 8 + WINDOW_KB, f"the 3G payload rate for {seconds:g} s plus one window")


HO_GOODPUT = {
    0: Measure(M.handover(FLOW, M.GOODPUT_AFTER_KBPS, 0), unit=" kb/s", digits=0,
               name="goodput in the 15 s after the 100 s handover"),
    1: Measure(M.handover(FLOW, M.GOODPUT_AFTER_KBPS, 1), unit=" kb/s", digits=0,
               name="goodput in the 15 s after the 300 s handover",
               ceiling=Bound(PATH_3G_KBPS + WINDOW_KB * 8 / GOODPUT_WINDOW_S,
                             "the 3G payload rate plus one window over 15 s"))}
# The Delivery Service's agents, in the order sobral.py's points list them: the anchor's (HNAC)
# first, the mobile node's second (docs/handover.md; their counters are agent<i>.<counter>).
DS_ANCHOR, DS_MOBILE = 0, 1
DS_DESTROYED = M.agent(DS_MOBILE, M.Agent.DROPPED)
# The active mode acted: repeated ACKs the mobile node's filter destroyed.
DS_FILTER = Engagement("the Delivery Service's duplicate-ACK filter", (DS_DESTROYED,))
# The forced handover went as the paper describes it: the anchor's DS timeout declared the WLAN
# failed, which completes the handover (not the mobile node's own detection), and the DS sent its
# kept copies again by the UTRAN.
DS_FAILOVER = Engagement("the Delivery Service's failure declaration", (M.agent(DS_ANCHOR, M.Agent.FAILURES),),
                         where={"case": "FH"})
DS_RESENT = Engagement("the Delivery Service's re-sending", (M.agent(DS_ANCHOR, M.Agent.RESENT),),
                       where={"case": "FH"})


def kb(column: str, what: str, bound: Bound | None = None) -> Measure:
    return Measure(column, unit=" kB", digits=0, name=what, ceiling=bound)


def count(column: str, what: str) -> Measure:
    return Measure(column, digits=0, name=what)


def rto_text(row: "pd.Series") -> str:
    parts = [f"{t:.2f} ({s:.0f}{', spurious' if sp else ''})"
             for t, s, sp in zip(row["rto300_s"], row["rto300_ssthresh"], row["rto300_spurious"])]
    return ", ".join(parts) or "none"


def offsets(row: "pd.Series") -> dict[str, int]:
    """Our 300 s story as offsets from the first timeout's segment (see :data:`PAPER_OFFSETS`)."""
    if len(row["rto300_seq"]) < 2 or len(row["dup300_s"]) < 2:
        raise NotCheckable(f"our run has {counted(len(row['rto300_seq']), 'timeout')} and "
                           f"{counted(len(row['dup300_s']), 'burst')} of repeated ACKs at 300 s (the paper's story "
                           "needs two of each)")
    base = row["rto300_seq"][0]
    values = (row["rto300_highest"][0], row["dup300_highest"][0], row["dup300_ack"][0], row["rto300_seq"][1],
              row["rto300_highest"][1], row["dup300_highest"][1], row["dup300_ack"][1])
    return {name: int(v) - base for name, v in zip(PAPER_OFFSETS, values)}


def segments_text(rows: "pd.DataFrame") -> str:
    if not len(rows):
        return "\u2013"
    r = rows.iloc[0]
    return ", ".join(f"{s} / {h}" for s, h in zip(r["rto300_seq"], r["rto300_highest"])) or "none"


def destroyed_text(rows: "pd.DataFrame") -> str:
    return f"{rows[DS_DESTROYED].iloc[0]:.0f}" if len(rows) else "\u2013"


def _one(ctx, where: dict) -> "pd.Series":
    rows = ctx.table.loc[ctx.mask(where)] if ctx.present(where) else ctx.table.iloc[0:0]
    if len(rows) != 1:
        raise (NotInResults if not len(rows) else NotCheckable)(f"expected one run for {ctx.label(where)}, found "
                                                                f"{len(rows)}")
    return rows.iloc[0]


def _segment_story(ctx) -> tuple[bool, str]:
    ours = offsets(_one(ctx, {**FH, **NR}))
    holds = all(abs(ours[k] - p) <= SEGMENT_TOLERANCE for k, p in PAPER_OFFSETS.items())
    return holds, "; ".join(f"{k}: +{ours[k]} (paper +{p})" for k, p in PAPER_OFFSETS.items())


def _ssthresh(ctx) -> tuple[bool, str]:
    parts, holds = [], True
    for case in ("UH", "FH"):
        seq = [float(s) for s in _one(ctx, {"case": case, **NR})["rto300_ssthresh"]]
        holds &= seq == [20.0, 10.0]
        parts.append(f"{case}: " + (" \u2192 ".join(f"{s:.0f}" for s in seq) or "no timeout"))
    return holds, "; ".join(parts)


def _same_events(axis: str, values: tuple, cases=CASES) -> Check:
    """The runs that differ only in ``axis`` have the same timeouts (within 1 ms), ssthresh and
    fast retransmits at both handovers."""

    def fn(ctx) -> tuple[bool, str]:
        holds, parts = True, []
        for case in cases:
            rows = [(v, _one(ctx, {**NR, "case": case, axis: v})) for v in values
                    if ctx.present({**NR, "case": case, axis: v})]
            if len(rows) < 2:
                continue
            ref = rows[0][1]
            same = all(len(r["rto300_s"]) == len(ref["rto300_s"])
                       and all(abs(a - b) < 1e-3 for a, b in zip(r["rto300_s"], ref["rto300_s"]))
                       and list(r["rto300_ssthresh"]) == list(ref["rto300_ssthresh"])
                       and r["fr100"] == ref["fr100"] and r["rto100"] == ref["rto100"] for _, r in rows)
            holds &= same
            parts.append(f"{case}: " + "; ".join(f"{ctx.name(axis, v)}: FR {r['fr100']} at 100 s, RTOs at 300 s "
                                                 f"{rto_text(r)}" for v, r in rows))
        if not parts:
            raise NotInResults(f"the runs of more than one {axis} are not in the results")
        return holds, " \u2016 ".join(parts)

    return Check("", fn=fn, rule="same timeouts (within 1 ms), ssthresh and fast retransmits")


# -- Figure 4 ----------------------------------------------------------------------------------
FIG4 = (
    AllOf("At 100 s the new data packets travel faster through the WLAN and overtake those sent via UTRAN; the "
          "repeated ACKs drive the sender into fast recovery, which decreases cwnd; nothing is lost (§5.1). "
          "UH and FH, NewReno and SACK, both timer variants.", paper="fast recovery, cwnd cut",
          over={"case": ("UH", "FH"), "scheme": SCHEMES, "timer": TIMERS}, parts=(
              Level("", measure=count("fr100", "fast retransmits"), band=Band(1, 1)),
              Level("", measure=count("rto100", "RTOs"), band=Band(0, 0)),
              Level("", measure=Measure("cwnd_min100", name="min cwnd"), band=Band(1, 20, lo_open=True,
                                                                            words="cut to half the window, not to 1")),
              Level("", measure=count("data_lost", "segments lost"), band=Band(0, 0)))),
    AllOf("For this problem there are no differences between NewReno and SACK (§5.1): the same events at 100 s "
          "and 300 s, and the same data delivered after each handover (in 5 s after 100 s, while the 3G backlog "
          "drains; in 20 s after 300 s).", paper="no difference",
          where={"timer": "impatient"}, parts=(
              _same_events("scheme", SCHEMES),
              Negligible("", measure=kb("kb_5s_100", "kB in 5 s after 100 s"), over={"case": CASES},
                         a={"scheme": "sack"}, b={"scheme": "newreno"}),
              Negligible("", measure=kb("kb_20s_300", "kB in 20 s after 300 s", after_3g_kb(20)), over={"case": CASES},
                         a={"scheme": "sack"}, b={"scheme": "newreno"}))),
    # Per timer variant: here the variant acts (MIP with Slow-but-Steady recovers at 100 s without a
    # timeout), so the two are different statements on different numbers.
    *each("timer", TIMERS, (AllOf(
        "MIP is slightly worse at 100 s: its packet losses are recovered by timeout and cwnd drops to 1 (§5.1, "
        "Figures 4(b), 4(c)); 'slightly' read as worse by less than half. Per NewReno timer variant (A2).",
        paper="timeout, cwnd 1, slightly worse", where={"scheme": "newreno"}, parts=(
            Level("", measure=count("rto100", "MIP RTOs at 100 s"), where=MIP, band=above(1, strict=False)),
            Level("", measure=Measure("cwnd_min100", name="MIP min cwnd"), where=MIP, band=Band(1, 1)),
            Gain("", measure=HO_GOODPUT[0], a=MIP, b=[UH, FH], band=Band(-0.5, 0, lo_open=True, hi_open=True,
                                                                            words="worse by less than half")))),)),
    Events("At 300 s a spurious timeout at 300.28 s, a second one around 301.54 s (§5.1; Figure 5 is the FH run). "
           "FH, NewReno Impatient.", paper="300.28, 301.54 s", times="rto300_s", flags="rto300_spurious",
           expected=PAPER_RTOS, where={**FH, **NR}, engages=(DS_FAILOVER,)),
    Events("The same two timeouts for the user handover (the paper's narrative holds for both, §5.1).",
           paper="300.28, 301.54 s", times="rto300_s", flags="rto300_spurious", expected=PAPER_RTOS,
           where={**UH, **NR}),
    Check("ssthresh is halved to 20 at the first timeout and goes to 10 at the second (§5.1).",
          paper="20, then 10", fn=_ssthresh, rule="20 then 10 (UH and FH)"),
    Level("The WLAN RTT is 0.14 s just before 300 s (§5.1). Calibrated with the server-core delay (30 ms), which "
          "the paper's Figure 3 gives and its text does not.", paper="0.14 s", category=CALIBRATION,
          measure=Measure("srtt_wlan_s", unit=" s", digits=3, name="srtt before 300 s"), where={**UH, **NR},
          band=around(0.14, 0.05)),
    Level("The 3G RTT settles at 1.11 s (§5.1). Set by the 3G link (300 kb/s, 50-packet queue) and window_ 40: "
          "40 x 1040 B / 300 kb/s = 1.109 s.", paper="1.11 s", category=CALIBRATION,
          measure=Measure("srtt_3g_s", unit=" s", digits=3, name="srtt before 100 s"), over={"case": CASES},
          where=NR, band=around(1.11, 0.05)),
)

# -- Figure 5 ----------------------------------------------------------------------------------
FIG5 = (
    Events("The repeated ACKs caused by the retransmissions start arriving at 301.1 s and again at 302.32 s "
           "although nothing was lost (§5.1). FH, NewReno.", paper="301.1, 302.32 s", times="dup300_s",
           expected=PAPER_REPEATS, what="repeated-ACK arrivals", where={**FH, **NR},
           engages=(DS_FAILOVER, DS_RESENT)),
    Level("On those repeated ACKs the sender enters fast recovery twice (§5.1: 'the sending TCP entered twice in "
          "the fast recovery algorithm').", paper="2 fast recoveries", measure=count("fr300", "fast recoveries"),
          where={**FH, "scheme": "newreno"}, over={"timer": TIMERS}, band=Band(2, 2), engages=(DS_FAILOVER,)),
    Check("The segments of the story, as offsets from the first timeout's segment (18716 in the paper; the absolute "
          "numbers follow the calibration): 18736 in flight, sender at 18758 when the repeated ACKs (18736) "
          "arrive, second timeout on 18737 with 18758 sent, repeated ACKs (18758) when the sender is at 18768.",
          paper="+20, +42, +21, +21, +42, +52, +43", fn=_segment_story,
          rule=f"each offset within {SEGMENT_TOLERANCE} segments of the paper's", engages=(DS_FAILOVER,)),
    Check("The timeout value doubles at each timeout and no RTT sample is taken meanwhile (§5.1).",
          paper="doubled twice", rule="RTO after the 2nd timeout = 2 x after the 1st, srtt unchanged",
          engages=(DS_FAILOVER,),
          fn=lambda ctx: (lambda r: (len(r["rto300_rto"]) == 2 and abs(r["rto300_rto"][1] - 2 * r["rto300_rto"][0]) < 1e-6,
                                     f"RTO {', '.join(f'{v:.2f} s' for v in r['rto300_rto'])}"))(_one(ctx, {**FH, **NR}))),
    Level("By the time the sender is stable again the RTT has grown from 0.14 s to 0.98 s (§5.1); our RTT sample: "
          "the first new segment sent after the sender's last return to the open state.", paper="0.98 s",
          measure=Measure("rtt_stable_s", unit=" s", digits=2, name="RTT at stabilization"),
          where={**FH, **NR}, band=around(0.98), engages=(DS_FAILOVER,)),
    Level("The RTT then stabilizes at 1.11 s for the UTRAN link (§5.1; the calibration target, see Figure 4).",
          paper="1.11 s", category=CALIBRATION, measure=Measure("srtt_end_s", unit=" s", digits=3, name="srtt at 400 s"),
          where={**FH, **NR}, band=around(1.11, 0.05)),
)

# -- Figure 6 ----------------------------------------------------------------------------------
FIG6 = (
    Level("A spike after 100 s: the buffers filled on 3G (CBR 500 kb/s > 300 kb/s) empty over the 11 Mb/s WLAN "
          "(§5.1, Figure 6(a)); read as the 1 s throughput exceeding the CBR rate. It follows from the setup (a "
          "500 kb/s source over a 288 kb/s path for 100 s, then an 11 Mb/s one): a test of our simulator against "
          "that arithmetic, not a result.", paper="spike", category=CONSISTENCY,
          measure=Measure("peak_kbps_100", unit=" kb/s", digits=0, name="peak 100-120 s"), where=NR,
          over={"case": CASES}, band=above(CBR_KBPS, words="above the CBR rate")),
    Gain("At 300 s the throughput degrades less for the user and forced handovers than for MIP (§5.1, Figure 6(b)).",
         paper="UH, FH > MIP", measure=HO_GOODPUT[1], where=NR, a=[UH, FH], b=MIP, band=above(0),
         engages=(DS_FAILOVER,)),
    Level("In all cases the throughput is back at 300 kb/s 15 s after the handover to 3G (§5.1); read as three 1 s "
          "bins in a row at >= 95% of the 3G link's payload rate.", paper="within 15 s",
          measure=Measure("recover300_s", unit=" s", digits=0, name="seconds after 300 s"), where=NR,
          over={"case": CASES}, band=Band(0, 15)),
    AllOf("The main observation: without remedies the very fast lossless handover behaves almost exactly like the "
          "800 ms lossy MIP handover (§5.2): at the handover to 3G (300 s) cwnd falls to 1 in both, and the data "
          "delivered in the 20 s after it is within +-25% (after 100 s every run delivers the whole 3G backlog in "
          "20 s, which compares nothing).", paper="almost the same", where=NR, parts=(
              Level("", measure=Measure("cwnd_min300", name="min cwnd 300-305 s"), over={"case": CASES}, band=Band(1, 1)),
              Gain("", measure=kb("kb_20s_300", "kB in 20 s after 300 s", after_3g_kb(20)), a=MIP, b=[UH, FH],
                   band=plusminus(0.0, 0.25, "within +-25%")))),
)

# -- Figure 7 ----------------------------------------------------------------------------------
ON, OFF = {"active": ACTIVE}, {"active": "off"}
FIG7 = (
    AllOf("With the Delivery Service's active mode no repeated ACK reaches the sender, so it does not enter fast "
          "recovery at 100 s and cwnd adapts faster to the better network (§5.2, Figure 7(a)).",
          paper="no fast recovery, faster", over={"case": ("UH", "FH")}, engages=(replace(DS_FILTER, where=ON),), parts=(
              Level("", measure=count("fr100", "fast retransmits at 100 s"), where=ON, band=Band(0, 0)),
              Level("", measure=Measure("cwnd_min100", name="min cwnd"), where=ON, band=above(20, words="no cut")),
              Gain("", measure=kb("kb_5s_100", "kB in 5 s after 100 s"), a=ON, b=OFF, band=above(0)))),
    Level("At 300 s, without the repeated ACKs the sender does not enter fast recovery, and the timeout expires a "
          "third time: an overall slower reaction (§5.2, Figure 7(b)).", paper="3 timeouts",
          measure=count("rto300", "RTOs at 300 s"), where=ON, over={"case": ("UH", "FH")}, band=Band(3, 3),
          engages=(DS_FILTER,)),
)

# -- variants ----------------------------------------------------------------------------------
INTERNET = (
    AllOf("In the 'Internet' case the differences of RTT in the paper's architecture cause no disturbance (§5.1): "
          "no timeout and no fast recovery at either handover, UH and FH.", paper="no disturbance",
          where={"placement": "internet", **NR}, over={"case": ("UH", "FH")}, engages=(DS_FAILOVER,), parts=tuple(
              Level("", measure=Measure(f"disturbances{at}", digits=0, name=f"timeouts + fast retransmits at {at} s"),
                    band=Band(0, 0)) for at in (100, 300))),
    Gain("For MIP the Internet case is worse, due to the longer unavailability (§5.1).", paper="MIP worse",
         measure=HO_GOODPUT[1], where={"placement": "internet", **NR}, a=MIP, b=[UH, FH], band=below(0)),
)

READING = (
    AllOf("The paper's segment numbers near 300 s (18716-18736) fit the rate reading of the source (500 kb/s: "
          "62.5 writes a second for 300 s, none discarded), not 'a packet each 2 ms' (its sender is near 60,000 by "
          "then, far behind 150,000 writes): the reading we chose, checked against the paper's numbers.",
          paper="18736", category=CALIBRATION, where={**FH, **NR}, parts=(
              Level("", measure=count("seg_at_300", "500 kb/s: segment at 300 s"), where={"reading": "500kbps"},
                    band=around(18736, 0.02)),
              Level("", measure=count("seg_at_300", "2 ms: segment at 300 s"), where={"reading": "2ms"},
                    band=above(18736 * 1.02, words="beyond +2% of the paper's 18736")))),
)


def disturbances(df: "pd.DataFrame", at: int) -> "pd.Series":
    """Timeouts and fast retransmits at the handover at ``at`` s, per run."""
    return df[f"rto{at}"] + df[f"fr{at}"]

