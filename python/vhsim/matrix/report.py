"""The matrix's outputs: ``cells.csv`` (every cell, machine-readable), ``matrix.md`` (the tables,
which scheme wins where and by how much, the ``linux`` row) and one heat map per metric
(``heatmap-<metric>.png`` / ``.svg``)."""

from __future__ import annotations

import math
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..campaign.figures import markdown_table
from .compare import BASELINE, BETTER, IDENTICAL, SINGLE, WORSE, Cell
from .spec import Entry, Metric

if TYPE_CHECKING:  # pragma: no cover
    from .run import MatrixOutcome

__all__ = ["write_report", "cell_text", "findings", "heatmap"]

#: The preset of today's Linux TCP: the mission row of the report.
LINUX = "linux"
_MARK = {BETTER: " \u25b2", WORSE: " \u25bc", IDENTICAL: " =", SINGLE: " (n = 1)"}


def write_report(outcome: "MatrixOutcome") -> list[Path]:
    """Write ``cells.csv``, the heat maps and ``matrix.md`` into ``outcome.out``; return the files."""
    out = outcome.out
    out.mkdir(parents=True, exist_ok=True)
    files = [_write_csv(outcome.cells, out / "cells.csv")]
    maps: dict[str, list[Path]] = {}
    for metric in outcome.spec.metrics:
        chosen = [c for c in outcome.cells if c.metric == metric.name]
        if chosen:
            maps[metric.name] = heatmap(chosen, metric, [e.entry for e in outcome.entries], _rows(outcome),
                                        out / f"heatmap-{metric.name}", _caption(outcome))
            files += maps[metric.name]
    report = out / "matrix.md"
    tmp = out / ".matrix.md.tmp"
    tmp.write_text(_markdown(outcome, maps), encoding="utf-8")
    os.replace(tmp, report)
    return [report, *files]


def _rows(outcome: "MatrixOutcome") -> list[str]:
    """The schemes that ran, in ``vhsim schemes`` order (TCP, then SCTP)."""
    from .spec import schemes_of

    ran = {c.scheme for c in outcome.cells}
    return [s for s in schemes_of() if s in ran]


def _caption(outcome: "MatrixOutcome") -> str:
    from .. import __version__

    return (f"{len(outcome.entries)} scenarios x {len(_rows(outcome))} schemes; paired runs (seed, handover "
            f"instant) against each scenario's baseline; vhsim {__version__}")


# ----------------------------------------------------------------------------- numbers
def number(x: float) -> str:
    """A figure to three significant digits (whole numbers from 100 on)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "\u2013"
    if math.isinf(x):
        return "\u221e" if x > 0 else "-\u221e"
    if abs(x) >= 100 or x == 0:
        return f"{x:.0f}"
    return f"{x:.3g}"


def _signed(x: float) -> str:
    text = number(x)
    return text if text.startswith(("-", "\u2013")) or text == "0" else "+" + text


def relative_text(cell: Cell, metric: Metric) -> str:
    """``+85.1 % [+80.2, +90.0]`` (ratio) or ``+0.34 [+0.30, +0.38]`` (difference)."""
    unit = " %" if metric.relative == "ratio" else ""
    if cell.verdict in (IDENTICAL, SINGLE) or cell.rel_low == cell.rel_high:
        return f"{_signed(cell.rel)}{unit}"
    return f"{_signed(cell.rel)}{unit} [{_signed(cell.rel_low)}, {_signed(cell.rel_high)}]"


def cell_text(cell: Cell, metric: Metric) -> str:
    """A table cell: the scheme's mean +- half-width, then its relative figure and a mark
    (up: better than the baseline, down: worse, both with 95% confidence; =: identical runs)."""
    own = number(cell.mean) + ("" if math.isnan(cell.half_width) or cell.half_width == 0 else
                                f" \u00b1 {number(cell.half_width)}")
    if cell.verdict == BASELINE:
        return f"{own} (baseline)"
    missing = f" ({cell.missing} without a value)" if cell.missing else ""
    return f"{own}<br>{relative_text(cell, metric)}{_MARK.get(cell.verdict, '')}{missing}"


# ----------------------------------------------------------------------------- findings
def _score(cell: Cell, metric: Metric) -> float:
    """The relative figure oriented so that more is better."""
    return cell.rel if metric.higher_is_better else -cell.rel


def findings(cells: Sequence[Cell], metric: Metric, entries: Sequence[Entry]) -> list[str]:
    """One line per entry: the best scheme against the baseline (by its relative figure, among
    those better with 95% confidence) and how many schemes are better / worse."""
    lines = []
    for entry in entries:
        mine = [c for c in cells if c.entry == entry.name and c.metric == metric.name and c.verdict != BASELINE]
        if not mine:
            continue
        better = [c for c in mine if c.verdict == BETTER]
        worse = [c for c in mine if c.verdict == WORSE]
        tally = f"{len(better)} of {len(mine)} schemes better, {len(worse)} worse"
        if better:
            best = max(better, key=lambda c: _score(c, metric))
            lines.append(f"**{entry.name}**: best `{best.scheme}` {relative_text(best, metric)} against "
                         f"`{entry.baseline}` ({number(best.mean)} vs {number(best.baseline_mean)} {metric.unit}); "
                         f"{tally}.")
        else:
            lines.append(f"**{entry.name}**: no scheme beats `{entry.baseline}` with 95% confidence; {tally}.")
    return lines


def mission_row(cells: Sequence[Cell], metrics: Sequence[Metric], entries: Sequence[Entry]) -> list[str]:
    """``linux`` on each entry, every metric against the baseline."""
    lines = []
    for entry in entries:
        parts = []
        for metric in metrics:
            cell = next((c for c in cells if c.entry == entry.name and c.metric == metric.name
                         and c.scheme == LINUX), None)
            if cell is not None:
                verdict = cell.verdict if cell.verdict != BASELINE else "is the baseline"
                parts.append(f"{metric.title} {number(cell.mean)} {metric.unit}, {relative_text(cell, metric)} "
                             f"({verdict})")
        if parts:
            lines.append(f"**{entry.name}** (against `{entry.baseline}`): " + "; ".join(parts) + ".")
    return lines


# ----------------------------------------------------------------------------- files
def _write_csv(cells: Sequence[Cell], path: Path) -> Path:
    import dataclasses

    import pandas as pd

    frame = pd.DataFrame([dataclasses.asdict(c) for c in cells])
    frame.to_csv(path, index=False)
    return path


def heatmap(cells: Sequence[Cell], metric: Metric, entries: Sequence[Entry], schemes: Sequence[str],
            path: Path, caption_text: str) -> list[Path]:
    """Schemes (rows) x entries (columns), coloured by the relative figure oriented so that
    blue is better than the baseline and red worse, each column on its own symmetric scale;
    cells not different from the baseline with 95% confidence are pale and their text grey;
    a dash: the scheme does not run on that scenario (another protocol, or refused by it)."""
    from matplotlib.colors import Normalize
    from matplotlib.figure import Figure

    from ..campaign.plots import save_figure

    names = [e.name for e in entries]
    score = np.full((len(schemes), len(names)), np.nan)
    by = {(c.scheme, c.entry): c for c in cells}
    for i, s in enumerate(schemes):
        for j, e in enumerate(names):
            c = by.get((s, e))
            if c is not None and c.verdict != BASELINE:
                score[i, j] = _score(c, metric)
    fig = Figure(figsize=(max(5.0, 1.6 + 1.25 * len(names)), 2.2 + 0.32 * len(schemes)), layout="constrained")
    ax = fig.add_subplot()
    from matplotlib import colormaps

    cmap = colormaps["RdBu"]
    rgba = np.ones((len(schemes), len(names), 4))
    rgba[..., :3] = 0.93  # not applicable: light grey
    for j in range(len(names)):
        column = score[:, j]
        finite = np.abs(column[np.isfinite(column)])
        scale = float(finite.max()) if len(finite) and finite.max() > 0 else 1.0
        norm = Normalize(-scale, scale)
        for i in range(len(schemes)):
            c = by.get((schemes[i], names[j]))
            if c is None:
                continue
            if c.verdict == BASELINE:
                rgba[i, j] = (1, 1, 1, 1)
            elif np.isfinite(score[i, j]):
                colour = np.array(cmap(norm(score[i, j])))
                rgba[i, j] = colour if c.significant else 0.35 * colour + 0.65 * np.ones(4)
    ax.imshow(rgba, aspect="auto", interpolation="nearest")
    for i, s in enumerate(schemes):
        for j, e in enumerate(names):
            c = by.get((s, e))
            text = "\u2013" if c is None else "base" if c.verdict == BASELINE else (
                _signed(c.rel) + ("%" if metric.relative == "ratio" else "") + _MARK.get(c.verdict, "").strip())
            dark = float(np.dot(rgba[i, j, :3], (0.299, 0.587, 0.114))) < 0.5
            ax.text(j, i, text, ha="center", va="center", fontsize=7,
                    color="white" if dark else "black" if c is not None and (c.significant or c.verdict == BASELINE)
                    else "0.45")
    ax.set_xticks(range(len(names)), names, rotation=20, ha="right", fontsize=8)
    ax.set_yticks(range(len(schemes)), schemes, fontsize=8)
    ax.tick_params(length=0)
    unit = "% of the baseline" if metric.relative == "ratio" else f"difference, {metric.unit}"
    title = f"{metric.title} against each scenario's baseline ({unit})"
    better = "more" if metric.higher_is_better else "less"
    full = (f"{caption_text}. Blue: better ({better} is better), red: worse, each column on its own scale; "
            f"pale: no difference with 95% confidence.")
    import textwrap

    width = int(fig.get_figwidth() * 13)  # characters per line at this font size
    fig.suptitle("\n".join(textwrap.wrap(title, width) + textwrap.wrap(full, width)), fontsize="small")
    return save_figure(fig, path, title, full)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _markdown(outcome: "MatrixOutcome", maps: dict[str, list[Path]]) -> str:
    from .. import __version__

    spec = outcome.spec
    entries = [e.entry for e in outcome.entries]
    schemes = _rows(outcome)
    reused = outcome.total - outcome.executed
    lines = ["# The scheme x scenario matrix", "",
             f"vhsim {__version__} \u00b7 written {time.strftime('%Y-%m-%d %H:%M:%S %Z')} \u00b7 "
             f"{outcome.total} runs ({outcome.executed} run now, {reused} reused) in {outcome.wall_s:.0f} s \u00b7 "
             f"data file `{spec.origin}`", "",
             "Every cell sets a scheme against the scenario's baseline run for run (paired seeds, and the same "
             "handover instant where the scenario has a grid of them): the scheme's mean \u00b1 the 95% t "
             "half-width over its runs, then the paired difference with its 95% t interval -- in % of the "
             "baseline's mean for goodput, in the metric's unit otherwise. \u25b2 better, \u25bc worse than the "
             "baseline with 95% confidence; = identical runs; no mark: no difference shown.", "",
             "## Scenarios", ""]
    rows = []
    for e in outcome.entries:
        entry = e.entry
        samples = (f"{entry.seeds} seed{'s' if entry.seeds != 1 else ''}" +
                   (f" x {len(entry.instants.values)} instants ({entry.instants.key})" if entry.instants else ""))
        failed = f", {len(e.sweep.failed)} failed" if e.sweep.failed else ""
        rows.append([f"`{entry.name}`", entry.title, f"`{entry.scenario}`", f"`{entry.baseline}`", samples,
                     f"{e.sweep.total}{failed}", entry.note + (" Robustness variant: " + ", ".join(
                         f"{k} = {v}" for k, v in entry.robustness) if entry.robust else "")])
    lines += [markdown_table(["column", "handover", "scenario", "baseline", "runs per cell", "runs", "note"], rows),
              ""]
    refusals = [f"* `{scheme}` on `{e.entry.name}`: {reason}" for e in outcome.entries
                for scheme, reason in e.refused.items()]
    if refusals:
        lines += ["Not run (the scenario refuses the scheme; its cells show \u2013):", "", *refusals, ""]
    lines += ["## Findings", ""]
    for metric in spec.metrics:
        found = findings(outcome.cells, metric, entries)
        if found:
            lines += [f"**{_capital(metric.title)}**", ""] + [f"* {line}" for line in found] + [""]
    mission = mission_row(outcome.cells, spec.metrics, entries)
    if mission:
        lines += ["### Today's Linux TCP (`linux`) beside the papers' schemes", ""]
        lines += [f"* {line}" for line in mission] + [""]
    for metric in spec.metrics:
        chosen = {(c.scheme, c.entry): c for c in outcome.cells if c.metric == metric.name}
        if not chosen:
            continue
        kind = "% of the baseline" if metric.relative == "ratio" else "difference"
        lines += [f"## {_capital(metric.title)} ({metric.unit}; against the baseline: {kind})", ""]
        for path in maps.get(metric.name, []):
            if path.suffix == ".png":
                lines += [f"![{metric.title}]({path.name})", ""]
        table_rows = [[f"`{s}`"] + [cell_text(chosen[(s, e.name)], metric) if (s, e.name) in chosen else "\u2013"
                                    for e in entries] for s in schemes]
        lines += [markdown_table(["scheme", *(e.name for e in entries)], table_rows), ""]
    return "\n".join(lines)
