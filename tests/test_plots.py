"""Plot functions of vhsim.plots used directly from Python."""

from __future__ import annotations

import pytest

import vhsim
import vhsim.plots
from conftest import TINY


@pytest.fixture(scope="module")
def result():
    return vhsim.loads(TINY.replace("p = 0.01", "p = 0.03")).run(seed=1, detail="packets")


def test_time_sequence_marks_sends_retransmissions_and_drops(result):
    ax = vhsim.plots.time_sequence(result, flow="bulk")
    labels = [line.get_label() for line in ax.get_lines()]
    assert any(label.startswith("sent") for label in labels)
    bulk = result.summary["flows"]["bulk"]
    if bulk["retransmissions"] - bulk["spurious_retransmissions"] > 0:
        assert any(label.startswith("retransmitted") for label in labels)
    if bulk["spurious_retransmissions"] > 0:
        assert any(label.startswith("spurious") for label in labels)
    if sum(bulk["drops"].values()) > 0:
        assert any(label.startswith("dropped") for label in labels)


def test_cwnd_draws_cwnd_and_ssthresh(result):
    ax = vhsim.plots.cwnd(result)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "cwnd" in labels
    assert ax.get_ylabel() == "packets"


def test_overview_writes_a_two_panel_png(result, tmp_path):
    info = vhsim.plots.overview(result, tmp_path / "o.png")
    assert info["flow"] == "bulk" and info["missing"] == []
    assert (tmp_path / "o.png").stat().st_size > 10_000


def test_plots_need_the_right_detail(tiny_text):
    res = vhsim.loads(tiny_text).run(detail="summary")
    with pytest.raises(vhsim.plots.MissingTraceError, match="packets"):
        vhsim.plots.time_sequence(res)
    with pytest.raises(vhsim.plots.MissingTraceError, match="timeseries"):
        vhsim.plots.cwnd(res)
    with pytest.raises(vhsim.plots.MissingTraceError):
        vhsim.plots.overview(res, "never.png")


def test_cwnd_of_an_sctp_association_draws_one_line_per_path():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    res = vhsim.load(root / "scenarios/examples/sctp-failover.toml").with_(duration="15s").run(seed=1)
    ax = vhsim.plots.cwnd(res)
    assert [line.get_label() for line in ax.get_lines()] == ["cwnd path 0", "cwnd path 1"]
    assert ax.get_ylabel() == "bytes"


def test_bar_chart_clips_intervals_and_shows_runs_below_five(tmp_path):
    """Item 7 of issue #18: a t interval is clipped at the metric's bounds, and a bar of fewer
    than 5 runs shows the runs instead; the caption says n."""
    import pandas as pd
    from PIL import Image

    from vhsim.campaign.plots import MIN_RUNS_FOR_CI, bar_chart

    few = pd.DataFrame({"scheme": ["a", "a", "b", "b"], "pct": [2.0, 60.0, 50.0, 52.0], "rep": [0, 1, 0, 1]})
    few.attrs.update({"scenario": "s", "replications": 2, "vhsim_version": "test"})
    files = bar_chart(few, "pct", "scheme", tmp_path / "few", bounds=(0, 100))
    meta = Image.open(files[0]).text["Description"]
    assert "n = 2 runs per bar" in meta and "dots: each run" in meta and "whiskers" not in meta
    many = pd.DataFrame({"scheme": ["a"] * MIN_RUNS_FOR_CI, "pct": [1.0, 1.0, 1.0, 1.0, 90.0],
                         "rep": range(MIN_RUNS_FOR_CI)})
    many.attrs.update({"scenario": "s", "replications": MIN_RUNS_FOR_CI, "vhsim_version": "test"})
    files = bar_chart(many, "pct", "scheme", tmp_path / "many", bounds=(0, 100))
    meta = Image.open(files[0]).text["Description"]
    assert "n = 5 runs per bar" in meta and "clipped at the metric's bounds" in meta
    from vhsim.campaign.plots import clipped_whisker
    from vhsim.campaign.stats import mean_ci
    ci = mean_ci(many["pct"])
    assert ci.low < 0  # unclipped, the whisker would go below 0% of the link
    down, up = clipped_whisker(ci.mean, ci.half_width, 0, 100)
    assert down == pytest.approx(ci.mean) and up == pytest.approx(ci.half_width)
    assert clipped_whisker(99.0, 5.0, 0, 100) == (5.0, pytest.approx(1.0))
