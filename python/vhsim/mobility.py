"""The link-event times the mobility model gives a scenario, per speed (docs/mobility.md).

:func:`event_times` resolves a scenario with ``[mobile.mobility]`` at one speed (through the
Rust resolver, so the numbers are the model's own) and returns when the mobile node gets each
link event; :func:`handoff_table` renders them for several speeds as the markdown table that
docs/mobility.md shows (tests/test_mobility_doc.py keeps the two equal).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

from .scenario import load

NS = 1e9


@dataclass(frozen=True)
class EventTimes:
    """Seconds from the start of the run; ``handoff_s`` is the handover's length."""

    speed_kmh: float
    imminent_s: float
    down_s: float
    up_s: float
    handoff_s: float


def event_times(path: str | os.PathLike[str], speed_kmh: float) -> EventTimes:
    """Link-event times of the scenario at ``path`` with the MN moving at ``speed_kmh``
    (``imminent_s`` as resolved: with ``mobile.warning = "srtt"``, the lead before the MN has an
    estimate; the run's own is in its summary, ``mobility.imminent_s``)."""
    resolved = load(path, {"mobile.mobility.speed": f"{speed_kmh:g}km/h"}).resolved()
    mobile = resolved["mobile"]
    m = mobile["mobility"]
    handover, handoff, warning = m["handover"] / NS, m["handoff"] / NS, mobile["warning"] / NS
    return EventTimes(speed_kmh, handover - warning, handover, handover + handoff, handoff)


def handoff_table(path: str | os.PathLike[str], speeds: Sequence[float]) -> str:
    """Markdown: per speed, the `Imminent`, `Down` and `Up`/`Completed` times and the handoff."""
    rows = ["| speed (km/h) | Imminent (s) | Down (s) | Up, Completed (s) | handoff (s) |", "|---|---|---|---|---|"]
    for v in speeds:
        t = event_times(path, v)
        rows.append(f"| {v:g} | {t.imminent_s:.4f} | {t.down_s:.4f} | {t.up_s:.4f} | {t.handoff_s:.3f} |")
    return "\n".join(rows)
