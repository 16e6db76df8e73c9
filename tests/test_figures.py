"""The plotting convention (vhsim.figstyle, issue #31) checked on the figures a newcomer sees
first: those of ``make demo`` (the quick-start overview and Daniel & Kojo's Figure 8 in quick
mode) and those of ``vhsim reproduce demo --quick`` (bars, quartile lines, one run), plus a run
whose receive window binds (bulk-3g, ``window = 20pkt``).

For every panel with a time axis: each handover in view is marked (a line) and labelled (on an
axis above); the legend lies outside the data; a legend entry ``name (n)`` counts exactly the
events of the trace inside the panel's time range; the y-axis fits cwnd and says when ssthresh
is left above it.  Counts are recomputed here from the traces, not from the drawn lines.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import vhsim
import vhsim.plots
from vhsim.campaign import plots as campaign_plots
from vhsim.figstyle import COUNTED, HANDOVER_GID

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "scenarios" / "examples" / "handover-3g-wlan.toml"


@pytest.fixture(scope="module")
def demo_overview(tmp_path_factory):
    sc = vhsim.load(DEMO)
    results = [sc.run(detail="packets"), sc.set("flows.bulk.scheme", "enhanced").run(detail="packets")]
    fig = vhsim.plots.overview(results, tmp_path_factory.mktemp("demo") / "overview.png")["figure"]
    return fig, results


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory):
    """The figures ``vhsim reproduce`` draws for danielkojo fig8 and the demo paper (quick),
    caught as Figure objects on their way to the files."""
    from vhsim.campaign.reproduce import reproduce

    caught: list = []
    real = campaign_plots.save_figure

    def catch(fig, path, *args, **kwargs):
        caught.append((Path(path).name, fig))
        return real(fig, path, *args, **kwargs)

    out = tmp_path_factory.mktemp("reproduce")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(campaign_plots, "save_figure", catch)
        fig8 = reproduce("danielkojo", "fig8", quick=True, out=out / "dk", workers=1, progress=False)
        demo = reproduce("demo", quick=True, out=out / "demo", workers=1, progress=False)
    runs = {row: fig.sweep.campaign for o in (fig8, demo) for row, fig in [(f.figure.id, f) for f in o.figures]}
    return dict(caught), runs


def _panels(fig):
    """The data panels of a figure (not the handover axes above them)."""
    return [ax for ax in fig.axes if ax.get_gid() != "handovers" and ax.get_ylabel()]


def _time_panels(fig):
    return [ax for ax in _panels(fig) if ax.get_xlabel() == "time (s)"]


def _legend_counts(ax) -> dict[str, int]:
    legend = ax.get_legend()
    texts = [t.get_text() for t in legend.get_texts()] if legend is not None else []
    return {m["name"]: int(m["n"].replace(",", "")) for m in map(COUNTED.match, texts) if m}


def _check_conventions(fig, results_by_panel):
    """The convention on every time panel of ``fig``; ``results_by_panel`` gives each panel's run."""
    renderer = fig.canvas.get_renderer()
    for ax in _time_panels(fig):
        result = results_by_panel(ax)
        lo, hi = sorted(ax.get_xlim())
        # Every handover in view is marked by a line and named above the panel.
        starts = [float(h["start_s"]) for h in result.summary.get("handovers", []) if lo <= float(h["start_s"]) <= hi]
        marks = [float(line.get_xdata()[0]) for line in ax.get_lines() if line.get_gid() == HANDOVER_GID]
        for start in starts:
            assert any(abs(m - start) < 1e-9 for m in marks), f"handover at {start} s not marked"
        if starts:
            top = [child for child in ax.child_axes if child.get_gid() == "handovers"]
            assert len(top) == 1 and len([t for t in top[0].get_xticklabels() if t.get_text()]) >= len(starts)
        # The legend is outside the plotting area.
        legend = ax.get_legend()
        if legend is not None:
            box, area = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
            assert box.y1 <= area.y0 + 1 or box.x0 >= area.x1 - 1, "legend over the data"
        if ax.get_ylabel().startswith("sequence"):
            _check_sequence_counts(ax, result, lo, hi)
        else:
            _check_cwnd_axis(ax, result, lo, hi)


def _check_sequence_counts(ax, result, lo, hi):
    counts = _legend_counts(ax)
    pk = result.trace("packets")
    pk = pk[(pk["flow"] == "bulk") & (pk["time_s"] >= lo) & (pk["time_s"] <= hi)]
    retx = pk[pk["event"] == "retransmit"]
    expected = {"sent": int((pk["event"] == "send").sum()),
                "retransmitted": int((retx["spurious"] != 1).sum()),
                "spurious retransmission": int((retx["spurious"] == 1).sum()),
                "data segments dropped": int((pk["event"] == "drop").sum()),
                "RTO": int(((vhsim.plots.rto_times(result, "bulk") >= lo)
                            & (vhsim.plots.rto_times(result, "bulk") <= hi)).sum())}
    for name, n in expected.items():
        assert counts.get(name, 0) == n, (name, counts, expected)
    whole = len(result.trace("packets").query("flow == 'bulk' and event == 'send'"))
    title = ax.get_legend().get_title().get_text()
    assert ("counts in view" in title) == (expected["sent"] < whole), "a partial view says so"


def _check_cwnd_axis(ax, result, lo, hi):
    ts = result.trace("timeseries")
    ts = ts[(ts["flow"] == "bulk") & (ts["time_s"] >= lo) & (ts["time_s"] <= hi)]
    cwnd_max = float(ts["cwnd_pkts"].max())
    top = ax.get_ylim()[1]
    assert cwnd_max <= top <= 2.2 * max(cwnd_max, 1.0), (cwnd_max, top)
    high_ssthresh = float(ts["ssthresh_pkts"].max())
    if high_ssthresh > top:
        assert f"ssthresh up to {high_ssthresh:,.0f}" in ax.get_ylabel() and "above the axis" in ax.get_ylabel()
    else:
        assert "above the axis" not in ax.get_ylabel()


def test_the_demo_overview_follows_the_convention(demo_overview):
    fig, results = demo_overview
    panels = _time_panels(fig)
    assert len(panels) == 4
    columns = {id(ax): results[int(ax.get_position().x0 > 0.5)] for ax in panels}
    _check_conventions(fig, lambda ax: columns[id(ax)])
    assert not any(line.get_gid() == "effective" for ax in panels for line in ax.get_lines()), \
        "the demo's window of 64 never stops a segment: no effective-window line"
    titles = [ax.get_title() for ax in panels]
    assert any("1 RTO (1 spurious)" in t for t in titles), "singular, and spurious RTOs said"
    assert not any(re.search(r"\b1 RTOs\b", t) for t in titles)


def test_reproduced_figures_follow_the_convention(reproduced):
    caught, campaigns = reproduced
    assert {"fig8-time-sequence", "fig8-regular-whole-run", "fig8-enhanced-whole-run"} <= set(caught)
    camp = campaigns["fig8"]
    rows = camp.results().sort_values("config")
    results = {str(r["flows.bulk.scheme"]): camp.trace_for(r) for _, r in rows.iterrows()}
    whole = caught["fig8-regular-whole-run"]
    _check_conventions(whole, lambda ax: results["regular"])
    cwnd_ax = next(ax for ax in _panels(whole) if ax.get_ylabel().startswith("packets"))
    assert "ssthresh up to 10,000 above the axis" in cwnd_ax.get_ylabel(), "base.toml's initial ssthresh clipped"
    assert cwnd_ax.get_ylim()[1] < 100
    zoom = caught["fig8-time-sequence"]
    order = sorted(_time_panels(zoom), key=lambda ax: ax.get_position().x0)
    by_column = {id(ax): results["regular" if ax.get_position().x0 < 0.5 else "enhanced"] for ax in order}
    _check_conventions(zoom, lambda ax: by_column[id(ax)])
    seq = [ax for ax in order if ax.get_ylabel().startswith("sequence")]
    assert all("counts in view" in ax.get_legend().get_title().get_text() for ax in seq), "zoomed: counts in view"
    # The demo paper's campaign figures: legends outside the data too.
    for name in ("goodput-bars", "goodput-quartiles", "reno-highest-loss-run"):
        fig = caught[name]
        renderer = fig.canvas.get_renderer()
        for ax in _panels(fig):
            if ax.get_legend() is not None:
                box, area = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
                assert box.y1 <= area.y0 + 1 or box.x0 >= area.x1 - 1, (name, "legend over the data")


def test_the_effective_window_is_drawn_where_the_receive_window_binds(tmp_path):
    # ns-2.35's set (an ACK per segment): the run the cwnd threshold below was read from.
    sc = vhsim.load(ROOT / "scenarios" / "examples" / "bulk-3g.toml").set("defaults", "ns-2.35")
    res = sc.run(seed=7, detail="packets")
    assert res.receive_windows == {"bulk": 20.0}
    res.save(tmp_path / "s7")
    again = vhsim.read_result(tmp_path / "s7")
    assert again.receive_windows == {"bulk": 20.0}, "kept in the saved result, for `vhsim plot`"
    ax = vhsim.plots.cwnd(again)
    effective = [line for line in ax.get_lines() if line.get_gid() == "effective"]
    assert len(effective) == 1 and "rwnd = 20" in effective[0].get_label()
    y = np.asarray(effective[0].get_ydata(), dtype=float)
    assert np.nanmax(y) == 20.0
    cw = res.trace("timeseries")["cwnd_pkts"].to_numpy()
    assert cw.max() > 60, "cwnd grows far past the window it cannot use"
    assert ax.get_ylim()[1] >= cw.max(), "cwnd stays in view"


def test_a_zoomed_panel_without_timeouts_in_view_lays_out(demo_overview, tmp_path):
    """Timeout markers are drawn unclipped on the time axis: those outside a zoomed view are
    removed, not left as an empty line that collapses the constrained layout (a warning)."""
    import warnings

    from matplotlib.figure import Figure

    result = demo_overview[1][0]
    fig = Figure(figsize=(10, 6), layout="constrained")
    ax_seq, ax_cw = fig.subplots(1, 2)
    vhsim.plots.time_sequence(result, "bulk", ax=ax_seq, window=(13.0, 20.0))
    vhsim.plots.cwnd(result, "bulk", ax=ax_cw, window=(13.0, 20.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.savefig(tmp_path / "zoom.png")
    assert "RTO" not in _legend_counts(ax_seq) and "counts in view" in ax_seq.get_legend().get_title().get_text()
    assert ax_cw.get_legend().get_title().get_text() == "", "nothing counted is shown: no title"
