"""The ``sobral`` reproduction: Sobral, Bernardo & Pinto, "PS-Service Continuity between WLAN and
Cellular Networks: Performance of the TCP Dynamics on Handovers" (technical report).

A 500 kb/s CBR application over TCP NewReno (window_ 40) to a mobile node that starts on 3G,
moves to WLAN at 100 s and back to 3G at 300 s, in three handover types on the same timeline
(scenarios/sobral/): the *user* handover (UH), the *forced* handover (FH: the WLAN fails, the
Delivery Service at the HNAC re-sends its queue by the UTRAN after its 90 ms timeout) and Mobile
IP (MIP: 800 ms binding latency, packets to the old address lost).  Figures 4-7 with all their
panels, the paper's statements about them as claims (:mod:`.sobral_claims`), and variants: the
"Internet" placement of the server, the other reading of the CBR rate ("a packet each 2 ms"),
the user handover modelled as a 16.7 ms pause.

Every run is deterministic (no loss model, no random start): one run per configuration, no
replications.  Runs keep their packet traces; :mod:`.sobral_runs` reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..figures import Col, FigureSpec, Grid, Paper, Table, axis
from ..variants import Alternative, FlowStarts, LinkDelays, Perturbation
from ..claims import Measure
from . import sobral_claims as C
from .sobral_plots import Curve, Panel, Panels, Sequence
from .sobral_runs import with_run_columns

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

BASE = "sobral/cbr-user-handover.toml"
# The keys a configuration sets (every point sets all of them, so the grids share one layout);
# the table's readable column for each.
KEYS = {"timeline[1]": "case", "timeline[0]": "entry", "mobile.binding": "binding", "agents": "active",
        "flows.cbr.scheme": "scheme", "flows.cbr.tcp.recovery": "timer", "links.core.delay": "placement",
        "flows.cbr.app": "reading"}
ENTRY = '{{ at = "{at}", action = "handover", kind = "{kind}", to = "{to}"{extra} }}'
PAUSE = ', duration = "16.7ms"'
DS_ANCHOR = '{ node = "hnac", kind = "delivery_service", interface = "wlan", timeout = "90ms" }'
DS_MOBILE = '{{ node = "mn", kind = "delivery_service", interface = "wlan", ack_size = "40B"{extra} }}'
CORE_MS, INTERNET_MS = "30ms", "100ms"   # calibrated (WLAN RTT 0.14 s) / chosen (docs/reproductions.md)
RATE, INTERVAL = '{ kind = "cbr", rate = "500kbps" }', '{ kind = "cbr", interval = "2ms" }'
ACTIVE_CHOSEN = "2s"   # longer than the 3G RTT (1.11 s) that bounds the reordering after 100 s


@dataclass(frozen=True)
class Point:
    """One configuration: the handover type and the options around it."""

    case: str = "UH"                 # UH, FH, MIP, or UH-pause (the 16.7 ms as a pause of the old link)
    scheme: str = "newreno"          # newreno, sack
    timer: str = "impatient"         # NewReno timer variant (ambiguity A2)
    active: str = "off"              # DS active mode: off, or "<duration>" / "<duration> any"
    placement: str = "core"          # core (30 ms to the server) or internet (100 ms)
    reading: str = "500kbps"         # the CBR rate reading, or "2ms" (a packet each 2 ms)

    def overrides(self) -> dict[str, tuple[str, str]]:
        """``{key: (label, override)}`` for every key of :data:`KEYS`."""
        pause = self.case == "UH-pause"
        kind = {"UH": "make_before_break", "UH-pause": "pause", "MIP": "make_before_break"}.get(self.case, "forced")
        extra = {"FH": ', detection = "1s"', "UH-pause": PAUSE}.get(self.case, "")
        first = ENTRY.format(at="100s", kind="pause" if pause else "make_before_break", to="wlan",
                             extra=PAUSE if pause else "")
        binding = '{ latency = "800ms", old_path = "drop" }' if self.case == "MIP" else '{ latency = "0s" }'
        if self.case == "MIP":
            agents = "[]"
        else:
            duration, _, after = self.active.partition(" ")
            mode = "" if self.active == "off" else f', active_mode = "{duration}"' + (
                ', active_mode_after = "any_handover"' if after == "any" else "")
            agents = f"[{DS_ANCHOR}, {DS_MOBILE.format(extra=mode)}]"
        return {
            "timeline[1]": (self.case, ENTRY.format(at="300s", kind=kind, to="utran", extra=extra)),
            "timeline[0]": ("pause" if pause else "switch", first),
            "mobile.binding": ("800ms" if self.case == "MIP" else "none", binding),
            "agents": ("none" if self.case == "MIP" else self.active, agents),
            "flows.cbr.scheme": (self.scheme, self.scheme),
            # NewReno's timer variant (protocol-facts A2); ns-2's Sack1 recovery has none, so its
            # points run Sack1 whatever the timer label says.
            "flows.cbr.tcp.recovery": (self.timer, f'{{ kind = "new_reno", timer = "{self.timer}" }}'
                                       if self.scheme == "newreno" else '{ kind = "sack1" }'),
            "links.core.delay": (self.placement, INTERNET_MS if self.placement == "internet" else CORE_MS),
            "flows.cbr.app": (self.reading, INTERVAL if self.reading == "2ms" else RATE),
        }


def grid(points: "list[Point]") -> Grid:
    """The points as one zipped campaign over :data:`KEYS` (labels repeat), packet traces kept."""
    values = [p.overrides() for p in points]
    axes = tuple(axis(key, [v[key] for v in values]) for key in KEYS)
    return Grid(BASE, axes, detail="packets", zip=True)


def points(cases=("UH", "FH", "MIP"), schemes=("newreno",), timers=("impatient",), actives=("off",), **kw) -> list[Point]:
    return [Point(c, s, t, a, **kw) for c in cases for s in schemes for t in timers for a in actives]


def derive(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    """Readable configuration columns, then every run's columns from its traces."""
    out = df.copy()
    for key, name in KEYS.items():
        out[name] = df[key].astype(str)
    out = with_run_columns(camp, out)
    for at in (100, 300):
        out[f"disturbances{at}"] = C.disturbances(out, at)
    return out


BOTH = ("newreno", "sack")
TIMERS = ("impatient", "slow_but_steady")
NR = {"scheme": "newreno", "timer": "impatient"}
COLOURS = {"UH": 0, "FH": 1, "MIP": 2, "UH-pause": 3}


def curves(cases, **where) -> tuple[Curve, ...]:
    """NewReno Impatient runs of ``cases``; UH dashed, so that it shows where it lies under FH."""
    return tuple(Curve({"case": c, **NR, **where}, c, COLOURS[c], "--" if c == "UH" else "-") for c in cases)


def sack_curves(cases) -> tuple[Curve, ...]:
    return tuple(Curve({"case": c, "scheme": "sack", "timer": "impatient"}, f"{c} SACK", COLOURS[c], ":")
                 for c in cases)


CASES = ("UH", "FH", "MIP")
EVENTS_TABLE = Table(("case", "scheme", "timer"), (
    Col("fast rexmits at 100 s", Measure("fr100", digits=0)), Col("RTOs at 100 s", Measure("rto100", digits=0)),
    Col("min cwnd 100-105 s", Measure("cwnd_min100", digits=1)),
    Col("RTOs at 300 s (s, ssthresh, spurious)", fn=lambda r: C.rto_text(r.iloc[0]) if len(r) else "\u2013"),
    Col("fast rexmits at 300 s", Measure("fr300", digits=0)),
    Col("repeated ACKs from (s)", fn=lambda r: ", ".join(f"{t:.2f}" for t in r["dup300_s"].iloc[0]) if len(r) else "\u2013"),
    Col("kB in 20 s after 100 s", Measure("kb_20s_100", digits=0)),
    Col("kB in 20 s after 300 s", Measure("kb_20s_300", digits=0)),
    Col("back to 3G rate after (s)", Measure("recover300_s", digits=0)),
    Col("data lost", Measure("data_lost", digits=0))),
    "One deterministic run per row. RTOs and fast retransmits counted in the 10 s after each handover starts "
    "(from the time series); 'repeated ACKs from': the first ACK that repeats the previous one after each RTO; "
    "'back to 3G rate': seconds until three 1 s bins in a row carry >= 95% of the 3G link's 288.5 kb/s of "
    "payload; 'data lost': segments dropped and never delivered.", headers=("case", "TCP", "NewReno timer"))

FIG4 = FigureSpec(
    "fig4", "Figure 4: cwnd for (a) user (UH) and forced (FH) handovers, (b) Mobile IP, details at (c) 100 s and "
            "(d) 300 s; NewReno (solid) and SACK (dotted)",
    grid(points(CASES, BOTH, TIMERS)), grid(points(CASES) + [Point("UH", "sack"), Point("FH", timer="slow_but_steady")]),
    plot=Panels("cwnd", (
        Panel("(a) UH and FH", 0, 400, curves(("UH", "FH"))), Panel("(b) MIP", 0, 400, curves(("MIP",))),
        Panel("(c) detail at 100 s", 99.5, 110, curves(CASES) + sack_curves(("UH",))),
        Panel("(d) detail at 300 s", 299.5, 310, curves(CASES) + sack_curves(("UH",))))),
    claims=C.FIG4, table=EVENTS_TABLE, derive=derive)

FIG5 = FigureSpec(
    "fig5", "Figure 5: sequence numbers of the TCP segments around 300 s, forced handover (FH), NewReno",
    grid(points(("FH",), BOTH, TIMERS)), grid(points(("FH",))),
    plot=Sequence({"case": "FH", **NR}, 299.8, 304.5), claims=C.FIG5,
    table=Table(("case", "scheme", "timer"), (
        Col("RTO segments / highest sent", fn=C.segments_text), Col("segment at 300 s", Measure("seg_at_300", digits=0)),
        Col("RTO values after each timeout (s)", fn=lambda r: ", ".join(f"{v:.2f}" for v in r["rto300_rto"].iloc[0])),
        Col("stable from (s)", Measure("stable300_s", digits=2)), Col("RTT then (s)", Measure("rtt_stable_s", digits=2))),
        "Segments numbered from 0 (ns-2 too); our ACKs carry the next segment expected, ns-2's the highest received "
        "(ours minus one).", headers=("case", "TCP", "NewReno timer")),
    derive=derive)

FIG6 = FigureSpec(
    "fig6", "Figure 6: throughput of the TCP flow for UH, FH and MIP, (a) the whole run, (b) detail around 300 s",
    grid(points(CASES, BOTH)), grid(points(CASES)),
    plot=Panels("throughput", (Panel("(a) whole run", 0, 400, curves(CASES)),
                               Panel("(b) detail around 300 s", 295, 325, curves(CASES)))),
    claims=C.FIG6, table=Table(("case", "scheme"), (
        Col("peak 100-120 s (kb/s)", Measure("peak_kbps_100", digits=0)),
        Col("kB 5 s after 100 s", Measure("kb_5s_100", digits=0)), Col("kB 10 s after 300 s", Measure("kb_10s_300", digits=0)),
        Col("kB 20 s after 300 s", Measure("kb_20s_300", digits=0)),
        Col("back to 3G rate after (s)", Measure("recover300_s", digits=0))),
        "Throughput = payload delivered in order per 1 s bin.", headers=("case", "TCP")),
    derive=derive)

ACTIVES = ("off", "0.5s", "1s", "2s", "5s", "0.5s any", "1s any", "2s any", "5s any")
FIG7 = FigureSpec(
    "fig7", f"Figure 7: cwnd with the Delivery Service's active mode ({ACTIVE_CHOSEN}, filtering after every "
            "handover), (a) the whole run, (b) detail at 300 s; without it dotted",
    grid(points(("UH", "FH"), actives=ACTIVES)), grid(points(("UH", "FH"), actives=("off", "2s", "2s any"))),
    plot=Panels("cwnd", tuple(Panel(title, lo, hi, tuple(
        Curve({"case": c, "active": a}, f"{c} {'active' if a != 'off' else 'neutral'}", COLOURS[c],
              (":" if a == "off" else "--" if c == "UH" else "-"))
        for c in ("UH", "FH") for a in (f"{ACTIVE_CHOSEN} any", "off")))
        for title, lo, hi in (("(a) whole run", 0, 400), ("(b) detail at 300 s", 299.5, 310)))),
    claims=C.FIG7, table=Table(("case", "active"), (
        Col("dupACKs destroyed", fn=C.destroyed_text), Col("fast rexmits at 100 s", Measure("fr100", digits=0)),
        Col("min cwnd 100-105 s", Measure("cwnd_min100", digits=1)), Col("kB 5 s after 100 s", Measure("kb_5s_100", digits=0)),
        Col("RTOs at 300 s", Measure("rto300", digits=0)), Col("fast rexmits at 300 s", Measure("fr300", digits=0)),
        Col("kB 20 s after 300 s", Measure("kb_20s_300", digits=0))),
        "Active mode: '<d>' filters for d after the handover to WLAN (§5.2's text), '<d> any' after every handover "
        "(Figure 7(b) shows the filter acting at 300 s too).", headers=("case", "active mode")),
    derive=derive)

VARIANTS = (
    FigureSpec("internet", "The 'Internet' placement: the server 100 ms from the core instead of 30 ms (§5.1)",
               grid(points(CASES, placement="internet") + points(CASES)), grid(points(CASES, placement="internet")),
               plot=Panels("cwnd", (Panel("Internet: detail at 100 s", 99.5, 110, curves(CASES, placement="internet")),
                                    Panel("Internet: detail at 300 s", 299.5, 310, curves(CASES, placement="internet")))),
               claims=C.INTERNET, table=Table(("placement", "case"), EVENTS_TABLE.columns, EVENTS_TABLE.note,
                                              headers=("placement", "case")), derive=derive),
    FigureSpec("cbr-reading", "The two readings of the CBR source: 500 kb/s (16 ms between 1000-byte writes) and 'a "
                              "packet each 2 ms' (4 Mb/s)",
               grid(points(CASES) + points(CASES, reading="2ms")), grid(points(("FH",)) + points(("FH",), reading="2ms")),
               plot=Panels("throughput", (Panel("throughput, 2 ms reading", 0, 400, curves(CASES, reading="2ms")),)),
               claims=C.READING, table=Table(("reading", "case"), (
                   Col("segment at 300 s", Measure("seg_at_300", digits=0)), *EVENTS_TABLE.columns[3:])),
               derive=derive),
    FigureSpec("uh-pause", "Sensitivity: the user handover's 16.7 ms as a pause of the old link instead of a "
                           "switch with the old path in use",
               grid([Point("UH"), Point("UH-pause")]), grid([Point("UH"), Point("UH-pause")]),
               plot=Panels("cwnd", (Panel("detail at 300 s", 299.5, 310, curves(("UH", "UH-pause"))),)),
               table=Table(("case",), EVENTS_TABLE.columns, "No claims: a modelling alternative we did not choose "
                                                            "(docs/reproductions.md)."), derive=derive),
)

# `--robustness N`: what a real setup would vary. No seeds: nothing in these runs is random.
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms")),
                            "No seeds: the runs have no random element (no loss model, no random start).")
# `--ambiguities`: choices the paper leaves open that no figure varies (the NewReno timer, the CBR
# reading, the Internet placement and the user handover as a pause have figures of their own).
AMBIGUITIES = (
    Alternative("min-rto-1s", "ns-2's minrto_ before 2004-10-14 (1 s; 0.2 s since, which we use); the report "
                              "names no ns-2 version", {"flows.cbr.tcp.min_rto": "1s"}),
    Alternative("delayed-ack", "a delayed-ACK sink (ns-2's TCPSink/DelAck, 100 ms); the paper names no sink, ns-2's "
                               "default TCPSink acknowledges every segment", {"flows.cbr.sink.delayed_ack": "true"}),
)

PAPER = Paper(
    name="sobral",
    title="PS-Service Continuity between WLAN and Cellular Networks: Performance of the TCP Dynamics on Handovers",
    citation="P. Sobral, L. Bernardo and P. Pinto, technical report (Universidade Fernando Pessoa / Universidade "
             "Nova de Lisboa). Scenarios: scenarios/sobral/ (UH, FH, MIP, Internet); the Delivery Service, forced "
             "handovers and the Mobile IP binding: docs/handover.md. One deterministic run per configuration; "
             "verdict rules in docs/reproductions.md.",
    figures=(FIG4, FIG5, FIG6, FIG7, *VARIANTS),
    names={"scheme": {"newreno": "NewReno", "sack": "SACK"}, "timer": {"impatient": "Impatient",
                                                                     "slow_but_steady": "Slow-but-Steady"}},
    perturbation=PERTURBATION, ambiguities=AMBIGUITIES,
)
