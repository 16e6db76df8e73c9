"""Park et al.'s scenario with Freeze-TCPv2 (issue #24): WAVE decides at every handoff and
FTv2 is no longer Freeze-TCP; the "throughput during the movement" window, by hand."""

from pathlib import Path

import numpy as np
import pytest

import vhsim

ROOT = Path(__file__).resolve().parent.parent
CELLS = ROOT / "scenarios/park/cells-6to11.toml"
BRANCHES = ("dabe_linear", "dabe_eq1", "vegas", "westwood")


@pytest.mark.parametrize("speed", [10, 50, 100])
def test_wave_decides_at_every_handoff_and_ftv2_differs_from_freeze_tcp(speed):
    sc = vhsim.load(CELLS).set("mobile.mobility.speed", f"{speed}km/h")
    runs = {s: sc.set("flows.bulk.scheme", s).run(detail="packets", trace_window="85s..100s")
            for s in ("ftv2", "freeze")}
    ftv2 = runs["ftv2"].summary
    e = ftv2["flows"]["bulk"]["engagement"]
    handoffs = len(ftv2["handovers"])
    assert handoffs == 1 and e["wave_started"] == handoffs, e
    # The first decision of each handoff took one of the branches: a decision at every handoff.
    assert sum(e[f"wave_first_{b}"] for b in BRANCHES) == handoffs, e
    assert e["wave_decisions"] >= handoffs
    # Freeze-TCP has no WAVE; its packet trace around the handover is another.
    assert "wave_decisions" not in runs["freeze"].summary["flows"]["bulk"]["engagement"]
    a, b = (runs[s].trace("packets")[["time_s", "event", "seq"]] for s in ("ftv2", "freeze"))
    assert len(a) != len(b) or not np.array_equal(a.to_numpy(), b.to_numpy())


def test_throughput_during_the_movement_by_hand():
    # 50 km/h = 125/9 m/s; the MN waits at the overlap's edge (250 m) and reaches the midpoint
    # (375 m) at 90 s, so it crosses the overlap [250 m, 500 m] in 90 -+ 125 m / (125/9 m/s) =
    # [81 s, 99 s]. The window's goodput is the payload delivered in order then, over 18 s: the
    # 1 s goodput series' bins 81..98 added up.
    res = vhsim.load(CELLS).set("flows.bulk.scheme", "ftv2").run()
    m = res.summary["mobility"]
    assert (m["overlap_enter_s"], m["overlap_exit_s"]) == (81.0, 99.0)
    g = res.trace("goodput")
    g = g[g["flow"] == "bulk"]
    in_window = g[(g["time_s"] > 81.0) & (g["time_s"] <= 99.0)]   # time_s = end of the bin
    assert len(in_window) == 18
    by_hand = in_window["bytes"].sum() * 8 / 18.0 / 1000.0
    assert res.summary["flows"]["bulk"]["windows"]["movement"] == pytest.approx(by_hand, rel=1e-12)
