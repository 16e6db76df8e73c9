"""Sobral et al.'s figures as panels of single runs: cwnd (Figures 4, 7), throughput (Figure 6)
and the time-sequence graph around 300 s (Figure 5).

A panel is a time range and a list of curves; a curve names its run by configuration columns of
the figure's table (``{"case": "FH", "scheme": "newreno"}``).  Panels whose runs are not in the
table (quick mode) are drawn with a note instead of curves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from ...figstyle import legend_below
from ...wording import counted
from .. import metrics as M
from ..plots import PALETTE, _title_block, save_figure
from .sobral_runs import FLOW, goodput_kbps

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign


@dataclass(frozen=True)
class Curve:
    where: Mapping[str, Any]
    label: str
    colour: int = 0
    style: str = "-"


@dataclass(frozen=True)
class Panel:
    title: str
    start_s: float
    end_s: float
    curves: tuple[Curve, ...]


def _row(table: "pd.DataFrame", where: Mapping[str, Any]):
    mask = None
    for k, v in where.items():
        m = table[k] == v
        mask = m if mask is None else mask & m
    rows = table[mask] if mask is not None else table
    return rows.iloc[0] if len(rows) else None


def _cwnd(ax, result, curve: Curve, lo: float, hi: float) -> None:
    ts = result.trace("timeseries")
    ts = ts[(ts[M.FLOW] == FLOW) & (ts[M.TIME] >= lo) & (ts[M.TIME] <= hi)]
    ax.step(ts[M.TIME], ts[M.CWND], where="post", color=PALETTE[curve.colour], linestyle=curve.style,
            linewidth=1.0, label=curve.label)


def _throughput(ax, result, curve: Curve, lo: float, hi: float) -> None:
    kbps = goodput_kbps(result)
    kbps = kbps[(kbps.index >= lo) & (kbps.index <= hi)]
    ax.step(kbps.index, kbps.to_numpy(), where="post", color=PALETTE[curve.colour], linestyle=curve.style,
            linewidth=1.2, label=curve.label)


#: Each panel kind: how it draws a curve, its y label, and the one trace table it reads.
_DRAW = {"cwnd": (_cwnd, "cwnd (segments)", "timeseries"),
         "throughput": (_throughput, "throughput (kb/s, 1 s bins)", "goodput")}


@dataclass(frozen=True)
class Panels:
    """Panels of ``what`` ("cwnd" or "throughput") side by side, each curve one run."""

    what: str
    panels: tuple[Panel, ...]
    ylim: tuple[float, float] | None = None

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path, fig: Any) -> list[Path]:
        from matplotlib.figure import Figure

        from ... import plots as run_plots

        draw, ylabel, needs = _DRAW[self.what]
        figure = Figure(figsize=(5.2 * len(self.panels) + 0.6, 5.2), layout="constrained")
        axes = figure.subplots(1, len(self.panels), squeeze=False)[0]
        cache: dict[str, Any] = {}  # a run drawn in several panels is read once, and only its `needs` table
        for ax, panel in zip(axes, self.panels):
            drawn = 0
            for curve in panel.curves:
                row = _row(table, curve.where)
                if row is None:
                    continue
                run = str(row["run_id"])
                if run not in cache:
                    cache[run] = camp.trace_for(row, tables=(needs,))
                draw(ax, cache[run], curve, panel.start_s, panel.end_s)
                if not drawn:
                    run_plots.mark_handovers(cache[run], ax)
                drawn += 1
            ax.set_xlim(panel.start_s, panel.end_s)
            ax.set_title(panel.title, fontsize="medium")
            ax.set_xlabel("time (s)")
            ax.set_ylabel(ylabel)
            ax.grid(True, alpha=0.3)
            if self.ylim:
                ax.set_ylim(*self.ylim)
            if drawn:
                legend_below(ax, columns=2)
            else:
                ax.text(0.5, 0.5, "runs not in this campaign (quick mode)", ha="center", va="center",
                        transform=ax.transAxes)
        version = table["vhsim_version"].iloc[0] if len(table) else "?"
        cap = (f"scenario {table.attrs.get('scenario', '?')}, one deterministic run per curve "
               f"(no random component) \u2014 vhsim {version}")
        _title_block(figure, fig.title, cap)
        return save_figure(figure, out / fig.id, fig.title, cap)


@dataclass(frozen=True)
class Sequence:
    """The time-sequence graph of one run over ``[start_s, end_s]``, with the sender's timeouts
    and the arrival of repeated ACKs marked (Figure 5)."""

    where: Mapping[str, Any]
    start_s: float
    end_s: float

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path, fig: Any) -> list[Path]:
        from matplotlib.figure import Figure

        from ... import plots as run_plots

        row = _row(table, self.where)
        figure = Figure(figsize=(9, 7.6), layout="constrained")  # room for the caption's explanation
        ax = figure.add_subplot()
        if row is None:
            ax.text(0.5, 0.5, "run not in this campaign", ha="center", va="center", transform=ax.transAxes)
            return save_figure(figure, out / fig.id, fig.title, "")
        result = camp.trace_for(row)
        run_plots.time_sequence(result, FLOW, ax=ax, window=(self.start_s, self.end_s))
        pk = result.trace("packets")
        acks = pk[(pk[M.FLOW] == FLOW) & (pk[M.EVENT] == M.ACK_RECEIVE)]
        acks = acks[(acks[M.TIME] >= self.start_s) & (acks[M.TIME] <= self.end_s)]
        ax.plot(acks[M.TIME], acks[M.SEQ], linestyle="none", marker="|", markersize=5, color=PALETTE[2],
                label="ACK received (next expected)")
        for i, t in enumerate(row["rto300_s"]):
            ax.axvline(t, color=PALETTE[1], linestyle="--", linewidth=0.9, label="timeout" if i == 0 else None)
        for i, t in enumerate(row["dup300_s"]):
            ax.axvline(t, color=PALETTE[3], linestyle=":", linewidth=1.1, label="repeated ACKs start" if i == 0 else None)
        run_plots.finish_panel(ax)
        notes = [n for n in (ds_copies_note(result, self.start_s, self.end_s),) if n]
        cap = "; ".join([f"scenario {result.scenario_name}, one deterministic run \u2014 vhsim {result.version}",
                         *notes])
        _title_block(figure, fig.title, cap)
        return save_figure(figure, out / fig.id, fig.title, cap, notes=notes)


def ds_copies_note(result, lo: float, hi: float) -> str | None:
    """Why segments marked dropped at a forced handover come back as spurious retransmissions,
    in the run's own numbers (None when the Delivery Service re-sent nothing or nothing was
    dropped in ``[lo, hi]``).

    The DS at the anchor keeps a copy of every packet it forwards on the guarded interface
    until the mobile node's DS acknowledges it; when it declares the interface failed it sends
    every kept copy again on the new path (the world's ``poll_resend``: same packet, not a
    transmission of the TCP sender, so not drawn as sent).  The sender's first transmissions
    lost on the failed link are the crosses; where a copy arrives first, the sender's own
    retransmission of that segment after its timeout arrives a second time: spurious."""
    anchor = next((a for a in result.summary.get("agents", []) if a.get("kind") == "delivery_service"
                   and a.get("resent", 0) > 0), None)
    forced = next((h for h in result.summary.get("handovers", []) if h.get("kind") == "forced"
                   and lo <= float(h["start_s"]) <= hi), None)
    if anchor is None or forced is None:
        return None
    pk = result.trace("packets")
    pk = pk[(pk[M.FLOW] == FLOW) & (pk[M.TIME] >= lo)]
    drops = pk[(pk[M.EVENT] == M.DROP) & (pk[M.CAUSE] == "link_down") & (pk[M.TIME] <= hi)]
    if not len(drops):
        return None
    copies_first = 0  # lost segments that arrived before the sender retransmitted them: the DS's copies
    for seq, t in zip(drops[M.SEQ], drops[M.TIME]):
        later = pk[(pk[M.SEQ] == seq) & (pk[M.TIME] > t)]
        arrived = float(later[later[M.EVENT] == M.RECEIVE][M.TIME].min())
        resent = float(later[later[M.EVENT] == M.RETRANSMIT][M.TIME].min())
        copies_first += not math.isnan(arrived) and (math.isnan(resent) or arrived < resent)
    spurious = pk[(pk[M.EVENT] == M.RETRANSMIT) & (pk[M.SPURIOUS] == 1) & (pk[M.TIME] <= hi)]
    others = int((~spurious[M.SEQ].isin(set(drops[M.SEQ]))).sum())
    rest = (f"; the other {counted(others, 'diamond')}: retransmissions after a timeout of segments whose earlier "
            "transmission was not lost either (its ACK lost with the link, or the segment or its ACK still on its way "
            "over the slow path)"
            if others else "")
    old, new = forced["from"], forced["to"]
    return (f"crosses: the sender's first transmissions of {counted(len(drops), 'segment')} "
            f"({int(drops[M.SEQ].min())}-{int(drops[M.SEQ].max())}) lost on the failed {old} link; the Delivery "
            f"Service at {anchor['node']} kept a copy of every segment it forwarded on {old} until the mobile "
            f"node's DS acknowledged it, declared {old} failed at {float(forced['done_s']):.3f} s and sent its "
            f"{counted(int(anchor['resent']), 'kept copy', 'kept copies')} again over {new} (not the sender's "
            f"transmissions, so not drawn as sent); {copies_first} of the lost segments arrived through these "
            f"copies before the sender retransmitted them, so its retransmissions after the timeout arrived a "
            f"second time: spurious (diamonds){rest}")
