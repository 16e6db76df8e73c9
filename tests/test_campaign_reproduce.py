"""`vhsim reproduce demo --quick`, plot captions and metadata, and the walkthrough example."""

from __future__ import annotations

import subprocess
import sys

import pytest

from vhsim import campaign
from vhsim.campaign import CampaignSpec, plots, run_campaign
from vhsim.campaign.papers import demo
from vhsim.campaign.reproduce import papers

from conftest import REPO, run_vhsim


def test_reproduce_demo_quick_writes_plots_and_report(tmp_path):
    out = tmp_path / "demo"
    r = run_vhsim("reproduce", "demo", "--quick", "--out", out, "--workers", "2", cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    fig = out / "goodput-vs-loss"
    for stem in ("goodput-bars", "goodput-quartiles", "reno-highest-loss-run"):
        for ext in ("png", "svg"):
            assert (fig / f"{stem}.{ext}").stat().st_size > 1000, f"{stem}.{ext}"
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# Reproduction: ")
    assert "quick mode" in report and "3 replications" in report
    assert "![goodput-bars](goodput-vs-loss/goodput-bars.png)" in report
    assert "| the paper says | paper | ours | rule | verdict |" in report
    assert "(of 2 claims)" in report and "| figure | holds | does not hold | not checkable |" in report
    # both claims appear with a computed verdict and the numbers behind it (3 replications: a
    # comparison whose values meet the claim but whose 95% CI the quick campaign cannot narrow
    # enough is left to the full campaign's 10)
    for claim in demo.PAPER.figures[0].claims:
        line = next(ln for ln in report.splitlines() if ln.startswith(f"| {claim.text}"))
        assert line.endswith(("| **holds** |", "| **does not hold** |")) or (
            line.endswith("| **not checked in quick mode** |") and "needs the full campaign's 10 replications" in line), line
        assert "kb/s" in line
    # every verdict line on the console names its figure (issue #31 item 6)
    verdict_lines = [ln for ln in r.stdout.splitlines() if ln.startswith("  ") and not ln.startswith("  wrote ")]
    assert len(verdict_lines) == 2, r.stdout
    assert all(ln.startswith(tuple(f"  [goodput-vs-loss] {status}: " for status in
                                   ("holds", "does not hold", "not checked in quick mode")))
               for ln in verdict_lines), verdict_lines
    df = campaign.open(fig / "campaign").results()
    assert len(df) == 36 and set(df.rep) == {0, 1, 2} and (df["sim_s"] == 30).all()
    # a second call reuses every run
    again = run_vhsim("reproduce", "demo", "--quick", "--out", out, "--workers", "1", cwd=REPO, timeout=120)
    assert again.returncode == 0 and "(0 run now" in again.stdout
    assert "demo" in run_vhsim("reproduce", "--list").stdout
    bad = run_vhsim("reproduce", "nosuchpaper")
    assert bad.returncode == 2 and "no paper 'nosuchpaper'" in bad.stderr


def test_demo_claims_are_computed_from_the_numbers():
    import pandas as pd

    from vhsim.campaign.claims import evaluate

    rows = []
    for scheme, base in (("reno", 900.0), ("newreno", 1000.0), ("sack", 1000.0)):
        for p, factor in (("0.005", 1.0), ("0.01", 0.7), ("0.02", 0.5), ("0.05", 0.3)):
            for rep in range(3):
                rows.append({"seed": rep + 1, "rep": rep, demo.SCHEME: scheme, demo.LOSS: float(p),
                             demo.GOODPUT: base * factor + rep})
    df = pd.DataFrame(rows)
    falls, beats = demo.CLAIMS
    assert evaluate(falls, df).status == "holds" and evaluate(beats, df).status == "holds"
    rising = df.copy()
    rising.loc[rising[demo.LOSS] == 0.05, demo.GOODPUT] += 2000
    verdict = evaluate(falls, rising)
    assert verdict.status == "does not hold" and "not falling" in verdict.ours
    reno_wins = df.copy()
    reno_wins.loc[reno_wins[demo.SCHEME] == "reno", demo.GOODPUT] += 500
    assert evaluate(beats, reno_wins).status == "does not hold"


def test_registry_and_quick_campaign_definition():
    assert "demo" in papers()
    fig = demo.PAPER.figures[0]
    quick, full = fig.campaign(True), fig.campaign(False)
    assert (quick.replications, full.replications) == (3, 10)
    assert [a.labels for a in full.axes] == [list(demo.SCHEMES), list(demo.LOSSES)]
    assert ("duration", "30s") in quick.fixed and full.fixed == (("defaults", "ns-2.35"),)
    assert ("defaults", "ns-2.35") in quick.fixed


def test_plots_state_scenario_replications_and_version(tiny_path, tmp_path):
    from PIL import Image

    import vhsim

    spec = CampaignSpec.from_cli(str(tiny_path), ["flows.bulk.scheme=reno,sack", "links.access.rate=1Mbps,2Mbps"],
                                 replications=2)
    run_campaign(spec, tmp_path / "c", workers=1)
    camp = campaign.open(tmp_path / "c")
    df = camp.results()
    written = plots.bar_chart(df, "bulk.goodput_kbps", "flows.bulk.scheme", tmp_path / "bars",
                              groups="links.access.rate")
    written += plots.quartile_lines(df, "bulk.goodput_kbps", "links.access.rate", tmp_path / "lines",
                                    lines="flows.bulk.scheme")
    written += plots.run_overview(camp, tmp_path / "run", config=1, rep=1)
    assert sorted(p.name for p in written) == sorted(
        f"{s}.{e}" for s in ("bars", "lines", "run") for e in ("png", "svg"))
    for path in written:
        if path.suffix == ".png":
            text = Image.open(path).text
            assert text["Software"] == f"vhsim {vhsim.__version__}"
            description = text["Description"]
        else:
            svg = path.read_text(encoding="utf-8")
            description = svg.split("<dc:description>")[1].split("</dc:description>")[0]
        assert "scenario tiny" in description and f"vhsim {vhsim.__version__}" in description
        assert "2 replications" in description


def test_walkthrough_example_runs(tmp_path):
    script = REPO / "examples" / "campaign_walkthrough.py"
    r = subprocess.run([sys.executable, str(script), str(tmp_path / "wt")], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "36/36 runs done" in r.stdout
    assert (tmp_path / "wt" / "goodput-bars.png").is_file() and (tmp_path / "wt" / "goodput-quartiles.svg").is_file()
    assert len(campaign.open(tmp_path / "wt" / "campaign").results()) == 36


@pytest.mark.parametrize("name", ["sweep", "export", "reproduce"])
def test_new_commands_have_help_with_examples(name):
    r = run_vhsim(name, "--help")
    assert r.returncode == 0 and "Examples:" in r.stdout


def test_trace_for_reads_the_stored_traces_or_reruns_the_run(tiny_path, tmp_path):
    spec = CampaignSpec.from_cli(str(tiny_path), ["flows.bulk.scheme=reno,sack"], replications=1)
    run_campaign(spec, tmp_path / "c", workers=1)  # summaries only: no traces kept
    camp = campaign.open(tmp_path / "c")
    row = camp.results().iloc[1]
    with pytest.raises(FileNotFoundError):
        camp.trace_for(row)
    again = camp.trace_for(row, rerun=True)  # the same run, simulated again with its packet trace
    assert again.has_trace("packets") and again.seed == int(row["seed"])
    assert again.summary["flows"]["bulk"]["goodput_kbps"] == row["bulk.goodput_kbps"]
    assert again.summary["flows"]["bulk"]["scheme"] == row["flows.bulk.scheme"]
