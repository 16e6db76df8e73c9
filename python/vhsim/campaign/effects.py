"""The effect of one configuration against another, with its 95% confidence interval: the
statistics behind the comparison rules of :mod:`vhsim.campaign.claims` (Gain, Negligible,
Ordering, Monotone).

:func:`effect` compares ``measure`` over the runs of side ``a`` with ``measure_b`` over the runs
of side ``b`` and returns an :class:`Effect`: both values, the difference a - b and the relative
gain a / b - 1, each with a 95% CI, the number of runs behind them and the method:

* **paired** when the runs of the two sides pair up one to one by their *sample key* (the seed,
  the figure's sample columns such as Daniel & Kojo's handoff instants, and the configuration
  columns that vary within a side, such as the speeds a pooled claim spans); otherwise
  **unpaired**;
* a **mean** gets a Student-t CI of the mean difference (paired), or Welch's CI (unpaired); the
  gain's CI is the difference's divided by mean(b), b's mean taken as known;
* any other statistic (median, quartiles, share, ...) gets a percentile **bootstrap** CI of the
  difference and of the gain: :data:`BOOTSTRAP` resamples of the pairs (or of each side), with a
  fixed random seed so that a verdict never changes between two evaluations.  Censored values
  (+inf) keep the rules of :func:`vhsim.campaign.stats.quartiles`; a bound more than 5% of whose
  resamples are undefined (inf - inf) is unknown (NaN).

**Identical replications count once.**  A configuration (the axis columns other than the
figure's sample columns and the seed) whose runs are bit-identical (same event count, same
value) has n = 1.  When every configuration of both sides has n = 1, a comparison has no
interval: in a figure declared *deterministic* (one run per configuration is the design: the
paper's own single runs) the exact values decide; otherwise the claim is not checkable, because
"the scenario has no randomness" (several identical replications) or because there is only one
run per configuration (:class:`TooFewRuns`, e.g. a quick campaign).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from .stats import mean_ci, t_quantile

__all__ = ["BOOTSTRAP", "Effect", "NoRandomness", "TooFewRuns", "effect", "ratio_gain"]

#: Bootstrap resamples, and the seed of their random generator (fixed: verdicts are reproducible).
BOOTSTRAP, BOOTSTRAP_SEED = 2000, 20231
#: Above this share of undefined resamples a bootstrap bound is unknown.
UNDEFINED_LIMIT = 0.05
#: Columns that identify a run's outcome besides the measured one: equal in two runs that are bit-identical.
RUN_SIGNATURE = ("events", "delivered_segments")


class _NotDecidable(Exception):
    """Base of the reasons below; :mod:`.claims` makes them :class:`~.claims.NotCheckable`."""


class NoRandomness(_NotDecidable):
    """Every configuration's replications are identical: n = 1, no interval."""


class TooFewRuns(_NotDecidable):
    """One run per configuration (or fewer than two on a side): no interval."""


@dataclass(frozen=True)
class Effect:
    """Side a against side b (see the module docstring)."""

    a: float            # the measure over a's runs
    b: float            # the measure over b's runs
    diff: float         # a - b
    diff_low: float
    diff_high: float
    gain: float         # a / b - 1 (censoring rules of ratio_gain)
    gain_low: float
    gain_high: float
    n: int              # pairs, or the smaller side's runs (1: exact values)
    method: str         # "paired t", "Welch t", "paired bootstrap", "bootstrap", "exact"
    identical: int = 0  # replications per configuration found identical (0: none)

    @property
    def exact(self) -> bool:
        return self.method == "exact"

    def note(self) -> str:
        """n and the method, for a verdict's text."""
        if self.exact:
            same = f"; the {self.identical} replications of each configuration are identical" if self.identical > 1 else ""
            return f"n = 1, deterministic: exact values{same}"
        return f"n = {self.n}, {self.method}"


def ratio_gain(a: Any, b: Any) -> Any:
    """a / b - 1, elementwise, with +inf a censored (beyond-horizon) value: a censored b
    against a finite a is a full cut (-1), both censored is unknown (NaN); b = 0 gives +inf
    for a > 0 and NaN otherwise."""
    if np.ndim(a) == 0 and np.ndim(b) == 0:
        a, b = float(a), float(b)
        if math.isinf(b):
            return math.nan if math.isinf(a) else -1.0
        if math.isinf(a):
            return math.inf
        if b == 0:
            return math.inf if a > 0 else math.nan
        return a / b - 1.0
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        g = a / b - 1.0
    g = np.where(np.isinf(b), np.where(np.isinf(a), np.nan, -1.0), g)
    g = np.where(np.isinf(a) & ~np.isinf(b), np.inf, g)
    g = np.where((b == 0) & ~np.isinf(a), np.where(a > 0, np.inf, np.nan), g)
    return float(g) if g.ndim == 0 else g


# -- statistics of a measure over many resamples at once ------------------------------------------------
def _quantile_rows(x: np.ndarray, p: float) -> np.ndarray:
    """Type-7 quantile of each row of the sorted 2-D ``x``, +inf censored as in stats.quartiles."""
    n = x.shape[1]
    h = (n - 1) * p
    lo, hi = int(math.floor(h)), int(math.ceil(h))
    frac = h - lo
    xl, xh = x[:, lo], x[:, hi]
    censored = np.isinf(xh) & ((frac > 0) | np.isinf(xl))
    with np.errstate(invalid="ignore"):
        value = xl + frac * (xh - xl)
    return np.where(censored, np.inf, value)


def _stat_rows(stat: str, x: np.ndarray) -> np.ndarray:
    """``stat`` (a :class:`~.claims.Measure` statistic) of every row of ``x`` (no NaNs)."""
    if stat == "mean":
        return x.mean(axis=1)
    if stat == "sum":
        return x.sum(axis=1)
    if stat == "max":
        return x.max(axis=1)
    if stat == "min":
        return x.min(axis=1)
    if stat == "share":
        return (x > 0).mean(axis=1)
    if stat == "n":
        return np.full(x.shape[0], float(x.shape[1]))
    s = np.sort(x, axis=1)
    q1, med, q3 = (_quantile_rows(s, p) for p in (0.25, 0.5, 0.75))
    if stat == "median":
        return med
    if stat == "q1":
        return q1
    if stat == "q3":
        return q3
    with np.errstate(divide="ignore", invalid="ignore"):
        top = (q3 - q1) if stat == "iqr/median" else q3
        return np.where(med != 0, top / med, np.nan)


def _interval(samples: np.ndarray) -> tuple[float, float]:
    """The 2.5% and 97.5% percentiles of ``samples``; NaN bounds when too many are undefined."""
    ok = ~np.isnan(samples)
    if ok.mean() < 1 - UNDEFINED_LIMIT:
        return math.nan, math.nan
    s = np.sort(samples[ok])  # the outer order statistics: no interpolation towards a censored (inf) value
    return float(s[int(math.floor(0.025 * (len(s) - 1)))]), float(s[int(math.ceil(0.975 * (len(s) - 1)))])


# -- sides, samples and pairs ---------------------------------------------------------------------
class _Side:
    """The runs of one side with a value: their row positions and the context's cached columns."""

    def __init__(self, ctx, where: Mapping[str, Any], measure) -> None:
        self.ctx = ctx
        rows = np.flatnonzero(ctx.mask(where))
        values = ctx.floats(measure.column)[rows]
        keep = ~np.isnan(values)
        self.rows, self.values = rows[keep], values[keep] * measure.scale

    def __len__(self) -> int:
        return len(self.rows)

    def tuples(self, columns: Sequence[str]) -> list[tuple]:
        if not columns:
            return [()] * len(self.rows)
        return list(zip(*(self.ctx.column(c)[self.rows] for c in columns)))

    def varies(self, column: str) -> bool:
        return len(set(self.ctx.column(column)[self.rows].tolist())) > 1


def _present(ctx, names: Sequence[str]) -> list[str]:
    return [c for c in dict.fromkeys(names) if c in ctx.table.columns]


def _sample_key(ctx, a: _Side, b: _Side) -> list[str]:
    """Columns that identify a run within a side: seed, the figure's sample columns, and the
    axis columns that vary within either side (a pooled claim's x values)."""
    key = _present(ctx, ("seed", *ctx.samples))
    return key + [c for c in _present(ctx, ctx.axes) if c not in key and (a.varies(c) or b.varies(c))]


def _configuration(ctx, with_samples: bool) -> list[str]:
    names = (*ctx.axes, *ctx.samples) if with_samples else [c for c in ctx.axes if c not in ctx.samples]
    return [c for c in _present(ctx, names) if c != "seed"]


def _identical_replications(ctx, side: _Side) -> int:
    """How many replications (runs differing only by seed) each configuration of ``side`` has
    if all of them are identical in every configuration (a bit-identical run: same events and
    value); 0 if any configuration has runs that differ, or only one run."""
    signature = _present(ctx, RUN_SIGNATURE)
    runs: dict[tuple, int] = {}
    outcomes: dict[tuple, tuple] = {}
    for key, outcome, value in zip(side.tuples(_configuration(ctx, True)), side.tuples(signature), side.values):
        runs[key] = runs.get(key, 0) + 1
        if outcomes.setdefault(key, (outcome, value)) != (outcome, value):
            return 0
    most = max(runs.values(), default=0)
    return most if most > 1 else 0


def _one_per_configuration(ctx, side: _Side) -> bool:
    """Every configuration (axis columns but the figure's sample columns) has a single run."""
    keys = side.tuples(_configuration(ctx, False))
    return len(set(keys)) == len(keys)


def effect(ctx, measure, a: Mapping[str, Any], b: Mapping[str, Any], measure_b=None) -> Effect:
    """``measure`` over the runs of ``a`` against ``measure_b`` (default ``measure``) over the runs
    of ``b``; ``ctx`` is a :class:`~.claims.Context`.  Raises :class:`NoRandomness` or
    :class:`TooFewRuns` when there is no interval and the figure is not deterministic."""
    mb = measure_b or measure
    side_a, side_b = _Side(ctx, a, measure), _Side(ctx, b, mb)
    if not len(side_a) or not len(side_b):
        raise TooFewRuns("no run with a value on one side")
    va, vb = side_a.values, side_b.values
    if measure_b is not None and dict(a) == dict(b):  # two columns of the same runs: paired by row
        return _paired(measure.stat, va, vb) if len(va) == len(vb) else _unpaired(measure.stat, va, vb, mb.stat)
    same_a, same_b = _identical_replications(ctx, side_a), _identical_replications(ctx, side_b)
    if (same_a or _one_per_configuration(ctx, side_a)) and (same_b or _one_per_configuration(ctx, side_b)):
        # No configuration of either side varies: no interval.
        return _exact_or_refuse(ctx, measure, mb, side_a, side_b, max(same_a, same_b))
    key = _sample_key(ctx, side_a, side_b)
    if key:
        ka, kb = side_a.tuples(key), side_b.tuples(key)
        if len(set(ka)) == len(ka) and len(set(kb)) == len(kb):
            pos_b = {k: i for i, k in enumerate(kb)}
            ia = [i for i, k in enumerate(ka) if k in pos_b]
            if len(ia) >= 2:
                return _paired(measure.stat, va[ia], vb[[pos_b[ka[i]] for i in ia]])
    return _unpaired(measure.stat, va, vb, mb.stat)


def _exact_or_refuse(ctx, measure, mb, side_a: _Side, side_b: _Side, identical: int) -> Effect:
    if not ctx.deterministic:
        if identical > 1:
            raise NoRandomness(f"the scenario has no randomness: the {identical} replications of each configuration "
                               "are identical (n = 1)")
        raise TooFewRuns("one run per configuration (n = 1): a comparison needs replications")

    def once(side: _Side) -> np.ndarray:  # one run per configuration
        first = dict(zip(side.tuples(_configuration(ctx, False)), side.values))
        return np.fromiter(first.values(), dtype=float)

    xa, xb = float(_stat_rows(measure.stat, once(side_a)[None, :])[0]), float(_stat_rows(mb.stat, once(side_b)[None, :])[0])
    g = ratio_gain(xa, xb)
    d = xa - xb if not (math.isinf(xa) and math.isinf(xb)) else math.nan
    return Effect(xa, xb, d, d, d, g, g, g, 1, "exact", identical)


def _paired(stat: str, va: np.ndarray, vb: np.ndarray) -> Effect:
    xa, xb = float(_stat_rows(stat, va[None, :])[0]), float(_stat_rows(stat, vb[None, :])[0])
    g = ratio_gain(xa, xb)
    n = len(va)
    if stat == "mean" and np.isfinite(va).all() and np.isfinite(vb).all():
        ci = mean_ci(va - vb)
        low, high = (ci.low, ci.high) if not math.isnan(ci.half_width) else (ci.mean, ci.mean)
        glow, ghigh = (low / xb, high / xb) if xb > 0 else (math.nan, math.nan)
        return Effect(xa, xb, xa - xb, low, high, g, glow, ghigh, n, "paired t")
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    idx = rng.integers(0, n, size=(BOOTSTRAP, n))
    sa, sb = _stat_rows(stat, va[idx]), _stat_rows(stat, vb[idx])
    return _from_bootstrap(xa, xb, sa, sb, n, "paired bootstrap")


def _unpaired(stat: str, va: np.ndarray, vb: np.ndarray, stat_b: str | None = None) -> Effect:
    stat_b = stat_b or stat
    xa, xb = float(_stat_rows(stat, va[None, :])[0]), float(_stat_rows(stat_b, vb[None, :])[0])
    g = ratio_gain(xa, xb)
    n = min(len(va), len(vb))
    if n < 2:
        raise TooFewRuns(f"{n} run on a side: a comparison needs replications")
    if stat == "mean" and stat_b == "mean" and np.isfinite(va).all() and np.isfinite(vb).all():
        low, high = _welch(va, vb)
        glow, ghigh = (low / xb, high / xb) if xb > 0 else (math.nan, math.nan)
        return Effect(xa, xb, xa - xb, low, high, g, glow, ghigh, n, "Welch t")
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    sa = _stat_rows(stat, va[rng.integers(0, len(va), size=(BOOTSTRAP, len(va)))])
    sb = _stat_rows(stat_b, vb[rng.integers(0, len(vb), size=(BOOTSTRAP, len(vb)))])
    return _from_bootstrap(xa, xb, sa, sb, n, "bootstrap")


def _from_bootstrap(xa: float, xb: float, sa: np.ndarray, sb: np.ndarray, n: int, method: str) -> Effect:
    with np.errstate(invalid="ignore"):
        diffs = np.where(np.isinf(sa) & np.isinf(sb) & (np.sign(sa) == np.sign(sb)), np.nan, sa - sb)
    low, high = _interval(diffs)
    glow, ghigh = _interval(ratio_gain(sa, sb))
    d = xa - xb if not (math.isinf(xa) and math.isinf(xb)) else math.nan
    return Effect(xa, xb, d, low, high, ratio_gain(xa, xb), glow, ghigh, n, method)


def _welch(va: np.ndarray, vb: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """Welch's CI of mean(a) - mean(b) (unequal variances, Welch-Satterthwaite degrees of freedom)."""
    na, nb = len(va), len(vb)
    sa2, sb2 = va.var(ddof=1) / na, vb.var(ddof=1) / nb
    d = float(va.mean() - vb.mean())
    se = math.sqrt(sa2 + sb2)
    if se == 0:
        return d, d
    dof = (sa2 + sb2) ** 2 / (sa2 ** 2 / (na - 1) + sb2 ** 2 / (nb - 1))
    half = t_quantile((1 + confidence) / 2, dof) * se
    return d - half, d + half
