"""Daniel & Kojo (2008): the paper's statements about Figures 2-7 (§4, regular TCP) and 17-27 (§6,
regular against enhanced TCP), as data.

Columns (from :func:`.danielkojo.derive`): ``sender``, ``kind`` (MBB / BBM), ``old_kbps``,
``old_ms``, ``new_kbps``, ``new_ms``; per run ``t100`` (time to 100 packets ACKed, +inf when
censored), ``spurious`` (1 if the run had a spurious RTO), ``window_drops`` (Figure 23b).  The
paper's words become numbers as stated in each text: "a reduction of A-B%" = every point within
A-5 .. B+5%; "up to X%" = the largest within X +- 10 points; "about X%" = within X +- 10 points (the
mean for several points); "similar", "no improvement" = within +-10%; "(almost) no spurious RTOs"
= at most 5% of the instants.  Points missing from the campaign (quick mode) are skipped.
"""

from __future__ import annotations

from ..claims import ALL, AllOf, Band, Gain, Given, Level, Measure, Monotone, Ordering, Share, Spread, above, below

MEDIAN = Measure("t100", "median", unit=" s", digits=2, name="median transfer time")
Q3 = Measure("t100", "q3", unit=" s", digits=2, name="upper quartile")
REG = {"sender": "regular"}
HIGH, LOW = (37, 18, 9, 1), (150, 75)      # old delays >= 8x and < 8x below 300 ms
DELAYS = (150, 75, 37, 18, 9, 1)
RATES = (200, 400, 800, 1600, 3200)
BDP_RATES = (200, 400, 800, 1600, 3200, 6400)
EIGHTFOLD = (1600, 3200, 6400)             # old links 1600/37, 3200/18, 6400/9 against 200/300
SIMILAR = 0.10


def spurious(band, **where) -> dict:
    return dict(column="spurious", band=band, where={**REG, **where})


def bbm_above_mbb(text: str, **over) -> Ordering:
    return Ordering(text, paper="BBM longer", measure=MEDIAN, axis="kind", top=("BBM", "MBB"), rest=False, where=REG,
                    over=over)


def red(lo: float, hi: float = 1.0, how: str = "each", measure: Measure = MEDIAN, other: str = "enhanced",
        over: dict | None = None, **where) -> Gain:
    """``other`` against regular TCP: 1 - other / regular within lo .. hi (at each point, or the
    max / mean over them)."""
    return Gain("", measure=measure, a={"sender": other}, b=REG, reduction=True, band=Band(lo, hi), aggregate=how,
                where=where, over=over or {})


def claim(text: str, paper: str, *parts) -> AllOf:
    return AllOf(text, paper=paper, parts=parts)


def gone(text: str, paper: str, over: dict, **where) -> Share:
    """Where regular TCP has spurious RTOs at > 85% of the instants, enhanced TCP at <= 5%."""
    return Share(text, paper=paper, column="spurious", band=below(0.05, strict=False),
                 where={"sender": "enhanced", **where}, over=over,
                 given=Given(Measure("spurious", "share", digits=0, percent=True), REG, above(0.85),
                             "regular TCP has spurious RTOs at > 85% of the instants"))


CLAIMS = {
    "fig2": (
        AllOf("MBB at 1600 and 6400 kb/s: spurious RTOs at more than 85% of the handoff instants when the new link's "
              "delay is at least 8x the old one's (old delay 37, 18, 9, 1 ms) and at fewer than 20% below 8x "
              "(150, 75 ms).", paper="> 85% / < 20%", parts=(
                  Share("", **spurious(above(0.85), kind="MBB"), over={"old_kbps": (1600, 6400), "old_ms": HIGH}),
                  Share("", **spurious(below(0.20), kind="MBB"), over={"old_kbps": (1600, 6400), "old_ms": LOW}))),
        AllOf("MBB at 200 kb/s: spurious RTOs at only 10-40% of the instants (serialisation delay shrinks the delay "
              "ratio), increasing as the old link's delay decreases.", paper="10-40%, increasing", parts=(
                  Share("", **spurious(Band(0.10, 0.40), kind="MBB", old_kbps=200), over={"old_ms": DELAYS}),
                  Monotone("", measure=Measure("spurious", "share", digits=0, percent=True), along="old_ms",
                           order=DELAYS, where={**REG, "kind": "MBB", "old_kbps": 200}, over={"old_ms": DELAYS}))),
        Monotone("MBB: the penalty grows with the delay ratio: at 1600 and 6400 kb/s the median transfer time rises "
                 "as the old link's delay falls from 150 to 1 ms (tolerance 5% per step).", paper="grows",
                 measure=MEDIAN, along="old_ms", order=DELAYS, tolerance=0.05, overall=True,
                 where={**REG, "kind": "MBB"}, over={"old_kbps": (1600, 6400), "old_ms": DELAYS}),
        Ordering("BBM at 6400 kb/s: a sharp peak at an old delay of 75 ms (its 80-packet BDP is lost in the gap, the "
                 "RTO doubles, ssthresh ends at 2): the highest median of the curve.", paper="peak at 75 ms",
                 measure=MEDIAN, axis="old_ms", top=(75,), where={**REG, "kind": "BBM", "old_kbps": 6400}),
        Spread("BBM at 200 kb/s: the transfer time stays roughly the same for all old delays (medians within 25% of "
               "each other).", paper="roughly the same", measure=MEDIAN, along="old_ms", limit=0.25,
               where={**REG, "kind": "BBM", "old_kbps": 200}, over={"old_ms": DELAYS})),
    "fig3": (
        Spread("MBB at 200 kb/s: the transfer time is nearly constant over the new link's delay (the BDP drops by "
               "less than five packets; medians within 25% of each other).", paper="nearly constant", measure=MEDIAN,
               along="new_ms", limit=0.25, where={**REG, "kind": "MBB", "new_kbps": 200}, over={"new_ms": DELAYS}),
        Gain("1600 kb/s, new delay 18, 9 and 1 ms: the MBB transfer time is nearly the same as (at least 90% of) or "
             "greater than the BBM one: BDP losses plus ACKs through the fast new link flooding it cause a series "
             "of RTOs.", paper="MBB >= BBM", measure=MEDIAN, a={"kind": "MBB"}, b={"kind": "BBM"},
             band=above(-0.10, strict=False), where={**REG, "new_kbps": 1600}, over={"new_ms": (18, 9, 1)}),
        Level("1600 kb/s, MBB to 9 or 1 ms: a large spread between the quartiles, from the variable number of RTOs "
              "(interquartile range at least 25% of the median).", paper="large spread",
              measure=Measure("t100", "iqr/median", digits=2, name="(q3 - q1) / median"),
              band=above(0.25, strict=False), where={**REG, "kind": "MBB", "new_kbps": 1600}, over={"new_ms": (9, 1)}),
        AllOf("Elsewhere BBM takes longer than MBB (the packets sent into the gap are lost too): all of 200 kb/s, "
              "and 1600 kb/s at 150, 75, 37 ms.", paper="BBM longer", parts=(
                  bbm_above_mbb("", new_kbps=(200,), new_ms=ALL), bbm_above_mbb("", new_kbps=(1600,),
                                                                               new_ms=(150, 75, 37))))),
    "fig4": (
        AllOf("300 ms links: the transfer time is highest after a handoff to 200 kb/s (320 -> 10 packets of BDP) and "
              "falls as the new bandwidth grows, for MBB and BBM (tolerance 5% per step).", paper="highest at 200",
              where={**REG, "new_ms": 300}, over={"kind": ("MBB", "BBM")}, parts=(
                  Monotone("", measure=MEDIAN, along="new_kbps", order=RATES, rising=False, tolerance=0.05,
                           over={"new_kbps": RATES}),
                  Ordering("", measure=MEDIAN, axis="new_kbps", top=(200,)))),
        Level("6400 -> 200 kb/s at 300 ms: the upper quartile is almost double the median (a series of RTOs when "
              "the handoff meets the slow-start overshoot; taken as 1.5-2.5x).", paper="almost double",
              measure=Measure("t100", "q3/median", digits=2, name="q3 / median"), band=Band(1.5, 2.5),
              where={**REG, "new_kbps": 200, "new_ms": 300}, over={"kind": ("MBB", "BBM")}),
        AllOf("MBB between low-delay links (9 and 1 ms): spurious RTOs occur (the serialisation delay grows); between "
              "300 ms links none are observed.", paper="some at 9, 1 ms; none at 300 ms", parts=(
                  Share("", **spurious(Band(0, 0), kind="MBB", new_ms=300), over={"new_kbps": RATES}),
                  *(Share("", **spurious(above(0), kind="MBB", new_ms=ms), over={"new_kbps": RATES}, aggregate="max")
                    for ms in (9, 1)))),
        bbm_above_mbb("BBM takes longer than MBB (the recovery of the packets lost in the gap), at every point.",
                      new_ms=ALL, new_kbps=ALL)),
    "fig5": (
        Ordering("300 ms links, MBB: the transfer time depends mainly on the old link's bandwidth (the cwnd and "
                 "ssthresh of the old path), the worst case being 800 kb/s (slow-start overshoot around 6.5 s, "
                 "spurious RTO).", paper="worst at 800 kb/s", measure=MEDIAN, axis="old_kbps", top=(800,),
                 where={**REG, "kind": "MBB", "old_ms": 300}),
        AllOf("9 ms links, BBM: the transfer time falls as the old bandwidth grows (the unused connection time after "
              "the gap shrinks from ~700 ms at 200 kb/s to 100 ms from 800 kb/s; tolerance 5% per step).",
              paper="falls", where={**REG, "kind": "BBM", "old_ms": 9}, parts=(
                  Monotone("", measure=MEDIAN, along="old_kbps", order=RATES, rising=False, tolerance=0.05,
                           over={"old_kbps": RATES}),
                  Ordering("", measure=MEDIAN, axis="old_kbps", top=(200,)))),
        bbm_above_mbb("BBM takes longer than MBB (packets lost in the gap), at every point.", old_ms=ALL, old_kbps=ALL)),
    "fig6": (
        Share("MBB: spurious RTOs at more than 90% of the instants when the bandwidth (and delay) changes at least "
              "8-fold (old link 1600/37, 3200/18, 6400/9).", paper="> 90%", **spurious(above(0.90), kind="MBB"),
              over={"old_kbps": EIGHTFOLD}),
        Gain("A larger bandwidth decrease / delay increase lengthens the transfer time, for MBB and BBM (6400/9 -> "
             "200/300 against 400/150 -> 200/300).", paper="longer", measure=MEDIAN, a={"old_kbps": 6400},
             b={"old_kbps": 400}, band=above(0), where=REG, over={"kind": ("MBB", "BBM")})),
    "fig7": (
        Ordering("BBM: the transfer time peaks when the old link is 800 kb/s / 75 ms (the maximum unused connection "
                 "time and ssthresh reduction).", paper="peak from 800/75", measure=MEDIAN, axis="old_kbps",
                 top=(800,), among=BDP_RATES[:-1], where={**REG, "kind": "BBM"}),
        bbm_above_mbb("BBM takes longer than MBB, from every old link.", new_kbps=ALL, old_kbps=ALL)),
    # -- §6: regular against enhanced TCP ---------------------------------------------------------------
    "fig17": (
        claim("MBB, 6400 kb/s: enhanced TCP cuts the median transfer time by 35-65% by avoiding spurious RTOs where "
              "the delay grows >= 8x (old delay 37, 18, 9, 1 ms; each within 30-70%), and behaves like regular TCP "
              "below 8x (150, 75 ms; within +-10%).", "35-65%; similar below 8x",
              red(0.30, 0.70, kind="MBB", old_kbps=6400, over={"old_ms": HIGH}),
              red(-SIMILAR, SIMILAR, kind="MBB", old_kbps=6400, over={"old_ms": LOW})),
        claim("MBB, 1600 kb/s: a reduction of up to 55% (largest 45-65%).", "up to 55%",
              red(0.45, 0.65, "max", kind="MBB", old_kbps=1600, over={"old_ms": DELAYS})),
        gone("MBB: enhanced TCP has (almost) no spurious RTOs (<= 5% of the instants) wherever regular TCP has them "
             "at > 85% of the instants.", "almost none", {"old_kbps": (1600, 6400), "old_ms": DELAYS}, kind="MBB"),
        claim("BBM, 6400 kb/s (A3): up to 55% (largest 45-65%), about 55% from 75 ms (45-65%), only a slight "
              "improvement from 1 ms (0-15%).", "up to 55%; ~55% from 75 ms; slight from 1 ms",
              red(0.45, 0.65, "max", kind="BBM", old_kbps=6400, over={"old_ms": DELAYS}),
              red(0.45, 0.65, kind="BBM", old_kbps=6400, over={"old_ms": (75,)}),
              red(0.0, 0.15, kind="BBM", old_kbps=6400, over={"old_ms": (1,)})),
        claim("BBM, 1600 kb/s: up to 45% (largest 35-55%); no improvement from 150 ms (within +-10%: not in RTO "
              "recovery at the notification).", "up to 45%; none from 150 ms",
              red(0.35, 0.55, "max", kind="BBM", old_kbps=1600, over={"old_ms": DELAYS}),
              red(-SIMILAR, SIMILAR, kind="BBM", old_kbps=1600, over={"old_ms": (150,)}))),
    "fig18": (
        claim("MBB, 1600 kb/s (A2, A4): up to 85% reduction (largest 75-95%).", "up to 85%",
              red(0.75, 0.95, "max", kind="MBB", new_kbps=1600, over={"new_ms": DELAYS})),
        claim("BBM, 1600 kb/s: 35-50% reduction to 37, 18, 9, 1 ms (each within 30-55%); to 150 and 75 ms enhanced "
              "TCP is about 10% slower (ssthresh = the new BDP underutilises the path; taken as 0-20% longer).",
              "35-50%; ~10% slower to 150, 75 ms",
              red(0.30, 0.55, kind="BBM", new_kbps=1600, over={"new_ms": HIGH}),
              red(-0.20, 0.0, kind="BBM", new_kbps=1600, over={"new_ms": LOW}))),
    "fig19": (
        claim("MBB, 200 kb/s: enhanced TCP reduces the transfer time by about 15% (mean reduction over the delays "
              "5-25%).", "about 15%", red(0.05, 0.25, "mean", kind="MBB", new_kbps=200, over={"new_ms": DELAYS})),
        Gain("MBB, 200 kb/s: regular TCP's upper quartile is almost double enhanced TCP's (ratio 1.5-2.5, median "
             "over the delays).", paper="almost double", measure=Q3, a=REG, b={"sender": "enhanced"},
             band=Band(0.5, 1.5, words="regular / enhanced - 1"), aggregate="median",
             where={"kind": "MBB", "new_kbps": 200}, over={"new_ms": DELAYS}),
        claim("BBM, 200 kb/s: enhanced TCP slightly slower to 150, 75, 37 ms (0-15% longer), faster to 18, 9, 1 ms "
              "(reduction > 0).", "slower to 150-37 ms, faster to 18-1 ms",
              red(-0.15, 0.0, kind="BBM", new_kbps=200, over={"new_ms": (150, 75, 37)}),
              red(1e-9, 1.0, kind="BBM", new_kbps=200, over={"new_ms": (18, 9, 1)})),
        claim("BBM, 200 kb/s: enhanced TCP's upper quartile is comparable to its median (at most 1.1x at every "
              "delay), regular TCP's about 25% larger (1.15-1.4x, median over the delays).", "comparable; ~1.25x",
              Level("", measure=Measure("t100", "q3/median", digits=2, name="enhanced q3 / median"),
                    band=Band(0, 1.10), where={"sender": "enhanced", "kind": "BBM", "new_kbps": 200},
                    over={"new_ms": DELAYS}),
              Level("", measure=Measure("t100", "q3/median", digits=2, name="regular q3 / median"),
                    band=Band(1.15, 1.40), aggregate="median", where={**REG, "kind": "BBM", "new_kbps": 200},
                    over={"new_ms": DELAYS}))),
    "fig21": (
        claim("MBB, 300 ms links (A2): enhanced TCP reduces the median by about 25-35% (each new bandwidth within "
              "20-40%).", "25-35%", red(0.20, 0.40, kind="MBB", new_ms=300, over={"new_kbps": RATES})),
        claim("MBB, 300 ms links: the upper quartile is at least 25% lower with enhanced TCP, at every new "
              "bandwidth.", "q3 at least 25% lower",
              red(0.25, 1.0, measure=Q3, kind="MBB", new_ms=300, over={"new_kbps": RATES})),
        claim("MBB, 9 ms links: only a slight reduction, about 5% (A1; mean over the new bandwidths 0-10%).",
              "about 5%", red(0.0, 0.10, "mean", kind="MBB", new_ms=9, over={"new_kbps": RATES}))),
    "fig22": (
        claim("MBB, 9 ms links, lower bandwidth -> 6400 kb/s: no improvement (within +-10% at every old bandwidth; "
              "the algorithms do not raise cwnd).", "no improvement",
              red(-SIMILAR, SIMILAR, kind="MBB", old_ms=9, over={"old_kbps": RATES})),
        claim("BBM, 9 ms links (A3): 10-40% reduction (each within 5-45%): about 40% from 200 kb/s (30-50%; ~700 ms "
              "of unused connection time avoided), about 10% from 800 kb/s up (0-20%).", "10-40%",
              red(0.05, 0.45, kind="BBM", old_ms=9, over={"old_kbps": RATES}),
              red(0.30, 0.50, kind="BBM", old_ms=9, over={"old_kbps": (200,)}),
              red(0.0, 0.20, kind="BBM", old_ms=9, over={"old_kbps": (800, 1600, 3200)}))),
    "fig23": (
        claim("MBB to 200/300 from a link 8x (or more) faster and shorter: enhanced TCP (A2) cuts the median by up "
              "to 45% (largest 35-55%).", "up to 45%",
              red(0.35, 0.55, "max", kind="MBB", over={"old_kbps": EIGHTFOLD})),
        gone("There regular TCP has spurious RTOs at almost every instant (> 85%) and enhanced TCP (almost) none "
             "(<= 5%).", "almost none", {"old_kbps": EIGHTFOLD}, kind="MBB"),
        claim("Below 8x (old 400/150, 800/75) enhanced TCP behaves like regular TCP (within +-10%).", "similar",
              red(-SIMILAR, SIMILAR, kind="MBB", over={"old_kbps": (400, 800)})),
        AllOf("(b) A5 eliminates the drops A2 leaves when the bandwidth falls >= 8x: median 0 new-link drops in the "
              "5 s after the handoff, and fewer on average than A2 and regular TCP.", paper="no drops with A5",
              where={"kind": "MBB"}, over={"old_kbps": EIGHTFOLD}, parts=(
                  Level("", measure=Measure("window_drops", "median", digits=0, name="A5 median drops"),
                        band=Band(0, 0), where={"sender": "enhanced-a5"}),
                  Ordering("", measure=Measure("window_drops", digits=1, name="mean drops"), axis="sender",
                           top=("enhanced-a5",), lowest=True))),
        claim("A5's transfer time is slightly lower than A2's (median not above A2's by more than 2%, at most 15% "
              "below).", "slightly lower", Gain("", measure=MEDIAN, a={"sender": "enhanced-a5"}, b={"sender": "enhanced"},
                                                 reduction=True, band=Band(-0.02, 0.15), where={"kind": "MBB"},
                                                 over={"old_kbps": EIGHTFOLD}))),
    "fig26": (
        claim("BBM to 200/300: immediate retransmission (A3) helps when the old delay is 75 ms or less (old 800/75, "
              "1600/37, 3200/18, 6400/9: reduction > 5% at each).", "helps",
              red(0.05, 1.0, kind="BBM", over={"old_kbps": (800, 1600, 3200, 6400)})),
        claim("When the old and new delays differ little (old 200/300, 400/150) enhanced TCP behaves like regular "
              "TCP (within +-10%).", "similar", red(-SIMILAR, SIMILAR, kind="BBM", over={"old_kbps": (200, 400)}))),
    "fig27": (
        claim("BBM to 6400/9: 20-45% reduction when the old delay is below 150 ms (old 800/75, 1600/37, 3200/18, "
              "6400/9; each within 15-50%).", "20-45%",
              red(0.15, 0.50, kind="BBM", over={"old_kbps": (800, 1600, 3200, 6400)})),
        claim("BBM from 300 and 150 ms links (old 200/300, 400/150): enhanced TCP behaves like regular TCP (within "
              "+-10%; the timer does not expire in the gap).", "similar",
              red(-SIMILAR, SIMILAR, kind="BBM", over={"old_kbps": (200, 400)})),
        claim("MBB to 6400/9: no improvement (within +-10%; implied: the paper names no gain here, regular TCP cannot "
              "use the new bandwidth and the algorithms do not raise cwnd, as for Figure 22).", "(implied) none",
              red(-SIMILAR, SIMILAR, kind="MBB", over={"old_kbps": BDP_RATES}))),
}
