"""The claim vocabulary of paper reproductions: a statement of a paper as a line of data.

A claim names *which metric* (a :class:`Measure`: a result column and how the runs of one
configuration reduce to a number), *which configurations* (``where``: columns fixed for every
point; ``over``: the points, a product of column values), *the paper's value and words*
(``text``, ``paper``) and *the rule* (the class and its :class:`Band`).  Evaluating it on a
figure's result table gives a :class:`Verdict` with our numbers beside the paper's, rendered
the same way for every claim of every paper.

Rules: :class:`Level` (a value against the paper's), :class:`Share` (a share of runs),
:class:`Gain` (one configuration against another; :class:`Negligible` is a gain near 0),
:class:`Ordering` (which configuration is highest), :class:`Monotone`, :class:`Spread`,
:class:`Events` (the times of a run's events against the paper's), :class:`AllOf` /
:class:`AnyOf`, and :class:`Check` for what no rule says.

Categories (:data:`CATEGORIES`): a *claim* is a result of the reproduction (holds, does not
hold, or is not checkable, with the reason); a *calibration* is a parameter we chose to hit a
number of the paper, reported with that number and never as a claim that holds; a
*consistency test* checks our simulator against itself (a decision it reported against the
state it traced) or against our reading of a formula (it can pass or fail as a test, but
reproduces nothing).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import KW_ONLY, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

import numpy as np

from .stats import mean_ci, quartiles

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["ALL", "AllOf", "AnyOf", "Band", "CATEGORIES", "Check", "Claim", "Context", "Events", "Gain", "Given", "Level",
           "Measure", "Monotone", "Negligible", "NotCheckable", "Ordering", "Share", "Spread", "Verdict",
           "above", "around", "below", "each", "evaluate", "factor", "plusminus", "tally"]

CLAIM, CALIBRATION, CONSISTENCY = "claim", "calibration", "consistency test"
HOLDS, FAILS, NOT_CHECKABLE = "holds", "does not hold", "not checkable"
PASSES, TEST_FAILS, NOT_REACHED = "passes", "fails", "not reached"
#: Verdict statuses per category, in report order.
CATEGORIES = {CLAIM: (HOLDS, FAILS, NOT_CHECKABLE), CALIBRATION: (CALIBRATION,),
              CONSISTENCY: (PASSES, TEST_FAILS, NOT_REACHED)}


class NotCheckable(Exception):
    """The claim cannot be decided on these results; the message says why."""


class _All:
    def __repr__(self) -> str:
        return "ALL"


#: In ``over``: every value of the column present in the results, in order of appearance.
ALL = _All()


# -- measures and bands -----------------------------------------------------------------------------
_STATS = ("mean", "median", "q1", "q3", "share", "sum", "max", "min", "iqr/median", "q3/median", "n")


@dataclass(frozen=True)
class Measure:
    """How the runs of one configuration become one number: ``stat`` of ``column``.

    ``stat``: mean, median, q1, q3 (censored-aware: +inf is a run beyond its horizon), share
    (of runs with a value > 0), sum, max, min, iqr/median, q3/median, n.  NaN values are left
    out (a column that does not apply to a run).  ``scale`` multiplies the value (kb/s to % of a
    link, say); ``unit``, ``digits`` and ``percent`` (a fraction shown as a percentage) are for
    the report.
    """

    column: str
    stat: str = "mean"
    unit: str = ""
    digits: int = 1
    scale: float = 1.0
    name: str = ""
    percent: bool = False  # a fraction, shown as a percentage (0.97 -> "97%")

    def __post_init__(self) -> None:
        if self.stat not in _STATS:
            raise ValueError(f"Measure stat {self.stat!r} is not one of {', '.join(_STATS)}")

    def of(self, values: Sequence[float] | np.ndarray) -> float:
        x = np.asarray(values, dtype=float)
        x = x[~np.isnan(x)]
        if self.stat == "n":
            return float(len(x))
        if len(x) == 0:
            return math.nan
        if self.stat in ("median", "q1", "q3", "iqr/median", "q3/median"):
            q1, med, q3 = quartiles(x)
            if self.stat in ("iqr/median", "q3/median"):
                top = (q3 - q1) if self.stat == "iqr/median" else q3
                return top / med if med else math.nan
            return {"median": med, "q1": q1, "q3": q3}[self.stat] * self.scale
        value = {"mean": np.mean, "sum": np.sum, "max": np.max, "min": np.min,
                 "share": lambda v: np.mean(v > 0)}[self.stat](x)
        return float(value) * self.scale

    def text(self, value: float) -> str:
        if math.isnan(value):
            return "n/a"
        if math.isinf(value):
            return "> horizon" if value > 0 else "-inf"
        if self.percent:
            return f"{100 * value:.{self.digits}f}%"
        return f"{value:.{self.digits}f}{self.unit}"


@dataclass(frozen=True)
class Band:
    """The accepted values of a rule: ``lo .. hi`` (open ends excluded)."""

    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    words: str = ""  # how the rule reads the paper's words, e.g. "within a factor of 2"

    def __contains__(self, value: float) -> bool:
        if math.isnan(value):
            return False
        low = value > self.lo if self.lo_open else value >= self.lo
        high = value < self.hi if self.hi_open else value <= self.hi
        return low and high

    def text(self, fmt: Callable[[float], str]) -> str:
        gt, lt = (">" if self.lo_open else "\u2265"), ("<" if self.hi_open else "\u2264")
        if math.isinf(self.lo) and math.isinf(self.hi):
            rule = "any value"
        elif math.isinf(self.hi):
            rule = f"{gt} {fmt(self.lo)}"
        elif math.isinf(self.lo):
            rule = f"{lt} {fmt(self.hi)}"
        elif self.lo == self.hi:
            rule = f"= {fmt(self.lo)}"
        else:
            rule = f"{fmt(self.lo)} .. {fmt(self.hi)}"
        return f"{self.words}: {rule}" if self.words else rule


def factor(paper: float, f: float = 2.0) -> Band:
    """The sign of ``paper`` and within a factor ``f`` of it (limjang's "improves by P%")."""
    lo, hi = sorted((paper / f, paper * f))
    return Band(lo, hi, words=f"same sign, within a factor of {f:g} of the paper's")


def around(paper: float, rel: float = 0.25) -> Band:
    """Within ``rel`` (relative) of ``paper`` (a level the paper states as a number)."""
    lo, hi = sorted((paper * (1 - rel), paper * (1 + rel)))
    return Band(lo, hi, words=f"within \u00b1{100 * rel:.0f}% of the paper's")


def plusminus(paper: float, d: float, words: str = "") -> Band:
    return Band(paper - d, paper + d, words=words)


def above(x: float, strict: bool = True, words: str = "") -> Band:
    return Band(x, math.inf, lo_open=strict, words=words)


def below(x: float, strict: bool = True, words: str = "") -> Band:
    return Band(-math.inf, x, hi_open=strict, words=words)


@dataclass(frozen=True)
class Given:
    """A precondition on a claim's points: ``measure`` at the point plus ``where`` lies in
    ``band`` ("where regular TCP has spurious RTOs at > 85% of the instants").  Points where it
    does not are left out; a claim left with none is not checkable (``words`` says why)."""

    measure: Measure
    where: Mapping[str, Any]
    band: Band
    words: str


# -- evaluation context ----------------------------------------------------------------------------
class Context:
    """A figure's result table (one row per run) and how to name configurations in the report.

    ``names``: per column, a ``{value: name}`` mapping or a format string (``"{} ms"``).
    """

    def __init__(self, table: "pd.DataFrame", names: Mapping[str, Any] | None = None) -> None:
        self.table = table
        self.names = dict(names or {})
        self._masks: dict[tuple, np.ndarray] = {}

    def mask(self, where: Mapping[str, Any]) -> np.ndarray:
        key = tuple(sorted((k, repr(v)) for k, v in where.items()))
        if key not in self._masks:
            mask = np.ones(len(self.table), dtype=bool)
            for column, value in where.items():
                if column not in self.table.columns:
                    raise KeyError(f"no column {column!r} in the results")
                mask &= (self.table[column] == value).to_numpy()
            self._masks[key] = mask
        return self._masks[key]

    def present(self, where: Mapping[str, Any]) -> bool:
        return bool(self.mask(where).any())

    def value(self, measure: Measure, where: Mapping[str, Any]) -> float:
        rows = self.table.loc[self.mask(where), measure.column]
        return measure.of(rows.to_numpy(dtype=float))

    def values_of(self, column: str, where: Mapping[str, Any]) -> list[Any]:
        """Values of ``column`` present among the rows matching ``where``, in order of appearance."""
        return list(dict.fromkeys(self.table.loc[self.mask(where), column]))

    def name(self, column: str, value: Any) -> str:
        fmt = self.names.get(column)
        if isinstance(fmt, Mapping):
            return str(fmt.get(value, value))
        return fmt.format(value) if isinstance(fmt, str) else str(value)

    def label(self, where: Mapping[str, Any]) -> str:
        return ", ".join(self.name(k, v) for k, v in where.items())

    def paired(self, measure: Measure, a: Mapping[str, Any], b: Mapping[str, Any],
               measure_b: Measure) -> tuple[float, float, float] | None:
        """Mean of a - b over runs sharing a seed, with its 95% t CI; None unless the measure is
        a mean of one column on both sides and at least 2 seeds pair up, each once."""
        if measure.stat != "mean" or measure_b.stat != "mean" or "seed" not in self.table.columns:
            return None
        left = self.table.loc[self.mask(a)].set_index("seed")[measure.column]
        right = self.table.loc[self.mask(b)].set_index("seed")[measure_b.column]
        if not (left.index.is_unique and right.index.is_unique):
            return None
        common = left.index.intersection(right.index)
        if len(common) < 2:
            return None
        ci = mean_ci((left.loc[common].to_numpy(float) - right.loc[common].to_numpy(float)) * measure.scale)
        return ci.mean, ci.low, ci.high


# -- claims -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    holds: bool
    ours: str
    rule: str = ""


@dataclass(frozen=True)
class Claim:
    """A statement of the paper and the configurations it is about (base of every rule).

    ``text``: the paper's statement (and, where it is qualitative, how we read it);
    ``paper``: the paper's value in its own terms, for the report's "paper" column;
    ``where``: columns fixed for every point; ``over``: ``{column: values}`` whose product
    gives the points (values missing from the results, as in quick mode, are skipped;
    :data:`ALL` = every value present).
    """

    text: str
    _: KW_ONLY
    paper: str = ""
    category: str = CLAIM
    where: Mapping[str, Any] = field(default_factory=dict)
    over: Mapping[str, Any] = field(default_factory=dict)
    given: Given | None = None

    def check(self, ctx: Context) -> Outcome:  # pragma: no cover - every rule overrides it
        raise NotImplementedError

    def scoped(self, where: Mapping[str, Any], prefix: str = "") -> "Claim":
        """This claim restricted to ``where`` (e.g. one sender profile), its text prefixed."""
        return replace(self, text=prefix + self.text, where={**self.where, **where})

    def points(self, ctx: Context, without: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The product of ``over`` (columns in ``without`` left out) that is in the results."""
        axes = [(k, v) for k, v in self.over.items() if k not in without]
        values = [ctx.values_of(k, self.where) if v is ALL else list(v) for k, v in axes]
        out = []
        for combo in itertools.product(*values):
            point = {**self.where, **dict(zip((k for k, _ in axes), combo))}
            if ctx.present(point):
                out.append(point)
        if not out:
            raise NotCheckable(f"none of the claim's configurations ({self._describe(ctx)}) is in the results")
        if self.given is not None:
            g = self.given
            out = [p for p in out if ctx.present({**p, **g.where}) and ctx.value(g.measure, {**p, **g.where}) in g.band]
            if not out:
                raise NotCheckable(f"no configuration where {g.words}")
        return out

    def _describe(self, ctx: Context) -> str:
        parts = [ctx.label(self.where)] if self.where else []
        parts += [f"{k} in {', '.join(map(str, v))}" for k, v in self.over.items() if v is not ALL]
        return "; ".join(p for p in parts if p) or "all runs"

    def _varying(self, point: Mapping[str, Any], ctx: Context, skip: Sequence[str] = ()) -> str:
        """Name of a point by the columns that vary between points."""
        keys = [k for k in self.over if k not in skip]
        return ctx.label({k: point[k] for k in keys if k in point})


def _join(parts: Sequence[str]) -> str:
    return "; ".join(p for p in parts if p)


def _aggregate(values: list[float], how: str) -> float:
    """max / min / mean / median of the points' values; NaN (unknown) if any is NaN."""
    funcs = {"max": np.max, "min": np.min, "mean": np.mean, "median": np.median}
    if how not in funcs:
        raise ValueError(f"aggregate {how!r}: each, max, min, mean or median")
    return float(funcs[how](np.asarray(values, dtype=float)))


def _judge(values: list[float], band: Band, how: str, fmt: Callable[[float], str]) -> tuple[bool, str]:
    if how == "each":
        return all(v in band for v in values), ""
    agg = _aggregate(values, how)
    word = {"max": "largest", "min": "smallest", "mean": "mean", "median": "median"}[how]
    return agg in band, f"{word} {fmt(agg)}"


@dataclass(frozen=True)
class Level(Claim):
    """The measure at each point (``aggregate="each"``), or their max / min / mean / median,
    lies in ``band`` (e.g. :func:`around` the paper's number)."""

    measure: Measure | None = None
    band: Band = Band()
    aggregate: str = "each"

    def check(self, ctx: Context) -> Outcome:
        pts = self.points(ctx)
        values = [ctx.value(self.measure, p) for p in pts]
        holds, summary = _judge(values, self.band, self.aggregate, self.measure.text)
        g = self.given
        before = [f"{g.measure.text(ctx.value(g.measure, {**p, **g.where}))} \u2192 " if g else "" for p in pts]
        listing = ", ".join(f"{self._varying(p, ctx)}: {b}{self.measure.text(v)}".lstrip(": ")
                            for p, b, v in zip(pts, before, values))
        return Outcome(holds, _join([f"{self.measure.name + ' ' if self.measure.name else ''}{listing}", summary]),
                       self.band.text(self.measure.text))


@dataclass(frozen=True)
class Share(Level):
    """The share of runs whose ``column`` is > 0 (e.g. runs with a spurious RTO) in ``band``
    (shares as fractions: ``above(0.85)``)."""

    column: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "measure", Measure(self.column, "share", digits=0, percent=True))


def _gain(a: float, b: float) -> float:
    """a / b - 1, with +inf for a censored (beyond-horizon) value: a censored b against a
    finite a is a full cut (-1), both censored is unknown."""
    if math.isinf(b):
        return math.nan if math.isinf(a) else -1.0
    if math.isinf(a):
        return math.inf
    if b == 0:
        return math.inf if a > 0 else math.nan
    return a / b - 1.0


def _pct(g: float) -> str:
    if math.isnan(g):
        return "n/a"
    if math.isinf(g):
        return f"{'+' if g > 0 else '-'}inf%"
    return f"{100 * g:+.1f}%" if abs(g) < 0.1 else f"{100 * g:+.0f}%"


def _cut(g: float) -> str:
    """A reduction as a whole percentage (never "-0%")."""
    return "n/a" if math.isnan(g) else ("-inf%" if math.isinf(g) else f"{round(100 * g) + 0:.0f}%")


def _sides(side: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [side] if isinstance(side, Mapping) else list(side)


@dataclass(frozen=True)
class Gain(Claim):
    """``a`` against ``b`` at each point: g = measure(a) / measure_b(b) - 1 (with
    ``reduction``: 1 - a / b, a cut of time), judged like :class:`Level`.

    ``a`` and ``b`` are column values added to the point (one mapping, or several: every a
    against every b); ``measure_b`` compares two columns of the same runs (after vs before).
    Means over runs with paired seeds get the paired 95% CI of a - b (when at most two pairs
    are shown, so that the text stays short).
    """

    measure: Measure | None = None
    a: Any = field(default_factory=dict)
    b: Any = field(default_factory=dict)
    measure_b: Measure | None = None
    band: Band = Band()
    aggregate: str = "each"
    reduction: bool = False

    def check(self, ctx: Context) -> Outcome:
        mb = self.measure_b or self.measure
        pairs = [(a, b) for a in _sides(self.a) for b in _sides(self.b)]
        values, parts = [], []
        for point in self.points(ctx):
            for a, b in pairs:
                wa, wb = {**point, **a}, {**point, **b}
                if not (ctx.present(wa) and ctx.present(wb)):
                    continue
                va, vb = ctx.value(self.measure, wa), ctx.value(mb, wb)
                g = -_gain(va, vb) if self.reduction else _gain(va, vb)
                values.append(g)
                parts.append(self._pair_text(ctx, point, a, b, va, vb, g, len(pairs) <= 2))
        if not values:
            raise NotCheckable(f"no configuration of the claim has both sides in the results ({self._describe(ctx)})")
        fmt = _cut if self.reduction else _pct
        holds, summary = _judge(values, self.band, self.aggregate, fmt)
        what = "reduction" if self.reduction else "gain"
        head = f"{self.measure.name}: " if self.measure.name and self.measure_b is None else ""
        return Outcome(holds, head + _join(["; ".join(parts), summary]), f"{what} {self.band.text(fmt)}")

    def _pair_text(self, ctx: Context, point, a, b, va: float, vb: float, g: float, paired: bool) -> str:
        mb = self.measure_b or self.measure
        name_a = ctx.label(a) or self.measure.name or self.measure.column
        name_b = ctx.label(b) or mb.name or mb.column
        where = self._varying(point, ctx)
        g_text = f"reduction {_cut(g)}" if self.reduction else _pct(g)
        text = f"{where + ': ' if where else ''}{name_a} {self.measure.text(va)} vs {name_b} {mb.text(vb)}: {g_text}"
        ci = ctx.paired(self.measure, {**point, **a}, {**point, **b}, mb) if paired else None
        if ci is not None and not math.isnan(ci[1]):
            unit = " points" if self.measure.unit == "%" else self.measure.unit
            d = self.measure.digits
            text += f" (paired {ci[0]:+.{d}f}{unit}, 95% CI {ci[1]:+.{d}f} .. {ci[2]:+.{d}f})"
        return text


@dataclass(frozen=True)
class Negligible(Gain):
    """``a`` and ``b`` differ by at most ``tolerance`` (relative): "negligible", "similar"."""

    tolerance: float = 0.05

    def __post_init__(self) -> None:
        words = f"negligible: within \u00b1{100 * self.tolerance:.0f}%"
        object.__setattr__(self, "band", plusminus(0.0, self.tolerance, words))


@dataclass(frozen=True)
class Ordering(Claim):
    """At each point (the columns of ``over`` other than ``axis``), the values of ``axis`` in
    ``top`` rank in that order, strictly above each other and (``rest``) above every other value
    of ``axis`` present (``among``, if given, limits which); ``lowest`` ranks from the bottom."""

    measure: Measure | None = None
    axis: str = ""
    top: tuple = ()
    rest: bool = True
    among: tuple | None = None
    lowest: bool = False

    def check(self, ctx: Context) -> Outcome:
        holds, parts = True, []
        for point in self.points(ctx, without=(self.axis,)):
            present = [v for v in (self.among or ctx.values_of(self.axis, point)) if ctx.present({**point, self.axis: v})]
            vals = {v: ctx.value(self.measure, {**point, self.axis: v}) for v in present}
            if any(t not in vals for t in self.top):
                continue
            sign = -1.0 if self.lowest else 1.0
            chain = [sign * vals[t] for t in self.top]
            ok = all(x > y for x, y in zip(chain, chain[1:]))
            if self.rest:
                others = [sign * v for k, v in vals.items() if k not in self.top]
                ok &= all(chain[-1] > v for v in others)
            holds &= ok
            where = self._varying(point, ctx, skip=(self.axis,))
            listing = ", ".join(f"{ctx.name(self.axis, k)} {self.measure.text(v)}" for k, v in vals.items())
            top = max(vals, key=lambda k: sign * vals[k])
            word = "lowest" if self.lowest else "highest"
            parts.append(f"{where + ': ' if where else ''}{listing}"
                         + ("" if len(self.top) > 1 else f" ({word}: {ctx.name(self.axis, top)})"))
        if not parts:
            raise NotCheckable(f"the ranked configurations are not in the results ({self._describe(ctx)})")
        rel = " < " if self.lowest else " > "
        order = rel.join(ctx.name(self.axis, t) for t in self.top)
        return Outcome(holds, "; ".join(parts), f"{order}{rel + 'every other' if self.rest else ''}, at every point")


@dataclass(frozen=True)
class Monotone(Claim):
    """Along ``along`` (values in ``order``), the measure rises (``rising``) or falls, no step
    going against the direction by more than ``tolerance`` (relative); with ``overall`` the last
    value must also be beyond the first.  One series per point of the other ``over`` columns."""

    measure: Measure | None = None
    along: str = ""
    order: tuple = ()
    rising: bool = True
    tolerance: float = 0.0
    overall: bool = False

    def check(self, ctx: Context) -> Outcome:
        holds, parts = True, []
        for point in self.points(ctx, without=(self.along,)):
            series = [(x, ctx.value(self.measure, {**point, self.along: x})) for x in self.order
                      if ctx.present({**point, self.along: x})]
            if len(series) < 2:
                continue
            ys = [y for _, y in series]
            steps = all((b >= a * (1 - self.tolerance)) if self.rising else (b <= a * (1 + self.tolerance))
                        for a, b in zip(ys, ys[1:]))
            ends = (ys[-1] > ys[0]) if self.rising else (ys[-1] < ys[0])
            ok = steps and (ends or not self.overall)
            holds &= ok
            where = self._varying(point, ctx, skip=(self.along,))
            parts.append(f"{where + ': ' if where else ''}"
                         + ", ".join(f"{ctx.name(self.along, x)}: {self.measure.text(y)}" for x, y in series)
                         + ("" if ok else " (not " + ("rising" if self.rising else "falling") + " throughout)"))
        if not parts:
            raise NotCheckable(f"fewer than two points of a series in the results ({self._describe(ctx)})")
        rule = f"{'rising' if self.rising else 'falling'} along {self.along}"
        rule += f", each step within {100 * self.tolerance:.0f}%" if self.tolerance else ", no step back"
        return Outcome(holds, "; ".join(parts), rule + (", last beyond first" if self.overall else ""))


@dataclass(frozen=True)
class Spread(Claim):
    """The values over ``along`` stay within ``limit`` of each other: (max - min) / min."""

    measure: Measure | None = None
    along: str = ""
    limit: float = 0.25

    def check(self, ctx: Context) -> Outcome:
        holds, parts = True, []
        for point in self.points(ctx, without=(self.along,)):
            xs = [x for x in (self.over.get(self.along) or ()) if ctx.present({**point, self.along: x})]
            ys = [ctx.value(self.measure, {**point, self.along: x}) for x in xs]
            if not ys:
                continue
            spread = (max(ys) - min(ys)) / min(ys) if min(ys) > 0 else math.inf
            holds &= spread <= self.limit
            where = self._varying(point, ctx, skip=(self.along,))
            parts.append(f"{where + ': ' if where else ''}"
                         + ", ".join(f"{ctx.name(self.along, x)}: {self.measure.text(y)}" for x, y in zip(xs, ys))
                         + f" (spread {100 * spread:.0f}% of the lowest)")
        if not parts:
            raise NotCheckable(f"no series in the results ({self._describe(ctx)})")
        return Outcome(holds, "; ".join(parts), f"spread \u2264 {100 * self.limit:.0f}% of the lowest")


@dataclass(frozen=True)
class Events(Claim):
    """The times of a run's events (``times``: a column holding a sequence per run; ``flags``:
    an optional column of booleans, e.g. spurious) match the paper's ``expected`` sequence of
    ``(time, flag)``: as many events, each within ``tolerance_s``, and each flag as the paper's
    where it gives one (None: not stated).  ``where`` selects exactly one run."""

    times: str = ""
    flags: str = ""
    expected: tuple = ()
    tolerance_s: float = 0.25
    what: str = "RTOs"
    flag_word: str = "spurious"

    def check(self, ctx: Context) -> Outcome:
        (point,) = self.points(ctx)
        rows = ctx.table.loc[ctx.mask(point)]
        if len(rows) != 1:
            raise NotCheckable(f"expected one run, found {len(rows)}")
        times = [float(t) for t in rows[self.times].iloc[0]]
        flags = [bool(f) for f in rows[self.flags].iloc[0]] if self.flags else [None] * len(times)
        holds = len(times) == len(self.expected)
        for t, f, (pt, pf) in zip(times, flags, self.expected):
            holds &= abs(t - pt) <= self.tolerance_s and (pf is None or f == pf)
        ours = f"at {', '.join(f'{t:.2f}{self._flag(f)}' for t, f in zip(times, flags))} s" if times else "none"
        paper = ", ".join(f"{t:g}{self._flag(f)}" for t, f in self.expected) or "none"
        return Outcome(holds, f"{self.what} {ours} (paper: {paper} s)",
                       f"as many {self.what} as the paper, each within {self.tolerance_s:g} s"
                       + (f" and {self.flag_word} where the paper says so" if self.flags else ""))

    def _flag(self, f: bool | None) -> str:
        return "" if f is None else (f" ({self.flag_word})" if f else f" (not {self.flag_word})")


@dataclass(frozen=True)
class Check(Claim):
    """What no rule says: ``fn(ctx) -> (holds, ours)``; may raise :class:`NotCheckable`."""

    fn: Callable[[Context], tuple[bool, str]] | None = None
    rule: str = ""

    def check(self, ctx: Context) -> Outcome:
        holds, ours = self.fn(ctx)
        return Outcome(bool(holds), ours, self.rule)


@dataclass(frozen=True)
class AllOf(Claim):
    """Every part holds; parts whose configurations are not in the results are skipped (at
    least one must be there).  The parts inherit this claim's ``where`` and ``over``."""

    parts: tuple[Claim, ...] = ()

    def check(self, ctx: Context) -> Outcome:
        if self.given is not None:
            self.points(ctx)  # not checkable unless some configuration meets the precondition
        results = []
        for part in self.parts:
            part = replace(part, where={**self.where, **part.where}, over={**self.over, **part.over},
                           given=part.given or self.given)
            try:
                results.append(part.check(ctx))
            except NotCheckable:
                continue
        if not results:
            raise NotCheckable(f"none of the configurations of its {len(self.parts)} parts is in the results")
        return Outcome(self._combine([r.holds for r in results]), " \u2016 ".join(r.ours for r in results),
                       " \u2016 ".join(dict.fromkeys(r.rule for r in results if r.rule)))

    @staticmethod
    def _combine(holds: list[bool]) -> bool:
        return all(holds)


@dataclass(frozen=True)
class AnyOf(AllOf):
    """At least one part holds."""

    @staticmethod
    def _combine(holds: list[bool]) -> bool:
        return any(holds)


def each(column: str, values: Sequence[Any], claims: Sequence[Claim]) -> tuple[Claim, ...]:
    """Every claim once per value of ``column`` (text prefixed ``[value]``), value-major."""
    return tuple(c.scoped({column: v}, f"[{v}] ") for c in claims for v in values)


# -- verdicts ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verdict:
    claim: Claim
    status: str     # one of CATEGORIES[claim.category]
    ours: str       # our numbers, or why the claim could not be checked
    rule: str = ""  # what the rule accepts

    @property
    def category(self) -> str:
        return self.claim.category


def evaluate(claim: Claim, table: "pd.DataFrame", names: Mapping[str, Any] | None = None,
             ctx: Context | None = None) -> Verdict:
    """Evaluate one claim; a claim that cannot be decided gets the reason, never a verdict."""
    ctx = ctx if ctx is not None else Context(table, names)
    try:
        outcome = claim.check(ctx)
    except NotCheckable as why:
        status = NOT_REACHED if claim.category == CONSISTENCY else NOT_CHECKABLE
        return Verdict(claim, CALIBRATION if claim.category == CALIBRATION else status, str(why))
    except Exception as err:  # noqa: BLE001 - a broken check is reported, not fatal
        return Verdict(claim, NOT_CHECKABLE if claim.category == CLAIM else
                       (NOT_REACHED if claim.category == CONSISTENCY else CALIBRATION),
                       f"the check failed: {type(err).__name__}: {err}")
    if claim.category == CALIBRATION:
        met = "the chosen value meets the target" if outcome.holds else "the chosen value misses the target"
        return Verdict(claim, CALIBRATION, f"{outcome.ours} ({met})", outcome.rule)
    if claim.category == CONSISTENCY:
        return Verdict(claim, PASSES if outcome.holds else TEST_FAILS, outcome.ours, outcome.rule)
    return Verdict(claim, HOLDS if outcome.holds else FAILS, outcome.ours, outcome.rule)


def tally(verdicts: Sequence[Verdict]) -> dict[str, dict[str, int]]:
    """``{category: {status: count}}`` with every status of :data:`CATEGORIES` present."""
    out = {cat: {status: 0 for status in statuses} for cat, statuses in CATEGORIES.items()}
    for v in verdicts:
        out[v.category][v.status] += 1
    return out
