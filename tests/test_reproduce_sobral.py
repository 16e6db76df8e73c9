"""The sobral reproduction: the scenario files against the paper, the campaign points against the
files, the per-run columns of a real forced-handover run against the paper's 300 s story, claims
on synthetic rows (holding and not holding), and `vhsim reproduce sobral --quick` end to end."""

from __future__ import annotations

import json

import pandas as pd
import pytest

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

import vhsim
from vhsim.campaign import claims as C
from vhsim.campaign.papers import sobral as S
from vhsim.campaign.papers import sobral_claims as SC
from vhsim.campaign.papers import sobral_to3g as T
from vhsim.campaign.papers.sobral_runs import run_columns
from vhsim.campaign.reproduce import papers

from conftest import REPO, run_vhsim

SCEN = REPO / "scenarios" / "sobral"
FILES = {"UH": "cbr-user-handover.toml", "FH": "cbr-forced-handover.toml", "MIP": "cbr-mobile-ip.toml"}


def _toml(name: str) -> dict:
    return tomllib.loads((SCEN / name).read_text(encoding="utf-8"))


# -- scenario files -------------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["UH", "FH", "MIP"])
def test_scenarios_have_the_papers_values(case):
    s = _toml(FILES[case])
    links = s["links"]
    assert (links["utran"]["rate"], links["utran"]["delay"]) == ("300kbps", "200ms")
    assert (links["wlan"]["rate"], links["wlan"]["delay"]) == ("11Mbps", "40ms")
    assert links["core"]["delay"] == "30ms"  # the calibration: WLAN RTT 0.14 s
    f = s["flows"]["cbr"]
    assert (f["scheme"], f["app"], f["tcp"]) == ("newreno", {"kind": "cbr", "rate": "500kbps"},
                                                 {"segment_size": "1000B", "window": "40pkt"})
    first, second = s["timeline"]
    assert (s["mobile"]["initial"], first["at"], first["to"], second["at"], second["to"]) == \
        ("utran", "100s", "wlan", "300s", "utran")
    assert first["kind"] == "make_before_break"
    assert second["kind"] == {"UH": "make_before_break", "FH": "forced", "MIP": "make_before_break"}[case]
    if case == "MIP":
        assert s["mobile"]["binding"] == {"latency": "800ms", "old_path": "drop"} and "agents" not in s
    else:
        anchor, mobile = s["agents"]
        assert (anchor["node"], anchor["kind"], anchor["interface"], anchor["timeout"]) == \
            ("hnac", "delivery_service", "wlan", "90ms")
        assert (mobile["node"], mobile["interface"]) == ("mn", "wlan") and "active_mode" not in mobile
        assert "binding" not in s["mobile"]


def test_the_internet_variant_differs_only_by_the_server_delay():
    fh, inet = _toml(FILES["FH"]), _toml("cbr-forced-handover-internet.toml")
    assert inet["links"]["core"]["delay"] == "100ms"
    inet["links"]["core"]["delay"], inet["name"] = fh["links"]["core"]["delay"], fh["name"]
    assert inet == fh


@pytest.mark.parametrize("case", ["UH", "FH", "MIP"])
def test_each_campaign_point_is_its_shipped_scenario(case):
    # The zipped grid's overrides on the base file resolve to the very scenario of the case's file.
    point = vhsim.load(REPO / "scenarios" / S.BASE)
    for key, (_, override) in S.Point(case).overrides().items():
        point = point.set(key, override)
    shipped = json.loads(vhsim.load(SCEN / FILES[case]).resolved_json())
    ours = json.loads(point.resolved_json())
    ours["name"] = shipped["name"]
    assert ours == shipped


def test_registered_with_all_figures_and_campaign_sizes():
    paper = papers()["sobral"]
    assert [f.id for f in paper.figures] == ["fig4", "fig5", "fig6", "fig7", "internet", "cbr-reading", "uh-pause",
                                             "to-3g", "exit-fast-retrans"]
    sizes = {f.id: (f.campaign(False).size, f.campaign(True).size) for f in paper.figures}
    assert sizes == {"fig4": (12, 5), "fig5": (4, 1), "fig6": (6, 3), "fig7": (18, 6), "internet": (6, 3),
                     "cbr-reading": (6, 2), "uh-pause": (2, 2), "to-3g": (6, 4), "exit-fast-retrans": (8, 2)}
    assert all(f.campaign(False).replications == 1 and f.campaign(False).detail == "packets" for f in paper.figures)


# -- the 300 s story of a real run ---------------------------------------------------------------
def test_forced_handover_run_tells_the_papers_story_with_the_same_segment_offsets():
    cols = run_columns(vhsim.load(SCEN / FILES["FH"]).run(detail="packets"))
    assert cols["rto300_s"] == pytest.approx([300.229, 301.502], abs=1e-3)
    assert cols["rto300_spurious"] == [True, True] and cols["rto300_ssthresh"] == [20.0, 10.0]
    assert cols["dup300_s"] == pytest.approx([301.130, 302.295], abs=1e-3)
    assert (cols["fr100"], cols["rto100"], cols["cwnd_min100"], cols["data_lost"]) == (1, 0, 20.0, 0)
    assert cols["done300_s"] == pytest.approx(300.0889, abs=1e-4)  # the DS timeout, 90 ms after the last ack
    row = pd.Series(cols)
    assert SC.offsets(row) == {**SC.PAPER_OFFSETS, "sender at the 1st repeated ACKs": 41,
                               "sender at the 2nd repeated ACKs": 54}
    assert cols["srtt_wlan_s"] == pytest.approx(0.14, abs=0.002) and cols["srtt_3g_s"] == pytest.approx(1.11, abs=0.002)
    assert cols["recover300_s"] == 7 and cols["seg_at_300"] == 18750


def test_figure_5_explains_the_dropped_segments_that_come_back_as_spurious_retransmissions():
    # Issue #31 item 6: the crosses at 300 s and the diamonds after the timeout are the same
    # segments; the Delivery Service's copies are what arrived in between.
    from vhsim.campaign.papers.sobral_plots import ds_copies_note

    note = ds_copies_note(vhsim.load(SCEN / FILES["FH"]).run(detail="packets"), 299.8, 304.5)
    assert note.startswith("crosses: the sender's first transmissions of 8 segments (18746-18753) lost on the "
                           "failed wlan link; the Delivery Service at hnac kept a copy")
    assert "declared wlan failed at 300.089 s and sent its 10 kept copies again over utran" in note
    assert "8 of the lost segments arrived through these copies before the sender retransmitted them" in note
    assert "the other 34 diamonds" in note  # 42 spurious retransmissions in view, as the legend counts
    # Mobile IP has no Delivery Service: nothing to explain; nor a window without the handover.
    assert ds_copies_note(vhsim.load(SCEN / FILES["MIP"]).run(detail="packets"), 299.8, 304.5) is None
    assert ds_copies_note(vhsim.load(SCEN / FILES["FH"]).run(detail="packets"), 200.0, 210.0) is None


# -- claims on synthetic rows ------------------------------------------------------------------------
def _row(**kw) -> dict:
    base = {"case": "FH", "scheme": "newreno", "timer": "impatient", "active": "off", "placement": "core",
            "reading": "500kbps", "rto300_s": [300.23, 301.5], "rto300_spurious": [True, True],
            "rto300_ssthresh": [20.0, 10.0], "rto300_seq": [100, 121], "rto300_highest": [120, 142],
            "rto300_rto": [0.4, 0.8], "dup300_s": [301.13, 302.3], "dup300_ack": [121, 143],
            "dup300_highest": [140, 154], "fr300": 0, "rto300": 2,
            # the Delivery Service's counters of a forced handover (agent0: the anchor's)
            SC.DS_FAILOVER.columns[0]: 1, SC.DS_RESENT.columns[0]: 10}
    return {**base, **kw}


def _verdict(claims, start: str, rows) -> C.Verdict:
    (claim,) = [c for c in claims if c.text.startswith(start)]
    return C.evaluate(claim, pd.DataFrame(rows), S.PAPER.names)


def test_event_and_segment_claims_hold_near_the_paper_and_not_away_from_it():
    near = [_row()]
    assert _verdict(SC.FIG4, "At 300 s a spurious timeout", near).status == "holds"
    late = [_row(rto300_s=[300.6, 301.5])]
    assert _verdict(SC.FIG4, "At 300 s a spurious timeout", late).status == "does not hold"
    three = [_row(rto300_s=[300.23, 301.5, 303.0], rto300_spurious=[True] * 3)]
    assert _verdict(SC.FIG4, "At 300 s a spurious timeout", three).status == "does not hold"
    v = _verdict(SC.FIG5, "The segments of the story", near)
    assert v.status == "holds" and "in flight at the 1st timeout: +20 (paper +20)" in v.ours
    off = [_row(dup300_highest=[150, 154])]  # the sender 50 segments on at the first repeated ACKs
    assert _verdict(SC.FIG5, "The segments of the story", off).status == "does not hold"
    v = _verdict(SC.FIG5, "The segments of the story", [_row(rto300_s=[300.23], rto300_seq=[100])])
    assert v.status == "not checkable"
    assert _verdict(SC.FIG5, "On those repeated ACKs the sender enters fast recovery twice",
                    [_row(fr300=2)]).status == "holds"


def test_forced_handover_claims_need_the_delivery_service_to_have_completed_it():
    # The claims about the forced handover at 300 s are about the DS's timeout: if the DS never declared
    # the WLAN failed (the mobile node's own detection would have completed the handover), they test nothing.
    failures = SC.DS_FAILOVER.columns[0]
    # the anchor's DS first, the mobile node's second, as sobral.py lists them
    assert failures == "agent0.failures" and SC.DS_DESTROYED == "agent1.dropped"
    v = _verdict(SC.FIG4, "At 300 s a spurious timeout", [_row()])
    assert v.status == "holds" and "failure declaration engaged in 1 of 1 run" in v.ours
    v = _verdict(SC.FIG4, "At 300 s a spurious timeout", [_row(**{failures: 0})])
    assert v.status == "not checkable" and "failure declaration never engaged" in v.ours
    uh = _row(case="UH", ack3g300_s=300.24, ack3g_leave300_s=300.01, **{failures: 0})
    fh = _row(ack3g300_s=300.33, ack3g_leave300_s=300.10)
    (later,) = [c for c in T.CLAIMS if c.text.startswith("'The 90 ms timeout")]
    assert C.evaluate(later, pd.DataFrame([uh, fh])).status == "holds"
    assert C.evaluate(later, pd.DataFrame([uh, {**fh, failures: 0}])).status == "not checkable"


def test_every_sobral_figure_is_one_deterministic_run_per_configuration():
    assert all(f.deterministic for f in S.PAPER.figures)


def test_the_third_timeout_claim_needs_exactly_three_and_the_filter_engaged():
    rows = [_row(case=c, active=SC.ACTIVE, rto300=n, **{SC.DS_DESTROYED: 4}) for c, n in (("UH", 3), ("FH", 3))]
    v = _verdict(SC.FIG7, "At 300 s, without the repeated ACKs", rows)
    assert v.status == "holds" and "duplicate-ACK filter engaged in 2 of 2 runs" in v.ours
    rows[1]["rto300"] = 2
    assert _verdict(SC.FIG7, "At 300 s, without the repeated ACKs", rows).status == "does not hold"
    idle = [{**r, SC.DS_DESTROYED: 0} for r in rows]  # the filter never destroyed an ACK: nothing was tested
    v = _verdict(SC.FIG7, "At 300 s, without the repeated ACKs", idle)
    assert v.status == "not checkable" and "never engaged" in v.ours


def test_no_claim_restates_another_or_cannot_differ_by_construction():
    texts = [c.text for f in S.PAPER.figures for c in f.claims]
    assert not any("Slow-but-Steady" in t and "same" in t for t in texts)   # the timer variant is an ambiguity
    assert not any("user and the forced handover at 100 s" in t for t in texts)  # identical before 300 s
    assert not any(t.startswith("With the 2 ms reading too") for t in texts)
    spike = [c for c in SC.FIG6 if c.text.startswith("A spike after 100 s")]
    assert spike and spike[0].category == C.CONSISTENCY
    assert all(c.category == C.CALIBRATION for c in SC.READING)


def test_calibrations_are_counted_apart():
    calibrations = [c for c in SC.FIG4 + SC.FIG5 if c.category == C.CALIBRATION]
    assert len(calibrations) == 3
    v = C.evaluate(calibrations[0], pd.DataFrame([_row(case="UH", srtt_wlan_s=0.14)]))
    assert v.status == "calibration" and "meets the target" in v.ours


# -- the whole quick reproduction ----------------------------------------------------------------
def test_reproduce_sobral_quick_writes_every_figure_and_an_honest_report(tmp_path):
    done = run_vhsim("reproduce", "sobral", "--quick", "--workers", "2", "--out", str(tmp_path), timeout=300)
    assert done.returncode == 0, done.stderr
    for fig in ("fig4", "fig5", "fig6", "fig7", "internet", "cbr-reading", "uh-pause", "to-3g", "exit-fast-retrans"):
        assert (tmp_path / fig / f"{fig}.png").is_file()
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "quick mode" in report and "## fig7:" in report
    assert "hold, " in report and "calibration" in report
    # The paper's timeouts are found, the fast recoveries it reports are not (RFC 6582's careful
    # variant), and the repeated ACKs arrive when the paper says.
    assert "RTOs at 300.23 (spurious), 301.50 (spurious) s (paper: 300.28 (spurious), 301.54 (spurious) s)" in report
    assert "repeated-ACK arrivals at 301.13, 302.29 s (paper: 301.1, 302.32 s)" in report
    assert "*In the figure:* crosses: the sender's first transmissions of 8 segments" in report  # Figure 5


# -- the return to 3G (issue #26) --------------------------------------------------------------------
def test_the_forced_options_and_exit_fast_retrans_reach_the_scenario():
    point = vhsim.load(REPO / "scenarios" / S.BASE)
    for key, (_, override) in S.Point("FH", forced=("delivered", "at_failure"), exit=False).overrides().items():
        point = point.set(key, override)
    r = json.loads(point.resolved_json())
    action = next(e["action"] for e in r["timeline"] if e["at"] == 300_000_000_000)
    assert (action["kind"], action["in_flight"], action["uplink"]) == ("forced", "delivered", "at_failure")
    assert r["flows"][0]["transport"]["tcp"]["recovery"]["exit_fast_retrans"] is False
    labels = {k: label for k, (label, _) in S.Point("FH", forced=("delivered", "at_failure"), exit=False)
              .overrides().items()}
    assert labels["timeline[1]"] == "FH (delivered, at_failure)" and labels["flows.cbr.tcp.recovery"] == S.NOEXIT


def test_forced_handover_run_times_its_first_3g_ack_and_its_cwnd():
    # The default options: the MN hears nothing from the failure until the DS's copies cross the
    # UTRAN (done + 27.7 ms + 200 ms), and its first ACK then takes the UTRAN uplink's 231.1 ms.
    cols = run_columns(vhsim.load(SCEN / FILES["FH"]).run(detail="packets"))
    assert cols["ack3g_leave300_s"] == pytest.approx(cols["done300_s"] + 0.0277 + 0.2, abs=1e-3)
    assert cols["ack3g300_s"] - cols["ack3g_leave300_s"] == pytest.approx(0.2311, abs=1e-4)
    assert cols["cwnd_back300_s"] == pytest.approx(1.075, abs=1e-3) and cols["inflated300"] == 0
    # Delivered + at_failure: the segments on the WLAN at 300 s arrive and are acknowledged by the
    # UTRAN at once, as in the user handover.
    other = vhsim.load(SCEN / FILES["FH"]).with_(timeline__1__in_flight="delivered", timeline__1__uplink="at_failure")
    cols = run_columns(other.run(detail="packets"))
    assert cols["ack3g_leave300_s"] == pytest.approx(300.0068, abs=1e-4)


def test_exit_fast_retrans_false_inflates_on_the_repeated_acks_of_the_300_s_story():
    noexit = vhsim.load(SCEN / FILES["FH"]).with_(flows__cbr__tcp__recovery='{ kind = "new_reno", exit_fast_retrans = false }')
    cols = run_columns(noexit.run(detail="packets"))
    assert cols["inflated300"] == 3 and cols["fr300"] == 0
    assert cols["rto300_s"][:2] == pytest.approx([300.229, 301.502], abs=1e-3)  # the same first two timeouts


def _to3g(start: str, rows) -> C.Verdict:
    from vhsim.campaign.papers import sobral_to3g as T

    (claim,) = [c for c in T.CLAIMS if c.text.startswith(start)]
    return C.evaluate(claim, pd.DataFrame(rows), S.PAPER.names)


def _runs(**per_case) -> list[dict]:
    base = {"scheme": "newreno", "timer": "impatient", "active": "off", "rto300": 2, "fr300": 0,
            "ack3g300_s": 300.238, "ack3g_leave300_s": 300.007, "cwnd_back300_s": 1.0, "recover300_s": 8.0}
    # the DS declared the WLAN failed in the forced handover only (agent0 = the anchor's DS)
    return [{**base, "case": c, SC.DS_FAILOVER.columns[0]: float(c == "FH"), **kw} for c, kw in per_case.items()]


def test_the_return_to_3g_claims_hold_near_the_paper_and_not_away_from_it():
    near = _runs(UH={}, FH={"ack3g300_s": 300.34, "cwnd_back300_s": 1.2, "recover300_s": 7.0},
                 MIP={"rto300": 1, "recover300_s": 8.0, "rto300_s": [300.47], "rto300_spurious": [False],
                      "rto300_ssthresh": [20.0], "dup300_s": []})
    for start in ("'At second 300.33", "'The 90 ms timeout", "'... and the cwnd", "'MIP induces", "... 'it can recover"):
        assert _to3g(start, near).status == "holds", start
    far = _runs(UH={}, FH={"ack3g300_s": 300.548, "cwnd_back300_s": 0.9},
                MIP={"rto300": 2, "recover300_s": 11.0, "rto300_s": [300.47, 301.7], "rto300_spurious": [True, True],
                     "rto300_ssthresh": [20.0, 10.0], "dup300_s": [301.33]})
    for start in ("'At second 300.33", "'The 90 ms timeout", "'... and the cwnd", "'MIP induces", "... 'it can recover"):
        assert _to3g(start, far).status == "does not hold", start
