"""The ``sobral`` reproduction: Sobral, Bernardo & Pinto, "PS-Service Continuity between WLAN and
Cellular Networks: Performance of the TCP Dynamics on Handovers" (technical report).

A 500 kb/s CBR application over TCP NewReno (window_ 40) to a mobile node that starts on 3G,
moves to WLAN at 100 s and back to 3G at 300 s, in three handover types on the same timeline
(scenarios/sobral/): the *user* handover (UH), the *forced* handover (FH: the WLAN fails, the
Delivery Service at the HNAC re-sends its queue by the UTRAN after its 90 ms timeout) and Mobile
IP (MIP: 800 ms binding latency, packets to the old address lost).  Figures 4-7 with all their
panels, the paper's statements about them as claims (:mod:`.sobral_claims`), and variants: the
"Internet" placement of the server, the other reading of the CBR rate ("a packet each 2 ms"),
the user handover modelled as a 16.7 ms pause; and the return to 3G (issue #26): ``to-3g``, the
forced handover's options (``in_flight``, ``uplink``; docs/handover.md) and the paper's sentences
about 300 s the other figures do not test (:mod:`.sobral_to3g`), and ``exit-fast-retrans``,
Figures 5 and 7(b) under both settings of ns-2 NewReno's ``exitFastRetrans_``.

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
from . import sobral_to3g as T
from .sobral_plots import Curve, Panel, Panels, Sequence
from .sobral_runs import with_run_columns
from .simulator_readings import NS2_29_TIMERS, ns2_timers, rfc_defaults

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
NO_EXIT = ", no exitFastRetrans_"   # the timer label of NewReno runs with exit_fast_retrans = false


@dataclass(frozen=True)
class Point:
    """One configuration: the handover type and the options around it."""

    case: str = "UH"                 # UH, FH, MIP, or UH-pause (the 16.7 ms as a pause of the old link)
    scheme: str = "newreno"          # newreno, sack
    timer: str = "impatient"         # NewReno timer variant (ambiguity A2)
    active: str = "off"              # DS active mode: off, or "<duration>" / "<duration> any"
    placement: str = "core"          # core (30 ms to the server) or internet (100 ms)
    reading: str = "500kbps"         # the CBR rate reading, or "2ms" (a packet each 2 ms)
    forced: tuple[str, str] | None = None  # FH: (in_flight, uplink) other than the scenario's (lost, at_completion)
    exit: bool = True                # NewReno's exitFastRetrans_ (ns-2's default true)

    def overrides(self) -> dict[str, tuple[str, str]]:
        """``{key: (label, override)}`` for every key of :data:`KEYS`."""
        pause = self.case == "UH-pause"
        kind = {"UH": "make_before_break", "UH-pause": "pause", "MIP": "make_before_break"}.get(self.case, "forced")
        extra = {"FH": ', detection = "1s"', "UH-pause": PAUSE}.get(self.case, "")
        case = self.case
        if self.forced is not None:
            extra += ', in_flight = "{}", uplink = "{}"'.format(*self.forced)
            case = "FH ({}, {})".format(*self.forced)
        timer = self.timer if self.exit else f"{self.timer}{NO_EXIT}"
        exit_key = "" if self.exit else ", exit_fast_retrans = false"
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
            "timeline[1]": (case, ENTRY.format(at="300s", kind=kind, to="utran", extra=extra)),
            "timeline[0]": ("pause" if pause else "switch", first),
            "mobile.binding": ("800ms" if self.case == "MIP" else "none", binding),
            "agents": ("none" if self.case == "MIP" else self.active, agents),
            "flows.cbr.scheme": (self.scheme, self.scheme),
            # NewReno's timer variant (docs/references.md A2); ns-2's Sack1 recovery has none, so its
            # points run Sack1 whatever the timer label says.
            "flows.cbr.tcp.recovery": (timer, f'{{ kind = "new_reno", timer = "{self.timer}"{exit_key} }}'
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
RTOS_300 = Col("RTOs at 300 s (s, ssthresh, spurious)", fn=lambda r: C.rto_text(r.iloc[0]) if len(r) else "\u2013")
REPEATS_300 = Col("repeated ACKs from (s)",
                  fn=lambda r: ", ".join(f"{t:.2f}" for t in r["dup300_s"].iloc[0]) if len(r) else "\u2013")
RECOVER_300 = Col("back to 3G rate after (s)", Measure("recover300_s", digits=0))
KB20_300 = Col("kB in 20 s after 300 s", Measure("kb_20s_300", digits=0))
EVENTS_TABLE = Table(("case", "scheme", "timer"), (
    Col("fast rexmits at 100 s", Measure("fr100", digits=0)), Col("RTOs at 100 s", Measure("rto100", digits=0)),
    Col("min cwnd 100-105 s", Measure("cwnd_min100", digits=1)),
    RTOS_300,
    Col("fast rexmits at 300 s", Measure("fr300", digits=0)),
    REPEATS_300,
    Col("kB in 20 s after 100 s", Measure("kb_20s_100", digits=0)),
    KB20_300,
    RECOVER_300,
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
    claims=C.FIG4, table=EVENTS_TABLE, derive=derive, deterministic=True)

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
    derive=derive, deterministic=True)

FIG6 = FigureSpec(
    "fig6", "Figure 6: throughput of the TCP flow for UH, FH and MIP, (a) the whole run, (b) detail around 300 s",
    grid(points(CASES, BOTH)), grid(points(CASES)),
    plot=Panels("throughput", (Panel("(a) whole run", 0, 400, curves(CASES)),
                               Panel("(b) detail around 300 s", 295, 325, curves(CASES)))),
    claims=C.FIG6, table=Table(("case", "scheme"), (
        Col("peak 100-120 s (kb/s)", Measure("peak_kbps_100", digits=0)),
        Col("kB 5 s after 100 s", Measure("kb_5s_100", digits=0)), Col("kB 10 s after 300 s", Measure("kb_10s_300", digits=0)),
        Col("kB 20 s after 300 s", Measure("kb_20s_300", digits=0)),
        RECOVER_300),
        "Throughput = payload delivered in order per 1 s bin.", headers=("case", "TCP")),
    derive=derive, deterministic=True)

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
    derive=derive, deterministic=True)

VARIANTS = (
    FigureSpec("internet", "The 'Internet' placement: the server 100 ms from the core instead of 30 ms (§5.1)",
               grid(points(CASES, placement="internet") + points(CASES)), grid(points(CASES, placement="internet")),
               plot=Panels("cwnd", (Panel("Internet: detail at 100 s", 99.5, 110, curves(CASES, placement="internet")),
                                    Panel("Internet: detail at 300 s", 299.5, 310, curves(CASES, placement="internet")))),
               claims=C.INTERNET, table=Table(("placement", "case"), EVENTS_TABLE.columns, EVENTS_TABLE.note,
                                              headers=("placement", "case")), derive=derive, deterministic=True),
    FigureSpec("cbr-reading", "The two readings of the CBR source: 500 kb/s (16 ms between 1000-byte writes) and 'a "
                              "packet each 2 ms' (4 Mb/s)",
               grid(points(CASES) + points(CASES, reading="2ms")), grid(points(("FH",)) + points(("FH",), reading="2ms")),
               plot=Panels("throughput", (Panel("throughput, 2 ms reading", 0, 400, curves(CASES, reading="2ms")),)),
               claims=C.READING, table=Table(("reading", "case"), (
                   Col("segment at 300 s", Measure("seg_at_300", digits=0)), *EVENTS_TABLE.columns[3:])),
               derive=derive, deterministic=True),
    FigureSpec("uh-pause", "Sensitivity: the user handover's 16.7 ms as a pause of the old link instead of a "
                           "switch with the old path in use",
               grid([Point("UH"), Point("UH-pause")]), grid([Point("UH"), Point("UH-pause")]),
               plot=Panels("cwnd", (Panel("detail at 300 s", 299.5, 310, curves(("UH", "UH-pause"))),)),
               table=Table(("case",), EVENTS_TABLE.columns, "No claims: a modelling alternative we did not choose "
                                                            "(docs/reproductions.md)."), derive=derive, deterministic=True),
)

# -- the return to 3G (issue #26): the forced handover's options, ns-2's exitFastRetrans_, and the
# paper's sentences about 300 s that the figures above do not test ----------------------------
FORCED_OPTIONS = (("lost", "at_failure"), ("delivered", "at_completion"), ("delivered", "at_failure"))
NOEXIT = f"impatient{NO_EXIT}"


def _forced_curves() -> tuple[Curve, ...]:
    return (Curve({"case": "UH", **NR}, "UH", 0, "--"), Curve({"case": "FH", **NR}, "FH (lost, at_completion)", 1),
            *(Curve({"case": "FH ({}, {})".format(*o), **NR}, "FH ({}, {})".format(*o), 3 + i, ":")
              for i, o in enumerate(FORCED_OPTIONS)), Curve({"case": "MIP", **NR}, "MIP", 2))


def _exit_curves(active: str) -> tuple[Curve, ...]:
    return tuple(Curve({"case": c, "scheme": "newreno", "timer": t, "active": active},
                       f"{c}{' exitFastRetrans_ false' if t == NOEXIT else ''}", COLOURS[c], "-" if t == NOEXIT else ":")
                 for c in ("UH", "FH") for t in ("impatient", NOEXIT))


TO_3G_TABLE = Table(("case", "timer", "active"), (
    Col("forced done (s)", Measure("done300_s", digits=3)),
    Col("1st 3G ACK leaves the MN (s)", Measure("ack3g_leave300_s", digits=3)),
    Col("1st 3G ACK at the sender (s)", Measure("ack3g300_s", digits=3)),
    RTOS_300,
    REPEATS_300,
    Col("inflated bursts", Measure("inflated300", digits=0)),
    Col("cwnd back to ssthresh after (s)", Measure("cwnd_back300_s", digits=2)),
    Col("RTT when stable (s)", Measure("rtt_stable_s", digits=2)),
    RECOVER_300,
    KB20_300),
    "One deterministic run per row, NewReno Impatient. '1st 3G ACK': the first ACK the MN sends by the UTRAN at or "
    "after 300 s, when it leaves the MN and when it reaches the server. 'inflated bursts': bursts of repeated ACKs "
    "on whose third or later duplicate the sender sent a segment (ns-2's NEWRENO_FAST_RECOVERY with "
    "exitFastRetrans_ false). 'cwnd back': seconds from 300 s until cwnd regains the ssthresh of the first "
    "timeout. The forced options (in_flight, uplink): docs/handover.md.", headers=("case", "NewReno", "active mode"))

TO_3G = FigureSpec(
    "to-3g", "The handover back to 3G at 300 s: the forced handover's options and the paper's sentences about "
             "its timing, its cwnd and Mobile IP's recovery",
    grid([Point("UH"), Point("FH"), *(Point("FH", forced=o) for o in FORCED_OPTIONS), Point("MIP")]),
    grid([Point("UH"), Point("FH"), Point("FH", forced=("delivered", "at_failure")), Point("MIP")]),
    plot=Panels("cwnd", (Panel("cwnd at 300 s: UH, FH and its options, MIP", 299.9, 303.5, _forced_curves()),)),
    claims=T.CLAIMS, table=TO_3G_TABLE, derive=derive, deterministic=True)

EXIT = FigureSpec(
    "exit-fast-retrans", "Figures 5 and 7(b) under both settings of ns-2 NewReno's exitFastRetrans_ (true, ns-2's "
                         "default and ours, dotted; false, solid)",
    grid([Point(c, exit=e, active=a) for c in ("UH", "FH") for e in (True, False) for a in ("off", f"{ACTIVE_CHOSEN} any")]),
    grid([Point("FH", exit=e) for e in (True, False)]),
    plot=Panels("cwnd", (Panel("Figure 5's run (no active mode)", 299.9, 306, _exit_curves("off")),
                         Panel("Figure 7(b) (active mode, after every handover)", 299.9, 306,
                               _exit_curves(f"{ACTIVE_CHOSEN} any")))),
    table=Table(("case", "timer", "active"), (
        RTOS_300,
        REPEATS_300,
        Col("fast rexmits", Measure("fr300", digits=0)), Col("inflated bursts", Measure("inflated300", digits=0)),
        Col("RTO segments / highest sent", fn=C.segments_text), Col("RTT when stable (s)", Measure("rtt_stable_s", digits=2)),
        RECOVER_300,
        KB20_300),
        "No claims: the paper's Figure 5 and 7(b) claims are judged on ns-2's default (true) in fig5 and fig7; this "
        "table shows what the other setting changes (docs/reproductions.md).", headers=("case", "NewReno", "active mode")),
    derive=derive, deterministic=True)

# `--robustness N`: what a real setup would vary. No seeds: nothing in these runs is random.
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms")),
                            "No seeds: the runs have no random element (no loss model, no random start).")
# `--ambiguities`: choices the paper leaves open that no figure varies (the NewReno timer, the CBR
# reading, the Internet placement and the user handover as a pause have figures of their own).
FORCED, DS_AT_ANCHOR, DS_AT_MN = "timeline[1]", "agents[0]", "agents[1]"  # as every point of grid() sets them
# Where a reading does not exist (the report says so instead of the scenario's error on its key):
FORCED_ONLY = ("a forced handover at 300 s (only FH has one; UH and Mobile IP switch make-before-break, Mobile IP "
               "with an 800 ms binding update)")
DS_ONLY = "a Delivery Service (UH and FH have one; Mobile IP has none)"
AMBIGUITIES = (
    Alternative("min-rto-1s", "ns-2's minrto_ before 2004-10-14, 1 s; the report names no ns-2 version",
                {"flows.cbr.tcp.min_rto": "1s"}, ours="`min_rto = 200ms`: ns-2's minrto_ since then (ns-2.35)"),
    Alternative("delayed-ack", "a delayed-ACK sink (ns-2's TCPSink/DelAck, 100 ms); the paper names no sink",
                {"flows.cbr.sink.delayed_ack": "true"}, ours="an ACK per segment: ns-2's default TCPSink"),
    Alternative("no-exit-fast-retrans", "ns-2's older NewReno: exitFastRetrans_ false, the window also inflates on "
                                        "duplicate ACKs while `recover` blocks a fast retransmit (figure "
                                        "exit-fast-retrans)", {"flows.cbr.tcp.recovery.exit_fast_retrans": "false"},
                ours="`exit_fast_retrans = true`: ns-2's default exitFastRetrans_",
                needs="NewReno's recovery (the SACK runs recover by SACK, which has no such option)"),
    # The forced handover (docs/handover.md "Forced handovers"; figure to-3g shows all four).
    Alternative("fh-in-flight-delivered", "packets propagating on the WLAN when it fails still arrive",
                {f"{FORCED}.in_flight": "delivered"},
                ours="`in_flight = lost`: ns-2's link failure kills packets in transit; the MN has left the coverage",
                needs=FORCED_ONLY),
    Alternative("fh-uplink-at-failure", "the MN sends by the UTRAN from the failure on",
                {f"{FORCED}.uplink": "at_failure"},
                ours="`uplink = at_completion`: by the UTRAN once the DS timeout completes the handover (\u00a75: "
                     "forced handovers are performed after it expires)", needs=FORCED_ONLY),
    # The Delivery Service (\u00a72.2 gives an acknowledged service and a 90 ms timeout, not its policies).
    Alternative("ds-packet-age", "the DS timeout runs from when the oldest kept copy was kept",
                {f"{DS_AT_ANCHOR}.timer": "packet_age"},
                ours="`timer = restart_on_progress`: from the last acknowledgement that freed a copy", needs=DS_ONLY),
    Alternative("ds-buffer-80kbit", "the DS keeps at most 80 kbit of copies (\u00a72.2 sizes it so for 40 ms at 2 "
                                    "Mb/s); a packet that does not fit goes without a copy",
                {f"{DS_AT_ANCHOR}.buffer": "10kB"}, ours="no bound on the copies kept", needs=DS_ONLY),
    Alternative("ds-ack-every-2", "the MN's DS acknowledges every second packet (at most 10 ms late)",
                {f"{DS_AT_MN}.ack_every": "2"}, ours="`ack_every = 1`: an acknowledgement per packet",
                needs=DS_ONLY),
    # The simulator's own readings (docs/references.md §1.1).
    ns2_timers("initial-rto-6s", "ns-2.28 and 2.29, the releases of 2005 when the report was written (it names none)",
               NS2_29_TIMERS, ("cbr",)),
    rfc_defaults("RFC 6298's timers (1 s minimum and initial RTO), a 1 ms clock, an initial window of 4 and a "
                 "delayed-ACK sink (200 ms); window_ 40 is the paper's own"),
)

PAPER = Paper(
    name="sobral",
    title="PS-Service Continuity between WLAN and Cellular Networks: Performance of the TCP Dynamics on Handovers",
    citation="P. Sobral, L. Bernardo and P. Pinto, technical report (Universidade Fernando Pessoa / Universidade "
             "Nova de Lisboa). Scenarios: scenarios/sobral/ (UH, FH, MIP, Internet); the Delivery Service, forced "
             "handovers and the Mobile IP binding: docs/handover.md. One deterministic run per configuration; "
             "verdict rules in docs/reproductions.md.",
    figures=(FIG4, FIG5, FIG6, FIG7, *VARIANTS, TO_3G, EXIT),
    names={"scheme": {"newreno": "NewReno", "sack": "SACK"}, "timer": {"impatient": "Impatient",
                                                                     "slow_but_steady": "Slow-but-Steady",
                                                                     NOEXIT: "Impatient, exitFastRetrans_ false"}},
    perturbation=PERTURBATION, ambiguities=AMBIGUITIES,
)
