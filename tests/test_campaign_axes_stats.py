"""Campaign building blocks without simulations: axis parsing, ranges, statistics."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from vhsim.campaign import CampaignError, expand_range, parse_cli_axis, quantity, seed_for
from vhsim.campaign.axes import axis_from_toml, column_values, split_top_level, toml_literal
from vhsim.campaign.stats import mean_ci, paired_difference, quartiles, spurious_rtos, summarize


# ----------------------------------------------------------------------------- axes
def test_range_keeps_the_unit_of_start_and_excludes_stop():
    assert expand_range("range(1s, 2s, 100ms)", "a") == [f"{x}s" for x in
                                                        ("1", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9")]
    assert expand_range("range(500ms,2s,0.5s)", "a") == ["500ms", "1000ms", "1500ms"]
    assert expand_range("range(1Mbps, 3Mbps, 500kbps)", "a") == ["1Mbps", "1.5Mbps", "2Mbps", "2.5Mbps"]
    assert expand_range("range(0.005, 0.02, 0.005)", "a") == ["0.005", "0.01", "0.015"]
    assert expand_range("range(10pkt, 13pkt)", "a") == ["10pkt", "11pkt", "12pkt"]


def test_range_of_1s_to_20s_by_100ms_has_190_exact_values():
    values = expand_range("range(1s,20s,100ms)", "a")
    assert len(values) == 190 and values[1] == "1.1s" and values[-1] == "19.9s"
    assert all(re.fullmatch(r"\d+(\.\d)?s", v) for v in values)  # never 1.2000000000000002s


@pytest.mark.parametrize("text, message", [
    ("range(5s, 1s, 1s)", "is empty"),
    ("range(1s, 1s, 1s)", "is empty"),
    ("range(1s, 5s, 0s)", "step must be > 0"),
    ("range(1s, 5Mbps, 1s)", "mixes units"),
    ("range(1s)", "2 or 3 arguments"),
    ("range(1parsec, 2parsec)", "unknown unit"),
    ("range(0s, 1000s, 1ns)", "check the step"),
])
def test_bad_ranges_name_the_axis(text, message):
    with pytest.raises(CampaignError, match=message) as err:
        expand_range(text, "axis timeline[0].at")
    assert str(err.value).startswith("axis timeline[0].at:")


def test_cli_axis_splits_only_top_level_commas():
    axis = parse_cli_axis('links.access.forward.error={kind="bernoulli", p=0.01},{kind="none"}')
    assert axis.key == "links.access.forward.error"
    assert axis.labels == ['{kind="bernoulli", p=0.01}', '{kind="none"}']
    assert parse_cli_axis("timeline[0].at=range(1s,3s,1s),10s").labels == ["1s", "2s", "10s"]
    assert split_top_level("a,[1, 2],'x,y'") == ["a", "[1, 2]", "'x,y'"]


@pytest.mark.parametrize("text, message", [
    ("flows.bulk.scheme", "expected KEY=V1,V2"),
    ("=reno", "empty axis key"),
    ("flows.bulk.scheme=reno,,sack", "empty value"),
    ("flows.bulk.scheme=reno,reno", "appears twice"),
])
def test_bad_cli_axes(text, message):
    with pytest.raises(CampaignError, match=message):
        parse_cli_axis(text)


def test_toml_axis_values_become_exact_toml():
    axis = axis_from_toml("x", ["sack", "true", 0.01, 3, False, {"kind": "bernoulli", "p": 0.01}, ["0s", "1s"]])
    assert [v.override for v in axis.values] == [
        '"sack"', '"true"', "0.01", "3", "false", '{kind = "bernoulli", p = 0.01}', '["0s", "1s"]']
    assert axis.labels[:2] == ["sack", "true"]
    assert axis_from_toml("t", "range(1s,3s,1s)").labels == ["1s", "2s"]
    assert toml_literal('a "quoted" \\ string') == '"a \\"quoted\\" \\\\ string"'


def test_axis_columns_are_numbers_only_when_every_value_is_one():
    assert column_values(parse_cli_axis("p=0.005,0.01")) == [0.005, 0.01]
    assert column_values(parse_cli_axis("n=1,2")) == [1, 2]
    assert column_values(parse_cli_axis("r=1Mbps,2Mbps")) == ["1Mbps", "2Mbps"]
    assert column_values(parse_cli_axis("x=1,two")) == ["1", "two"]


def test_quantity_understands_units():
    assert quantity("100ms") == pytest.approx(0.1)
    assert quantity("2Mbps") == 2e6
    assert quantity("20pkt") == 20
    assert quantity("0.01") == 0.01
    assert quantity("sack") is None


def test_paired_and_unpaired_seeds():
    assert [seed_for(7, k, True, {"a": "x"}) for k in range(3)] == [7, 8, 9]
    assert seed_for(7, 1, True, {"a": "x"}) == seed_for(7, 1, True, {"a": "y"})
    unpaired = {seed_for(7, 1, False, {"a": v}) for v in "xyz"}
    assert len(unpaired) == 3
    assert seed_for(7, 1, False, {"a": "x"}) == seed_for(7, 1, False, {"a": "x"})  # deterministic
    assert all(0 <= s < 2**62 for s in unpaired)


# ---------------------------------------------------------------------------- stats
def test_mean_ci_against_hand_computed_values():
    # x = 1..5: mean 3, s^2 = 10/4 = 2.5, t_{0.975, 4} = 2.776445, half = t * sqrt(2.5 / 5)
    ci = mean_ci([1, 2, 3, 4, 5])
    assert ci.n == 5 and ci.mean == 3
    assert ci.std == pytest.approx(math.sqrt(2.5))
    assert ci.half_width == pytest.approx(2.776445 * math.sqrt(0.5), abs=1e-6)
    assert (ci.low, ci.high) == pytest.approx((3 - 1.963243, 3 + 1.963243), abs=1e-6)
    # x = 2, 4, 9: mean 5, s^2 = (9 + 1 + 16) / 2 = 13, t_{0.95, 2} = 2.919986 (90% CI)
    ci90 = mean_ci([2, 4, 9], confidence=0.90)
    assert ci90.half_width == pytest.approx(2.919986 * math.sqrt(13 / 3), abs=1e-5)
    # 30 replications (limjang): t_{0.975, 29} = 2.045230
    thirty = mean_ci([0.0] * 15 + [2.0] * 15)
    assert thirty.half_width == pytest.approx(2.045230 * math.sqrt(30 / 29) / math.sqrt(30), abs=1e-6)
    one = mean_ci([4.0])
    assert one.mean == 4.0 and math.isnan(one.half_width)
    assert mean_ci([1.0, float("nan"), 3.0]).n == 2


def test_quartiles_against_hand_computed_values():
    # linear interpolation (type 7): position (n-1)p
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)
    assert quartiles([7, 1, 3, 5, 9]) == (3.0, 5.0, 7.0)
    assert quartiles([10, 20]) == (12.5, 15.0, 17.5)
    assert quartiles([3]) == (3.0, 3.0, 3.0)
    assert all(math.isnan(q) for q in quartiles([]))


def _table() -> pd.DataFrame:
    rows = []
    goodput = {"reno": [100, 110, 90], "sack": [120, 125, 101]}
    rtos = {"reno": [(3, 1), (2, 0), (4, 2)], "sack": [(1, 0), (0, 0), (1, 1)]}
    for scheme in ("reno", "sack"):
        for rep in range(3):
            rows.append({"seed": 1 + rep, "rep": rep, "scheme": scheme, "p": 0.01,
                         "bulk.goodput_kbps": goodput[scheme][rep],
                         "bulk.rto_count": rtos[scheme][rep][0], "bulk.spurious_rto_count": rtos[scheme][rep][1]})
    df = pd.DataFrame(rows)
    df.attrs["axes"] = ["scheme", "p"]
    return df


def test_summarize_per_configuration():
    s = summarize(_table(), "bulk.goodput_kbps")
    assert list(s["scheme"]) == ["reno", "sack"]
    reno = s.iloc[0]
    assert reno["n"] == 3 and reno["mean"] == 100 and reno["median"] == 100
    assert (reno["q1"], reno["q3"]) == (95, 105)
    # s = 10, t_{0.975, 2} = 4.302653
    assert reno["ci_half_width"] == pytest.approx(4.302653 * 10 / math.sqrt(3), abs=1e-5)
    with pytest.raises(KeyError, match="goodput"):
        summarize(_table(), "goodput")


def test_spurious_rto_counts_and_rates():
    s = spurious_rtos(_table(), "bulk").set_index("scheme")
    assert s.loc["reno", "rtos"] == 9 and s.loc["reno", "spurious_rtos"] == 3
    assert s.loc["reno", "spurious_rto_rate"] == pytest.approx(3 / 9)
    assert s.loc["reno", "runs_with_spurious_rto"] == 2
    assert s.loc["sack", "share_runs_with_spurious_rto"] == pytest.approx(1 / 3)
    assert s.loc["sack", "spurious_rtos_per_run"] == pytest.approx(1 / 3)


def test_paired_difference_pairs_by_seed():
    d = paired_difference(_table(), "bulk.goodput_kbps", "scheme", "sack", "reno").iloc[0]
    # differences 20, 15, 11: mean 15.333, s^2 = (21.78 + 0.11 + 18.78) / 2 = 20.333
    assert d["n_pairs"] == 3 and d["mean_diff"] == pytest.approx(46 / 3)
    assert d["ci_half_width"] == pytest.approx(4.302653 * math.sqrt(61 / 3 / 3), abs=1e-4)
    assert d["excludes_zero"]
    unpaired = _table()
    unpaired.loc[unpaired.scheme == "sack", "seed"] += 100
    with pytest.raises(ValueError, match="share a seed"):
        paired_difference(unpaired, "bulk.goodput_kbps", "scheme", "sack", "reno")


def test_handover_metrics_are_flattened_per_handover():
    from vhsim.campaign.store import flatten_summary

    summary = {
        "events": 10,
        "flows": {"bulk": {"goodput_kbps": 1.0, "handovers": [{"rtos": 2, "time_to_n_acked_s": None}, {"rtos": 0, "time_to_n_acked_s": 1.5}]}},
    }
    flat = flatten_summary(summary)
    assert flat["bulk.ho0.rtos"] == 2 and flat["bulk.ho0.time_to_n_acked_s"] is None
    assert flat["bulk.ho1.time_to_n_acked_s"] == 1.5
