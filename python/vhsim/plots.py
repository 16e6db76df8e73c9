"""Plots of one run: time-sequence graph and congestion window.

The figures follow the habit of the ns-2 handover papers: sequence number of
every transmitted segment against time, with retransmissions and drops marked
so that a spurious timeout or a burst of losses at the handover is visible at
a glance; and cwnd / ssthresh over time underneath.

Nothing here touches pyplot's global state: figures are built as
:class:`matplotlib.figure.Figure` objects and rendered with the Agg canvas,
so the module works on headless machines and does not change the backend of
an interactive session.

>>> import vhsim, vhsim.plots                                    # doctest: +SKIP
>>> res = vhsim.load("scenarios/examples/bulk-3g.toml").run(detail="packets")
>>> vhsim.plots.overview(res, "overview.png")
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from .figstyle import HANDOVER_GID, RTO_GID, clip_note, count_in_view, legend_below, top_of, view_title
from .wording import counted

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

    from .result import Result

__all__ = ["time_sequence", "cwnd", "overview", "compare", "mark_handovers", "mark_rtos", "rto_times",
           "MissingTraceError", "pick_flow", "finish_panel"]

# Colours: colour-blind friendly (Okabe-Ito).
_C_SEND = "#0072B2"
_C_RETX = "#D55E00"
_C_SPURIOUS = "#CC79A7"
_C_DROP = "#000000"
_C_CWND = "#0072B2"
_C_SSTHRESH = "#E69F00"
_C_RTO = "#C0392B"
_C_EFFECTIVE = "#009E73"

# ssthresh starts "infinite" in most stacks; above this many packets it is not drawn.
_SSTHRESH_CAP_PKTS = 1e6


class MissingTraceError(LookupError):
    """The result lacks the trace table a plot needs (wrong ``detail``)."""


def pick_flow(result: "Result", flow: str | None) -> str:
    """Return ``flow`` if the result has it, or the first flow when ``None``."""
    names = result.flow_names
    if not names:
        raise ValueError("the result has no flows")
    if flow is None:
        return names[0]
    if flow not in names:
        raise ValueError(f"no flow named {flow!r}; flows in this result: {', '.join(names)}")
    return flow


def _new_axes() -> "Axes":
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 4), layout="constrained")
    return fig.add_subplot()


def _flow_rows(result: "Result", table: str, flow: str) -> dict[str, np.ndarray]:
    if not result.has_trace(table):
        need = "packets" if table == "packets" else "timeseries (or packets)"
        raise MissingTraceError(
            f"the result has no '{table}' trace; rerun with --detail {need.split()[0]} "
            f"(Python: detail='{need.split()[0]}')"
        )
    cols = result.arrays(table)
    code = result.flow_names.index(flow)
    keep = cols["flow"] == code
    return {name: arr[keep] for name, arr in cols.items()}


def _code(result: "Result", column: str, name: str, default: int) -> int:
    names = result.codes.get(column)
    if names and name in names:
        return names.index(name)
    return default


def time_sequence(result: "Result", flow: str | None = None, ax: "Axes | None" = None,
                  window: tuple[float, float] | None = None) -> "Axes":
    """Draw the time-sequence graph of ``flow`` (default: the first flow), over ``window``
    (``(start_s, end_s)``; default the whole run), with the run's handovers marked.

    First transmissions are small dots, retransmissions open diamonds (pink
    when the core judged them spurious), drops of data segments black crosses
    (ACK drops are left out, and the legend says so: their numbers are not data sequence
    numbers).  The legend, below the panel, counts what is in view.  Needs a result
    run with ``detail="packets"``; raises :class:`MissingTraceError` if not.
    """
    flow = pick_flow(result, flow)
    rows = _flow_rows(result, "packets", flow)
    ax = ax if ax is not None else _new_axes()
    t, seq, ev = rows["time_s"], rows["seq"], rows["event"]
    ev_send = _code(result, "event", "send", 0)
    ev_retx = _code(result, "event", "retransmit", 1)
    ev_drop = _code(result, "event", "drop", 5)
    spurious = rows.get("spurious")
    if spurious is None:
        spurious = np.full(len(t), -1, dtype=np.int8)

    sent = ev == ev_send
    retx = ev == ev_retx
    retx_spur = retx & (spurious == 1)
    retx_ok = retx & ~retx_spur
    drop = ev == ev_drop
    if "ack_drop" not in (result.codes.get("event") or []) and "link" in rows:
        # Older traces had one "drop" event for data and ACKs; ACK numbers are not data
        # sequence numbers, so leave out drops on links that carry only ACKs.
        drop = drop & ~np.isin(rows["link"], _ack_links(result, rows, ev))

    ax.plot(t[sent], seq[sent], linestyle="none", marker=".", markersize=2.5, color=_C_SEND,
            label=f"sent ({int(sent.sum())})", rasterized=bool(sent.sum() > 20000))
    if retx_ok.any():
        ax.plot(t[retx_ok], seq[retx_ok], linestyle="none", marker="D", markersize=5,
                markerfacecolor="none", markeredgewidth=1.2, color=_C_RETX,
                label=f"retransmitted ({int(retx_ok.sum())})")
    if retx_spur.any():
        ax.plot(t[retx_spur], seq[retx_spur], linestyle="none", marker="D", markersize=5,
                markerfacecolor="none", markeredgewidth=1.2, color=_C_SPURIOUS,
                label=f"spurious retransmission ({int(retx_spur.sum())})")
    if drop.any():
        ax.plot(t[drop], seq[drop], linestyle="none", marker="x", markersize=6,
                markeredgewidth=1.4, color=_C_DROP, label=f"data segments dropped ({int(drop.sum())})")
    if result.has_trace("timeseries"):
        mark_rtos(result, flow, ax)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (segments)")
    ax.set_title(f"time-sequence graph, flow {flow}", fontsize="medium")
    ax.grid(True, alpha=0.3)
    mark_handovers(result, ax)
    if window is not None:
        ax.set_xlim(*window)
        fit_sequence_range(ax, result, flow)
    if not len(t):
        _note(ax, f"flow {flow} sent no segments")
    finish_panel(ax)
    return ax


def sequence_range(result: "Result", flow: str, lo: float, hi: float) -> tuple[float, float] | None:
    """Lowest and highest sequence number ``flow`` sent (or resent) in ``[lo, hi]`` s, if any."""
    rows = _flow_rows(result, "packets", flow)
    ev = rows["event"]
    sent = np.isin(ev, [_code(result, "event", "send", 0), _code(result, "event", "retransmit", 1)])
    sel = sent & (rows["time_s"] >= lo) & (rows["time_s"] <= hi)
    return (float(rows["seq"][sel].min()), float(rows["seq"][sel].max())) if sel.any() else None


def fit_sequence_range(ax: "Axes", result: "Result", flow: str) -> None:
    """Y-limits of a time-sequence panel from the segments sent in its x-range."""
    lo, hi = sorted(ax.get_xlim())
    span = sequence_range(result, flow, lo, hi)
    if span is not None:
        pad = max(2.0, 0.03 * (span[1] - span[0]))
        ax.set_ylim(span[0] - pad, span[1] + pad)


def finish_panel(ax: "Axes", columns: int = 2) -> None:
    """Apply the convention's last steps to a panel whose limits are set (vhsim.figstyle): legend
    counts for the view, the legend below the panel.  Call it again after changing the limits."""
    legend_below(ax, title=view_title(ax, count_in_view(ax)), columns=columns, markerscale=1.5)


def rto_times(result: "Result", flow: str | None = None) -> np.ndarray:
    """Times (s) of the retransmission timeouts of ``flow``, read from the time series.

    A timeout puts the sender in the ``loss`` state and backs its RTO off, so a timeout is a
    row that enters ``loss``, or one in ``loss`` whose RTO grew by half or more (a repeated
    timeout).  On every shipped scenario and preset this finds exactly the summary's
    ``rto_count``, except for the cross-layer ``enhanced`` schemes, whose immediate
    retransmission on a handover notification also enters ``loss`` (tests/test_plots.py).
    """
    flow = pick_flow(result, flow)
    rows = _flow_rows(result, "timeseries", flow)
    order = np.argsort(rows["time_s"], kind="stable")
    t, state, rto = rows["time_s"][order], rows["state"][order], rows["rto_s"][order]
    loss = _code(result, "state", "loss", 3)
    before_state = np.concatenate([[-1], state[:-1]])
    before_rto = np.concatenate([[np.inf], rto[:-1]])
    return t[(state == loss) & ((before_state != loss) | (rto >= 1.5 * before_rto))]


def mark_rtos(result: "Result", flow: str, ax: "Axes") -> int:
    """Red triangles on the bottom edge of ``ax`` at each timeout of ``flow``; returns how many."""
    times = rto_times(result, flow)
    if len(times):
        ax.plot(times, np.zeros(len(times)), transform=ax.get_xaxis_transform(), linestyle="none",
                marker="^", markersize=8, color=_C_RTO, clip_on=False, zorder=5,
                label=f"RTO ({len(times)})", gid=RTO_GID)
    return len(times)


def _ack_links(result: "Result", rows: dict[str, np.ndarray], ev: np.ndarray) -> np.ndarray:
    """Link codes that carry only this flow's ACKs (their drops are not data drops).

    A link direction counts as an ACK link if ACK events were seen on it, or if
    it is the opposite direction of a link that carried data, and no data
    event was seen on it.
    """
    names = result.codes.get("link") or []
    link = rows["link"]
    data_ev = [_code(result, "event", e, d) for e, d in (("send", 0), ("retransmit", 1), ("receive", 2))]
    ack_ev = [_code(result, "event", e, d) for e, d in (("ack_send", 3), ("ack_receive", 4))]
    data = set(np.unique(link[np.isin(ev, data_ev)]).tolist()) - {-1}
    acks = set(np.unique(link[np.isin(ev, ack_ev)]).tolist()) - {-1}
    flip = {"forward": "reverse", "reverse": "forward"}
    for code in data:
        if 0 <= code < len(names) and "/" in names[code]:
            base, _, direction = names[code].rpartition("/")
            other = f"{base}/{flip.get(direction, direction)}"
            if other in names:
                acks.add(names.index(other))
    return np.array(sorted(acks - data), dtype=link.dtype)


def cwnd(result: "Result", flow: str | None = None, ax: "Axes | None" = None,
         window: tuple[float, float] | None = None) -> "Axes":
    """Draw cwnd and ssthresh (in packets) of ``flow`` over ``window`` (default: the whole run);
    for an SCTP association, the cwnd of each destination (in bytes, one line per path).

    The y-axis fits cwnd (and the effective window): an ssthresh far above it (the initial
    "infinite" value, or a receive window that never binds) is left above the axis and the
    axis label says so.  Where the receive window binds (floor(cwnd) > rwnd: it stops a segment
    cwnd would allow), the effective window min(cwnd, rwnd), what the sender may have in
    flight, is drawn too (rwnd: :attr:`Result.receive_windows`).
    Needs ``detail="timeseries"`` or ``"packets"``; raises :class:`MissingTraceError` otherwise.
    """
    flow = pick_flow(result, flow)
    rows = _flow_rows(result, "timeseries", flow)
    ax = ax if ax is not None else _new_axes()
    t = rows["time_s"]
    order = np.argsort(t, kind="stable")
    t = t[order]
    lo, hi = window if window is not None else (-np.inf, np.inf)
    view = (t >= lo) & (t <= hi)
    per_path = "cwnd_bytes" in rows and np.isfinite(rows["cwnd_bytes"]).any()
    if per_path:
        paths = rows["path"][order]
        cw_all = rows["cwnd_bytes"][order]
        for p in np.unique(paths):
            sel = paths == p
            ax.step(t[sel], cw_all[sel], where="post", linewidth=1.2, label=f"cwnd path {int(p)}")
        ax.set_ylabel("bytes")
        top, clipped = top_of(cw_all[view])
    else:
        cw = rows["cwnd_pkts"][order].astype(np.float64)
        ss = rows["ssthresh_pkts"][order].astype(np.float64)
        ss = np.where(np.isfinite(ss) & (ss < _SSTHRESH_CAP_PKTS), ss, np.nan)
        rwnd = result.receive_windows.get(flow)
        # The receive window binds when it stops a segment cwnd would allow: floor(cwnd) > rwnd.
        above = np.floor(cw) > rwnd if rwnd is not None else np.zeros(len(cw), dtype=bool)
        ax.step(t, cw, where="post", color=_C_CWND, linewidth=1.2, label="cwnd")
        if (above & view).any():
            # Drawn where the receive window binds, and down to cwnd where it stops binding.
            shown = above | np.concatenate([[False], above[:-1]])
            ax.step(t, np.where(shown, np.minimum(cw, rwnd), np.nan), where="post", color=_C_EFFECTIVE,
                    linewidth=2.2, zorder=3, label=f"effective window (rwnd = {rwnd:g} binds)",
                    gid="effective")
        if np.isfinite(ss).any():
            ax.step(t, ss, where="post", color=_C_SSTHRESH, linewidth=1.2, linestyle="--", label="ssthresh")
        mark_rtos(result, flow, ax)
        ax.set_ylabel("packets")
        top, clipped = top_of(cw[view], ss[view])
        clip_note(ax, "ssthresh", clipped)
    ax.set_ylim(0, top)
    ax.set_xlabel("time (s)")
    ax.set_title(f"congestion window, flow {flow}", fontsize="medium")
    ax.grid(True, alpha=0.3)
    mark_handovers(result, ax)
    if window is not None:
        ax.set_xlim(*window)
    if not len(t):
        _note(ax, f"no samples for flow {flow}")
    finish_panel(ax)
    return ax


def _note(ax: "Axes", text: str) -> None:
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            fontsize="medium", color="#555555", wrap=True)


def mark_handovers(result: "Result", ax: "Axes", label: bool = True) -> list[str]:
    """Shade each handover of the run (from its start until traffic takes the new interface),
    and name it (e.g. ``umts→wlan (make before break)``) on a second time axis above the
    plot: outside the plotting area, where no legend can hide it, and below the title, which
    matplotlib moves up to make room.  Returns the labels."""
    handovers = result.summary.get("handovers", [])
    names = [f"{h['from']}→{h['to']} ({h['kind'].replace('_', ' ')})" for h in handovers]
    if any(line.get_gid() == HANDOVER_GID for line in ax.get_lines()):
        return names  # already marked (the panel's drawing function marks them)
    for h in handovers:
        start, done = float(h["start_s"]), float(h["done_s"])
        if done > start:
            ax.axvspan(start, done, color="0.85", zorder=0, lw=0)
        ax.axvline(start, color="0.35", ls=":", lw=1, zorder=1, gid=HANDOVER_GID)
    if label and handovers:
        top = ax.secondary_xaxis("top")
        top.set_xticks([float(h["start_s"]) for h in handovers], labels=names)
        top.tick_params(axis="x", labelsize="x-small", labelcolor="0.25", color="0.35", length=4)
        top.set_gid("handovers")
    return names


def caption(result: "Result", flow: str) -> str:
    """Caption naming scenario, flow, seed and vhsim version."""
    return (f"scenario {result.scenario_name} \u2014 flow {flow} \u2014 seed {result.seed} "
            f"\u2014 vhsim {result.version}")


def overview(
    result: "Result | Sequence[Result]",
    path: str | os.PathLike[str],
    flow: str | None = None,
    dpi: int = 130,
    titles: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Write a PNG: time-sequence graph above, cwnd/ssthresh below, for one result or for
    several side by side (one column each, same axes), with handovers, RTOs, retransmissions
    and drops marked.

    Panels whose trace is missing show a note saying which ``detail`` to use;
    if a result has neither trace :class:`MissingTraceError` is raised and nothing is
    written.  ``titles`` name the columns (default: the flow's scheme and its figures).
    Returns ``{"path": Path, "flow": str, "missing": [tables], "figure": Figure}``.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    results = [result] if not isinstance(result, (list, tuple)) else list(result)
    flow = pick_flow(results[0], flow)
    missing = sorted({t for r in results for t in ("packets", "timeseries") if not r.has_trace(t)})
    for r in results:
        if not r.has_trace("packets") and not r.has_trace("timeseries"):
            raise MissingTraceError(
                "the result has neither a 'packets' nor a 'timeseries' trace (it was run with "
                "detail=summary); rerun with --detail packets to plot it"
            )
    n = len(results)
    fig = Figure(figsize=(9 if n == 1 else 6.2 * n, 8.5), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.subplots(2, n, squeeze=False, sharex=True, height_ratios=[3, 2])
    for col, res in enumerate(results):
        ax_seq, ax_cw = grid[0][col], grid[1][col]
        try:
            time_sequence(res, flow, ax=ax_seq)
        except MissingTraceError:
            _note(ax_seq, "no packet trace in this result:\nrerun with --detail packets for the time-sequence graph")
        try:
            cwnd(res, flow, ax=ax_cw)
        except MissingTraceError:
            _note(ax_cw, "no timeseries trace in this result:\nrerun with --detail timeseries or packets")
        ax_cw.set_title(f"congestion window, flow {flow}", fontsize="medium")
        ax_seq.tick_params(labelbottom=True)
        ax_cw.tick_params(labelleft=True)
        ax_seq.tick_params(labelleft=True)
        heading = titles[col] if titles and col < len(titles) else (_column_title(res, flow) if n > 1 else None)
        ax_seq.set_title(heading or f"time-sequence graph, flow {flow}", fontsize="medium")
    for row in grid:
        same_y_range(row)
    fig.suptitle(caption(results[0], flow) if n == 1 else _compare_caption(results, flow), fontsize="medium")
    dest = Path(path)
    if dest.parent and not dest.parent.exists():
        dest.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(dest, dpi=dpi, format="png")
    return {"path": dest, "flow": flow, "missing": missing, "figure": fig}


def compare(results: "Sequence[Result]", path: str | os.PathLike[str], flow: str | None = None,
            titles: Sequence[str] | None = None, dpi: int = 130) -> dict[str, Any]:
    """:func:`overview` of several results side by side (e.g. two schemes on one scenario)."""
    return overview(list(results), path, flow=flow, dpi=dpi, titles=titles)


def same_y_range(axes: "Sequence[Axes]") -> None:
    """Give panels side by side one y-range, the union of theirs (each panel fitted its data)."""
    ranges = [ax.get_ylim() for ax in axes]
    low, high = min(lo for lo, _ in ranges), max(hi for _, hi in ranges)
    for ax in axes:
        ax.set_ylim(low, high)


def _column_title(result: "Result", flow: str) -> str:
    f = result.summary.get("flows", {}).get(flow, {})
    return (f"{f.get('scheme', '?')}: {float(f.get('goodput_kbps', 0)):.0f} kb/s, "
            f"{counted(int(f.get('rto_count', 0)), 'RTO')} ({f.get('spurious_rto_count', 0)} spurious), "
            f"{counted(int(f.get('retransmissions', 0)), 'retransmission')} "
            f"({f.get('spurious_retransmissions', 0)} spurious)")


def _compare_caption(results: "Sequence[Result]", flow: str) -> str:
    seeds = sorted({str(r.seed) for r in results})
    return (f"scenario {results[0].scenario_name} \u2014 flow {flow} \u2014 seed {', '.join(seeds)} "
            f"\u2014 vhsim {results[0].version}")
