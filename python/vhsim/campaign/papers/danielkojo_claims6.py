"""Daniel & Kojo (2008) §6: the paper's statements about enhanced TCP against regular TCP
(Figures 17-19, 21-23, 26, 27), checked on our results.

Helper of :mod:`vhsim.campaign.papers.danielkojo`.  Every check takes the figure's result table
(both senders) and returns ``(holds, our numbers)``; nothing here holds a result.  The
*reduction* at a configuration is 1 - enhanced median / regular median (of the time to get 100
packets ACKed after the handoff).  The paper's words become numbers by these rules, stated again
in each claim's text:

* "a reduction of A-B%": every point of the set within A-5 .. B+5%;
* "up to X%": the largest reduction of the set within X-10 .. X+10%;
* "about X%": within X-10 .. X+10% (a single point) or the mean over the set (several);
* "similar", "no improvement": within +-10%;
* "(almost) no spurious RTOs": at most 5% of the instants.

Points missing from the campaign (quick mode) are skipped; a claim with none of its points
present raises (the report then says it could not be checked).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

from ..reproduce import Claim
from .danielkojo_analysis import annotate, compare, select, summary

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

Check = Callable[["pd.DataFrame"], tuple[bool, str]]
SIMILAR = 0.10
ALMOST_NONE = 0.05


_MEMO: dict[tuple[int, int], tuple["pd.DataFrame", "pd.DataFrame"]] = {}


def comparison(df: "pd.DataFrame", other: str = "enhanced") -> "pd.DataFrame":
    """:func:`compare` of ``other`` against regular TCP (the summary is computed once per table)."""
    key = (id(df), len(df))
    if key not in _MEMO or _MEMO[key][0] is not df:
        _MEMO.clear()
        _MEMO[key] = (df, summary(annotate(df)))
    return compare(_MEMO[key][1], other)


def _points(c: "pd.DataFrame", x: str, xs: Sequence[int], **where: object) -> list[tuple[int, "pd.Series"]]:
    rows = select(c, **where)
    by_x = {int(r[x]): r for _, r in rows.iterrows()}
    return [(v, by_x[v]) for v in xs if v in by_x]


def _pct(v: float) -> str:
    return "n/a" if math.isnan(v) else ("-inf%" if math.isinf(v) else f"{100 * v:.0f}%")


def _sec(v: float) -> str:
    return "> horizon" if math.isinf(v) else f"{v:.2f}"


def _fmt(points: Sequence[tuple[int, "pd.Series"]], unit: str, column: str = "reduction") -> str:
    base, other = ("base_median", "other_median") if column == "reduction" else ("base_q3", "other_q3")
    return ", ".join(f"{x}{unit}: {_pct(r[column])} ({_sec(r[base])} -> {_sec(r[other])} s)" for x, r in points)


# -- building blocks: each returns (holds, text) or None when none of its points is present ------------------
Part = Callable[["pd.DataFrame"], "tuple[bool, str] | None"]


def reductions(label: str, x: str, xs: Sequence[int], unit: str, lo: float, hi: float, mode: str,
               other: str = "enhanced", column: str = "reduction", **where: object) -> Part:
    """``mode``: 'each' (every point within [lo, hi]), 'max' (the largest), 'mean' (the mean),
    'atleast' (every point >= lo)."""
    def part(df: "pd.DataFrame") -> tuple[bool, str] | None:
        pts = _points(comparison(df, other), x, xs, **where)
        if not pts:
            return None
        values = [float(r[column]) for _, r in pts]
        if any(math.isnan(v) for v in values):
            return False, f"{label}: {_fmt(pts, unit, column)} (a quartile not reached by both)"
        if mode == "each":
            holds, summary_text = all(lo <= v <= hi for v in values), ""
        elif mode == "atleast":
            holds, summary_text = all(v >= lo for v in values), ""
        elif mode == "max":
            top = max(values)
            holds, summary_text = lo <= top <= hi, f"; largest {_pct(top)}"
        else:
            mean = sum(values) / len(values)
            holds, summary_text = lo <= mean <= hi, f"; mean {_pct(mean)}"
        return holds, f"{label}: {_fmt(pts, unit, column)}{summary_text}"
    return part


def spurious_gone(label: str, x: str, xs: Sequence[int], unit: str, other: str = "enhanced",
                  **where: object) -> Part:
    """Where regular TCP has spurious RTOs at > 85% of the instants, ``other`` at <= 5%."""
    def part(df: "pd.DataFrame") -> tuple[bool, str] | None:
        pts = [(v, r) for v, r in _points(comparison(df, other), x, xs, **where) if r["base_spurious"] > 0.85]
        if not pts:
            return None
        holds = all(r["other_spurious"] <= ALMOST_NONE for _, r in pts)
        return holds, f"{label}: " + ", ".join(f"{v}{unit}: {_pct(r['base_spurious'])} -> {_pct(r['other_spurious'])}"
                                              for v, r in pts)
    return part


def claim(*parts: Part) -> Check:
    """All parts whose points are present must hold; at least one must be present."""
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        results = [r for r in (p(df) for p in parts) if r is not None]
        if not results:
            raise ValueError("none of the claim's configurations is in the results")
        return all(h for h, _ in results), "; ".join(t for _, t in results)
    return check


def _q3_ratio(label: str, x: str, xs: Sequence[int], unit: str, lo: float, hi: float, which: str,
              **where: object) -> Part:
    """``which``: 'regular_vs_enhanced' (regular q3 / enhanced q3, median over the points) or
    'q3_over_median_<sender>' (each point's q3 / median of that sender; all <= hi for enhanced,
    median over the points within [lo, hi] for regular)."""
    def part(df: "pd.DataFrame") -> tuple[bool, str] | None:
        pts = _points(comparison(df), x, xs, **where)
        if not pts:
            return None
        if which == "regular_vs_enhanced":
            ratios = [r["base_q3"] / r["other_q3"] for _, r in pts]
        elif which == "q3_over_median_enhanced":
            ratios = [r["other_q3"] / r["other_median"] for _, r in pts]
        else:
            ratios = [r["base_q3"] / r["base_median"] for _, r in pts]
        text = ", ".join(f"{v}{unit}: x{q:.2f}" for (v, _), q in zip(pts, ratios))
        if which == "q3_over_median_enhanced":
            return all(q <= hi for q in ratios), f"{label}: {text}"
        mid = sorted(ratios)[len(ratios) // 2] if len(ratios) % 2 else sum(sorted(ratios)[len(ratios) // 2 - 1:
                                                                                 len(ratios) // 2 + 1]) / 2
        return lo <= mid <= hi, f"{label}: {text}; median x{mid:.2f}"
    return part


def drops_eliminated(xs: Sequence[int]) -> Part:
    """A5 against A2 and regular at the old links of ``xs`` (new-link drops in the window after the
    handoff): A5's median is 0 and its mean below both others'."""
    def part(df: "pd.DataFrame") -> tuple[bool, str] | None:
        a2 = dict(_points(comparison(df, "enhanced"), "old_kbps", xs, kind="MBB"))
        a5 = dict(_points(comparison(df, "enhanced-a5"), "old_kbps", xs, kind="MBB"))
        common = [v for v in xs if v in a2 and v in a5]
        if not common:
            return None
        holds, parts = True, []
        for v in common:
            reg, e2, e5 = a2[v]["base_drops"], a2[v]["other_drops"], a5[v]["other_drops"]
            if any(math.isnan(d) for d in (reg, e2, e5)):
                return False, "no drop-counting runs in the results"
            holds &= a5[v]["other_drops_median"] == 0 and e5 < e2 and e5 < reg
            parts.append(f"{v} kb/s: regular {reg:.1f}, A2 {e2:.1f}, A5 {e5:.1f} (A5 median "
                         f"{a5[v]['other_drops_median']:.0f})")
        return holds, "mean new-link drops per handoff in the 5 s after it: " + "; ".join(parts)
    return part


def a5_not_slower(xs: Sequence[int]) -> Part:
    """A5's median transfer time at most A2's (2% tolerance) and at most 15% below it."""
    def part(df: "pd.DataFrame") -> tuple[bool, str] | None:
        a2 = dict(_points(comparison(df, "enhanced"), "old_kbps", xs, kind="MBB"))
        a5 = dict(_points(comparison(df, "enhanced-a5"), "old_kbps", xs, kind="MBB"))
        common = [v for v in xs if v in a2 and v in a5]
        if not common:
            return None
        holds, parts = True, []
        for v in common:
            t2, t5 = float(a2[v]["other_median"]), float(a5[v]["other_median"])
            cut = 1 - t5 / t2 if t2 > 0 and math.isfinite(t2) and math.isfinite(t5) else math.nan
            holds &= -0.02 <= cut <= 0.15
            parts.append(f"{v} kb/s: A2 {_sec(t2)} s, A5 {_sec(t5)} s ({_pct(cut)})")
        return holds, "median: " + "; ".join(parts)
    return part


DELAYS = (150, 75, 37, 18, 9, 1)
RATES = (200, 400, 800, 1600, 3200)
BDP_RATES = (200, 400, 800, 1600, 3200, 6400)
HIGH_RATIO = (37, 18, 9, 1)     # old delays >= 8x below 300 ms
LOW_RATIO = (150, 75)

# -- Figure 17: low delay -> 300 ms, same bandwidth (1600, 6400 kb/s) --------------------------------------
FIG17 = (
    Claim("MBB, 6400 kb/s: enhanced TCP cuts the median transfer time by 35-65% by avoiding spurious RTOs where "
          "the delay grows >= 8x (old delay 37, 18, 9, 1 ms; each within 30-70%), and behaves like regular TCP "
          "below 8x (150, 75 ms; within +-10%).",
          claim(reductions(">= 8x", "old_ms", HIGH_RATIO, " ms", 0.30, 0.70, "each", kind="MBB", old_kbps=6400),
                reductions("< 8x", "old_ms", LOW_RATIO, " ms", -SIMILAR, SIMILAR, "each", kind="MBB",
                           old_kbps=6400))),
    Claim("MBB, 1600 kb/s: a reduction of up to 55% (largest 45-65%).",
          claim(reductions("1600 kb/s", "old_ms", DELAYS, " ms", 0.45, 0.65, "max", kind="MBB", old_kbps=1600))),
    Claim("MBB: enhanced TCP has (almost) no spurious RTOs (<= 5% of the instants) wherever regular TCP has them "
          "at > 85% of the instants.",
          claim(*(spurious_gone(f"{k} kb/s", "old_ms", DELAYS, " ms", kind="MBB", old_kbps=k) for k in (1600, 6400)))),
    Claim("BBM, 6400 kb/s (A3): up to 55% (largest 45-65%), about 55% from 75 ms (45-65%), only a slight "
          "improvement from 1 ms (0-15%).",
          claim(reductions("all", "old_ms", DELAYS, " ms", 0.45, 0.65, "max", kind="BBM", old_kbps=6400),
                reductions("75 ms", "old_ms", (75,), " ms", 0.45, 0.65, "each", kind="BBM", old_kbps=6400),
                reductions("1 ms", "old_ms", (1,), " ms", 0.0, 0.15, "each", kind="BBM", old_kbps=6400))),
    Claim("BBM, 1600 kb/s: up to 45% (largest 35-55%); no improvement from 150 ms (within +-10%: not in RTO "
          "recovery at the notification).",
          claim(reductions("all", "old_ms", DELAYS, " ms", 0.35, 0.55, "max", kind="BBM", old_kbps=1600),
                reductions("150 ms", "old_ms", (150,), " ms", -SIMILAR, SIMILAR, "each", kind="BBM",
                           old_kbps=1600))),
)

# -- Figures 18, 19: 300 ms -> low delay, same bandwidth ---------------------------------------------------
FIG18 = (
    Claim("MBB, 1600 kb/s (A2, A4): up to 85% reduction (largest 75-95%).",
          claim(reductions("MBB", "new_ms", DELAYS, " ms", 0.75, 0.95, "max", kind="MBB", new_kbps=1600))),
    Claim("BBM, 1600 kb/s: 35-50% reduction to 37, 18, 9, 1 ms (each within 30-55%); to 150 and 75 ms enhanced TCP "
          "is about 10% slower (ssthresh = the new BDP underutilises the path; taken as 0-20% longer).",
          claim(reductions("to 37-1 ms", "new_ms", HIGH_RATIO, " ms", 0.30, 0.55, "each", kind="BBM", new_kbps=1600),
                reductions("to 150, 75 ms", "new_ms", LOW_RATIO, " ms", -0.20, 0.0, "each", kind="BBM",
                           new_kbps=1600))),
)

FIG19 = (
    Claim("MBB, 200 kb/s: enhanced TCP reduces the transfer time by about 15% (mean reduction over the delays "
          "5-25%).",
          claim(reductions("MBB", "new_ms", DELAYS, " ms", 0.05, 0.25, "mean", kind="MBB", new_kbps=200))),
    Claim("MBB, 200 kb/s: regular TCP's upper quartile is almost double enhanced TCP's (ratio 1.5-2.5, median over "
          "the delays).",
          claim(_q3_ratio("regular q3 / enhanced q3", "new_ms", DELAYS, " ms", 1.5, 2.5, "regular_vs_enhanced",
                          kind="MBB", new_kbps=200))),
    Claim("BBM, 200 kb/s: enhanced TCP slightly slower to 150, 75, 37 ms (0-15% longer), faster to 18, 9, 1 ms "
          "(reduction > 0).",
          claim(reductions("to 150-37 ms", "new_ms", (150, 75, 37), " ms", -0.15, 0.0, "each", kind="BBM",
                           new_kbps=200),
                reductions("to 18-1 ms", "new_ms", (18, 9, 1), " ms", 1e-9, 1.0, "each", kind="BBM",
                           new_kbps=200))),
    Claim("BBM, 200 kb/s: enhanced TCP's upper quartile is comparable to its median (at most 1.1x at every "
          "delay), regular TCP's about 25% larger (1.15-1.4x, median over the delays).",
          claim(_q3_ratio("enhanced q3 / median", "new_ms", DELAYS, " ms", 0, 1.10, "q3_over_median_enhanced",
                          kind="BBM", new_kbps=200),
                _q3_ratio("regular q3 / median", "new_ms", DELAYS, " ms", 1.15, 1.40, "q3_over_median_regular",
                          kind="BBM", new_kbps=200))),
)

# -- Figures 21, 22: same delay, different bandwidth ----------------------------------------------------------
FIG21 = (
    Claim("MBB, 300 ms links (A2): enhanced TCP reduces the median by about 25-35% (each new bandwidth within "
          "20-40%).",
          claim(reductions("300 ms", "new_kbps", RATES, " kb/s", 0.20, 0.40, "each", kind="MBB", new_ms=300))),
    Claim("MBB, 300 ms links: the upper quartile is at least 25% lower with enhanced TCP, at every new bandwidth.",
          claim(reductions("300 ms, q3", "new_kbps", RATES, " kb/s", 0.25, 1.0, "atleast", column="q3_reduction",
                           kind="MBB", new_ms=300))),
    Claim("MBB, 9 ms links: only a slight reduction, about 5% (A1; mean over the new bandwidths 0-10%).",
          claim(reductions("9 ms", "new_kbps", RATES, " kb/s", 0.0, 0.10, "mean", kind="MBB", new_ms=9))),
)

FIG22 = (
    Claim("MBB, 9 ms links, lower bandwidth -> 6400 kb/s: no improvement (within +-10% at every old bandwidth; "
          "the algorithms do not raise cwnd).",
          claim(reductions("MBB", "old_kbps", RATES, " kb/s", -SIMILAR, SIMILAR, "each", kind="MBB", old_ms=9))),
    Claim("BBM, 9 ms links (A3): 10-40% reduction (each within 5-45%): about 40% from 200 kb/s (30-50%; ~700 ms of "
          "unused connection time avoided), about 10% from 800 kb/s up (0-20%).",
          claim(reductions("all", "old_kbps", RATES, " kb/s", 0.05, 0.45, "each", kind="BBM", old_ms=9),
                reductions("200 kb/s", "old_kbps", (200,), " kb/s", 0.30, 0.50, "each", kind="BBM", old_ms=9),
                reductions(">= 800 kb/s", "old_kbps", (800, 1600, 3200), " kb/s", 0.0, 0.20, "each", kind="BBM",
                           old_ms=9))),
)

# -- Figures 23, 26, 27: same BDP -----------------------------------------------------------------------------
EIGHTFOLD = (1600, 3200, 6400)   # old links 1600/37, 3200/18, 6400/9 against 200/300
FIG23 = (
    Claim("MBB to 200/300 from a link 8x (or more) faster and shorter: enhanced TCP (A2) cuts the median by up to "
          "45% (largest 35-55%).",
          claim(reductions(">= 8x", "old_kbps", EIGHTFOLD, " kb/s", 0.35, 0.55, "max", kind="MBB"))),
    Claim("There regular TCP has spurious RTOs at almost every instant (> 85%) and enhanced TCP (almost) none "
          "(<= 5%).",
          claim(spurious_gone(">= 8x", "old_kbps", EIGHTFOLD, " kb/s", kind="MBB"))),
    Claim("Below 8x (old 400/150, 800/75) enhanced TCP behaves like regular TCP (within +-10%).",
          claim(reductions("< 8x", "old_kbps", (400, 800), " kb/s", -SIMILAR, SIMILAR, "each", kind="MBB"))),
    Claim("(b) A5 eliminates the drops A2 leaves when the bandwidth falls >= 8x: median 0 new-link drops in the 5 s "
          "after the handoff, and fewer on average than A2 and regular TCP.", claim(drops_eliminated(EIGHTFOLD))),
    Claim("A5's transfer time is slightly lower than A2's (median not above A2's by more than 2%, at most 15% "
          "below).", claim(a5_not_slower(EIGHTFOLD))),
)

FIG26 = (
    Claim("BBM to 200/300: immediate retransmission (A3) helps when the old delay is 75 ms or less (old 800/75, "
          "1600/37, 3200/18, 6400/9: reduction > 5% at each).",
          claim(reductions("old delay <= 75 ms", "old_kbps", (800, 1600, 3200, 6400), " kb/s", 0.05, 1.0, "each",
                           kind="BBM"))),
    Claim("When the old and new delays differ little (old 200/300, 400/150) enhanced TCP behaves like regular TCP "
          "(within +-10%).",
          claim(reductions("old 200/300, 400/150", "old_kbps", (200, 400), " kb/s", -SIMILAR, SIMILAR, "each",
                           kind="BBM"))),
)

FIG27 = (
    Claim("BBM to 6400/9: 20-45% reduction when the old delay is below 150 ms (old 800/75, 1600/37, 3200/18, "
          "6400/9; each within 15-50%).",
          claim(reductions("old delay < 150 ms", "old_kbps", (800, 1600, 3200, 6400), " kb/s", 0.15, 0.50, "each",
                           kind="BBM"))),
    Claim("BBM from 300 and 150 ms links (old 200/300, 400/150): enhanced TCP behaves like regular TCP (within "
          "+-10%; the timer does not expire in the gap).",
          claim(reductions("old 200/300, 400/150", "old_kbps", (200, 400), " kb/s", -SIMILAR, SIMILAR, "each",
                           kind="BBM"))),
    Claim("MBB to 6400/9: no improvement (within +-10%; implied: the paper names no gain here, regular TCP cannot "
          "use the new bandwidth and the algorithms do not raise cwnd, as for Figure 22).",
          claim(reductions("MBB", "old_kbps", BDP_RATES, " kb/s", -SIMILAR, SIMILAR, "each", kind="MBB"))),
)
