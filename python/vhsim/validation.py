"""Whole-scenario checks of the simulator against analytic models.

``pftk_table()`` runs a loss-limited bulk NewReno flow (ns-2.35's set of defaults: 1000 B
segments, immediate ACKs, min RTO 200 ms, 10 ms ticks, for which the model's constants below are
written) over one 100 Mb/s link with 50 ms one-way delay and
Bernoulli loss ``p`` on the data direction, averages goodput over seeds, and sets it beside
the PFTK and Mathis predictions. ``vhsim check pftk`` prints the table that docs/validation.md
shows; tests/test_validation.py asserts the ±25% agreement the foundation issue requires.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import mathis_pkts_per_s, pftk_pkts_per_s
from .scenario import loads

PFTK_SCENARIO = """
name = "pftk-check"
duration = "600s"
defaults = "ns-2.35"
[nodes.cn]
[nodes.mn]
[links.path]
between = ["cn", "mn"]
rate = "100Mbps"
delay = "50ms"
queue = "1000pkt"
[links.path.forward]
error = { kind = "bernoulli", p = 0.01 }
[flows.bulk]
from = "cn"
to = "mn"
scheme = "newreno"
[flows.bulk.tcp]
window = "10000pkt"
"""

SEGMENT_BYTES = 1000
PACKET_BYTES = 1040
ACK_BYTES = 40
LINK_BPS = 100e6
ONE_WAY_S = 0.050
MIN_RTO_S = 0.2
TICK_S = 0.01


@dataclass(frozen=True)
class PftkRow:
    """One loss rate: measured goodput beside the models (kb/s of payload)."""

    scheme: str
    p: float
    seeds: int
    measured_kbps: float
    pftk_kbps: float
    mathis_kbps: float

    @property
    def ratio(self) -> float:
        """Measured / PFTK."""
        return self.measured_kbps / self.pftk_kbps


def path_rtt_s() -> float:
    """Propagation plus serialization of one data packet and one ACK (no queueing: the
    100 Mb/s link is never the bottleneck at these loss rates)."""
    return 2 * ONE_WAY_S + (PACKET_BYTES + ACK_BYTES) * 8 / LINK_BPS


def pftk_table(losses=(0.005, 0.01, 0.02, 0.05), seeds: int = 5, scheme: str = "newreno") -> list[PftkRow]:
    """Run the PFTK check; see the module docstring."""
    rtt = path_rtt_s()
    # Base RTO: srtt + max(G, 4 rttvar) is about RTT + G with a steady RTT, clamped to min RTO.
    t0 = max(MIN_RTO_S, rtt + TICK_S)
    rows = []
    base = loads(PFTK_SCENARIO).set("flows.bulk.scheme", scheme)
    for p in losses:
        sc = base.set("links.path.forward.error", f'{{kind="bernoulli", p={p}}}')
        goodputs = [sc.run(seed=s, detail="summary").summary["flows"]["bulk"]["goodput_kbps"] for s in range(1, seeds + 1)]
        to_kbps = SEGMENT_BYTES * 8 / 1000
        rows.append(
            PftkRow(
                scheme=scheme,
                p=p,
                seeds=seeds,
                measured_kbps=sum(goodputs) / len(goodputs),
                pftk_kbps=pftk_pkts_per_s(p, rtt, t0, b=1) * to_kbps,
                mathis_kbps=mathis_pkts_per_s(p, rtt, b=1) * to_kbps,
            )
        )
    return rows


def pftk_markdown(rows: list[PftkRow]) -> str:
    """The table as Markdown."""
    out = [
        "| scheme | loss p | seeds | measured goodput (kb/s) | PFTK (kb/s) | measured / PFTK | Mathis (kb/s) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r.scheme} | {r.p:.1%} | {r.seeds} | {r.measured_kbps:.1f} | {r.pftk_kbps:.1f} | {r.ratio:.3f} | {r.mathis_kbps:.1f} |"
        )
    return "\n".join(out)
