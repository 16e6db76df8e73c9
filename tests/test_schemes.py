"""TCP schemes as data: a part added in one file runs from a scenario (issue #11)."""

from __future__ import annotations

import vhsim


def test_a_toy_window_law_runs_from_a_scenario(tiny_text):
    # cc/constant.rs is one file and one registration line in cc/mod.rs (docs/schemes.md,
    # "How to add a scheme"); here it runs in a whole scenario with 1 % loss.
    sc = vhsim.loads(tiny_text).set("flows.bulk.tcp.congestion_control", '{ kind = "constant", window = 6 }')
    assert sc.resolved()["flows"][0]["transport"]["tcp"]["congestion_control"] == {"kind": "constant", "window": 6}
    res = sc.run(detail="timeseries")
    ts = res.trace("timeseries")
    assert len(ts) > 10
    assert (ts["cwnd_pkts"] == 6).all() and (ts["ssthresh_pkts"] == 6).all()
    # Outside loss recovery (where SACK recovery counts pipe, not flight) at most 6 are out.
    assert ts.loc[ts["state"] == "open", "flight_pkts"].max() <= 6
    flow = res.flows.loc["bulk"]
    assert flow["goodput_kbps"] > 0 and flow["retransmissions"] > 0
    # The same scenario with Reno grows past 6 segments: the law really is in charge.
    reno = vhsim.loads(tiny_text).run(detail="timeseries").trace("timeseries")
    assert reno["cwnd_pkts"].max() > 6
