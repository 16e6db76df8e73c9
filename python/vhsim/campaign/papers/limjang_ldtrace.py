"""Figures 2-3 of Lim & Jang: LD's measured RTT Tcur and threshold around a handover.

The campaign (``limjang_setup.ld_trace_campaign``) keeps each run's timeseries trace under
``<campaign>/traces/<run id>/``; the trace has a row per sender state change with
``ld_tcur_s`` and ``ld_threshold_s`` (the right side of inequality (2); +inf while Tmin is
unknown after the handover reset).  This module reads them, plots one panel per A1 profile and
checks the two statements of §4.1.2:

* the loss differentiation is right across the handover (every LD decision against the ground
  truth of the dropped segment);
* the reset lets the statistics adapt to the new link: after the pause, Tcur is at the new
  link's RTT and the threshold is back on Tcur (within 10%) within ``SETTLE_LIMIT_S``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import TYPE_CHECKING

from ..plots import PALETTE, save_figure
from ..reproduce import Claim, markdown_table
from . import limjang_analysis as A
from . import limjang_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign

SETTLE_TOLERANCE = 0.10
SETTLE_LIMIT_S = 5.0
# Round-trip propagation + serialization of one 1040 B packet and its ACK (Table 1 links).
BASE_RTT_S = {"3G": 2 * (0.200 + 0.001) + 1040 * 8 / 1e6 + 1040 * 8 / 20e6,
              "WLAN": 2 * (0.020 + 0.001) + 1040 * 8 / 10e6 + 1040 * 8 / 20e6}


def run_dir(df: "pd.DataFrame", row: "pd.Series") -> Path:
    return Path(df.attrs["campaign"]) / "traces" / str(row["run_id"])


def load(df: "pd.DataFrame", row: "pd.Series") -> tuple["pd.DataFrame", dict]:
    """(timeseries rows of the studied flow, summary.json) of one run of the campaign."""
    import pandas as pd

    folder = run_dir(df, row)
    ts = pd.read_parquet(folder / "timeseries.parquet")
    ts = ts[ts["flow"].astype(str) == S.FLOW].reset_index(drop=True)
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    return ts, summary


def pause(summary: dict) -> tuple[float, float]:
    ho = summary["handovers"][0]
    return float(ho["start_s"]), float(ho["done_s"])


def settle_time(ts: "pd.DataFrame", done_s: float, tolerance: float = SETTLE_TOLERANCE) -> float:
    """Seconds from the end of the pause until the threshold is finite and within
    ``tolerance`` of Tcur and stays so for the next second (NaN if it never does)."""
    import numpy as np

    after = ts[ts["time_s"] >= done_s]
    t = after["time_s"].to_numpy()
    tcur = after["ld_tcur_s"].to_numpy(dtype=float)
    thr = after["ld_threshold_s"].to_numpy(dtype=float)
    ok = np.isfinite(thr) & np.isfinite(tcur) & (np.abs(thr - tcur) <= tolerance * tcur)
    for i in np.flatnonzero(ok):
        window = (t >= t[i]) & (t < t[i] + 1.0)
        if ok[window].all():
            return float(t[i] - done_s)
    return math.nan


def _runs(df: "pd.DataFrame"):
    for profile in A.profiles_in(df):
        sub = df[df[S.PROFILE].astype(str) == profile]
        if len(sub):
            yield profile, sub.iloc[0]


def plot(figure: str, camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
    import numpy as np
    from matplotlib.figure import Figure
    from matplotlib.ticker import LogLocator, NullFormatter, ScalarFormatter

    _, old, new = S.LD_TRACE[figure]
    runs = list(_runs(df))
    fig = Figure(figsize=(9, 3.2 * max(1, len(runs)) + 1), layout="constrained")
    axes = fig.subplots(max(1, len(runs)), 1, squeeze=False)[:, 0]
    for ax, (profile, row) in zip(axes, runs):
        ts, summary = load(df, row)
        start, done = pause(summary)
        lo, hi = start - 10.0, done + 20.0
        w = ts[(ts["time_s"] >= lo) & (ts["time_s"] <= hi)]
        thr = 1000 * w["ld_threshold_s"].to_numpy(dtype=float)
        thr = np.where(np.isfinite(thr), thr, np.nan)  # +inf right after the reset: not drawn
        ax.step(w["time_s"], 1000 * w["ld_tcur_s"], where="post", color=PALETTE[0], label="measured RTT Tcur")
        ax.step(w["time_s"], thr, where="post", color=PALETTE[1], linestyle="--",
                label="LD threshold: Tavg + Tdev(2(Tmin/Tcur)^k - 1)")
        ax.axvspan(start, done, color="0.85", label=f"pause ({done - start:g} s handover)")
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 4.0, 7.0)))
        ax.yaxis.set_major_formatter(ScalarFormatter())
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.set_xlim(lo, hi)
        ax.set_ylabel("ms (log scale)")
        flow = summary["flows"][S.FLOW]
        ax.set_title(f"{S.PROFILE_NAMES.get(profile, profile)}: RTOs {flow['rto_count']} "
                     f"(spurious {flow['spurious_rto_count']}), LD decisions {flow.get('ld_decisions', 0):.0f}, "
                     f"{A.confusion_text(A.ld_confusion(df, profile, 'dcr-frto-ld'))}", fontsize="small")
        ax.grid(True, alpha=0.3, which="both")
        ax.legend(fontsize="x-small", loc="upper right")
    axes[-1].set_xlabel("time (s)")
    number = 2 if figure == "fig2" else 3
    title = (f"Figure {number}: LD's measured RTT and threshold around a handover from {old} to {new} "
             f"(scheme II, no loss, no cross traffic, 3 s pause)")
    from ..plots import caption

    cap = caption(df, "timeseries trace of one run per profile")
    fig.suptitle(title + "\n" + cap, fontsize="small")
    return save_figure(fig, out / f"{figure}-ld-trace", title, cap)


def table(figure: str, df: "pd.DataFrame") -> str:
    _, old, new = S.LD_TRACE[figure]
    rows = []
    for profile, row in _runs(df):
        ts, summary = load(df, row)
        start, done = pause(summary)
        before = ts[(ts["time_s"] < start) & (ts["time_s"] >= start - 10)]["ld_tcur_s"]
        after = ts[(ts["time_s"] >= done + 5) & (ts["time_s"] < done + 15)]["ld_tcur_s"]
        flow = summary["flows"][S.FLOW]
        rows.append([profile, f"{1000 * before.mean():.0f}", f"{1000 * after.mean():.0f}",
                     f"{settle_time(ts, done):.2f}", f"{flow['rto_count']} / {flow['spurious_rto_count']}",
                     A.confusion_text(A.ld_confusion(df, profile, "dcr-frto-ld"))])
    return (f"Tcur before = mean over the 10 s before the pause (on {old}, base RTT "
            f"{1000 * BASE_RTT_S[old]:.0f} ms); after = 5-15 s after it (on {new}, base RTT "
            f"{1000 * BASE_RTT_S[new]:.0f} ms); settle = seconds from the end of the pause until the threshold is "
            f"within {100 * SETTLE_TOLERANCE:.0f}% of Tcur for at least 1 s.\n\n"
            + markdown_table(["profile", "Tcur before (ms)", "Tcur after (ms)", "settle (s)", "RTOs / spurious",
                              "LD decisions vs ground truth"], rows))


def decisions_right(df: "pd.DataFrame") -> tuple[bool, str]:
    total, right, parts = 0.0, 0.0, []
    for profile in A.profiles_in(df):
        c = A.ld_confusion(df, profile, "dcr-frto-ld")
        if c is None:
            continue
        real = c["decisions"] - c["not_lost_as_wireless"] - c["not_lost_as_congestion"]
        ok = c["wireless_as_wireless"] + c["congestion_as_congestion"] + c["link_down_as_wireless"]
        total, right = total + c["decisions"], right + ok
        parts.append(f"{profile}: {c['decisions']:.0f} decisions, {ok:.0f} right"
                     + (f" of {real:.0f} real losses" if real != c["decisions"] else ""))
    return total > 0 and right == total, "; ".join(parts) + ("" if total else " (no loss to classify)")


def adapts(figure: str) -> "Claim":
    _, old, new = S.LD_TRACE[figure]

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        holds, parts = True, []
        for profile, row in _runs(df):
            ts, summary = load(df, row)
            _, done = pause(summary)
            after = ts[(ts["time_s"] >= done + 5) & (ts["time_s"] < done + 15)]["ld_tcur_s"].mean()
            near_new = abs(after - BASE_RTT_S[new]) < abs(after - BASE_RTT_S[old])
            settle = settle_time(ts, done)
            holds &= near_new and settle <= SETTLE_LIMIT_S
            parts.append(f"{profile}: Tcur {1000 * after:.0f} ms on {new} (base {1000 * BASE_RTT_S[new]:.0f} ms), "
                         f"threshold on Tcur {settle:.2f} s after the pause")
        return holds, "; ".join(parts) + f" (holds if \u2264 {SETTLE_LIMIT_S:g} s)"

    text = (f"On the handover from {old} to {new} the modified LD is reset and adapts to the new link: Tcur moves to "
            f"the new link's RTT and the threshold follows it within a few seconds (§4.1.2, Figure "
            f"{2 if figure == 'fig2' else 3}).")
    return Claim(text, check)


def claims(figure: str) -> tuple[Claim, ...]:
    return (
        adapts(figure),
        Claim("The loss differentiation identifies the cause of every loss correctly across the handover (§4.1.2: "
              "'correctly indicates noncongestion ... and congestion'; checked against the ground truth).",
              decisions_right),
    )
