"""A reproduction's figures finished -- result table, claims, plots -- in a process of their own
while the next figure's runs go on.

Plotting was the largest single piece of a reproduction's parent work (Daniel & Kojo: about a
third of the parent's CPU, docs/performance.md "The reproductions' work around the engine"), and
the table and the claims most of the rest; while the parent did them, the workers waited for the
next figure's runs. A :class:`Plotter` holds one or two extra processes, forked with the worker
pool (before any grid or plan exists, so they copy little); :meth:`Plotter.finish` hands one a swept
figure (by paper name and figure id) and its campaign folder, and returns a future of the files
written, the table of our numbers and the verdicts. They are the same as when the parent makes
them: the same function (:func:`vhsim.campaign.reproduce.figure_results`) reads the same
campaign folder.
"""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Callable

from .runner import WorkerPool

__all__ = ["Plotter", "finish_figure"]


def finish_figure(paper: str, figure: str, campaign_dir: Path, out: Path, quick: bool,
                  setup: Callable[[], None] | None = None) -> tuple[list[Path], str | None, list[tuple[str, str, str]]]:
    """Everything of a swept figure but its sweep, in any process: its result table built from
    the campaign folder's records, its derived columns, the table of our numbers, its claims
    judged and its plots drawn (:func:`vhsim.campaign.reproduce.figure_results`). Returns the
    files, the table's text and each claim's ``(status, ours, rule)`` in the figure's order
    (the caller puts its own claims back beside them). ``setup`` (a module-level function, e.g.
    an allocator setting; idempotent) is called first: with two plotting processes a task
    cannot be sent to each, so every task carries it."""
    from .reproduce import figure_results, papers
    from .store import open_campaign

    if setup is not None:
        setup()

    files, ours, verdicts = figure_results(papers()[paper].figure(figure), open_campaign(campaign_dir), out, quick)
    return files, ours, [(v.status, v.ours, v.rule) for v in verdicts]


class Plotter(WorkerPool):
    """Plotting processes, used as ``with Plotter(n) as plotter: plotter.finish(...)``: a
    :class:`WorkerPool` of ``processes`` (default one), forked when entered; ``setup`` runs in
    a process before each figure it finishes (:func:`finish_figure`).

    Two processes finish two figures at once: a paper of case studies (Sobral et al.: 70 runs,
    seconds of simulation, whole-trace plots) was otherwise waiting for one process to draw
    them all one after the other, while the workers had nothing left to run
    (docs/performance.md "Plots in two processes").

    Leaving the block waits for every plot (an error in one is raised by its future's
    ``result()``); an exception inside the block stops the processes at once."""

    def __init__(self, processes: int = 1, setup: Callable[[], None] | None = None) -> None:
        super().__init__(processes)
        self.setup = setup

    def finish(self, paper: str, figure: str, campaign_dir: Path, out: Path, quick: bool) -> Future:
        """Submit a swept figure's table, claims and plots (:func:`finish_figure`); the future's
        result is ``(files, table text, verdicts)``."""
        return self.executor.submit(finish_figure, paper, figure, Path(campaign_dir), Path(out), quick, self.setup)
