"""Paper-style plots of a campaign, written as PNG and SVG.

* :func:`bar_chart` -- a metric per scheme with t-CI whiskers clipped at the metric's physical
  bounds, or the individual runs when there are fewer than :data:`MIN_RUNS_FOR_CI`; bars grouped
  by another axis (limjang Figs 11-14: throughput before/after the handover per scheme);
* :func:`quartile_lines` -- lower quartile, median and upper quartile of a metric against a
  link parameter, one line per sender / handoff kind (danielkojo Figs 2-7, 17-27);
* :func:`run_overview` -- time-sequence graph and cwnd of one chosen run, re-simulated
  with ``detail="packets"`` from its stored scenario and seed (or read from its traces).

Plot kinds for :class:`~vhsim.campaign.figures.FigureSpec` (``plot=``): :class:`Bars`,
:class:`Quartiles` (median and quartiles per configuration in panels, censored values drawn as
triangles) and :class:`SideBySide` (one run per configuration, zoomed on the handover).

Every figure states its scenario, replications and vhsim version in its title block and in
the file metadata (PNG text chunks; SVG ``<metadata>``), so a figure separated from its
report still says where it came from.  Like :mod:`vhsim.plots`, nothing touches pyplot's
global state.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

import numpy as np

from ..figstyle import hidden_lines, legend_below
from ..wording import counted
from .axes import quantity
from .stats import summarize

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.figure import Figure

    from .store import Campaign

__all__ = ["Bars", "Drawn", "MIN_RUNS_FOR_CI", "Quartiles", "SideBySide", "bar_chart", "caption", "quartile_lines",
           "run_overview", "save_figure"]

# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
FORMATS = ("png", "svg")
#: Below this many runs a bar shows its runs as dots, not a t interval (one from 2-4 runs is too wide to read).
MIN_RUNS_FOR_CI = 5


def caption(df: "pd.DataFrame", note: str = "", runs: str = "") -> str:
    """``scenario X — N replications per configuration (paired seeds) — vhsim V`` (``runs``
    replaces the middle part, for campaigns whose spread does not come from replications)."""
    attrs = df.attrs
    reps = attrs.get("replications")
    if reps is None and "rep" in df.columns and len(df):
        reps = int(df["rep"].max()) + 1
    seeds = "paired seeds" if attrs.get("paired_seeds", True) else "unpaired seeds"
    version = attrs.get("vhsim_version") or (str(df["vhsim_version"].iloc[0]) if len(df) else "?")
    parts = [f"scenario {attrs.get('scenario', '?')}",
             runs or f"{reps} replication{'s' if reps != 1 else ''} per configuration ({seeds})", f"vhsim {version}"]
    if note:
        parts.append(note)
    return " \u2014 ".join(parts)


class Drawn(list):
    """The files a plot wrote, and ``notes``: what its caption says that the report repeats
    beside the figure (e.g. a line hidden under another, :func:`vhsim.figstyle.hidden_lines`)."""

    def __init__(self, files: Sequence[Path] = (), notes: Sequence[str] = ()) -> None:
        super().__init__(files)
        self.notes = list(notes)

    def __add__(self, other: Sequence[Path]) -> "Drawn":
        return Drawn([*self, *other], [*self.notes, *getattr(other, "notes", ())])

    def __iadd__(self, other: Sequence[Path]) -> "Drawn":
        self.extend(other)
        self.notes += [n for n in getattr(other, "notes", ()) if n not in self.notes]
        return self


def save_figure(fig: "Figure", path: str | os.PathLike[str], title: str, caption_text: str,
                formats: Sequence[str] = FORMATS, dpi: int = 130, notes: Sequence[str] = ()) -> Drawn:
    """Write ``fig`` as ``<path stem>.png`` and ``.svg`` with the caption in their metadata;
    ``notes`` (already in the caption) go with the files to the report."""
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
    return Drawn(written, notes)


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
              confidence: float = 0.95, bounds: tuple[float | None, float | None] = (None, None),
              formats: Sequence[str] = FORMATS) -> list[Path]:
    """Bars of the mean of ``metric``: one bar per value of ``bars`` (e.g. ``flows.bulk.scheme``),
    in groups along x by ``groups`` (another axis), if given.

    Whiskers: the t confidence interval, clipped at ``bounds`` (the metric's physical range,
    e.g. (0, 100) for a percentage of a link); with fewer than :data:`MIN_RUNS_FOR_CI` runs a
    bar shows its runs as dots instead.  The caption gives the number of runs per bar.  Runs
    are pooled over any other axis; filter ``df`` first to fix them.  Writes ``path``.png and
    .svg; returns the paths.
    """
    by = [groups, bars] if groups else [bars]
    table = summarize(df, metric, by=by, confidence=confidence)
    bar_values = _ordered(table[bars].tolist())
    group_values = _ordered(table[groups].tolist()) if groups else [None]
    fig, ax = _new_figure()
    width = 0.8 / max(1, len(bar_values))
    x = np.arange(len(group_values))
    lo, hi = (-math.inf if bounds[0] is None else bounds[0]), (math.inf if bounds[1] is None else bounds[1])
    for i, bar in enumerate(bar_values):
        pos = x + (i - (len(bar_values) - 1) / 2) * width
        colour = PALETTE[i % len(PALETTE)]
        means, errs, dots = [], [[], []], []
        for p, g in zip(pos, group_values):
            row = table[(table[bars] == bar) & ((table[groups] == g) if groups else True)]
            mean = float(row["mean"].iloc[0]) if len(row) else math.nan
            half = float(row["ci_half_width"].iloc[0]) if len(row) else math.nan
            n = int(row["n"].iloc[0]) if len(row) else 0
            means.append(mean)
            if n < MIN_RUNS_FOR_CI or math.isnan(half):
                errs[0].append(0.0)
                errs[1].append(0.0)
                runs = df[(df[bars] == bar) & ((df[groups] == g) if groups else True)][metric].astype(float)
                dots += [(p, v) for v in runs if not math.isnan(v)]
            else:
                down, up = clipped_whisker(mean, half, lo, hi)
                errs[0].append(down)
                errs[1].append(up)
        ax.bar(pos, means, width * 0.95, yerr=errs, capsize=3, color=colour, label=str(bar),
               error_kw={"elinewidth": 1})
        if dots:
            ax.plot([d[0] for d in dots], [d[1] for d in dots], linestyle="none", marker="o", markersize=3,
                    markerfacecolor="white", markeredgecolor="black", markeredgewidth=0.7)
    ax.set_xticks(x, [str(g) if groups else "" for g in group_values])
    if groups:
        ax.set_xlabel(groups)
    ax.set_ylabel(ylabel or metric)
    ax.grid(True, axis="y", alpha=0.3)
    legend_below(ax, title=bars, columns=4)
    title = title or f"{metric}: mean and {confidence:.0%} CI per {bars}"
    ns = sorted(set(int(n) for n in table["n"]))
    n_text = f"n = {counted(ns[0], 'run')}" if len(ns) == 1 else f"n = {ns[0]}-{ns[-1]} runs"
    whiskers = (f"whiskers: {confidence:.0%} t confidence interval"
                + (", clipped at the metric's bounds" if bounds != (None, None) else "")
                if ns[-1] >= MIN_RUNS_FOR_CI else "")
    dots_text = f"dots: each run (bars of fewer than {MIN_RUNS_FOR_CI} runs)" if ns[0] < MIN_RUNS_FOR_CI else ""
    cap = caption(df, "; ".join(t for t in (f"{n_text} per bar", whiskers, dots_text) if t))
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats)


def clipped_whisker(mean: float, half: float, lo: float, hi: float) -> tuple[float, float]:
    """(down, up) lengths of a whisker mean +- half that stops at the bounds [lo, hi]."""
    return max(0.0, min(half, mean - lo)), max(0.0, min(half, hi - mean))


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
    legend_below(ax, title="dashed: lower / upper quartile", columns=2)
    title = title or f"{metric}: quartiles vs {x}"
    notes = hidden_lines(ax)
    cap = caption(df, "; ".join(["solid: median, dashed: quartiles", *notes]))
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats, notes=notes)


def run_overview(campaign: "Campaign", path: str | os.PathLike[str], config: int = 0, rep: int = 0,
                 flow: str | None = None, formats: Sequence[str] = FORMATS) -> list[Path]:
    """Time-sequence graph above cwnd/ssthresh of one run of ``campaign``.

    Uses the run's stored packet trace when the campaign kept one, else re-simulates the
    run (its scenario and seed) with ``detail="packets"``; the simulator is deterministic,
    and the re-run's goodput is checked against the stored record.
    """
    from matplotlib.figure import Figure

    from .. import plots as run_plots

    _, seed, run = campaign.run_scenario(config, rep)
    result = campaign.trace_for({"run_id": run.run_id, "config": config, "rep": rep}, rerun=True)
    flow = run_plots.pick_flow(result, flow)
    fig = Figure(figsize=(9, 8.5), layout="constrained")
    ax_seq, ax_cw = fig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    run_plots.time_sequence(result, flow, ax=ax_seq)
    run_plots.cwnd(result, flow, ax=ax_cw)
    ax_seq.tick_params(labelbottom=True)
    setting = ", ".join(f"{k}={v}" for k, v in run.labels.items())
    title = f"run {run.run_id[:12]}: {setting or 'base scenario'}, replication {rep}, seed {seed}"
    cap = f"scenario {result.scenario_name} \u2014 flow {flow} \u2014 " + \
          (f"one of {campaign.spec.replications} replications" if campaign.spec.replications > 1 else "one run") + \
          f" \u2014 vhsim {result.version}"
    _title_block(fig, title, cap)
    return save_figure(fig, path, title, cap, formats)


# -- plot kinds of a FigureSpec ---------------------------------------------------------------------
def _named(fig: Any, column: str, value: Any) -> str:
    names = fig.names.get(column) if fig is not None else None
    if isinstance(names, dict):
        return str(names.get(value, value))
    return names.format(value) if isinstance(names, str) else str(value)


@dataclass(frozen=True)
class Bars:
    """:func:`bar_chart` of a figure: ``groups`` maps a group label to a column (e.g. throughput
    before and after a handover), one bar per value of ``bars``, one chart per value of
    ``panels`` (if given); ``title`` is formatted with ``{panel}``; ``group_title`` names the
    x axis."""

    groups: Mapping[str, str]
    bars: str
    panels: str | None = None
    title: str = ""
    ylabel: str = ""
    bounds: tuple[float | None, float | None] = (None, None)
    group_title: str = ""

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path, fig: Any) -> list[Path]:
        import pandas as pd

        panels = list(dict.fromkeys(table[self.panels])) if self.panels else [None]
        files: list[Path] = []
        for panel in panels:
            sub = table if panel is None else table[table[self.panels] == panel]
            bar, group = self.bars.rsplit(".", 1)[-1], self.group_title or " "
            long = pd.concat([pd.DataFrame({bar: [_named(fig, self.bars, v) for v in sub[self.bars]],
                                            group: label, "value": sub[column].astype(float).to_numpy()})
                              for label, column in self.groups.items()], ignore_index=True)
            long.attrs.update(table.attrs)
            name = _named(fig, self.panels, panel) if panel is not None else ""
            stem = f"{fig.id}-{panel}" if panel is not None else fig.id
            files += bar_chart(long, "value", bar, out / stem, groups=group, title=self.title.format(panel=name),
                               ylabel=self.ylabel, bounds=self.bounds)
        return files


KIND_MARKERS = "os^Dv"


@dataclass(frozen=True)
class Quartiles:
    """Median (solid, markers) and quartiles (dashed) of ``column`` over the runs of each
    configuration against ``x`` (values in ``x_order``, shown as categories), one line per
    combination of the ``lines`` columns, one panel per value of ``panel`` (``panel_order``;
    ``shown`` marks the panels the paper shows).  +inf values are censored runs: a quartile that
    falls on them is drawn as a triangle at the top.  ``extra = (column, ylabel, title)`` adds
    a last panel with that column's mean per line."""

    column: str
    x: str
    x_order: tuple
    xlabel: str
    lines: tuple[str, ...]
    ylabel: str
    panel: str | None = None
    panel_order: tuple = ()
    panel_title: str = "{}"
    shown: tuple = ()
    extra: tuple[str, str, str] | None = None
    unit_of_n: str = "runs"

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path, fig: Any) -> list[Path]:
        from matplotlib.figure import Figure

        from .stats import quartiles

        data = table[table[self.column].notna()]
        panels = [p for p in self.panel_order if p in set(data[self.panel])] if self.panel else [None]
        n_axes = len(panels) + (1 if self.extra else 0)
        figure = Figure(figsize=(max(7.0, 4.2 * n_axes + 1), 4.8), layout="constrained")
        all_axes = figure.subplots(1, n_axes, squeeze=False)[0]
        combos = list(dict.fromkeys(tuple(r) for r in data[list(self.lines)].itertuples(index=False)))
        last = list(dict.fromkeys(c[-1] for c in combos))
        stats: dict[tuple, tuple[float, float, float]] = {}
        keys = [*(([self.panel]) if self.panel else []), *self.lines, self.x]
        for key, sub in data.groupby(keys, sort=False):
            stats[key if isinstance(key, tuple) else (key,)] = quartiles(sub[self.column].astype(float))
        finite = [q for v in stats.values() for q in v if math.isfinite(q)]
        top = max(finite) if finite else 1.0
        for ax, pv in zip(all_axes, panels):
            sub = data if pv is None else data[data[self.panel] == pv]
            present = [v for v in self.x_order if v in set(sub[self.x])]
            for i, combo in enumerate(combos):
                pts = [(j, stats.get(((pv,) if self.panel else ()) + combo + (v,))) for j, v in enumerate(present)]
                pts = [(j, q) for j, q in pts if q is not None]
                if not pts:
                    continue
                colour = PALETTE[i % len(PALETTE)]
                label = ", ".join(_named(fig, c, v) for c, v in zip(self.lines, combo))
                marker = KIND_MARKERS[last.index(combo[-1]) % len(KIND_MARKERS)]
                for k, (style, mark) in enumerate((("--", None), ("-", marker), ("--", None))):
                    _censored_line(ax, [j for j, _ in pts], [q[k] for _, q in pts], top, colour, style, mark,
                                   f"{label} (median)" if k == 1 else None)
            ax.set_xticks(range(len(present)), [_named(fig, self.x, v) for v in present])
            ax.set_xlabel(self.xlabel)
            ax.set_ylabel(self.ylabel)
            ax.set_ylim(bottom=0)
            ax.grid(True, alpha=0.3)
            if pv is not None:
                ax.set_title(self.panel_title.format(pv) + (" (shown in the paper)" if pv in self.shown else ""),
                             fontsize="medium")
        legend_below(all_axes[0], title="dashed: lower / upper quartile", columns=1)
        if self.extra:
            self._extra(all_axes[-1], table, fig)
            all_axes[0].set_title("(a) " + self.ylabel, fontsize="medium")
        counts = data.groupby(keys, sort=False)[self.column].count()
        censored = int(data[self.column].astype(float).map(math.isinf).sum())
        n = f"{counts.min()}" if counts.min() == counts.max() else f"{counts.min()}-{counts.max()}"
        notes = [f"{ax.get_title() + ': ' if len(all_axes) > 1 and ax.get_title() else ''}{note}"
                 for ax in all_axes for note in hidden_lines(ax)]
        cap = caption(table, "; ".join([f"{counted(censored, 'run')} censored (beyond their horizon, triangles where a "
                                        "quartile falls on them); solid: median, dashed: quartiles", *notes]),
                      runs=f"n = {n} {self.unit_of_n} per configuration, one run each")
        _title_block(figure, fig.title, cap)
        return save_figure(figure, out / f"{fig.id}-{self.column.replace('.', '-')}", fig.title, cap, notes=notes)

    def _extra(self, ax, table: "pd.DataFrame", fig: Any) -> None:
        column, ylabel, title = self.extra
        data = table[table[column].notna()]
        present = [v for v in self.x_order if v in set(data[self.x])]
        first = self.lines[0]
        order = list(dict.fromkeys(table[table[self.column].notna()][first]))  # the colours of panel (a)
        for i, line in enumerate(dict.fromkeys(data[first])):
            rows = data[data[first] == line]
            means = [float(rows[rows[self.x] == v][column].mean()) for v in present]
            colour = PALETTE[(order.index(line) if line in order else i) % len(PALETTE)]
            ax.plot(range(len(present)), means, marker=KIND_MARKERS[i % len(KIND_MARKERS)], color=colour,
                    label=_named(fig, first, line))
        ax.set_xticks(range(len(present)), [_named(fig, self.x, v) for v in present])
        ax.set_xlabel(self.xlabel)
        ax.set_ylabel(ylabel)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        legend_below(ax, columns=1)
        ax.set_title(title, fontsize="medium")


def _censored_line(ax, xs, ys, top: float, colour: str, style: str, marker: str | None, label: str | None) -> None:
    finite = [(a, b) for a, b in zip(xs, ys) if math.isfinite(b)]
    if finite:
        ax.plot([a for a, _ in finite], [b for _, b in finite], linestyle=style, marker=marker, markersize=4,
                linewidth=1.3 if style == "-" else 0.9, color=colour, label=label)
    cut = [a for a, b in zip(xs, ys) if math.isinf(b)]
    if cut:
        ax.plot(cut, [top * 1.05] * len(cut), linestyle="none", marker="^", markersize=7, color=colour)


@dataclass(frozen=True)
class SideBySide:
    """The runs of a campaign with one run per configuration (e.g. one per sender), side by
    side: time-sequence graph above cwnd/ssthresh, zoomed on the first handover from ``before_s``
    before its start to ``after_s`` after its completion, the same axes for all; plus each whole
    run (:func:`run_overview`) when ``whole_runs``.  Panels are named by ``by``'s values."""

    by: str
    flow: str = "bulk"
    before_s: float = 0.5
    after_s: float = 3.0
    whole_runs: bool = True

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path, fig: Any) -> list[Path]:
        from matplotlib.figure import Figure

        from .. import plots as run_plots

        rows = [r for _, r in table.sort_values("config").iterrows()]
        results = [camp.trace_for(r) for r in rows]
        handoff = results[0].summary["handovers"][0]
        start, done = float(handoff["start_s"]), float(handoff["done_s"])
        window = (start - self.before_s, done + self.after_s)
        figure = Figure(figsize=(5.2 * len(rows) + 1, 8.2), layout="constrained")
        grid = figure.subplots(2, len(rows), squeeze=False, height_ratios=[3, 2], sharex=True)
        for col, (row, result) in enumerate(zip(rows, results)):
            ax_seq, ax_cw = grid[0][col], grid[1][col]
            run_plots.time_sequence(result, self.flow, ax=ax_seq, window=window)
            run_plots.cwnd(result, self.flow, ax=ax_cw, window=window)
            ax_seq.set_title(f"({'abcdefgh'[col]}) {_named(fig, self.by, row[self.by])}", fontsize="medium")
            ax_seq.tick_params(labelbottom=True)
        for panels in grid:
            run_plots.same_y_range(panels)
        cap = (f"scenario {results[0].scenario_name}, handoff at {start:g} s \u2014 n = 1 run per panel, seed "
               f"{rows[0]['seed']} \u2014 vhsim {results[0].version}")
        _title_block(figure, fig.title, cap)
        files = save_figure(figure, out / f"{fig.id}-time-sequence", fig.title, cap)
        if self.whole_runs:
            for row in rows:
                files += run_overview(camp, out / f"{fig.id}-{row[self.by]}-whole-run", config=int(row["config"]))
        return files
