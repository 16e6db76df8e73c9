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

__all__ = ["COUNTED", "HANDOVER_GID", "RTO_GID", "clip_note", "count_in_view", "legend_below", "top_of"]

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
