"""Throughput benchmark of the simulator (``vhsim bench``).

Three fixed scenarios (``BENCH_CASES``): one bulk TCP flow over a bottleneck, the same with 1%
loss, and a handover run (Daniel & Kojo's Figure 8, make-before-break). Each runs ``repeat``
times with ``detail="summary"`` in a worker process of its own (so that its peak resident
memory is its own); the run with the smallest wall time is reported (the usual way to take
noise out of a timing on a shared machine), with its events per delivered segment, which do
not depend on the machine's load.

``--compare REV`` builds revision REV in a git worktree with the release profile
(:mod:`vhsim.bench_compare`) and runs both builds alternately, run by run, the way README's
side-by-side figures are taken: a run of one build, then one of the other, ``repeat`` times.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Sequence



@dataclass(frozen=True)
class BenchCase:
    """A benchmark scenario: its label, its file relative to the repository root, and the
    overrides ``--quick`` applies to it."""

    label: str
    file: str
    quick: tuple[tuple[str, str], ...] = ()


#: The benchmark (README "Benchmark"). The handover run is 20 s long already.
BENCH_CASES = (
    BenchCase("bulk", "benches/bulk-sack1.toml", (("duration", "30s"),)),
    BenchCase("loss 1%", "benches/bulk-sack1-loss1pct.toml", (("duration", "30s"),)),
    BenchCase("handover", "scenarios/danielkojo/fig08-mbb.toml"),
)

__all__ = ["BENCH_CASES", "BenchCase", "Build", "BenchRow", "find_bench_files", "run_bench", "format_table",
           "environment"]

# Runs in a worker process with the build under test on its path: only the public API that
# every revision has (load, set, run), so that an older revision can be measured too. One
# line "run" on stdin = one run; its figures and the process's peak RSS go to stdout.
_WORKER = r"""
import json, resource, sys
import vhsim
path, overrides, seed = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
sc = vhsim.load(path)
for k, v in overrides:
    sc = sc.set(k, v)
for line in sys.stdin:
    if line.strip() != "run":
        break
    s = sc.run(seed=seed, detail="summary").summary
    print(json.dumps({"scenario": s.get("scenario"), "sim_s": s["sim_s"], "wall_s": s["wall_s"],
                      "events": s["events"], "delivered_segments": s.get("delivered_segments", 0),
                      "peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}), flush=True)
"""


@dataclass(frozen=True)
class Build:
    """A build of vhsim to measure: the installed one (``python_path=None``) or another
    revision's Python package with its native module (``vhsim.bench_compare``)."""

    label: str
    python_path: str | None = None
    #: The tree whose benchmark scenarios this build runs (None: the benchmark's ``root``). A
    #: revision runs its own files: a newer file may state a key an older build does not know
    #: (e.g. the top-level ``defaults``), and the event counts printed with each row show
    #: whether the two files describe the same run.
    scenario_root: str | None = None


CURRENT = Build("this build")


@dataclass
class BenchRow:
    """Best-of-N timing of one benchmark scenario with one build."""

    scenario: str
    file: str
    build: str
    repeat: int
    sim_s: float
    wall_s: float
    events: int
    events_per_s: float
    delivered_segments: int
    segments_per_wall_s: float
    events_per_segment: float
    peak_rss_mb: float

    def as_dict(self) -> dict:
        return asdict(self)


def find_bench_files(root: str | os.PathLike[str], cases: Sequence[BenchCase] = BENCH_CASES) -> list[Path]:
    """Paths of the benchmark scenarios under the repository root; FileNotFoundError naming
    all missing ones."""
    base = Path(root)
    paths = [base / c.file for c in cases]
    missing = [os.fspath(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(
            "benchmark scenario(s) missing: " + ", ".join(missing)
            + " (run from the repository root, or pass --root)"
        )
    return paths


class _Worker:
    """A worker process running one scenario with one build, run by run."""

    def __init__(self, build: Build, path: Path, overrides: list[tuple[str, str]], seed: int | None):
        env = dict(os.environ)
        if build.python_path is not None:
            env["PYTHONPATH"] = build.python_path + os.pathsep + env.get("PYTHONPATH", "")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _WORKER, os.fspath(path), json.dumps(overrides), json.dumps(seed)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    def run(self) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("run\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            err = self.proc.stderr.read() if self.proc.stderr else ""
            raise RuntimeError(f"benchmark worker failed: {err.strip().splitlines()[-1] if err.strip() else 'no output'}")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait()


def run_bench(
    root: str | os.PathLike[str],
    cases: Sequence[BenchCase] = BENCH_CASES,
    repeat: int = 3,
    quick: bool = False,
    seed: int | None = None,
    builds: Sequence[Build] = (CURRENT,),
    on_run: Callable[[str, int], None] | None = None,
) -> list[BenchRow]:
    """Run each scenario ``repeat`` times with each build, the builds alternating run by
    run; return the fastest run of each (scenario, build).

    ``on_run(scenario_file, index)`` is called after every round (progress bars).
    """
    if repeat < 1:
        raise ValueError("repeat must be at least 1")
    rows = []
    paths = {b.scenario_root: find_bench_files(b.scenario_root or root, cases) for b in builds}
    for k, (case, path) in enumerate(zip(cases, find_bench_files(root, cases))):
        overrides = list(case.quick) if quick else []
        workers = [_Worker(b, paths[b.scenario_root][k], overrides, seed) for b in builds]
        best: list[dict | None] = [None] * len(builds)
        try:
            for i in range(repeat):
                for j, w in enumerate(workers):
                    r = w.run()
                    # The fastest run; the peak RSS is the worker's, whichever run reached it.
                    prev = best[j]
                    if prev is None or r["wall_s"] < prev["wall_s"]:
                        best[j] = {**r, "peak_rss_kb": max(r["peak_rss_kb"], prev["peak_rss_kb"] if prev else 0)}
                    else:
                        prev["peak_rss_kb"] = max(prev["peak_rss_kb"], r["peak_rss_kb"])
                if on_run is not None:
                    on_run(os.fspath(path), i)
        finally:
            for w in workers:
                w.close()
        for b, r in zip(builds, best):
            assert r is not None
            rows.append(_row(r, path, b, repeat, case.label))
    return rows


def _row(r: dict, path: Path, build: Build, repeat: int, label: str) -> BenchRow:
    wall, events, delivered = float(r["wall_s"]), int(r["events"]), int(r["delivered_segments"])
    return BenchRow(
        scenario=label,
        file=os.fspath(path),
        build=build.label,
        repeat=repeat,
        sim_s=float(r["sim_s"]),
        wall_s=wall,
        events=events,
        events_per_s=events / wall if wall > 0 else float("inf"),
        delivered_segments=delivered,
        segments_per_wall_s=delivered / wall if wall > 0 else float("inf"),
        events_per_segment=events / delivered if delivered else float("nan"),
        peak_rss_mb=r["peak_rss_kb"] / 1024,
    )


def environment() -> dict:
    """Machine and version facts printed with benchmark numbers, with the load average (the
    machine is idle only if it is well below the number of CPUs)."""
    from . import __version__

    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "vhsim_version": __version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.system(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "load_average": load,
    }


def _si(x: float) -> str:
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(x) >= div:
            return f"{x / div:.2f} {suffix}"
    return f"{x:.0f}"


def format_table(rows: Sequence[BenchRow]) -> str:
    """Aligned plain-text table of benchmark rows; with more than one build, each build's
    speed relative to the first one's on the same scenario."""
    builds = list(dict.fromkeys(r.build for r in rows))
    header = ["scenario", "build", "sim s", "wall s", "events", "events/seg", "events/s", "segments/wall-s",
              "peak RSS MB"] + (["speed vs first build"] if len(builds) > 1 else [])
    first = {r.scenario: r for r in rows if r.build == builds[0]}
    body = []
    for r in rows:
        cells = [r.scenario, r.build, f"{r.sim_s:.1f}", f"{r.wall_s:.4g}", f"{r.events:,}",
                 f"{r.events_per_segment:.2f}", _si(r.events_per_s), _si(r.segments_per_wall_s), f"{r.peak_rss_mb:.0f}"]
        if len(builds) > 1:
            cells.append(f"{first[r.scenario].wall_s / r.wall_s:.2f}x" if r.wall_s > 0 else "-")
        body.append(cells)
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = []
    for j, row in enumerate([header, *body]):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])] + [c.rjust(w) for c, w in zip(row[2:], widths[2:])]
        lines.append("  ".join(cells).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)
