"""Kim & Koh reproduction: the paper's statements about Figures 8-16, as data.

Verdict rules (docs/reproductions.md, "kimkoh"): a time the paper gives ("at about 25.1 s",
"at 25.3-25.8 s") holds within 0.25 s (a quarter of SCTP's 1 s minimum RTO); "X is better /
faster / grows fastest" holds when X's mean is the highest (an ordering) or its gain over each
other scheme is positive, each shown by the paired 95% CI over seeds; "similar" / "no
significant gain" / "converging" hold when the gain's CI lies within +-15% ("no significant
gain": +-10%); "no reordering" / "no timeout": none in any run; a
behaviour of the normal scheme the paper shows in its one run ("timeout retransmissions")
holds when at least half of our runs show it.  The consistency test compares the simulator
with link arithmetic, not with the paper.

A claim about a scheme's mechanism needs it to have acted (claims.Engagement): HR-mSCTP's
handover retransmission at the switch the claim is about (the chunks it sent to the new
primary: the summary's per-path ``handover_retransmissions``, WLAN's at 25 s, 3G's at 50 s;
over the ping-pong run the engagement counter ``hr_retransmitted_chunks``), MT-mSCTP's split
fast retransmit (``split_misses_ignored``: miss indications it did not count; its other
mechanism, ``mt_concurrent_packets``, exists only with ``mt_region = "add_ip"``, not in the
pinned scenarios), and for normal mSCTP's behaviour after a switch the Set-Primary the
correspondent applied (``primary_switches``).  Engagement counters: docs/sctp.md.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .. import metrics as M
from ...wording import counted
from ..claims import (CONSISTENCY, AllOf, Band, Bound, Check, Engagement, Gain, Level, Measure, Monotone, Negligible,
                      NotInResults, Ordering, above, around, plusminus)

SCHEME = "flows.ftp.scheme"
MSCTP, MT, HR = "msctp", "mt-msctp", "hr-msctp"
AFTER25, AFTER50 = M.window("ftp", "after25"), M.window("ftp", "after50")
BEFORE25 = M.window("ftp", "before25")
UMTS_ERROR, WLAN_ERROR, WLAN_WINDOW_P = "links.umts.forward.error", "links.wlan.forward.error", "links.wlan.forward.error.p"
TIME_TOLERANCE_S = 0.25
SIMILAR, NOT_SIGNIFICANT = 0.15, 0.10
UMTS_PAYLOAD_KBPS = 384 * 1452 / 1500  # 3G rate x user data per 1500-byte packet
# The bounds the goodput windows live under: after the switch to WLAN, the new path's payload rate
# plus the 3G one (MT-mSCTP may use both); after the switch back to 3G, the 3G payload rate plus
# the WLAN one in the same way (the old path's outstanding data still arrives). Rates of
# scenarios/kimkoh/3g-wlan-3g.toml: 384 kb/s 3G, 11 Mb/s WLAN.
WLAN_PAYLOAD_KBPS = 11000 * 1452 / 1500
BOTH_PATHS = Bound(UMTS_PAYLOAD_KBPS + WLAN_PAYLOAD_KBPS, "the two paths' payload rates")

KBPS = Measure(AFTER25, unit=" kb/s", digits=0, name="goodput 25-29 s", ceiling=BOTH_PATHS)
KBPS50 = Measure(AFTER50, unit=" kb/s", digits=0, name="goodput 50-54 s", ceiling=BOTH_PATHS)
HR_SIDE, OTHERS = {SCHEME: HR}, ({SCHEME: MSCTP}, {SCHEME: MT})
# The mechanisms acted (the module docstring).  Paths: 0 = 3G, 1 = WLAN; the handover
# retransmissions of a path are chunks HR-mSCTP sent *to* it, so WLAN's come from the switch at
# 25 s and 3G's from the switch back at 50 s (the only switches of 3g-wlan-3g.toml).
HR_TO_WLAN = Engagement("HR-mSCTP's handover retransmission at the switch to WLAN",
                        (M.flow("ftp.path1", M.Path.HANDOVER_RETRANSMISSIONS),), where=HR_SIDE)
HR_TO_3G = Engagement("HR-mSCTP's handover retransmission at the switch back to 3G",
                      (M.flow("ftp.path0", M.Path.HANDOVER_RETRANSMISSIONS),), where=HR_SIDE)
HR_ANY = Engagement("HR-mSCTP's handover retransmission", (M.flow("ftp", "engagement.hr_retransmitted_chunks"),),
                    where=HR_SIDE)
MT_SPLIT = Engagement("MT-mSCTP's split fast retransmit", (M.flow("ftp", "engagement.split_misses_ignored"),),
                      where={SCHEME: MT})
SWITCHED = Engagement("the Set-Primary switch", (M.flow("ftp", "engagement.primary_switches"),),
                      where={SCHEME: MSCTP})


def engaging(engagement: Engagement, claims) -> tuple:
    """``claims``, each needing ``engagement`` to have acted (besides what it needs already)."""
    return tuple(replace(c, engages=(*c.engages, engagement)) for c in claims)


def _within(paper_s: float) -> Band:
    return plusminus(paper_s, TIME_TOLERANCE_S, f"within {TIME_TOLERANCE_S:g} s of the paper's")


# -- Figure 8: 3G -> WLAN, TSNs at the mobile node ------------------------------------------------
FIG8 = (
    AllOf("Normal mSCTP: packet reordering occurs at about 25.1 s, after the switch at 25 s (§4.1, Fig. 8a).",
          paper="25.1 s", where={SCHEME: MSCTP}, parts=(
              Level("", measure=Measure("reorders", "min", digits=0, name="reordered TSNs (fewest in a run)"),
                    band=above(0)),
              Level("", measure=Measure("reorder_first_s", unit=" s", digits=2, name="first reordering"),
                    band=_within(25.1)))),
    AllOf("Normal mSCTP: spurious fast retransmissions follow at 25.3-25.8 s (§4.1, Fig. 8a).", paper="25.3-25.8 s",
          where={SCHEME: MSCTP}, parts=(
              Level("", measure=Measure("spurious_n", "min", digits=0, name="spurious retransmissions (fewest)"),
                    band=above(0)),
              Level("", measure=Measure("spurious_first_s", unit=" s", digits=2, name="first"), band=_within(25.3)),
              Level("", measure=Measure("spurious_last_s", unit=" s", digits=2, name="last"), band=_within(25.8)))),
    Level("HR-mSCTP: no packet reordering (§4.1, Fig. 8b).", paper="none", where={SCHEME: HR},
          measure=Measure("reorders", "max", digits=0, name="reordered TSNs (most in a run)"), band=Band(0, 0)),
    Gain("HR-mSCTP: the TSNs increase much faster than with normal mSCTP (§4.1, Fig. 8b; read as the goodput in "
         "the 4 s after the switch).", paper="faster", measure=KBPS, a=HR_SIDE, b={SCHEME: MSCTP}, band=above(0)),
)

# -- Figure 9: cwnd and throughput after the 3G -> WLAN switch ---------------------------------------
# One second after the switch, while every scheme's WLAN cwnd still grows from the switch: later
# losses set it (HR's overruns WLAN's 50-packet queue within about a second), or, with ns-2's
# 64 KiB buffer (the variant fig9-64k), the receive window caps every scheme at 45 MTU.
NEW_CWND = Measure("new_cwnd_1s", unit=" MTU", digits=1, name="WLAN cwnd 1 s after the switch")
FIG9 = (
    Ordering("HR-mSCTP increases the (new path's) congestion window faster than the two existing schemes after the "
             "switch at 25 s (§4.1, Fig. 9a; read as the WLAN cwnd 1 s after the switch).", paper="fastest",
             measure=NEW_CWND, axis=SCHEME, top=(HR,)),
    Ordering("HR-mSCTP's throughput after the switch is the highest of the three (§4.1, Fig. 9b).", paper="highest",
             measure=KBPS, axis=SCHEME, top=(HR,)),
    Gain("MT-mSCTP does not outperform HR-mSCTP (§4.1).", paper="HR > MT", measure=KBPS, a=HR_SIDE, b={SCHEME: MT},
         band=above(0)),
    AllOf("MT-mSCTP avoids the spurious fast retransmissions of normal mSCTP, but its new path's cwnd cannot "
          "normally increase until the outstanding (3G) data packets are all acknowledged (§4.1; read as: no "
          "spurious retransmission within 3 s, and the WLAN cwnd 0.5 s after the switch at most 4 MTU while the "
          "old data takes longer than that to be acknowledged).", paper="qualitative", where={SCHEME: MT}, parts=(
              Level("", measure=Measure("spurious_n", "max", digits=0, name="spurious retransmissions (most)"),
                    band=Band(0, 0)),
              Level("", measure=Measure("old_acked_s", unit=" s", digits=2, name="old data acknowledged after"),
                    band=above(0.5)),
              Level("", measure=Measure("new_cwnd_0.5s", unit=" MTU", digits=1, name="WLAN cwnd +0.5 s"),
                    band=Band(0, 4)))),
    Level("Before the switch normal mSCTP and HR-mSCTP (which send on 3G only) fill the 3G link: goodput over "
          "21-25 s within 2% of 384 kb/s x 1452/1500.", paper="link arithmetic", category=CONSISTENCY,
          over={SCHEME: (MSCTP, HR)},
          measure=Measure(BEFORE25, unit=" kb/s", digits=1), band=around(UMTS_PAYLOAD_KBPS, 0.02)),
)


# -- Figures 10-12: loss sweeps of the 3G -> WLAN switch ------------------------------------------------
def _gain_shrinks(column: str, low: float, high: float) -> Check:
    def fn(ctx):
        gains = {}
        for p in (low, high):
            if not (ctx.present({column: p, SCHEME: HR}) and ctx.present({column: p, SCHEME: MSCTP})):
                raise NotInResults(f"the loss rates {low:g} and {high:g} are not both in the results")
            hr = ctx.value(KBPS, {column: p, SCHEME: HR})
            best = max(ctx.value(KBPS, {column: p, SCHEME: s}) for s in (MSCTP, MT) if ctx.present({column: p, SCHEME: s}))
            gains[p] = hr / best - 1
        holds = gains[high] < gains[low]
        return holds, f"HR's gain over the best other scheme: {100 * gains[low]:+.0f}% at {100 * low:g}%, " \
                      f"{100 * gains[high]:+.0f}% at {100 * high:g}%"
    return Check("As the 3G loss rate increases, HR-mSCTP's advantage degrades and it eventually becomes similar to "
                 "the existing schemes (§4.1, Fig. 10): its gain is smaller at 2% than at 0.2%.", paper="converges",
                 fn=fn, rule="gain at 2% < gain at 0.2%")


FIG10 = (
    Ordering("HR-mSCTP outperforms the existing schemes at a low 3G loss rate (§4.1, Fig. 10; checked at 0.2% and "
             "0.5%).", paper="highest", measure=KBPS, axis=SCHEME, top=(HR,), over={UMTS_ERROR: (0.002, 0.005)}),
    _gain_shrinks(UMTS_ERROR, 0.002, 0.02),
    AllOf("At the highest 3G loss rate (2%) HR-mSCTP is similar to the existing schemes (§4.1, Fig. 10).",
          paper="similar", where={UMTS_ERROR: 0.02}, parts=(
              Negligible("", measure=KBPS, a=HR_SIDE, b=OTHERS, tolerance=SIMILAR),)),
)

FIG11 = (
    Monotone("HR-mSCTP's 3G congestion window just before the switch decreases as the 3G loss rate increases (§4.1, "
             "Fig. 11).", paper="decreases", where={SCHEME: HR},
             measure=Measure("old_cwnd_before", unit=" MTU", digits=1, name="3G cwnd before the switch"),
             along=UMTS_ERROR, order=(0.002, 0.005, 0.01, 0.015, 0.02), rising=False, tolerance=0.10, overall=True),
)

FIG12 = (
    Gain("HR-mSCTP achieves a better throughput than the existing schemes for WLAN loss rates up to 1.4% (§4.1, "
         "Fig. 12).", paper="better to 1.4%", measure=KBPS, a=HR_SIDE, b=OTHERS,
         over={WLAN_ERROR: (0.002, 0.006, 0.01, 0.014)}, band=above(0)),
    Negligible("Above 1.4% WLAN loss HR-mSCTP gives no significant gain over the existing schemes (§4.1, Fig. 12; "
               "read as within \u00b110%).", paper="no significant gain", measure=KBPS, a=HR_SIDE, b=OTHERS,
               over={WLAN_ERROR: (0.017, 0.02)}, tolerance=NOT_SIGNIFICANT),
)


# -- Figures 13-15: WLAN -> 3G ---------------------------------------------------------------------------
def _timeouts_in_span(lo: float, hi: float) -> Check:
    def fn(ctx):
        rows = ctx.table.loc[ctx.mask({SCHEME: MSCTP})]
        if not len(rows):
            raise NotInResults("no normal mSCTP runs in the results")
        times = [float(t) for s in rows["old_t3_times"] for t in str(s).split(", ") if t]
        inside = [t for t in times if lo - TIME_TOLERANCE_S <= t <= hi + TIME_TOLERANCE_S]
        share = float(np.mean(rows["old_t3"].to_numpy(float) > 0))
        text = f"{100 * share:.0f}% of {counted(len(rows), 'run')} have a T3 expiry on WLAN" + \
               (f", at {', '.join(f'{t:.2f}' for t in times)} s" if times else "")
        return share >= 0.5 and len(inside) == len(times), text
    return Check("Normal mSCTP: retransmissions by timeout at 50.5-51.6 s after the switch back to 3G, for data lost "
                 "on WLAN before it (§4.2, Fig. 13a).", paper="50.5-51.6 s", fn=fn,
                 rule=f"T3 expiries in at least half of the runs, all within {TIME_TOLERANCE_S:g} s of 50.5-51.6 s")


FIG13 = (
    _timeouts_in_span(50.5, 51.6),
    Level("HR-mSCTP: no retransmission by timeout (§4.2, Fig. 13b).", paper="none", where={SCHEME: HR},
          measure=Measure("old_t3", "max", digits=0, name="T3 expiries on WLAN (most in a run)"), band=Band(0, 0)),
    Level("HR-mSCTP: all outstanding data are acknowledged within a short time after the switch at 50 s (§4.2; "
          "'short' read as within 1 s).", paper="short", where={SCHEME: HR},
          measure=Measure("old_acked_s", "max", unit=" s", digits=2, name="old data acknowledged after (longest)"),
          band=Band(0, 1.0)),
    Gain("After the switch back to 3G, HR-mSCTP's TSNs increase faster than normal mSCTP's (§4.2, Fig. 13b; read as "
         "the goodput in the 4 s after the switch).", paper="faster", measure=KBPS50, a=HR_SIDE, b={SCHEME: MSCTP},
         band=above(0)),
)

FIG14 = (
    Gain("HR-mSCTP increases the congestion window (of 3G) faster than normal mSCTP after the switch at 50 s (§4.2, "
         "Fig. 14a; read as the 3G cwnd 1 s after the switch).", paper="faster",
         measure=Measure("new_cwnd_1s", unit=" MTU", digits=1, name="3G cwnd +1 s"),
         a=HR_SIDE, b={SCHEME: MSCTP}, band=above(0)),
    Gain("HR-mSCTP's throughput during the handover is higher than normal mSCTP's (§4.2, Fig. 14b).",
         paper="higher", measure=KBPS50, a=HR_SIDE, b={SCHEME: MSCTP}, band=above(0)),
)


def _gap_grows() -> Check:
    def fn(ctx):
        ps = [p for p in (0.01, 0.02, 0.03, 0.04, 0.05) if ctx.present({WLAN_WINDOW_P: p, SCHEME: HR})]
        if len(ps) < 2:
            raise NotInResults("fewer than two loss rates in the results")
        gaps = [ctx.value(KBPS50, {WLAN_WINDOW_P: p, SCHEME: HR}) - ctx.value(KBPS50, {WLAN_WINDOW_P: p, SCHEME: MSCTP})
                for p in ps]
        holds = gaps[-1] > max(gaps[0], 0.0)
        return holds, "HR - mSCTP: " + ", ".join(f"{100 * p:g}%: {g:+.0f} kb/s" for p, g in zip(ps, gaps))
    return Check("HR-mSCTP's advantage over normal mSCTP gets larger as the WLAN loss rate grows (§4.2, Fig. 15).",
                 paper="grows", fn=fn, rule="HR's advantage at the highest loss rate > 0 and > at the lowest")


FIG15 = (
    Gain("HR-mSCTP achieves a better throughput than normal mSCTP at every WLAN loss rate (§4.2, Fig. 15).",
         paper="better at all rates", measure=KBPS50, a=HR_SIDE, b={SCHEME: MSCTP},
         over={WLAN_WINDOW_P: (0.01, 0.02, 0.03, 0.04, 0.05)}, band=above(0)),
    _gap_grows(),
)


# -- Figure 16: ping-pong ----------------------------------------------------------------------------------
MARKS = (7, 11, 16, 20, 28, 35)


def _gain_accumulates() -> Check:
    def fn(ctx):
        if not (ctx.present({SCHEME: HR}) and ctx.present({SCHEME: MSCTP})):
            raise NotInResults("both schemes are needed")
        gaps = [ctx.value(Measure(f"chunks_{t}s"), {SCHEME: HR}) - ctx.value(Measure(f"chunks_{t}s"), {SCHEME: MSCTP})
                for t in MARKS]
        rising = all(b >= a - 1 for a, b in zip(gaps, gaps[1:])) and gaps[-1] > gaps[0] and gaps[-1] > 0
        return rising, "HR - mSCTP TSNs delivered by " + ", ".join(f"{t} s: {g:+.0f}" for t, g in zip(MARKS, gaps))
    return Check("HR-mSCTP's gain over normal mSCTP increases as the simulation goes on: it accumulates with each "
                 "switch (§4.3, Fig. 16).", paper="accumulates", fn=fn,
                 rule="difference in TSNs delivered never falls (by more than one) from switch to switch, ends positive")


FIG16 = (
    Gain("HR-mSCTP increases the TSNs faster than normal mSCTP over the ping-pong movement (§4.3, Fig. 16a; TSNs "
         "delivered in order by 35 s).", paper="faster", measure=Measure("chunks_35s", digits=0, name="TSNs by 35 s"),
         a=HR_SIDE, b={SCHEME: MSCTP}, band=above(0)),
    _gain_accumulates(),
)

# The claims about HR-mSCTP after a switch need its handover retransmission at that switch to have
# acted; Figure 9's about MT-mSCTP its split fast retransmit; Figure 8's and 13's about normal
# mSCTP after a switch the switch itself.  The consistency test and Figure 11 (before the switch)
# need nothing.
FIG8 = engaging(SWITCHED, FIG8[:2]) + engaging(HR_TO_WLAN, FIG8[2:])
FIG9 = engaging(HR_TO_WLAN, FIG9[:3]) + engaging(MT_SPLIT, FIG9[3:4]) + FIG9[4:]
FIG10, FIG12 = engaging(HR_TO_WLAN, FIG10), engaging(HR_TO_WLAN, FIG12)
FIG13 = engaging(SWITCHED, FIG13[:1]) + engaging(HR_TO_3G, FIG13[1:])
FIG14, FIG15 = engaging(HR_TO_3G, FIG14), engaging(HR_TO_3G, FIG15)
FIG16 = engaging(HR_ANY, FIG16)

__all__ = ["FIG8", "FIG9", "FIG10", "FIG11", "FIG12", "FIG13", "FIG14", "FIG15", "FIG16"]
