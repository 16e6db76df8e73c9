"""Whole-scenario agreement with analytic models (foundation issue: NewReno within ±25% of PFTK)."""

import pytest

from vhsim.models import mathis_pkts_per_s, pftk_pkts_per_s
from vhsim.validation import pftk_table


def test_pftk_formula_matches_hand_computed_values():
    # p = 1%, RTT = 100 ms, T0 = 200 ms, b = 1:
    # RTT*sqrt(2p/3) = 0.1*0.081650 = 0.0081650; T0*min(1, 3*sqrt(3p/8))*p*(1+32p^2)
    # = 0.2*0.183712*0.01*1.0032 = 0.00036860; B = 1/0.0085336 = 117.18 pkt/s.
    assert pftk_pkts_per_s(0.01, 0.1, 0.2) == pytest.approx(117.18, rel=1e-3)
    # Window limit binds: 10 pkts / 0.1 s.
    assert pftk_pkts_per_s(0.0001, 0.1, 0.2, wmax=10) == pytest.approx(100.0)
    # Mathis: sqrt(1.5)/(0.1*0.1) = 122.47 pkt/s.
    assert mathis_pkts_per_s(0.01, 0.1) == pytest.approx(122.47, rel=1e-3)


@pytest.mark.parametrize("scheme", ["newreno"])
def test_newreno_goodput_is_within_25_percent_of_pftk(scheme):
    rows = pftk_table(seeds=3, scheme=scheme)
    assert [r.p for r in rows] == [0.005, 0.01, 0.02, 0.05]
    for r in rows:
        assert 0.75 <= r.ratio <= 1.25, f"p={r.p}: measured {r.measured_kbps:.1f} vs PFTK {r.pftk_kbps:.1f}"
    # More loss, less goodput.
    assert all(a.measured_kbps > b.measured_kbps for a, b in zip(rows, rows[1:]))
