"""Daniel & Kojo (2008) handoff study: from the result table to the paper's numbers.

Helper of :mod:`vhsim.campaign.papers.danielkojo`.  Per configuration (sender, handoff kind,
old link, new link) over its handoff instants:

* lower quartile, median and upper quartile of the time to get 100 new packets acknowledged
  after the handoff (``bulk.ho0.time_to_n_acked_s``).  A run that did not get there before its
  end is *censored*: it needed more than its horizon.  It is ranked above every completed run
  (all instants of a configuration share one horizon) and a quartile that falls on it is
  reported as ``> horizon`` (infinite here), never dropped;
* the share of instants with a spurious RTO (ground truth: ``bulk.ho0.spurious_rtos > 0``).
  It means what the paper means for make-before-break.  For break-before-make the ground truth
  also calls "spurious" an RTO whose segment had arrived while its ACK was lost in the gap (or
  held by the delayed-ACK timer), so the paper's claims are checked on make-before-break only;
* packets dropped: on the old link while it is down (break-before-make) and by the new link's
  queue (it carries data only after the handoff; these counts run to the end of the run, so
  they include the later congestion-avoidance losses).  Figures with drop-counting runs
  (``danielkojo_setup.DROPS_WINDOW_S``) also get the new link's drops in the window after the
  handoff (mean and median over the instants), the handoff's own cost.

:func:`compare` sets a sender beside regular TCP per configuration (the reductions of §6), and
:func:`run_story` reads one case-study run's traces: the sender's state when the notification
arrives and what the cross-layer algorithms did with it (A1's RTO, A2's window cut).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..axes import quantity
from . import danielkojo_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

# Columns added by annotate().
COLS = ("sender", "kind", "at_s", "old_kbps", "old_ms", "new_kbps", "new_ms", "horizon_s", "t100", "censored",
        "spurious", "link_down_drops", "new_overflow_drops", "drops_run")
CONFIG = ["sender", "kind", "old_kbps", "old_ms", "new_kbps", "new_ms"]


def _number(values: "pd.Series", scale: float) -> np.ndarray:
    return np.array([quantity(str(v)) * scale for v in values], dtype=float)


def annotate(df: "pd.DataFrame") -> "pd.DataFrame":
    """The result table with plain numeric columns for the analysis (see :data:`COLS`)."""
    out = df.copy()
    out["sender"] = df[S.SENDER].astype(str)
    out["kind"] = df[S.KIND].astype(str)
    out["at_s"] = _number(df[S.AT], 1.0)
    out["old_kbps"] = np.rint(_number(df[S.OLD_RATE], 1e-3)).astype(int)
    out["old_ms"] = np.rint(_number(df[S.OLD_DELAY], 1e3)).astype(int)
    out["new_kbps"] = np.rint(_number(df[S.NEW_RATE], 1e-3)).astype(int)
    out["new_ms"] = np.rint(_number(df[S.NEW_DELAY], 1e3)).astype(int)
    out["horizon_s"] = _number(df[S.DURATION], 1.0) - out["at_s"]
    t = df[S.TIME].astype(float) if S.TIME in df.columns else np.full(len(df), np.nan)
    out["censored"] = np.isnan(np.asarray(t, dtype=float))
    out["t100"] = np.where(out["censored"], np.inf, t)
    out["spurious"] = df[S.SPURIOUS_RTOS].fillna(0).astype(float) > 0
    out["link_down_drops"] = df.get(S.OLD_LINK_DOWN, 0)
    out["new_overflow_drops"] = df.get(S.NEW_OVERFLOWS, 0)
    out["drops_run"] = np.isclose(out["horizon_s"], S.DROPS_WINDOW_S)
    return out


def censored_quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """Type-7 quartiles (numpy's default) where censored values are +inf: a quartile that
    interpolates towards a censored value is itself only known to be large (+inf)."""
    x = np.sort(np.asarray(values, dtype=float))
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    out = []
    for p in (0.25, 0.5, 0.75):
        h = (len(x) - 1) * p
        lo, hi = int(math.floor(h)), int(math.ceil(h))
        frac = h - lo
        if math.isinf(x[hi]) and (frac > 0 or math.isinf(x[lo])):
            out.append(math.inf)
        else:
            out.append(float(x[lo] + frac * (x[hi] - x[lo])))
    return tuple(out)  # type: ignore[return-value]


def summary(df: "pd.DataFrame") -> "pd.DataFrame":
    """One row per configuration (sender, kind, old link, new link), in sweep order."""
    import pandas as pd

    a = df if "t100" in df.columns else annotate(df)
    window = {key: sub["new_overflow_drops"].astype(float) for key, sub in a[a["drops_run"]].groupby(CONFIG, sort=False)}
    rows = []
    for key, sub in a[~a["drops_run"]].groupby(CONFIG, sort=False):
        q1, med, q3 = censored_quartiles(sub["t100"])
        drops = window.get(key)
        rows.append({
            **dict(zip(CONFIG, key)),
            "instants": len(sub),
            "censored": int(sub["censored"].sum()),
            "horizon_s": float(sub["horizon_s"].min()),
            "q1": q1, "median": med, "q3": q3,
            "spurious_share": float(sub["spurious"].mean()),
            "rtos_mean": float(sub[S.RTOS].mean()) if S.RTOS in sub else math.nan,
            "spurious_retx_median": float(sub[S.SPURIOUS_RETX].median()) if S.SPURIOUS_RETX in sub else math.nan,
            "link_down_drops_median": float(np.median(sub["link_down_drops"])),
            "new_overflow_drops_median": float(np.median(sub["new_overflow_drops"])),
            "window_drops_mean": float(drops.mean()) if drops is not None else math.nan,
            "window_drops_median": float(drops.median()) if drops is not None else math.nan,
        })
    return pd.DataFrame(rows)


def reduction(base: float, other: float) -> float:
    """Relative cut of ``other`` against ``base`` (0.4 = 40% lower; negative = higher); a censored
    (infinite) base with a finite other counts as a full cut, both censored as nan."""
    if math.isinf(base):
        return math.nan if math.isinf(other) else 1.0
    if math.isinf(other):
        return -math.inf
    return 1.0 - other / base if base > 0 else math.nan


def compare(table: "pd.DataFrame", other: str, base: str = "regular") -> "pd.DataFrame":
    """Per configuration (kind, old, new) present for both senders: the two senders' quartiles,
    spurious-RTO shares and window drops side by side, and the reductions of median and q3."""
    import pandas as pd

    link = ["kind", "old_kbps", "old_ms", "new_kbps", "new_ms"]
    a = table[table["sender"] == base].set_index(link)
    b = table[table["sender"] == other].set_index(link)
    rows = []
    for key in a.index:
        if key not in b.index:
            continue
        ra, rb = a.loc[key], b.loc[key]
        rows.append({**dict(zip(link, key)),
                     "base_median": ra["median"], "other_median": rb["median"],
                     "base_q3": ra["q3"], "other_q3": rb["q3"], "base_q1": ra["q1"], "other_q1": rb["q1"],
                     "reduction": reduction(ra["median"], rb["median"]),
                     "q3_reduction": reduction(ra["q3"], rb["q3"]),
                     "base_spurious": ra["spurious_share"], "other_spurious": rb["spurious_share"],
                     "base_drops": ra["window_drops_mean"], "other_drops": rb["window_drops_mean"],
                     "other_drops_median": rb["window_drops_median"]})
    return pd.DataFrame(rows, columns=link + ["base_median", "other_median", "base_q3", "other_q3", "base_q1",
                                              "other_q1", "reduction", "q3_reduction", "base_spurious",
                                              "other_spurious", "base_drops", "other_drops", "other_drops_median"])


def select(table: "pd.DataFrame", **where: object) -> "pd.DataFrame":
    """Rows of ``table`` whose columns equal the given values."""
    mask = np.ones(len(table), dtype=bool)
    for column, value in where.items():
        mask &= (table[column] == value).to_numpy()
    return table[mask]


def seconds(value: float) -> str:
    """A transfer time for the report: '12.3 s', or '> horizon' (inf)."""
    if math.isinf(value):
        return "> horizon"
    if math.isnan(value):
        return "\u2013"
    return f"{value:.2f} s"


def link_text(kbps: int, ms: int) -> str:
    return f"{kbps}/{ms}"
