"""A line drawn under another where their values coincide is named in the caption and the report
(issue #31 item 6: park's Freeze-TCP line under Freeze-TCPv2's): vhsim.figstyle.hidden_lines on
synthetic data, the campaign line plot that park and kimkoh use, and a reproduction's report."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
from matplotlib.figure import Figure
from PIL import Image

from vhsim.campaign.figures import FigureSpec, Grid, Paper, axis
from vhsim.campaign.papers.kimkoh_plots import lines_vs
from vhsim.campaign.reproduce import _REGISTRY, register, reproduce
from vhsim.figstyle import hidden_lines, legend_below

SPEEDS = [10.0, 50.0, 100.0]


def _axes(series: dict[str, list[float]]):
    figure = Figure(figsize=(8, 4.8), layout="constrained")
    ax = figure.subplots()
    for name, ys in series.items():
        ax.errorbar(SPEEDS, ys, yerr=[5.0] * len(ys), marker="o", label=name)
    ax.set_ylim(0, 3500)
    ax.set_xlabel("MN speed (km/h)")
    legend_below(ax)
    return ax


def test_a_line_under_a_later_one_is_named_with_the_points_where_they_coincide():
    ax = _axes({"Vegas": [3294, 3267, 3255], "Freeze-TCP": [3216, 3186, 3147], "DEMO": [3290, 3100, 2900],
                "FTv2": [3216, 3186, 3147]})
    assert hidden_lines(ax) == [
        "Vegas's line lies under DEMO's at 10 km/h (values equal at the plot's resolution)",
        "Freeze-TCP's line lies under FTv2's (values equal at the plot's resolution)"]


def test_lines_apart_by_more_than_half_a_line_width_are_not_hidden():
    # 3500 kb/s over an axis about 4 inches high: half of a 1.5 pt line is about 9 kb/s.
    apart = _axes({"a": [1000, 2000, 3000], "b": [1030, 2030, 3030]})
    assert hidden_lines(apart) == []
    # the last line drawn is on top: it is never the hidden one
    top = _axes({"a": [1000, 2000, 3000], "b": [1000, 2000, 3000]})
    assert hidden_lines(top) == ["a's line lies under b's (values equal at the plot's resolution)"]
    # unlabelled lines and marker-only series are not curves a reader follows
    ax = _axes({"a": [1000, 2000, 3000]})
    ax.plot(SPEEDS, [1000, 2000, 3000], linestyle="none", marker="x", label="dots")
    ax.plot(SPEEDS, [1000, 2000, 3000])
    assert hidden_lines(ax) == []


def _table(ftv2: list[float]) -> pd.DataFrame:
    rows = [{"scheme": s, "speed": v, "rep": r, "seed": r + 1, "tput": y + r}
            for s, ys in (("vegas", [3294, 3267, 3255]), ("freeze", [3216, 3186, 3147]), ("ftv2", ftv2))
            for v, y in zip(SPEEDS, ys) for r in range(2)]
    df = pd.DataFrame(rows)
    df.attrs.update({"scenario": "synthetic", "replications": 2, "vhsim_version": "test"})
    return df


def test_the_campaign_line_plot_says_so_in_its_caption_and_passes_it_to_the_report(tmp_path):
    fig = SimpleNamespace(id="fig3a", title="Figure 3(a)")
    names = {"vegas": "TCP Vegas", "freeze": "Freeze-TCP", "ftv2": "Freeze-TCPv2"}
    files = lines_vs(None, _table([3216, 3186, 3147]), tmp_path, fig, metric="tput", x="speed", lines="scheme",
                     names=names, xlabel="MN speed (km/h)", ylabel="kb/s")
    note = "Freeze-TCP's line lies under Freeze-TCPv2's (values equal at the plot's resolution)"
    assert files.notes == [note]
    assert note in Image.open(next(p for p in files if p.suffix == ".png")).text["Description"]
    apart = lines_vs(None, _table([2500, 2400, 2300]), tmp_path, fig, metric="tput", x="speed", lines="scheme",
                     names=names, xlabel="MN speed (km/h)", ylabel="kb/s")
    assert apart.notes == []


def _two_schemes_plot(camp, table, out, fig):
    # Reno and NewReno on a loss-free link, a window below the path's capacity: no loss, the same goodput.
    return lines_vs(camp, table, out, fig, metric="bulk.goodput_kbps", x="duration_s", lines="flows.bulk.scheme",
                    names={}, xlabel="run length (s)", ylabel="goodput (kb/s)")


def test_the_report_repeats_the_note_under_the_figure(tmp_path):
    grid = Grid("examples/loss-sweep.toml", (axis("flows.bulk.scheme", ("reno", "newreno")),
                                             axis("duration", {"3": "3s", "4": "4s"})),
                {"links.access.forward.error.p": "0", "metrics.windows.steady": '["1s", "3s"]',
                 "flows.bulk.tcp.window": "10pkt"})

    def derive(camp, df):
        return df.assign(duration_s=[float(v) for v in df["duration"]])

    fig = FigureSpec("same", "Two schemes that never lose a packet", grid, plot=_two_schemes_plot, derive=derive)
    paper = register(Paper("hidden-lines-test", "test", "test", (fig,)))
    try:
        out = reproduce(paper.name, out=tmp_path, workers=1, progress=False)
    finally:
        _REGISTRY.pop(paper.name)  # other tests list the registered papers
    assert out.figures[0].notes == ["reno's line lies under newreno's (values equal at the plot's resolution)"]
    assert ("*In the figure:* reno's line lies under newreno's (values equal at the plot's resolution)."
            in out.report.read_text())
