"""Walkthrough: a small campaign from definition to plot, in the order one works in a notebook.

Run from the repository root:

    python3 examples/campaign_walkthrough.py [OUT_DIR]      # default OUT_DIR: out/walkthrough

It sweeps the TCP scheme and the loss rate of scenarios/examples/loss-sweep.toml with 4
replications of 30 s runs (a few seconds on a laptop), loads the results into pandas,
computes means with confidence intervals and a paired comparison, queries the folder with
DuckDB if it is installed, and writes two plots.  Running it again reuses every stored run.
Each "# %%" block is one notebook cell.
"""

# %% 1. Define the campaign: a base scenario, axes, replications.
import sys
from pathlib import Path

from vhsim import campaign
from vhsim.campaign import plots, stats

REPO = Path(__file__).resolve().parent.parent
OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("out") / "walkthrough"
FMT = "{:.5g}".format  # 0.01 stays 0.01, 1085.52 prints as 1085.5

spec = campaign.CampaignSpec.from_cli(
    str(REPO / "scenarios" / "examples" / "loss-sweep.toml"),
    # the same strings as `vhsim sweep -p KEY=V1,V2,...`
    ["flows.bulk.scheme=reno,newreno,sack", "links.access.forward.error.p=0.01,0.02,0.05"],
    # fixed overrides, as `--set`: shorter runs, and a goodput window that fits in them
    [("duration", "30s"), ("metrics.windows.steady", '["5s", "30s"]')],
    replications=4,
)
print(spec.describe(), "->", spec.size, "runs")

# %% 2. Run it (only missing runs execute; 2 local worker processes).
report = campaign.run_campaign(spec, OUT / "campaign", workers=2)
print(report.line())

# %% 3. Load the results: one row per run, axis columns + flattened metrics.
camp = campaign.open(OUT / "campaign")
df = camp.results()
print(df[["config", "rep", "seed", "flows.bulk.scheme", "links.access.forward.error.p",
          "bulk.goodput_kbps", "bulk.rto_count"]].head(6).to_string(index=False, float_format=FMT))

# %% 4. Statistics: mean with 95% t-CI and quartiles per configuration ...
summary = stats.summarize(df, "bulk.goodput_kbps")
print(summary[["flows.bulk.scheme", "links.access.forward.error.p", "n", "mean", "ci_half_width",
               "median", "q1", "q3"]].to_string(index=False, float_format=FMT))

# ... and SACK minus Reno, paired by seed (replication k has the same seed for both).
diff = stats.paired_difference(df, "bulk.goodput_kbps", "flows.bulk.scheme", "sack", "reno")
print(diff[["links.access.forward.error.p", "n_pairs", "mean_diff", "ci_low", "ci_high"]]
      .to_string(index=False, float_format=FMT))

# %% 5. The same folder from DuckDB (optional dependency).
try:
    import duckdb
except ImportError:
    print("duckdb not installed; skipping the SQL query")
else:
    table = OUT / "campaign" / "results.parquet"
    print(duckdb.sql(f"""
        SELECT "flows.bulk.scheme" AS scheme, avg("bulk.goodput_kbps") AS goodput_kbps
        FROM read_parquet('{table}') GROUP BY scheme ORDER BY goodput_kbps DESC""").df().to_string(index=False, float_format=FMT))

# %% 6. Plots: bars with CI whiskers per scheme, grouped by loss rate; quartiles vs loss.
files = plots.bar_chart(df, "bulk.goodput_kbps", "flows.bulk.scheme", OUT / "goodput-bars",
                        groups="links.access.forward.error.p", ylabel="goodput (kb/s)")
files += plots.quartile_lines(df, "bulk.goodput_kbps", "links.access.forward.error.p", OUT / "goodput-quartiles",
                              lines="flows.bulk.scheme", ylabel="goodput (kb/s)")
for path in files:
    print("wrote", path)
