"""The one plotting convention of every figure vhsim draws (issue #31).

* **Y-limits from the data that matters.**  A value that would squash the rest (the initial
  ssthresh of a window that never binds, 10,000 packets) is left above the axis, and the axis
  label says so (:func:`clip_note`).
* **Every handover marked and labelled**: a dotted line at its start, a shaded span until traffic
  takes the new interface, its name on a second time axis above the panel
  (:func:`vhsim.plots.mark_handovers`).
* **Legends outside the data**: below the panel (:func:`legend_below`), or to the right of it,
  never over the curves.
* **Counts for the visible window**: a legend entry ``name (n)`` counts the points inside the
  panel's x-limits (:func:`count_in_view`); a panel that shows only part of the run says which
  part in the legend's title.
* **The effective window** min(cwnd, rwnd) is drawn when the receive window binds
  (:func:`vhsim.plots.cwnd`).
* **No line hidden without a word**: where a line lies under one drawn after it (equal values
  within half that line's width), the caption says so (:func:`hidden_lines`).

Tests (tests/test_figures.py) check these on the figures of ``make demo`` and of a
``vhsim reproduce --quick`` figure.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend

__all__ = ["COUNTED", "HANDOVER_GID", "RTO_GID", "clip_note", "count_in_view", "hidden_lines", "legend_below",
           "top_of"]

#: A legend label that counts points: ``sent (4,347)``; a leading ``_`` hides the entry (none in view).
COUNTED = re.compile(r"^_?(?P<name>.*) \((?P<n>[\d,]+)\)$")
#: gid of the vertical line at a handover's start.
HANDOVER_GID = "handover"
#: gid of the RTO markers on a panel's time axis.
RTO_GID = "rto"
#: Distance (points) from a panel's bottom edge to its legend: tick labels and the axis label.
LEGEND_DROP_PT = 30
#: A value more than this many times the largest value that matters is left above the axis.
CLIP_FACTOR = 2.0


def count_in_view(ax: "Axes") -> bool:
    """Rewrite every ``name (n)`` label of ``ax``'s lines to count the points inside its x-limits
    (entries with none in view are hidden); markers on the time axis outside the limits are
    removed (they are drawn without clipping).  Returns whether a shown entry has points outside
    the view, i.e. its count is for part of the run."""
    lo, hi = sorted(ax.get_xlim())
    partial = False
    for line in list(ax.get_lines()):  # a copy: lines may be removed
        match = COUNTED.match(str(line.get_label()))
        if not match:
            continue
        x = np.asarray(line.get_xdata(), dtype=float)
        inside = (x >= lo) & (x <= hi)
        partial |= bool((~inside).any()) and bool(inside.any())  # a hidden entry needs no title
        if line.get_gid() == RTO_GID and not inside.any():
            line.remove()  # an empty unclipped line would break constrained layout
            continue
        if line.get_gid() == RTO_GID and not inside.all():
            line.set_data(x[inside], np.asarray(line.get_ydata(), dtype=float)[inside])
        n = int(inside.sum())
        line.set_label(f"{'' if n else '_'}{match['name']} ({n:,})")
    return partial


def legend_below(ax: "Axes", title: str | None = None, columns: int = 3, **kwargs) -> "Legend | None":
    """The legend of ``ax`` below the panel, outside the data (constrained layout makes room);
    ``None`` when nothing is labelled."""
    handles, labels = ax.get_legend_handles_labels()
    if not handles:
        if ax.get_legend() is not None:
            ax.get_legend().remove()
        return None
    from matplotlib.transforms import offset_copy

    # Anchored a fixed distance below the axes, clear of the tick labels and the axis label,
    # whatever the panel's height.
    below = offset_copy(ax.transAxes, fig=ax.figure, y=-LEGEND_DROP_PT, units="points")
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below,
                     ncols=min(columns, len(labels)), fontsize="small", title=title, title_fontsize="small",
                     frameon=False, **kwargs)


def view_title(ax: "Axes", partial: bool) -> str | None:
    """The legend title of a panel showing part of the run: which part the counts are for."""
    if not partial:
        return None
    lo, hi = sorted(ax.get_xlim())
    return f"counts in view ({lo:g}\u2013{hi:g} s)"


def top_of(matters: Iterable[float], others: Iterable[float] = (), floor: float = 1.0) -> tuple[float, float]:
    """``(top, clipped)``: the y-axis top for the values that matter (their maximum, with a
    margin), raised for other values up to :data:`CLIP_FACTOR` times that maximum; ``clipped`` is
    the largest other value left above the axis (0 if none)."""
    base = max([floor, *(v for v in matters if np.isfinite(v))])
    rest = [v for v in others if np.isfinite(v)]
    kept = [v for v in rest if v <= CLIP_FACTOR * base]
    top = max([base, *kept])
    clipped = max([v for v in rest if v > top], default=0.0)
    return top * 1.08, clipped


def clip_note(ax: "Axes", what: str, clipped: float, unit: str = "") -> None:
    """Say on the y-axis label that ``what`` rises to ``clipped`` above the axis."""
    if clipped > 0:
        ax.set_ylabel(f"{ax.get_ylabel()}\n({what} up to {clipped:,.0f}{unit} above the axis)")


def hidden_lines(ax: "Axes") -> list[str]:
    """Notes for a caption on the labelled lines of ``ax`` that lie under a line drawn after them:
    at points of equal x whose positions on the axis (after layout) are at most half the covering
    line's width apart, the earlier line cannot be seen.  ``["Freeze-TCP's line lies under
    Freeze-TCPv2's (values equal at the plot's resolution)"]``, or ``"... at 10 and 50 km/h
    (...)"`` when only some points coincide (the x unit is read from the axis label's
    parentheses)."""
    series = _labelled_lines(ax)
    if len(series) < 2:
        return []
    _lay_out(ax.figure)
    unit = re.search(r"\(([^()]*)\)\s*$", ax.get_xlabel())
    unit = f" {unit[1]}" if unit and unit[1] else ""
    notes = []
    for i, (name, line) in enumerate(series):
        x, y = _xy(line)
        shown = np.isfinite(x) & np.isfinite(y)
        pixels = ax.transData.transform(np.column_stack([x, y]))[:, 1]
        covered: dict[float, str] = {}  # x -> the last line drawn over this one's point there
        for above_name, above in series[i + 1:]:
            ax_, ay = _xy(above)
            above_pixels = ax.transData.transform(np.column_stack([ax_, ay]))[:, 1]
            half_width = above.get_linewidth() * ax.figure.dpi / 72 / 2
            for xv, py, ok in zip(x, pixels, shown):
                at = np.flatnonzero(ax_ == xv)
                if ok and len(at) and np.isfinite(ay[at[0]]) and abs(above_pixels[at[0]] - py) <= half_width:
                    covered[float(xv)] = above_name
        for above_name in dict.fromkeys(covered.values()):
            xs = sorted(xv for xv, who in covered.items() if who == above_name)
            where = "" if len(xs) == int(shown.sum()) else f" at {_and([f'{xv:g}' for xv in xs])}{unit}"
            notes.append(f"{name}'s line lies under {above_name}'s{where} (values equal at the plot's resolution)")
    return notes


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _labelled_lines(ax: "Axes") -> list[tuple[str, object]]:
    """(legend label, the line drawn for it) in drawing order; error bars give their data line.
    Marker-only series (no line style) are left out."""
    from matplotlib.container import ErrorbarContainer
    from matplotlib.lines import Line2D

    drawn = list(ax.get_lines())
    out = []
    for handle, label in zip(*ax.get_legend_handles_labels()):
        line = handle.lines[0] if isinstance(handle, ErrorbarContainer) else handle
        if isinstance(line, Line2D) and line in drawn and line.get_linestyle() not in ("None", "none", "", " "):
            out.append((label, line))
    return sorted(out, key=lambda item: (item[1].get_zorder(), drawn.index(item[1])))


def _xy(line) -> tuple[np.ndarray, np.ndarray]:
    return np.asarray(line.get_xdata(), dtype=float), np.asarray(line.get_ydata(), dtype=float)


def _lay_out(figure) -> None:
    """Place the axes as they will be drawn (constrained layout), so data maps to the final pixels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    if not isinstance(figure.canvas, FigureCanvasAgg):
        FigureCanvasAgg(figure)
    figure.draw_without_rendering()
