"""The kimkoh reproduction: the scenario files against Kim & Koh §4, the per-run trace columns on
a real run, the bespoke claims on tiny synthetic results (holds / does not hold), and the quick
reproduction through `vhsim reproduce kimkoh --quick`."""

from __future__ import annotations

import pandas as pd
import pytest

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

import vhsim
from vhsim.campaign import claims as C
from vhsim.campaign.papers import kimkoh as K
from vhsim.campaign.papers import kimkoh_claims as KC
from vhsim.campaign.papers import kimkoh_runs as R
from vhsim.campaign.reproduce import papers, reproduce

from conftest import REPO

SCEN = REPO / "scenarios" / "kimkoh"


def _toml(name: str) -> dict:
    return tomllib.loads((SCEN / name).read_text(encoding="utf-8"))


def test_the_main_scenario_has_the_papers_values():
    s = _toml("3g-wlan-3g.toml")
    links = s["links"]
    for wired in ("wired1", "wired2"):
        assert (links[wired]["rate"], links[wired]["delay"]) == ("100Mbps", "15ms")
    assert (links["umts"]["rate"], links["umts"]["delay"]) == ("384kbps", "100ms")
    assert (links["wlan"]["rate"], links["wlan"]["delay"]) == ("11Mbps", "15ms")
    # the bound of the goodput windows: both links' payload rates (1452 B of user data per 1500 B)
    assert KC.BOTH_PATHS.value == pytest.approx((384 + 11000) * 1452 / 1500)
    assert links["wlan"]["forward"]["error"] == {"kind": "time_window", "p": 0.03, "start": "48s", "end": "50s"}
    f = s["flows"]["ftp"]
    assert (s["duration"], f["protocol"], f["sctp"]["initial_cwnd"]) == ("70s", "sctp", "rfc2960")
    switches = [(a["at"], a["set_primary"]) for a in f["sctp"]["actions"] if "set_primary" in a]
    assert switches == [("25s", "wlan"), ("50s", "umts")]
    sc = vhsim.load(SCEN / "3g-wlan-3g.toml").resolved()
    sctp = sc["flows"][0]["transport"]["config"]
    assert (sctp["mtu"], sctp["data_chunk_size"]) == (1500, 1468)


def test_every_sctp_run_of_the_reproduction_starts_at_ns2s_initial_ssthresh():
    # The paper states no ssthresh: every configuration (Figure 9's variants included) takes its
    # simulator's, ns-2.35's initialSsthresh_ 65536 B; the receive buffer is the reading
    # `ssthresh-receive-buffer`.
    from vhsim.scenario import Scenario

    seen = 0
    for fig in papers()["kimkoh"].figures:
        spec = fig.campaign(False)
        for c in spec.configurations():
            resolved = Scenario(spec.scenario_text, spec.fixed + c.overrides(spec.axes), spec.scenario_path).resolved()
            for flow in resolved["flows"]:
                config = flow["transport"].get("config", {})
                if "initial_ssthresh" in config:
                    assert config["initial_ssthresh"] == 65536, (fig.id, c.labels(spec.axes))
                    seen += 1
    assert seen


def test_the_ping_pong_scenario_switches_at_the_papers_times_with_1pct_loss_for_1s():
    s = _toml("ping-pong.toml")
    actions = s["flows"]["ftp"]["sctp"]["actions"]
    assert [float(a["at"][:-1]) for a in actions if "set_primary" in a] == list(K.PP_SWITCHES)
    windows = s["links"]["wlan"]["forward"]["error"]["windows"]
    assert all(w["p"] == 0.01 for w in windows) and len(windows) == 6


def test_trace_columns_of_a_normal_run_around_the_25s_switch():
    res = vhsim.load(SCEN / "3g-wlan-3g.toml").run(seed=1, detail="packets")
    pk, ts = R.flow_rows(res.trace("packets")), R.flow_rows(res.trace("timeseries"))
    sw = R.switch_time(pk, 25.0)
    assert 25.0 < sw < 25.2  # the Set-Primary ASCONF crosses one way
    n, first = R.reordering(pk, sw, sw + 3)
    assert n > 0 and sw < first < sw + 0.5
    assert len(R.spurious_retransmissions(pk, sw, sw + 3)) > 0
    assert R.value_at(ts, R.WLAN, R.CWND, sw) == 2 * R.MTU  # the new path starts at 2 MTU
    assert 0 < R.old_data_acked_after(pk, sw) < 3
    # A TSN-by-time count from the goodput trace: never decreasing.
    counts = R.cumulative_chunks(res, [10.0, 20.0, 30.0, 70.0])
    assert counts == sorted(counts) and counts[0] > 0


HR_COUNTERS = (*KC.HR_TO_WLAN.columns, *KC.HR_TO_3G.columns, *KC.HR_ANY.columns)


def _table(rows, hr_acted: float = 3.0):
    """Synthetic results; HR-mSCTP's runs retransmitted ``hr_acted`` chunks at each switch."""
    df = pd.DataFrame(rows)
    for column in HR_COUNTERS:
        df[column] = [hr_acted if r.get(KC.SCHEME) == KC.HR else 0.0 for r in rows]
    return df


def test_the_gain_shrinks_check_holds_and_fails():
    check = KC._gain_shrinks(KC.UMTS_ERROR, 0.002, 0.02)
    rows = [{KC.SCHEME: s, KC.UMTS_ERROR: p, KC.AFTER25: v} for s, p, v in
            [("hr-msctp", 0.002, 130.0), ("msctp", 0.002, 100.0), ("hr-msctp", 0.02, 101.0), ("msctp", 0.02, 100.0)]]
    assert C.evaluate(check, _table(rows)).status == C.HOLDS
    rows[2][KC.AFTER25] = 200.0
    assert C.evaluate(check, _table(rows)).status == C.FAILS
    assert C.evaluate(check, _table(rows[:2])).status == C.NOT_CHECKABLE


def test_the_timeout_check_needs_half_the_runs_within_the_span():
    check = KC._timeouts_in_span(50.5, 51.6)
    rows = [{KC.SCHEME: "msctp", "old_t3": n, "old_t3_times": t} for n, t in [(1, "50.90"), (0, ""), (1, "51.40")]]
    assert C.evaluate(check, _table(rows)).status == C.HOLDS
    rows[0]["old_t3_times"] = "52.50"
    assert C.evaluate(check, _table(rows)).status == C.FAILS
    rows = [{KC.SCHEME: "msctp", "old_t3": 0, "old_t3_times": ""}] * 3
    assert C.evaluate(check, _table(rows)).status == C.FAILS


def test_the_accumulating_gain_check():
    check = KC._gain_accumulates()
    base = {f"chunks_{t}s": 100.0 * t for t in KC.MARKS}
    hr = {f"chunks_{t}s": 100.0 * t + 10 * i for i, t in enumerate(KC.MARKS)}
    assert C.evaluate(check, _table([{KC.SCHEME: "msctp", **base}, {KC.SCHEME: "hr-msctp", **hr}])).status == C.HOLDS
    hr[f"chunks_{KC.MARKS[-1]}s"] = 0.0
    assert C.evaluate(check, _table([{KC.SCHEME: "msctp", **base}, {KC.SCHEME: "hr-msctp", **hr}])).status == C.FAILS


def test_quick_reproduction_writes_every_figure_and_honest_counts(tmp_path):
    assert "kimkoh" in papers()
    out = reproduce("kimkoh", quick=True, out=tmp_path / "kk", workers=2, progress=False)
    assert out.failed_runs == 0
    ids = [f.figure.id for f in out.figures]
    assert ids[:9] == [f"fig{n}" for n in range(8, 17)] and "tcp" in ids
    text = out.report.read_text(encoding="utf-8")
    assert "hold" in text and "does not hold" in text
    for f in out.figures:
        if f.figure.id != "tcp":
            assert any(p.suffix == ".png" for p in f.files), f.figure.id
    by_fig = {f.figure.id: {v.claim.text[:40]: v.status for v in f.verdicts} for f in out.figures}
    # Robust outcomes of this model (deterministic before the loss windows): normal mSCTP's
    # reordering and spurious fast retransmissions after the switch to WLAN (Figure 8's first two).
    assert list(by_fig["fig8"].values())[:2] == [C.HOLDS, C.HOLDS]
    assert C.PASSES in by_fig["fig9"].values()
    # the mechanisms the claims are about acted in real runs (engagement counters, docs/sctp.md)
    def ours(start: str) -> str:
        (v,) = [v for f in out.figures for v in f.verdicts if v.claim.text.startswith(start)]
        return v.ours

    assert "MT-mSCTP's split fast retransmit engaged in 2 of 2 runs" in ours("MT-mSCTP avoids")
    assert "the Set-Primary switch engaged in 2 of 2 runs" in ours("Normal mSCTP: packet reordering")
    assert "switch back to 3G engaged in 2 of 2 runs" in ours("HR-mSCTP: no retransmission by timeout")
    assert not by_fig["fig13-robustness"], "evidence only: no claims"


def test_the_growing_gap_check_needs_an_advantage():
    check = KC.FIG15[1]  # as registered: it needs HR-mSCTP to have acted at the switch back to 3G

    def rows(gaps):
        return _table([{KC.SCHEME: s, KC.WLAN_WINDOW_P: p, KC.AFTER50: 100.0 + (g if s == "hr-msctp" else 0.0)}
                       for p, g in zip((0.01, 0.05), gaps) for s in ("msctp", "hr-msctp")])

    assert C.evaluate(check, rows([5.0, 20.0])).status == C.HOLDS
    v = C.evaluate(check, rows([5.0, 20.0]))
    assert "handover retransmission at the switch back to 3G engaged in 2 of 2 runs" in v.ours
    # HR acted at the switch to WLAN (25 s) but not at the one the claim is about (50 s): nothing tested.
    idle = rows([5.0, 20.0]).assign(**{c: 0.0 for c in KC.HR_TO_3G.columns})
    v = C.evaluate(check, idle)
    assert v.status == C.NOT_CHECKABLE and "at the switch back to 3G never engaged" in v.ours
    assert C.evaluate(check, rows([-28.0, -17.0])).status == C.FAILS  # shrinking disadvantage: no advantage
    assert C.evaluate(check, rows([20.0, 5.0])).status == C.FAILS
