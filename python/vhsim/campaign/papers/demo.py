"""The ``demo`` reproduction: goodput versus random loss for Reno, NewReno and SACK.

Not a paper: it proves the reproduction machinery on a small campaign whose expected
outcome is textbook knowledge.  Base scenario ``scenarios/examples/loss-sweep.toml``: one
bulk flow over a 2 Mb/s, 40 ms access link with Bernoulli loss p on the data direction,
window 64 packets, 120 s, under ns-2.35's set of defaults.  Campaign: scheme x p in {0.5%, 1%, 2%, 5%}, 10 replications
(quick: 3 replications of 30 s runs).

Claims, checked on the means of our runs:

1. goodput falls as the loss rate grows, for every scheme;
2. at the highest loss rate NewReno and SACK reach at least Reno's goodput (Reno leaves
   fast recovery after the first of several losses in a window and often ends in an RTO).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .. import metrics as M
from ..claims import Gain, Measure, Monotone, above
from ..figures import Col, FigureSpec, Grid, Paper, Table, axis
from ..plots import bar_chart, quartile_lines, run_overview
from ..variants import Alternative, FlowStarts, LinkDelays, Perturbation, Seeds

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign

SCHEME = "flows.bulk.scheme"
LOSS = "links.access.forward.error.p"
GOODPUT = M.flow("bulk", M.GOODPUT_KBPS)
SCHEMES = ("reno", "newreno", "sack")
LOSSES = ("0.005", "0.01", "0.02", "0.05")
MEAN = Measure(GOODPUT, unit=" kb/s", digits=0, name="mean goodput")

# ns-2.35's set of defaults (immediate ACKs, initial window 2, window cap 20 -- the file's 64 wins --,
# min RTO 200 ms), as every paper's reproduction: the example file itself takes the library's RFC
# defaults, and the demo's textbook outcome and its delayed-ACK alternative are stated for ns-2's.
GRID = Grid("examples/loss-sweep.toml", (axis(SCHEME, SCHEMES), axis(LOSS, LOSSES)), replications=10,
            fixed={"defaults": "ns-2.35"})
# A 30 s run still holds hundreds of loss events at p >= 0.5%; the goodput window must end within it.
QUICK = GRID.but({"duration": "30s", "metrics.windows.steady": '["5s", "30s"]'}, replications=3)


def plot(camp: "Campaign", df: "pd.DataFrame", out: Path, fig: FigureSpec) -> list[Path]:
    files = bar_chart(df, GOODPUT, SCHEME, out / "goodput-bars", groups=LOSS, bounds=(0, None),
                      title="Goodput of one bulk flow vs Bernoulli loss rate p", ylabel="goodput (kb/s)")
    files += quartile_lines(df, GOODPUT, LOSS, out / "goodput-quartiles", lines=SCHEME,
                            title="Goodput quartiles vs Bernoulli loss rate p", ylabel="goodput (kb/s)",
                            xlabel="loss rate p on the data direction")
    # One run to look at: Reno at the highest loss rate, first replication.
    reno_worst = df[(df[SCHEME] == "reno") & (df[LOSS] == df[LOSS].max())]
    if len(reno_worst):
        row = reno_worst.iloc[0]
        files += run_overview(camp, out / "reno-highest-loss-run", config=int(row["config"]), rep=int(row["rep"]))
    return files


CLAIMS = (
    Monotone("Goodput falls as the loss rate grows, for every scheme.", paper="falls", measure=MEAN, along=LOSS,
             order=tuple(float(p) for p in LOSSES), rising=False, overall=True,
             over={SCHEME: SCHEMES, LOSS: tuple(float(p) for p in LOSSES)}),
    Gain("At the highest loss rate, NewReno and SACK reach at least Reno's goodput.", paper="at least Reno's",
         measure=MEAN, where={LOSS: float(LOSSES[-1])}, a=({SCHEME: "newreno"}, {SCHEME: "sack"}),
         b={SCHEME: "reno"}, band=above(0.0, strict=False)),
)

PAPER = Paper(
    name="demo",
    title="Goodput vs random loss for Reno, NewReno and SACK (demonstration campaign)",
    citation="Not a paper: a small campaign of vhsim's own that exercises `vhsim reproduce`. The claims "
             "are the textbook expectations (Fall & Floyd, 'Simulation-based comparisons of Tahoe, Reno, "
             "and SACK TCP', CCR 1996).",
    figures=(FigureSpec(
        "goodput-vs-loss", "Goodput of one bulk flow vs Bernoulli loss on a 2 Mb/s, 40 ms access link", GRID, QUICK,
        plot=plot, claims=CLAIMS,
        table=Table((LOSS,), tuple(Col(s, MEAN, where={SCHEME: s}, ci=True) for s in SCHEMES),
                    "Mean goodput (kb/s) \u00b1 95% CI half-width, per loss rate p and scheme:", headers=("p",))),),
    perturbation=Perturbation((LinkDelays(0.05), FlowStarts("50ms"), Seeds())),
    ambiguities=(Alternative("delayed-ack", "a delayed-ACK receiver (RFC 1122 §4.2.3.2; ns-2's DelAck sink)",
                             {"flows.bulk.sink.delayed_ack": "true"},
                             ours="an ACK per segment (ns-2's default TCPSink)"),),
)
