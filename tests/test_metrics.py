"""Metric names come from the summary's JSON Schema and match what runs report."""

import json
from pathlib import Path

import vhsim
from vhsim import metrics
from vhsim.campaign.store import flatten_summary

ROOT = Path(__file__).resolve().parent.parent


def test_every_campaign_column_of_a_handover_run_is_a_schema_metric():
    sc = vhsim.load(ROOT / "scenarios/limjang/wlan-to-3g.toml").with_(flows__tcp__scheme="dcr-frto-ld", timeline__0__at="20s",
                                                                       duration="60s")
    res = sc.run(seed=1)
    s = res.summary
    cols = set(flatten_summary(s))
    flow = next(iter(s["flows"].values()))
    known = set(metrics.columns(s["flows"], s["links"], handovers=len(s["handovers"]), windows=flow["windows"],
                                engagement=flow["engagement"]))
    assert cols <= known, sorted(cols - known)
    assert "tcp.ho0.time_to_n_acked_s" in cols and "tcp.fast_retransmits" in cols and "tcp.ld_accuracy" in cols
    # Scheme II's mechanisms report how often they acted (docs/schemes.md "Engagement counters").
    assert {"tcp.engagement.ld_verdicts", "tcp.engagement.frto_episodes", "tcp.engagement.dcr_delays"} <= cols


def test_metric_names_carry_the_schema_descriptions():
    assert "goodput" in metrics.flow_metrics()["goodput_kbps"].lower()
    assert "fast_retransmits" in metrics.flow_metrics()
    assert "time_to_n_acked_s" in metrics.handover_metrics()
    assert "packets_sent" in metrics.link_metrics()
    assert "wall_s" not in metrics.run_metrics()


def test_committed_summary_schema_file_is_up_to_date():
    # Regenerate with: vhsim schema --summary --out docs/summary.schema.json
    committed = json.loads((ROOT / "docs" / "summary.schema.json").read_text())
    assert committed == metrics.schema()


def test_a_run_stopped_when_complete_leaves_its_truncated_totals_empty():
    sc = vhsim.load(ROOT / "scenarios/danielkojo/fig08-mbb.toml").with_(metrics__stop="when_complete",
                                                                         metrics__handover_window="2s")
    full = flatten_summary(sc.with_(metrics__stop="end").run().summary)
    early = flatten_summary(sc.run().summary)
    assert early["stopped_at_s"] < 20
    for col, v in full.items():
        if ".ho0." in col or ".window_drops_" in col:  # known when the windows have passed
            assert early[col] == v, col
    # The old link's slow-start overflows come before the handover, the new link's after it.
    assert full["fast/forward.drops_queue_overflow"] > 0 == full["fast/forward.window_drops_queue_overflow"]
    assert full["slow/forward.window_drops_queue_overflow"] > 0
    assert early["bulk.goodput_kbps"] is None and early["delivered_segments"] is None
    assert early["bulk.scheme"] == full["bulk.scheme"]


def test_an_sctp_run_flattens_its_per_path_figures_into_schema_metrics():
    sc = vhsim.load(ROOT / "scenarios/examples/sctp-failover.toml").with_(duration="20s")
    s = sc.run(seed=1).summary
    flat = flatten_summary(s)
    # Engagement counters are a map whose names the schemes choose (docs/sctp.md lists SCTP's).
    cols = {c for c in flat if ".engagement." not in c}
    known = set(metrics.columns(s["flows"], s["links"], paths=2))
    assert cols <= known, sorted(cols - known)
    assert flat["assoc.engagement.t3_timeouts"] >= 1 and flat["assoc.engagement.fast_retransmits"] >= 0
    # Path 1 (WLAN) failed at 10 s: its T3 expiries are in its own column.
    assert flatten_summary(s)["assoc.path1.t3_expiries"] >= 1
    assert {"assoc.path0.cwnd_bytes", "assoc.fast_recoveries", "assoc.primary_path"} <= cols
    assert "paths" not in {c.split(".")[-1] for c in cols}


def test_committed_metric_names_module_is_generated_from_the_schema():
    # Regenerate with: python -m vhsim.metrics > python/vhsim/summary_names.py
    committed = (ROOT / "python" / "vhsim" / metrics.NAMES_FILE).read_text(encoding="utf-8")
    assert committed == metrics.names_module()
    from vhsim.summary_names import Flow, Handover, Link, Path

    assert Flow.GOODPUT_KBPS == "goodput_kbps" and Handover.TIME_TO_N_ACKED_S == "time_to_n_acked_s"
    assert Path.CWND_BYTES == "cwnd_bytes" and Link.PACKETS_SENT == "packets_sent"
    assert set(metrics.handover_metrics()) == {v for k, v in vars(Handover).items() if k.isupper()}


def test_campaign_columns_are_built_from_the_generated_names():
    from vhsim.campaign import metrics as M

    assert M.handover("bulk", M.TIME_TO_N_ACKED_S) == "bulk.ho0.time_to_n_acked_s"
    assert M.window("ftp", "after25") == "ftp.goodput_kbps_after25"
    assert M.link("new", M.drops("queue_overflow")) == "new/forward.drops_queue_overflow"
    # every per-flow and per-handover name the reproductions use is one the summary reports
    used = {getattr(M, n) for n in ("GOODPUT_KBPS", "SEGMENTS_SENT", "RETRANSMISSIONS", "RTO_COUNT",
                                    "SPURIOUS_RTO_COUNT", "FAST_RETRANSMITS", "LD_DECISIONS")}
    assert used <= set(metrics.flow_metrics())


def test_a_runs_decisions_come_with_the_senders_state_around_them():
    sc = vhsim.load(ROOT / "scenarios/danielkojo/fig08-mbb.toml").with_(flows__bulk__scheme="enhanced")
    res = sc.run(seed=1, detail="timeseries")
    a1, a2 = res.decisions("bulk")
    assert (a1.rule, a2.rule) == ("a1_case1", "a2_no_cut") and a1.time_s == 8.2
    # the RTO the sender traced right after A1 is the one the decision set; before, the old one
    assert a1.after.rto_s == a1.outputs["rto_s"] and a1.before.rto_s == a1.inputs["rto_s"]
    assert a1.before.flight == a1.inputs["flight_pkts"]
    assert res.state_around("bulk", 8.2) == (a1.before, a1.after)
    assert vhsim.load(ROOT / "scenarios/danielkojo/fig08-mbb.toml").run().decisions("bulk") == []


def test_engagement_counters_become_result_columns():
    from vhsim.campaign import flatten_summary
    from vhsim.result import flow_figures

    flow = {"goodput_kbps": 1.0, "engagement": {"wave_decisions": 2, "persist_episodes": 0}}
    assert flow_figures(flow)["engagement.wave_decisions"] == 2
    cols = flatten_summary({"flows": {"bulk": flow}})
    assert cols["bulk.engagement.wave_decisions"] == 2
    assert cols["bulk.engagement.persist_episodes"] == 0
    assert "bulk.engagement" not in cols


def test_node_agent_counters_become_result_columns():
    # The forced handover's Delivery Service pair (agents[0] at the HNAC, agents[1] at the MN,
    # active mode on): its declarations, resends and destroyed repeated ACKs are columns.
    sc = vhsim.load(ROOT / "scenarios/sobral/cbr-forced-handover.toml").with_(duration="305s",
                                                                              agents__1__active_mode="2s")
    s = sc.run().summary
    cols = flatten_summary(s)
    flow = next(iter(s["flows"].values()))
    known = set(metrics.columns(s["flows"], s["links"], handovers=len(s["handovers"]), windows=flow["windows"],
                                agents=len(s["agents"]), engagement=flow["engagement"]))
    assert set(cols) <= known, sorted(set(cols) - known)
    assert (cols["agent0.kind"], cols["agent0.node"], cols["agent1.node"]) == ("delivery_service", "hnac", "mn")
    assert cols["agent0.failures"] == 1 and cols["agent0.resent"] > 0
    assert cols["agent1.dropped"] > 0, "repeated ACKs destroyed after the handover to WLAN"
    assert cols["agent0.unkept"] == 0
