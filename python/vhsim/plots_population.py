"""Plots of a run with many users (issue #29): who got what and who waited how long.

* :func:`goodput_cdf`: the empirical CDF of the flows' goodput (a fair share is a step);
* :func:`interruption_cdf`: the empirical CDF of the interruption of every flow at every
  handover it measures (last in-order delivery before the handover to the first after it);
* :func:`total_goodput`: the goodput of all flows together (or of some) over time, with the
  span of the handovers shaded: a handover storm is the dip.

:func:`population` draws the three in one PNG (``vhsim plot --population``). They read only the
per-flow table and the goodput series, which every result has at any detail, so they work on a
run of 10,000 flows saved with its flows in ``flows.parquet``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

import numpy as np

from .wording import counted

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from .result import Result

__all__ = ["goodput_cdf", "interruption_cdf", "total_goodput", "population", "interruptions"]


def _axes(ax: "Axes | None") -> "Axes":
    if ax is not None:
        return ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4), layout="constrained")
    FigureCanvasAgg(fig)
    return fig.subplots()


def _ecdf(ax: "Axes", values: np.ndarray, **kw: Any) -> None:
    """Step plot of the empirical CDF of ``values``: the share of values <= x."""
    x = np.sort(values)
    y = np.arange(1, len(x) + 1) / len(x)
    ax.step(x, y, where="post", **kw)
    ax.set_ylim(0, 1.02)
    ax.grid(True, color="0.9")


def goodput_cdf(result: "Result", ax: "Axes | None" = None, by: str | None = "scheme") -> "Axes":
    """The empirical CDF of the flows' goodput (kb/s), one curve per value of column ``by``
    (default the scheme; ``None``: one curve), each labelled with its flow count and Jain's
    fairness index."""
    ax = _axes(ax)
    flows = result.flows
    groups = [(None, flows)] if by is None or by not in flows else list(flows.groupby(by, sort=True))
    for name, df in groups:
        x = df["goodput_kbps"].to_numpy(dtype=float)
        label = f"{name + ': ' if name else ''}{counted(len(x), 'flow')}, Jain {jain(x):.3f}"
        _ecdf(ax, x, label=label)
    ax.set_xlabel("goodput (kb/s)")
    ax.set_ylabel("share of flows")
    ax.set_title("goodput per flow", fontsize="medium")
    ax.legend(fontsize="small", loc="lower right")
    return ax


def interruptions(result: "Result") -> np.ndarray:
    """Every flow's interruption at every handover it measures (s), those that ended."""
    flows = result.flows
    cols = [c for c in flows.columns if c.startswith("ho") and c.endswith(".interruption_s")]
    if not cols:
        return np.array([], dtype=float)
    values = flows[cols].to_numpy(dtype=float).ravel()
    return values[~np.isnan(values)]


def interruption_cdf(result: "Result", ax: "Axes | None" = None) -> "Axes":
    """The empirical CDF of the interruption times across (flow, handover) pairs (s)."""
    ax = _axes(ax)
    x = interruptions(result)
    if len(x):
        _ecdf(ax, x, label=f"{counted(len(x), 'interruption')}, median {np.median(x):.3g} s")
        ax.legend(fontsize="small", loc="lower right")
    else:
        ax.text(0.5, 0.5, "no handover interruption in this run", transform=ax.transAxes, ha="center",
                va="center", color="#555555")
    ax.set_xlabel("interruption (s)")
    ax.set_ylabel("share of (flow, handover)")
    ax.set_title("handover interruption", fontsize="medium")
    return ax


def total_goodput(result: "Result", ax: "Axes | None" = None, flows: Iterable[str] | None = None) -> "Axes":
    """Goodput of all flows together (or of ``flows``) per goodput interval (Mb/s), with the
    span from the first handover's start to the last one's completion shaded."""
    ax = _axes(ax)
    g = result.arrays("goodput")
    keep = np.ones(len(g["flow"]), dtype=bool)
    if flows is not None:
        names = result.flow_names
        wanted = {names.index(f) for f in flows}
        keep = np.isin(g["flow"], list(wanted))
    times, inverse = np.unique(g["time_s"][keep], return_inverse=True)
    total = np.bincount(inverse, weights=g["bytes"][keep].astype(float), minlength=len(times))
    widths = np.diff(np.concatenate([[0.0], times]))
    ax.step(times, total * 8 / np.where(widths > 0, widths, 1) / 1e6, where="pre", color="C0")
    handovers = result.handovers
    if len(handovers):
        start, done = float(handovers["start_s"].min()), float(handovers["done_s"].max())
        ax.axvspan(start, max(done, start + 1e-3), color="0.85", zorder=0, lw=0,
                   label=counted(len(handovers), "handover"))
        ax.legend(fontsize="small", loc="lower right")
    ax.set_xlim(0, float(result.summary.get("sim_s") or times[-1]))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("goodput (Mb/s)")
    ax.set_title("goodput of all flows" if flows is None else "goodput of the flows chosen", fontsize="medium")
    ax.grid(True, color="0.9")
    return ax


def jain(x: np.ndarray) -> float:
    """Jain's fairness index (sum x)^2 / (n sum x^2); 1 for no data (as the summary's)."""
    squares = float(np.sum(np.square(x)))
    return float(np.sum(x)) ** 2 / (len(x) * squares) if squares > 0 else 1.0


def population(result: "Result", path: str | os.PathLike[str], dpi: int = 130) -> dict[str, Any]:
    """Write one PNG with :func:`total_goodput` above and the two CDFs below; returns
    ``{"path": Path, "figure": Figure}``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(10, 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(2, 2)
    top, left, right = fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[1, 1])
    total_goodput(result, ax=top)
    goodput_cdf(result, ax=left)
    interruption_cdf(result, ax=right)
    n = int((result.summary.get("aggregate") or {}).get("flows", len(result.flows)))
    fig.suptitle(f"scenario {result.scenario_name} \u2014 {counted(n, 'flow')} \u2014 seed {result.seed} \u2014 vhsim {result.version}",
                 fontsize="medium")
    dest = Path(path)
    dest.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dest, dpi=dpi, format="png")
    return {"path": dest, "figure": fig}
