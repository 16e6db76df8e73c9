"""The claim vocabulary of paper reproductions: a statement of a paper as a line of data.

A claim names *which metric* (a :class:`Measure`: a result column and how the runs of one
configuration reduce to a number), *which configurations* (``where``: columns fixed for every
point; ``over``: the points, a product of column values), *the paper's value and words*
(``text``, ``paper``) and *the rule* (the class and its :class:`Band`).  Evaluating it on a
figure's result table gives a :class:`Verdict` with our numbers beside the paper's, rendered
the same way for every claim of every paper.

Rules: :class:`Level` (a value against the paper's), :class:`Share` (a share of runs),
:class:`Gain` (one configuration against another; :class:`Negligible` is a gain near 0),
:class:`Ordering` (which configuration is highest), :class:`Monotone`, :class:`Spread` (the
comparison rules: :mod:`.comparisons`, their statistics: :mod:`.effects`), :class:`Events` (the
times of a run's events against the paper's), :class:`AllOf` / :class:`AnyOf`, and
:class:`Check` for what no rule says.

Three guards come before any rule: a claim about a mechanism names the counters that show it
acted (:class:`Engagement`; never engaged: not checkable), a measure may declare the bound its
metric lives under (:class:`Bound`, e.g. a link's capacity; a gain the bound forbids: not
checkable as set up), and a comparison needs runs that differ (identical replications count
once; :mod:`.effects`).

Categories (:data:`CATEGORIES`): a *claim* is a result of the reproduction (holds, does not
hold, or is not checkable, with the reason; *not checked in quick mode* when only the reduced
campaign of ``--quick`` left it undecided); a *calibration* is a parameter we chose to hit a
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

from .stats import quartiles
from ..wording import counted

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["ALL", "AllOf", "AnyOf", "Band", "Bound", "CATEGORIES", "Check", "Claim", "Context", "Engagement", "Events",
           "Gain", "Given", "Level", "Measure", "Monotone", "Negligible", "NotCheckable", "NotInResults",
           "NeedsReplications", "Ordering", "Share", "Spread", "Verdict", "above", "around", "below", "each",
           "evaluate", "factor", "plusminus", "tally"]

CLAIM, CALIBRATION, CONSISTENCY = "claim", "calibration", "consistency test"
HOLDS, FAILS, NOT_CHECKABLE = "holds", "does not hold", "not checkable"
NOT_IN_QUICK = "not checked in quick mode"
PASSES, TEST_FAILS, NOT_REACHED = "passes", "fails", "not reached"
#: Verdict statuses per category, in report order.
CATEGORIES = {CLAIM: (HOLDS, FAILS, NOT_CHECKABLE, NOT_IN_QUICK), CALIBRATION: (CALIBRATION,),
              CONSISTENCY: (PASSES, TEST_FAILS, NOT_REACHED)}


class NotCheckable(Exception):
    """The claim cannot be decided on these results; the message says why."""


class NotInResults(NotCheckable):
    """The claim's configurations are not in the results (in quick mode: the reduced grid dropped them)."""

    needs = "the configurations of the full grid"


class NeedsReplications(NotCheckable):
    """A comparison found one run per configuration, or (quick mode) its 95% CI over the reduced
    campaign's few replications cannot show an effect whose value meets the claim: it needs
    replications (``needs`` says how many, when known)."""

    needs = "replications"

    def __init__(self, message: str = "", needs: str | None = None) -> None:
        super().__init__(message)
        if needs:
            self.needs = needs


class _All:
    def __repr__(self) -> str:
        return "ALL"


#: In ``over``: every value of the column present in the results, in order of appearance.
ALL = _All()


# -- measures and bands -----------------------------------------------------------------------------
_STATS = ("mean", "median", "q1", "q3", "share", "sum", "max", "min", "iqr/median", "q3/median", "n")


@dataclass(frozen=True)
class Bound:
    """The bound a metric lives under (its *ceiling*): a number in the measure's units (after
    its ``scale``), or a result column holding it per run (in the column's own units: e.g. the
    capacity of the link over the measured window of that run), and what it is, for the report."""

    value: float | str
    words: str

    def of(self, measure: "Measure", rows: "pd.DataFrame") -> float:
        """The bound for ``rows`` as ``measure`` reduces them (the mean capacity for a mean)."""
        if isinstance(self.value, str):
            return replace(measure, column=self.value, ceiling=None).of(rows[self.value].to_numpy(dtype=float))
        return float(self.value)


@dataclass(frozen=True)
class Measure:
    """How the runs of one configuration become one number: ``stat`` of ``column``.

    ``stat``: mean, median, q1, q3 (censored-aware: +inf is a run beyond its horizon), share
    (of runs with a value > 0), sum, max, min, iqr/median, q3/median, n.  NaN values are left
    out (a column that does not apply to a run).  ``scale`` multiplies the value (kb/s to % of a
    link, say); ``unit``, ``digits`` and ``percent`` (a fraction shown as a percentage) are for
    the report.  ``ceiling`` (a :class:`Bound`) and ``floor`` (default 0: a time, a rate or a
    count cannot go below it) bound the values a configuration can reach: a gain the bounds
    forbid makes a claim not checkable as set up.
    """

    column: str
    stat: str = "mean"
    unit: str = ""
    digits: int = 1
    scale: float = 1.0
    name: str = ""
    percent: bool = False  # a fraction, shown as a percentage (0.97 -> "97%")
    ceiling: Bound | None = None
    floor: float = 0.0

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
    ``samples``: axis columns whose values are statistical samples like the seed (Daniel &
    Kojo's handoff instants), not configurations; ``deterministic``: one run per configuration
    is the figure's design (no randomness), so comparisons use exact values; ``quick``: the
    table comes from the reduced campaign of ``--quick``; ``full_replications``: the full
    campaign's replications when the quick one has fewer (0 otherwise), so that a comparison
    whose interval only the few replications leave open is *not checked in quick mode*, not
    "does not hold".  ``axes`` (the configuration columns) come from the table (``attrs["axes"]``
    of :meth:`vhsim.campaign.Campaign.results`).
    """

    def __init__(self, table: "pd.DataFrame", names: Mapping[str, Any] | None = None, *, quick: bool = False,
                 samples: Sequence[str] = (), deterministic: bool = False, full_replications: int = 0) -> None:
        self.table = table
        self.names = dict(names or {})
        self.quick = quick
        self.full_replications = full_replications if quick else 0
        self.samples = tuple(samples)
        self.deterministic = deterministic
        self.axes = tuple(table.attrs.get("axes", ()))
        self._masks: dict[tuple, np.ndarray] = {}
        self._columns: dict[str, np.ndarray] = {}

    def column(self, name: str) -> np.ndarray:
        """The values of one column as an array (cached: comparisons read them many times)."""
        if name not in self._columns:
            self._columns[name] = self.table[name].to_numpy()
        return self._columns[name]

    def floats(self, name: str) -> np.ndarray:
        """One column as floats, missing values NaN (cached)."""
        key = "\x00float:" + name
        if key not in self._columns:
            self._columns[key] = self.table[name].to_numpy(dtype=float, na_value=np.nan)
        return self._columns[key]

    def mask(self, where: Mapping[str, Any]) -> np.ndarray:
        key = tuple(sorted((k, repr(v)) for k, v in where.items()))
        if key not in self._masks:
            mask = np.ones(len(self.table), dtype=bool)
            for column, value in where.items():
                if column not in self.table.columns:
                    raise KeyError(f"no column {column!r} in the results")
                mask &= np.asarray(self.column(column) == value, dtype=bool)
            self._masks[key] = mask
        return self._masks[key]

    def present(self, where: Mapping[str, Any]) -> bool:
        return bool(self.mask(where).any())

    def value(self, measure: Measure, where: Mapping[str, Any]) -> float:
        return measure.of(self.floats(measure.column)[self.mask(where)])

    def values_of(self, column: str, where: Mapping[str, Any]) -> list[Any]:
        """Values of ``column`` present among the rows matching ``where``, in order of appearance."""
        return list(dict.fromkeys(self.column(column)[self.mask(where)].tolist()))

    def name(self, column: str, value: Any) -> str:
        fmt = self.names.get(column)
        if isinstance(fmt, Mapping):
            return str(fmt.get(value, value))
        return fmt.format(value) if isinstance(fmt, str) else str(value)

    def label(self, where: Mapping[str, Any]) -> str:
        return ", ".join(self.name(k, v) for k, v in where.items())


@dataclass(frozen=True)
class Engagement:
    """The counters that show a mechanism acted (``columns``, summed per run; e.g.
    ``bulk.engagement.wave_decisions``), counted over the runs of the claim's configurations
    (restricted to ``where``, e.g. the side that has the mechanism).  A claim about a mechanism
    that never acted tests nothing: it is not checkable ("<mechanism> never engaged"), never
    "does not hold".  A counter that is absent (or NaN) in every run means the mechanism is not
    in those runs' schemes."""

    mechanism: str
    columns: tuple[str, ...]
    where: Mapping[str, Any] = field(default_factory=dict)

    def check(self, ctx: Context, points: Sequence[Mapping[str, Any]]) -> str:
        """How many runs engaged (for the verdict's text); raises :class:`NotCheckable` if none."""
        mask = np.zeros(len(ctx.table), dtype=bool)
        for point in points:
            where = {**point, **self.where}
            if all(k in ctx.table.columns for k in where):
                mask |= ctx.mask(where)
        present = [c for c in self.columns if c in ctx.table.columns]
        counts = ctx.table.loc[mask, present].to_numpy(dtype=float) if present else np.empty((0, 0))
        known = ~np.isnan(counts).all(axis=1) if counts.size else np.zeros(int(mask.sum()), dtype=bool)
        if not known.any():
            raise NotCheckable(f"{self.mechanism} is not in the scheme of the claim's runs (no "
                               f"{' / '.join(self.columns)} counter)")
        engaged = int((np.nansum(counts[known], axis=1) > 0).sum())
        if not engaged:
            raise NotCheckable(f"{self.mechanism} never engaged ({' + '.join(present)} = 0 in "
                               f"{'all ' if known.sum() > 1 else ''}{counted(int(known.sum()), 'run')} the claim is "
                               "about)")
        return f"{self.mechanism} engaged in {engaged} of {counted(int(known.sum()), 'run')}"


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
    engages: tuple[Engagement, ...] = ()

    def check(self, ctx: Context) -> Outcome:  # pragma: no cover - every rule overrides it
        raise NotImplementedError

    def judge(self, ctx: Context) -> Outcome:
        """:meth:`check`, after making sure the mechanisms the claim is about acted
        (:class:`Engagement`); their counts join our numbers."""
        notes = [e.check(ctx, self.points(ctx)) for e in self.engages]
        outcome = self.check(ctx)
        return replace(outcome, ours=_join([outcome.ours, *notes])) if notes else outcome

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
            raise NotInResults(f"none of the claim's configurations ({self._describe(ctx)}) is in the results")
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
    lies in ``band`` (e.g. :func:`around` the paper's number).  A band above the measure's
    ceiling (or below its floor) cannot be met: not checkable as set up."""

    measure: Measure | None = None
    band: Band = Band()
    aggregate: str = "each"

    def check(self, ctx: Context) -> Outcome:
        pts = self.points(ctx)
        self._reachable(ctx, pts)
        values = [ctx.value(self.measure, p) for p in pts]
        holds, summary = _judge(values, self.band, self.aggregate, self.measure.text)
        g = self.given
        before = [f"{g.measure.text(ctx.value(g.measure, {**p, **g.where}))} \u2192 " if g else "" for p in pts]
        listing = ", ".join(f"{self._varying(p, ctx)}: {b}{self.measure.text(v)}".lstrip(": ")
                            for p, b, v in zip(pts, before, values))
        return Outcome(holds, _join([f"{self.measure.name + ' ' if self.measure.name else ''}{listing}", summary]),
                       self.band.text(self.measure.text))

    def _reachable(self, ctx: Context, pts: Sequence[Mapping[str, Any]]) -> None:
        m = self.measure
        if m.ceiling is None and (math.isinf(self.band.hi) or self.band.hi >= m.floor):
            return
        tops = [m.ceiling.of(m, ctx.table.loc[ctx.mask(p)]) if m.ceiling is not None else math.inf for p in pts]
        top = max(tops) if self.aggregate == "max" else (min(tops) if self.aggregate == "each" else _aggregate(tops, self.aggregate))
        if top < self.band.lo or self.band.hi < m.floor:
            bound = f"{m.ceiling.words} ({m.text(top)})" if top < self.band.lo else f"the floor ({m.text(m.floor)})"
            raise NotCheckable(f"not checkable as set up: {bound} is out of the band the claim asks for "
                               f"({self.band.text(m.text)})")


@dataclass(frozen=True)
class Share(Level):
    """The share of runs whose ``column`` is > 0 (e.g. runs with a spurious RTO) in ``band``
    (shares as fractions: ``above(0.85)``)."""

    column: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "measure", Measure(self.column, "share", digits=0, percent=True))


@dataclass(frozen=True)
class Events(Claim):
    """The times of a run's events (``times``: a column holding a sequence per run; ``flags``:
    an optional column of booleans, e.g. spurious) match the paper's ``expected`` sequence of
    ``(time, flag)``: as many events, each within ``tolerance_s``, and each flag as the paper's
    where it gives one (None: not stated).  ``where`` selects exactly one run.

    The tolerance is at most half of ``min_timeout_s``, the shortest timeout the events'
    times depend on (ns-2's and RFC 6298's minimum RTO, 0.2 s, by default): a wider one would
    accept an event one whole timeout away from the paper's (checked when the claim is made)."""

    times: str = ""
    flags: str = ""
    expected: tuple = ()
    tolerance_s: float = 0.1
    min_timeout_s: float = 0.2
    what: str = "RTOs"
    flag_word: str = "spurious"

    def __post_init__(self) -> None:
        if self.tolerance_s > self.min_timeout_s / 2 + 1e-12:
            raise ValueError(f"Events tolerance {self.tolerance_s:g} s is more than half of the {self.min_timeout_s:g} s "
                             "minimum timeout it judges")

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
    least one must be there).  The parts inherit this claim's ``where`` and ``over``.  A part
    that is not checkable for another reason (no randomness, a mechanism never engaged, a
    ceiling) leaves the whole claim not checkable, unless another part already does not hold."""

    parts: tuple[Claim, ...] = ()

    def check(self, ctx: Context) -> Outcome:
        if self.given is not None:
            self.points(ctx)  # not checkable unless some configuration meets the precondition
        results, undecided = [], []
        for part in self.parts:
            part = replace(part, where={**self.where, **part.where}, over={**self.over, **part.over},
                           given=part.given or self.given)
            try:
                results.append(part.judge(ctx))
            except NotInResults:
                continue
            except NotCheckable as why:
                undecided.append(why)
        if not results and not undecided:
            raise NotInResults(f"none of the configurations of its {counted(len(self.parts), 'part')} is in the "
                               "results")
        holds = self._combine([r.holds for r in results]) if results else None
        if undecided and holds is not self._decisive:
            again = type(undecided[0])(str(undecided[0]))
            again.__dict__.update(undecided[0].__dict__)  # e.g. what a quick campaign would need
            raise again
        ours = [r.ours for r in results] + [f"(not checkable: {why})" for why in undecided]
        return Outcome(bool(holds), " \u2016 ".join(ours), " \u2016 ".join(dict.fromkeys(r.rule for r in results if r.rule)))

    #: The outcome of the decided parts that stands whatever the undecided ones would give.
    _decisive = False

    @staticmethod
    def _combine(holds: list[bool]) -> bool:
        return all(holds)


@dataclass(frozen=True)
class AnyOf(AllOf):
    """At least one part holds."""

    _decisive = True

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
        outcome = claim.judge(ctx)
    except NotCheckable as why:
        if claim.category == CLAIM and ctx.quick and isinstance(why, (NotInResults, NeedsReplications)):
            return Verdict(claim, NOT_IN_QUICK, f"not checked in quick mode (needs {why.needs}): {why}")
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


# The comparison rules live in their own module; they are part of this vocabulary.
from .comparisons import Gain, Monotone, Negligible, Ordering, Spread, _cut, _gain, _pct  # noqa: E402
