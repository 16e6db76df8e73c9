"""A progress line for one long simulation on stderr (``vhsim run``).

Shows simulated time against the run's duration, events per second and the time left, with
the progress library the sweeps use (rich).  It appears only when stderr is a terminal and
only after the run has taken :data:`SHOW_AFTER_S`, so short runs and scripts see nothing; it is
removed when the run ends.
"""

from __future__ import annotations

import sys
from typing import Any

from .control import Progress

__all__ = ["RunProgress"]

#: Runs shorter than this never show a progress line.
SHOW_AFTER_S = 1.0


class RunProgress:
    """Callable for ``Scenario.run(progress=...)``; use as a context manager."""

    def __init__(self, enabled: bool | None = None, label: str = "simulating") -> None:
        self.enabled = sys.stderr.isatty() if enabled is None else bool(enabled)
        self.label = label
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> "RunProgress":
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def _start(self, p: Progress) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress as Bar, TextColumn, TimeRemainingColumn

        self._bar = Bar(
            TextColumn("{task.description}"), BarColumn(),
            TextColumn("{task.fields[sim]} / {task.fields[end]} simulated"),
            TextColumn("{task.fields[rate]}"), TextColumn("ETA"), TimeRemainingColumn(),
            console=Console(stderr=True), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.label, total=p.end_s or 1.0, sim="", end="", rate="")

    def __call__(self, p: Progress) -> None:
        if not self.enabled or p.wall_s < SHOW_AFTER_S:
            return
        if self._bar is None:
            self._start(p)
        self._bar.update(self._task, completed=p.sim_s, sim=_seconds(p.sim_s), end=_seconds(p.end_s),
                         rate=f"{p.events_per_s / 1e6:.1f} M events/s")


def _seconds(s: float) -> str:
    if s >= 86400 * 2:
        return f"{s / 86400:,.1f} d"
    if s >= 7200:
        return f"{s / 3600:,.1f} h"
    return f"{s:,.1f} s"
