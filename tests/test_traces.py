"""Bounded traces (issue #19 item 4): the size estimate and guard, and trace filters."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import vhsim
from vhsim import tracesize
from vhsim.cli import cli

REPO = Path(__file__).resolve().parent.parent
BULK = REPO / "scenarios" / "examples" / "bulk-3g.toml"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_the_guard_refuses_the_million_second_packets_run_without_running_it(runner, tmp_path):
    started = time.monotonic()
    result = runner.invoke(cli, ["run", str(BULK), "--set", "duration=1000000s", "--detail", "packets",
                                 "--out", str(tmp_path / "o")])
    assert time.monotonic() - started < 5
    assert result.exit_code == 2
    line = result.stderr.strip()
    assert line.startswith("error: this run would record about ") and "packet rows" in line, line
    assert "above the limit of 1.0 GB" in line and "--trace-window" in line and "--trace-limit" in line
    assert not (tmp_path / "o").exists()
    # 384 kb/s, 1040-byte packets: 46.2 segments/s for 10^6 s; the library's delayed ACKs (RFC
    # 5681 §4.2) make half an ACK per segment: 2 + 2 x 0.5 = 3 packet rows and 0.5 time-series
    # row per segment.
    est = tracesize.estimate(vhsim.load(BULK).set("duration", "1000000s"), "packets")
    assert est.rows["packets"] == pytest.approx(384_000 / 8_320 * 3 * 1e6, rel=1e-6)
    assert est.rows["timeseries"] == pytest.approx(384_000 / 8_320 * 0.5 * 1e6, rel=1e-6)
    assert est.bytes == 27 * est.rows["packets"] + 69 * est.rows["timeseries"] + 20 * 1_000_000


def test_a_trace_window_brings_the_same_run_under_the_limit(runner, tmp_path, tiny_path):
    args = ["run", str(BULK), "--set", "duration=1000000s", "--detail", "packets", "--out", str(tmp_path / "o")]
    est = tracesize.estimate(vhsim.load(BULK).set("duration", "1000000s"), "packets", trace_window="295s..320s")
    assert tracesize.check(est, tracesize.DEFAULT_LIMIT) is None
    assert est.rows["packets"] == pytest.approx(46.15 * 25 * 3, rel=0.01)  # 3 rows a segment, as above
    # The limit is a flag: a tiny one refuses even a short run, 'none' turns it off.
    small = runner.invoke(cli, ["run", str(BULK), "--trace-limit", "10kB", "--out", str(tmp_path / "s")])
    assert small.exit_code == 2 and "above the limit of 10.0 kB" in small.stderr
    off = runner.invoke(cli, ["run", str(tiny_path), "--set", "duration=2s", "--trace-limit", "none",
                              "--out", str(tmp_path / "n")])
    assert off.exit_code == 0, off.output
    bad = runner.invoke(cli, [*args[:-2], "--trace-limit", "lots"])
    assert bad.exit_code == 2 and "trace_limit: 'lots' is not a size" in bad.stderr


@pytest.mark.parametrize("scenario", ["examples/bulk-3g.toml", "danielkojo/fig08-mbb.toml",
                                      "kimkoh/switch-pair-tcp.toml", "limjang/ld-trace-3g-to-wlan.toml",
                                      "sobral/cbr-user-handover.toml", "examples/handover-3g-wlan.toml"])
def test_the_estimate_is_close_to_the_real_row_counts(scenario):
    sc = vhsim.load(REPO / "scenarios" / scenario)
    est = tracesize.estimate(sc, "packets")
    res = sc.run(detail="packets")
    for table in ("packets", "goodput"):
        real = len(res.arrays(table)["time_s"])
        assert 0.8 <= est.rows[table] / real <= 2.0, (table, est.rows[table], real)
    assert 0.8 <= est.events / res.summary["events"] <= 2.0


def test_sizes_parse_and_print():
    assert tracesize.parse_size("1GB") == 10**9
    assert tracesize.parse_size("1.5 MB") == 1_500_000
    assert tracesize.parse_size("2GiB") == 2 * 2**30
    assert tracesize.parse_size("none") is None
    for bad in ("", "GB", "-1GB", "1XB", "inf GB"):
        with pytest.raises(vhsim.ScenarioError, match="trace_limit"):
            tracesize.parse_size(bad)
    assert tracesize.format_size(1.5e9) == "1.5 GB" and tracesize.format_size(999) == "999 B"


# ------------------------------------------------------------------------------ filters
def test_a_trace_window_writes_only_rows_inside_the_window(runner, tmp_path):
    out = tmp_path / "w"
    result = runner.invoke(cli, ["run", str(BULK), "--detail", "packets", "--trace-window", "20s..30s",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    res = vhsim.read_result(out)
    for table in ("packets", "timeseries"):
        t = res.arrays(table)["time_s"]
        assert len(t) > 100, table
        assert t.min() >= 20.0 and t.max() < 30.0, table
    assert res.arrays("timeseries")["time_s"][0] == 20.0, "the state in force at the window's start"
    full = vhsim.load(BULK).run(detail="packets")
    pk, fpk = res.arrays("packets"), full.arrays("packets")
    inside = (fpk["time_s"] >= 20.0) & (fpk["time_s"] < 30.0)
    for col in ("time_s", "event", "seq", "link", "spurious"):
        np.testing.assert_array_equal(pk[col], fpk[col][inside], err_msg=col)
    assert len(res.arrays("goodput")["time_s"]) == 60, "the goodput table is never filtered"
    assert res.summary["flows"] == full.summary["flows"], "filters change what is recorded, not the run"


def test_flow_link_and_event_filters(tiny_text):
    sc = vhsim.loads(tiny_text)
    res = sc.run(detail="packets", trace_flows="bulk", trace_links=["access"], trace_events=["drop", "send"])
    pk = res.trace("packets")
    assert set(pk["event"]) == {"drop"}, "sends leave on the wired link, drops happen on the access link"
    assert set(pk["link"]) == {"access/forward"}
    res2 = sc.run(detail="packets", trace_links="wired/forward", trace_events="send", trace_window=(None, "2s"))
    pk2 = res2.trace("packets")
    assert set(pk2["event"]) == {"send"} and set(pk2["link"]) == {"wired/forward"} and pk2["time_s"].max() < 2


@pytest.mark.parametrize("kwargs, key", [
    (dict(trace_window="5s"), "trace_window"),
    (dict(trace_window="3s..1s"), "trace_window"),
    (dict(trace_window="9s.."), "trace_window"),
    (dict(trace_window=(1, 2)), "trace_window"),
    (dict(trace_flows=["nope"]), "trace_flows"),
    (dict(trace_links="nope"), "trace_links"),
    (dict(trace_events=["resend"]), "trace_events"),
    (dict(trace_events=[3]), "trace_events"),
])
def test_bad_filters_raise_scenario_error_naming_the_option(tiny_text, kwargs, key):
    with pytest.raises(vhsim.ScenarioError, match=f"^{key}: "):
        vhsim.loads(tiny_text).run(detail="packets", **kwargs)


def test_bad_filters_on_the_command_line_exit_2(runner, tiny_path):
    result = runner.invoke(cli, ["run", str(tiny_path), "--trace-event", "resend"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: trace_events: unknown packet event `resend` (events: `send`,")
