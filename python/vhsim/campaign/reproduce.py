"""Paper reproductions: a registry of figures, each a campaign + a plot + the paper's claims.

A paper is registered by a module in :mod:`vhsim.campaign.papers` that defines ``PAPER``
(a :class:`Paper`); adding a file there is all it takes, nothing else lists the papers.
:func:`reproduce` runs the campaigns of a paper (or one figure), draws the plots and
writes ``report.md``: for each figure, the paper's stated claims next to our numbers and a
verdict ("holds" / "does not hold") computed from the campaign's results.

``quick=True`` asks each figure for its reduced campaign (fewer replications, shorter runs)
so that CI can run every registered reproduction in minutes.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .axes import CampaignError
from .runner import SweepReport, run_campaign
from .spec import CampaignSpec
from .store import Campaign

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Claim", "FigureSpec", "Paper", "papers", "register", "reproduce", "scenario_file", "ReproduceOutcome"]


@dataclass(frozen=True)
class Claim:
    """A statement of the paper, and how to check it on our results.

    ``check(df)`` returns ``(holds, our_numbers)``: whether our results agree, and the
    numbers that decide it, as a short text for the report.
    """

    text: str
    check: Callable[["pd.DataFrame"], tuple[bool, str]]


@dataclass(frozen=True)
class FigureSpec:
    """One figure: its campaign (full or quick), how to plot it, what the paper says."""

    id: str
    title: str
    campaign: Callable[[bool], CampaignSpec]  # quick -> definition
    plot: Callable[[Campaign, "pd.DataFrame", Path], list[Path]]  # -> files written
    claims: tuple[Claim, ...] = ()
    table: Callable[["pd.DataFrame"], str] | None = None  # our numbers as Markdown


@dataclass(frozen=True)
class Paper:
    name: str
    title: str
    citation: str
    figures: tuple[FigureSpec, ...]

    def figure(self, figure_id: str) -> FigureSpec:
        for fig in self.figures:
            if fig.id == figure_id:
                return fig
        raise CampaignError(f"paper {self.name} has no figure {figure_id!r} (figures: "
                            f"{', '.join(f.id for f in self.figures)})")


_REGISTRY: dict[str, Paper] = {}


def register(paper: Paper) -> Paper:
    """Add (or replace) a paper in the registry; returns it."""
    _REGISTRY[paper.name] = paper
    return paper


def papers() -> dict[str, Paper]:
    """All registered papers by name (modules of :mod:`vhsim.campaign.papers` are loaded once)."""
    from . import papers as package

    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        paper = getattr(module, "PAPER", None)
        if isinstance(paper, Paper) and paper.name not in _REGISTRY:
            register(paper)
    return dict(sorted(_REGISTRY.items()))


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


@dataclass
class FigureOutcome:
    figure: FigureSpec
    sweep: SweepReport
    files: list[Path]
    verdicts: list[tuple[Claim, bool | None, str]]  # None: the check itself failed


@dataclass
class ReproduceOutcome:
    paper: Paper
    out: Path
    report: Path
    figures: list[FigureOutcome] = field(default_factory=list)

    @property
    def failed_runs(self) -> int:
        return sum(len(f.sweep.failed) for f in self.figures)


def reproduce(
    name: str,
    figure: str | None = None,
    *,
    quick: bool = False,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    rerun_other_versions: bool = False,
    on_figure: Callable[[FigureSpec], None] | None = None,
) -> ReproduceOutcome:
    """Run the campaigns of paper ``name`` (or one ``figure``), plot, and write the report.

    Campaign folders go to ``OUT/<figure>/campaign`` and are resumable like any sweep, so a
    second call only plots and reports.  Default ``OUT``: ``out/reproduce/<name>`` (with a
    ``-quick`` suffix in quick mode, so quick and full results never share a folder).
    """
    registry = papers()
    if name not in registry:
        raise CampaignError(f"no paper {name!r} registered (papers: {', '.join(registry) or 'none'})")
    paper = registry[name]
    figures = [paper.figure(figure)] if figure else list(paper.figures)
    out_dir = Path(out) if out is not None else Path("out") / "reproduce" / (name + ("-quick" if quick else ""))
    specs = [(fig, fig.campaign(quick)) for fig in figures]
    from .. import __version__

    for fig, spec in specs:  # every definition valid before the first run
        try:
            spec.plan(__version__)
        except CampaignError as err:
            raise CampaignError(f"{name} figure {fig.id}: {err}") from None
    outcome = ReproduceOutcome(paper, out_dir, out_dir / "report.md")
    outcome.report.unlink(missing_ok=True)  # rewritten at the end: an interrupted call leaves none
    for fig, spec in specs:
        if on_figure is not None:
            on_figure(fig)
        fig_dir = out_dir / fig.id
        sweep = run_campaign(spec, fig_dir / "campaign", workers=workers, dask=dask, progress=progress,
                             rerun_other_versions=rerun_other_versions)
        df = sweep.campaign.results()
        files = fig.plot(sweep.campaign, df, fig_dir) if len(df) else []
        verdicts: list[tuple[Claim, bool | None, str]] = []
        for claim in fig.claims:
            try:
                holds, numbers = claim.check(df)
                verdicts.append((claim, bool(holds), numbers))
            except Exception as err:  # noqa: BLE001 - a broken check is reported, not fatal
                verdicts.append((claim, None, f"{type(err).__name__}: {err}"))
        outcome.figures.append(FigureOutcome(fig, sweep, files, verdicts))
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / ".report.md.tmp"
    tmp.write_text(_markdown(outcome, quick), encoding="utf-8")
    os.replace(tmp, outcome.report)
    return outcome


def verdict_word(holds: bool | None) -> str:
    return {True: "holds", False: "does not hold", None: "could not be checked"}[holds]


def _markdown(outcome: ReproduceOutcome, quick: bool) -> str:
    from .. import __version__

    paper = outcome.paper
    lines = [f"# Reproduction: {paper.title} (`{paper.name}`)", "", paper.citation, "",
             f"vhsim {__version__} \u00b7 {'quick mode (reduced campaign)' if quick else 'full campaign'} "
             f"\u00b7 written {time.strftime('%Y-%m-%d %H:%M:%S %Z')} \u00b7 "
             f"`vhsim reproduce {paper.name}{' --quick' if quick else ''}`", ""]
    held = sum(1 for f in outcome.figures for _, h, _ in f.verdicts if h)
    total = sum(len(f.verdicts) for f in outcome.figures)
    lines += [f"**{held} of {total} claims hold.**", ""]
    for fig in outcome.figures:
        spec = fig.sweep.campaign.spec
        rel = os.path.relpath(fig.sweep.campaign.path, outcome.out)
        lines += [f"## {fig.figure.id}: {fig.figure.title}", "",
                  f"Campaign: {spec.describe()}; {fig.sweep.total} runs ({fig.sweep.executed} run now, "
                  f"{fig.sweep.already_done} reused{', ' + str(len(fig.sweep.failed)) + ' failed' if fig.sweep.failed else ''}); "
                  f"folder `{rel}`.", ""]
        for path in fig.files:
            if path.suffix == ".png":
                lines += [f"![{path.stem}]({os.path.relpath(path, outcome.out)})", ""]
        if fig.figure.table is not None and fig.sweep.done:
            lines += ["### Our numbers", "", fig.figure.table(fig.sweep.campaign.results()), ""]
        if fig.verdicts:
            lines += ["### The paper's claims and our results", "",
                      "| claim | our numbers | verdict |", "|---|---|---|"]
            for claim, holds, numbers in fig.verdicts:
                lines.append(f"| {_cell(claim.text)} | {_cell(numbers)} | **{verdict_word(holds)}** |")
            lines.append("")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown table (for figures' ``table`` functions)."""
    out = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(_cell(str(c)) for c in row) + " |" for row in rows]
    return "\n".join(out)
