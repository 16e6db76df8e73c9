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


def test_the_mobile_receivers_signals_travel_as_ack_flags():
    # Freeze-TCP's ZWA and DEMO-Vegas's SIG bit are real ACKs of the mobile node, visible in the
    # packet trace's flags (1 = zero window, 2 = SIG; vhsim-net packet/tcp.rs): the ZWA (and SIG
    # with set_at = "imminent") from the handover warning (mobile.warning = 200 ms before the
    # break at 8.2 s) until the new link is up at 8.7 s; the preset's SIG (set_at = "completed",
    # the original's care-of-address change) only in the ACK sent at 8.7 s, cleared at once.
    from pathlib import Path
    text = (Path(__file__).parent.parent / "scenarios/danielkojo/fig08-bbm.toml").read_text()
    cases = (("freeze", 1, {}, 8.0), ("demo-vegas", 2, {"flows.bulk.sink.policy.set_at": '"imminent"'}, 8.0),
             ("demo-vegas", 2, {}, 8.7))
    for scheme, flag, extra, first in cases:
        sc = (vhsim.loads(text).set("flows.bulk.scheme", f'"{scheme}"').set("mobile.warning", '"200ms"')
              .set("duration", '"10s"').set("flows.bulk.tcp.window", '"20pkt"'))
        for k, v in extra.items():
            sc = sc.set(k, v)
        pk = sc.run(detail="packets").trace("packets")
        acks = pk[pk["event"] == "ack_send"]
        flagged = acks[acks["flags"] == flag]
        assert len(flagged) > 0, scheme
        assert abs(flagged["time_s"].min() - first) < 1e-9, (scheme, extra)
        assert (flagged["time_s"] < 8.7 + 1e-9).all(), scheme
        # No ACK carries it before the warning or after the new link is up.
        assert (acks.loc[acks["time_s"] < first, "flags"] == 0).all()
        assert (acks.loc[acks["time_s"] > 8.7, "flags"] == 0).all()


def test_the_set_of_defaults_fills_what_the_preset_and_the_flow_leave_out(tiny_text):
    # docs/scenario-format.md "Default sets": the RFCs' values unless the scenario says
    # defaults = "ns-2.35"; a key the flow sets (the fixture's sink.delayed_ack = false) wins.
    import pytest

    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]

    sc = vhsim.loads(tiny_text)

    def transport(s):
        return s.resolved()["flows"][0]["transport"]

    rfc, ns2 = transport(sc), transport(sc.set("defaults", "ns-2.35"))
    assert (rfc["tcp"]["initial_rto"], rfc["tcp"]["min_rto"], rfc["tcp"]["initial_window"]) == ("1s", "1s", 4)
    assert (ns2["tcp"]["initial_rto"], ns2["tcp"]["min_rto"], ns2["tcp"]["initial_window"]) == ("3s", "200ms", 2)
    assert rfc["sink"]["delayed_ack"] is False and ns2["sink"]["delayed_ack"] is False
    with pytest.raises(vhsim.ScenarioError, match=r"^defaults: unknown variant `ns2`, expected `rfc` or `ns-2.35`"):
        sc.set("defaults", "ns2").resolved()
    # `vhsim schemes --show NAME --defaults SET` from Python.
    shown = {s: tomllib.loads(vhsim.scheme("sack", s)["toml"]) for s in ("rfc", "ns-2.35")}
    assert (shown["rfc"]["sink"]["delayed_ack"], shown["ns-2.35"]["sink"]["delayed_ack"]) == (True, False)
    assert (shown["rfc"]["tcp"]["window"], shown["ns-2.35"]["tcp"]["window"]) == ("65pkt", "20pkt")
    with pytest.raises(vhsim.ScenarioError, match="unknown set 'x'"):
        vhsim.scheme("sack", "x")
