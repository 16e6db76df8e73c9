"""Paper-style plots of a campaign, written as PNG and SVG.

* :func:`bar_chart` -- a metric per scheme with t-CI whiskers, bars grouped by another axis
  (limjang Figs 11-14: throughput before/after the handover per scheme);
* :func:`quartile_lines` -- lower quartile, median and upper quartile of a metric against a
  link parameter, one line per sender / handoff kind (danielkojo Figs 2-7, 17-27);
* :func:`run_overview` -- time-sequence graph and cwnd of one chosen run, re-simulated
  with ``detail="packets"`` from its stored scenario and seed (or read from its traces).

Every figure states its scenario, replications and vhsim version in its title block and in
the file metadata (PNG text chunks; SVG ``<metadata>``), so a figure separated from its
report still says where it came from.  Like :mod:`vhsim.plots`, nothing touches pyplot's
global state.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .axes import quantity
from .stats import summarize

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

    from .store import Campaign

__all__ = ["bar_chart", "quartile_lines", "run_overview", "caption", "save_figure"]

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
FORMATS = ("png", "svg")


def caption(df: "pd.DataFrame", note: str = "") -> str:
    """``scenario X — N replications per configuration (paired seeds) — vhsim V``."""
    attrs = df.attrs
    reps = attrs.get("replications")
    if reps is None and "rep" in df.columns and len(df):
        reps = int(df["rep"].max()) + 1
    seeds = "paired seeds" if attrs.get("paired_seeds", True) else "unpaired seeds"
    version = attrs.get("vhsim_version") or (str(df["vhsim_version"].iloc[0]) if len(df) else "?")
    parts = [f"scenario {attrs.get('scenario', '?')}", f"{reps} replications per configuration ({seeds})",
             f"vhsim {version}"]
    if note:
        parts.append(note)
    return " \u2014 ".join(parts)


def save_figure(fig: "Figure", path: str | os.PathLike[str], title: str, caption_text: str,
                formats: Sequence[str] = FORMATS, dpi: int = 130) -> list[Path]:
    """Write ``fig`` as ``<path stem>.png`` and ``.svg`` with the caption in their metadata."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from .. import __version__

    FigureCanvasAgg(fig)
    stem = Path(path)
    if stem.suffix.lower().lstrip(".") in FORMATS:
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats:
        dest = stem.with_name(f"{stem.name}.{fmt}")
        if fmt == "png":
            meta = {"Title": title, "Description": caption_text, "Software": f"vhsim {__version__}"}
        elif fmt == "svg":
            meta = {"Title": title, "Description": caption_text, "Creator": f"vhsim {__version__}"}
        else:
            meta = {}
        fig.savefig(dest, format=fmt, dpi=dpi, metadata=meta)
        written.append(dest)
    return written


def _new_figure(width: float = 8, height: float = 4.8):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _title_block(fig: "Figure", title: str, caption_text: str) -> None:
    import textwrap

    # Wrap to the figure's width (about 11 characters per inch at this font size), so a
    # long caption is never cut at the figure's edges.
    width = int(fig.get_figwidth() * 11)
    lines = textwrap.wrap(title, width) + textwrap.wrap(caption_text, width)
    fig.suptitle("\n".join(lines), fontsize="medium")


def _ordered(values: Sequence[Any]) -> list[Any]:
    """Axis values in a meaningful order: numeric (units understood) when possible, else as given."""
    unique = list(dict.fromkeys(values))
    numbers = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else quantity(str(v)) for v in unique]
    if all(n is not None for n in numbers):
        return [v for _, v in sorted(zip(numbers, unique), key=lambda t: t[0])]
    return unique


def _label(axis: str, value: Any) -> str:
    return f"{value}" if axis.endswith("scheme") else f"{axis.rsplit('.', 1)[-1]}={value}"


def bar_chart(df: "pd.DataFrame", metric: str, bars: str, path: str | os.PathLike[str],
              groups: str | None = None, *, title: str | None = None, ylabel: str | None = None,
              confidence: float = 0.95, formats: Sequence[str] = FORMATS) -> list[Path]:
    """Bars of the mean of ``metric`` with t-CI whiskers: one bar per value of ``bars``
    (e.g. ``flows.bulk.scheme``), in groups along x by ``groups`` (another axis), if given.

    Runs are pooled over any other axis; filter ``df`` first to fix them.  Writes
    ``path``.png and .svg; returns the paths.
    """
    by = [groups, bars] if groups else [bars]
    table = summarize(df, metric, by=by, confidence=confidence)
    bar_values = _ordered(table[bars].tolist())
    group_values = _ordered(table[groups].tolist()) if groups else [None]
    fig, ax = _new_figure()
    width = 0.8 / max(1, len(bar_values))
    x = np.arange(len(group_values))
    for i, bar in enumerate(bar_values):
        means, errs = [], []
        for g in group_values:
            row = table[(table[bars] == bar) & ((table[groups] == g) if groups else True)]
            means.append(float(row["mean"].iloc[0]) if len(row) else math.nan)
            errs.append(float(row["ci_half_width"].iloc[0]) if len(row) else math.nan)
        errs = [0.0 if math.isnan(e) else e for e in errs]  # n = 1: no whisker rather than none at all
        ax.bar(x + (i - (len(bar_values) - 1) / 2) * width, means, width * 0.95, yerr=errs, capsize=3,
               color=PALETTE[i % len(PALETTE)], label=str(bar), error_kw={"elinewidth": 1})
    ax.set_xticks(x, [str(g) if groups else "" for g in group_values])
    if groups:
        ax.set_xlabel(groups)
    ax.set_ylabel(ylabel or metric)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(title=bars, fontsize="small", title_fontsize="small")
    title = title or f"{metric}: mean and {confidence:.0%} CI per {bars}"
    cap = caption(df, f"whiskers: {confidence:.0%} t confidence interval")
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats)


def quartile_lines(df: "pd.DataFrame", metric: str, x: str, path: str | os.PathLike[str],
                   lines: Sequence[str] | str = (), *, title: str | None = None, ylabel: str | None = None,
                   xlabel: str | None = None, formats: Sequence[str] = FORMATS) -> list[Path]:
    """Median (solid, markers) with lower and upper quartiles (dashed) of ``metric`` against
    axis ``x``, one line per combination of the ``lines`` axes (e.g. sender and handoff
    kind).  x values with units (``2Mbps``, ``100ms``) are placed by their numeric value."""
    lines = [lines] if isinstance(lines, str) else list(lines)
    table = summarize(df, metric, by=[*lines, x])
    x_values = _ordered(table[x].tolist())
    numeric = [v if isinstance(v, (int, float)) and not isinstance(v, bool) else quantity(str(v)) for v in x_values]
    categorical = any(n is None for n in numeric)
    position = {v: (i if categorical else n) for i, (v, n) in enumerate(zip(x_values, numeric))}
    fig, ax = _new_figure()
    combos = list(dict.fromkeys(tuple(r) for r in table[lines].itertuples(index=False))) if lines else [()]
    for i, combo in enumerate(combos):
        sub = table
        for axis, value in zip(lines, combo):
            sub = sub[sub[axis] == value]
        sub = sub.assign(_pos=[position[v] for v in sub[x]]).sort_values("_pos")
        colour = PALETTE[i % len(PALETTE)]
        name = ", ".join(_label(a, v) for a, v in zip(lines, combo)) or metric
        ax.plot(sub["_pos"], sub["median"], marker="o", markersize=4, color=colour, label=f"{name} (median)")
        ax.plot(sub["_pos"], sub["q1"], linestyle="--", linewidth=0.9, color=colour)
        ax.plot(sub["_pos"], sub["q3"], linestyle="--", linewidth=0.9, color=colour)
    if categorical:
        ax.set_xticks(range(len(x_values)), [str(v) for v in x_values])
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel or metric)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small", title="dashed: lower / upper quartile", title_fontsize="small")
    title = title or f"{metric}: quartiles vs {x}"
    cap = caption(df, "solid: median, dashed: quartiles")
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats)


def run_overview(campaign: "Campaign", path: str | os.PathLike[str], config: int = 0, rep: int = 0,
                 flow: str | None = None, formats: Sequence[str] = FORMATS) -> list[Path]:
    """Time-sequence graph above cwnd/ssthresh of one run of ``campaign``.

    Uses the run's stored packet trace when the campaign kept one, else re-simulates the
    run (its scenario and seed) with ``detail="packets"``; the simulator is deterministic,
    and the re-run's goodput is checked against the stored record.
    """
    from matplotlib.figure import Figure

    from .. import plots as run_plots
    from ..result import read_result

    scenario, seed, run = campaign.run_scenario(config, rep)
    traces = campaign.trace_dir(run.run_id)
    if (traces / "packets.parquet").is_file():
        result = read_result(traces)
    else:
        result = scenario.run(seed=seed, detail="packets")
        _check_same_run(campaign, run.run_id, result)
    flow = run_plots.pick_flow(result, flow)
    fig = Figure(figsize=(9, 7.5), layout="constrained")
    ax_seq, ax_cw = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    run_plots.time_sequence(result, flow, ax=ax_seq)
    run_plots.cwnd(result, flow, ax=ax_cw)
    ax_seq.tick_params(labelbottom=True)
    setting = ", ".join(f"{k}={v}" for k, v in run.labels.items())
    title = f"run {run.run_id[:12]}: {setting or 'base scenario'}, replication {rep}, seed {seed}"
    cap = f"scenario {result.scenario_name} \u2014 flow {flow} \u2014 one of {campaign.spec.replications} " \
          f"replications \u2014 vhsim {result.version}"
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats)


def _check_same_run(campaign: "Campaign", run_id: str, result: Any) -> None:
    import json
    import warnings

    from .store import flatten_summary

    record_path = campaign.record_path(run_id)
    if not record_path.is_file():
        return
    stored = json.loads(record_path.read_text(encoding="utf-8")).get("metrics", {})
    again = flatten_summary(result.summary)
    differing = [k for k in stored if k.endswith("goodput_kbps") and stored[k] != again.get(k)]
    if differing:
        warnings.warn(f"re-run of {run_id[:12]} differs from the stored run in {', '.join(differing)}; "
                      "the campaign was probably made by another vhsim build", stacklevel=3)
