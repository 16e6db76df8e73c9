"""Runs of many users (issue #29): the per-flow table, the aggregates, the population plot,
and random population values following the run's seed."""

from pathlib import Path

import numpy as np
import pytest

import vhsim
from vhsim.campaign.store import flatten_summary
from vhsim import metrics
from vhsim.result import TABLE_LIMIT

ROOT = Path(__file__).resolve().parent.parent
STORM = ROOT / "scenarios" / "examples" / "handover-storm.toml"


@pytest.fixture(scope="module")
def storm():
    """The storm example with more users than summary.json keeps inline, for 40 s."""
    return vhsim.load(STORM).with_({"populations[0].count": TABLE_LIMIT + 20, "duration": "40s"}).run()


def test_aggregates_are_computed_from_the_flows(storm):
    s, flows = storm.summary, storm.flows
    a = s["aggregate"]
    goodput = flows["goodput_kbps"].to_numpy()
    assert a["flows"] == len(flows) == TABLE_LIMIT + 20
    assert a["total_goodput_kbps"] == pytest.approx(goodput.sum())
    assert a["jain_index"] == pytest.approx(goodput.sum() ** 2 / (len(goodput) * (goodput ** 2).sum()))
    assert a["goodput_kbps"]["p50"] == pytest.approx(np.percentile(goodput, 50))
    interruptions = flows["ho0.interruption_s"].dropna().to_numpy()
    assert a["interruption_s"]["n"] + a.get("interruptions_open", 0) == len(flows)
    assert a["interruption_s"]["p95"] == pytest.approx(np.percentile(interruptions, 95))
    # One row per mobile node, each with its handover and its flow's interruption.
    mobiles = storm.mobiles
    assert len(mobiles) == len(flows) and (mobiles["handovers"] == 1).all()
    assert mobiles.loc["u3", "interruption_s"] == pytest.approx(flows.loc["u3.bulk", "ho0.interruption_s"])
    assert (flows["mobile"] == [n.split(".")[0] for n in flows.index]).all()


def test_a_large_result_keeps_its_flows_in_parquet_and_reads_back(storm, tmp_path):
    storm.save(tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["flows.parquet", "goodput.parquet", "handovers.parquet", "mobiles.parquet", "summary.json"]
    import json

    on_disk = json.loads((tmp_path / "summary.json").read_text())
    assert "flows" not in on_disk and on_disk["flows_table"] == "flows.parquet"
    assert on_disk["aggregate"] == storm.summary["aggregate"]
    back = vhsim.read_result(tmp_path)
    assert back.tables == storm.tables
    for table in ("flows", "mobiles", "handovers"):
        assert getattr(back, table).shape == getattr(storm, table).shape, table
    assert back.flows.loc["u7.bulk", "goodput_kbps"] == storm.flows.loc["u7.bulk", "goodput_kbps"]
    # Saving again into the folder keeps the tables (and a smaller result removes them).
    back.save(tmp_path)
    assert (tmp_path / "flows.parquet").is_file()
    vhsim.load(STORM).with_({"populations[0].count": 3, "duration": "32s"}).run().save(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["goodput.parquet", "summary.json"]


def test_aggregates_are_campaign_columns():
    s = vhsim.load(STORM).with_({"populations[0].count": 3, "duration": "32s"}).run().summary
    flat = flatten_summary(s)
    known = set(metrics.columns(s["flows"], s["links"]))
    assert {"aggregate.jain_index", "aggregate.total_goodput_kbps", "aggregate.goodput_kbps.p50",
            "aggregate.drops_queue_overflow"} <= set(flat)
    assert {c for c in flat if c.startswith("aggregate.")} <= known


def test_the_population_plot_draws_the_three_panels(storm, tmp_path):
    from vhsim.plots_population import interruptions, population

    info = population(storm, tmp_path / "p.png")
    assert info["path"].stat().st_size > 10_000
    axes = info["figure"].axes
    assert [a.get_title() for a in axes] == ["goodput of all flows", "goodput per flow", "handover interruption"]
    assert len(interruptions(storm)) == storm.summary["aggregate"]["interruption_s"]["n"]


def test_the_cli_plots_a_saved_population(storm, tmp_path):
    from click.testing import CliRunner

    from vhsim.cli import cli

    storm.save(tmp_path / "r")
    out = CliRunner().invoke(cli, ["plot", str(tmp_path / "r"), "--population"])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "r" / "population.png").is_file()


def test_random_population_values_follow_the_runs_seed():
    sc = vhsim.load(STORM).with_({"populations[0].count": 5, "duration": "32s",
                                  "populations[0].flows.bulk.start": '{ uniform = ["0s", "2s"] }'})
    starts = {seed: [f["start_s"] for f in sc.run(seed=seed).summary["flows"].values()] for seed in (1, 2)}
    assert starts[1] != starts[2]
    assert sc.run(seed=1).summary["flows"]["u0.bulk"]["start_s"] == starts[1][0]


def test_the_scale_benchmark_gives_every_flow_the_same_path_in_shape_a():
    from vhsim.bench_scale import format_scale_table, run_scale, scenario_text

    iface = vhsim.Scenario(scenario_text("b", 3)).resolved()["mobile"][2]["interfaces"][0]
    assert "attach" not in iface and iface["attach_node"] == 2, "attached to the cell"
    rows = run_scale([1, 20], shapes=["a", "b"], quick=True)
    a1, a20, b1, b20 = rows
    assert (a1.n, a20.n, b20.shape) == (1, 20, "b")
    # Shape a scales the cell with N: each flow sees the same path, so the events per delivered
    # segment stay put; shape b shares one cell, and each flow gets about 1/20 as much.
    assert a20.events_per_segment == pytest.approx(a1.events_per_segment, rel=0.05)
    assert a20.delivered_segments == pytest.approx(20 * a1.delivered_segments, rel=0.05)
    assert b20.delivered_segments < 2 * b1.delivered_segments
    assert "events/segment" in format_scale_table(rows)


def _shared_cell_form(text: str, starts: dict[str, int]) -> str:
    """Lim & Jang's congested scenario with its ten cross flows ending at ten mobile nodes
    attached to a shared cell `x` (the node where they ended, its link the cell's) instead of at
    `x` itself; the study flow's mobile node becomes the first of `[[mobiles]]`."""
    import re

    t = text.replace("[mobile]\n", "[[mobiles]]\n").replace("[mobile.interfaces.", "[mobiles.interfaces.")
    t = t.replace("[nodes.x]", "[nodes.x]\ncell = true").replace('action = "handover"', 'action = "handover"\nmobile = "mn"')
    cross = re.search(r"\[flows\.cross\]\n(?:[^\[]*\n)", t).group(0)
    flows = "".join(f'[flows."cross.{i}"]\nfrom = "cn"\nto = "c{i}"\nscheme = "sack"\nstart = "{starts[f"cross.{i}"]}ns"\n'
                    for i in range(10))
    users = "".join(f'[nodes.c{i}]\n' for i in range(10))
    mobiles = "".join(f'[[mobiles]]\nnode = "c{i}"\nanchor = "r"\ninitial = "net"\ninterfaces.net = {{ cell = "x" }}\n'
                      for i in range(10))
    return t.replace(cross, flows).replace("[nodes.cn]", users + "[nodes.cn]", 1) + "\n" + mobiles


def test_limjangs_cross_traffic_on_a_shared_cell_is_the_same_simulation():
    # Why Lim & Jang's scenarios keep `count = 10` cross flows to one node: the shared-cell form
    # simulates exactly the same (packet trace and time series hashes equal); only the summary's
    # bookkeeping differs (cross flows of other mobile nodes do not measure the study handover).
    from vhsim import _native
    from vhsim.campaign.store import flatten_summary

    path = ROOT / "scenarios" / "limjang" / "3g-to-wlan-congested.toml"
    sets = [("duration", "80s"), ("timeline[0].at", "20s")]
    shipped = vhsim.load(path).with_(sets).run(seed=1)
    starts = {k: round(v["start_s"] * 1e9) for k, v in shipped.summary["flows"].items() if k.startswith("cross")}
    cell = _shared_cell_form(path.read_text(), starts)
    a, b = _native.fingerprint(path.read_text(), sets, 1), _native.fingerprint(cell, sets, 1)
    assert (a[0], a[1], a[3]) == (b[0], b[1], b[3])
    flat_a = flatten_summary(shipped.summary)
    flat_b = flatten_summary(vhsim.loads(cell).with_(sets).run(seed=1).summary)
    common = set(flat_a) & set(flat_b) - {"wall_s", "events"}
    assert all(flat_a[k] == flat_b[k] for k in common if not k.startswith("aggregate."))
    assert {k for k in set(flat_a) - set(flat_b)} == {k for k in flat_a if k.startswith("cross.") and ".ho0." in k}


@pytest.mark.parametrize("old, new, key, words", [
    # two mobile nodes with the same address
    ('interfaces.lte = { cell = "lte" }', 'interfaces.lte = { cell = "lte", address = "10.9.0.1" }',
     "populations[0].mobile.interfaces.lte.address", "address 10.9.0.1 is already"),
    # a population of none
    ("count = 100", "count = 0", "populations[0].count", "at least 1"),
    # a negative arrival rate, a negative link rate
    ('start = { spread = ["0s", "10s"] }', "start = { poisson = { rate = -2.0 } }",
     "populations[0].flows.bulk.start.poisson.rate", "greater than 0"),
    ('rate = "50Mbps"', 'rate = "-50Mbps"', "links.lte_air.rate", "negative values are not allowed"),
    # a mobile node without interfaces
    ('interfaces.wlan = { cell = "wlan" }\ninterfaces.lte = { cell = "lte" }\n', "",
     "populations[0].mobile", "missing field `interfaces`"),
])
def test_bad_population_input_is_one_line_naming_the_key(tmp_path, old, new, key, words):
    from click.testing import CliRunner

    from vhsim.cli import cli

    text = STORM.read_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new))
    result = CliRunner().invoke(cli, ["validate", str(path)])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 2 and len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert lines[0].startswith(f"error: {path}: {key}: ") and words in lines[0], lines[0]
