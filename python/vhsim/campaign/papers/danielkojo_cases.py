"""Daniel & Kojo (2008) case studies (Figures 8, 9, 10, 12, 14, 20, 24): one run per sender at the
paper's handoff instant, packet traces kept, and the paper's statements about each.

Each run's story (:func:`vhsim.campaign.story.run_story`: RTO times and whether each was
spurious, retransmissions, drops per link in the case's window, the sender's state at the
notification) becomes per-run columns that the claims read.  The regular-TCP claims compare our
sequence of RTOs with the paper's (each within 0.25 s, spurious where the paper says so) and our
counts with the paper's.

The paper's worked values of A1 and A2 (minrto 552 ms with FlightSize 21, 1220 ms, 2.12 s; cwnd
cut to 11 with 39 in flight) are asserted by the simulator's scripted tests
(crates/vhsim-tcp/tests/crosslayer.rs).  Here nothing is recomputed: the simulator reports each
A1/A2/A5/A3 decision with the numbers it read and set (summary ``flows.bulk.decisions``;
:func:`vhsim.campaign.story.decisions`), and a *consistency test* checks that the state the
sender traced right after the decision is the one the decision set, reported with the paper's
numbers beside ours, never a reproduced claim.  When our run does not reach the paper's
situation the test is "not reached", with the simulator's numbers saying why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .. import metrics as M
from ..claims import (CONSISTENCY, AllOf, Band, Check, Engagement, Events, Gain, Given, Level, Measure, NotCheckable,
                      NotInResults, Ordering, above, around)
from ..figures import Col, FigureSpec, Table
from ..plots import SideBySide
from ..story import run_story, story_columns
from ...wording import counted, occurrences
from .danielkojo import ENHANCED, WITH_A5, Link, derive, grid

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

EXACT = 1e-9           # the decision and the time series carry the same doubles
REG, ENH, A5 = {"sender": "regular"}, {"sender": "enhanced"}, {"sender": "enhanced-a5"}
T100 = Measure("t100", "median", unit=" s", digits=2, name="time to 100 packets ACKed")
SPURIOUS = Measure(M.handover("bulk", M.SPURIOUS_RTOS), digits=0, name="spurious RTOs")
NEW_DROPS = Measure("story.new_drops", digits=0, name="new-link drops:")


# Engagement: the decisions that show a rule acted (the simulator's rule names; "a1_no_case" and
# "a2_no_cut" are decisions not to act), counted per run from the notification on.
ACTED = {"a1": ("a1_case1", "a1_case2", "a1_case3"), "a2": ("a2_cut",), "a3": ("a3",), "a5": ("a5_cut",)}
A1_ACTED = Engagement("A1 (the RTO raised to minrto)", ("story.acted.a1",), where=ENH)
A2_ACTED = Engagement("A2 (the window cut to the new BDP)", ("story.acted.a2",), where=ENH)
A5_ACTED = Engagement("A5 (the window cut to the new BDP)", ("story.acted.a5",), where=A5)


def _run(ctx, sender: str) -> "pd.Series":
    rows = ctx.table[ctx.table["sender"] == sender]
    if len(rows) != 1:
        raise (NotInResults if not len(rows) else NotCheckable)(f"expected one {sender} run, found {len(rows)}")
    return rows.iloc[0]


def _ms(x: float) -> str:
    return f"{1e3 * x:.2f} ms"


def _not_taken(story, rules: tuple[str, ...], what: str, paper: str) -> NotCheckable:
    """Why the run never reached ``rules``, in the simulator's own numbers."""
    b = story.before
    if b.state == M.LOSS:
        return NotCheckable(f"{story.describe()}: in RTO recovery, where {what} does not act; {paper}")
    took = "; ".join(f"{d.rule} at {d.time_s:.3f} s ({_inputs(d)})" for d in story.decisions) or "no decision"
    return NotCheckable(f"{story.describe()}: the sender took {took}, not {' or '.join(rules)}; {paper}")


def _inputs(d) -> str:
    i = d.inputs
    if d.rule.startswith("a1"):
        return (f"FlightSize {i['flight_pkts']:.0f}, RTT_old_newlink {_ms(i.get('rtt_old_newlink_s', math.nan))}, "
                f"RTO {_ms(i['rto_s'])}, in fast recovery: {'yes' if i.get('in_fast_recovery_bool') else 'no'}")
    if d.rule.startswith(("a2", "a5")):
        return (f"FlightSize {i['flight_pkts']:.0f}, BDP_newlink {i['bdp_newlink_pkts']:.2f}, threshold "
                f"{i['threshold_pkts']:.2f}")
    return ", ".join(f"{k} {v:g}" for k, v in i.items())


def a1_test(case: int, paper_flight: int, paper_ms: float) -> Check:
    """A1 in our enhanced run: the simulator's Case ``case`` decision, and the RTO the sender
    traced right after it is the one the decision set, max(RTO, minrto)."""
    rule = f"a1_case{case}"

    def fn(ctx) -> tuple[bool, str]:
        story = _run(ctx, "enhanced")["story"]
        paper = f"paper: {paper_ms:g} ms with FlightSize {paper_flight}"
        taken = story.decided(rule)
        if not taken:
            raise _not_taken(story, (rule,), "A1", paper)
        d = taken[0]
        i, o = d.inputs, d.outputs
        base = "RTT_old_newlink" if case == 1 else "RTT_newlink"
        rate = "BW_new" if case == 3 else "BW_old"
        traced = d.after.rto_s
        holds = abs(traced - o["rto_s"]) <= EXACT and abs(o["rto_s"] - max(i["rto_s"], o["minrto_s"])) <= EXACT
        return holds, (f"{paper}; ours: Case {case} at {d.time_s:.3f} s with FlightSize {i['flight_pkts']:.0f}: "
                       f"minrto {_ms(o['minrto_s'])} ({base} {_ms(i[f'{base.lower()}_s'])} + FlightSize/{rate} "
                       f"{_ms(i['drain_s'])} + {_ms(i['rest_of_path_s'])}); RTO {_ms(i['rto_s'])} -> "
                       f"{_ms(o['rto_s'])}; traced after it: {_ms(traced)}")
    return Check(f"A1 Case {case} sets the RTO to max(RTO, minrto) at once (the simulator's decision against the "
                 "sender's traced RTO).", paper=f"{paper_ms:g} ms", category=CONSISTENCY, fn=fn,
                 rule="traced RTO = the decision's = max(RTO, minrto)")


def cut_test(sender: str, factor: float, paper: str) -> Check:
    """A2 (factor 2) or A5 (1.5): the simulator's cut decision at the notification (FlightSize >
    factor x BDP_newlink, not in RTO recovery), and the cwnd and ssthresh the sender traced right
    after it are the ones the decision set."""
    name = "A5" if factor < 2 else "A2"
    cut = f"{name.lower()}_cut"

    def fn(ctx) -> tuple[bool, str]:
        story = _run(ctx, sender)["story"]
        taken = story.decided(cut)
        if not taken:
            raise _not_taken(story, (cut,), f"the {name} cut", f"paper: {paper}")
        d = taken[0]
        i, o, a = d.inputs, d.outputs, d.after
        holds = (i["flight_pkts"] > i["threshold_pkts"] and abs(a.cwnd - o["cwnd_pkts"]) <= EXACT
                 and abs(a.ssthresh - o["ssthresh_pkts"]) <= EXACT)
        return holds, (f"paper: {paper}; ours: {_inputs(d)} (factor {factor:g}): cwnd = ssthresh = "
                       f"{o['cwnd_pkts']:.0f}; traced after it: cwnd {a.cwnd:.1f}, ssthresh {a.ssthresh:.0f}")
    return Check(f"{name} cuts cwnd = ssthresh to max(2, BDP_newlink) at the notification when FlightSize > "
                 f"{factor:g} x BDP_newlink ({sender}; the simulator's decision against the sender's traced state).",
                 paper=paper, category=CONSISTENCY, fn=fn, rule="traced cwnd, ssthresh = the decision's")


def _a3(ctx) -> tuple[bool, str]:
    e, r = _run(ctx, "enhanced"), _run(ctx, "regular")
    if e["story.before_state"] != M.LOSS or not e["story.acted.a3"]:
        raise NotCheckable(f"enhanced TCP is '{e['story.before_state']}' at the notification, not in RTO recovery, "
                           "so A3 does not act")
    saved, after, gap = e["story.a3_saved_ssthresh"], e["story.a3_ssthresh_after"], e["story.first_retransmit_delay_s"]
    holds = gap <= 1e-3 and after == saved and saved > 2 and e["story.rtos"] == 1
    return holds, (f"enhanced: first retransmission {1e3 * gap:.1f} ms after the notification; ssthresh saved at the "
                   f"first RTO {saved:.0f}, traced after A3 {after:.0f}; {occurrences('RTO', e['story.rto_s'])}; "
                   f"regular: first retransmission {1e3 * r['story.first_retransmit_delay_s']:.0f} ms after the "
                   f"reconnection, {occurrences('RTO', r['story.rto_s'])}")


def rtos(text: str, *expected) -> Events:
    return Events(f"Regular TCP: {text}", paper=", ".join(f"{t:g} s" for t, _ in expected), times="story.rto_s",
                  flags="story.rto_spurious", expected=expected, where=REG)


def no_spurious_and_faster(text: str, sender: dict = ENH) -> AllOf:
    """``sender`` avoids the spurious RTO regular TCP has here and is faster (not checkable where
    regular TCP has none: there is nothing to avoid, or where A1 did not act: nothing was tested)."""
    return AllOf(text, paper="no spurious RTO, faster", given=Given(SPURIOUS, REG, above(0), "regular TCP has a "
                                                                     "spurious RTO at this instant"), parts=(
        Level("", measure=SPURIOUS, where=sender, band=Band(0, 0)), faster("", sender)),
        engages=(replace(A1_ACTED, where=sender),))


def faster(text: str, sender: dict = ENH, than: dict = REG, strict: bool = True) -> Gain:
    return Gain(text, paper="faster", measure=T100, a=sender, b=than, reduction=True, band=above(0, strict))


def fewer_drops(text: str, sender: dict, band: Band, engages: tuple[Engagement, ...] = ()) -> AllOf:
    return AllOf(text, paper="fewer new-link drops", engages=engages, parts=(
        Level("", measure=NEW_DROPS, where=sender, band=band),
        Ordering("", measure=NEW_DROPS, axis="sender", top=(sender["sender"],), lowest=True,
                 among=(sender["sender"], "regular"))))


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    old: Link
    new: Link
    kind: str
    at: str
    claims: tuple
    window_s: int = 5     # RTOs (metrics.handover_window) and drops are counted until the handoff + this
    senders: tuple[str, ...] = ENHANCED

    def derive(self, camp, df: "pd.DataFrame") -> "pd.DataFrame":
        out = derive(camp, df)
        stories = [run_story(camp.trace_for(row), self.window_s) for _, row in df.iterrows()]
        for key in story_columns(stories[0]):
            out[key] = [story_columns(s)[key] for s in stories]
        out["story"] = stories
        out["story.new_drops"] = [len(s.drops_s.get(M.link_direction("new"), [])) for s in stories]
        for family, rules in ACTED.items():
            out[f"story.acted.{family}"] = [len(s.decided(*rules)) for s in stories]
        a3 = [s.decided("a3")[0] if s.decided("a3") else None for s in stories]
        out["story.a3_saved_ssthresh"] = [d.inputs["saved_ssthresh_pkts"] if d else math.nan for d in a3]
        out["story.a3_ssthresh_after"] = [d.after.ssthresh if d and d.after else math.nan for d in a3]
        return out

    def table(self, table: "pd.DataFrame") -> str:
        tab = Table(("sender",), (
            Col("time to 100 packets ACKed", T100), Col("RTOs", Measure(M.handover("bulk", M.RTOS), digits=0)),
            Col("spurious RTOs", SPURIOUS), Col("spurious retransmissions",
                                                Measure(M.handover("bulk", M.SPURIOUS_RETRANSMISSIONS), digits=0)),
            Col("gap drops", Measure("gap_drops", digits=0)), Col("new-link overflows", Measure("new_drops", digits=0))))
        lines = [f"* {r['sender']}: {s.describe()}; {occurrences('RTO', s.rto_s)}; "
                 f"{occurrences('fast recovery', s.fast_retransmit_s, 'fast recoveries')}; "
                 f"{counted(int(r['story.new_drops']), 'new-link drop')} in the {self.window_s} s after the handoff."
                 for (_, r), s in zip(table.iterrows(), table["story"])]
        return tab.render(table, {}) + "\n\n" + "\n".join(lines)

    def figure(self) -> FigureSpec:
        # Whole runs: the plots show the traces to the end.
        fixed = {"metrics.stop": "end", **({"metrics.handover_window": f"{self.window_s}s"} if self.window_s != 5 else {})}
        g = grid([(self.old, self.new)], [self.at], (self.kind,), self.senders, detail="packets", fixed=fixed)
        return FigureSpec(self.id, self.title, g, plot=SideBySide("sender", after_s=max(3.0, self.window_s)),
                          claims=self.claims, table=self.table, derive=self.derive, deterministic=True)


def a1_avoids(case: int, paper_flight: int, paper_ms: float) -> tuple[AllOf, Check]:
    """Cases 2 and 3: enhanced TCP avoids the spurious RTO, and A1's formula in our run."""
    return (no_spurious_and_faster(f"Enhanced TCP (A1, Case {case}) avoids regular TCP's spurious RTO, and gets 100 "
                                   "packets ACKed sooner."), a1_test(case, paper_flight, paper_ms))


SEVERAL, MANY = Band(3, 10, words='"several" read as 3-10'), above(10, strict=False, words='"many" read as >= 10')
# A5's gains are over A2's losses: where A2 loses nothing on the new link there is nothing to eliminate.
A2_LOSES = Given(NEW_DROPS, ENH, above(0), "enhanced TCP with A2 loses packets on the new link (nothing for A5 "
                 "to eliminate otherwise)")
CASES = (
    Case("fig8", "Figure 8: make-before-break handoff at 8.2 s from 6400 kb/s / 9 ms to 200 kb/s / 300 ms",
         Link(6400, 9), Link(200, 300), "MBB", "8.2s", (
             rtos("the handoff causes a spurious RTO at 8.4 s, then another spurious RTO at 9.7 s.", (8.4, True),
                  (9.7, True)),
             Level("Regular TCP then retransmits a full window unnecessarily: 21 segments after the first RTO (counted "
                   "until the next RTO).", paper="21", measure=Measure("story.retransmissions_after_first_rto",
                   digits=0, name="retransmissions after the first RTO:"), band=around(21), where=REG),
             no_spurious_and_faster("Enhanced TCP (A1): no spurious RTO after the handoff, and 100 packets ACKed "
                                    "sooner than regular TCP."),
             a1_test(1, 21, 552))),
    Case("fig9", "Figure 9: make-before-break handoff at 6.0 s from 800 kb/s / 75 ms to 200 kb/s / 300 ms",
         Link(800, 75), Link(200, 300), "MBB", "6s", (
             rtos("in fast recovery when the handoff occurs (fast retransmit at 5.9 s), it suffers a spurious RTO at "
                  "6.3 s although the delay only grows 4-fold (Case 2).", (6.3, True)),
             *a1_avoids(2, 24, 1220))),
    Case("fig10", "Figure 10: make-before-break handoff at 10.9 s from 400 kb/s / 150 ms to 200 kb/s / 300 ms",
         Link(400, 150), Link(200, 300), "MBB", "10.9s", (
             rtos("it enters fast recovery after the handoff (11.6 s) and the queue on the new link delays the fast "
                  "retransmission into a spurious RTO at 12.4 s, with only a 2-fold delay change (Case 3).",
                  (12.4, True)),
             *a1_avoids(3, 21, 2120))),  # the paper says 22 outstanding, but its 2.12 s is the formula with 21
    Case("fig12", "Figure 12: make-before-break handoff at 6.5 s from 1600 kb/s / 75 ms to 400 kb/s / 150 ms",
         Link(1600, 75), Link(400, 150), "MBB", "6.5s", (
             Level("Regular TCP keeps sending at the old rate after the handoff and several packets (from segment 764) "
                   "are lost on the new link (counted in the 5 s after the handoff).", paper="several",
                   measure=NEW_DROPS, band=SEVERAL, where=REG),
             cut_test("enhanced", 2, "FlightSize 39 > 2 x BDP 11: cwnd = ssthresh = 11"),
             fewer_drops("Enhanced TCP avoids the congestion losses on the new link (none in the 5 s after the "
                         "handoff, fewer than regular TCP).", ENH, Band(0, 0), (A2_ACTED,)),
             faster("...and gets 100 packets ACKed sooner than regular TCP (which needs ~2.5 s to recover)."))),
    Case("fig14", "Figure 14: break-before-make handoff (500 ms gap) at 7.0 s from 6400 kb/s / 9 ms to 6400 kb/s / "
         "300 ms", Link(6400, 9), Link(6400, 300), "BBM", "7s", (
             rtos("the retransmission timer expires during the 500 ms gap (7.2 s) and again after it (7.6 s), so "
                  "ssthresh ends at 2.", (7.2, None), (7.6, None)),
             AllOf("Most of the packets outstanding at the handoff are lost in the gap: 18 of 20 (3427-3446 but 3428 "
                   "and 3430); checked on the count lost.", paper="18 of 20", where=REG, parts=(
                       Level("", measure=Measure("story.outstanding", digits=0, name="outstanding at the handoff:"),
                             band=Band(words="shown, not judged")),
                       Level("", measure=Measure("story.lost_outstanding", digits=0, name="lost in the gap:"),
                             band=around(18)))),
             Check("A3: in RTO recovery when the link comes back (7.5 s), enhanced TCP retransmits the first unACKed "
                   "segment at once (within 1 ms of the notification), restores the ssthresh saved at the first RTO "
                   "(above 2, where regular TCP ends) and reduces ssthresh only once (no RTO after the one in the "
                   "gap).", paper="retransmission at 7.5 s", fn=_a3,
                   rule="first retransmission within 1 ms; ssthresh restored and > 2; one RTO"),
             faster("Enhanced TCP gets 100 packets ACKed sooner than regular TCP."))),
    Case("fig20", "Figure 20: make-before-break handoff at 15.0 s from 1600 kb/s / 300 ms to 1600 kb/s / 1 ms",
         Link(1600, 300), Link(1600, 1), "MBB", "15s", (
             rtos("with 124 packets outstanding and the BDP falling from 80 packets to one, fast recovery (15.62 s) "
                  "cannot repair all losses: RTO recoveries at 17.08, 20.01 and 25.77 s.", (17.08, None),
                  (20.01, None), (25.77, None)),
             Level("Many packets are lost to the new link's small buffer (counted in the 11 s after the handoff).",
                   paper="many", measure=NEW_DROPS, band=MANY, where=REG),
             cut_test("enhanced", 2, "124 outstanding: cwnd cut to the new BDP"),
             fewer_drops("Enhanced TCP avoids the congestion losses on the new link: fewer new-link drops than regular "
                         "TCP in the 11 s after the handoff (the paper: only an occasional later drop).", ENH,
                         Band(0, math.inf), (A2_ACTED,)),
             faster("Enhanced TCP gets 100 packets ACKed sooner than regular TCP.")), window_s=11),
    Case("fig24", "Figure 24: make-before-break handoff at 8.9 s from 1600 kb/s / 37 ms to 200 kb/s / 300 ms",
         Link(1600, 37), Link(200, 300), "MBB", "8.9s", (
             rtos("a spurious RTO at 9.1 s; the unnecessary retransmissions congest the new link and another RTO, at "
                  "10.18 s, recovers the packets lost there.", (9.1, True), (10.18, False)),
             no_spurious_and_faster("Enhanced TCP with A2: no spurious RTO (A1) and 100 packets ACKed sooner than "
                                    "regular TCP."),
             fewer_drops("With A2 the window is not cut (FlightSize < 2 x BDP_newlink) and the burst of 16 new packets "
                         "loses some on the new link, fewer than regular TCP (a fast retransmit at 10.7 s); checked "
                         "as at least one drop in the 5 s after the handoff, fewer than regular.", ENH,
                         Band(1, math.inf)),
             cut_test("enhanced-a5", 1.5, "FlightSize between 1.5 and 2 x BDP: window cut to the BDP"),
             Level("A5 eliminates the packet losses: no new-link drop in the 5 s after the handoff.", paper="none",
                   measure=NEW_DROPS, where=A5, band=Band(0, 0), given=A2_LOSES, engages=(A5_ACTED,)),
             replace(faster("A5's transfer is slightly shorter than A2's (no losses to recover); checked as not "
                            "longer.", A5, ENH, strict=False), given=A2_LOSES, engages=(A5_ACTED,))), senders=WITH_A5),
)


def figures() -> tuple[FigureSpec, ...]:
    return tuple(case.figure() for case in CASES)
