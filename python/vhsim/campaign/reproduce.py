"""Paper reproductions: a registry of papers, each a list of figures (:mod:`.figures`), run into
campaigns, plotted, and reported with every claim's verdict by category (:mod:`.claims`).

A paper is registered by a module in :mod:`vhsim.campaign.papers` that defines ``PAPER`` (a
:class:`~vhsim.campaign.figures.Paper`); adding a file there is all it takes.  :func:`reproduce`
runs the campaigns of a paper (or one figure), draws the plots and writes ``report.md``: the
counts by category (claims that hold, do not hold, are not checkable; calibrations;
consistency tests), then per figure our numbers and the paper's claims beside them.

``quick=True`` asks each figure for its reduced grid so that CI can run every registered
reproduction in minutes.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import pkgutil
import shutil
import time
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..wording import counted
from .axes import CampaignError
from .claims import CALIBRATION, CATEGORIES, CLAIM, CONSISTENCY, NOT_IN_QUICK, Verdict, evaluate, tally
from .figures import FigureSpec, Paper, markdown_table, scenario_file
from .plotter import Plotter
from .runner import SweepReport, WorkerPool, default_workers, run_campaign
from .spec import forget_plan

if TYPE_CHECKING:  # pragma: no cover
    from .ensemble import Ensemble

__all__ = ["FigureOutcome", "Paper", "ReproduceOutcome", "papers", "register", "reproduce", "scenario_file",
           "counts_line"]

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


@dataclass
class FigureOutcome:
    figure: FigureSpec
    sweep: SweepReport
    files: list[Path]
    verdicts: list[Verdict]
    table: str | None = None
    #: What the figures' captions say that a reader of the report must know too (a line hidden under another).
    notes: list[str] = field(default_factory=list)
    #: What a :class:`Plotter` is still doing for this figure; ``files``, ``notes``, ``table`` and
    #: ``verdicts`` are filled from it by :func:`_collect_plots`.
    pending: Future | None = None


@dataclass
class ReproduceOutcome:
    paper: Paper
    out: Path
    report: Path
    figures: list[FigureOutcome] = field(default_factory=list)
    ensemble: "Ensemble | None" = None  # robustness variants and alternative readings, when asked for

    @property
    def failed_runs(self) -> int:
        return sum(len(f.sweep.failed) for f in self.figures) + (self.ensemble.failed_runs if self.ensemble else 0)

    @property
    def verdicts(self) -> list[Verdict]:
        return [v for f in self.figures for v in f.verdicts]


def judge(fig: FigureSpec, table, quick: bool = False) -> list[Verdict]:
    """Every claim of ``fig`` evaluated on its derived result table (``quick``: the table of
    the reduced campaign, so that claims it leaves undecided say so)."""
    ctx = fig.context(table, quick)
    return [evaluate(claim, table, ctx=ctx) for claim in fig.claims]


def figure_results(fig: FigureSpec, camp, fig_dir: Path, quick: bool,
                   draw: bool = True) -> tuple[list[Path], str | None, list[Verdict]]:
    """A swept figure's plots (``draw``), our numbers and its verdicts, from its campaign: the
    result table, its derived columns, the table of our numbers and the claims judged on it (on
    the table as derived: before the plots, which may add columns of their own), then the plots
    (``quick``: judged on the reduced campaign)."""
    df = camp.results()
    table = fig.columns(camp, df) if len(df) else df
    ours = fig.render_table(table) if draw and len(df) else None
    verdicts = judge(fig, table, quick)
    files = fig.draw(camp, table, fig_dir) if draw and len(df) else []
    camp.forget_plans()  # the report needs the figure's spec and folder, not its runs
    return files, ours, verdicts


def _figure(fig: FigureSpec, spec, fig_dir: Path, run: Callable[..., SweepReport], quick: bool,
            draw: bool = True, plotter: tuple[Plotter, str] | None = None) -> FigureOutcome:
    """Run one figure's campaign into ``fig_dir/campaign``, derive its columns, judge its claims
    (``quick``: on the reduced campaign) and (``draw``) plot it and tabulate our numbers; a
    robustness or ambiguity variant skips those. With a plotter (its process and the paper's
    name) all of that but the sweep is done there while the next figure runs
    (:func:`vhsim.campaign.plotter.finish_figure`); the outcome holds its future until
    :func:`_collect_plots`."""
    sweep = run(spec, fig_dir / "campaign")
    if plotter and draw:
        pending = plotter[0].finish(plotter[1], fig.id, sweep.campaign.path, fig_dir, quick)
        sweep.campaign.forget_plans()
        return FigureOutcome(fig, sweep, [], [], pending=pending)
    files, ours, verdicts = figure_results(fig, sweep.campaign, fig_dir, quick, draw)
    return FigureOutcome(fig, sweep, files, verdicts, ours, list(getattr(files, "notes", ())))


def _collect_plots(figures: list[FigureOutcome]) -> None:
    """Wait for the figures a :class:`Plotter` finishes and put their plots, notes, table of
    our numbers and verdicts (``(status, ours, rule)`` of each claim, in order) in place."""
    for outcome in figures:
        if outcome.pending is not None:
            drawn, outcome.table, verdicts = outcome.pending.result()
            outcome.files, outcome.notes, outcome.pending = drawn, list(getattr(drawn, "notes", ())), None
            outcome.verdicts = [Verdict(claim, *v) for claim, v in zip(outcome.figure.claims, verdicts, strict=True)]


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
    robustness: int = 0,
    ambiguities: bool = False,
    on_variant: Callable[[str], None] | None = None,
    on_workers_started: Callable[[], None] | None = None,
) -> ReproduceOutcome:
    """Run the campaigns of paper ``name`` (or one ``figure``), plot, and write the report.

    Campaign folders go to ``OUT/<figure>/campaign`` and are resumable like any sweep, so a
    second call only plots and reports.  Default ``OUT``: ``out/reproduce/<name>`` (with a
    ``-quick`` suffix in quick mode, so quick and full results never share a folder).
    ``robustness=N`` also runs every figure as N perturbed variants and labels each verdict;
    ``ambiguities`` runs it under each alternative reading the paper declares (:mod:`.ensemble`).
    ``on_workers_started`` is called in this process once the local workers run (at once
    without them), and in a plotting process before each figure it finishes: a setting for them
    and not the workers, e.g. the CLI's allocator setting (a module-level function: it is sent
    to the plotting processes).
    """
    registry = papers()
    if name not in registry:
        raise CampaignError(f"no paper {name!r} registered (papers: {', '.join(registry) or 'none'})")
    paper = registry[name]
    if robustness or ambiguities:
        from .ensemble import check_declared

        check_declared(paper, robustness, ambiguities)
    figures = [paper.figure(figure)] if figure else list(paper.figures)
    out_dir = Path(out) if out is not None else Path("out") / "reproduce" / (name + ("-quick" if quick else ""))
    from .. import __version__

    outcome = ReproduceOutcome(paper, out_dir, out_dir / "report.md")
    n = default_workers() if workers is None else max(1, int(workers))
    # One pool for every figure, started before the campaigns' grids and plans exist
    # (runner.WorkerPool): a worker's garbage collector would otherwise touch, and so copy,
    # every object of them (Daniel & Kojo: ~90 MB per worker).
    local = n > 1 and not dask
    sizes = {fig.id: fig.campaign(quick).size for fig in figures}  # counted, not listed
    # The plotting processes read and plot as this one did (`on_workers_started` in each).
    with WorkerPool(n) if local else contextlib.nullcontext() as pool, \
            Plotter(_plotters(n, sizes), on_workers_started) if local else contextlib.nullcontext() as plotter, \
            _plans_on_disk(out_dir) as stage:
        if on_workers_started is not None:
            on_workers_started()
        for fig in figures:  # every definition valid before the first run, each validated once
            _validate(name, fig.campaign(quick), __version__, fig.id, _plan_cache(out_dir, fig, stage), pool)
        outcome.report.unlink(missing_ok=True)  # rewritten at the end: an interrupted call leaves none
        # The table is built by whoever reads it first (figure_results), not again at each sweep's end.
        run = partial(run_campaign, workers=n, dask=dask, progress=progress,
                      rerun_other_versions=rerun_other_versions, pool=pool, table=False)
        done: dict[str, FigureOutcome] = {}
        specs = {}  # kept for the variants only: a figure's plan is read back when it runs
        for fig in _run_order(figures, sizes) if plotter is not None else figures:
            if on_figure is not None:
                on_figure(fig)
            spec = fig.campaign(quick)
            spec.plan(__version__, cache_dir=_plan_cache(out_dir, fig, stage), write_cache=False)  # read back
            done[fig.id] = _figure(fig, spec, out_dir / fig.id, run, quick,
                                   plotter=(plotter, name) if plotter is not None else None)
            if robustness or ambiguities:
                specs[fig.id] = spec
        outcome.figures = [done[fig.id] for fig in figures]
        _collect_plots(outcome.figures)
        if robustness or ambiguities:
            from .ensemble import run_ensemble

            outcome.ensemble = run_ensemble(
                paper, [(fig, specs[fig.id]) for fig in figures], outcome.figures, out_dir, partial(_figure, run=run, quick=quick, draw=False),
                robustness=robustness, ambiguities=ambiguities, on_variant=on_variant)
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = out_dir / ".report.md.tmp"
    tmp.write_text(_markdown(outcome, quick), encoding="utf-8")
    os.replace(tmp, outcome.report)
    return outcome


#: A campaign of at most this many runs is a case study: its runs take no time, its plots the most.
_FEW_RUNS = 100

#: Plotting processes for a paper of case studies only (with as many workers or more).
PLOTTERS = 2


def _plotters(workers: int, sizes: dict[str, int]) -> int:
    """How many plotting processes finish the figures: two (at most ``workers``) when every figure
    is a case study, whose runs take no time and whose whole-trace plots then wait on one process
    (Sobral et al.); one otherwise, where the figures' runs take the time and a second plotting
    process only competes with the workers for the cores (Daniel & Kojo's grids ran 14% slower
    beside two: docs/performance.md "Plots in two processes")."""
    return min(workers, PLOTTERS) if all(size <= _FEW_RUNS for size in sizes.values()) else 1


def _run_order(figures: list[FigureSpec], sizes: dict[str, int]) -> list[FigureSpec]:
    """The order the figures run in when a plotting process finishes them (the report keeps the
    paper's): the case studies first, whose whole-trace plots are then drawn while the grids
    run, then the grids from the largest down, so that what is left to finish after the last
    sweep is a small figure's table, claims and plots, not a large one's."""
    def place(fig: FigureSpec) -> tuple[bool, int]:
        grid = sizes[fig.id] > _FEW_RUNS
        return grid, -sizes[fig.id] if grid else 0  # case studies keep the paper's order

    return sorted(figures, key=place)


@contextlib.contextmanager
def _plans_on_disk(out_dir: Path):
    """A folder for the plans of figures whose campaign folder does not exist yet, removed at the
    end: the parent then holds one figure's grid and plan at a time (Daniel & Kojo's 21 held
    together took ~0.2 GB), and no figure is validated twice."""
    stage = out_dir / ".plans"
    try:
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def _plan_cache(out_dir: Path, fig: FigureSpec, stage: Path) -> Path:
    """Where ``fig``'s plan is cached: its campaign folder's, or the stage folder for a new one."""
    folder = out_dir / fig.id / "campaign"
    return folder if folder.is_dir() else stage / fig.id


def _validate(paper: str, spec, version: str, fig_id: str, cache: Path, pool: WorkerPool | None) -> None:
    """Validate a figure's campaign (on the pool's workers, if any) and leave its plan in the plan
    cache of folder ``cache`` (:meth:`CampaignSpec.plan`), not in this process's memory."""
    cache.mkdir(parents=True, exist_ok=True)
    try:
        spec.plan(version, cache_dir=cache, map_chunks=pool.executor.map if pool is not None else None)
    except CampaignError as err:
        raise CampaignError(f"{paper} figure {fig_id}: {err}") from None
    forget_plan(spec, version)


def counts_line(verdicts: list[Verdict]) -> str:
    """``12 hold, 5 do not hold, 2 not checkable (of 19 claims); 1 calibration; consistency
    tests: 2 pass, 0 fail, 1 not reached``; claims a quick campaign left undecided are counted
    apart (``..., 2 not checkable, 3 not checked in quick mode (of 22 claims)``)."""
    c = tally(verdicts)
    claims = c[CLAIM]
    n = sum(claims.values())
    quick = f", {claims[NOT_IN_QUICK]} not checked in quick mode" if claims[NOT_IN_QUICK] else ""
    text = (f"{counted(claims['holds'], 'holds', 'hold')}, {counted(claims['does not hold'], 'does not hold', 'do not hold')}, "
            f"{claims['not checkable']} not checkable{quick} (of {counted(n, 'claim')})")
    if c[CALIBRATION]["calibration"]:
        text += f"; {counted(c[CALIBRATION]['calibration'], 'calibration')}"
    tests = c[CONSISTENCY]
    if sum(tests.values()):
        text += (f"; consistency tests: {counted(tests['passes'], 'passes', 'pass')}, "
                 f"{counted(tests['fails'], 'fails', 'fail')}, "
                 f"{tests['not reached']} not reached")
    return text


_CATEGORY_NOTE = (
    "Only *claims* are results of the reproduction: each holds, does not hold, or is not checkable (the reason is "
    "given: the configurations are not in the results, the scenario has no randomness to compare, a mechanism the "
    "claim is about never engaged, or the claim asks for more than the metric's bound allows, 'as set up'); in "
    "quick mode, a claim the reduced campaign left undecided is *not checked in quick mode*, counted apart. A "
    "comparison holds only when its effect is in the stated band and its 95% confidence interval shows it (excludes "
    "zero, or lies inside a band around zero); configurations whose replications are identical count as one run. "
    "A *calibration* is a parameter we chose to hit one of the paper's numbers: it is reported with that "
    "number, never as a claim that holds. A *consistency test* checks our simulator against itself (a decision it "
    "reported against the state it traced) or against our reading of one of the paper's formulas: it can fail, but "
    "it reproduces nothing.")


def _markdown(outcome: ReproduceOutcome, quick: bool) -> str:
    from .. import __version__

    paper, ens = outcome.paper, outcome.ensemble
    lines = [f"# Reproduction: {paper.title} (`{paper.name}`)", "", paper.citation, "",
             f"vhsim {__version__} \u00b7 {'quick mode (reduced campaign)' if quick else 'full campaign'} "
             f"\u00b7 written {time.strftime('%Y-%m-%d %H:%M:%S %Z')} \u00b7 "
             f"`vhsim reproduce {paper.name}{' --quick' if quick else ''}{_ensemble_options(ens)}`", "",
             f"**{counts_line(outcome.verdicts)}.**", ""]
    if ens is not None:
        lines += [f"**{ens.counts_line()}** (sections at the end).", ""]
    lines += [_CATEGORY_NOTE, ""]
    statuses = [s for s in CATEGORIES[CLAIM] if quick or s != NOT_IN_QUICK]
    header = ["figure", *statuses, "calibration", "consistency tests (pass / fail / not reached)"]
    rows = []
    for f in outcome.figures:
        c = tally(f.verdicts)
        tests = c[CONSISTENCY]
        rows.append([f.figure.id, *(c[CLAIM][s] for s in statuses), c[CALIBRATION]["calibration"],
                     " / ".join(str(n) for n in tests.values()) if sum(tests.values()) else "\u2013"])
    lines += [markdown_table(header, rows), ""]
    for fig in outcome.figures:
        spec = fig.sweep.campaign.spec
        rel = os.path.relpath(fig.sweep.campaign.path, outcome.out)
        failed = f", {len(fig.sweep.failed)} failed" if fig.sweep.failed else ""
        lines += [f"## {fig.figure.id}: {fig.figure.title}", "",
                  f"Campaign: {spec.describe()}; {counted(fig.sweep.total, 'run')} ({fig.sweep.executed} run now, "
                  f"{fig.sweep.already_done} reused{failed}); folder `{rel}`.", ""]
        lines += [f"![{p.stem}]({os.path.relpath(p, outcome.out)})\n" for p in fig.files if p.suffix == ".png"]
        lines += [f"*In the figure:* {'; '.join(fig.notes)}.", ""] if fig.notes else []
        if fig.table:
            lines += ["### Our numbers", "", fig.table, ""]
        lines += _verdict_tables(fig.verdicts, ens.notes(fig.figure.id) if ens is not None else {})
    if ens is not None:
        from .ensemble import markdown

        lines += markdown(ens)
    return "\n".join(lines)


def _ensemble_options(ens: "Ensemble | None") -> str:
    if ens is None:
        return ""
    return (f" --robustness {len(ens.robust)}" if ens.robust else "") + (" --ambiguities" if ens.alternatives else "")


def _verdict_tables(verdicts: list[Verdict], notes: dict[str, list[str]] | None = None) -> list[str]:
    """One table per category; ``notes``: more columns (header -> one cell per verdict)."""
    notes = notes or {}
    sections = ((CLAIM, "The paper's claims and our results"), (CALIBRATION, "Calibrations"),
                (CONSISTENCY,
                 "Consistency tests (our simulator against itself or our reading of the paper's formulas)"))
    lines: list[str] = []
    for category, heading in sections:
        chosen = [i for i, v in enumerate(verdicts) if v.category == category]
        if chosen:
            rows = [[verdicts[i].claim.text, verdicts[i].claim.paper or "\u2013", verdicts[i].ours,
                     verdicts[i].rule or "\u2013", f"**{verdicts[i].status}**", *(cells[i] for cells in notes.values())]
                    for i in chosen]
            lines += [f"### {heading}", "", markdown_table(["the paper says", "paper", "ours", "rule", "verdict",
                                                            *notes], rows), ""]
    return lines
