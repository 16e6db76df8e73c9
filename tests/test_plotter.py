"""A reproduction's plots drawn in the plotting process (vhsim.campaign.plotter) are the files the
parent would have drawn, and the report is the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from vhsim.campaign.plotter import Plotter
from vhsim.campaign.reproduce import reproduce


def _report(out: Path) -> list[str]:
    # the line with the time of writing is the only one allowed to differ
    return [ln for ln in (out / "report.md").read_text(encoding="utf-8").splitlines() if " written 20" not in ln]


def test_plots_drawn_by_the_plotter_equal_the_parents(tmp_path):
    serial = reproduce("demo", quick=True, out=tmp_path / "one", workers=1, progress=False)
    plotted = reproduce("demo", quick=True, out=tmp_path / "two", workers=2, progress=False)
    assert _report(tmp_path / "one") == _report(tmp_path / "two")
    for a, b in zip(serial.figures, plotted.figures, strict=True):
        assert [p.name for p in a.files] == [p.name for p in b.files] and len(b.files) == 6
        assert a.notes == b.notes
        for pa, pb in zip(a.files, b.files):
            assert isinstance(pb, Path) and pb.is_file()
            if pa.suffix == ".png":  # SVGs carry their date and random ids
                assert pa.read_bytes() == pb.read_bytes(), pb.name


def test_an_error_in_the_plotting_process_reaches_the_caller(tmp_path):
    with Plotter() as plotter:
        future = plotter.finish("nosuchpaper", "fig", tmp_path, tmp_path, quick=True)
        with pytest.raises(KeyError, match="nosuchpaper"):
            future.result()


def test_figures_run_case_studies_first_then_the_largest_grids():
    from types import SimpleNamespace

    from vhsim.campaign.reproduce import _run_order

    figs = [SimpleNamespace(id=i) for i in ("grid-small", "case-a", "grid-large", "case-b", "grid-mid")]
    sizes = {"grid-small": 2400, "case-a": 3, "grid-large": 9600, "case-b": 2, "grid-mid": 4800}
    assert [f.id for f in _run_order(figs, sizes)] == ["case-a", "case-b", "grid-large", "grid-mid", "grid-small"]


_SETUP_CALLS: list[str] = []


def _record_setup() -> None:
    _SETUP_CALLS.append("called")


def test_the_setup_runs_before_each_figure_in_its_process(tmp_path):
    # In this process: the setup runs before the figure is looked up (and fails here).
    from vhsim.campaign.plotter import finish_figure

    _SETUP_CALLS.clear()
    with pytest.raises(KeyError, match="nosuchpaper"):
        finish_figure("nosuchpaper", "fig", tmp_path, tmp_path, True, _record_setup)
    assert _SETUP_CALLS == ["called"]


def test_two_plotting_processes_finish_figures_side_by_side(tmp_path):
    # Two processes, four figures: each future's error is its own figure's.
    with Plotter(2, _record_setup) as plotter:
        futures = [plotter.finish(f"nosuchpaper{i}", "fig", tmp_path, tmp_path, quick=True) for i in range(4)]
        for i, future in enumerate(futures):
            with pytest.raises(KeyError, match=f"nosuchpaper{i}"):
                future.result()


def test_two_plotting_processes_only_for_a_paper_of_case_studies():
    from vhsim.campaign.reproduce import _plotters

    cases, grid = {"a": 12, "b": 4}, {"a": 12, "grid": 9600}
    assert _plotters(2, cases) == 2 and _plotters(8, cases) == 2
    assert _plotters(2, grid) == 1 and _plotters(1, cases) == 1
