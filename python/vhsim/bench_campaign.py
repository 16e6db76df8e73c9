"""Campaign benchmark (``vhsim bench --campaign``): a handover study's cost per run.

The grid is Daniel & Kojo's: ``scenarios/danielkojo/base.toml`` (6400 kb/s / 9 ms -> 200 kb/s
/ 300 ms, make-before-break), the handoff at 200 instants 1.0, 1.1, ... 20.9 s, each run going
on for the reproduction's horizon after its instant (100 s for a 200 kb/s new link). It is run

* as independent runs, in this process;
* as branches of one trunk (``Scenario.branch``: the past shared by all instants is simulated
  once);
* as branches that stop once their handover metrics are known (``metrics.stop =
  "when_complete"``);
* through the campaign machinery (``run_campaign``, one worker), without and with branching,
  to show the overhead per run outside the engine.

Independent and branched runs are checked to give identical results (summaries without wall
times), the early-stopped ones identical handover metrics, before any figure is printed.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from .metrics import ENGINE_FIGURES

BASE = Path("scenarios") / "danielkojo" / "base.toml"
FIRST_MS, STEP_MS, HORIZON_S = 1000, 100, 100

__all__ = ["CampaignBenchRow", "run_campaign_bench", "format_campaign_table"]


@dataclass
class CampaignBenchRow:
    """One way of running the grid."""

    mode: str
    runs: int
    wall_s: float
    runs_per_s: float
    engine_s: float  # time in the core (for branches: the whole call)
    overhead_per_run_ms: float

    def as_dict(self) -> dict:
        return asdict(self)


def _variants(n: int) -> list[list[tuple[str, str]]]:
    out = []
    for i in range(n):
        at_ms = FIRST_MS + i * STEP_MS
        out.append([("timeline[0].at", f"{at_ms}ms"), ("duration", f"{at_ms + HORIZON_S * 1000}ms")])
    return out


def _strip(summary: dict) -> dict:
    return {k: v for k, v in summary.items() if k not in ENGINE_FIGURES}


def _row(mode: str, runs: int, wall: float, engine: float) -> CampaignBenchRow:
    return CampaignBenchRow(mode, runs, wall, runs / wall if wall > 0 else float("inf"), engine,
                            1000 * max(0.0, wall - engine) / runs if runs else 0.0)


def run_campaign_bench(root: str | Path = ".", instants: int = 200,
                       on_step: Callable[[str], None] | None = None) -> list[CampaignBenchRow]:
    """Time the grid every way; raises AssertionError if two ways disagree."""
    from . import load
    from .campaign import CampaignSpec, run_campaign

    step = on_step or (lambda _m: None)
    base = load(Path(root) / BASE)
    variants = _variants(instants)
    rows = []

    step("independent runs")
    t0 = time.perf_counter()
    alone = [base.with_(v).run(seed=1) for v in variants]
    rows.append(_row("independent runs", instants, time.perf_counter() - t0,
                     sum(r.summary["wall_s"] for r in alone)))

    step("branches")
    t0 = time.perf_counter()
    branched = base.branch(variants, seed=1)
    wall = time.perf_counter() - t0
    rows.append(_row("branches of one trunk", instants, wall, wall))
    for a, b in zip(alone, branched):
        assert _strip(a.summary) == _strip(b.summary), "a branch differs from its independent run"

    step("branches + early stop")
    early = [v + [("metrics.stop", "when_complete")] for v in variants]
    t0 = time.perf_counter()
    stopped = base.branch(early, seed=1)
    wall = time.perf_counter() - t0
    rows.append(_row("branches + early stop", instants, wall, wall))
    for a, s in zip(alone, stopped):
        assert a.summary["flows"]["bulk"]["handovers"] == s.summary["flows"]["bulk"]["handovers"]

    for branching in (False, True):
        step(f"campaign, branching {'on' if branching else 'off'}")
        axes = [f"timeline[0].at={','.join(v[0][1] for v in variants)}",
                f"duration={','.join(v[1][1] for v in variants)}"]
        spec = CampaignSpec.from_cli(str(Path(root) / BASE), axes, zip_axes=True, replications=1)
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            report = run_campaign(spec, Path(tmp) / "c", workers=1, progress=False, branching=branching)
            wall = time.perf_counter() - t0
        engine = rows[1].engine_s if branching else rows[0].engine_s
        rows.append(_row(f"vhsim sweep, 1 worker, branching {'on' if branching else 'off'}", report.executed,
                         wall, engine))
    return rows


def format_campaign_table(rows: list[CampaignBenchRow]) -> str:
    head = f"{'mode':44} {'runs':>5} {'wall s':>8} {'runs/s':>8} {'engine s':>9} {'overhead ms/run':>16}"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.mode:44} {r.runs:5d} {r.wall_s:8.2f} {r.runs_per_s:8.1f} {r.engine_s:9.2f} "
                     f"{r.overhead_per_run_ms:16.2f}")
    return "\n".join(lines)
