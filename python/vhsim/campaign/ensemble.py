"""Robustness labels and the ambiguity matrix of a reproduction (``vhsim reproduce P
--robustness N``, ``--ambiguities``; docs/campaigns.md "Robustness and ambiguities").

* **Robustness**: every figure is run again as N variants of the paper's declared
  :class:`~vhsim.campaign.variants.Perturbation`; each claim gets a :class:`Label` from the
  verdicts of the variants against the default run's verdict (:func:`label`).
* **Ambiguities**: every figure is run again under each of the paper's declared
  :class:`~vhsim.campaign.variants.Alternative` readings, one at a time from the default; a
  claim whose verdict changes under an alternative *depends on* that unstated choice.

Each variant is a campaign folder of its own (``OUT/robustness/variant-<k>/<figure>/campaign``,
``OUT/ambiguities/<name>/<figure>/campaign``), resumable like any; a configuration an
alternative leaves alone reuses the default run (its record line is copied and its traces
linked, not run again).  The verdicts are the :class:`~vhsim.campaign.claims.Verdict` objects the figure's
claims give, compared by status; calibrations are parameters, not verdicts, and get no label.
"""

from __future__ import annotations

import csv
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from .claims import CALIBRATION, Verdict
from .figures import FigureSpec, markdown_table
from .variants import Alternative, Draw, Rewrite, alternative_spec, perturbed_spec
from ..wording import counted

if TYPE_CHECKING:  # pragma: no cover
    from .figures import Paper
    from .reproduce import FigureOutcome
    from .spec import CampaignSpec
    from .store import Campaign

__all__ = ["Ensemble", "Label", "ROBUST_SHARE", "check_declared", "label", "run_ensemble"]

ROBUST, FRAGILE, FLIPS = "robust", "fragile", "flips"
#: "robust": the default run's verdict in at least this share of the variants.
ROBUST_SHARE = 0.9
SAME, NOT_APPLICABLE = "=", "n/a"
NO_VERDICT = "\u2013"  # a calibration's cell: a parameter, not a verdict

#: ``(figure, campaign spec, folder) -> the figure's outcome`` (runs, derives, judges; no plots).
RunFigure = Callable[[FigureSpec, "CampaignSpec", Path], "FigureOutcome"]


@dataclass(frozen=True)
class Label:
    """How many of ``n`` variants gave the default verdict, and what that makes the claim."""

    kind: str
    agree: int
    n: int

    def __str__(self) -> str:
        return f"{self.kind} ({self.agree}/{self.n})"


def label(default: str, variants: Sequence[str]) -> Label:
    """``robust`` when at least :data:`ROBUST_SHARE` of the variants give ``default``;
    ``flips`` when fewer than half do (most variants say otherwise); ``fragile`` in between."""
    n = len(variants)
    if n == 0:
        raise ValueError("a robustness label needs at least one variant")
    agree = sum(1 for v in variants if v == default)
    if agree >= ROBUST_SHARE * n - 1e-9:
        return Label(ROBUST, agree, n)
    return Label(FLIPS if 2 * agree < n else FRAGILE, agree, n)


@dataclass
class VariantFigure:
    """One figure under one variant: its rewrite, and its verdicts when it ran (None: n/a)."""

    rewrite: Rewrite
    verdicts: list[Verdict] | None = None
    runs: int = 0
    failed: int = 0


@dataclass
class Ensemble:
    """The variants' verdicts beside the default run's (``defaults``, one outcome per figure)."""

    paper: "Paper"
    defaults: list["FigureOutcome"]
    out: Path
    draws: list[Draw] = field(default_factory=list)
    robust: list[dict[str, VariantFigure]] = field(default_factory=list)   # per variant, by figure id
    alternatives: tuple[Alternative, ...] = ()
    ambiguous: dict[str, dict[str, VariantFigure]] = field(default_factory=dict)  # by alternative name
    files: list[Path] = field(default_factory=list)

    @property
    def failed_runs(self) -> int:
        every = [*(v for r in self.robust for v in r.values()), *(v for a in self.ambiguous.values() for v in a.values())]
        return sum(v.failed for v in every)

    # -- per claim ------------------------------------------------------------------------------------
    def labels(self, fig_id: str) -> list[Label | None]:
        """One label per verdict of the figure (None for a calibration, or without variants)."""
        default = self._default(fig_id)
        if not self.robust:
            return [None] * len(default)
        out: list[Label | None] = []
        for i, v in enumerate(default):
            if v.category == CALIBRATION:
                out.append(None)
                continue
            out.append(label(v.status, [r[fig_id].verdicts[i].status for r in self.robust
                                        if r[fig_id].verdicts is not None]))
        return out

    def cells(self, fig_id: str, name: str) -> list[str]:
        """Alternative ``name``'s verdict per claim of the figure: ``=``, another status, ``n/a``."""
        default = self._default(fig_id)
        run = self.ambiguous[name].get(fig_id)  # absent: a figure without claims
        if run is None or run.verdicts is None:
            return [NOT_APPLICABLE] * len(default)
        return [NO_VERDICT if d.category == CALIBRATION else SAME if a.status == d.status else a.status
                for d, a in zip(default, run.verdicts)]

    def depends_on(self, fig_id: str) -> list[list[str]]:
        """Per claim of the figure, the alternatives under which its verdict changes."""
        names = [a.name for a in self.alternatives]
        columns = [self.cells(fig_id, n) for n in names]
        return [[n for n, col in zip(names, columns) if col[i] not in (SAME, NOT_APPLICABLE, NO_VERDICT)]
                for i in range(len(self._default(fig_id)))]

    def notes(self, fig_id: str) -> dict[str, list[str]]:
        """Extra columns of the figure's verdict tables: the label and the dependence."""
        out: dict[str, list[str]] = {}
        if self.robust:
            out[f"robustness ({counted(len(self.robust), 'variant')})"] = [str(lab) if lab else "\u2013" for lab in self.labels(fig_id)]
        if self.alternatives:
            out["depends on (unstated choices)"] = [", ".join(d) or "none" for d in self.depends_on(fig_id)]
        return out

    def summaries(self, fig_id: str) -> list[str]:
        """Per verdict of the figure, one line: ``robust (5/5); depends on: rtx-timeouts-only``."""
        labels = self.labels(fig_id)
        deps = self.depends_on(fig_id) if self.alternatives else [[] for _ in labels]
        return ["; ".join(([str(lab)] if lab else []) + ([f"depends on: {', '.join(d)}"] if d else []))
                for lab, d in zip(labels, deps)]

    def _default(self, fig_id: str) -> list[Verdict]:
        return next(f.verdicts for f in self.defaults if f.figure.id == fig_id)

    # -- counts ---------------------------------------------------------------------------------------
    def counts_line(self) -> str:
        parts = []
        if self.robust:
            labels = [lab for f in self.defaults for lab in self.labels(f.figure.id) if lab is not None]
            tally = {k: sum(1 for lab in labels if lab.kind == k) for k in (ROBUST, FRAGILE, FLIPS)}
            parts.append(f"robustness over {counted(len(self.robust), 'perturbed variant')}: {tally[ROBUST]} robust, "
                         f"{tally[FRAGILE]} fragile, {tally[FLIPS]} flips (of {counted(len(labels), 'verdict')})")
        if self.alternatives:
            deps = [d for f in self.defaults for d, v in zip(self.depends_on(f.figure.id), f.verdicts)
                    if v.category != CALIBRATION]
            flips = {a.name: len(self.changes(a.name)) for a in self.alternatives}
            each = ", ".join(f"{name} {n}" for name, n in flips.items() if n)
            parts.append(f"{sum(1 for d in deps if d)} of {counted(len(deps), 'verdict')} change under at least one "
                         f"of {counted(len(self.alternatives), 'alternative reading')}"
                         + (f" ({each})" if each else ""))
        return "; ".join(parts)

    def changes(self, name: str) -> list[tuple[str, Verdict, str]]:
        """The verdicts alternative ``name`` changes: (figure, default verdict, its verdict)."""
        out = []
        for f in self.defaults:
            for v, cell in zip(f.verdicts, self.cells(f.figure.id, name)):
                if cell not in (SAME, NOT_APPLICABLE, NO_VERDICT):
                    out.append((f.figure.id, v, cell))
        return out


# -- running -------------------------------------------------------------------------------------------
def run_ensemble(paper: "Paper", specs: Sequence[tuple[FigureSpec, "CampaignSpec"]], defaults: list["FigureOutcome"],
                 out: Path, run_figure: RunFigure, *, robustness: int = 0, ambiguities: bool = False,
                 on_variant: Callable[[str], None] | None = None) -> Ensemble:
    """Run the variants of every figure of ``specs`` (whose default outcomes are ``defaults``)."""
    check_declared(paper, robustness, ambiguities)
    ens = Ensemble(paper, defaults, out, alternatives=tuple(paper.ambiguities) if ambiguities else ())
    say = on_variant or (lambda text: None)
    homes = {f.figure.id: f.sweep.campaign for f in defaults}
    specs = [(fig, spec) for fig, spec in specs if fig.claims]  # a figure without claims has nothing to label
    for k in range(1, robustness + 1):
        draw = paper.perturbation.draw(paper.name, k)
        ens.draws.append(draw)
        ens.robust.append({})
        for fig, spec in specs:
            say(f"robustness variant {k}/{robustness}, figure {fig.id}")
            ens.robust[-1][fig.id] = _run(fig, perturbed_spec(spec, draw), out / "robustness" / f"variant-{k}" / fig.id,
                                         run_figure, None)
    for alt in ens.alternatives:
        ens.ambiguous[alt.name] = {}
        for fig, spec in specs:
            rewrite = alternative_spec(spec, alt)
            say(f"alternative {alt.name}, figure {fig.id}: {'applies to ' if rewrite.spec else ''}{rewrite.describe()}")
            ens.ambiguous[alt.name][fig.id] = _run(fig, rewrite, out / "ambiguities" / alt.name / fig.id, run_figure,
                                                   homes[fig.id])
    ens.files = _write_files(ens)
    return ens


def check_declared(paper: "Paper", robustness: int, ambiguities: bool) -> None:
    """Raise a one-line :class:`CampaignError` if the paper declares nothing for what is asked."""
    from .axes import CampaignError

    if robustness and paper.perturbation is None:
        raise CampaignError(f"paper {paper.name} declares no perturbation (Paper.perturbation), so it has no "
                            "robustness variants")
    if ambiguities and not paper.ambiguities:
        raise CampaignError(f"paper {paper.name} declares no alternative readings (Paper.ambiguities)")


def _run(fig: FigureSpec, rewrite: Rewrite, fig_dir: Path, run_figure: RunFigure, home: "Campaign | None") -> VariantFigure:
    if rewrite.spec is None:
        return VariantFigure(rewrite)
    if home is not None:
        _reuse_runs(home, fig_dir / "campaign", rewrite.spec)
    outcome = run_figure(fig, rewrite.spec, fig_dir)
    return VariantFigure(rewrite, outcome.verdicts, outcome.sweep.total, len(outcome.sweep.failed))


def _reuse_runs(home: "Campaign", folder: Path, spec: "CampaignSpec") -> None:
    """Reuse in ``folder`` the runs of ``home`` (the default campaign) that ``spec`` also has:
    the configurations an alternative leaves alone keep their run ids."""
    from .store import Campaign

    version = home.active_version
    have = home.done_ids(version)
    shared = [r.run_id for r in spec.plan(version) if r.run_id in have]
    if not shared:
        return
    camp = Campaign.prepare(folder, spec, version)
    new = [run_id for run_id in shared if run_id not in camp.stored_ids(version)]
    for run_id in new:
        traces = home.trace_dir(run_id)
        if traces.is_dir() and not camp.trace_dir(run_id).exists():
            shutil.copytree(traces, camp.trace_dir(run_id), copy_function=_link)
    camp.adopt(home, new, version)  # the records last: they mark the runs done


def _link(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system: copy
        shutil.copy2(src, dst)


# -- report ----------------------------------------------------------------------------------------------
def markdown(ens: Ensemble) -> list[str]:
    """The report's sections on robustness and ambiguities (also written to their own files)."""
    return [*_robustness_markdown(ens), *_ambiguity_markdown(ens)]


def _rows(ens: Ensemble) -> list[tuple[str, int, Verdict]]:
    return [(f.figure.id, i, v) for f in ens.defaults for i, v in enumerate(f.verdicts)]


def _robustness_markdown(ens: Ensemble) -> list[str]:
    if not ens.robust:
        return []
    n, paper = len(ens.robust), ens.paper
    lines = [f"## Robustness: {counted(n, 'perturbed variant')}", "",
             f"**The perturbation** (declared in the paper module): {paper.perturbation.describe()}.", "",
             f"Variant k draws its values from the named seed `vhsim-robustness/{paper.name}/variant-k` (the same in "
             "every figure and every call); each variant is a campaign of its own under `robustness/variant-k/`. "
             f"A verdict is **robust** when at least {ROBUST_SHARE:.0%} of the variants give the same verdict as the "
             "default run, **flips** when fewer than half do, **fragile** otherwise (k/N: the variants that agree). "
             "Calibrations are parameters, not verdicts: no label. `=` below: the default run's verdict.", ""]
    rows = []
    for k, (draw, figs) in enumerate(zip(ens.draws, ens.robust), start=1):
        runs = sum(v.runs for v in figs.values())
        failed = sum(v.failed for v in figs.values())
        rows.append([k, "; ".join(f"{item}: {value}" for item, value in draw.drawn.items()),
                     f"{runs}" + (f" ({failed} failed)" if failed else "")])
    lines += [markdown_table(["variant", "drawn values", "runs"], rows), ""]
    rows = []
    for fig_id, i, v in _rows(ens):
        lab = ens.labels(fig_id)[i]
        if lab is None:
            continue
        cells = [SAME if r[fig_id].verdicts[i].status == v.status else r[fig_id].verdicts[i].status for r in ens.robust]
        rows.append([fig_id, v.claim.text, f"**{v.status}**", *cells, f"**{lab}**"])
    lines += [markdown_table(["figure", "the paper says", "verdict", *(f"v{k}" for k in range(1, n + 1)), "label"],
                             rows), ""]
    return lines


def _ambiguity_markdown(ens: Ensemble) -> list[str]:
    if not ens.alternatives:
        return []
    lines = ["## Ambiguities: the paper's unstated choices", "",
             "Each alternative reading below (declared in the paper module) is run alone, every other choice at its "
             "default; a configuration it does not change (an option of one scheme, say) keeps the default run. "
             "`=`: the same verdict as the default run; `n/a`: the alternative does not apply to the figure. A "
             "verdict that changes under an alternative **depends on** that choice: the paper's silence, not our "
             "simulator, decides it.", ""]
    for alt in ens.alternatives:
        lines += [f"* **{alt.name}** ({alt.describe()}): {alt.text}. Ours: {alt.ours}.",
                  f"  Applied: {_applicability(ens.ambiguous[alt.name])}."]
    lines.append("")
    names = [a.name for a in ens.alternatives]
    rows = []
    for f in ens.defaults:
        fig_id = f.figure.id
        columns = [ens.cells(fig_id, name) for name in names]
        for i, (v, deps) in enumerate(zip(f.verdicts, ens.depends_on(fig_id))):
            if v.category == CALIBRATION:
                continue
            cells = [col[i] if col[i] in (SAME, NOT_APPLICABLE) else f"**{col[i]}**" for col in columns]
            rows.append([fig_id, v.claim.text, f"**{v.status}**", *cells, ", ".join(deps) or "none"])
    lines += [markdown_table(["figure", "the paper says", "verdict", *names, "depends on"], rows), ""]
    lines += ["### The verdicts each alternative changes", ""]
    for alt in ens.alternatives:
        changes = ens.changes(alt.name)
        lines.append(f"* **{alt.name}**: " + (f"{len(changes)}" if changes else "none"))
        lines += [f"  - {fig_id}: {v.claim.text} -- {v.status} \u2192 {status}" for fig_id, v, status in changes]
    lines.append("")
    return lines


def _applicability(runs: dict[str, VariantFigure]) -> str:
    """``every configuration of fig8, fig9; fig3: 40 of 160 configurations (elsewhere: ...); not to fig9-x (why)``."""
    whole = [f for f, r in runs.items() if r.rewrite.spec is not None and r.rewrite.applied == r.rewrite.total]
    parts = [f"every configuration of {', '.join(whole)}"] if whole else []
    parts += [f"{f}: {r.rewrite.describe()}" for f, r in runs.items()
              if r.rewrite.spec is not None and r.rewrite.applied < r.rewrite.total]
    parts += [f"not to {f} ({r.rewrite.why_not})" for f, r in runs.items() if r.rewrite.spec is None]
    return "; ".join(parts) or "no figure"


def _write_files(ens: Ensemble) -> list[Path]:
    """``robustness.csv`` / ``.md`` and ``ambiguities.csv`` / ``.md`` in the output folder."""
    ens.out.mkdir(parents=True, exist_ok=True)
    files = []
    if ens.robust:
        n = len(ens.robust)
        rows = []
        for fig_id, i, v in _rows(ens):
            lab = ens.labels(fig_id)[i]
            statuses = [r[fig_id].verdicts[i].status if r[fig_id].verdicts is not None else NOT_APPLICABLE
                        for r in ens.robust]
            rows.append([fig_id, i, v.category, v.claim.text, v.status, *statuses,
                         lab.agree if lab else "", lab.kind if lab else ""])
        files.append(_csv(ens.out / "robustness.csv", ["figure", "claim", "category", "the paper says", "verdict",
                                                       *(f"variant {k}" for k in range(1, n + 1)), "agree", "label"],
                          rows))
        files.append(_text(ens.out / "robustness.md", _robustness_markdown(ens)))
    if ens.alternatives:
        names = [a.name for a in ens.alternatives]
        rows = []
        for f in ens.defaults:
            runs = [ens.ambiguous[name].get(f.figure.id) for name in names]
            for i, (v, deps) in enumerate(zip(f.verdicts, ens.depends_on(f.figure.id))):
                cells = [r.verdicts[i].status if r is not None and r.verdicts is not None else NOT_APPLICABLE
                         for r in runs]
                rows.append([f.figure.id, i, v.category, v.claim.text, v.status, *cells, " ".join(deps)])
        files.append(_csv(ens.out / "ambiguities.csv", ["figure", "claim", "category", "the paper says", "verdict",
                                                        *names, "depends on"], rows))
        files.append(_text(ens.out / "ambiguities.md", _ambiguity_markdown(ens)))
    return files


def _csv(path: Path, header: list[str], rows: list[list]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _text(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
