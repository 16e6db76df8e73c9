"""Running the matrix: one campaign per entry, then the cells, the table and the heat maps.

Each entry's campaign lives in ``OUT/campaigns/<entry>`` and is an ordinary campaign folder
(``vhsim.campaign.open`` reads it; ``vhsim sweep --campaign`` resumes it): a second call runs
only what is missing, and a call with other ``--schemes`` reuses every run already stored.
Every campaign is validated before the first run starts.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from ..campaign.axes import CampaignError
from ..campaign.runner import SweepReport, WorkerPool, default_workers, run_campaign
from .compare import Cell, cells
from .spec import Entry, MatrixSpec

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["MatrixOutcome", "EntryOutcome", "run_matrix"]


@dataclass
class EntryOutcome:
    entry: Entry
    sweep: SweepReport
    results: "pd.DataFrame"
    cells: list[Cell]
    refused: dict[str, str] = field(default_factory=dict)  # scheme -> why it cannot run here


@dataclass
class MatrixOutcome:
    spec: MatrixSpec
    out: Path
    entries: list[EntryOutcome] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def cells(self) -> list[Cell]:
        return [c for e in self.entries for c in e.cells]

    @property
    def failed_runs(self) -> int:
        return sum(len(e.sweep.failed) for e in self.entries)

    @property
    def executed(self) -> int:
        return sum(e.sweep.executed for e in self.entries)

    @property
    def total(self) -> int:
        return sum(e.sweep.total for e in self.entries)


def run_matrix(
    spec: MatrixSpec,
    out: str | os.PathLike[str] = "out/matrix",
    *,
    workers: int | None = None,
    dask: str | None = None,
    progress: bool | None = None,
    rerun_other_versions: bool = False,
    on_entry: Callable[[Entry], None] | None = None,
) -> MatrixOutcome:
    """Run (or resume) every entry's campaign into ``out/campaigns/<entry>``, compare every cell
    with its baseline and write ``out/matrix.md``, ``out/cells.csv`` and the heat maps."""
    from .. import __version__
    from .report import write_report

    started = time.perf_counter()
    out_dir = Path(out)
    outcome = MatrixOutcome(spec, out_dir)
    n = default_workers() if workers is None else max(1, int(workers))
    # One warm pool for every entry, started before the campaigns are planned (runner.WorkerPool).
    with WorkerPool(n) if n > 1 and not dask else contextlib.nullcontext() as pool:
        plans = spec.campaigns()
        for entry, campaign, _ in plans:  # every definition valid before the first run
            try:
                campaign.plan(__version__, cache_dir=_folder(out_dir, entry), write_cache=False)
            except CampaignError as err:
                raise CampaignError(f"matrix scenario {entry.name}: {err}") from None
        for entry, campaign, refused in plans:
            if on_entry is not None:
                on_entry(entry)
            sweep = run_campaign(campaign, _folder(out_dir, entry), workers=n, dask=dask, progress=progress,
                                 rerun_other_versions=rerun_other_versions, pool=pool)
            df = sweep.campaign.results()
            outcome.entries.append(EntryOutcome(entry, sweep, df, cells(df, entry, spec.metrics,
                                                                        spec.schemes_for(entry)), refused))
            sweep.campaign.forget_plans()
    outcome.wall_s = time.perf_counter() - started
    outcome.files = write_report(outcome)
    return outcome


def _folder(out: Path, entry: Entry) -> Path:
    return out / "campaigns" / entry.name
