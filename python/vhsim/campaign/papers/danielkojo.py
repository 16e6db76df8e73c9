"""The ``danielkojo`` reproduction: Daniel & Kojo (2008), TCP across vertical handoffs.

Regular TCP (ns-2 Sack1, vhsim's ``sack``): Figures 2-7 (the three experiment classes of §4 in
both directions).  Regular against enhanced TCP (§6; presets ``enhanced`` = A1+A2+A3+A4 and
``enhanced-a5`` = A1+A5+A3+A4): Figures 17-19, 21-23, 26 and 27, Figure 23 with A2 against A5
and the dropped packets as its panel (b).  The time-sequence case studies (Figures 8, 9, 10,
12, 14, 20 and 24) run every sender at the paper's handoff instant, side by side.

Base scenario ``scenarios/danielkojo/base.toml``; configurations, buffers, instants and
horizons: :mod:`.danielkojo_setup`; metrics: :mod:`.danielkojo_analysis`; the paper's claims:
:mod:`.danielkojo_claims` (§4), :mod:`.danielkojo_claims6` (§6) and :mod:`.danielkojo_cases`
(the case studies' enhanced side); plots: :mod:`.danielkojo_plots`.  docs/reproductions.md sets
the claims beside our numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from ..plots import run_overview
from ..reproduce import Claim, FigureSpec, Paper, markdown_table
from ..spec import CampaignSpec
from . import danielkojo_cases as K
from . import danielkojo_claims as C
from . import danielkojo_claims6 as E
from . import danielkojo_setup as S
from .danielkojo_analysis import annotate, compare, seconds, summary
from .danielkojo_plots import case_studies, quartile_panels

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign


@dataclass(frozen=True)
class Study:
    """One of Figures 2-7: which link pairs, what varies along x, what fixes each panel."""

    id: str
    title: str
    pairs: Callable[[bool], list[S.Pair]]  # quick -> pairs
    x: str                                 # analysis column varied along x
    x_order: tuple[int, ...]
    x_labels: tuple[str, ...]
    xlabel: str
    panel: str | None
    panel_order: tuple[int, ...]
    panel_title: str
    paper_panels: tuple[int, ...]
    claims: tuple[Claim, ...]
    senders: tuple[str, ...] = ("regular",)
    kinds: tuple[str, ...] = ("MBB", "BBM")
    drops: bool = False                      # also count the new link's drops in a window (Figure 23b)
    quick_instants: int = S.INSTANTS_QUICK

    def campaign(self, quick: bool) -> CampaignSpec:
        return S.spec_for(S.points(self.pairs(quick), quick, kinds=self.kinds, senders=self.senders, drops=self.drops,
                                   quick_instants=self.quick_instants))

    def plot(self, camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
        return quartile_panels(df, out / f"{self.id}-transfer-time", x=self.x, x_order=self.x_order,
                               x_labels=self.x_labels, panel=self.panel, panel_order=self.panel_order,
                               panel_title=self.panel_title, xlabel=self.xlabel, title=self.title,
                               paper_panels=self.paper_panels, drops=self.drops)

    def table(self, df: "pd.DataFrame") -> str:
        text = study_table(df, self)
        for other in self.senders[1:]:
            text += "\n\n" + comparison_table(df, other)
        return text

    def figure(self) -> FigureSpec:
        return FigureSpec(id=self.id, title=self.title, campaign=self.campaign, plot=self.plot,
                          claims=self.claims, table=self.table)


def study_table(df: "pd.DataFrame", study: Study) -> str:
    """Our numbers per configuration: quartiles, censored runs, spurious RTOs, drops."""
    t = summary(annotate(df))
    rows = []
    for _, r in t.iterrows():
        spurious = f"{100 * r['spurious_share']:.0f}%" + ("" if r["kind"] == "MBB" else "*")
        rows.append([r["sender"], f"{r['old_kbps']}/{r['old_ms']}", f"{r['new_kbps']}/{r['new_ms']}", r["kind"],
                     seconds(r["q1"]), seconds(r["median"]), seconds(r["q3"]),
                     f"{r['censored']}/{r['instants']} (> {r['horizon_s']:.0f} s)" if r["censored"] else f"0/{r['instants']}",
                     spurious, f"{r['rtos_mean']:.1f}", f"{r['link_down_drops_median']:.0f}",
                     f"{r['new_overflow_drops_median']:.0f}"]
                    + ([f"{r['window_drops_mean']:.1f} / {r['window_drops_median']:.0f}"] if study.drops else []))
    header = ["sender", "old kb/s / ms", "new kb/s / ms", "kind", "q1", "median", "q3", "not done", "spurious RTO",
              "RTOs (mean)", "gap drops (median)", "new-link overflows (median)"]
    if study.drops:
        header.append(f"new-link drops in {S.DROPS_WINDOW_S} s (mean / median)")
    return ("Time to get 100 new packets ACKed after the handoff over the handoff instants (quartiles); runs that "
            "had not got there by the end of their horizon are ranked above all others and counted in *not done*; "
            "*spurious RTO*: share of instants with at least one (ground truth; * for BBM it also counts RTOs whose "
            "segment arrived while its ACK was lost in the gap); *RTOs*: mean per instant in [handoff, completion + "
            "5 s); *gap drops*: data packets the old link dropped while down; *new-link overflows*: drops at the new "
            "link's buffer until the end of the run"
            + (f"; *new-link drops in {S.DROPS_WINDOW_S} s*: the same in [handoff, handoff + {S.DROPS_WINDOW_S} s), "
               "from a second, short run of each configuration" if study.drops else "")
            + ".\n\n" + markdown_table(header, rows))


def comparison_table(df: "pd.DataFrame", other: str) -> str:
    """``other`` against regular TCP per configuration: medians, upper quartiles, reductions."""
    c = compare(summary(annotate(df)), other)
    rows = []
    for _, r in c.iterrows():
        row = [r["kind"], f"{r['old_kbps']}/{r['old_ms']}", f"{r['new_kbps']}/{r['new_ms']}",
               seconds(r["base_median"]), seconds(r["other_median"]), E._pct(r["reduction"]),
               seconds(r["base_q3"]), seconds(r["other_q3"]), E._pct(r["q3_reduction"]),
               f"{100 * r['base_spurious']:.0f}% / {100 * r['other_spurious']:.0f}%"]
        if r["base_drops"] == r["base_drops"]:  # not nan
            row.append(f"{r['base_drops']:.1f} / {r['other_drops']:.1f}")
        rows.append(row)
    header = ["kind", "old", "new", "regular median", f"{other} median", "reduction", "regular q3", f"{other} q3",
              "q3 reduction", "spurious RTO (regular / " + other + ")"]
    if len(c) and c["base_drops"].notna().any():
        header.append(f"new-link drops in {S.DROPS_WINDOW_S} s, mean (regular / {other})")
    return (f"**{other} against regular TCP** (reduction = 1 - {other} / regular, of the median and of the upper "
            "quartile):\n\n" + markdown_table(header, rows))


DELAY_LABELS = tuple(str(d) for d in S.DELAYS_VARIED)
RATE_LABELS = tuple(str(r) for r in S.RATES_VARIED)
BDP_ORDER = tuple(link.kbps for link in S.SAME_BDP)
BDP_LABELS = tuple(f"{link.kbps}/{link.ms}" for link in S.SAME_BDP)

STUDIES = (
    Study("fig2", "Figure 2: handoff from a low-delay to a 300 ms link, same bandwidth",
          lambda quick: S.delay_pairs(increase=True, quick=quick), "old_ms", S.DELAYS_VARIED, DELAY_LABELS,
          "delay of the old link (ms); new link 300 ms", "old_kbps", S.DELAY_CLASS_RATES, "{} kb/s links",
          (200, 6400), C.FIG2),
    Study("fig3", "Figure 3: handoff from a 300 ms link to a low-delay link, same bandwidth",
          lambda quick: S.delay_pairs(increase=False, quick=quick), "new_ms", S.DELAYS_VARIED, DELAY_LABELS,
          "delay of the new link (ms); old link 300 ms", "new_kbps", S.DELAY_CLASS_RATES, "{} kb/s links",
          (200, 1600), C.FIG3),
    Study("fig4", "Figure 4: handoff from a 6400 kb/s link to a lower-bandwidth link, same delay",
          lambda quick: S.rate_pairs(increase=False, quick=quick), "new_kbps", S.RATES_VARIED, RATE_LABELS,
          "bandwidth of the new link (kb/s); old link 6400 kb/s", "new_ms", S.RATE_CLASS_DELAYS, "{} ms links",
          (9, 300), C.FIG4),
    Study("fig5", "Figure 5: handoff from a lower-bandwidth link to a 6400 kb/s link, same delay",
          lambda quick: S.rate_pairs(increase=True, quick=quick), "old_kbps", S.RATES_VARIED, RATE_LABELS,
          "bandwidth of the old link (kb/s); new link 6400 kb/s", "old_ms", S.RATE_CLASS_DELAYS, "{} ms links",
          (9, 300), C.FIG5),
    Study("fig6", "Figure 6: handoff to 200 kb/s / 300 ms from links of the same BDP (10 packets)",
          lambda quick: S.same_bdp_pairs(to_slow=True, quick=quick), "old_kbps", BDP_ORDER, BDP_LABELS,
          "old link (kb/s / ms); new link 200 kb/s / 300 ms", None, (), "", (), C.FIG6),
    Study("fig7", "Figure 7: handoff to 6400 kb/s / 9 ms from links of the same BDP (10 packets)",
          lambda quick: S.same_bdp_pairs(to_slow=False, quick=quick), "old_kbps", BDP_ORDER, BDP_LABELS,
          "old link (kb/s / ms); new link 6400 kb/s / 9 ms", None, (), "", (), C.FIG7),
)



# -- §6: regular against enhanced TCP ---------------------------------------------------------------
# Quick mode: 10 instants and two values of the varied parameter (one each side of the paper's
# 8x line where it matters).
Q_DELAYS = (75, 1)
Q_RATES = (200, 1600)
Q_BDP_TO_SLOW_MBB = (S.Link(800, 75), S.Link(6400, 9))
Q_BDP_OTHER = (S.Link(400, 150), S.Link(1600, 37))
Q_N = S.INSTANTS_QUICK_ENHANCED

ENHANCED_STUDIES = (
    Study("fig17", "Figure 17: regular vs enhanced TCP, handoff from a low-delay to a 300 ms link, same bandwidth",
          lambda quick: S.delay_pairs(True, quick, rates=(1600, 6400), quick_delays=Q_DELAYS), "old_ms",
          S.DELAYS_VARIED, DELAY_LABELS, "delay of the old link (ms); new link 300 ms", "old_kbps", (1600, 6400),
          "{} kb/s links", (1600, 6400), E.FIG17, senders=S.ENHANCED, quick_instants=Q_N),
    Study("fig18", "Figure 18: regular vs enhanced TCP, handoff from a 300 ms link to a low-delay link, 1600 kb/s",
          lambda quick: S.delay_pairs(False, quick, rates=(1600,), quick_delays=Q_DELAYS), "new_ms",
          S.DELAYS_VARIED, DELAY_LABELS, "delay of the new link (ms); old link 300 ms", None, (), "", (), E.FIG18,
          senders=S.ENHANCED, quick_instants=Q_N),
    Study("fig19", "Figure 19: regular vs enhanced TCP, handoff from a 300 ms link to a low-delay link, 200 kb/s",
          lambda quick: S.delay_pairs(False, quick, rates=(200,), quick_delays=Q_DELAYS), "new_ms",
          S.DELAYS_VARIED, DELAY_LABELS, "delay of the new link (ms); old link 300 ms", None, (), "", (), E.FIG19,
          senders=S.ENHANCED, quick_instants=Q_N),
    Study("fig21", "Figure 21: regular vs enhanced TCP, make-before-break handoff from 6400 kb/s to a lower "
          "bandwidth, same delay", lambda quick: S.rate_pairs(False, quick, delays=(300, 9), quick_rates=Q_RATES),
          "new_kbps", S.RATES_VARIED, RATE_LABELS, "bandwidth of the new link (kb/s); old link 6400 kb/s", "new_ms",
          (300, 9), "{} ms links", (300, 9), E.FIG21, senders=S.ENHANCED, kinds=("MBB",), quick_instants=Q_N),
    Study("fig22", "Figure 22: regular vs enhanced TCP, handoff from a lower bandwidth to 6400 kb/s, 9 ms links",
          lambda quick: S.rate_pairs(True, quick, delays=(9,), quick_rates=Q_RATES), "old_kbps", S.RATES_VARIED,
          RATE_LABELS, "bandwidth of the old link (kb/s); new link 6400 kb/s", None, (), "", (), E.FIG22,
          senders=S.ENHANCED, quick_instants=Q_N),
    Study("fig23", "Figure 23: regular vs enhanced TCP with A2 and with A5, make-before-break handoff to 200 kb/s / "
          "300 ms from links of the same BDP: (a) transfer time, (b) dropped packets",
          lambda quick: S.same_bdp_pairs(True, quick, olds=Q_BDP_TO_SLOW_MBB), "old_kbps", BDP_ORDER, BDP_LABELS,
          "old link (kb/s / ms); new link 200 kb/s / 300 ms", None, (), "", (), E.FIG23, senders=S.WITH_A5,
          kinds=("MBB",), drops=True, quick_instants=Q_N),
    Study("fig26", "Figure 26: regular vs enhanced TCP, break-before-make handoff to 200 kb/s / 300 ms from links of "
          "the same BDP", lambda quick: S.same_bdp_pairs(True, quick, olds=Q_BDP_OTHER), "old_kbps", BDP_ORDER,
          BDP_LABELS, "old link (kb/s / ms); new link 200 kb/s / 300 ms", None, (), "", (), E.FIG26,
          senders=S.ENHANCED, kinds=("BBM",), quick_instants=Q_N),
    Study("fig27", "Figure 27: regular vs enhanced TCP, handoff to 6400 kb/s / 9 ms from links of the same BDP",
          lambda quick: S.same_bdp_pairs(False, quick, olds=Q_BDP_OTHER), "old_kbps", BDP_ORDER, BDP_LABELS,
          "old link (kb/s / ms); new link 6400 kb/s / 9 ms", None, (), "", (), E.FIG27, senders=S.ENHANCED,
          quick_instants=Q_N),
)


# -- case studies ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CaseStudy:
    """One time-sequence figure: one run per sender at the paper's handoff time, side by side."""

    id: str
    title: str
    pair: S.Pair
    kind: str
    at: str
    claims: tuple[Claim, ...]
    after_s: float = 3.0                   # how far past the handoff the zoomed plot goes
    window_s: int = 5                      # RTOs (metrics.handover_window) and drops are counted until the handoff + this
    senders: tuple[str, ...] = S.ENHANCED

    def campaign(self, quick: bool) -> CampaignSpec:
        # One run per sender, cheap in either mode; packet traces kept for the plots.
        fixed = [("metrics.handover_window", f"{self.window_s}s")] if self.window_s != 5 else []
        return S.spec_for(S.points([self.pair], quick, kinds=(self.kind,), senders=self.senders, at=(self.at,)),
                          detail="packets", fixed=fixed)

    def plot(self, camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
        files = case_studies(camp, out / f"{self.id}-time-sequence", self.title, senders=self.senders,
                             after_s=self.after_s)
        for config, sender in enumerate(self.senders):
            files += run_overview(camp, out / f"{self.id}-{sender}-whole-run", config=config)
        return files

    def table(self, df: "pd.DataFrame") -> str:
        rows = []
        for _, r in df.iterrows():
            t = r[S.TIME]
            rows.append([r[S.SENDER], seconds(float(t)) if t == t else "not done", int(r[S.RTOS]),
                         int(r[S.SPURIOUS_RTOS]), int(r[S.SPURIOUS_RETX]), int(r[S.OLD_LINK_DOWN]),
                         int(r[S.NEW_OVERFLOWS])])
        text = markdown_table(["sender", "time to 100 packets ACKed", "RTOs", "spurious RTOs",
                               "spurious retransmissions", "gap drops", "new-link overflows"], rows)
        try:
            text += "\n\n" + K.describe_runs(df, self.window_s)
        except (ValueError, OSError, KeyError) as err:  # no traces (a synthetic table): the runs' table only
            text += f"\n\n(traces not read: {err})"
        return text

    def figure(self) -> FigureSpec:
        return FigureSpec(id=self.id, title=self.title, campaign=self.campaign, plot=self.plot,
                          claims=self.claims, table=self.table)


CASES = (
    CaseStudy("fig8", "Figure 8: make-before-break handoff at 8.2 s from 6400 kb/s / 9 ms to 200 kb/s / 300 ms",
              S.Pair(S.Link(6400, 9), S.Link(200, 300)), "MBB", "8.2s", C.FIG8 + K.FIG8),
    CaseStudy("fig9", "Figure 9: make-before-break handoff at 6.0 s from 800 kb/s / 75 ms to 200 kb/s / 300 ms",
              S.Pair(S.Link(800, 75), S.Link(200, 300)), "MBB", "6s", C.FIG9 + K.FIG9),
    CaseStudy("fig10", "Figure 10: make-before-break handoff at 10.9 s from 400 kb/s / 150 ms to 200 kb/s / 300 ms",
              S.Pair(S.Link(400, 150), S.Link(200, 300)), "MBB", "10.9s", C.FIG10 + K.FIG10),
    CaseStudy("fig12", "Figure 12: make-before-break handoff at 6.5 s from 1600 kb/s / 75 ms to 400 kb/s / 150 ms",
              S.Pair(S.Link(1600, 75), S.Link(400, 150)), "MBB", "6.5s", C.FIG12 + K.FIG12),
    CaseStudy("fig14", "Figure 14: break-before-make handoff (500 ms gap) at 7.0 s from 6400 kb/s / 9 ms to "
              "6400 kb/s / 300 ms", S.Pair(S.Link(6400, 9), S.Link(6400, 300)), "BBM", "7s", C.FIG14 + K.FIG14),
    CaseStudy("fig20", "Figure 20: make-before-break handoff at 15.0 s from 1600 kb/s / 300 ms to 1600 kb/s / 1 ms",
              S.Pair(S.Link(1600, 300), S.Link(1600, 1)), "MBB", "15s", C.FIG20 + K.FIG20, after_s=11.0, window_s=11),
    CaseStudy("fig24", "Figure 24: make-before-break handoff at 8.9 s from 1600 kb/s / 37 ms to 200 kb/s / 300 ms",
              S.Pair(S.Link(1600, 37), S.Link(200, 300)), "MBB", "8.9s", C.FIG24 + K.FIG24, senders=S.WITH_A5),
)


def figures(studies: Sequence[Study] = STUDIES + ENHANCED_STUDIES,
            cases: Sequence[CaseStudy] = CASES) -> tuple[FigureSpec, ...]:
    return tuple(s.figure() for s in studies) + tuple(c.figure() for c in cases)


PAPER = Paper(
    name="danielkojo",
    title="Daniel & Kojo: TCP with vertical handoffs, regular and enhanced TCP (Figures 2-7, 17-27 and the case "
          "studies)",
    citation="L. Daniel and M. Kojo, 'Employing cross-layer assisted TCP algorithms to improve TCP performance "
             "with vertical handoffs', Int. J. Communication Networks and Distributed Systems 1(4/5/6), "
             "pp. 433-465, 2008. Regular TCP = ns-2 Sack1 (preset sack); enhanced TCP = presets enhanced "
             "(A1+A2+A3+A4) and enhanced-a5 (A1+A5+A3+A4). The paper's worked values of A1 and A2 are asserted by "
             "crates/vhsim-tcp/tests/crosslayer.rs. Settings, choices and differences: "
             "docs/reproductions.md#danielkojo.",
    figures=figures(),
)
