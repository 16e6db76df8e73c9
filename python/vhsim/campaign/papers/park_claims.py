"""Park et al.'s statements about Figures 3-4 and fairness, as claims (docs/reproductions.md "park").

**What is measured.**  Figures 3-4 plot "the throughput during the movement of the MN": the
goodput over the MN's movement through the overlap of the cells, from leaving the old cell's
core area to reaching the new cell's (the scenarios' ``metrics.windows.movement = "overlap"``,
docs/mobility.md), :data:`THROUGHPUT`.  The average over the 180 s run stays in the tables
(:data:`RUN_THROUGHPUT`).

**The gain rule** is the framework's (:class:`vhsim.campaign.claims.Gain`): "FTv2 outperforms
X by g%" holds only when the paired 95% CI of the per-run difference FTv2 - X excludes zero on
the positive side (runs pair up by seed and by the figure's x value, speed or error rate; every
point of the figure pooled, as the paper quotes one number per figure panel) and the gain
mean(FTv2) / mean(X) - 1 lies within a factor of 2 of the paper's g
(:func:`vhsim.campaign.claims.factor`), or inside a range the paper states (Figure 4: "20% -
50%", read as the mean of the gains over the three others, with the mean of their CIs).

**WAVE engaged.**  A gain of Freeze-TCPv2 is a claim about its WAVE: each names the counter
that shows WAVE acted (:data:`WAVE`, ``bulk.engagement.wave_decisions`` over the FTv2 runs, the
framework's :class:`vhsim.campaign.claims.Engagement`); never engaged: not checkable, never "does
not hold"; the number of runs in which it decided joins our numbers.

**The ceiling.**  The throughput during the movement lives under the cells' payload capacity
over that window (:data:`THROUGHPUT`'s bound: the :data:`MOVEMENT_CAPACITY` column, computed per
run by ``park.movement_capacity_kbps``): a gain over a scheme that already reaches nearly all of
it is not checkable as set up.  **Randomness.**  The flow starts at a time drawn from [0 s, 10 s)
(the scenarios' ``start_spread``, the run's seed), so replications differ and comparisons have a
paired interval; without it a speed study's replications would be identical (n = 1: not
checkable).

Trends ("rises with speed", "falls as the error rate rises") are :class:`Monotone` claims on
each scheme's mean throughput, each step within 2% of the previous one and the last beyond the
first (shown by its CI).  Fairness: "satisfies the criteria of the Fairness index" is read as a
mean Jain's index of at least 0.95 for every number of flows (no criterion is stated; 0.95 is
our reading).
"""

from __future__ import annotations

from .. import metrics as M
from ..claims import Band, Bound, Engagement, Gain, Level, Measure, Monotone, factor

# The roles (the paper's schemes, in its order) and their names, and the derived columns of
# park.py's tables, which the claims read (defined here; park.py imports them).
VEGAS, FREEZE, DEMO, FTV2 = "vegas", "freeze", "demo-vegas", "ftv2"
TITLES = {VEGAS: "TCP Vegas", FREEZE: "Freeze-TCP", DEMO: "DEMO-Vegas", FTV2: "Freeze-TCPv2"}
SCHEME = "scheme"          # derived column: the role
SPEED = "speed_kmh"        # derived column: km/h
ERROR = "error_pct"        # derived column: per-packet error rate, %
FLOWS = "flows_n"          # derived column: number of flows (fairness)
JAIN = "jain"
MOVEMENT_CAPACITY = "movement_capacity_kbps"  # derived column: the cells' payload capacity during the movement
OTHERS = (VEGAS, FREEZE, DEMO)
MOVEMENT = "movement"      # the scenarios' goodput window over the movement (metrics.windows)
THROUGHPUT = Measure(M.window("bulk", MOVEMENT), unit=" kb/s", digits=0, name="throughput during the movement",
                     ceiling=Bound(MOVEMENT_CAPACITY, "the cells' payload capacity during the movement"))
RUN_THROUGHPUT = Measure(M.flow("bulk", M.GOODPUT_KBPS), unit=" kb/s", digits=0, name="throughput over the run")
#: Freeze-TCPv2's WAVE took a decision after the handoff (counted in its runs only).
WAVE = Engagement("WAVE", (M.flow("bulk", "engagement.wave_decisions"),), where={SCHEME: FTV2})
SPEEDS = tuple(float(v) for v in range(10, 101, 10))
ERRORS = (1.0, 2.0, 3.0, 4.0, 5.0)
STEP_TOLERANCE = 0.02
JAIN_FAIR = 0.95


def gain_claim(other: str, paper_pct: float, where: str) -> Gain:
    return Gain(f"Freeze-TCPv2 outperforms {TITLES[other]} by {paper_pct:g}% ({where}).", paper=f"+{paper_pct:g}%",
                measure=THROUGHPUT, a={SCHEME: FTV2}, b={SCHEME: other}, band=factor(paper_pct / 100), engages=(WAVE,))


def mean_gain_claim(lo_pct: float, hi_pct: float, where: str) -> Gain:
    return Gain(f"Freeze-TCPv2 achieves {lo_pct:g}% - {hi_pct:g}% improvements in goodput ({where}; read as the "
                "mean of its gains over the three other schemes, shown by the mean of their 95% CIs).",
                paper=f"{lo_pct:g}-{hi_pct:g}%", measure=THROUGHPUT, a={SCHEME: FTV2},
                b=tuple({SCHEME: o} for o in OTHERS), aggregate="mean",
                band=Band(lo_pct / 100, hi_pct / 100, words="the mean gain"), engages=(WAVE,))


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
    gains = tuple(gain_claim(o, g, where) for o, g in zip(OTHERS, FIG3_GAINS[cells]))
    return (*gains, trend(SPEED, SPEEDS, True, "The shorter the handoff (the faster the MN), the higher the "
                          f"throughput of every scheme (§4.2, Fig. 3, {ARROWS[cells]}).", "rises with speed"))


def fig4(cells: str) -> tuple:
    where = f"§4.3, Fig. 4, {ARROWS[cells]}, 1-5% error at 50 km/h"
    gains = tuple(gain_claim(o, g, where) for o, g in zip(OTHERS, FIG4_GAINS[cells]))
    return (*gains, mean_gain_claim(20, 50, where),
            trend(ERROR, ERRORS, False, f"As the wireless error rate increases, the throughput of every scheme "
                  f"decreases (§4.3, Fig. 4, {ARROWS[cells]}).", "falls with error"))


FAIRNESS = (
    Level(f"Freeze-TCPv2 satisfies the criteria of the Fairness index in terms of sharing the network bandwidth "
          f"equally (§5; read as a mean Jain's index of at least {JAIN_FAIR:g} over 2, 4 and 8 flows of it).",
          paper="fair", measure=Measure(JAIN, digits=3, name="Jain's index"), over={FLOWS: (2, 4, 8)},
          where={SCHEME: FTV2}, band=Band(JAIN_FAIR, 1.0, words=f"at least {JAIN_FAIR:g}")),
)
