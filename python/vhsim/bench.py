"""Throughput benchmark of the simulator on fixed scenarios (``vhsim bench``).

Each scenario runs ``repeat`` times with ``detail="summary"``; the run with
the smallest wall time is reported (the usual way to take noise out of a
timing on a shared machine).
"""

from __future__ import annotations

import os
import platform
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Sequence

#: Scenario files of the benchmark, relative to the benchmark folder.
BENCH_FILES = ("bulk-sack1.toml", "bulk-sack1-loss1pct.toml")

#: Override used by ``--quick``.
QUICK_OVERRIDE = ("duration", "30s")

__all__ = ["BENCH_FILES", "BenchRow", "find_bench_files", "run_bench", "format_table", "environment"]


@dataclass
class BenchRow:
    """Best-of-N timing of one benchmark scenario."""

    scenario: str
    file: str
    repeat: int
    sim_s: float
    wall_s: float
    events: int
    events_per_s: float
    delivered_segments: int
    segments_per_wall_s: float

    def as_dict(self) -> dict:
        return asdict(self)


def find_bench_files(directory: str | os.PathLike[str], names: Sequence[str] = BENCH_FILES) -> list[Path]:
    """Paths of the benchmark scenarios; FileNotFoundError naming all missing ones."""
    base = Path(directory)
    paths = [base / n for n in names]
    missing = [os.fspath(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(
            "benchmark scenario(s) missing: " + ", ".join(missing)
            + " (run from the repository root, or pass --dir)"
        )
    return paths


def run_bench(
    paths: Sequence[str | os.PathLike[str]],
    repeat: int = 3,
    quick: bool = False,
    seed: int | None = None,
    on_run: Callable[[str, int], None] | None = None,
) -> list[BenchRow]:
    """Run each scenario ``repeat`` times; return the fastest run of each.

    ``on_run(scenario_file, index)`` is called after every run (progress bars).
    """
    from .scenario import load

    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    rows = []
    for path in paths:
        sc = load(path)
        if quick:
            sc = sc.set(*QUICK_OVERRIDE)
        best: dict | None = None
        for i in range(repeat):
            summary = sc.run(seed=seed, detail="summary").summary
            if best is None or float(summary["wall_s"]) < float(best["wall_s"]):
                best = summary
            if on_run is not None:
                on_run(os.fspath(path), i)
        assert best is not None
        wall = float(best["wall_s"])
        delivered = int(best.get("delivered_segments", 0))
        rows.append(
            BenchRow(
                scenario=str(best.get("scenario", Path(path).stem)),
                file=os.fspath(path),
                repeat=repeat,
                sim_s=float(best["sim_s"]),
                wall_s=wall,
                events=int(best["events"]),
                events_per_s=float(best.get("events_per_s") or (int(best["events"]) / wall if wall > 0 else 0.0)),
                delivered_segments=delivered,
                segments_per_wall_s=delivered / wall if wall > 0 else float("inf"),
            )
        )
    return rows


def environment() -> dict:
    """Machine and version facts printed with benchmark numbers."""
    from . import __version__

    return {
        "vhsim_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.system(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }


def _si(x: float) -> str:
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.2f} {suffix}"
    return f"{x:.0f}"


def format_table(rows: Sequence[BenchRow]) -> str:
    """Aligned plain-text table of benchmark rows."""
    header = ["scenario", "sim s", "wall s", "events", "events/s", "segments/wall-s"]
    body = [
        [r.scenario, f"{r.sim_s:.1f}", f"{r.wall_s:.4g}", f"{r.events:,}", _si(r.events_per_s),
         _si(r.segments_per_wall_s)]
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = []
    for j, row in enumerate([header, *body]):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
