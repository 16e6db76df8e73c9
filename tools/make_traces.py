#!/usr/bin/env python3
"""Make the delivery-opportunity traces shipped with vhsim (crates/vhsim-scenario/traces/).

A trace is Mahimahi's format: one line per opportunity, the millisecond at which one packet of
up to 1500 bytes can leave the link; a millisecond with k opportunities has k lines. These are
not recordings: each is drawn from the small model documented below, with a fixed seed, so that
scenarios can exercise a variable-rate link with outages without shipping someone else's data.
Public recordings in the same format are listed in docs/scenario-format.md ("Recorded link
traces").

The common machinery (`fill`): time runs in steps of `tti` ms; in each step the link earns
rate x tti / 8 bytes of credit (the rate of the step's channel state); at the end of the step
every whole 1500 bytes of credit becomes one opportunity at that millisecond, and the remainder
carries over. During an outage the link earns nothing and loses its remainder. Outages start as
a Poisson process (exponential gaps of mean `outage_every`) and last a uniform draw from
`outage_len` (ms, whole); an outage never crosses the end of the trace, and the first starts
after `first_outage_after`, so that every trace has a clean start.

* 3g-outages (60 s, seed 3): a 3G (UMTS/HSPA-like) downlink. Steps of 10 ms (a UMTS transport
  time interval: data leaves in per-TTI bursts). The channel rate is a Markov chain over 0.4,
  0.7, 1.0, 1.3 and 1.6 Mb/s, one step every 500 ms: it stays with probability 0.6, else moves
  one level up or down (half each; at an end, the one neighbour). Outages (a deep fade, a cell
  reselection) every 20 s on average, 500 to 2000 ms long. Mean rate about 1 Mb/s, the 3G
  rate of Lim & Jang's scenarios.
* wlan-outages (20 s, seed 5): an 802.11b/g-like link shared with other stations. Steps of
  1 ms. The rate (after MAC overhead) is a Markov chain over 1.5, 4 and 6 Mb/s (rate adaptation
  at 2, 5.5 and 11 Mb/s PHY rates), one step every 100 ms, the same transition rule; each
  millisecond's credit is multiplied by a uniform draw in [0.5, 1.5] (contention: other
  stations win some transmission opportunities). Outages (interference, a missed beacon, a
  scan) every 6 s on average, 100 to 400 ms long. Mean rate about 4 Mb/s.
* constant (1 ms): one opportunity every millisecond, the constant-rate reference (12 Mb/s at
  1500 bytes; with `opportunity_size = "800B"` it is a 6.4 Mb/s link).

Usage (from the repository root):

    python3 tools/make_traces.py            # rewrite the shipped traces
    python3 tools/make_traces.py --out DIR  # write them into DIR instead
    python3 tools/make_traces.py --check    # exit 1 unless the shipped files are what the models give

Only the standard library is used (random.Random with a fixed seed gives the same draws on
every platform and Python version from 3.2 on), so the shipped files can be regenerated
byte for byte; tests/test_link_traces.py checks that.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass
from pathlib import Path

MTU = 1500
SHIPPED = Path(__file__).resolve().parent.parent / "crates" / "vhsim-scenario" / "traces"


@dataclass(frozen=True)
class Model:
    """A trace model: see the module docstring for what each field means."""

    name: str
    seed: int
    length_ms: int
    tti_ms: int
    levels_mbps: tuple[float, ...]
    initial_level: int
    level_step_ms: int
    stay: float
    jitter: tuple[float, float] | None
    outage_every_ms: float
    outage_len_ms: tuple[int, int]
    first_outage_after_ms: int


MODELS = (
    Model("3g-outages", seed=3, length_ms=60_000, tti_ms=10, levels_mbps=(0.4, 0.7, 1.0, 1.3, 1.6),
          initial_level=2, level_step_ms=500, stay=0.6, jitter=None, outage_every_ms=20_000,
          outage_len_ms=(500, 2000), first_outage_after_ms=5_000),
    Model("wlan-outages", seed=5, length_ms=20_000, tti_ms=1, levels_mbps=(1.5, 4.0, 6.0),
          initial_level=2, level_step_ms=100, stay=0.6, jitter=(0.5, 1.5), outage_every_ms=6_000,
          outage_len_ms=(100, 400), first_outage_after_ms=2_000),
)


def outages(m: Model, rng: random.Random) -> list[tuple[int, int]]:
    """[start, end) ms of each outage, in order, inside the trace."""
    out = []
    t = m.first_outage_after_ms + rng.expovariate(1.0 / m.outage_every_ms)
    while True:
        start = int(t)
        end = start + rng.randint(*m.outage_len_ms)
        if end >= m.length_ms:
            return out
        out.append((start, end))
        t = end + rng.expovariate(1.0 / m.outage_every_ms)


def levels(m: Model, rng: random.Random) -> list[int]:
    """The channel's rate level in each level step."""
    steps = -(-m.length_ms // m.level_step_ms)
    out, level, top = [], m.initial_level, len(m.levels_mbps) - 1
    for _ in range(steps):
        out.append(level)
        if rng.random() >= m.stay:
            if level == 0:
                level = 1
            elif level == top:
                level = top - 1
            else:
                level += 1 if rng.random() < 0.5 else -1
    return out


def fill(m: Model) -> tuple[list[int], list[tuple[int, int]]]:
    """The opportunity times (ms) of one repetition and the outages."""
    rng = random.Random(m.seed)
    gaps = outages(m, rng)
    level_of = levels(m, rng)
    times: list[int] = []
    credit = 0.0
    gap = 0
    for step_end in range(m.tti_ms, m.length_ms + 1, m.tti_ms):
        while gap < len(gaps) and gaps[gap][1] <= step_end - m.tti_ms:
            gap += 1
        in_outage = gap < len(gaps) and gaps[gap][0] < step_end and step_end - m.tti_ms < gaps[gap][1]
        if in_outage:
            credit = 0.0
            continue
        mbps = m.levels_mbps[level_of[(step_end - 1) // m.level_step_ms]]
        earned = mbps * 1e6 * m.tti_ms / 1000 / 8
        if m.jitter is not None:
            earned *= rng.uniform(*m.jitter)
        credit += earned
        whole = int(credit // MTU)
        times += [step_end] * whole
        credit -= whole * MTU
    if not times or times[-1] != m.length_ms:
        times.append(m.length_ms)  # the trace lasts its full length (and repeats after it)
    return times, gaps


def texts() -> dict[str, str]:
    """File name -> contents of every shipped trace."""
    out = {"constant.trace": "1\n"}
    for m in MODELS:
        times, _ = fill(m)
        out[f"{m.name}.trace"] = "".join(f"{t}\n" for t in times)
    return out


def describe(m: Model) -> str:
    times, gaps = fill(m)
    mean = len(times) * MTU * 8 / m.length_ms / 1000
    shown = ", ".join(f"[{a / 1000:g} s, {b / 1000:g} s)" for a, b in gaps)
    return f"{m.name}: {len(times)} opportunities in {m.length_ms / 1000:g} s = {mean:.3f} Mb/s; outages {shown}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=SHIPPED, help="folder to write into (default: the shipped one)")
    ap.add_argument("--check", action="store_true", help="compare with the shipped files; write nothing")
    args = ap.parse_args(argv)
    bad = []
    for name, text in texts().items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_text() != text:
                bad.append(path)
        else:
            args.out.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
    for m in MODELS:
        print(describe(m))
    if bad:
        print("differ from the models: " + ", ".join(map(str, bad)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
