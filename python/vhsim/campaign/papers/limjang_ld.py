"""Lim & Jang Figures 2-3 (§4.1.2): LD's measured RTT Tcur and its threshold around a handover.

One run of scheme II per A1 profile on the LD-trace scenarios (``scenarios/limjang/ld-trace-*``),
with the timeseries trace, whose rows carry ``ld_tcur_s`` and ``ld_threshold_s`` (the right side
of inequality (2); +inf while Tmin is unknown after the handover reset).  :func:`derive` turns
each run's trace into columns (Tcur before / after the pause, the time until the threshold is
back on Tcur) and its LD decisions into right / wrong against the ground truth; the claims read
those.  Also the LD confusion sums of any table (:func:`confusion_text`).
"""

from __future__ import annotations

import math
from functools import partial
from typing import TYPE_CHECKING, Mapping

import numpy as np

from .. import metrics as M
from ..claims import ALL, AllOf, Band, Level, Measure, above, below
from ..figures import Col, FigureSpec, Grid, Table, axis
from ..plots import PALETTE, caption, legend_below, save_figure

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

FLOW = "tcp"
SETTLE_TOLERANCE, SETTLE_LIMIT_S = 0.10, 5.0  # ours: the paper gives no bound
QUICK_LD = {"duration": "60s", "timeline[0].at": "40s", "metrics.handover_window": "10s"}
LINKS = {"fig2": ("3G", "WLAN"), "fig3": ("WLAN", "3G")}
FILES = {"fig2": "limjang/ld-trace-3g-to-wlan.toml", "fig3": "limjang/ld-trace-wlan-to-3g.toml"}
# Round-trip propagation + serialization of one 1040 B packet and its ACK (Table 1 links).
BASE_RTT_S = {"3G": 2 * (0.200 + 0.001) + 1040 * 8 / 1e6 + 1040 * 8 / 20e6,
              "WLAN": 2 * (0.020 + 0.001) + 1040 * 8 / 10e6 + 1040 * 8 / 20e6}
RIGHT = (("wireless", "wireless"), ("congestion", "congestion"), ("link_down", "wireless"))


def confusion(rows: "pd.DataFrame") -> dict[str, float] | None:
    """LD decisions against the ground truth summed over ``rows``; None without LD."""
    col = M.flow(FLOW, M.LD_DECISIONS)
    if col not in rows or rows[col].isna().all():
        return None
    out = {"decisions": float(rows[col].sum())}
    for truth in M.LD_TRUTHS:
        for verdict in M.LD_VERDICTS:
            c = M.ld(FLOW, truth, verdict)
            out[f"{truth}_as_{verdict}"] = float(rows[c].sum()) if c in rows else 0.0
    real = sum(out[f"{t}_as_{v}"] for t in ("wireless", "congestion", "link_down") for v in M.LD_VERDICTS)
    out["right"] = sum(out[f"{t}_as_{v}"] for t, v in RIGHT)
    out["accuracy"] = out["right"] / real if real else math.nan
    return out


def confusion_text(rows: "pd.DataFrame") -> str:
    c = confusion(rows)
    if c is None:
        return "\u2013"
    if not c["decisions"]:
        return "no decisions"
    parts = [f"W\u2192W {c['wireless_as_wireless']:.0f}", f"W\u2192C {c['wireless_as_congestion']:.0f}",
             f"C\u2192C {c['congestion_as_congestion']:.0f}", f"C\u2192W {c['congestion_as_wireless']:.0f}"]
    if c["not_lost_as_wireless"] or c["not_lost_as_congestion"]:
        parts.append(f"none\u2192W {c['not_lost_as_wireless']:.0f}, none\u2192C {c['not_lost_as_congestion']:.0f}")
    return ", ".join(parts) + ("" if math.isnan(c["accuracy"]) else f"; {100 * c['accuracy']:.0f}% right")


def _trace(camp, row) -> tuple["pd.DataFrame", float, float]:
    result = camp.trace_for(row)
    ts = result.trace("timeseries")
    ho = result.summary["handovers"][0]
    return ts[ts[M.FLOW] == FLOW].reset_index(drop=True), float(ho["start_s"]), float(ho["done_s"])


def settle_time(ts: "pd.DataFrame", done_s: float, tolerance: float = SETTLE_TOLERANCE) -> float:
    """Seconds from the end of the pause until the threshold is finite and within ``tolerance``
    of Tcur and stays so for the next second (NaN if it never does)."""
    after = ts[ts[M.TIME] >= done_s]
    t = after[M.TIME].to_numpy()
    tcur, thr = after[M.LD_TCUR].to_numpy(float), after[M.LD_THRESHOLD].to_numpy(float)
    ok = np.isfinite(thr) & np.isfinite(tcur) & (np.abs(thr - tcur) <= tolerance * tcur)
    for i in np.flatnonzero(ok):
        if ok[(t >= t[i]) & (t < t[i] + 1.0)].all():
            return float(t[i] - done_s)
    return math.nan


def derive(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    out = df.copy()
    for column in ("tcur_before_s", "tcur_after_s", "settle_s", "ld_decisions", "ld_wrong"):
        out[column] = math.nan
    for i, row in df.iterrows():
        ts, start, done = _trace(camp, row)
        tcur = ts[M.LD_TCUR]
        out.at[i, "tcur_before_s"] = tcur[(ts[M.TIME] < start) & (ts[M.TIME] >= start - 10)].mean()
        out.at[i, "tcur_after_s"] = tcur[(ts[M.TIME] >= done + 5) & (ts[M.TIME] < done + 15)].mean()
        out.at[i, "settle_s"] = settle_time(ts, done)
        c = confusion(df.loc[[i]]) or {"decisions": 0.0, "right": 0.0, "not_lost_as_wireless": 0.0,
                                        "not_lost_as_congestion": 0.0}
        out.at[i, "ld_decisions"] = c["decisions"]
        out.at[i, "ld_wrong"] = c["decisions"] - c["right"]
    return out


def claims(fig: str, profile: str):
    old, new = LINKS[fig]
    # Tcur nearer the new link's base RTT than the old link's: on the new link's side of their midpoint.
    mid_ms, words = 1e3 * (BASE_RTT_S[old] + BASE_RTT_S[new]) / 2, f"nearer {new}'s base RTT than {old}'s"
    near_new = below(mid_ms, words=words) if BASE_RTT_S[new] < BASE_RTT_S[old] else above(mid_ms, words=words)
    tcur = Measure("tcur_after_s", unit=" ms", digits=0, scale=1e3,
                   name=f"Tcur 5-15 s after the pause ({new} base RTT {1e3 * BASE_RTT_S[new]:.0f} ms):")
    settle = Measure("settle_s", unit=" s", digits=2, name="seconds until the threshold is back on Tcur:")
    return (
        AllOf(f"On the handover from {old} to {new} the modified LD is reset and adapts to the new link: Tcur "
              f"moves to the new link's RTT and the threshold follows it within a few seconds (§4.1.2, Figure "
              f"{fig[3:]}; 'a few seconds' taken as {SETTLE_LIMIT_S:g} s).", paper="figure", over={profile: ALL},
              parts=(Level("", measure=tcur, band=near_new), Level("", measure=settle, band=Band(0, SETTLE_LIMIT_S)))),
        AllOf(f"The loss differentiation identifies the cause of every loss correctly across the handover from {old} "
              f"to {new} (§4.1.2: 'correctly indicates noncongestion ... and congestion'; checked against the ground "
              "truth).",
              paper="every decision right", parts=(
                  Level("", measure=Measure("ld_decisions", "sum", digits=0, name="LD decisions"), band=above(0)),
                  Level("", measure=Measure("ld_wrong", "sum", digits=0, name="wrong"), band=Band(0, 0)))),
    )


def plot(camp, table: "pd.DataFrame", out, fig, profile: str = "") -> list:
    from matplotlib.figure import Figure
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    figure = Figure(figsize=(9, 3.2 * max(1, len(table)) + 1), layout="constrained")
    axes = figure.subplots(max(1, len(table)), 1, squeeze=False)[:, 0]
    for ax, (_, row) in zip(axes, table.iterrows()):
        ts, start, done = _trace(camp, row)
        w = ts[(ts[M.TIME] >= start - 10.0) & (ts[M.TIME] <= done + 20.0)]
        thr = 1000 * w[M.LD_THRESHOLD].to_numpy(float)
        ax.step(w[M.TIME], 1000 * w[M.LD_TCUR], where="post", color=PALETTE[0], label="measured RTT Tcur")
        ax.step(w[M.TIME], np.where(np.isfinite(thr), thr, np.nan), where="post", color=PALETTE[1], linestyle="--",
                label="LD threshold: Tavg + Tdev(2(Tmin/Tcur)^k - 1)")
        ax.axvspan(start, done, color="0.85", label=f"pause ({done - start:g} s handover)")
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 4.0, 7.0)))
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlim(start - 10.0, done + 20.0)
        ax.set_ylabel("ms (log scale)")
        ax.set_title(f"{row[profile]}: RTOs {row[M.flow(FLOW, M.RTO_COUNT)]} (spurious "
                     f"{row[M.flow(FLOW, M.SPURIOUS_RTO_COUNT)]}), {confusion_text(table.loc[[row.name]])}",
                     fontsize="small")
        ax.grid(True, alpha=0.3, which="both")
        legend_below(ax)
    axes[-1].set_xlabel("time (s)")
    cap = caption(table, "n = 1 run per profile (timeseries trace)")
    figure.suptitle(fig.title + "\n" + cap, fontsize="small")
    return save_figure(figure, out / f"{fig.id}-ld-trace", fig.title, cap)


def figure(fig: str, profile: str, profiles: Mapping[str, str]) -> FigureSpec:
    old, new = LINKS[fig]
    grid = Grid(FILES[fig], (axis(profile, profiles),), detail="timeseries")
    table = Table((profile,), (
        Col(f"Tcur before (ms; base RTT {1e3 * BASE_RTT_S[old]:.0f})", Measure("tcur_before_s", digits=0, scale=1e3)),
        Col(f"Tcur after (ms; base RTT {1e3 * BASE_RTT_S[new]:.0f})", Measure("tcur_after_s", digits=0, scale=1e3)),
        Col("settle (s)", Measure("settle_s", digits=2)),
        Col("RTOs / spurious", fn=lambda r: f"{r[M.flow(FLOW, M.RTO_COUNT)].sum():.0f} / "
                                            f"{r[M.flow(FLOW, M.SPURIOUS_RTO_COUNT)].sum():.0f}"),
        Col("LD decisions vs ground truth", fn=confusion_text)),
        f"Tcur before = mean over the 10 s before the pause (on {old}); after = 5-15 s after it (on {new}); settle "
        f"= seconds from the end of the pause until the threshold is within {100 * SETTLE_TOLERANCE:.0f}% of Tcur "
        "for at least 1 s.", headers=("profile",))
    return FigureSpec(fig, f"Figure {fig[3:]}: loss differentiation on a vertical handover from {old} to {new} (Tcur "
                      "and threshold; scheme II, no loss, no cross traffic, 3 s pause)", grid, grid.but(QUICK_LD),
                      plot=partial(plot, profile=profile), claims=claims(fig, profile), table=table, derive=derive)
