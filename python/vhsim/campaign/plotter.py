"""A reproduction's plots drawn in a process of their own while the next figure's runs go on.

Plotting is the largest single piece of a reproduction's parent work (Daniel & Kojo: about a
third of the parent's CPU, docs/performance.md "The reproductions' work around the engine"),
and while the parent plots, the workers wait for the next figure's runs. A :class:`Plotter`
holds one extra process, forked with the worker pool (before any grid or plan exists, so it
copies little); :meth:`Plotter.draw` hands it a figure (by paper name and figure id), its
campaign folder and its derived table, and returns a future of the files written. The plots
are the same files as when the parent draws them: the same function reads the same campaign
folder and the same table.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from .runner import WorkerPool

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Plotter", "draw_figure"]


def draw_figure(paper: str, figure: str, campaign_dir: Path, table: "pd.DataFrame", out: Path) -> list[Path]:
    """Draw figure ``figure`` of paper ``paper`` from its campaign folder and derived ``table``
    into folder ``out`` (what the parent's ``FigureSpec.draw`` does, in any process)."""
    from .reproduce import papers
    from .store import open_campaign

    return papers()[paper].figure(figure).draw(open_campaign(campaign_dir), table, out)


class Plotter(WorkerPool):
    """One plotting process, used as ``with Plotter() as plotter: plotter.draw(...)``: a
    :class:`WorkerPool` of one, forked when entered.

    Leaving the block waits for every plot (an error in one is raised by its future's
    ``result()``); an exception inside the block stops the process at once."""

    def __init__(self) -> None:
        super().__init__(1)

    def draw(self, paper: str, figure: str, campaign_dir: Path, table: "pd.DataFrame", out: Path) -> Future:
        """Submit one figure's plots; the future's result is the files written (a ``Drawn``)."""
        return self.executor.submit(draw_figure, paper, figure, Path(campaign_dir), table, Path(out))
