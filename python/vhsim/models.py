"""Analytic TCP throughput models used to validate whole scenarios.

* Mathis et al. (CCR 1997): B = (MSS/RTT) * C / sqrt(p), C = sqrt(3/(2b)).
* PFTK, Padhye, Firoiu, Towsley & Kurose (SIGCOMM 1998), approximate model (their eq. 33),
  in packets per second:
  B(p) = min(Wmax/RTT, 1 / (RTT*sqrt(2bp/3) + T0*min(1, 3*sqrt(3bp/8))*p*(1+32p^2))).
(docs/references.md §13.)
"""

from __future__ import annotations

import math


def mathis_pkts_per_s(p: float, rtt_s: float, b: int = 1) -> float:
    """Mathis et al. steady-state rate in packets/s for loss probability ``p``."""
    return math.sqrt(3.0 / (2.0 * b)) / (rtt_s * math.sqrt(p))


def pftk_pkts_per_s(p: float, rtt_s: float, t0_s: float, b: int = 1, wmax: float = math.inf) -> float:
    """PFTK approximate model (eq. 33) in packets/s.

    ``b`` is the number of packets acknowledged per ACK, ``t0_s`` the base RTO, ``wmax`` the
    receiver window in packets.
    """
    if p <= 0:
        return wmax / rtt_s
    denom = rtt_s * math.sqrt(2 * b * p / 3) + t0_s * min(1.0, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p)
    return min(wmax / rtt_s, 1.0 / denom)
