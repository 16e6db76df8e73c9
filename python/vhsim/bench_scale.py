"""How the simulator's cost grows with the number of users (``vhsim bench --scale``, issue #29).

One shared cell, N mobile nodes attached to it, one bulk SACK flow from the correspondent node
to each (starts spread evenly over the first second), for N = 1, 10, 100, 1,000, 10,000, in two
shapes:

* ``a`` — the cell grows with N: N Mb/s and 10 N packets of queue, so every flow sees the same
  path (1 Mb/s, 50 ms round trip) whatever N: only the simulator's own costs can grow;
* ``b`` — a fixed 6.4 Mb/s cell with a 100-packet queue shared by all N: flows starve and time
  out more as N grows, so events per delivered segment rise by nature;
* ``idle`` — shape a's cell, but each flow's application writes one segment at its start and
  nothing after: the memory of N idle flows (their endpoints, routing, records and results),
  with nothing queued.

Each run is a fresh Python process (its peak RSS is the run's), reporting per N: events per
delivered segment, wall ns per event and delivered segments per wall-second (of the event loop,
the summary's ``wall_s``), peak RSS, and the RSS it added per flow over the N = 1 run. The
``storm`` row is ``scenarios/examples/handover-storm.toml`` with 1,000 users over 60 s, timed
whole (load, run, summary) as well as its event loop.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Sequence

__all__ = ["SIZES", "SHAPES", "ScaleRow", "scenario_text", "run_scale", "format_scale_table"]

SIZES = (1, 10, 100, 1_000, 10_000)

#: Shape -> (description, simulated seconds).
SHAPES = {
    "a": ("cell of N Mb/s, 10 N packets of queue", "10s"),
    "b": ("fixed 6.4 Mb/s cell, 100 packets of queue", "60s"),
    "idle": ("shape a's cell, one segment per flow, then idle", "5s"),
}

#: Simulated time of every run with --quick.
QUICK_DURATION = "3s"


def scenario_text(shape: str, n: int, duration: str | None = None) -> str:
    """The scenario of shape ``shape`` with ``n`` users (module docs)."""
    if shape not in SHAPES:
        raise ValueError(f"unknown shape {shape!r} (shapes: {', '.join(SHAPES)})")
    rate, queue = ("6.4Mbps", "100pkt") if shape == "b" else (f"{n}Mbps", f"{10 * n}pkt")
    app = 'app = { kind = "cbr", interval = "1000s" }\n' if shape == "idle" else ""
    # ns-2.35's set of defaults: the workload of the scale figures measured so far, kept comparable.
    return f"""name = "scale-{shape}-{n}"
duration = "{duration or SHAPES[shape][1]}"
defaults = "ns-2.35"
[nodes.cn]
[nodes.ap]
[nodes.cell]
cell = true
[links.wired]
between = ["cn", "ap"]
rate = "100Gbps"
delay = "20ms"
queue = "1000000pkt"
[links.air]
between = ["ap", "cell"]
rate = "{rate}"
delay = "5ms"
queue = "{queue}"
[[populations]]
name = "users"
count = {n}
node = "u{{i}}"
[populations.mobile]
anchor = "ap"
initial = "radio"
interfaces.radio = {{ cell = "cell" }}
[populations.flows.bulk]
from = "cn"
to = "{{node}}"
scheme = "sack"
start = {{ spread = ["0s", "1s"] }}
{app}"""


@dataclass
class ScaleRow:
    """One run of the scale benchmark (the fastest of its repeats)."""

    shape: str
    n: int
    sim_s: float
    wall_s: float
    total_wall_s: float
    events: int
    delivered_segments: int
    peak_rss_mb: float
    events_per_segment: float
    ns_per_event: float
    segments_per_wall_s: float
    rss_per_flow_kb: float | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def _one(text: str, overrides: Sequence[tuple[str, str]] = ()) -> dict:
    """Run in this process; the figures of the run and this process's peak RSS."""
    import resource

    from .scenario import Scenario

    started = time.perf_counter()
    s = Scenario(text, list(overrides)).run(detail="summary").summary
    total = time.perf_counter() - started
    rss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"sim_s": s["sim_s"], "wall_s": s["wall_s"], "total_wall_s": total, "events": s["events"],
            "delivered_segments": s["delivered_segments"], "peak_rss_mb": rss_kb / 1024}


def _in_child(text: str, overrides: Sequence[tuple[str, str]] = ()) -> dict:
    """:func:`_one` in a fresh Python process (so that its peak RSS is this run's)."""
    payload = json.dumps({"text": text, "overrides": list(overrides)})
    code = "import json, sys; from vhsim.bench_scale import _one; a = json.loads(sys.stdin.read()); " \
           "print(json.dumps(_one(a['text'], [tuple(o) for o in a['overrides']])))"
    out = subprocess.run([sys.executable, "-c", code], input=payload, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"scale run failed: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _row(shape: str, n: int, runs: Sequence[dict]) -> ScaleRow:
    best = min(runs, key=lambda r: r["wall_s"])
    seg = max(1, int(best["delivered_segments"]))
    return ScaleRow(
        shape=shape,
        n=n,
        sim_s=best["sim_s"],
        wall_s=best["wall_s"],
        total_wall_s=best["total_wall_s"],
        events=int(best["events"]),
        delivered_segments=int(best["delivered_segments"]),
        peak_rss_mb=max(r["peak_rss_mb"] for r in runs),
        events_per_segment=int(best["events"]) / seg,
        ns_per_event=best["wall_s"] * 1e9 / max(1, int(best["events"])),
        segments_per_wall_s=int(best["delivered_segments"]) / best["wall_s"] if best["wall_s"] > 0 else 0.0,
    )


def run_scale(
    sizes: Sequence[int] = SIZES,
    shapes: Sequence[str] = tuple(SHAPES),
    repeat: int = 1,
    quick: bool = False,
    storm: Path | None = None,
    on_run: Callable[[str], None] | None = None,
) -> list[ScaleRow]:
    """Run every (shape, N) ``repeat`` times (the fastest counts) and, if ``storm`` names the
    storm example, its 1,000-user run; rows in order, with the RSS per flow over N = 1."""
    rows = []
    for shape in shapes:
        base = None
        for n in sizes:
            if on_run:
                on_run(f"shape {shape}, N = {n:,}")
            text = scenario_text(shape, n, QUICK_DURATION if quick else None)
            row = _row(shape, n, [_in_child(text) for _ in range(repeat)])
            if base is None:
                base = row
            elif n > base.n:
                row.rss_per_flow_kb = (row.peak_rss_mb - base.peak_rss_mb) * 1024 / (n - base.n)
            rows.append(row)
    if storm is not None:
        if on_run:
            on_run("storm, 1,000 users")
        overrides = [("populations[0].count", "1000")] + ([("duration", "35s")] if quick else [])
        rows.append(_row("storm", 1000, [_in_child(storm.read_text(), overrides) for _ in range(repeat)]))
    return rows


def format_scale_table(rows: Sequence[ScaleRow]) -> str:
    """Aligned plain-text table of the scale rows."""
    header = ["shape", "N", "sim s", "events", "segments", "events/segment", "ns/event", "segments/wall-s",
              "wall s (loop)", "wall s (all)", "peak RSS MB", "KB/flow"]
    body = [
        [r.shape, f"{r.n:,}", f"{r.sim_s:g}", f"{r.events:,}", f"{r.delivered_segments:,}", f"{r.events_per_segment:.2f}",
         f"{r.ns_per_event:.0f}", f"{r.segments_per_wall_s / 1e6:.3f} M", f"{r.wall_s:.3f}", f"{r.total_wall_s:.2f}",
         f"{r.peak_rss_mb:.0f}", "" if r.rss_per_flow_kb is None else f"{r.rss_per_flow_kb:.2f}"]
        for r in rows
    ]
    widths = [max(len(row[i]) for row in [header, *body]) for i in range(len(header))]
    lines = []
    for j, row in enumerate([header, *body]):
        lines.append("  ".join(c.rjust(w) for c, w in zip(row, widths)).rstrip())
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def default_storm() -> Path | None:
    """The storm example, if run from the repository root (or its checkout)."""
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        p = base / "scenarios" / "examples" / "handover-storm.toml"
        if p.is_file():
            return p
    return None


if __name__ == "__main__":  # pragma: no cover - a quick look: python -m vhsim.bench_scale a 1000
    shape, n = sys.argv[1], int(sys.argv[2])
    print(json.dumps(_one(scenario_text(shape, n)), indent=2))
