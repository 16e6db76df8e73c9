"""Plot functions of vhsim.plots used directly from Python."""

from __future__ import annotations

import pytest

import vhsim
import vhsim.plots
from conftest import TINY


@pytest.fixture(scope="module")
def result():
    return vhsim.loads(TINY.replace("p = 0.01", "p = 0.03")).run(seed=1, detail="packets")


def test_time_sequence_marks_sends_retransmissions_and_drops(result):
    ax = vhsim.plots.time_sequence(result, flow="bulk")
    labels = [line.get_label() for line in ax.get_lines()]
    assert any(label.startswith("sent") for label in labels)
    bulk = result.summary["flows"]["bulk"]
    if bulk["retransmissions"] - bulk["spurious_retransmissions"] > 0:
        assert any(label.startswith("retransmitted") for label in labels)
    if bulk["spurious_retransmissions"] > 0:
        assert any(label.startswith("spurious") for label in labels)
    if sum(bulk["drops"].values()) > 0:
        assert any(label.startswith("dropped") for label in labels)


def test_cwnd_draws_cwnd_and_ssthresh(result):
    ax = vhsim.plots.cwnd(result)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "cwnd" in labels
    assert ax.get_ylabel() == "packets"


def test_overview_writes_a_two_panel_png(result, tmp_path):
    info = vhsim.plots.overview(result, tmp_path / "o.png")
    assert info["flow"] == "bulk" and info["missing"] == []
    assert (tmp_path / "o.png").stat().st_size > 10_000


def test_plots_need_the_right_detail(tiny_text):
    res = vhsim.loads(tiny_text).run(detail="summary")
    with pytest.raises(vhsim.plots.MissingTraceError, match="packets"):
        vhsim.plots.time_sequence(res)
    with pytest.raises(vhsim.plots.MissingTraceError, match="timeseries"):
        vhsim.plots.cwnd(res)
    with pytest.raises(vhsim.plots.MissingTraceError):
        vhsim.plots.overview(res, "never.png")


def test_cwnd_of_an_sctp_association_draws_one_line_per_path():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    res = vhsim.load(root / "scenarios/examples/sctp-failover.toml").with_(duration="15s").run(seed=1)
    ax = vhsim.plots.cwnd(res)
    assert [line.get_label() for line in ax.get_lines()] == ["cwnd path 0", "cwnd path 1"]
    assert ax.get_ylabel() == "bytes"
