"""One cell of the matrix: a scheme on an entry, one metric, set against the entry's baseline.

Runs pair up by their sample key -- the seed, and the handover instant where the entry has a
grid of instants -- so every difference is taken between two runs that saw the same random
draws and the same instant (common random numbers). The scheme's mean gets a Student-t 95%
interval over its runs, the paired difference a Student-t 95% interval over the pairs
(:func:`vhsim.campaign.stats.mean_ci`). A ``ratio`` metric reports the difference relative to
the baseline's mean over the same pairs, in percent (its interval is the difference's divided
by that mean, the baseline's mean taken as known); a ``difference`` metric reports it in the
metric's unit.

A pair in which either run has no value (an interruption that never ended within the run) is
left out and counted in ``missing``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..campaign.stats import MeanCI, mean_ci
from .spec import Entry, Metric

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["BASELINE", "BETTER", "Cell", "IDENTICAL", "NO_DIFFERENCE", "SINGLE", "WORSE", "compare", "cells"]

BASELINE, BETTER, WORSE, NO_DIFFERENCE, IDENTICAL = "baseline", "better", "worse", "no difference", "identical"
#: One pair only (``--seeds 1`` on an entry without instants): a difference, but no interval.
SINGLE = "one pair"


@dataclass(frozen=True)
class Cell:
    """A scheme against the baseline on one entry and metric (see the module docstring)."""

    entry: str
    scheme: str
    metric: str
    n: int              # runs of the scheme with a value
    mean: float
    half_width: float   # of the scheme's mean (NaN below 2 runs)
    baseline_mean: float  # over the same pairs
    n_pairs: int
    rel: float          # ratio: % of the baseline's mean; difference: in the metric's unit
    rel_low: float
    rel_high: float
    verdict: str        # BASELINE, BETTER, WORSE, NO_DIFFERENCE, IDENTICAL or SINGLE
    missing: int = 0    # pairs left out: a run without a value

    @property
    def significant(self) -> bool:
        return self.verdict in (BETTER, WORSE)


def compare(df: "pd.DataFrame", entry: Entry, metric: Metric, scheme: str) -> Cell | None:
    """``scheme`` against ``entry.baseline`` on ``metric`` over the runs of ``df`` (the entry's
    campaign results); None when the entry does not measure the metric or the scheme did not run."""
    column = entry.column(metric)
    key = entry.scheme_key
    if column is None or key not in df.columns or not (df[key] == scheme).any():
        return None
    pair_key = ["seed"] + ([entry.instants.key] if entry.instants is not None else [])
    values = df[column].astype(float) if column in df.columns else np.full(len(df), math.nan)
    table = df[pair_key].assign(_scheme=df[key].to_numpy(), _value=np.asarray(values, dtype=float))
    wide = table.set_index(pair_key + ["_scheme"])["_value"].unstack("_scheme")
    own = wide[scheme].to_numpy(float) if scheme in wide.columns else np.array([])
    base = wide[entry.baseline].to_numpy(float) if entry.baseline in wide.columns else np.full(len(own), math.nan)
    ci = _exact(mean_ci(own[np.isfinite(own)]))
    both = np.isfinite(own) & np.isfinite(base)
    a, b = own[both], base[both]
    missing = int(len(own) - both.sum())
    if scheme == entry.baseline:
        return Cell(entry.name, scheme, metric.name, ci.n, ci.mean, ci.half_width, ci.mean, len(a), 0.0, 0.0, 0.0,
                    BASELINE, missing)
    diff = _exact(mean_ci(a - b))
    low, high = (diff.low, diff.high) if not math.isnan(diff.half_width) else (diff.mean, diff.mean)
    base_mean = float(b.mean()) if len(b) else math.nan
    rel, rel_low, rel_high = diff.mean, low, high
    if metric.relative == "ratio":
        scale = 100.0 / base_mean if base_mean > 0 else math.nan
        rel, rel_low, rel_high = rel * scale, rel_low * scale, rel_high * scale
    return Cell(entry.name, scheme, metric.name, ci.n, ci.mean, ci.half_width, base_mean, len(a), rel, rel_low,
                rel_high, _verdict(a - b, low, high, metric), missing)


def _exact(ci: MeanCI) -> MeanCI:
    """Equal values summed in another order differ in their last bits: a half-width that small
    is 0 (the runs agree; a sobral instant changes no CBR figure)."""
    if ci.half_width < 1e-9 * max(1.0, abs(ci.mean)):
        return MeanCI(ci.n, ci.mean, 0.0, 0.0, ci.confidence)
    return ci


def _verdict(diffs: np.ndarray, low: float, high: float, metric: Metric) -> str:
    if len(diffs) and not diffs.any():
        return IDENTICAL
    if len(diffs) == 1:
        return SINGLE
    if len(diffs) < 2 or math.isnan(low) or math.isnan(high) or low <= 0 <= high:
        return NO_DIFFERENCE
    above = low > 0
    return BETTER if above == metric.higher_is_better else WORSE


def cells(df: "pd.DataFrame", entry: Entry, metrics, schemes) -> list[Cell]:
    """Every cell of one entry: ``metrics`` x ``schemes`` (those it measures and ran)."""
    out = []
    for metric in metrics:
        for scheme in schemes:
            cell = compare(df, entry, metric, scheme)
            if cell is not None:
                out.append(cell)
    return out
