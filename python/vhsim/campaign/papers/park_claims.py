"""Park et al.'s statements about Figures 3-4 and fairness, as claims (docs/reproductions.md "park").

**What is measured.**  Figures 3-4 plot "the throughput during the movement of the MN": the
goodput over the MN's movement through the overlap of the cells, from leaving the old cell's
core area to reaching the new cell's (the scenarios' ``metrics.windows.movement = "overlap"``,
docs/mobility.md), :data:`THROUGHPUT`.  The average over the 180 s run stays in the tables
(:data:`RUN_THROUGHPUT`).

**WAVE engaged.**  A claim about Freeze-TCPv2 is a claim about its WAVE: if WAVE took no
decision in any of the FTv2 runs compared (``bulk.engagement.wave_decisions``), the claim is not
checkable ("WAVE never engaged"), never "does not hold"; the number of runs in which it decided
joins our numbers.

**The gain rule.**  "FTv2 outperforms X by g%" holds only when both

1. the paired 95% CI of the per-run difference FTv2 - X excludes zero on the positive side
   (runs pair up by seed and by the figure's x value: speed or error rate; every point of the
   figure pooled, as the paper quotes one number per figure panel), and
2. the gain, mean(FTv2) / mean(X) - 1 over those runs, lies in the paper's range: within a
   factor of 2 of the paper's g (:func:`vhsim.campaign.claims.factor`), or inside a range the
   paper states (Figure 4: "20% - 50%", read as the mean of the gains over the three others).

Trends ("rises with speed", "falls as the error rate rises") are :class:`Monotone` claims on
each scheme's mean throughput, each step within 2% of the previous one and the last beyond the
first.  Fairness: "satisfies the criteria of the Fairness index" is read as a mean Jain's index
of at least 0.95 for every number of flows (no criterion is stated; 0.95 is our reading).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pandas as pd

from .. import metrics as M
from ..claims import Band, Check, Level, Measure, Monotone, NotCheckable, factor
from ..stats import mean_ci

if TYPE_CHECKING:  # pragma: no cover
    from ..claims import Context

# The roles (the paper's schemes, in its order) and their names, and the derived columns of
# park.py's tables, which the claims read (defined here; park.py imports them).
VEGAS, FREEZE, DEMO, FTV2 = "vegas", "freeze", "demo-vegas", "ftv2"
TITLES = {VEGAS: "TCP Vegas", FREEZE: "Freeze-TCP", DEMO: "DEMO-Vegas", FTV2: "Freeze-TCPv2"}
SCHEME = "scheme"          # derived column: the role
SPEED = "speed_kmh"        # derived column: km/h
ERROR = "error_pct"        # derived column: per-packet error rate, %
FLOWS = "flows_n"          # derived column: number of flows (fairness)
JAIN = "jain"
OTHERS = (VEGAS, FREEZE, DEMO)
MOVEMENT = "movement"      # the scenarios' goodput window over the movement (metrics.windows)
THROUGHPUT = Measure(M.window("bulk", MOVEMENT), unit=" kb/s", digits=0, name="throughput during the movement")
RUN_THROUGHPUT = Measure(M.flow("bulk", M.GOODPUT_KBPS), unit=" kb/s", digits=0, name="throughput over the run")
WAVE_DECISIONS = M.flow("bulk", "engagement.wave_decisions")
SPEEDS = tuple(float(v) for v in range(10, 101, 10))
ERRORS = (1.0, 2.0, 3.0, 4.0, 5.0)
STEP_TOLERANCE = 0.02
JAIN_FAIR = 0.95


def wave_engaged(ctx: "Context") -> str:
    """How many FTv2 runs took a WAVE decision; raises :class:`NotCheckable` if none did."""
    t = ctx.table
    runs = t[t[SCHEME] == FTV2]
    decided = runs[WAVE_DECISIONS].fillna(0) if WAVE_DECISIONS in t.columns else pd.Series(0, index=runs.index)
    if len(runs) and not (decided > 0).any():
        raise NotCheckable(f"WAVE never engaged ({WAVE_DECISIONS} = 0 in all {len(runs)} Freeze-TCPv2 runs)")
    return f"WAVE decided in {int((decided > 0).sum())} of {len(runs)} Freeze-TCPv2 runs"


def paired_gain(ctx: "Context", other: str, x: str) -> tuple[float, float, float, float, int]:
    """(gain, mean difference, CI low, CI high, pairs) of FTv2 over ``other``, runs paired by
    seed and ``x``."""
    t = ctx.table
    cols = [x, "seed", THROUGHPUT.column]
    a = t.loc[t[SCHEME] == FTV2, cols].set_index([x, "seed"])[THROUGHPUT.column]
    b = t.loc[t[SCHEME] == other, cols].set_index([x, "seed"])[THROUGHPUT.column]
    common = a.index.intersection(b.index)
    if len(common) < 2 or not (a.index.is_unique and b.index.is_unique):
        raise NotCheckable(f"fewer than two paired runs of {FTV2} and {other}")
    va, vb = a.loc[common].to_numpy(float), b.loc[common].to_numpy(float)
    ci = mean_ci(va - vb)
    gain = va.mean() / vb.mean() - 1 if vb.mean() > 0 else math.nan
    return gain, ci.mean, ci.low, ci.high, len(common)


def gain_claim(other: str, paper_pct: float, x: str, where: str) -> Check:
    band = factor(paper_pct / 100)

    def fn(ctx: "Context"):
        g, d, lo, hi, n = paired_gain(ctx, other, x)
        engaged = wave_engaged(ctx)
        holds = lo > 0 and g in band
        return holds, (f"gain {100 * g:+.1f}% over {n} paired runs; paired difference {d:+.0f} kb/s "
                       f"(95% CI {lo:+.0f} .. {hi:+.0f}); {engaged}")

    return Check(f"Freeze-TCPv2 outperforms {TITLES[other]} by {paper_pct:g}% ({where}).", paper=f"+{paper_pct:g}%",
                 fn=fn, rule=f"paired 95% CI > 0 and gain within a factor of 2 of {paper_pct:g}% "
                             f"({paper_pct / 2:g}% .. {2 * paper_pct:g}%)")


def mean_gain_claim(lo_pct: float, hi_pct: float, x: str, where: str) -> Check:
    band = Band(lo_pct / 100, hi_pct / 100)

    def fn(ctx: "Context"):
        results = {o: paired_gain(ctx, o, x) for o in OTHERS}
        engaged = wave_engaged(ctx)
        mean = sum(r[0] for r in results.values()) / len(results)
        every_ci = all(r[2] > 0 for r in results.values())
        text = ", ".join(f"{TITLES[o]} {100 * r[0]:+.1f}% (CI {r[2]:+.0f} .. {r[3]:+.0f} kb/s)"
                         for o, r in results.items())
        return every_ci and mean in band, f"{text}; mean gain {100 * mean:+.1f}%; {engaged}"

    return Check(f"Freeze-TCPv2 achieves {lo_pct:g}% - {hi_pct:g}% improvements in goodput ({where}; read as the "
                 "mean of its gains over the three other schemes, each paired CI above zero).",
                 paper=f"{lo_pct:g}-{hi_pct:g}%", fn=fn, rule=f"every paired CI > 0, mean gain in {lo_pct:g}-{hi_pct:g}%")


def trend(along: str, order: tuple, rising: bool, text: str, paper: str) -> Monotone:
    return Monotone(text, paper=paper, measure=THROUGHPUT, along=along, order=order, rising=rising,
                    tolerance=STEP_TOLERANCE, overall=True, over={SCHEME: (VEGAS, FREEZE, DEMO, FTV2)})


#: §4.2: the gains of Figure 3 by panel (over Vegas, Freeze-TCP, DEMO-Vegas).
FIG3_GAINS = {"6to1": (40, 8, 14), "6to11": (55, 13, 17)}
#: §4.3: the gains of Figure 4 by panel.
FIG4_GAINS = {"6to1": (48, 7, 9), "6to11": (58, 12, 11)}
ARROWS = {"6to1": "6 \u2192 1 Mb/s", "6to11": "6 \u2192 11 Mb/s"}


def fig3(cells: str) -> tuple:
    where = f"§4.2, Fig. 3, {ARROWS[cells]}, over 10-100 km/h"
    gains = tuple(gain_claim(o, g, SPEED, where) for o, g in zip(OTHERS, FIG3_GAINS[cells]))
    return (*gains, trend(SPEED, SPEEDS, True, "The shorter the handoff (the faster the MN), the higher the "
                          f"throughput of every scheme (§4.2, Fig. 3, {ARROWS[cells]}).", "rises with speed"))


def fig4(cells: str) -> tuple:
    where = f"§4.3, Fig. 4, {ARROWS[cells]}, 1-5% error at 50 km/h"
    gains = tuple(gain_claim(o, g, ERROR, where) for o, g in zip(OTHERS, FIG4_GAINS[cells]))
    return (*gains, mean_gain_claim(20, 50, ERROR, where),
            trend(ERROR, ERRORS, False, f"As the wireless error rate increases, the throughput of every scheme "
                  f"decreases (§4.3, Fig. 4, {ARROWS[cells]}).", "falls with error"))


FAIRNESS = (
    Level(f"Freeze-TCPv2 satisfies the criteria of the Fairness index in terms of sharing the network bandwidth "
          f"equally (§5; read as a mean Jain's index of at least {JAIN_FAIR:g} over 2, 4 and 8 flows of it).",
          paper="fair", measure=Measure(JAIN, digits=3, name="Jain's index"), over={FLOWS: (2, 4, 8)},
          where={SCHEME: FTV2}, band=Band(JAIN_FAIR, 1.0, words=f"at least {JAIN_FAIR:g}")),
)
