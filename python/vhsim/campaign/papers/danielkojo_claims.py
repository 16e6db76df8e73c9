"""Daniel & Kojo (2008) §4: the paper's statements about regular TCP, checked on our results.

Helper of :mod:`vhsim.campaign.papers.danielkojo`.  Every check takes the figure's result
table and returns ``(holds, our numbers)``; nothing here holds a result.  The thresholds are
the paper's own words turned into numbers; where the paper is qualitative ("roughly the
same", "almost double") the tolerance is stated in the claim's text.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

from ..reproduce import Claim
from .danielkojo_analysis import annotate, select, summary

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Check = Callable[["pd.DataFrame"], tuple[bool, str]]
SENDER = "regular"


def _table(df: "pd.DataFrame") -> "pd.DataFrame":
    return summary(annotate(df))


def _series(table: "pd.DataFrame", x: str, column: str, order: Sequence[int], **where: object) -> list[tuple[int, float]]:
    """(x, value) pairs of ``column`` for the rows matching ``where``, in ``order`` of x
    (points missing from the campaign, as in quick mode, are skipped)."""
    rows = select(table, sender=SENDER, **where)
    values = {int(r[x]): float(r[column]) for _, r in rows.iterrows()}
    return [(v, values[v]) for v in order if v in values]


def _fmt(series: Sequence[tuple[int, float]], unit: str, percent: bool = False) -> str:
    def one(v: float) -> str:
        if percent:
            return f"{100 * v:.0f}%"
        return "> horizon" if math.isinf(v) else f"{v:.2f}"
    return ", ".join(f"{x}{unit}: {one(v)}" for x, v in series)


def _need(series: object, what: str) -> None:
    if len(series) == 0:  # type: ignore[arg-type]
        raise ValueError(f"no results for {what}")


def _monotone(values: Sequence[float], rising: bool, tolerance: float) -> bool:
    """Each step at least not against the direction by more than ``tolerance`` (relative)."""
    ok = True
    for a, b in zip(values, values[1:]):
        ok &= (b >= a * (1 - tolerance)) if rising else (b <= a * (1 + tolerance))
    return ok


# -- Figure 2: low delay -> 300 ms, same bandwidth ---------------------------------------------------
DELAYS_DOWN = (150, 75, 37, 18, 9, 1)


def fig2_spurious_fast(df: "pd.DataFrame") -> tuple[bool, str]:
    t = _table(df)
    holds, parts = True, []
    for kbps in (1600, 6400):
        s = _series(t, "old_ms", "spurious_share", DELAYS_DOWN, kind="MBB", old_kbps=kbps)
        _need(s, f"MBB at {kbps} kb/s")
        for ms, share in s:
            ratio = 300 / ms
            holds &= share > 0.85 if ratio >= 8 else share < 0.20
        parts.append(f"{kbps} kb/s, old delay {_fmt(s, ' ms', percent=True)}")
    return holds, "share of instants with a spurious RTO (MBB): " + "; ".join(parts)


def fig2_spurious_slow(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_ms", "spurious_share", DELAYS_DOWN, kind="MBB", old_kbps=200)
    _need(s, "MBB at 200 kb/s")
    shares = [v for _, v in s]
    in_range = all(0.10 <= v <= 0.40 for v in shares)
    rising = _monotone(shares, rising=True, tolerance=0.0)
    return in_range and rising, (f"200 kb/s, old delay {_fmt(s, ' ms', percent=True)}; "
                                 f"{'all' if in_range else 'not all'} within 10-40%, "
                                 f"{'never falling' if rising else 'not rising throughout'} as the old delay decreases")


def fig2_penalty_grows(df: "pd.DataFrame") -> tuple[bool, str]:
    t = _table(df)
    holds, parts = True, []
    for kbps in (1600, 6400):
        s = _series(t, "old_ms", "median", DELAYS_DOWN, kind="MBB", old_kbps=kbps)
        _need(s, f"MBB at {kbps} kb/s")
        ok = _monotone([v for _, v in s], rising=True, tolerance=0.05) and s[-1][1] > s[0][1]
        holds &= ok
        parts.append(f"{kbps} kb/s: {_fmt(s, ' ms')}")
    return holds, "median transfer time (s) after MBB, by old delay: " + "; ".join(parts)


def fig2_bbm_peak(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_ms", "median", DELAYS_DOWN, kind="BBM", old_kbps=6400)
    _need(s, "BBM at 6400 kb/s")
    peak = max(s, key=lambda p: p[1])[0]
    return peak == 75, f"median after BBM at 6400 kb/s (s): {_fmt(s, ' ms')}; highest at {peak} ms"


def fig2_bbm_flat_slow(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_ms", "median", DELAYS_DOWN, kind="BBM", old_kbps=200)
    _need(s, "BBM at 200 kb/s")
    values = [v for _, v in s]
    spread = (max(values) - min(values)) / min(values)
    return spread <= 0.25, f"median after BBM at 200 kb/s (s): {_fmt(s, ' ms')}; spread {100 * spread:.0f}% of the lowest"


FIG2 = (
    Claim("MBB at 1600 and 6400 kb/s: spurious RTOs at more than 85% of the handoff instants when the new link's "
          "delay is at least 8x the old one's (old delay 37, 18, 9, 1 ms) and at fewer than 20% below 8x "
          "(150, 75 ms).", fig2_spurious_fast),
    Claim("MBB at 200 kb/s: spurious RTOs at only 10-40% of the instants (serialisation delay shrinks the "
          "delay ratio), increasing as the old link's delay decreases.", fig2_spurious_slow),
    Claim("MBB: the penalty grows with the delay ratio: at 1600 and 6400 kb/s the median transfer time rises as "
          "the old link's delay falls from 150 to 1 ms (tolerance 5% per step).", fig2_penalty_grows),
    Claim("BBM at 6400 kb/s: a sharp peak at an old delay of 75 ms (its 80-packet BDP is lost in the gap, the "
          "RTO doubles, ssthresh ends at 2): the highest median of the curve.", fig2_bbm_peak),
    Claim("BBM at 200 kb/s: the transfer time stays roughly the same for all old delays (medians within 25% of "
          "each other).", fig2_bbm_flat_slow),
)


# -- Figure 3: 300 ms -> low delay, same bandwidth ---------------------------------------------------
def fig3_flat_slow(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "new_ms", "median", DELAYS_DOWN, kind="MBB", new_kbps=200)
    _need(s, "MBB at 200 kb/s")
    values = [v for _, v in s]
    spread = (max(values) - min(values)) / min(values)
    return spread <= 0.25, f"median after MBB at 200 kb/s (s): {_fmt(s, ' ms')}; spread {100 * spread:.0f}% of the lowest"


def fig3_mbb_vs_bbm_low(df: "pd.DataFrame") -> tuple[bool, str]:
    t = _table(df)
    mbb = dict(_series(t, "new_ms", "median", (18, 9, 1), kind="MBB", new_kbps=1600))
    bbm = dict(_series(t, "new_ms", "median", (18, 9, 1), kind="BBM", new_kbps=1600))
    common = [ms for ms in (18, 9, 1) if ms in mbb and ms in bbm]
    _need(common, "1600 kb/s at 18, 9 or 1 ms")
    holds = all(mbb[ms] >= 0.9 * bbm[ms] for ms in common)
    return holds, "1600 kb/s, median MBB vs BBM (s): " + ", ".join(f"{ms} ms: {mbb[ms]:.2f} vs {bbm[ms]:.2f}" for ms in common)


def fig3_spread(df: "pd.DataFrame") -> tuple[bool, str]:
    rows = select(_table(df), sender=SENDER, kind="MBB", new_kbps=1600)
    rows = rows[rows["new_ms"].isin([9, 1])]
    _need(rows, "MBB at 1600 kb/s to 9 or 1 ms")
    parts, holds = [], True
    for _, r in rows.iterrows():
        iqr = r["q3"] - r["q1"]
        holds &= iqr >= 0.25 * r["median"]
        parts.append(f"{int(r['new_ms'])} ms: q1 {r['q1']:.2f}, median {r['median']:.2f}, q3 {r['q3']:.2f}")
    return holds, "MBB at 1600 kb/s: " + "; ".join(parts)


def _bbm_longer(table: "pd.DataFrame", x: str, points: Sequence[tuple[str, int, int]]) -> tuple[bool, str, int]:
    """BBM median > MBB median at each (panel column, panel value, x value) point present."""
    holds, worse, n = True, [], 0
    for panel, value, xv in points:
        m = select(table, sender=SENDER, kind="MBB", **{panel: value, x: xv})
        b = select(table, sender=SENDER, kind="BBM", **{panel: value, x: xv})
        if not len(m) or not len(b):
            continue
        n += 1
        if not float(b["median"].iloc[0]) > float(m["median"].iloc[0]):
            holds = False
            worse.append(f"{value}/{xv}: BBM {float(b['median'].iloc[0]):.2f} vs MBB {float(m['median'].iloc[0]):.2f}")
    return holds, "; ".join(worse), n


def _bbm_longer_claim(x: str, panel: str, points: Callable[["pd.DataFrame"], list[tuple[str, int, int]]]) -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        t = _table(df)
        holds, worse, n = _bbm_longer(t, x, points(t))
        if n == 0:
            raise ValueError("no point with both kinds")
        return holds, (f"BBM median above MBB median at all {n} points" if holds
                       else f"BBM median not above MBB at: {worse} (of {n} points)")
    return check


def _all_points(panel: str, x: str, panels: Sequence[int] | None = None, xs: Sequence[int] | None = None):
    def points(t: "pd.DataFrame") -> list[tuple[str, int, int]]:
        pairs = sorted({(int(r[panel]), int(r[x])) for _, r in t.iterrows()})
        return [(panel, p, v) for p, v in pairs if (panels is None or p in panels) and (xs is None or v in xs)]
    return points


def _fig3_bbm_points(t: "pd.DataFrame") -> list[tuple[str, int, int]]:
    return (_all_points("new_kbps", "new_ms", panels=(200,))(t)
            + _all_points("new_kbps", "new_ms", panels=(1600,), xs=(150, 75, 37))(t))


FIG3 = (
    Claim("MBB at 200 kb/s: the transfer time is nearly constant over the new link's delay (the BDP drops by "
          "less than five packets; medians within 25% of each other).", fig3_flat_slow),
    Claim("1600 kb/s, new delay 18, 9 and 1 ms: the MBB transfer time is nearly the same as (at least 90% of) or "
          "greater than the BBM one: BDP losses plus ACKs through the fast new link flooding it cause a series "
          "of RTOs.", fig3_mbb_vs_bbm_low),
    Claim("1600 kb/s, MBB to 9 or 1 ms: a large spread between the quartiles, from the variable number of RTOs "
          "(interquartile range at least 25% of the median).", fig3_spread),
    Claim("Elsewhere BBM takes longer than MBB (the packets sent into the gap are lost too): all of 200 kb/s, "
          "and 1600 kb/s at 150, 75, 37 ms.", _bbm_longer_claim("new_ms", "new_kbps", _fig3_bbm_points)),
)


# -- Figure 4: 6400 kb/s -> lower bandwidth, same delay ----------------------------------------------
RATES_UP = (200, 400, 800, 1600, 3200)


def fig4_falls_with_rate(df: "pd.DataFrame") -> tuple[bool, str]:
    t = _table(df)
    holds, parts = True, []
    for kind in ("MBB", "BBM"):
        s = _series(t, "new_kbps", "median", RATES_UP, kind=kind, new_ms=300)
        _need(s, f"{kind} at 300 ms")
        values = [v for _, v in s]
        holds &= _monotone(values, rising=False, tolerance=0.05) and max(values) == values[0]
        parts.append(f"{kind}: {_fmt(s, ' kb/s')}")
    return holds, "median at 300 ms by new bandwidth (s): " + "; ".join(parts)


def fig4_upper_tail(df: "pd.DataFrame") -> tuple[bool, str]:
    rows = select(_table(df), sender=SENDER, new_kbps=200, new_ms=300)
    _need(rows, "6400 -> 200 kb/s at 300 ms")
    holds, parts = True, []
    for _, r in rows.iterrows():
        ratio = r["q3"] / r["median"]
        holds &= 1.5 <= ratio <= 2.5
        parts.append(f"{r['kind']}: median {r['median']:.2f} s, q3 {r['q3']:.2f} s (x{ratio:.2f})")
    return holds, "; ".join(parts)


def fig4_spurious_low_delay(df: "pd.DataFrame") -> tuple[bool, str]:
    t = select(_table(df), sender=SENDER, kind="MBB")
    parts, holds = [], True
    for ms in (300, 9, 1):
        s = _series(t, "new_kbps", "spurious_share", RATES_UP, kind="MBB", new_ms=ms)
        if not s:
            continue
        shares = [v for _, v in s]
        holds &= (max(shares) == 0) if ms == 300 else (max(shares) > 0)
        parts.append(f"{ms} ms: {_fmt(s, ' kb/s', percent=True)}")
    _need(parts, "MBB at 300, 9 or 1 ms")
    return holds, "share of instants with a spurious RTO (MBB): " + "; ".join(parts)


FIG4 = (
    Claim("300 ms links: the transfer time is highest after a handoff to 200 kb/s (320 -> 10 packets of BDP) and "
          "falls as the new bandwidth grows, for MBB and BBM (tolerance 5% per step).", fig4_falls_with_rate),
    Claim("6400 -> 200 kb/s at 300 ms: the upper quartile is almost double the median (a series of RTOs when the "
          "handoff meets the slow-start overshoot; taken as 1.5-2.5x).", fig4_upper_tail),
    Claim("MBB between low-delay links (9 and 1 ms): spurious RTOs occur (the serialisation delay grows); between "
          "300 ms links none are observed.", fig4_spurious_low_delay),
    Claim("BBM takes longer than MBB (the recovery of the packets lost in the gap), at every point.",
          _bbm_longer_claim("new_kbps", "new_ms", _all_points("new_ms", "new_kbps"))),
)


# -- Figure 5: lower bandwidth -> 6400 kb/s, same delay ----------------------------------------------
def fig5_worst_800(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_kbps", "median", RATES_UP, kind="MBB", old_ms=300)
    _need(s, "MBB at 300 ms")
    worst = max(s, key=lambda p: p[1])[0]
    return worst == 800, f"median after MBB at 300 ms by old bandwidth (s): {_fmt(s, ' kb/s')}; worst {worst} kb/s"


def fig5_bbm_unused_time(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_kbps", "median", RATES_UP, kind="BBM", old_ms=9)
    _need(s, "BBM at 9 ms")
    values = [v for _, v in s]
    holds = _monotone(values, rising=False, tolerance=0.05) and values[0] == max(values)
    return holds, f"median after BBM at 9 ms by old bandwidth (s): {_fmt(s, ' kb/s')}"


FIG5 = (
    Claim("300 ms links, MBB: the transfer time depends mainly on the old link's bandwidth (the cwnd and ssthresh "
          "of the old path), the worst case being 800 kb/s (slow-start overshoot around 6.5 s, spurious RTO).",
          fig5_worst_800),
    Claim("9 ms links, BBM: the transfer time falls as the old bandwidth grows (the unused connection time after "
          "the gap shrinks from ~700 ms at 200 kb/s to 100 ms from 800 kb/s; tolerance 5% per step).",
          fig5_bbm_unused_time),
    Claim("BBM takes longer than MBB (packets lost in the gap), at every point.",
          _bbm_longer_claim("old_kbps", "old_ms", _all_points("old_ms", "old_kbps"))),
)


# -- Figures 6 and 7: same BDP ---------------------------------------------------------------------
BDP_RATES = (200, 400, 800, 1600, 3200, 6400)


def fig6_spurious(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_kbps", "spurious_share", BDP_RATES, kind="MBB")
    _need(s, "MBB")
    holds = all(v > 0.90 for kbps, v in s if kbps / 200 >= 8)
    return holds, "share of instants with a spurious RTO (MBB) by old link rate: " + _fmt(s, " kb/s", percent=True)


def fig6_grows(df: "pd.DataFrame") -> tuple[bool, str]:
    t = _table(df)
    holds, parts = True, []
    for kind in ("MBB", "BBM"):
        s = dict(_series(t, "old_kbps", "median", BDP_RATES, kind=kind))
        small = next((k for k in (400, 800) if k in s), None)
        if small is None or 6400 not in s:
            raise ValueError(f"{kind}: need old links 400 or 800 kb/s and 6400 kb/s")
        holds &= s[6400] > s[small]
        parts.append(f"{kind}: {s[small]:.2f} s from {small} kb/s vs {s[6400]:.2f} s from 6400 kb/s")
    return holds, "; ".join(parts)


def fig7_bbm_peak(df: "pd.DataFrame") -> tuple[bool, str]:
    s = _series(_table(df), "old_kbps", "median", BDP_RATES[:-1], kind="BBM")
    _need(s, "BBM")
    peak = max(s, key=lambda p: p[1])[0]
    return peak == 800, f"median after BBM by old link (s): {_fmt(s, ' kb/s')}; highest from {peak} kb/s"


FIG6 = (
    Claim("MBB: spurious RTOs at more than 90% of the instants when the bandwidth (and delay) changes at least "
          "8-fold (old link 1600/37, 3200/18, 6400/9).", fig6_spurious),
    Claim("A larger bandwidth decrease / delay increase lengthens the transfer time, for MBB and BBM (6400/9 -> "
          "200/300 against 400/150 -> 200/300).", fig6_grows),
)

FIG7 = (
    Claim("BBM: the transfer time peaks when the old link is 800 kb/s / 75 ms (the maximum unused connection time "
          "and ssthresh reduction).", fig7_bbm_peak),
    Claim("BBM takes longer than MBB, from every old link.",
          _bbm_longer_claim("old_kbps", "new_kbps", _all_points("new_kbps", "old_kbps"))),
)


# -- case studies ------------------------------------------------------------------------------------
def _one_run(df: "pd.DataFrame") -> "pd.Series":
    """The regular-TCP run of a case study (the enhanced side: danielkojo_cases)."""
    rows = df[df["flows.bulk.scheme"].astype(str) == SENDER] if "flows.bulk.scheme" in df else df
    if len(rows) != 1:
        raise ValueError(f"expected one {SENDER} run, got {len(rows)}")
    return rows.iloc[0]


def fig8_spurious(df: "pd.DataFrame") -> tuple[bool, str]:
    r = _one_run(df)
    n, rtos = int(r["bulk.ho0.spurious_rtos"]), int(r["bulk.ho0.rtos"])
    return n >= 1, f"{rtos} RTOs after the handoff, {n} of them spurious (ground truth)"


def fig8_window_retransmitted(df: "pd.DataFrame") -> tuple[bool, str]:
    r = _one_run(df)
    n = int(r["bulk.ho0.spurious_retransmissions"])
    return n >= 21, f"{n} spurious retransmissions in [handoff, handoff + 5 s)"


def fig14_two_rtos(df: "pd.DataFrame") -> tuple[bool, str]:
    r = _one_run(df)
    n = int(r["bulk.ho0.rtos"])
    return n >= 2, f"{n} RTOs in [handoff, completion + 5 s)"


def fig14_gap_losses(df: "pd.DataFrame") -> tuple[bool, str]:
    r = _one_run(df)
    n = int(r["old/forward.drops_link_down"])
    return n >= 10, (f"{n} data packets dropped by the old link while it was down (those in flight at the handoff "
                     "and those sent into the gap until the RTO)")


FIG8 = (
    Claim("Regular TCP: the handoff causes a spurious RTO (the paper's at 8.4 s, then another at 9.7 s).",
          fig8_spurious),
    Claim("It then retransmits a full window unnecessarily (21 segments after the first RTO in the paper).",
          fig8_window_retransmitted),
)

FIG14 = (
    Claim("Regular TCP: the retransmission timer expires during the 500 ms gap and again after it (7.2 s and "
          "7.6 s in the paper), so ssthresh ends at 2: at least two RTOs.", fig14_two_rtos),
    Claim("Most of the ~20 packets outstanding at the handoff are lost in the gap (18 of 20 in the paper; "
          "checked as at least 10).", fig14_gap_losses),
)


def _spurious_rto(df: "pd.DataFrame") -> tuple[bool, str]:
    return fig8_spurious(df)


def _at_least_rtos(n: int) -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        r = _one_run(df)
        rtos, spurious = int(r["bulk.ho0.rtos"]), int(r["bulk.ho0.spurious_rtos"])
        return rtos >= n, f"{rtos} RTOs after the handoff, {spurious} of them spurious (ground truth)"
    return check


def _new_link_losses(df: "pd.DataFrame") -> tuple[bool, str]:
    r = _one_run(df)
    n = int(r["new/forward.drops_queue_overflow"])
    return n >= 1, f"{n} packets dropped by the new link's buffer (until the end of the run)"


FIG9 = (
    Claim("Case 2: regular TCP, in fast recovery when the handoff occurs (fast retransmit at 5.9 s in the paper), "
          "suffers a spurious RTO (6.3 s) although the delay only grows 4-fold.", _spurious_rto),
)

FIG10 = (
    Claim("Case 3: regular TCP enters fast recovery after the handoff (11.6 s in the paper) and the queue on the "
          "new link delays the fast retransmission into a spurious RTO (12.4 s), with only a 2-fold delay "
          "change.", _spurious_rto),
)

FIG12 = (
    Claim("Regular TCP keeps sending at the old rate after the handoff (FlightSize 39 against a new-link BDP of "
          "11 in the paper) and loses several packets on the new link.", _new_link_losses),
)

FIG20 = (
    Claim("With 124 packets outstanding and the BDP falling from 80 packets to one, fast recovery cannot repair "
          "all losses: regular TCP needs RTO recoveries (17.08 s, 20.01 s and 25.77 s in the paper; counted "
          "here up to 11 s after the handoff).", _at_least_rtos(1)),
    Claim("Many packets are lost to the new link's small buffer.", _new_link_losses),
)

FIG24 = (
    Claim("Regular TCP: a spurious RTO after the handoff (9.1 s in the paper).", _spurious_rto),
    Claim("The unnecessary retransmissions congest the new link and another RTO is needed (10.18 s in the paper): "
          "at least two RTOs.", _at_least_rtos(2)),
)
