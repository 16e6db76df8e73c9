"""The ``park`` reproduction: Park, Lee, Koo & Choo, "Freeze TCPv2: An Enhancement of Freeze TCP
for Efficient Handoff in Heterogeneous Networks" (HCII 2009).

One FTP flow to a mobile node that moves from a 6 Mb/s cell into a 1 Mb/s or an 11 Mb/s cell
(``scenarios/park/cells-6to1.toml``, ``cells-6to11.toml``: Figure 2's topology, the
band-crossing handoff of docs/mobility.md), 180 s, 10 replications with paired seeds:

* Figure 3a/3b: throughput against the MN's speed, 10-100 km/h, no wireless error;
* Figure 4a/4b: throughput against the wireless per-packet error rate, 1-5%, at 50 km/h;
* fairness: Jain's index over 2, 4 and 8 flows of the proposed scheme, and over the proposed
  scheme mixed with Vegas or Reno (``fairness.toml``, ``fairness-mixed.toml``).

Throughput is the flow's goodput during the movement of the MN through the overlap of the cells
(payload delivered in order, kb/s; the scenarios' ``metrics.windows.movement = "overlap"``,
docs/mobility.md), which Figures 3-4 plot and their claims judge; the tables also give the
goodput over the whole run.  Claims: :mod:`.park_claims` (the gain rule, WAVE's engagement:
docs/reproductions.md "park").  :func:`window_sensitivity` reruns Figures 3-4 with other
receive windows (the paper states none) and tabulates their verdicts.

**The schemes are data** (:data:`SCHEMES`): the paper's four roles, each mapped to a vhsim-tcp
preset (``vegas``, ``freeze``, ``demo-vegas``, ``ftv2``). :data:`STAND_INS` maps the roles to
older presets (a cheap end-to-end test of the machinery; the report then says "stand-in" in
every scheme name). :func:`paper` builds the reproduction for any mapping.

Quick mode: 2 replications, speeds 10/50/100 km/h, error 1% and 5%, 2 and 8 flows.
"""

from __future__ import annotations

import os
import re
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from .. import metrics as M
from ..claims import Measure
from ..figures import Col, FigureSpec, Grid, Paper, Table, axis
from . import park_claims as C
from .park_claims import DEMO, ERROR, FLOWS, FREEZE, FTV2, JAIN, MOVEMENT_CAPACITY, SCHEME, SPEED, TITLES, VEGAS
from .kimkoh_plots import lines_vs
from ..variants import Alternative, FlowStarts, LinkDelays, Perturbation, Seeds
from .simulator_readings import NS2_27_TIMERS, ns2_timers, rfc_defaults

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The paper's schemes, in its order: the roles the claims speak of.
ROLES = (VEGAS, FREEZE, DEMO, FTV2)
#: The paper's schemes as the vhsim-tcp presets of issue #14.
PAPER_PRESETS = {VEGAS: "vegas", FREEZE: "freeze", DEMO: "demo-vegas", FTV2: "ftv2"}
#: Older presets in the roles, for a cheap end-to-end test of the machinery (they are not the
#: paper's schemes: a report made with them says so and reproduces nothing of Park et al.).
STAND_INS = {VEGAS: "reno", FREEZE: "newreno", DEMO: "sack-rfc6675", FTV2: "sack"}
#: The mapping the registered reproduction uses: the paper's schemes (issue #14's presets).
SCHEMES: Mapping[str, str] = PAPER_PRESETS
#: The other scheme of the mixed fairness runs besides Vegas: a preset, not a role.
RENO = "reno"

CELLS = {"6to1": "park/cells-6to1.toml", "6to11": "park/cells-6to11.toml"}
FAIRNESS, FAIRNESS_MIXED = "park/fairness.toml", "park/fairness-mixed.toml"
REPLICATIONS, QUICK_REPLICATIONS = 10, 2
SPEEDS = tuple(range(10, 101, 10))            # km/h (§4.2)
QUICK_SPEEDS = (10, 50, 100)
ERRORS = (0.01, 0.02, 0.03, 0.04, 0.05)      # per packet on the wireless hop (§4.3)
QUICK_ERRORS = (0.01, 0.05)
FLOW_COUNTS, QUICK_FLOW_COUNTS = (2, 4, 8), (2, 8)

PARTNER = "partner"        # derived column: the other scheme of a mixed fairness run
THROUGHPUT = C.THROUGHPUT.column          # during the movement
RUN_THROUGHPUT = C.RUN_THROUGHPUT.column  # over the 180 s run
WINDOW_KEY = "flows.bulk.tcp.window"
#: The receive window of the cell scenarios (a calibration: docs/reproductions.md "park").
WINDOW = 100
#: The windows of the sensitivity table: ns-2's default, two between, the 11 Mb/s cell's
#: bandwidth-delay product and that plus the 20-packet queue, and the scenarios' 100.
SENSITIVITY_WINDOWS = (20, 40, 64, 86, 100)

SCHEME_KEY, SPEED_KEY = "flows.bulk.scheme", "mobile.mobility.speed"
ERROR_KEYS = ("links.cell_old.forward.error", "links.cell_new.forward.error")


def _bernoulli(p: float) -> str:
    return f'{{ kind = "bernoulli", p = {p:g} }}'


def _zipped(scenario: str, points: Sequence[Mapping[str, tuple[str, str]]], replications: int) -> Grid:
    """Explicit points (``{key: (label, override)}``, every point the same keys) as one zipped grid."""
    keys = list(points[0])
    axes = tuple(axis(k, [p[k] for p in points]) for k in keys)
    return Grid(scenario, axes, {}, replications, zip=True)


def _window(window: int | None) -> dict[str, str]:
    """The fixed override of the receive window, if not the scenarios' own."""
    return {} if window is None else {WINDOW_KEY: f"{window}pkt"}


def speed_grid(schemes: Mapping[str, str], cells: str, speeds, replications: int, window: int | None = None) -> Grid:
    points = [{SCHEME_KEY: (role, schemes[role]), SPEED_KEY: (str(v), f"{v}km/h")} for role in ROLES for v in speeds]
    return _zipped(CELLS[cells], points, replications).but(_window(window))


def error_grid(schemes: Mapping[str, str], cells: str, errors, replications: int, window: int | None = None) -> Grid:
    points = [{SCHEME_KEY: (role, schemes[role]), **{k: (f"{100 * p:g}", _bernoulli(p)) for k in ERROR_KEYS}}
              for role in ROLES for p in errors]
    return _zipped(CELLS[cells], points, replications).but(_window(window))


def fairness_grid(schemes: Mapping[str, str], counts, replications: int) -> Grid:
    points = [{"flows.ftp.scheme": (FTV2, schemes[FTV2]), "flows.ftp.count": (str(n), str(n))} for n in counts]
    return _zipped(FAIRNESS, points, replications)


def mixed_grid(schemes: Mapping[str, str], replications: int) -> Grid:
    points = [{"flows.a.scheme": (FTV2, schemes[FTV2]), "flows.b.scheme": (label, preset)}
              for label, preset in ((VEGAS, schemes[VEGAS]), (RENO, RENO))]
    return _zipped(FAIRNESS_MIXED, points, replications)


def _number(value, unit: str = "") -> float:
    return float(str(value).replace(unit, ""))


# The bound the throughput during the movement lives under, from the cell scenarios
# (scenarios/park/cells-*.toml; tests/test_park_reproduction.py keeps these equal to the files).
CELL_KBPS = {"6to1": (6000.0, 1000.0), "6to11": (6000.0, 11000.0)}
PAYLOAD_SHARE = 1000 / 1040              # 1000-byte segments in 1040-byte packets
HALF_CROSSING_M = 125.0                  # the overlap's edge (250 m) to the midpoint (375 m), and on to 500 m
BAND_M, LATENCY_S = 10.0, 0.2            # the handoff: crossing the band, then the L2/L3 latency
ERROR_STUDY_KMH = 50.0                   # Figure 4's speed


def movement_capacity_kbps(cells: str, speed_kmh: float) -> float:
    """The most goodput a run can have during the movement (docs/mobility.md): the old cell's
    payload rate from entering the overlap to the midpoint, the new cell's from the end of the
    handoff (band / speed + latency later) to leaving the overlap, over the window."""
    old, new = CELL_KBPS[cells]
    half = HALF_CROSSING_M / (speed_kmh / 3.6)
    handoff = BAND_M / (speed_kmh / 3.6) + LATENCY_S
    return PAYLOAD_SHARE * (old * half + new * (half - handoff)) / (2 * half)


def derive_single(camp, df: "pd.DataFrame", cells: str) -> "pd.DataFrame":
    """Readable columns: the role, the speed (km/h) and the error rate (%) of every run, and the
    capacity its throughput during the movement lives under."""
    out = df.assign(**{SCHEME: df[SCHEME_KEY].astype(str)})
    speeds = [ERROR_STUDY_KMH] * len(df)
    if SPEED_KEY in df.columns:
        out[SPEED] = speeds = [_number(v, "km/h") for v in df[SPEED_KEY]]
    if ERROR_KEYS[0] in df.columns:
        out[ERROR] = [_number(v) for v in df[ERROR_KEYS[0]]]
    out[MOVEMENT_CAPACITY] = [movement_capacity_kbps(cells, v) for v in speeds]
    return out


def jain(values: Sequence[float]) -> float:
    """Jain's fairness index (Jain, Chiu & Hawe 1984; docs/references.md §13): (sum x)^2 / (n sum x^2)."""
    xs = [float(x) for x in values]
    square_sum = sum(x * x for x in xs)
    return sum(xs) ** 2 / (len(xs) * square_sum) if square_sum > 0 else float("nan")


def _flow_goodputs(row, groups: Sequence[str]) -> list[float]:
    """Goodput of every flow of the ``groups`` (``<group>.<i>.goodput_kbps`` columns present)."""
    out = []
    for g in groups:
        i = 0
        while (column := M.flow(f"{g}.{i}", M.GOODPUT_KBPS)) in row.index and row[column] == row[column]:
            out.append(float(row[column]))
            i += 1
    return out


def derive_fairness(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    """Jain's index over every flow of a run, the number of flows, and (mixed) the share of the
    proposed scheme's flows in the total goodput."""
    mixed = "flows.a.scheme" in df.columns
    rows = [_flow_goodputs(r, ("a", "b") if mixed else ("ftp",)) for _, r in df.iterrows()]
    out = df.assign(**{JAIN: [jain(g) for g in rows], FLOWS: [len(g) for g in rows],
                       "total_kbps": [sum(g) for g in rows]})
    if mixed:
        out[SCHEME] = df["flows.a.scheme"].astype(str)
        out[PARTNER] = df["flows.b.scheme"].astype(str)
        a = [_flow_goodputs(r, ("a",)) for _, r in df.iterrows()]
        out["proposed_share"] = [sum(x) / t if t else float("nan") for x, t in zip(a, out["total_kbps"])]
    else:
        out[SCHEME] = df["flows.ftp.scheme"].astype(str)
    return out


def names(schemes: Mapping[str, str]) -> dict[str, str]:
    """Role -> the paper's name, with the preset when it is a stand-in."""
    return {role: TITLES[role] + ("" if schemes[role] == PAPER_PRESETS[role] else f" (stand-in: {schemes[role]})")
            for role in ROLES} | {RENO: "Reno"}


def _throughput_table(x: str, header: str, unit: str, schemes: Mapping[str, str]) -> Table:
    shown = names(schemes)
    during = tuple(Col(shown[r], Measure(THROUGHPUT, digits=0), where={SCHEME: r}, ci=True) for r in ROLES)
    run = tuple(Col(f"{shown[r]}, 180 s", Measure(RUN_THROUGHPUT, digits=0), where={SCHEME: r}, ci=True) for r in ROLES)
    capacity = Col("capacity", Measure(MOVEMENT_CAPACITY, digits=0))
    return Table((x,), (*during, capacity, *run),
                 f"Goodput during the movement through the cells' overlap (kb/s; the first four columns, what the "
                 f"figure plots and the claims judge), the most any scheme could have then (capacity: each cell's "
                 f"payload rate over the part of the window the MN can use it), and over the 180 s run (the last "
                 f"four), mean \u00b1 95% CI half-width over the replications, per {header}.",
                 headers=(f"{header} ({unit})",))


def _sweep(fig_id: str, title: str, grid: Grid, quick: Grid, x: str, xlabel: str, unit: str, claims,
           schemes: Mapping[str, str], cells: str) -> FigureSpec:
    plot = partial(lines_vs, metric=THROUGHPUT, x=x, lines=SCHEME, names=names(schemes), xlabel=xlabel,
                   ylabel="throughput during the movement (kb/s)", stem="throughput")
    return FigureSpec(fig_id, title, grid, quick, plot=plot, claims=claims, derive=partial(derive_single, cells=cells),
                      table=_throughput_table(x, xlabel.split(" (")[0], unit, schemes))


def throughput_figures(schemes: Mapping[str, str], window: int | None = None) -> tuple[FigureSpec, ...]:
    """Figures 3-4 (``window``: a receive window instead of the scenarios' own)."""
    figs = []
    for panel, cells, arrow in (("a", "6to1", "6 \u2192 1 Mb/s"), ("b", "6to11", "6 \u2192 11 Mb/s")):
        figs.append(_sweep(
            f"fig3{panel}", f"Figure 3({panel}): throughput during the movement against the MN's speed, {arrow}",
            speed_grid(schemes, cells, SPEEDS, REPLICATIONS, window),
            speed_grid(schemes, cells, QUICK_SPEEDS, QUICK_REPLICATIONS, window),
            SPEED, "MN speed (km/h)", "km/h", C.fig3(cells), schemes, cells))
    for panel, cells, arrow in (("a", "6to1", "6 \u2192 1 Mb/s"), ("b", "6to11", "6 \u2192 11 Mb/s")):
        figs.append(_sweep(
            f"fig4{panel}", f"Figure 4({panel}): throughput during the movement against the wireless error rate at "
                            f"50 km/h, {arrow}",
            error_grid(schemes, cells, ERRORS, REPLICATIONS, window),
            error_grid(schemes, cells, QUICK_ERRORS, QUICK_REPLICATIONS, window),
            ERROR, "wireless packet error rate (%)", "%", C.fig4(cells), schemes, cells))
    return tuple(figs)


def figures(schemes: Mapping[str, str]) -> tuple[FigureSpec, ...]:
    figs = list(throughput_figures(schemes))
    jain_col = Col("Jain's index", Measure(JAIN, digits=3), ci=True)
    total = Col("total goodput (kb/s)", Measure("total_kbps", digits=0), ci=True)
    figs.append(FigureSpec(
        "fairness", "Fairness: Jain's index over 2, 4 and 8 flows of the proposed scheme through the 6 \u2192 11 Mb/s "
                    "handover at 50 km/h",
        fairness_grid(schemes, FLOW_COUNTS, REPLICATIONS), fairness_grid(schemes, QUICK_FLOW_COUNTS, QUICK_REPLICATIONS),
        claims=C.FAIRNESS, derive=derive_fairness,
        table=Table((FLOWS,), (jain_col, total), "Jain's index over the flows' goodputs of each run, mean \u00b1 95% "
                                                 "CI over the replications.", headers=("flows",))))
    figs.append(FigureSpec(
        "fairness-mixed", "Fairness: 2 flows of the proposed scheme with 2 of Vegas or Reno (no claim of the paper)",
        mixed_grid(schemes, REPLICATIONS), mixed_grid(schemes, QUICK_REPLICATIONS), derive=derive_fairness,
        table=Table((PARTNER,), (jain_col, Col("proposed scheme's share", Measure("proposed_share", digits=3), ci=True),
                                 total),
                    "Jain's index over the four flows, and the share of the total goodput the two flows of the proposed "
                    "scheme get (0.5 = an equal share), mean \u00b1 95% CI.", headers=("other scheme",))))
    return tuple(figs)


# `--robustness N`: what a real setup would vary (the seeds move the wireless losses, the flows'
# random starts (`start_spread`) and the fairness flows' spread starts).
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms"), Seeds()))
# `--ambiguities`: what the paper does not state (docs/schemes.md "Freeze-TCPv2", "DEMO-Vegas";
# docs/handover.md); `ours` is the value of scenarios/park/ or of the preset.
CC = "flows.bulk.tcp.congestion_control"
_WINDOW = "`window = 100pkt`: a calibration, neither cell window-limited (scenarios/park/)"
_WARNING = "`mobile.warning = srtt`: the MN's own smoothed RTT ahead (scenarios/park/)"
AMBIGUITIES = (
    Alternative("window-20", "ns-2's default receive window, window_ 20", {"flows.bulk.tcp.window": "20pkt"},
                ours=_WINDOW),
    Alternative("window-86", "a window the size of the 11 Mb/s cell's pipe, 86 packets",
                {"flows.bulk.tcp.window": "86pkt"}, ours=_WINDOW),
    Alternative("warning-rtt", "the handoff warning one empty-path RTT ahead (49.6 ms)",
                {"mobile.warning": "rtt"}, ours=_WARNING),
    Alternative("warning-100ms", "the handoff warning a fixed 100 ms ahead, about two loaded RTTs",
                {"mobile.warning": "100ms"}, ours=_WARNING),
    Alternative("wave-until-loss", "WAVE ends at the first loss, even one from before the handoff",
                {f"{CC}.wave_duration": "until_loss"},
                ours="`wave_duration = until_new_loss`: until a loss of data sent after the resume (§3.2)"),
    Alternative("wave-one-decision", "WAVE takes one decision per handoff", {f"{CC}.wave_duration": "one_decision"},
                ours="`wave_duration = until_new_loss`: until a loss of data sent after the resume (§3.2)"),
    Alternative("eq1-per-ack", "Eq. (1) applied on every ACK of a DABE round (A8)", {f"{CC}.eq1": "per_ack"},
                ours="`eq1 = per_decision`: once per WAVE decision (A8)"),
    Alternative("rtt-prev-srtt", "RTT_prev is the smoothed RTT at the ZWA", {f"{CC}.rtt_prev": "srtt"},
                ours="`rtt_prev = sample`: the last raw RTT sample at the ZWA"),
    Alternative("bandwidth-connection", "the Westwood branch's bandwidth and RTTmin over the whole connection",
                {f"{CC}.bandwidth_since": "connection"},
                ours="`bandwidth_since = resume`: measured since the resume (§3.2)"),
    Alternative("sig-at-warning", "DEMO-Vegas's MN sets SIG at the handoff warning",
                {"flows.bulk.sink.policy.set_at": "imminent"},
                ours="`set_at = completed`: at the care-of-address change (the DEMO-Vegas preset)"),
    Alternative("tr-acks-as-dupacks", "Freeze-TCP's three TR-ACKs count as duplicate ACKs (A6)",
                {"flows.bulk.tcp.reopening_copies": "duplicate_acks"}, ours="one window update (A6)"),
    # The simulator's own readings (docs/references.md \u00a71.1), for the fairness figure's flows too.
    Alternative("delayed-ack", "a delayed-ACK sink (ns-2's TCPSink/DelAck, 100 ms); the paper names no sink", {},
                ours="an ACK per segment: ns-2's default TCPSink",
                where_flows={"flows.bulk.sink.delayed_ack": "true", "flows.ftp.sink.delayed_ack": "true"}),
    ns2_timers("ns2.27-timers", "ns-2.27 and older (the paper, of 2009, names no release)", NS2_27_TIMERS,
               ("bulk", "ftp")),
    rfc_defaults("RFC 6298's timers (1 s minimum and initial RTO), a 1 ms clock, an initial window of 4 and a "
                 "delayed-ACK sink (200 ms); the window (100 packets) is the scenarios' own"),
)


def paper(schemes: Mapping[str, str] = SCHEMES, name: str = "park", window: int | None = None) -> Paper:
    """The reproduction with ``schemes`` mapping each role of :data:`ROLES` to a preset; with
    ``window``, Figures 3-4 only, the receive window set to it (the sensitivity table)."""
    missing = [r for r in ROLES if r not in schemes]
    if missing:
        raise ValueError(f"park schemes: no preset for {', '.join(missing)} (roles: {', '.join(ROLES)})")
    stand_in = any(schemes[r] != PAPER_PRESETS[r] for r in ROLES)
    return Paper(
        name=name,
        title="Freeze TCPv2: An Enhancement of Freeze TCP for Efficient Handoff in Heterogeneous Networks",
        citation="M. Park, J. Lee, J. Koo and H. Choo, HCII 2009 (LNCS 5618). Scenarios: scenarios/park/; the "
                 "mobility model and handoff length: docs/mobility.md; the gain rule and every reading: "
                 "docs/reproductions.md." + (" STAND-IN SCHEMES: the paper's presets are not in this build; every "
                                             "scheme runs an existing preset named beside it, so no number here is "
                                             "Park et al.'s scheme." if stand_in else ""),
        figures=figures(schemes) if window is None else throughput_figures(schemes, window),
        names={SCHEME: names(schemes), PARTNER: names(schemes), SPEED: "{:g} km/h", ERROR: "{:g}%", FLOWS: "{} flows"},
        perturbation=PERTURBATION, ambiguities=AMBIGUITIES if window is None else (),
    )


PAPER = paper()


def measured_gain(ours: str) -> str | None:
    """The gain a :class:`~vhsim.campaign.claims.Gain` verdict's text gives: the mean of several
    ("mean +5.0%"), else the one pair's ("... kb/s: +1.2%"), else the most a ceiling allows
    ("ceiling: at most +1.5%"); None for other verdicts."""
    pct = r"([+-]\d+(?:\.\d+)?%)"
    found = re.search(r"\bmean " + pct, ours) or re.search(r"kb/s: " + pct, ours)
    if found:
        return found.group(1)
    ceiling = re.search(r"allows at most " + pct, ours)
    return f"ceiling: at most {ceiling.group(1)}" if ceiling else None


def window_sensitivity(windows: Sequence[int] = SENSITIVITY_WINDOWS, *, quick: bool = False,
                       out: str | os.PathLike[str] = "out/reproduce/park-windows", workers: int | None = None,
                       progress: bool | None = None) -> str:
    """Figures 3-4 rerun with each receive window of ``windows`` (the paper states none; ns-2's
    default is 20): a markdown table of every claim's verdict per window (with the gain a gain
    claim measured), the paper's own reproduction being the column of :data:`WINDOW`.  Each window is a paper
    ``park-window<w>`` run by :func:`vhsim.campaign.reproduce.reproduce` into ``OUT/w<w>``."""
    from ..reproduce import register, reproduce

    columns: dict[int, dict[str, str]] = {}
    texts: dict[str, str] = {}
    for w in windows:
        variant = register(paper(name=f"park-window{w}", window=w))
        outcome = reproduce(variant.name, quick=quick, out=Path(out) / f"w{w}", workers=workers, progress=progress)
        for fig in outcome.figures:
            for v in fig.verdicts:
                key = f"{fig.figure.id}: {v.claim.text}"
                texts.setdefault(key, f"{fig.figure.id}: {v.claim.text.split(' (§')[0]}")
                gain = measured_gain(v.ours)
                columns.setdefault(w, {})[key] = v.status + (f" ({gain})" if gain else "")
    rows = ["| claim | " + " | ".join(f"window {w}" for w in windows) + " |",
            "|---|" + "---|" * len(windows)]
    for key, label in texts.items():
        rows.append(f"| {label} | " + " | ".join(columns[w].get(key, "-") for w in windows) + " |")
    return "\n".join(rows)
