"""Kim & Koh reproduction: the plots of Figures 8-16, drawn like the paper's (one run per
scheme for the traces, means with 95% CIs over the replications for the sweeps)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from ... import plots as run_plots
from ...figstyle import hidden_lines, legend_below
from .. import metrics as M
from ..plots import PALETTE, caption, save_figure
from ..stats import mean_ci
from . import kimkoh_runs as R

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

SCHEME = "flows.ftp.scheme"


def _first_runs(table: "pd.DataFrame") -> list:
    """The first replication of every scheme, in the table's order."""
    rows = table[table["rep"] == table["rep"].min()]
    return [r for _, r in rows.iterrows()]


def _finish(figure, out: Path, fig, stem: str, note: str, table, notes: Sequence[str] = ()) -> list[Path]:
    """Caption and save; ``notes`` (lines hidden under others) end the caption and go to the report."""
    cap = caption(table, "; ".join([note, *notes]))
    figure.suptitle(fig.title + "\n" + "\n".join(textwrap.wrap(cap, int(figure.get_figwidth() * 13))), fontsize="small")
    return save_figure(figure, out / f"{fig.id}-{stem}", fig.title, cap, notes=notes)


def tsn_panels(camp, table: "pd.DataFrame", out: Path, fig, *, scripted_s: float, names: Mapping[str, str],
               span: tuple[float, float] = (-0.5, 3.0)) -> list[Path]:
    """TSNs the mobile node receives around the switch, one panel per scheme (first
    replication): first copies, duplicates, and the CN's retransmissions (spurious ones marked)."""
    from matplotlib.figure import Figure

    runs = _first_runs(table)
    figure = Figure(figsize=(5.5 * len(runs) + 1, 5), layout="constrained")
    axes = figure.subplots(1, len(runs), squeeze=False, sharey=True)[0]
    for k, (ax, row) in enumerate(zip(axes, runs)):
        result = camp.trace_for(row)
        run_plots.mark_handovers(result, ax)
        pk = R.flow_rows(result.trace("packets"))
        sw = R.switch_time(pk, scripted_s)
        lo, hi = sw + span[0], sw + span[1]
        t, seq, first = R.first_arrivals(pk)
        win = (t >= lo) & (t <= hi)
        ax.plot(t[win & first], seq[win & first], ".", color=PALETTE[0], markersize=3, label="received (first copy)")
        ax.plot(t[win & ~first], seq[win & ~first], "x", color="0.55", markersize=4, label="received again (duplicate)")
        tx = pk[(pk[M.EVENT] == "retransmit") & (pk[M.TIME] >= lo) & (pk[M.TIME] <= hi)]
        spur = tx[M.SPURIOUS] == 1
        ax.plot(tx[M.TIME][spur], tx[M.SEQ][spur], "o", mfc="none", color=PALETTE[1], markersize=5,
                label="retransmitted by the CN, spurious")
        ax.plot(tx[M.TIME][~spur], tx[M.SEQ][~spur], "D", mfc="none", color=PALETTE[2], markersize=5,
                label="retransmitted by the CN, necessary")
        ax.axvline(sw, color="0.3", linestyle=":", linewidth=1, label=f"Set-Primary at the CN ({sw:.3f} s)")
        ax.set_xlim(lo, hi)
        ax.set_xlabel("time (s)")
        ax.set_title(f"({'abc'[k]}) {names.get(row[SCHEME], row[SCHEME])}", fontsize="medium")
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("TSN")
    legend_below(axes[0], columns=2)
    return _finish(figure, out, fig, "tsn", "n = 1 run per panel (first replication)", table)


def cwnd_and_goodput(camp, table: "pd.DataFrame", out: Path, fig, *, scripted_s: float, new: int, window: str,
                     names: Mapping[str, str], span: tuple[float, float] = (-1.0, 4.0)) -> list[Path]:
    """(a) The new primary's cwnd (MTUs) around the switch, one line per scheme (first
    replication); (b) goodput in the 4 s after the switch, mean and 95% CI per scheme."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4.8), layout="constrained")
    ax_c, ax_g = figure.subplots(1, 2)
    for k, row in enumerate(_first_runs(table)):
        ts = R.flow_rows(camp.trace_for(row).trace("timeseries"))
        t, cw = R.path_series(ts, new, R.CWND)
        lo, hi = scripted_s + span[0], scripted_s + span[1]
        sel = (t >= lo) & (t <= hi)
        # Rows come only when a variable changes: hold the last value to the end of the span.
        ts_, cw_ = np.append(t[sel], hi), np.append(cw[sel], cw[sel][-1] if sel.any() else np.nan)
        ax_c.step(ts_, cw_ / R.MTU, where="post", color=PALETTE[k], label=names.get(row[SCHEME], row[SCHEME]))
    # The CN switches when the Set-Primary ASCONF arrives, after the scripted request time.
    switch = float(np.nanmean(table["switch_s"])) if "switch_s" in table else scripted_s
    ax_c.axvline(switch, color="0.3", linestyle=":", linewidth=1, label=f"switch at the CN ({switch:.3f} s)")
    ax_c.set_xlabel("time (s)")
    ax_c.set_ylabel("cwnd of the new primary path (MTUs of 1468 B)")
    ax_c.set_title("(a) congestion window (first replication)", fontsize="medium")
    ax_c.grid(True, alpha=0.3)
    legend_below(ax_c)
    schemes = list(dict.fromkeys(table[SCHEME]))
    cis = [mean_ci(table[table[SCHEME] == s][window].to_numpy(float)) for s in schemes]
    ax_g.bar(range(len(schemes)), [c.mean for c in cis], yerr=[np.nan_to_num(c.half_width) for c in cis], capsize=4,
             color=[PALETTE[i] for i in range(len(schemes))])
    ax_g.set_xticks(range(len(schemes)), [names.get(s, s) for s in schemes])
    ax_g.set_ylabel("goodput in the 4 s after the switch (kb/s)")
    ax_g.set_title("(b) throughput, mean \u00b1 95% CI", fontsize="medium")
    ax_g.grid(True, alpha=0.3, axis="y")
    return _finish(figure, out, fig, "cwnd-goodput", "(a) n = 1 run per line; (b) all replications", table)


def lines_vs(camp, table: "pd.DataFrame", out: Path, fig, *, metric: str, x: str, lines: str, names: Mapping[str, str],
             xlabel: str, ylabel: str, x_scale: float = 1.0, stem: str = "lines") -> list[Path]:
    """Mean and 95% CI of ``metric`` against ``x``, one line per value of ``lines``."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 4.8), layout="constrained")
    ax = figure.subplots()
    xs = sorted(set(table[x]))
    for k, line in enumerate(dict.fromkeys(table[lines])):
        sub = table[table[lines] == line]
        cis = [mean_ci(sub[sub[x] == v][metric].to_numpy(float)) for v in xs]
        ax.errorbar([v * x_scale for v in xs], [c.mean for c in cis], yerr=[np.nan_to_num(c.half_width) for c in cis],
                    marker="os^D"[k % 4], capsize=3, color=PALETTE[k], label=names.get(line, line))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    legend_below(ax, columns=4)
    return _finish(figure, out, fig, stem, "mean \u00b1 95% CI over the replications", table, hidden_lines(ax))


def ping_pong(camp, table: "pd.DataFrame", out: Path, fig, *, switches: Sequence[float],
              names: Mapping[str, str], end_s: float) -> list[Path]:
    """(a) Chunks delivered in order over time, (b) cwnd of both paths, one run per scheme."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4.8), layout="constrained")
    ax_t, ax_c = figure.subplots(1, 2)
    grid = np.arange(0.0, end_s + 1e-9, 0.1)
    for k, row in enumerate(_first_runs(table)):
        result = camp.trace_for(row)
        label = names.get(row[SCHEME], row[SCHEME])
        ax_t.plot(grid, R.cumulative_chunks(result, grid), color=PALETTE[k], label=label)
        ts = R.flow_rows(result.trace("timeseries"))
        for path, style in ((R.UMTS, "--"), (R.WLAN, "-")):
            t, cw = R.path_series(ts, path, R.CWND)
            ax_c.step(t, cw / R.MTU, where="post", color=PALETTE[k], linestyle=style,
                      label=f"{label}, {'3G' if path == R.UMTS else 'WLAN'}")
    for ax in (ax_t, ax_c):
        for s in switches:
            ax.axvline(s, color="0.7", linestyle=":", linewidth=1)
        ax.set_xlim(0, end_s)
        ax.set_xlabel("time (s)")
        ax.grid(True, alpha=0.3)
        legend_below(ax, columns=2)
    ax_t.set_ylabel("TSNs delivered in order")
    ax_t.set_title("(a) TSN", fontsize="medium")
    ax_c.set_ylabel("cwnd (MTUs of 1468 B)")
    ax_c.set_title("(b) congestion window per path", fontsize="medium")
    return _finish(figure, out, fig, "tsn-cwnd", "n = 1 run per line (first replication); dotted: switches", table)
