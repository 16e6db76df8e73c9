"""Daniel & Kojo (2008): plots in the paper's style.

Helper of :mod:`vhsim.campaign.papers.danielkojo`.

* :func:`quartile_panels` -- Figures 2-7: x = the varied link parameter (as categories, in the
  paper's order), y = time to get 100 packets ACKed after the handoff; median solid with
  markers, lower and upper quartile dashed; one line per (sender, handoff kind); one panel per
  value of the fixed parameter (the paper shows two of them per figure).  A quartile that is
  only known to exceed the horizon (censored runs) is drawn as an upward triangle at the top.
  With ``drops`` (Figure 23) a last panel (b) shows the mean number of packets the new link
  dropped in the window after the handoff, one line per sender.
* :func:`case_studies` -- Figures 8-24: time-sequence graph (above) and cwnd/ssthresh (below) of
  each sender's run side by side, zoomed on the handoff like the paper's, from the packet traces
  the campaign kept.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from ..plots import PALETTE, save_figure
from .danielkojo_analysis import annotate, summary

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign

KIND_STYLE = {"MBB": ("o", "make-before-break"), "BBM": ("s", "break-before-make")}


def quartile_panels(df: "pd.DataFrame", path: Path, *, x: str, x_order: Sequence[int], x_labels: Sequence[str],
                    panel: str | None, panel_order: Sequence[int], panel_title: str, xlabel: str, title: str,
                    paper_panels: Sequence[int] = (), drops: bool = False) -> list[Path]:
    """Quartiles of the transfer time per configuration (see the module docstring)."""
    from matplotlib.figure import Figure

    table = summary(annotate(df))
    panels = [p for p in panel_order if panel is None or p in set(table[panel])] if panel else [None]
    n_axes = len(panels) + (1 if drops else 0)
    fig = Figure(figsize=(max(7.0, 4.2 * n_axes + 1), 4.8), layout="constrained")
    all_axes = fig.subplots(1, n_axes, squeeze=False)[0]
    axes = all_axes[:len(panels)]
    senders = list(dict.fromkeys(table["sender"]))
    kinds = [k for k in KIND_STYLE if k in set(table["kind"])]
    top = _finite_max(table)
    for ax, pv in zip(axes, panels):
        sub = table if pv is None else table[table[panel] == pv]
        present = [v for v in x_order if v in set(sub[x])]
        pos = {v: i for i, v in enumerate(present)}
        for si, sender in enumerate(senders):
            for kind in kinds:
                rows = sub[(sub["sender"] == sender) & (sub["kind"] == kind)]
                rows = rows[rows[x].isin(present)].assign(_p=lambda d: [pos[v] for v in d[x]]).sort_values("_p")
                if not len(rows):
                    continue
                colour = PALETTE[(si * len(KIND_STYLE) + kinds.index(kind)) % len(PALETTE)]
                marker, name = KIND_STYLE[kind]
                label = f"{sender}, {name}" if len(senders) > 1 or sender != "regular" else name
                _line(ax, rows["_p"], rows["median"], top, colour, "-", marker, label + " (median)")
                _line(ax, rows["_p"], rows["q1"], top, colour, "--", None, None)
                _line(ax, rows["_p"], rows["q3"], top, colour, "--", None, None)
        ax.set_xticks(range(len(present)), [x_labels[list(x_order).index(v)] for v in present])
        ax.set_xlabel(xlabel)
        ax.set_ylabel("time to transfer 100 packets (s)")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        if pv is not None:
            shown = " (shown in the paper)" if pv in paper_panels else ""
            ax.set_title(panel_title.format(pv) + shown, fontsize="medium")
    axes[0].legend(fontsize="small", title="dashed: lower / upper quartile", title_fontsize="small")
    if drops:
        _drops_panel(all_axes[-1], table, x, x_order, x_labels, xlabel, senders)
        axes[0].set_title("(a) transfer time", fontsize="medium")
    censored = int(table["censored"].sum())
    n = int(table["instants"].max()) if len(table) else 0
    version = str(df["vhsim_version"].iloc[0]) if len(df) and "vhsim_version" in df else "?"
    cap = (f"scenario {df.attrs.get('scenario', 'danielkojo-base')} \u2014 {n} handoff instants per configuration, "
           f"one run each \u2014 {censored} runs without 100 packets ACKed by the end of their horizon "
           f"\u2014 vhsim {version}")
    _title(fig, title, cap)
    return save_figure(fig, path, title, cap)


def _drops_panel(ax, table: "pd.DataFrame", x: str, x_order: Sequence[int], x_labels: Sequence[str], xlabel: str,
                 senders: Sequence[str]) -> None:
    from .danielkojo_setup import DROPS_WINDOW_S

    present = [v for v in x_order if v in set(table[x])]
    pos = {v: i for i, v in enumerate(present)}
    for si, sender in enumerate(senders):
        rows = table[table["sender"] == sender]
        rows = rows[rows[x].isin(present)].assign(_p=lambda d: [pos[v] for v in d[x]]).sort_values("_p")
        ax.plot(rows["_p"], rows["window_drops_mean"], marker="os^"[si % 3], color=PALETTE[si * len(KIND_STYLE)],
                label=sender)
    ax.set_xticks(range(len(present)), [x_labels[list(x_order).index(v)] for v in present])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"packets dropped by the new link in {DROPS_WINDOW_S} s (mean)")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title("(b) dropped packets", fontsize="medium")


def _finite_max(table: "pd.DataFrame") -> float:
    values = [v for c in ("q1", "median", "q3") for v in table[c] if math.isfinite(v)]
    return max(values) if values else 1.0


def _line(ax, xs, ys, top: float, colour: str, style: str, marker: str | None, label: str | None) -> None:
    xs, ys = list(xs), list(ys)
    finite = [(a, b) for a, b in zip(xs, ys) if math.isfinite(b)]
    if finite:
        ax.plot([a for a, _ in finite], [b for _, b in finite], linestyle=style, marker=marker, markersize=4,
                linewidth=1.3 if style == "-" else 0.9, color=colour, label=label)
    cut = [a for a, b in zip(xs, ys) if math.isinf(b)]
    if cut:
        ax.plot(cut, [top * 1.05] * len(cut), linestyle="none", marker="^", markersize=7, color=colour)


def _title(fig, title: str, cap: str) -> None:
    import textwrap

    width = int(fig.get_figwidth() * 11)
    fig.suptitle("\n".join(textwrap.wrap(title, width) + textwrap.wrap(cap, width)), fontsize="medium")


def case_studies(camp: "Campaign", path: Path, title: str, senders: Sequence[str], before_s: float = 0.5,
                 after_s: float = 3.0) -> list[Path]:
    """Time-sequence graph (above) and cwnd/ssthresh (below) of each sender's run (configuration
    ``i`` is ``senders[i]``), side by side, zoomed on the handoff: from ``before_s`` before it to
    ``after_s`` after its completion; the same axes for every sender."""
    from matplotlib.figure import Figure

    from ... import plots as run_plots
    from ...result import read_result

    results = []
    for config in range(len(senders)):
        scenario, seed, run = camp.run_scenario(config, 0)
        traces = camp.trace_dir(run.run_id)
        results.append(read_result(traces) if (traces / "packets.parquet").is_file()
                       else scenario.run(seed=seed, detail="packets"))
    handoff = results[0].summary["handovers"][0]
    start, done = float(handoff["start_s"]), float(handoff["done_s"])
    lo, hi = start - before_s, done + after_s
    fig = Figure(figsize=(5.2 * len(senders) + 1, 7.5), layout="constrained")
    grid = fig.subplots(2, len(senders), squeeze=False, height_ratios=[3, 2], sharex=True)
    seq_lim, cw_top = [], 2.0
    for col, (sender, result) in enumerate(zip(senders, results)):
        ax_seq, ax_cw = grid[0][col], grid[1][col]
        run_plots.time_sequence(result, "bulk", ax=ax_seq)
        run_plots.cwnd(result, "bulk", ax=ax_cw)
        for ax in (ax_seq, ax_cw):
            run_plots.mark_handovers(result, ax)
            ax.set_xlim(lo, hi)
        ax_seq.set_title(f"({'abc'[col]}) {sender} TCP", fontsize="medium")
        ax_seq.tick_params(labelbottom=True)
        seq_lim.append(_seq_range(result, start - 0.1, hi))
        cw_top = max(cw_top, _cwnd_top(result, lo, hi))
        if col == 0:
            ax_seq.legend(loc="lower right", fontsize="small", markerscale=1.5)
    finite = [r for r in seq_lim if r is not None]
    if finite:
        low, high = min(a for a, _ in finite), max(b for _, b in finite)
        pad = max(2.0, 0.03 * (high - low))
        for col in range(len(senders)):
            grid[0][col].set_ylim(low - pad, high + pad)
    for col in range(len(senders)):
        grid[1][col].set_ylim(0, cw_top * 1.1)
    cap = (f"scenario {results[0].scenario_name}, handoff at {start:g} s \u2014 one run per sender, seed "
           f"{camp.run_scenario(0, 0)[1]} \u2014 vhsim {results[0].version}")
    _title(fig, title, cap)
    return save_figure(fig, path, title, cap)


def _seq_range(result, lo: float, hi: float) -> tuple[float, float] | None:
    trace = result.trace("packets")
    seq = trace[(trace["time_s"] >= lo) & (trace["time_s"] <= hi) & trace["event"].isin(["send", "retransmit"])]["seq"]
    return (float(seq.min()), float(seq.max())) if len(seq) else None


def _cwnd_top(result, lo: float, hi: float) -> float:
    ts = result.trace("timeseries")
    ts = ts[(ts["time_s"] >= lo) & (ts["time_s"] <= hi)]
    if not len(ts):
        return 2.0
    top = max(float(ts["cwnd_pkts"].max()), 2.0)
    ss = ts["ssthresh_pkts"][ts["ssthresh_pkts"] < 1e6]
    return max(top, float(ss.max())) if len(ss) else top
