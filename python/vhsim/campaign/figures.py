"""A paper's figure as data: its campaign grid (full and quick), how its runs become the
columns its claims read, its plot, its claims and its table of our numbers.

* :class:`Grid` -- a scenario file (under ``scenarios/``), axes, fixed overrides, replications;
* :class:`FigureSpec` -- one figure: ``grid`` and ``quick`` grid, ``derive`` (per-run columns
  computed from the result table or the stored traces), ``plot`` (a plot kind of
  :mod:`vhsim.campaign.plots` or a bespoke function), ``claims`` (:mod:`vhsim.campaign.claims`),
  ``table`` (:class:`Table` or a function), ``names`` (how configurations are named), and how
  its runs are sampled for the statistics of comparisons (``samples``, ``deterministic``);
* :class:`Paper` -- its figures, the names shared by all of them, the citation, and what its
  robustness variants perturb and which readings it leaves open (:mod:`vhsim.campaign.variants`).

:func:`vhsim.campaign.reproduce.reproduce` runs them and writes the report.
"""

from __future__ import annotations

import math
import os
from dataclasses import KW_ONLY, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .axes import Axis, AxisValue, CampaignError
from .claims import Claim, Context, Measure
from .spec import CampaignSpec
from .stats import mean_ci
from .variants import Alternative, Perturbation

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from .store import Campaign

__all__ = ["Col", "FigureSpec", "Grid", "Paper", "Table", "axis", "markdown_table", "scenario_file"]


def scenario_file(relative: str) -> Path:
    """Find ``scenarios/<relative>``: under $VHSIM_SCENARIOS, the current directory, or the
    source tree this package lives in (an editable or in-tree install)."""
    roots = []
    if os.environ.get("VHSIM_SCENARIOS"):
        roots.append(Path(os.environ["VHSIM_SCENARIOS"]))
    roots.append(Path.cwd() / "scenarios")
    roots.append(Path(__file__).resolve().parents[3] / "scenarios")
    for root in roots:
        if (root / relative).is_file():
            return root / relative
    raise FileNotFoundError(
        f"scenario file scenarios/{relative} not found (looked in {', '.join(map(str, roots))}); "
        "run from the vhsim repository root or set VHSIM_SCENARIOS to its scenarios/ folder")


def axis(key: str, values: Sequence[str] | Sequence[tuple[str, str]] | Mapping[str, str]) -> Axis:
    """An axis from plain values (label = override), ``{label: override}`` or ``(label,
    override)`` pairs (labels may repeat in a zipped grid)."""
    if isinstance(values, Mapping):
        pairs = values.items()
    else:
        pairs = (v if isinstance(v, tuple) else (v, v) for v in values)
    return Axis(key, tuple(AxisValue(str(label), str(override)) for label, override in pairs))


@dataclass(frozen=True)
class Grid:
    """A campaign as data: ``scenario`` (relative to ``scenarios/``), ``axes`` (a product, or
    zipped with ``zip``), ``fixed`` overrides, replications with paired seeds, trace detail."""

    scenario: str
    axes: tuple[Axis, ...] = ()
    fixed: Mapping[str, str] = field(default_factory=dict)
    replications: int = 1
    detail: str = "summary"
    zip: bool = False

    def spec(self) -> CampaignSpec:
        path = scenario_file(self.scenario)
        return CampaignSpec(path.read_text(encoding="utf-8"), str(path), tuple(self.fixed.items()), self.axes,
                            zip_axes=self.zip, replications=self.replications, detail=self.detail)

    def but(self, fixed: Mapping[str, str] | None = None, **changes: Any) -> "Grid":
        """A copy with more fixed overrides and other fields replaced (the quick grid of a figure)."""
        return replace(self, fixed={**self.fixed, **(fixed or {})}, **changes)


@dataclass(frozen=True)
class Col:
    """A column of a figure's table: ``measure`` over a row's runs (restricted to ``where``),
    as ``mean +- 95% CI half-width`` with ``ci``; or, with ``vs``, the change of ``where``'s
    value against ``vs``'s (``reduction``: 1 - a/b); or ``fn(runs) -> text``."""

    header: str
    measure: Measure | None = None
    _: KW_ONLY
    where: Mapping[str, Any] = field(default_factory=dict)
    vs: Mapping[str, Any] | None = None
    reduction: bool = False
    ci: bool = False
    fn: Callable[["pd.DataFrame"], str] | None = None

    def cell(self, ctx: Context, group: Mapping[str, Any]) -> str:
        where = {**group, **self.where}
        if self.fn is not None:
            return self.fn(ctx.table.loc[ctx.mask(where)])
        if not ctx.present(where):
            return "\u2013"
        value = ctx.value(self.measure, where)
        if self.vs is not None:
            base = {**group, **self.vs}
            if not ctx.present(base):
                return "\u2013"
            from .claims import _cut, _gain, _pct

            g = _gain(value, ctx.value(self.measure, base))
            return _cut(-g) if self.reduction else _pct(g)
        if self.ci:
            rows = ctx.table.loc[ctx.mask(where)]
            ci = mean_ci(rows[self.measure.column].to_numpy(float) * self.measure.scale)
            signature = [c for c in ("events", self.measure.column) if c in rows.columns]
            if len(rows) > 1 and len(rows[signature].astype(str).drop_duplicates()) == 1:
                return f"{self.measure.text(ci.mean)} (n = 1: {len(rows)} identical runs)"
            return self.measure.text(ci.mean) + ("" if math.isnan(ci.half_width) else
                                                 f" \u00b1 {ci.half_width:.{self.measure.digits}f}")
        return self.measure.text(value)


@dataclass(frozen=True)
class Table:
    """Our numbers: one row per configuration of the ``by`` columns (in order of appearance),
    the configuration named in the first columns, then ``columns``; ``note`` above it."""

    by: tuple[str, ...]
    columns: tuple[Col, ...]
    note: str = ""
    headers: tuple[str, ...] = ()  # names of the `by` columns (default: the column names)

    def render(self, table: "pd.DataFrame", names: Mapping[str, Any]) -> str:
        ctx = Context(table, names)
        groups = list(dict.fromkeys(tuple(r) for r in table[list(self.by)].itertuples(index=False)))
        rows = []
        for key in groups:
            group = dict(zip(self.by, key))
            rows.append([ctx.name(k, v) for k, v in group.items()] + [c.cell(ctx, group) for c in self.columns])
        text = markdown_table([*(self.headers or self.by), *(c.header for c in self.columns)], rows)
        return (self.note + "\n\n" + text) if self.note else text


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_cell(str(c)) for c in row) + " |" for row in rows]
    return "\n".join(out)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


#: A plot: ``(campaign, derived table, output folder, figure) -> files written``.
PlotFn = Callable[["Campaign", "pd.DataFrame", Path, "FigureSpec"], list[Path]]


@dataclass(frozen=True)
class FigureSpec:
    """One figure of a paper (see the module docstring)."""

    id: str
    title: str
    grid: Grid | Callable[[], Grid]  # a Grid, or a function making it (a large grid is built when needed)
    quick: Grid | Callable[[], Grid] | None = None  # the reduced grid of ``--quick`` (default: ``grid``)
    _: KW_ONLY
    plot: Any = None  # a plot kind (an object with .draw(campaign, table, out, figure)) or a PlotFn
    claims: tuple[Claim, ...] = ()
    table: Table | tuple[Table, ...] | Callable[["pd.DataFrame"], str] | None = None
    derive: Callable[["Campaign | None", "pd.DataFrame"], "pd.DataFrame"] | None = None
    names: Mapping[str, Any] = field(default_factory=dict)
    #: Axis columns whose values are statistical samples, like the seed (handoff instants).
    samples: tuple[str, ...] = ()
    #: One run per configuration is the design (no randomness): comparisons use exact values.
    deterministic: bool = False

    def context(self, table: "pd.DataFrame", quick: bool = False) -> Context:
        """The evaluation context of this figure's claims on its derived ``table`` (``quick``:
        of the reduced campaign, which may have fewer replications than the full one)."""
        return Context(table, self.names, quick=quick, samples=self.samples, deterministic=self.deterministic,
                       full_replications=self.replications_dropped_by_quick() if quick else 0)

    def replications_dropped_by_quick(self) -> int:
        """The full campaign's replications if the quick one has fewer, else 0 (also when a grid
        is built by a function: it is not built just to count them)."""
        full, quick = self.grid, self.quick if self.quick is not None else self.grid
        if not isinstance(full, Grid) or not isinstance(quick, Grid):
            return 0
        return full.replications if quick.replications < full.replications else 0

    def campaign(self, quick: bool) -> CampaignSpec:
        chosen = self.quick if quick and self.quick is not None else self.grid
        return (chosen() if callable(chosen) else chosen).spec()

    def columns(self, camp: "Campaign | None", df: "pd.DataFrame") -> "pd.DataFrame":
        """The result table with the figure's derived per-run columns (attrs kept)."""
        if self.derive is None:
            return df
        out = self.derive(camp, df)
        out.attrs.update(df.attrs)
        return out

    def draw(self, camp: "Campaign", table: "pd.DataFrame", out: Path) -> list[Path]:
        if self.plot is None:
            return []
        draw = getattr(self.plot, "draw", None)
        return draw(camp, table, out, self) if draw is not None else self.plot(camp, table, out, self)

    def render_table(self, table: "pd.DataFrame") -> str | None:
        if self.table is None:
            return None
        if isinstance(self.table, Table):
            return self.table.render(table, self.names)
        if isinstance(self.table, tuple):
            return "\n\n".join(t.render(table, self.names) for t in self.table)
        return self.table(table)


@dataclass(frozen=True)
class Paper:
    name: str
    title: str
    citation: str
    figures: tuple[FigureSpec, ...]
    names: Mapping[str, Any] = field(default_factory=dict)  # shared by every figure
    # What `--robustness N` perturbs, and the readings of `--ambiguities` (vhsim.campaign.variants).
    perturbation: Perturbation | None = None
    ambiguities: tuple[Alternative, ...] = ()

    def __post_init__(self) -> None:
        # Each figure knows the paper's names (its own take precedence).
        figures = tuple(replace(f, names={**self.names, **f.names}) for f in self.figures)
        object.__setattr__(self, "figures", figures)

    def figure(self, figure_id: str) -> FigureSpec:
        for fig in self.figures:
            if fig.id == figure_id:
                return fig
        raise CampaignError(f"paper {self.name} has no figure {figure_id!r} (figures: "
                            f"{', '.join(f.id for f in self.figures)})")
