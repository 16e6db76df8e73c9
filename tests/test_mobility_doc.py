"""docs/mobility.md's handoff table is what the mobility model gives (vhsim.mobility)."""

from pathlib import Path

from vhsim.mobility import event_times, handoff_table

ROOT = Path(__file__).resolve().parent.parent
PARK = ROOT / "scenarios" / "park" / "cells-6to11.toml"


def test_the_documented_handoff_table_is_generated_by_the_model():
    assert handoff_table(PARK, range(10, 101, 10)) in (ROOT / "docs" / "mobility.md").read_text()


def test_event_times_by_hand_at_50_kmh():
    # Handover point at 90 s (handover_at); 10 m at 50/3.6 m/s = 0.72 s + 200 ms; warning one
    # empty-path RTT: 48 ms + 1040 B at 100, 100, 6 Mb/s (83.2 + 83.2 + 1386.667 us) + 40 B at
    # 6, 100, 100 Mb/s (53.334 + 3.2 + 3.2 us) = 49.612801 ms.
    t = event_times(PARK, 50)
    assert (t.down_s, round(t.up_s, 9), round(t.handoff_s, 9)) == (90.0, 90.92, 0.92)
    assert round(t.down_s - t.imminent_s, 9) == 0.049612801
