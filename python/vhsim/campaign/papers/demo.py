"""The ``demo`` reproduction: goodput versus random loss for Reno, NewReno and SACK.

Not a paper: it proves the reproduction machinery on a small campaign whose expected
outcome is textbook knowledge.  Base scenario ``scenarios/examples/loss-sweep.toml``: one
bulk flow over a 2 Mb/s, 40 ms access link with Bernoulli loss p on the data direction,
window 64 packets, 120 s.  Campaign: scheme x p in {0.5%, 1%, 2%, 5%}, 10 replications
(quick: 3 replications of 30 s runs).

Claims, checked on the means of our runs:

1. goodput falls as the loss rate grows, for every scheme;
2. at the highest loss rate NewReno and SACK reach at least Reno's goodput (Reno leaves
   fast recovery after the first of several losses in a window and often ends in an RTO).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..plots import bar_chart, quartile_lines, run_overview
from ..reproduce import Claim, FigureSpec, Paper, markdown_table, scenario_file
from ..spec import CampaignSpec
from ..stats import paired_difference, summarize

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign

SCHEME = "flows.bulk.scheme"
LOSS = "links.access.forward.error.p"
GOODPUT = "bulk.goodput_kbps"
SCHEMES = ("reno", "newreno", "sack")
LOSSES = ("0.005", "0.01", "0.02", "0.05")


def campaign(quick: bool) -> CampaignSpec:
    params = [f"{SCHEME}={','.join(SCHEMES)}", f"{LOSS}={','.join(LOSSES)}"]
    fixed: list[tuple[str, str]] = []
    if quick:
        # A 30 s run still holds hundreds of loss events at p >= 0.5%; the goodput
        # window must end within the run.
        fixed = [("duration", "30s"), ("metrics.windows.steady", '["5s", "30s"]')]
    return CampaignSpec.from_cli(str(scenario_file("examples/loss-sweep.toml")), params, fixed,
                                 replications=3 if quick else 10)


def plot(camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
    files = bar_chart(df, GOODPUT, SCHEME, out / "goodput-bars", groups=LOSS,
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


def _means(df: "pd.DataFrame") -> dict[tuple[str, float], float]:
    table = summarize(df, GOODPUT, by=[SCHEME, LOSS])
    return {(r[SCHEME], float(r[LOSS])): float(r["mean"]) for _, r in table.iterrows()}


def goodput_falls_with_loss(df: "pd.DataFrame") -> tuple[bool, str]:
    means = _means(df)
    losses = sorted({p for _, p in means})
    holds, parts = True, []
    for scheme in SCHEMES:
        series = [means[(scheme, p)] for p in losses if (scheme, p) in means]
        falling = all(a > b for a, b in zip(series, series[1:]))
        holds &= falling and len(series) == len(losses)
        parts.append(f"{scheme}: " + " > ".join(f"{v:.0f}" for v in series) + ("" if falling else " (not falling)"))
    return holds, "mean goodput (kb/s) at p = " + ", ".join(f"{p:g}" for p in losses) + ": " + "; ".join(parts)


def recovery_beats_reno_at_high_loss(df: "pd.DataFrame") -> tuple[bool, str]:
    worst = df[LOSS].max()
    at_worst = df[df[LOSS] == worst]
    means = _means(at_worst)
    reno = means[("reno", float(worst))]
    holds, parts = True, [f"p = {worst:g}: reno {reno:.0f} kb/s"]
    for scheme in ("newreno", "sack"):
        mean = means[(scheme, float(worst))]
        holds &= mean >= reno
        diff = paired_difference(at_worst, GOODPUT, SCHEME, scheme, "reno", by=[LOSS]).iloc[0]
        parts.append(f"{scheme} {mean:.0f} kb/s ({scheme} \u2212 reno, paired: {diff['mean_diff']:+.0f}, "
                     f"95% CI {diff['ci_low']:+.0f} .. {diff['ci_high']:+.0f})")
    return holds, "; ".join(parts)


def table(df: "pd.DataFrame") -> str:
    s = summarize(df, GOODPUT, by=[LOSS, SCHEME])
    losses = sorted(set(s[LOSS]))
    rows = []
    for p in losses:
        row = [f"{p:g}"]
        for scheme in SCHEMES:
            r = s[(s[LOSS] == p) & (s[SCHEME] == scheme)]
            row.append(f"{r['mean'].iloc[0]:.0f} \u00b1 {r['ci_half_width'].iloc[0]:.0f}" if len(r) else "\u2013")
        rows.append(row)
    return ("Mean goodput (kb/s) \u00b1 95% CI half-width, per loss rate p and scheme:\n\n"
            + markdown_table(["p", *SCHEMES], rows))


PAPER = Paper(
    name="demo",
    title="Goodput vs random loss for Reno, NewReno and SACK (demonstration campaign)",
    citation="Not a paper: a small campaign of vhsim's own that exercises `vhsim reproduce`. The claims "
             "are the textbook expectations (Fall & Floyd, 'Simulation-based comparisons of Tahoe, Reno, "
             "and SACK TCP', CCR 1996).",
    figures=(
        FigureSpec(
            id="goodput-vs-loss",
            title="Goodput of one bulk flow vs Bernoulli loss on a 2 Mb/s, 40 ms access link",
            campaign=campaign,
            plot=plot,
            claims=(
                Claim("Goodput falls as the loss rate grows, for every scheme.", goodput_falls_with_loss),
                Claim("At the highest loss rate, NewReno and SACK reach at least Reno's goodput.",
                      recovery_beats_reno_at_high_loss),
            ),
            table=table,
        ),
    ),
)
