"""The scheme x scenario matrix (vhsim matrix): a 2 x 2 subset end to end (table contents against
the campaigns' own runs, resumption, the heat maps), the pairing and verdicts of a cell, the data
file's errors, the command line."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import t

from vhsim import campaign
from vhsim.campaign import CampaignError
from vhsim.campaign.axes import Axis, AxisValue
from vhsim.matrix import METRICS, Entry, compare, load_matrix, run_matrix
from vhsim.matrix.compare import BASELINE, BETTER, IDENTICAL, NO_DIFFERENCE, WORSE

from conftest import run_vhsim

# Two TCP schemes x two papers' scenarios (both random, so seeds are the samples), 3 seeds each.
SUBSET = dict(schemes=["sack", "linux"], scenarios=["limjang", "kimkoh-tcp"], seeds=3)


@pytest.fixture(scope="module")
def subset(tmp_path_factory):
    out = tmp_path_factory.mktemp("matrix")
    return run_matrix(load_matrix(**SUBSET), out, workers=2, progress=False)


def _t_interval(x: np.ndarray) -> tuple[float, float]:
    half = t.ppf(0.975, len(x) - 1) * x.std(ddof=1) / math.sqrt(len(x))
    return x.mean() - half, x.mean() + half


def test_the_subset_has_every_cell_and_each_is_the_paired_comparison_of_its_runs(subset):
    assert [e.entry.name for e in subset.entries] == ["limjang", "kimkoh-tcp"]
    assert subset.total == 12 and subset.failed_runs == 0
    cells = {(c.entry, c.scheme, c.metric): c for c in subset.cells}
    assert len(cells) == 2 * 2 * len(METRICS)
    for e in subset.entries:
        df = e.results
        assert sorted(df["flows." + e.entry.flow + ".scheme"].unique()) == ["linux", "sack"]
        for metric in METRICS.values():
            base = cells[(e.entry.name, "sack", metric.name)]
            assert base.verdict == BASELINE and base.rel == 0
            cell = cells[(e.entry.name, "linux", metric.name)]
            column = e.entry.column(metric)
            by_seed = df.pivot(index="seed", columns="flows." + e.entry.flow + ".scheme", values=column)
            a, b = by_seed["linux"].to_numpy(float), by_seed["sack"].to_numpy(float)
            assert cell.n == cell.n_pairs == 3
            assert cell.mean == pytest.approx(a.mean()) and cell.baseline_mean == pytest.approx(b.mean())
            low, high = _t_interval(a - b)
            scale = 100 / b.mean() if metric.relative == "ratio" else 1.0
            if np.all(a == b):
                assert cell.verdict == IDENTICAL
                continue
            assert (cell.rel, cell.rel_low, cell.rel_high) == pytest.approx(
                ((a - b).mean() * scale, low * scale, high * scale))
            expected = NO_DIFFERENCE if low <= 0 <= high else (
                BETTER if (low > 0) == metric.higher_is_better else WORSE)
            assert cell.verdict == expected


def test_the_report_table_and_csv_hold_the_cells(subset):
    report = (subset.out / "matrix.md").read_text(encoding="utf-8")
    assert "| scheme | limjang | kimkoh-tcp |" in report
    goodput = {(c.entry, c.scheme): c for c in subset.cells if c.metric == "goodput"}
    limjang = goodput[("limjang", "linux")]
    # linux against sack on Lim & Jang's handover: its mean and its paired relative figure, in the table
    assert f"{limjang.mean:.0f} \u00b1" in report and f"{limjang.rel:+.3g} %" in report
    assert "(baseline)" in report and "Today's Linux TCP" in report
    csv = pd.read_csv(subset.out / "cells.csv")
    assert len(csv) == len(subset.cells)
    row = csv[(csv.entry == "limjang") & (csv.scheme == "linux") & (csv.metric == "goodput")].iloc[0]
    assert row["rel"] == pytest.approx(limjang.rel) and row["verdict"] == limjang.verdict


def test_a_heat_map_per_metric_with_its_caption_in_the_file(subset):
    from PIL import Image

    for metric in METRICS:
        png = subset.out / f"heatmap-{metric}.png"
        assert png.is_file() and (subset.out / f"heatmap-{metric}.svg").is_file()
        with Image.open(png) as image:
            assert "against each scenario's baseline" in image.text["Title"]
            assert "2 scenarios x 2 schemes" in image.text["Description"]


def test_the_matrix_resumes_like_any_campaign(subset, tmp_path):
    again = run_matrix(load_matrix(**SUBSET), subset.out, workers=1, progress=False)
    assert again.executed == 0 and again.total == 12
    assert again.cells == subset.cells
    # lose two runs of one campaign (as if interrupted): only they run again, the cells are the same
    [log] = (subset.out / "campaigns" / "limjang" / "runs").glob("*/records.jsonl")
    lines = log.read_bytes().splitlines(keepends=True)
    runs = [i for i, line in enumerate(lines) if line.startswith(b'{"run_id"')]
    log.write_bytes(b"".join(line for i, line in enumerate(lines) if i not in runs[:2]))
    resumed = run_matrix(load_matrix(**SUBSET), subset.out, workers=1, progress=False)
    assert resumed.executed == 2 and resumed.cells == subset.cells
    # the campaign folders are ordinary campaigns
    assert len(campaign.open(subset.out / "campaigns" / "kimkoh-tcp").results()) == 6


def test_a_selection_of_schemes_reuses_the_stored_runs(subset):
    fewer = run_matrix(load_matrix(schemes=["sack"], scenarios=["limjang"], seeds=3), subset.out,
                       workers=1, progress=False)
    assert fewer.executed == 0 and fewer.total == 3
    assert {c.scheme for c in fewer.cells} == {"sack"}


# ------------------------------------------------------------------------------- one cell
def _entry(instants: bool) -> Entry:
    axis = Axis("timeline[0].at", (AxisValue("1s", "1s"), AxisValue("2s", "2s"))) if instants else None
    return Entry("e", "p", "t", "x.toml", "bulk", "tcp", "sack", 2, instants=axis)


def _runs(rows):
    return pd.DataFrame(rows, columns=["seed", "timeline[0].at", "flows.bulk.scheme", "bulk.ho0.interruption_s"])


def test_runs_pair_by_seed_and_instant_and_less_interruption_is_better():
    # rows in a shuffled order: pairs must come from (seed, instant), never from row order
    df = _runs([(1, "2s", "new", 0.5), (1, "1s", "sack", 1.0), (2, "1s", "new", 0.7), (1, "1s", "new", 0.4),
                (2, "2s", "sack", 1.4), (1, "2s", "sack", 1.1), (2, "1s", "sack", 1.2), (2, "2s", "new", 0.9)])
    cell = compare(df, _entry(True), METRICS["interruption"], "new")
    diffs = np.array([0.4 - 1.0, 0.5 - 1.1, 0.7 - 1.2, 0.9 - 1.4])
    assert cell.n_pairs == 4 and cell.rel == pytest.approx(diffs.mean())
    assert (cell.rel_low, cell.rel_high) == pytest.approx(_t_interval(diffs))
    assert cell.verdict == BETTER  # shorter interruption, interval below zero


def test_identical_runs_and_missing_values():
    df = _runs([(1, "1s", "sack", 1.0), (1, "1s", "same", 1.0), (2, "1s", "sack", 2.0), (2, "1s", "same", 2.0),
                (3, "1s", "sack", 3.0), (3, "1s", "same", math.nan)])
    cell = compare(df, _entry(True), METRICS["interruption"], "same")
    assert cell.verdict == IDENTICAL and cell.n_pairs == 2 and cell.missing == 1
    assert compare(df, _entry(True), METRICS["goodput"], "same").n == 0  # the column is absent: no value
    assert compare(df, _entry(True), METRICS["interruption"], "bbr") is None  # did not run


# ------------------------------------------------------------------------------- bad input
def test_selection_errors_name_the_value_and_the_choices():
    with pytest.raises(CampaignError, match="unknown scheme 'bbr' .*linux"):
        load_matrix(schemes=["bbr"])
    with pytest.raises(CampaignError, match="unknown scenario 'ns3' .*limjang"):
        load_matrix(scenarios=["ns3"])
    with pytest.raises(CampaignError, match="unknown metric 'rtt' .*goodput"):
        load_matrix(metrics=["rtt"])
    with pytest.raises(CampaignError, match="no selected scheme runs on scenario 'kimkoh' .*msctp"):
        load_matrix(schemes=["sack"], scenarios=["kimkoh"])


@pytest.mark.parametrize("body, message", [
    ('[scenarios.a]\nscenario = "limjang/3g-to-wlan.toml"\nflow = "tcp"\nbaseline = "sack"\nseed = 3\n',
     r"scenarios\.a: unknown key 'seed'"),
    ('[scenarios.a]\nscenario = "limjang/3g-to-wlan.toml"\nflow = "bulk"\nbaseline = "sack"\n',
     r"scenarios\.a\.flow: the scenario has no flow 'bulk' \(flows: tcp\)"),
    ('[scenarios.a]\nscenario = "limjang/3g-to-wlan.toml"\nflow = "tcp"\nbaseline = "msctp"\n',
     r"scenarios\.a\.baseline: 'msctp' is a sctp scheme; flow 'tcp' is tcp"),
    ('[scenarios.a]\nscenario = "limjang/nope.toml"\nflow = "tcp"\nbaseline = "sack"\n',
     r"scenarios\.a\.scenario: scenario file scenarios/limjang/nope\.toml not found"),
    ('seeds = 0\n[scenarios.a]\nscenario = "limjang/3g-to-wlan.toml"\nflow = "tcp"\nbaseline = "sack"\n',
     r"`seeds` must be an integer >= 1, got 0"),
    ('[scenarios.a]\nscenario = "limjang/3g-to-wlan.toml"\nflow = "tcp"\nbaseline = "sack"\n'
     'columns = { rtt = "x" }\n', r"scenarios\.a\.columns: .*unknown metric 'rtt'"),
])
def test_data_file_errors_name_the_key(tmp_path, body, message):
    path = tmp_path / "m.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(CampaignError, match=message):
        load_matrix(path)


def test_a_bad_instant_is_refused_before_anything_runs(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text('[scenarios.a]\nscenario = "danielkojo/fig08-mbb.toml"\nflow = "bulk"\nbaseline = "sack"\n'
                    'instants = { key = "timeline[0].at", values = ["8s", "99s"] }\n', encoding="utf-8")
    with pytest.raises(CampaignError, match="matrix scenario a: .*timeline\\[0\\]"):
        run_matrix(load_matrix(path, schemes=["sack"]), tmp_path / "out", workers=1)
    assert not (tmp_path / "out" / "campaigns" / "a" / "runs").exists()


def test_robust_adds_each_variant_beside_its_entry():
    spec = load_matrix(schemes=["sack", "linux"], scenarios=["limjang", "kimkoh-tcp"], robust=True)
    assert [e.name for e in spec.entries] == ["limjang", "limjang+robust", "kimkoh-tcp"]
    assert spec.entries[1].fixed[-1] == ("links.umts.forward.reorder.depth", "3")


def test_seeds_replace_the_replications_of_random_entries_only():
    spec = load_matrix(seeds=4)
    seeds = {e.name: (e.seeds, e.instants is not None) for e in spec.entries}
    assert seeds["limjang"] == (4, False) and seeds["danielkojo"] == (1, True)
    assert {e.name for e in spec.entries} == {"limjang", "danielkojo", "sobral", "park", "kimkoh", "kimkoh-tcp",
                                              "limjang-w20", "traced"}
    assert seeds["limjang-w20"] == (4, False) and seeds["traced"] == (1, True)


def test_the_command_line(tmp_path):
    out = tmp_path / "cli"
    ok = run_vhsim("matrix", "--schemes", "sack,newreno-prr", "--scenarios", "kimkoh-tcp", "--seeds", "2",
                   "--metric", "goodput", "--out", str(out), "-w", "1", "-q")
    assert ok.returncode == 0, ok.stderr
    assert "kimkoh-tcp: campaign" in ok.stdout and (out / "matrix.md").is_file()
    assert (out / "heatmap-goodput.png").is_file() and not (out / "heatmap-interruption.png").exists()
    bad = run_vhsim("matrix", "--schemes", "bbr", "--out", str(out))
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error: unknown scheme 'bbr'")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_the_matrix_runs_on_dask_with_the_same_cells(subset, tmp_path):
    pytest.importorskip("distributed")
    spec = load_matrix(schemes=["sack", "linux"], scenarios=["kimkoh-tcp"], seeds=3)
    on_dask = run_matrix(spec, tmp_path / "dask", workers=2, dask="local", progress=False)
    assert on_dask.executed == 6
    local = [c for c in subset.cells if c.entry == "kimkoh-tcp"]
    assert on_dask.cells == local
