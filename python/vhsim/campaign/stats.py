"""Statistics over a campaign's result table.

* :func:`mean_ci` -- mean with a Student-t confidence interval (limjang report means with
  95% CIs over 30 replications);
* :func:`quartiles` -- lower quartile, median, upper quartile (danielkojo plot these);
  numpy's default "linear" method (Hyndman & Fan type 7, as R's and pandas' default), with
  +inf read as a censored value;
* :func:`summarize` -- both, per configuration;
* :func:`spurious_rtos` -- counts and rates of spurious RTOs per configuration;
* :func:`paired_difference` -- mean difference between two values of one axis (two
  schemes, say) over runs that share a seed, with its t CI.  With paired seeds (the
  default) every configuration of replication k has the same seed, so the pairing removes
  the variation the runs have in common and the CI is much narrower than that of two
  independent means.

All functions take the DataFrame of :meth:`vhsim.campaign.Campaign.results`; ``by``
defaults to the campaign's axis columns (kept in ``df.attrs["axes"]``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["MeanCI", "mean_ci", "t_quantile", "quartiles", "summarize", "spurious_rtos", "paired_difference", "axis_columns"]


@dataclass(frozen=True)
class MeanCI:
    """Sample mean with a two-sided t confidence interval."""

    n: int
    mean: float
    std: float  # sample standard deviation (n - 1 in the denominator)
    half_width: float  # t_{(1+c)/2, n-1} * std / sqrt(n); NaN when n < 2
    confidence: float

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


def t_quantile(q: float, dof: float) -> float:
    """The ``q`` quantile of Student's t with ``dof`` degrees of freedom.

    ``scipy.special.stdtrit``, the function ``scipy.stats.t.ppf`` evaluates (the same numbers):
    importing :mod:`scipy.stats` costs a process ~45 MB resident, :mod:`scipy.special` ~9 MB,
    and a reproduction's parent process imports it for these quantiles only (issue #28).

    >>> round(t_quantile(0.975, 4), 4)
    2.7764
    """
    from scipy.special import stdtrit

    return float(stdtrit(dof, q))


def mean_ci(values: Sequence[float] | np.ndarray, confidence: float = 0.95) -> MeanCI:
    """Mean of ``values`` with a t-based ``confidence`` interval (NaNs are dropped).

    >>> round(mean_ci([1, 2, 3, 4, 5]).half_width, 4)   # 2.7764 * sqrt(2.5) / sqrt(5)
    1.9632
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    n = len(x)
    if n == 0:
        return MeanCI(0, math.nan, math.nan, math.nan, confidence)
    mean = float(x.mean())
    if n == 1:
        return MeanCI(1, mean, math.nan, math.nan, confidence)
    std = float(x.std(ddof=1))
    half = t_quantile((1 + confidence) / 2, n - 1) * std / math.sqrt(n)
    return MeanCI(n, mean, std, half, confidence)


def quartiles(values: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """``(lower quartile, median, upper quartile)``, linear interpolation (type 7, numpy's default).

    +inf stands for a censored value (a run known only to exceed its horizon): it ranks above
    every finite value, and a quartile that interpolates towards it is itself only known to be
    large (+inf), never a finite number made up from it.  NaNs are dropped.

    >>> quartiles([1, 2, 3, 4])
    (1.75, 2.5, 3.25)
    >>> quartiles([1, 2, 3, float("inf")])
    (1.75, 2.5, inf)
    """
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
    return (out[0], out[1], out[2])


def axis_columns(df: "pd.DataFrame", by: Sequence[str] | str | None = None) -> list[str]:
    """The grouping columns: ``by`` if given, else the campaign's axes."""
    if by is None:
        if "axes" not in df.attrs:
            raise ValueError("say which columns identify a configuration (by=[...]); "
                             "this DataFrame does not come from Campaign.results()")
        return list(df.attrs["axes"])
    if isinstance(by, str):
        by = [by]
    missing = [c for c in by if c not in df.columns]
    if missing:
        raise KeyError(f"no column {missing[0]!r}; columns: {', '.join(map(str, df.columns))}")
    return list(by)


def _groups(df: "pd.DataFrame", by: list[str]):
    """(key dict, sub-frame) in order of first appearance (= sweep order for results())."""
    if not by:
        yield {}, df
        return
    for key, sub in df.groupby(by, sort=False, dropna=False):
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(by, key)), sub


def _metric(df: "pd.DataFrame", metric: str) -> None:
    if metric not in df.columns:
        candidates = [c for c in df.columns if str(c).endswith(metric.split(".")[-1])]
        hint = f" (did you mean {', '.join(candidates[:4])}?)" if candidates else ""
        raise KeyError(f"no metric column {metric!r}{hint}")


def summarize(df: "pd.DataFrame", metric: str, by: Sequence[str] | str | None = None,
              confidence: float = 0.95) -> "pd.DataFrame":
    """Per configuration: n, mean, std, t CI (``ci_low``, ``ci_high``, ``ci_half_width``),
    ``q1``, ``median``, ``q3``, ``min``, ``max`` of ``metric``."""
    import pandas as pd

    by = axis_columns(df, by)
    _metric(df, metric)
    rows = []
    for key, sub in _groups(df, by):
        values = sub[metric].to_numpy(dtype=float)
        ci = mean_ci(values, confidence)
        q1, med, q3 = quartiles(values)
        finite = values[~np.isnan(values)]
        rows.append({**key, "n": ci.n, "mean": ci.mean, "std": ci.std, "ci_low": ci.low, "ci_high": ci.high,
                     "ci_half_width": ci.half_width, "q1": q1, "median": med, "q3": q3,
                     "min": float(finite.min()) if len(finite) else math.nan,
                     "max": float(finite.max()) if len(finite) else math.nan})
    out = pd.DataFrame(rows)
    out.attrs.update({"metric": metric, "confidence": confidence, "axes": by})
    return out


def spurious_rtos(df: "pd.DataFrame", flow: str, by: Sequence[str] | str | None = None) -> "pd.DataFrame":
    """Per configuration: RTOs and spurious RTOs of ``flow`` (sums over runs), the share of
    RTOs that were spurious, mean spurious RTOs per run, and the share of runs with at least one."""
    import pandas as pd

    by = axis_columns(df, by)
    from .metrics import RTO_COUNT, SPURIOUS_RTO_COUNT

    rto, spurious = f"{flow}.{RTO_COUNT}", f"{flow}.{SPURIOUS_RTO_COUNT}"
    _metric(df, rto)
    _metric(df, spurious)
    rows = []
    for key, sub in _groups(df, by):
        total = int(sub[rto].sum())
        spur = int(sub[spurious].sum())
        runs = len(sub)
        hit = int((sub[spurious] > 0).sum())
        rows.append({**key, "runs": runs, "rtos": total, "spurious_rtos": spur,
                     "spurious_rto_rate": spur / total if total else math.nan,
                     "spurious_rtos_per_run": spur / runs if runs else math.nan,
                     "runs_with_spurious_rto": hit,
                     "share_runs_with_spurious_rto": hit / runs if runs else math.nan})
    return pd.DataFrame(rows)


def paired_difference(df: "pd.DataFrame", metric: str, axis: str, a: Any, b: Any,
                      by: Sequence[str] | str | None = None, confidence: float = 0.95) -> "pd.DataFrame":
    """Mean of ``metric[axis == a] - metric[axis == b]`` over runs with the same seed.

    One row per group of the other axes (``by`` defaults to the campaign's axes without
    ``axis``): ``n_pairs``, ``mean_diff``, ``ci_low``, ``ci_high``, ``ci_half_width`` and
    ``excludes_zero`` (the CI lies entirely on one side of 0).
    """
    import pandas as pd

    _metric(df, metric)
    if axis not in df.columns:
        raise KeyError(f"no axis column {axis!r}")
    others = [c for c in axis_columns(df, by) if c != axis]
    for value in (a, b):
        if not (df[axis] == value).any():
            raise ValueError(f"{axis} never equals {value!r}; values: {', '.join(map(str, pd.unique(df[axis])))}")
    rows = []
    for key, sub in _groups(df, others):
        left = sub[sub[axis] == a].set_index("seed")[metric]
        right = sub[sub[axis] == b].set_index("seed")[metric]
        if not (left.index.is_unique and right.index.is_unique):
            raise ValueError(f"several runs share a seed within one group; pass by=[...] naming every axis but {axis}")
        common = left.index.intersection(right.index)
        if len(common) == 0:
            raise ValueError(
                f"no runs with {axis}={a!r} and {axis}={b!r} share a seed; the campaign was run "
                "with unpaired seeds (--no-paired-seeds), so compare the two means instead")
        diffs = left.loc[common].to_numpy(float) - right.loc[common].to_numpy(float)
        ci = mean_ci(diffs, confidence)
        rows.append({**key, "a": a, "b": b, "n_pairs": ci.n, "mean_diff": ci.mean, "ci_low": ci.low,
                     "ci_high": ci.high, "ci_half_width": ci.half_width,
                     "excludes_zero": bool(ci.low > 0 or ci.high < 0)})
    return pd.DataFrame(rows)
