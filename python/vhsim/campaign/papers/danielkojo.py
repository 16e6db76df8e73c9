"""The ``danielkojo`` reproduction: Daniel & Kojo (2008), TCP across vertical handoffs.

Regular TCP (ns-2 Sack1, preset ``sack``) in Figures 2-7 (§4's three experiment classes in both
directions); regular against enhanced TCP (``enhanced`` = A1+A2+A3+A4, ``enhanced-a5`` =
A1+A5+A3+A4) in Figures 17-19, 21-23, 26, 27 (§6); the time-sequence case studies (Figures 8, 9,
10, 12, 14, 20, 24) in :mod:`.danielkojo_cases`; the claims in :mod:`.danielkojo_claims`.

A configuration is a pair of access links (old, new), a handoff kind, an instant and a sender;
the router buffer in front of each access link is max(BDP, 5) packets, so the campaign is a list
of explicit configurations, written as *zipped* axes of ``scenarios/danielkojo/base.toml``.  Each
runs once: there is no randomness (no link errors), the spread comes from the 200 instants.  The
index is the time to get 100 new packets ACKed after the handoff; a run that has not got there
by the end of its horizon is *censored* (+inf: ranked above every finished run, never dropped).
Every figure's measures end at a known time (the index when 100 packets are ACKed, the RTOs and
the drops at the end of the handover window, handoff completion + 5 s), so the figures' runs stop
there (``metrics.stop = "when_complete"``; the horizon only bounds the censored ones); the case
studies, which plot whole traces, run to their end.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Sequence

import numpy as np

from .. import metrics as M
from ..axes import Axis, AxisValue, quantity
from ..claims import Measure
from ..figures import Col, FigureSpec, Grid, Paper, Table
from ..plots import Quartiles
from ..variants import Alternative, FlowStarts, LinkDelays, Perturbation
from .simulator_readings import rfc_defaults

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

BASE = "danielkojo/base.toml"
PACKET_BYTES = 1500          # TCP packet incl. headers (§4)
MIN_QUEUE_PKTS = 5           # "set to the BDP of the link if the BDP is greater than five packets"
# Handoff instants: 200 points 100 ms apart in a 20 s window the paper does not place; ours,
# 1.0 .. 20.9 s, covers slow start on every path, the slow-start overshoot and congestion avoidance.
INSTANT_FIRST_MS, INSTANT_STEP_MS, INSTANTS_FULL = 1000, 100, 200
INSTANTS_QUICK, INSTANTS_QUICK_ENHANCED = 20, 10
# Simulated time after the instant, by the new link's rate (kb/s up to, horizon s): from a trial at
# every 10th instant with 120 s (largest upper quartile 51 s at 6400 -> 200 kb/s / 300 ms BBM).
HORIZONS_S = ((400, 100), (1600, 50), (6400, 30))
DROPS_WINDOW_S = 5           # base.toml's handover_window: drops are counted in [handoff, completion + 5 s)
KINDS = {"MBB": '{at = "8.2s", action = "handover", kind = "make_before_break", to = "new"}',
         "BBM": '{at = "8.2s", action = "handover", kind = "break_before_make", gap = "500ms", to = "new"}'}
# Senders: name -> preset.  "regular" stays `sack` (identical to `regular`) so its runs keep their ids.
SENDERS = {"regular": "sack", "enhanced": "enhanced", "enhanced-a5": "enhanced-a5"}
ENHANCED, WITH_A5 = ("regular", "enhanced"), ("regular", "enhanced", "enhanced-a5")
SENDER, KIND, AT, DURATION = "flows.bulk.scheme", "timeline[0]", "timeline[0].at", "duration"
LINK_KEYS = tuple(f"links.{side}.{key}" for side in ("old", "new") for key in ("rate", "delay", "queue"))
AXIS_KEYS = (SENDER, KIND, AT, *LINK_KEYS, DURATION)
TIME = M.handover("bulk", M.TIME_TO_N_ACKED_S)
EARLY_STOP = {"metrics.stop": "when_complete"}  # a figure's runs end when its measures are known


@dataclass(frozen=True)
class Link:
    kbps: int
    ms: int

    @property
    def queue(self) -> int:
        """max(BDP, 5) packets, BDP = rate x 2 x delay, rounded up (not float noise: 200 kb/s x 600 ms = 10)."""
        bdp = self.kbps * 1000 * 2 * self.ms / 1000 / (8 * PACKET_BYTES)
        return max(MIN_QUEUE_PKTS, math.ceil(round(bdp, 9)))


def horizon_s(new_kbps: int) -> int:
    return next((h for limit, h in HORIZONS_S if new_kbps <= limit), HORIZONS_S[-1][1])


def seconds(ms: int) -> str:
    return format((Decimal(ms) / 1000).normalize(), "f") + "s"


def instants(quick: bool, quick_count: int = INSTANTS_QUICK) -> list[str]:
    count, step = ((quick_count, INSTANTS_FULL // quick_count * INSTANT_STEP_MS) if quick
                   else (INSTANTS_FULL, INSTANT_STEP_MS))
    return [seconds(INSTANT_FIRST_MS + i * step) for i in range(count)]


def grid(pairs: Sequence[tuple[Link, Link]], times: Sequence[str], kinds: Sequence[str] = ("MBB", "BBM"),
         senders: Sequence[str] = ("regular",), detail: str = "summary", fixed: dict | None = None) -> Grid:
    """Every (sender, pair, kind, instant), nested in that order, each run stopping when its measures
    are known (:data:`EARLY_STOP`; ``fixed`` may say otherwise).  Zipped axes (values repeat)."""
    # One object per distinct value, shared by the rows (a full figure has up to 9,600 rows of 10
    # values, and a reproduction builds 21 figures: a copy per row took ~0.1 GB and seconds).
    value = functools.lru_cache(maxsize=None)(lambda label, override=None: AxisValue(label, override or label))
    rows = []
    for sender in senders:
        for old, new in pairs:
            links = [value(v) for link in (old, new) for v in (f"{link.kbps}kbps", f"{link.ms}ms", f"{link.queue}pkt")]
            ends = {at: value(seconds(int(round((float(at[:-1]) + horizon_s(new.kbps)) * 1000)))) for at in times}
            for kind in kinds:
                head = (value(sender, SENDERS[sender]), value(kind, KINDS[kind]))
                rows += [(*head, value(at), *links, ends[at]) for at in times]
    axes = tuple(Axis(k, col) for k, col in zip(AXIS_KEYS, zip(*rows)))
    return Grid(BASE, axes, {**EARLY_STOP, **(fixed or {})}, detail=detail, zip=True)


def _number(values: "pd.Series", scale: float) -> np.ndarray:
    return np.array([quantity(str(v)) * scale for v in values], dtype=float)


def derive(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    """Numeric configuration columns and the per-run measures.  Drops are the links' counts in the
    handover window [handoff, completion + 5 s) (``window_drops_<cause>``: exact in a run stopped
    early); for the make-before-break handoffs of Figure 23b that is [handoff, handoff + 5 s)."""
    out = df.copy()
    out["sender"], out["kind"] = df[SENDER].astype(str), df[KIND].astype(str)
    at = _number(df[AT], 1.0)
    for side in ("old", "new"):
        out[f"{side}_kbps"] = np.rint(_number(df[f"links.{side}.rate"], 1e-3)).astype(int)
        out[f"{side}_ms"] = np.rint(_number(df[f"links.{side}.delay"], 1e3)).astype(int)
        out[side] = [f"{k}/{m}" for k, m in zip(out[f"{side}_kbps"], out[f"{side}_ms"])]
    out["horizon_s"] = _number(df[DURATION], 1.0) - at
    t = df[TIME].astype(float) if TIME in df else np.full(len(df), np.nan)
    out["t100"] = np.where(np.isnan(t), np.inf, t)
    out["spurious"] = (df[M.handover("bulk", M.SPURIOUS_RTOS)].fillna(0).astype(float) > 0).astype(float)
    out["rtos"] = df[M.handover("bulk", M.RTOS)].astype(float)
    out["gap_drops"] = df[M.link("old", M.window_drops("link_down"))].astype(float)
    out["new_drops"] = df[M.link("new", M.window_drops("queue_overflow"))].astype(float)
    out["window_drops"] = out["new_drops"]  # Figure 23b's name for them (its handoffs are MBB)
    return out


# -- tables ------------------------------------------------------------------------------------------
S2 = dict(unit=" s", digits=2)
MEDIAN, Q1, Q3 = Measure("t100", "median", **S2), Measure("t100", "q1", **S2), Measure("t100", "q3", **S2)
SHARE = Measure("spurious", "share", digits=0, percent=True)
WINDOW_DROPS = Measure("window_drops", digits=1, name=f"new-link drops in {DROPS_WINDOW_S} s (mean)")


def _not_done(rows: "pd.DataFrame") -> str:
    t = rows["t100"].dropna()
    n = int(np.isinf(t).sum())
    return f"{n}/{len(t)}" + (f" (> {rows['horizon_s'].min():.0f} s)" if n else "")


def study_table(drops: bool) -> Table:
    cols = [Col("q1", Q1), Col("median", MEDIAN), Col("q3", Q3), Col("not done", fn=_not_done),
            Col("spurious RTO", SHARE), Col("RTOs (mean)", Measure("rtos")),
            Col("gap drops (median)", Measure("gap_drops", "median", digits=0)),
            Col("new-link overflows (median)", Measure("new_drops", "median", digits=0))]
    if drops:
        cols.append(Col(f"new-link drops in {DROPS_WINDOW_S} s (mean)", WINDOW_DROPS))
    return Table(("sender", "old", "new", "kind"), tuple(cols),
                 "Time to get 100 new packets ACKed after the handoff over the handoff instants (quartiles); runs "
                 "that had not got there by the end of their horizon are ranked above all others and counted in "
                 "*not done*; *spurious RTO*: share of instants with at least one (ground truth; for BBM it also "
                 "counts RTOs whose segment arrived while its ACK was lost in the gap, so no claim uses it); "
                 "*RTOs*: mean per instant in [handoff, completion + 5 s); *gap drops*: data packets the old link "
                 "dropped while down; *new-link overflows*: drops at the new link's buffer in [handoff, completion "
                 "+ 5 s)" + (f"; *new-link drops in {DROPS_WINDOW_S} s*: the same, their mean (make-before-break: "
                             f"[handoff, handoff + {DROPS_WINDOW_S} s))" if drops else "") + ".",
                 headers=("sender", "old kb/s / ms", "new kb/s / ms", "kind"))


def comparison_table(other: str, drops: bool) -> Table:
    a, b = {"sender": other}, {"sender": "regular"}
    cols = [Col("regular median", MEDIAN, where=b), Col(f"{other} median", MEDIAN, where=a),
            Col("reduction", MEDIAN, where=a, vs=b, reduction=True), Col("regular q3", Q3, where=b),
            Col(f"{other} q3", Q3, where=a), Col("q3 reduction", Q3, where=a, vs=b, reduction=True),
            Col("spurious RTO (regular)", SHARE, where=b), Col(f"spurious RTO ({other})", SHARE, where=a)]
    if drops:
        cols += [Col("new-link drops in 5 s, regular", WINDOW_DROPS, where=b),
                 Col(f"... {other}", WINDOW_DROPS, where=a)]
    return Table(("kind", "old", "new"), tuple(cols), f"**{other} against regular TCP** (reduction = 1 - {other} / "
                 "regular, of the median and of the upper quartile):", headers=("kind", "old", "new"))


# -- Figures 2-7 and 17-27 ------------------------------------------------------------------------------
DELAYS = (150, 75, 37, 18, 9, 1)      # against a fixed 300 ms link
RATES = (200, 400, 800, 1600, 3200)   # against a fixed 6400 kb/s link
SAME_BDP = (Link(200, 300), Link(400, 150), Link(800, 75), Link(1600, 37), Link(3200, 18), Link(6400, 9))
BDP_RATES = tuple(link.kbps for link in SAME_BDP)
BDP_NAMES = {"old_kbps": {link.kbps: f"{link.kbps}/{link.ms}" for link in SAME_BDP}}


def delay_pairs(increase: bool, rates: Sequence[int], delays: Sequence[int]) -> list[tuple[Link, Link]]:
    """Same rate; low delay -> 300 ms (``increase``, Figure 2) or 300 ms -> low delay (Figure 3)."""
    return [((Link(k, ms), Link(k, 300)) if increase else (Link(k, 300), Link(k, ms))) for k in rates for ms in delays]


def rate_pairs(increase: bool, delays: Sequence[int], rates: Sequence[int]) -> list[tuple[Link, Link]]:
    """Same delay; low rate -> 6400 kb/s (``increase``, Figure 5) or 6400 kb/s -> low rate (Figure 4)."""
    return [((Link(k, ms), Link(6400, ms)) if increase else (Link(6400, ms), Link(k, ms))) for ms in delays for k in rates]


def bdp_pairs(to_slow: bool, olds: Sequence[Link] = SAME_BDP) -> list[tuple[Link, Link]]:
    """Same BDP (10 packets): to 200 kb/s / 300 ms (Figure 6) or to 6400 kb/s / 9 ms (Figure 7)."""
    return [(old, Link(200, 300) if to_slow else Link(6400, 9)) for old in olds]


@dataclass(frozen=True)
class Study:
    """One of Figures 2-7 or 17-27: its link pairs (full, quick), what varies along x, the panels."""

    id: str
    title: str
    pairs: list
    quick_pairs: list
    x: str
    x_order: tuple
    xlabel: str
    panel: str | None = None
    panel_order: tuple = ()
    panel_title: str = ""
    shown: tuple = ()
    senders: tuple[str, ...] = ("regular",)
    kinds: tuple[str, ...] = ("MBB", "BBM")
    drops: bool = False
    quick_instants: int = INSTANTS_QUICK

    def figure(self, claims) -> FigureSpec:
        def full() -> Grid:
            return grid(self.pairs, instants(False), self.kinds, self.senders)

        def quick() -> Grid:
            return grid(self.quick_pairs, instants(True, self.quick_instants), self.kinds, self.senders)

        extra = ("window_drops", WINDOW_DROPS.name, "(b) dropped packets") if self.drops else None
        plot = Quartiles("t100", self.x, self.x_order, self.xlabel, ("sender", "kind"),
                         "time to transfer 100 packets (s)", self.panel, self.panel_order, self.panel_title,
                         self.shown, extra, unit_of_n="handoff instants")
        tables = (study_table(self.drops), *(comparison_table(o, self.drops) for o in self.senders[1:]))
        # The handoff instants are the sample (the paper's quartiles are over them), like seeds; the
        # duration follows the instant (instant + horizon).
        return FigureSpec(self.id, self.title, full, quick, plot=plot, claims=claims, derive=derive, table=tables,
                          names=BDP_NAMES if self.x == "old_kbps" and self.panel is None else {}, samples=(AT, DURATION))


NAMES = {"old_ms": "{} ms", "new_ms": "{} ms", "old_kbps": "{} kb/s", "new_kbps": "{} kb/s"}
Q_DELAYS, Q_RATES = (150, 75, 18, 1), (200, 800, 3200)  # quick: both sides of the paper's 8x line
Q6, Q7 = (Link(400, 150), Link(1600, 37), Link(6400, 9)), (Link(200, 300), Link(800, 75), Link(3200, 18))
QE = dict(senders=ENHANCED, quick_instants=INSTANTS_QUICK_ENHANCED)
QE_DELAYS, QE_RATES, QE_BDP = (75, 1), (200, 1600), (Link(400, 150), Link(1600, 37))
DELAY_X = "delay of the {} link (ms); {} link 300 ms"
RATE_X = "bandwidth of the {} link (kb/s); {} link 6400 kb/s"


def studies() -> list[Study]:
    rates = (200, 1600, 6400)
    return [
        Study("fig2", "Figure 2: handoff from a low-delay to a 300 ms link, same bandwidth", delay_pairs(True, rates, DELAYS),
              delay_pairs(True, rates, Q_DELAYS), "old_ms", DELAYS, DELAY_X.format("old", "new"), "old_kbps", rates,
              "{} kb/s links", (200, 6400)),
        Study("fig3", "Figure 3: handoff from a 300 ms link to a low-delay link, same bandwidth",
              delay_pairs(False, rates, DELAYS), delay_pairs(False, rates, Q_DELAYS), "new_ms", DELAYS,
              DELAY_X.format("new", "old"), "new_kbps", rates, "{} kb/s links", (200, 1600)),
        Study("fig4", "Figure 4: handoff from a 6400 kb/s link to a lower-bandwidth link, same delay",
              rate_pairs(False, (300, 75, 9, 1), RATES), rate_pairs(False, (300, 75, 9, 1), Q_RATES), "new_kbps", RATES,
              RATE_X.format("new", "old"), "new_ms", (300, 75, 9, 1), "{} ms links", (9, 300)),
        Study("fig5", "Figure 5: handoff from a lower-bandwidth link to a 6400 kb/s link, same delay",
              rate_pairs(True, (300, 75, 9, 1), RATES), rate_pairs(True, (300, 75, 9, 1), Q_RATES), "old_kbps", RATES,
              RATE_X.format("old", "new"), "old_ms", (300, 75, 9, 1), "{} ms links", (9, 300)),
        Study("fig6", "Figure 6: handoff to 200 kb/s / 300 ms from links of the same BDP (10 packets)", bdp_pairs(True),
              bdp_pairs(True, Q6), "old_kbps", BDP_RATES, "old link (kb/s / ms); new link 200 kb/s / 300 ms"),
        Study("fig7", "Figure 7: handoff to 6400 kb/s / 9 ms from links of the same BDP (10 packets)", bdp_pairs(False),
              bdp_pairs(False, Q7), "old_kbps", BDP_RATES, "old link (kb/s / ms); new link 6400 kb/s / 9 ms"),
        Study("fig17", "Figure 17: regular vs enhanced TCP, handoff from a low-delay to a 300 ms link, same bandwidth",
              delay_pairs(True, (1600, 6400), DELAYS), delay_pairs(True, (1600, 6400), QE_DELAYS), "old_ms", DELAYS,
              DELAY_X.format("old", "new"), "old_kbps", (1600, 6400), "{} kb/s links", (1600, 6400), **QE),
        Study("fig18", "Figure 18: regular vs enhanced TCP, handoff from a 300 ms link to a low-delay link, 1600 kb/s",
              delay_pairs(False, (1600,), DELAYS), delay_pairs(False, (1600,), QE_DELAYS), "new_ms", DELAYS,
              DELAY_X.format("new", "old"), **QE),
        Study("fig19", "Figure 19: regular vs enhanced TCP, handoff from a 300 ms link to a low-delay link, 200 kb/s",
              delay_pairs(False, (200,), DELAYS), delay_pairs(False, (200,), QE_DELAYS), "new_ms", DELAYS,
              DELAY_X.format("new", "old"), **QE),
        Study("fig21", "Figure 21: regular vs enhanced TCP, make-before-break handoff from 6400 kb/s to a lower "
              "bandwidth, same delay", rate_pairs(False, (300, 9), RATES), rate_pairs(False, (300, 9), QE_RATES),
              "new_kbps", RATES, RATE_X.format("new", "old"), "new_ms", (300, 9), "{} ms links", (300, 9),
              kinds=("MBB",), **QE),
        Study("fig22", "Figure 22: regular vs enhanced TCP, handoff from a lower bandwidth to 6400 kb/s, 9 ms links",
              rate_pairs(True, (9,), RATES), rate_pairs(True, (9,), QE_RATES), "old_kbps", RATES,
              RATE_X.format("old", "new"), **QE),
        Study("fig23", "Figure 23: regular vs enhanced TCP with A2 and with A5, make-before-break handoff to 200 kb/s / "
              "300 ms from links of the same BDP: (a) transfer time, (b) dropped packets", bdp_pairs(True),
              bdp_pairs(True, (Link(800, 75), Link(6400, 9))), "old_kbps", BDP_RATES,
              "old link (kb/s / ms); new link 200 kb/s / 300 ms", kinds=("MBB",), drops=True,
              senders=WITH_A5, quick_instants=INSTANTS_QUICK_ENHANCED),
        Study("fig26", "Figure 26: regular vs enhanced TCP, break-before-make handoff to 200 kb/s / 300 ms from links of "
              "the same BDP", bdp_pairs(True), bdp_pairs(True, QE_BDP), "old_kbps", BDP_RATES,
              "old link (kb/s / ms); new link 200 kb/s / 300 ms", kinds=("BBM",), **QE),
        Study("fig27", "Figure 27: regular vs enhanced TCP, handoff to 6400 kb/s / 9 ms from links of the same BDP",
              bdp_pairs(False), bdp_pairs(False, QE_BDP), "old_kbps", BDP_RATES,
              "old link (kb/s / ms); new link 6400 kb/s / 9 ms", **QE),
    ]


# `--robustness N`: what a real setup would vary. No seeds: nothing in these runs is random.
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms")),
                            "No seeds: the study has no random element (the spread comes from the handoff instants)")
# `--ambiguities`: the enhanced sender's readings the paper leaves open (docs/schemes.md, A13 and A14).
AMBIGUITIES = (
    Alternative("reinit-rto-6s", "A13: the re-initialized RTO is ns-2.29's initial RTO, 6 s",
                {"flows.bulk.tcp.handover.reinit_rto": "6s"},
                ours="`reinit_rto = 3s` (presets enhanced, enhanced-a5): RFC 2988's initial RTO"),
    Alternative("significant-delay-1.5", "A14: a delay change counts as 'significant' from a factor 1.5",
                {"flows.bulk.tcp.handover.significant_delay_factor": "1.5"},
                ours="`significant_delay_factor = 2` (presets enhanced, enhanced-a5): a doubling, our reading of "
                     "'significant'"),
    rfc_defaults("a 1 ms clock instead of ns-2's 10 ms tick and an initial window of 3 (RFC 5681 \u00a73.1 for 1460 B) "
                 "instead of 2; base.toml sets the senders' RTO timers (ns-2.29's), window and delayed-ACK sink"),
)


def _paper() -> Paper:
    from . import danielkojo_cases as K
    from . import danielkojo_claims as C

    figures = tuple(s.figure(C.CLAIMS[s.id]) for s in studies()) + K.figures()
    return Paper(
        name="danielkojo",
        title="Daniel & Kojo: TCP with vertical handoffs, regular and enhanced TCP (Figures 2-7, 17-27 and the case "
              "studies)",
        citation="L. Daniel and M. Kojo, 'Employing cross-layer assisted TCP algorithms to improve TCP performance "
                 "with vertical handoffs', Int. J. Communication Networks and Distributed Systems 1(4/5/6), "
                 "pp. 433-465, 2008. Regular TCP = ns-2 Sack1 (preset sack); enhanced TCP = presets enhanced "
                 "(A1+A2+A3+A4) and enhanced-a5 (A1+A5+A3+A4). Settings, choices and differences: "
                 "docs/reproductions.md#danielkojo.",
        figures=figures, names={**NAMES, "kind": {"MBB": "MBB", "BBM": "BBM"}},
        perturbation=PERTURBATION, ambiguities=AMBIGUITIES)


def __getattr__(name: str):
    """``PAPER`` is assembled on first use (PEP 562): the case studies' module imports this one."""
    if name == "PAPER":
        globals()["PAPER"] = paper = _paper()
        return paper
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
