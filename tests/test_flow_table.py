"""A run of more than TABLE_LIMIT flows gets its per-flow (per-mobile-node) figures from the core
as columns (issue #29), not as JSON parsed into dicts: the tables, the saved files and what the
CLI prints must be those the dicts gave."""

import json
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import vhsim
from vhsim import _native
from vhsim.result import TABLE_LIMIT, Result

ROOT = Path(__file__).resolve().parent.parent
STORM = ROOT / "scenarios" / "examples" / "handover-storm.toml"

#: Schemes whose flows' summaries differ in shape: a loss classifier (ld_* figures), cross-layer
#: decisions, engagement counters of different mechanisms, Freeze-TCP's receiver counters.
MIXED = '{ cycle = ["sack", "dcr-ld", "enhanced", "vegas", "ftv2", "frto"] }'


def _both(sc: vhsim.Scenario) -> tuple[Result, Result]:
    """The run with its flows as a table (as Scenario.run makes it) and as dicts."""
    kwargs = dict(toml_text=sc._text, overrides=list(sc._overrides), seed=1, detail="summary")
    table = Result.from_native(_native.run(**kwargs, tables_above=TABLE_LIMIT))
    dicts = Result.from_native(_native.run(**kwargs))
    return table, dicts


@pytest.fixture(scope="module")
def runs():
    sc = vhsim.load(STORM).with_({
        "populations[0].count": TABLE_LIMIT + 5,
        "populations[0].flows.bulk.scheme": MIXED,
        "metrics.windows.early": '["5s", "15s"]',
        "duration": "35s",
    })
    return _both(sc)


def _same(a: pd.DataFrame, b: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert list(a.columns) == list(b.columns)
    assert a.index.equals(b.index) and a.index.name == b.index.name


def test_the_tables_equal_those_of_the_dicts(runs):
    table, dicts = runs
    assert "flows" not in table.summary and len(dicts.summary["flows"]) == TABLE_LIMIT + 5
    assert "mobiles" not in table.summary
    flows = table.flows
    _same(flows, dicts.flows)
    _same(table.mobiles, dicts.mobiles)
    # The mix gives float columns with gaps (ld_*: only the classifying flows), int, bool-free
    # and string columns: the typing rules are all exercised.
    assert flows["ld_accuracy"].isna().any() and flows["ld_accuracy"].notna().any()
    assert flows["retransmissions"].dtype == "int64"
    assert {"scheme", "mobile", "goodput_kbps_early", "ho0.interruption_s", "fast_retransmits"} <= set(flows)
    rest = {k: v for k, v in dicts.summary.items() if k not in ("flows", "mobiles")}
    assert {k: v for k, v in table.summary.items() if k not in ("wall_s", "events_per_s")} == \
        {k: v for k, v in rest.items() if k not in ("wall_s", "events_per_s")}


def test_saved_results_are_the_same_files(runs, tmp_path):
    table, dicts = runs
    a, b = table.save(tmp_path / "table"), dicts.save(tmp_path / "dicts")
    assert sorted(p.name for p in a.iterdir()) == sorted(p.name for p in b.iterdir())
    for name in ("flows.parquet", "mobiles.parquet"):
        assert pq.read_table(a / name).equals(pq.read_table(b / name), check_metadata=True)
    ja, jb = (json.loads((d / "summary.json").read_text()) for d in (a, b))
    for j in (ja, jb):
        j.pop("wall_s"), j.pop("events_per_s")
    assert list(ja) == list(jb) and ja == jb and ja["flows_table"] == "flows.parquet"
    _same(vhsim.read_result(a).flows, table.flows)


def test_a_population_of_idle_flows(tmp_path):
    """The memory benchmark's idle users: a cbr application (a map left out of the table)."""
    from vhsim.bench_scale import scenario_text

    table, dicts = _both(vhsim.Scenario(scenario_text("idle", TABLE_LIMIT + 1, "2s")))
    _same(table.flows, dicts.flows)
    assert repr(table) == repr(dicts)


def test_small_runs_keep_their_flows_in_the_summary():
    res = vhsim.load(STORM).with_({"populations[0].count": 3, "duration": "32s"}).run()
    assert len(res.summary["flows"]) == 3 and not res.entity_tables()


def test_the_cli_prints_the_first_flows_of_the_table(runs):
    from click.testing import CliRunner

    from vhsim.cli import _print_run

    table, dicts = runs
    outputs = []
    for r in (table, dicts):
        with CliRunner().isolation() as streams:
            _print_run(r, Path("out"))
            outputs.append(streams[0].getvalue().decode())
    # The first line has the wall time.
    assert outputs[0].splitlines()[1:] == outputs[1].splitlines()[1:]
    assert f"(the first 10 of {TABLE_LIMIT + 5} flows)" in outputs[0]
    assert "flows.parquet" in outputs[0] and "mobiles.parquet" in outputs[0]
