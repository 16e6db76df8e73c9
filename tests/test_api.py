"""Python API: loading, overrides, running, result tables."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import vhsim
from conftest import BAD_RATE, REPO

SUMMARY_KEYS = {
    "vhsim_version", "scenario", "seed", "sim_s", "wall_s", "events", "events_per_s",
    "delivered_segments", "flows", "links",
}
FLOW_KEYS = {
    "goodput_kbps", "delivered_bytes", "segments_sent", "retransmissions", "spurious_retransmissions",
    "rto_count", "spurious_rto_count", "drops", "windows", "tcp",
}
DROP_CAUSES = {"queue_overflow", "error_model", "link_down", "binding", "agent"}

TRACE_DTYPES = {
    "goodput": {"time_s": "float64", "flow": "category", "bytes": "int64"},
    # One column per variable the flow's sending endpoint reports (a TCP sender without LD here;
    # LD adds ld_tcur_s and ld_threshold_s).
    "timeseries": {
        "time_s": "float64", "flow": "category", "path": "int32", "cwnd_pkts": "float64",
        "ssthresh_pkts": "float64", "srtt_s": "float64", "rto_s": "float64", "flight_pkts": "float64",
        "state": "category",
    },
    "packets": {
        "time_s": "float64", "flow": "category", "event": "category", "seq": "int64",
        "link": "category", "cause": "category", "spurious": "int8", "size": "uint32", "src": "uint32",
        "dst": "uint32", "path": "int8", "flags": "uint8",
    },
}
RAW_DTYPES = {"flow": np.int32, "state": np.uint8, "event": np.uint8, "cause": np.uint8, "link": np.int32}


@pytest.fixture(scope="module")
def packets_result() -> vhsim.Result:
    from conftest import TINY

    return vhsim.loads(TINY).run(seed=3, detail="packets")


def test_exports_the_documented_names():
    for name in ("ScenarioError", "SimulationError", "load", "loads", "Scenario", "Result", "schemes",
                 "__version__", "read_result"):
        assert hasattr(vhsim, name), name
    assert issubclass(vhsim.ScenarioError, ValueError)
    assert issubclass(vhsim.SimulationError, RuntimeError)
    assert isinstance(vhsim.__version__, str) and vhsim.__version__


def test_version_names_the_sources_of_the_build():
    """The version is the package's and, after a `+`, the digest of the Rust sources the build
    was made from (crates/vhsim-sim/build.rs), so that a campaign never mixes or resumes runs of
    builds that could simulate differently (docs/campaigns.md "Versions")."""
    import importlib.metadata
    import re

    package, _, digest = vhsim.__version__.partition("+")
    assert package == importlib.metadata.version("vhsim")
    assert re.fullmatch(r"[0-9a-f]{12}", digest), vhsim.__version__


def test_load_reads_and_validates_a_file(tiny_path):
    sc = vhsim.load(tiny_path)
    assert isinstance(sc, vhsim.Scenario)
    assert sc.path == str(tiny_path)
    assert sc.overrides == ()
    assert sc.name == "tiny"


def test_loads_rejects_a_bad_unit_naming_the_key():
    with pytest.raises(vhsim.ScenarioError) as info:
        vhsim.loads(BAD_RATE)
    assert "links.access.rate" in str(info.value)
    assert "10Mbs" in str(info.value)


def test_load_prefixes_the_file_path_to_scenario_errors(bad_path):
    with pytest.raises(vhsim.ScenarioError) as info:
        vhsim.load(bad_path)
    msg = str(info.value)
    assert msg.startswith(f"{bad_path}:")
    assert "links.access.rate" in msg


def test_load_of_a_missing_file_raises_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such.toml"):
        vhsim.load(tmp_path / "no-such.toml")


def test_set_returns_a_new_scenario_and_leaves_the_original_alone(tiny_text):
    base = vhsim.loads(tiny_text)
    changed = base.set("flows.bulk.scheme", "newreno")
    assert changed is not base
    assert base.overrides == ()
    assert changed.overrides == (("flows.bulk.scheme", "newreno"),)
    assert changed.resolved() != base.resolved()
    assert "newreno" in changed.resolved_json()


def test_with_maps_double_underscores_to_dots_and_formats_values(tiny_text):
    sc = vhsim.loads(tiny_text).with_(links__access__rate="2Mbps", flows__bulk__sink__delayed_ack=True)
    assert sc.overrides == (("links.access.rate", "2Mbps"), ("flows.bulk.sink.delayed_ack", "true"))
    sc2 = vhsim.loads(tiny_text).with_({"flows.bulk.sink.delayed_ack": False, "seed": 9})
    assert sc2.overrides == (("flows.bulk.sink.delayed_ack", "false"), ("seed", "9"))
    sc.validate()
    sc2.validate()


def test_an_invalid_override_raises_scenario_error_naming_the_key(tiny_text):
    sc = vhsim.loads(tiny_text).set("links.access.rate", "fast")
    with pytest.raises(vhsim.ScenarioError, match="links.access.rate"):
        sc.resolved()
    with pytest.raises(vhsim.ScenarioError, match="links.access.rate"):
        sc.run()


def test_override_of_duration_changes_simulated_time(tiny_text):
    res = vhsim.loads(tiny_text).set("duration", "2s").run(detail="summary")
    assert res.summary["sim_s"] == pytest.approx(2.0)


def test_run_returns_the_summary_keys(packets_result):
    s = packets_result.summary
    assert SUMMARY_KEYS <= set(s)
    assert s["scenario"] == "tiny"
    assert s["seed"] == 3
    assert s["vhsim_version"] == vhsim.__version__
    assert set(s["flows"]) == {"bulk"}
    bulk = s["flows"]["bulk"]
    assert FLOW_KEYS <= set(bulk)
    assert set(bulk["drops"]) <= DROP_CAUSES
    assert bulk["delivered_bytes"] > 0
    assert bulk["goodput_kbps"] > 0
    for name, link in s["links"].items():
        assert name.rsplit("/", 1)[1] in ("forward", "reverse")
        assert set(link["drops"]) <= DROP_CAUSES


def test_flows_frame_has_one_row_per_flow_and_flat_drop_columns(packets_result):
    df = packets_result.flows
    assert list(df.index) == ["bulk"]
    for col in ("goodput_kbps", "delivered_bytes", "retransmissions", "spurious_retransmissions",
                "rto_count", "spurious_rto_count", "fast_retransmits"):
        assert col in df.columns
    for cause in DROP_CAUSES:
        assert f"drops_{cause}" in df.columns
    assert "drops" not in df.columns and "windows" not in df.columns
    assert df.loc["bulk", "retransmissions"] == packets_result.summary["flows"]["bulk"]["retransmissions"]


@pytest.mark.parametrize("table", ["goodput", "timeseries", "packets"])
def test_trace_frames_have_the_contract_columns_and_dtypes(packets_result, table):
    df = packets_result.trace(table)
    assert isinstance(df, pd.DataFrame)
    assert {c: str(t) for c, t in df.dtypes.items()} == TRACE_DTYPES[table]
    assert len(df) > 0
    raw = packets_result.arrays(table)
    for col, dtype in RAW_DTYPES.items():
        if col in raw:
            assert raw[col].dtype == dtype, col


def test_coded_columns_map_through_the_code_lists(packets_result):
    codes = packets_result.codes
    assert codes["flow"] == ["bulk"]
    assert codes["state"] == ["open", "disorder", "recovery", "loss"]
    # the core adds "ack_drop" after the six contract events, so data and ACK drops are told apart
    assert codes["event"][:6] == ["send", "retransmit", "receive", "ack_send", "ack_receive", "drop"]
    assert codes["cause"] == ["none", "queue_overflow", "error_model", "link_down", "binding", "agent"]
    assert all("/" in name for name in codes["link"])
    pk = packets_result.trace("packets")
    raw = packets_result.arrays("packets")
    for col in ("flow", "event", "link", "cause"):
        assert list(pk[col].cat.categories) == codes[col]
        np.testing.assert_array_equal(pk[col].cat.codes.to_numpy(), raw[col].astype(np.int64))
    # link -1 means "no link" and becomes a missing value
    assert pk["link"].isna().sum() == int((raw["link"] == -1).sum())
    assert set(pk["event"].unique()) >= {"send", "receive", "ack_send", "ack_receive"}
    ts = packets_result.trace("timeseries")
    assert list(ts["state"].cat.categories) == codes["state"]


def test_packet_trace_agrees_with_summary_counters(packets_result):
    pk = packets_result.trace("packets")
    bulk = packets_result.summary["flows"]["bulk"]
    assert int((pk["event"] == "retransmit").sum()) == bulk["retransmissions"]
    spurious = pk.loc[pk["event"] == "retransmit", "spurious"]
    assert set(spurious.unique()) <= {0, 1}
    assert int((spurious == 1).sum()) == bulk["spurious_retransmissions"]
    assert (pk.loc[pk["event"] == "send", "spurious"] == -1).all()


def test_goodput_trace_adds_up_to_delivered_bytes(packets_result):
    gp = packets_result.trace("goodput")
    assert int(gp["bytes"].sum()) == packets_result.summary["flows"]["bulk"]["delivered_bytes"]
    assert gp["time_s"].is_monotonic_increasing


def test_summary_detail_records_only_goodput(tiny_text):
    res = vhsim.loads(tiny_text).run(detail="summary")
    assert res.tables == ["goodput"]
    with pytest.raises(KeyError, match="packets"):
        res.trace("packets")


def test_timeseries_detail_has_no_packet_table(tiny_text):
    res = vhsim.loads(tiny_text).run(detail="timeseries")
    assert set(res.tables) == {"goodput", "timeseries"}


def test_run_rejects_an_unknown_detail(tiny_text):
    with pytest.raises(ValueError, match="detail"):
        vhsim.loads(tiny_text).run(detail="everything")


def test_schemes_lists_the_classic_variants():
    items = vhsim.schemes()
    names = [name for name, _ in items]
    assert {"sack", "newreno", "reno"} <= set(names)
    assert all(isinstance(desc, str) and desc for _, desc in items)


def test_scheme_gives_description_source_and_resolved_tables():
    info = vhsim.scheme("enhanced")
    assert info["name"] == "enhanced" and "Daniel & Kojo" in info["source"]
    assert 'kind = "cross_layer"' in info["toml"]
    with pytest.raises(vhsim.ScenarioError, match="unknown scheme"):
        vhsim.scheme("bbr")


def test_json_schema_is_json():
    schema = json.loads(vhsim.json_schema())
    assert isinstance(schema, dict)


EXAMPLES = sorted((REPO / "scenarios").rglob("*.toml")) + sorted((REPO / "benches").glob("*.toml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[str(p.relative_to(REPO)) for p in EXAMPLES])
def test_shipped_scenarios_validate(path: Path):
    vhsim.load(path)


def test_goodput_windows_become_flow_columns(tiny_text):
    text = tiny_text + '\n[metrics.windows]\nsteady = ["1s", "5s"]\n'
    res = vhsim.loads(text).run(detail="summary")
    windows = res.summary["flows"]["bulk"]["windows"]
    assert set(windows) == {"steady"}
    assert res.flows.loc["bulk", "goodput_kbps_steady"] == pytest.approx(windows["steady"])
