"""The comparison rules of the claim vocabulary: :class:`Gain`, :class:`Negligible`,
:class:`Ordering`, :class:`Monotone` and :class:`Spread` (re-exported by :mod:`.claims`).

They decide on statistics (:func:`vhsim.campaign.effects.effect`): every compared pair of
configurations gets its effect with a 95% CI, and

* a band that excludes zero ("better", "faster", "improves by 26%") holds only when the effect
  lies in the band **and** its CI lies on the band's side of zero;
* a band that contains zero ("negligible", "similar", "at least 90% of", "not above by more
  than 2%") holds only when the whole CI lies inside the band (the effect is shown to be there);
* an aggregate over points (the largest, the mean, ...) is judged on the aggregate of the
  effects with the aggregate of their CI bounds (conservative for a mean).

A figure whose replications are identical has n = 1: its comparisons are not checkable ("the
scenario has no randomness"), unless the figure is deterministic by design (one run per
configuration), where the exact values decide.  A gain that the measure's bounds (its
:class:`~vhsim.campaign.claims.Bound` ceiling, its floor) make unreachable is "not checkable as
set up", with the bound shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .claims import (Band, Claim, Context, Measure, NeedsReplications, NotCheckable, NotInResults, Outcome,
                     _aggregate, _join, plusminus)
from .effects import Effect, NoRandomness, TooFewRuns, effect, ratio_gain

__all__ = ["Gain", "Monotone", "Negligible", "Ordering", "Spread"]


def _gain(a: float, b: float) -> float:
    """a / b - 1 of two numbers (censoring rules of :func:`~vhsim.campaign.effects.ratio_gain`)."""
    return float(ratio_gain(a, b))


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


def compare(ctx: Context, measure: Measure, a: Mapping[str, Any], b: Mapping[str, Any],
            measure_b: Measure | None = None) -> Effect:
    """:func:`~vhsim.campaign.effects.effect`, its refusals as :class:`NotCheckable` reasons."""
    try:
        return effect(ctx, measure, a, b, measure_b)
    except NoRandomness as why:
        raise NotCheckable(str(why)) from None
    except TooFewRuns as why:
        raise NeedsReplications(str(why)) from None


def decide(band: Band, value: float, low: float, high: float) -> tuple[bool, str]:
    """Whether an effect with this 95% CI meets ``band`` (module docstring), and if not for a
    reason other than the value itself, why (for the report)."""
    if value not in band:
        return False, ""
    if math.isnan(low) or math.isnan(high):
        return False, "no interval"
    if 0.0 in band:
        return (low in band and high in band), "the 95% CI reaches outside the band"
    positive = band.lo >= 0
    return ((low > 0) if positive else (high < 0)), "the 95% CI includes 0"


def undecided_in_quick(ctx: Context, holds: bool, interval_only: bool, ours: str) -> None:
    """Raise :class:`NeedsReplications` when a comparison judged on a quick campaign, which has
    fewer replications than the full one (``ctx.full_replications``), fails only because its
    95% CI does not show an effect whose value meets the claim (``interval_only``): the full
    campaign decides that, not the quick one (issue #23 item 7)."""
    if not holds and interval_only and ctx.full_replications:
        raise NeedsReplications(f"{ours}; the values meet the claim, but the 95% CI over the quick campaign's runs "
                                "does not show it", needs=f"the full campaign's {ctx.full_replications} replications")


def _interval_text(low: float, high: float, fmt: Callable[[float], str]) -> str:
    return "" if math.isnan(low) else (f" [{fmt(low)} .. {fmt(high)}]" if low != high else "")


def _methods(effects: Sequence[Effect]) -> str:
    notes = list(dict.fromkeys(e.note() for e in effects))
    return ("95% CI in brackets; " if any(not e.exact for e in effects) else "") + "; ".join(notes)


@dataclass(frozen=True)
class Gain(Claim):
    """``a`` against ``b`` at each point: g = measure(a) / measure_b(b) - 1 (with
    ``reduction``: 1 - a / b, a cut of time), in ``band`` by the rule of the module docstring.

    ``a`` and ``b`` are column values added to the point (one mapping, or several: every a
    against every b); ``measure_b`` compares two columns of the same runs (after vs before).
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
        fmt = _cut if self.reduction else _pct
        pairs = [(a, b) for a in _sides(self.a) for b in _sides(self.b)]
        found = []
        for point in self.points(ctx):
            for a, b in pairs:
                wa, wb = {**point, **a}, {**point, **b}
                if ctx.present(wa) and ctx.present(wb):
                    found.append((point, a, b, wa, wb))
        if not found:
            raise NotInResults(f"no configuration of the claim has both sides in the results ({self._describe(ctx)})")
        self._ceiling(ctx, found, mb, fmt)
        effects, values, parts, why_not, decisions = [], [], [], [], []
        for point, a, b, wa, wb in found:
            e = compare(ctx, self.measure, wa, wb, self.measure_b)
            g, lo, hi = (-e.gain, -e.gain_high, -e.gain_low) if self.reduction else (e.gain, e.gain_low, e.gain_high)
            effects.append(e)
            values.append((g, lo, hi))
            parts.append(self._pair_text(ctx, point, a, b, e, g, lo, hi, fmt))
            if self.aggregate == "each":
                ok, why = decide(self.band, g, lo, hi)
                decisions.append((ok, why))
                if not ok and why:
                    why_not.append(f"{self._varying(point, ctx) or ctx.label(a)}: {why}")
        if self.aggregate == "each":
            holds = all(ok for ok, _ in decisions)
            summary = ""
        else:
            agg = [_aggregate([v[i] for v in values], self.aggregate) for i in range(3)]
            holds, why = decide(self.band, *agg)
            decisions.append((holds, why))
            word = {"max": "largest", "min": "smallest", "mean": "mean", "median": "median"}[self.aggregate]
            summary = f"{word} {fmt(agg[0])}{_interval_text(agg[1], agg[2], fmt)}"
            if not holds and why:
                why_not.append(why)
        what = "reduction" if self.reduction else "gain"
        head = f"{self.measure.name}: " if self.measure.name and self.measure_b is None else ""
        ours = head + _join(["; ".join(parts), summary, _methods(effects),
                             ("not shown: " + "; ".join(why_not)) if why_not else ""])
        # A pair that fails with a reason failed on its interval only (its value is in the band).
        undecided_in_quick(ctx, holds, all(ok or why for ok, why in decisions), ours)
        return Outcome(holds, ours, f"{what} {self.band.text(fmt)}, shown by its 95% CI")

    def _ceiling(self, ctx: Context, found, mb: Measure, fmt) -> None:
        """Not checkable as set up when the measure's bounds leave the band out of reach."""
        m = self.measure
        reach = []
        for point, a, b, wa, wb in found:
            vb = ctx.value(mb, wb)
            top = m.ceiling.of(m, ctx.table.loc[ctx.mask(wa)]) if m.ceiling is not None else math.inf
            low, high = _gain(m.floor, vb), _gain(top, vb)
            reach.append(((-high, -low) if self.reduction else (low, high), vb, top, point, b))
        if self.aggregate == "each":
            blocked = [r for r in reach if r[0][1] < self.band.lo or r[0][0] > self.band.hi]
        else:
            lo = _aggregate([r[0][0] for r in reach], self.aggregate)
            hi = _aggregate([r[0][1] for r in reach], self.aggregate)
            blocked = reach if (hi < self.band.lo or lo > self.band.hi) else []
        if blocked:
            (low, high), vb, top, point, b = blocked[0]
            where = self._varying(point, ctx)
            bound = (f"{m.ceiling.words} ({m.text(top)})" if m.ceiling is not None and high < self.band.lo
                     else f"the floor ({m.text(m.floor)})")
            raise NotCheckable(f"not checkable as set up: {bound} allows at most {fmt(high)} against "
                               f"{ctx.label(b) or mb.name or mb.column} ({mb.text(vb)}{', ' + where if where else ''}); "
                               f"the claim asks for {self.band.text(fmt)}")

    def _pair_text(self, ctx: Context, point, a, b, e: Effect, g: float, lo: float, hi: float, fmt) -> str:
        mb = self.measure_b or self.measure
        name_a = ctx.label(a) or self.measure.name or self.measure.column
        name_b = ctx.label(b) or mb.name or mb.column
        where = self._varying(point, ctx)
        g_text = f"reduction {fmt(g)}" if self.reduction else fmt(g)
        return (f"{where + ': ' if where else ''}{name_a} {self.measure.text(e.a)} vs {name_b} {mb.text(e.b)}: "
                f"{g_text}{_interval_text(lo, hi, fmt)}")


@dataclass(frozen=True)
class Negligible(Gain):
    """``a`` and ``b`` differ by at most ``tolerance`` (relative): "negligible", "similar".
    Holds when the gain's whole 95% CI lies within +-``tolerance``."""

    tolerance: float = 0.05

    def __post_init__(self) -> None:
        words = f"negligible: within \u00b1{100 * self.tolerance:.0f}%"
        object.__setattr__(self, "band", plusminus(0.0, self.tolerance, words))


def _shown(e: Effect, above: bool) -> bool:
    """The difference a - b is shown positive (``above``) or negative: its CI excludes zero."""
    return (e.diff_low > 0) if above else (e.diff_high < 0)


@dataclass(frozen=True)
class Ordering(Claim):
    """At each point (the columns of ``over`` other than ``axis``), the values of ``axis`` in
    ``top`` rank in that order, strictly above each other and (``rest``) above every other value
    of ``axis`` present (``among``, if given, limits which); ``lowest`` ranks from the bottom.
    Each ranked pair's difference must be shown by its 95% CI (excluding zero)."""

    measure: Measure | None = None
    axis: str = ""
    top: tuple = ()
    rest: bool = True
    among: tuple | None = None
    lowest: bool = False

    def check(self, ctx: Context) -> Outcome:
        holds, parts, effects, interval_only = True, [], [], True
        for point in self.points(ctx, without=(self.axis,)):
            present = [v for v in (self.among or ctx.values_of(self.axis, point)) if ctx.present({**point, self.axis: v})]
            vals = {v: ctx.value(self.measure, {**point, self.axis: v}) for v in present}
            if any(t not in vals for t in self.top):
                continue
            ranked = list(zip(self.top, self.top[1:]))
            if self.rest:
                ranked += [(self.top[-1], k) for k in vals if k not in self.top]
            unshown = []
            for x, y in ranked:
                e = compare(ctx, self.measure, {**point, self.axis: x}, {**point, self.axis: y})
                effects.append(e)
                if not _shown(e, not self.lowest):
                    interval_only &= not e.exact and (e.diff < 0 if self.lowest else e.diff > 0)  # ranked as claimed
                    d = self.measure.digits
                    unshown.append(f"{ctx.name(self.axis, x)} \u2212 {ctx.name(self.axis, y)} {e.diff:+.{d}f}"
                                   + ("" if e.exact else f" [{e.diff_low:+.{d}f} .. {e.diff_high:+.{d}f}]"))
            holds &= not unshown
            where = self._varying(point, ctx, skip=(self.axis,))
            listing = ", ".join(f"{ctx.name(self.axis, k)} {self.measure.text(v)}" for k, v in vals.items())
            sign = -1.0 if self.lowest else 1.0
            top = max(vals, key=lambda k: sign * vals[k])
            word = "lowest" if self.lowest else "highest"
            parts.append(f"{where + ': ' if where else ''}{listing}"
                         + ("" if len(self.top) > 1 else f" ({word}: {ctx.name(self.axis, top)})")
                         + (f" (not shown: {'; '.join(unshown)})" if unshown else ""))
        if not parts:
            raise NotInResults(f"the ranked configurations are not in the results ({self._describe(ctx)})")
        rel = " < " if self.lowest else " > "
        order = rel.join(ctx.name(self.axis, t) for t in self.top)
        undecided_in_quick(ctx, holds, interval_only, _join(["; ".join(parts), _methods(effects)]))
        return Outcome(holds, _join(["; ".join(parts), _methods(effects)]),
                       f"{order}{rel + 'every other' if self.rest else ''}, at every point, each difference shown by "
                       "its 95% CI")


@dataclass(frozen=True)
class Monotone(Claim):
    """Along ``along`` (values in ``order``), the measure rises (``rising``) or falls, no step
    going against the direction by more than ``tolerance`` (relative); with ``overall`` the last
    value must also be beyond the first, shown by the 95% CI of last - first.  One series per
    point of the other ``over`` columns."""

    measure: Measure | None = None
    along: str = ""
    order: tuple = ()
    rising: bool = True
    tolerance: float = 0.0
    overall: bool = False

    def check(self, ctx: Context) -> Outcome:
        holds, parts, effects, interval_only = True, [], [], True
        for point in self.points(ctx, without=(self.along,)):
            series = [(x, ctx.value(self.measure, {**point, self.along: x})) for x in self.order
                      if ctx.present({**point, self.along: x})]
            if len(series) < 2:
                continue
            ys = [y for _, y in series]
            steps = all((b >= a * (1 - self.tolerance)) if self.rising else (b <= a * (1 + self.tolerance))
                        for a, b in zip(ys, ys[1:]))
            ends = ""
            if self.overall:
                e = compare(ctx, self.measure, {**point, self.along: series[-1][0]}, {**point, self.along: series[0][0]})
                effects.append(e)
                ok_ends = _shown(e, self.rising)
                ends_way = not e.exact and (e.diff > 0 if self.rising else e.diff < 0)  # beyond, CI aside
                d = self.measure.digits
                ends = (f" (last \u2212 first {e.diff:+.{d}f}"
                        + ("" if e.exact else f" [{e.diff_low:+.{d}f} .. {e.diff_high:+.{d}f}]") + ")")
            else:
                ok_ends, ends_way = True, True
            ok = steps and ok_ends
            holds &= ok
            interval_only &= ok or (steps and ends_way)
            way = "rising" if self.rising else "falling"
            why = "" if ok else (f" (not {way} throughout)" if not steps else
                                 " (last beyond first not shown by its 95% CI)")
            where = self._varying(point, ctx, skip=(self.along,))
            parts.append(f"{where + ': ' if where else ''}"
                         + ", ".join(f"{ctx.name(self.along, x)}: {self.measure.text(y)}" for x, y in series) + ends
                         + why)
        if not parts:
            raise NotInResults(f"fewer than two points of a series in the results ({self._describe(ctx)})")
        undecided_in_quick(ctx, holds, interval_only, _join(["; ".join(parts), _methods(effects)]))
        rule = f"{'rising' if self.rising else 'falling'} along {self.along}"
        rule += f", each step within {100 * self.tolerance:.0f}%" if self.tolerance else ", no step back"
        return Outcome(holds, _join(["; ".join(parts), _methods(effects)]),
                       rule + (", last beyond first (shown by its 95% CI)" if self.overall else ""))


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
            raise NotInResults(f"no series in the results ({self._describe(ctx)})")
        return Outcome(holds, "; ".join(parts), f"spread \u2264 {100 * self.limit:.0f}% of the lowest")

