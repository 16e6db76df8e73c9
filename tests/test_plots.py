"""Plot functions of vhsim.plots used directly from Python."""

from __future__ import annotations

from pathlib import Path

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
        assert any(label.startswith("data segments dropped") for label in labels)


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


# ------------------------------------------------------------------ handovers, RTOs, legends
DEMO = Path(__file__).resolve().parent.parent / "scenarios" / "examples" / "handover-3g-wlan.toml"


@pytest.fixture(scope="module")
def demo_results():
    sc = vhsim.load(DEMO)
    return [sc.run(detail="packets"), sc.set("flows.bulk.scheme", "enhanced").run(detail="packets")]


def _handover_axis(ax):
    tops = [child for child in ax.child_axes if child.get_gid() == "handovers"]
    assert len(tops) == 1, "handovers are named on one axis above the panel"
    return tops[0]


def test_the_demo_overview_marks_handovers_rtos_and_retransmissions(demo_results, tmp_path):
    info = vhsim.plots.overview(demo_results, tmp_path / "demo.png")
    fig = info["figure"]
    axes = fig.axes
    panels = [ax for ax in axes if ax.get_gid() != "handovers" and ax.get_ylabel()]
    assert len(panels) == 4, "two columns of two panels"
    for ax in panels:
        labels = [t.get_text() for t in _handover_axis(ax).get_xticklabels()]
        assert labels == ["umts→wlan (break before make)", "wlan→umts (make before break)"]
    for col, res in enumerate(demo_results):
        seq_ax = panels[col] if panels[col].get_ylabel().startswith("sequence") else panels[col + 2]
        names = [line.get_label() for line in seq_ax.get_lines()]
        rtos = res.summary["flows"]["bulk"]["rto_count"]
        assert f"RTO ({rtos})" in names
        rto_line = next(line for line in seq_ax.get_lines() if line.get_gid() == "rto")
        assert len(rto_line.get_xdata()) == rtos
        assert any(n.startswith("retransmitted (") for n in names)
    # The point of the demo: regular TCP times out after the WLAN -> 3G handover, enhanced does not.
    regular, enhanced = (r.summary["flows"]["bulk"]["handovers"][1] for r in demo_results)
    assert regular["rtos"] == 1 and regular["spurious_retransmissions"] > 0
    assert enhanced["rtos"] == 0 and enhanced["spurious_retransmissions"] == 0


def _overlaps(a, b) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_no_label_is_hidden_behind_a_legend_or_a_title(demo_results, tmp_path):
    fig = vhsim.plots.overview(demo_results, tmp_path / "demo.png")["figure"]
    renderer = fig.canvas.get_renderer()
    for ax in fig.axes:
        if ax.get_gid() == "handovers" or not ax.get_ylabel():
            continue
        labels = [t.get_window_extent(renderer) for t in _handover_axis(ax).get_xticklabels() if t.get_text()]
        blockers = [ax.title.get_window_extent(renderer)]
        if ax.get_legend() is not None:
            blockers.append(ax.get_legend().get_window_extent(renderer))
        for legend in fig.legends:
            blockers.append(legend.get_window_extent(renderer))
        for label in labels:
            for other in blockers:
                assert not _overlaps(label, other), (label, other)
        for a, b in zip(labels, labels[1:]):
            assert not _overlaps(a, b), "handover labels do not overlap each other"


def test_rto_times_match_the_summary_count(demo_results, result):
    for res in [*demo_results, result]:
        assert len(vhsim.plots.rto_times(res, "bulk")) == res.summary["flows"]["bulk"]["rto_count"]


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
