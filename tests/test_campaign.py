"""Campaigns end to end: definitions, run identity, paired seeds, the store, backends, errors."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

import vhsim
from vhsim import campaign
from vhsim.campaign import CampaignError, CampaignSpec, CampaignVersionError, run_campaign, run_identity

from conftest import record_lines, run_vhsim

SCHEMES = "flows.bulk.scheme=reno,newreno,sack"
LOSSES = "links.access.forward.error.p=0.01,0.05"


@pytest.fixture
def spec(tiny_path: Path) -> CampaignSpec:
    """3 schemes x 2 loss rates x 2 replications of the 5 s tiny scenario: 12 runs."""
    return CampaignSpec.from_cli(str(tiny_path), [SCHEMES, LOSSES], replications=2)


def _runs(folder: Path) -> list[bytes]:
    return record_lines(folder)


# ------------------------------------------------------------------------ the basics
def test_sweep_stores_one_row_per_run_in_canonical_order(spec, tmp_path):
    report = run_campaign(spec, tmp_path / "c", workers=1)
    assert (report.total, report.executed, report.already_done, report.failed) == (12, 12, 0, [])
    df = campaign.open(tmp_path / "c").results()
    assert len(df) == 12 and len(_runs(tmp_path / "c")) == 12
    assert list(df.columns[:7]) == ["config", "rep", "seed", "run_id", "vhsim_version",
                                    "flows.bulk.scheme", "links.access.forward.error.p"]
    assert list(zip(df.config, df.rep)) == sorted(zip(df.config, df.rep))
    assert list(df["flows.bulk.scheme"].iloc[::4]) == ["reno", "newreno", "sack"]
    assert df["links.access.forward.error.p"].dtype == float
    for column in ("bulk.goodput_kbps", "bulk.rto_count", "bulk.spurious_rto_count", "bulk.drops_error_model",
                   "access/forward.packets_sent", "events"):
        assert column in df.columns
    assert "wall_s" not in df.columns and "bulk.scheme" in df.columns
    assert (df["bulk.scheme"] == df["flows.bulk.scheme"]).all()
    assert (df.vhsim_version == vhsim.__version__).all()
    assert df.attrs["axes"] == ["flows.bulk.scheme", "links.access.forward.error.p"]
    # more loss, less goodput: the axis values really reached the simulator
    means = df.groupby("links.access.forward.error.p")["bulk.goodput_kbps"].mean()
    assert means[0.01] > means[0.05]


def test_a_second_sweep_runs_nothing_and_a_larger_one_only_the_new_runs(spec, tmp_path):
    run_campaign(spec, tmp_path / "c", workers=1)
    again = run_campaign(spec, tmp_path / "c", workers=1)
    assert (again.executed, again.already_done) == (0, 12)
    more = run_campaign(spec.with_options(replications=3), tmp_path / "c", workers=1)
    assert (more.executed, more.already_done) == (6, 12)
    assert len(campaign.open(tmp_path / "c").results()) == 18


def test_a_resumed_campaign_reads_its_cached_plan_instead_of_validating_again(spec, tmp_path, monkeypatch):
    from vhsim.campaign import spec as spec_module

    run_campaign(spec, tmp_path / "c", workers=1)
    cache = tmp_path / "c" / f"plan-{spec_module._file_safe(vhsim.__version__)}.json"
    assert cache.is_file()
    spec_module._PLANS.clear()  # as in a new process
    spec_module._CACHED.clear()
    calls = []
    real = vhsim.Scenario.resolved
    monkeypatch.setattr(vhsim.Scenario, "resolved", lambda self: calls.append(1) or real(self))
    again = run_campaign(spec, tmp_path / "c", workers=1)
    # (one resolve names the scenario in the results table; none validates a configuration)
    assert (again.executed, again.already_done, len(calls)) == (0, 12, 1)
    # another definition in the same folder does not take the cached plan: it is validated
    spec_module._PLANS.clear()
    spec_module._CACHED.clear()
    more = run_campaign(spec.with_options(replications=3), tmp_path / "c", workers=1)
    assert (more.executed, more.already_done) == (6, 12) and len(calls) >= 6
    # the cache now holds the larger definition's plan; one that does not parse is ignored
    spec_module._PLANS.clear()
    spec_module._CACHED.clear()
    cache.write_text("{not json", encoding="utf-8")
    n = len(calls)
    assert len(spec.with_options(replications=3).plan(vhsim.__version__, cache_dir=tmp_path / "c")) == 18
    import json

    assert len(calls) > n  # validated again, and the unreadable cache replaced by a good one
    assert len(json.loads(cache.read_text(encoding="utf-8"))["runs"]) == 18


def test_run_id_is_the_hash_of_resolved_scenario_seed_and_version(spec, tiny_text):
    run = spec.plan(vhsim.__version__)[5]
    scenario = vhsim.Scenario(tiny_text, run.overrides).set("seed", run.seed)
    assert run.run_id == run_identity(scenario.resolved(), vhsim.__version__)
    # what is recorded (detail) is not part of the identity; the version is
    assert run.run_id == run_identity(scenario.set("output.detail", "summary").resolved(), vhsim.__version__)
    assert run.run_id != run_identity(scenario.resolved(), "0.0.0")
    assert len({r.run_id for r in spec.plan(vhsim.__version__)}) == 12


def test_paired_seeds_by_default_and_unpaired_on_request(spec, tmp_path):
    run_campaign(spec, tmp_path / "paired", workers=1)
    df = campaign.open(tmp_path / "paired").results()
    for rep, group in df.groupby("rep"):
        assert set(group.seed) == {1 + rep}  # the scenario's seed is 1: replication k has seed 1 + k
    run_campaign(spec.with_options(paired_seeds=False), tmp_path / "unpaired", workers=1)
    un = campaign.open(tmp_path / "unpaired").results()
    for _, group in un.groupby("rep"):
        assert group.seed.nunique() == len(group) == 6
    assert not set(un.seed) & set(df.seed)
    with pytest.raises(ValueError, match="share a seed"):
        campaign.stats.paired_difference(un, "bulk.goodput_kbps", "flows.bulk.scheme", "sack", "reno")
    # the CLI switch does the same
    r = run_vhsim("sweep", spec.scenario_path, "-p", SCHEMES, "--reps", "1", "--no-paired-seeds",
                  "--campaign", tmp_path / "cli", "--workers", "1")
    assert r.returncode == 0, r.stderr
    assert campaign.open(tmp_path / "cli").results().seed.nunique() == 3


def test_local_pool_1_and_2_workers_and_dask_give_identical_tables(spec, tmp_path):
    pytest.importorskip("distributed")
    run_campaign(spec, tmp_path / "w1", workers=1)
    run_campaign(spec, tmp_path / "w2", workers=2)
    run_campaign(spec, tmp_path / "dask", workers=2, dask="local")
    tables = [campaign.open(tmp_path / d).results() for d in ("w1", "w2", "dask")]
    assert len(tables[0]) == 12
    for other in tables[1:]:
        pd.testing.assert_frame_equal(tables[0], other, check_exact=True)
    files = [pq.read_table(tmp_path / d / "results.parquet") for d in ("w1", "w2", "dask")]
    assert files[0].equals(files[1]) and files[0].equals(files[2])


def test_a_warm_pool_runs_several_campaigns_with_the_same_workers_and_results(spec, tmp_path):
    """runner.WorkerPool: started once, before any plan; every campaign run on it uses the same
    worker processes and stores the table a pool of its own gives."""
    from vhsim.campaign import WorkerPool

    other = CampaignSpec.from_cli(str(spec.scenario_path), [SCHEMES], replications=1)
    with WorkerPool(2) as pool:
        workers = set(pool.executor._processes)
        assert len(workers) == 2, "fork starts every worker when the pool is entered"
        first = run_campaign(spec, tmp_path / "p1", pool=pool)
        second = run_campaign(other, tmp_path / "p2", pool=pool)
        assert set(pool.executor._processes) == workers
        assert first.backend == second.backend == "2 local processes (kept warm)"
    with pytest.raises(CampaignError, match="not running"):
        pool.executor
    run_campaign(spec, tmp_path / "own", workers=2)
    pd.testing.assert_frame_equal(campaign.open(tmp_path / "p1").results(), campaign.open(tmp_path / "own").results(),
                                  check_exact=True)
    assert len(campaign.open(tmp_path / "p2").results()) == 3


def test_duckdb_query_on_the_results_table(spec, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    run_campaign(spec, tmp_path / "c", workers=1)
    table = tmp_path / "c" / "results.parquet"
    got = duckdb.sql(
        f"""SELECT "flows.bulk.scheme" AS scheme, count(*) AS runs, avg("bulk.goodput_kbps") AS goodput
            FROM read_parquet('{table}') WHERE "links.access.forward.error.p" = 0.05
            GROUP BY scheme ORDER BY scheme""").df()
    df = campaign.open(tmp_path / "c").results()
    want = (df[df["links.access.forward.error.p"] == 0.05].groupby("flows.bulk.scheme")["bulk.goodput_kbps"]
            .agg(["count", "mean"]).sort_index())
    assert list(got.scheme) == list(want.index) == ["newreno", "reno", "sack"]
    assert list(got.runs) == [2, 2, 2]
    assert got.goodput.to_numpy() == pytest.approx(want["mean"].to_numpy())


def test_export_csv_and_metric_selection(spec, tmp_path):
    run_campaign(spec.with_options(metrics=("bulk.goodput_kbps", "*.rto_count")), tmp_path / "c", workers=1)
    r = run_vhsim("export", tmp_path / "c", "--csv", tmp_path / "out.csv")
    assert r.returncode == 0, r.stderr
    csv = pd.read_csv(tmp_path / "out.csv")
    assert list(csv.columns) == ["config", "rep", "seed", "run_id", "vhsim_version", "flows.bulk.scheme",
                                 "links.access.forward.error.p", "bulk.goodput_kbps", "bulk.rto_count"]
    assert len(csv) == 12
    assert run_vhsim("export", tmp_path / "c").returncode == 2


def test_traces_are_kept_when_asked(tiny_path, tmp_path):
    spec = CampaignSpec.from_cli(str(tiny_path), ["flows.bulk.scheme=reno,sack"], detail="timeseries")
    run_campaign(spec, tmp_path / "c", workers=1)
    camp = campaign.open(tmp_path / "c")
    for run in camp.plan():
        res = vhsim.read_result(camp.trace_dir(run.run_id))
        assert res.has_trace("timeseries") and not res.has_trace("packets")
    # asking for more detail later re-runs the runs, which keep their ids and numbers
    before = camp.results()
    report = run_campaign(spec.with_options(detail="packets"), tmp_path / "c", workers=1)
    assert report.executed == 2
    assert (camp.trace_dir(camp.plan()[0].run_id) / "packets.parquet").is_file()
    pd.testing.assert_frame_equal(before, campaign.open(tmp_path / "c").results())


def test_a_failed_run_is_recorded_not_counted_and_retried(spec, tmp_path, monkeypatch):
    from vhsim.campaign import runner

    real = runner.execute_run
    victim = spec.plan(vhsim.__version__)[3].run_id

    def flaky(task):
        if task[0] == victim:
            return {"run_id": victim, "ok": False, "error": "simulation failed: boom"}
        return real(task)

    monkeypatch.setattr(runner, "execute_run", flaky)
    report = run_campaign(spec, tmp_path / "c", workers=1)
    assert [r.run_id for r, _ in report.failed] == [victim] and report.executed == 11
    assert (tmp_path / "c" / "failures" / f"{victim}.json").is_file()
    assert campaign.open(tmp_path / "c").status()["missing"] == 1
    monkeypatch.setattr(runner, "execute_run", real)
    assert run_campaign(spec, tmp_path / "c", workers=1).executed == 1
    assert not (tmp_path / "c" / "failures" / f"{victim}.json").exists()


def test_campaign_toml_file(tiny_path, tmp_path):
    (tmp_path / "camp.toml").write_text(f"""
scenario = "{tiny_path.name}"
replications = 2
seed = 10
metrics = ["bulk.*"]
[set]
"duration" = "3s"
[axes]
"flows.bulk.scheme" = ["reno", "sack"]
"links.access.forward.error" = [{{kind = "bernoulli", p = 0.01}}, {{kind = "none"}}]
""", encoding="utf-8")
    spec, folder = CampaignSpec.from_toml_file(tmp_path / "camp.toml")
    assert folder is None and spec.replications == 2 and spec.fixed == (("duration", '"3s"'),)
    assert spec.axes[1].labels == ['{kind = "bernoulli", p = 0.01}', '{kind = "none"}']
    r = run_vhsim("sweep", "--file", tmp_path / "camp.toml", "--campaign", tmp_path / "c", "--workers", "1")
    assert r.returncode == 0, r.stderr
    df = campaign.open(tmp_path / "c").results()
    assert len(df) == 8 and set(df.seed) == {10, 11}
    assert (df["bulk.drops_error_model"][df["links.access.forward.error"] == '{kind = "none"}'] == 0).all()
    assert all(c.startswith("bulk.") for c in df.columns[7:])


# ------------------------------------------------------------ bad input, before any run
@pytest.mark.parametrize("param, message", [
    ("flows.bulk.shceme=reno,sack", "axis flows.bulk.shceme, value 'reno': .*unknown field `shceme`"),
    ("links.acess.rate=1Mbps", "axis links.acess.rate.*no link named `acess`"),
    ("timeline[0].at=range(5s,1s,1s)", "axis timeline\\[0\\].at: 'range\\(5s,1s,1s\\)' is empty"),
    ("flows.bulk.scheme=reno,bbr", "axis flows.bulk.scheme, value 'bbr': .*unknown scheme `bbr`"),
    ("links.access.rate=1Mbps,2Mbs", "axis links.access.rate, value '2Mbs': .*unknown unit"),
    ("links.access.forward.error.p=0.01,1.5", "value '1.5'.*not a probability"),
    ("duration=10s,3s,1s", None),  # all valid: control case
])
def test_bad_axis_is_reported_before_any_run(tiny_path, tmp_path, param, message):
    folder = tmp_path / "c"
    r = run_vhsim("sweep", tiny_path, "-p", param, "--campaign", folder, "--workers", "1")
    if message is None:
        assert r.returncode == 0, r.stderr
        return
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") <= 2 and "Traceback" not in r.stderr
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")][0]
    assert re.search(message, line), line
    assert not folder.exists()  # nothing was run, nothing was written


def test_a_plan_validated_on_worker_processes_is_the_plan_validated_here(tiny_path, monkeypatch):
    from concurrent.futures import ProcessPoolExecutor

    from vhsim.campaign import spec as S

    monkeypatch.setattr(S, "_CHUNK", 2)  # several chunks, the bad configuration in a later one
    good = CampaignSpec.from_cli(str(tiny_path), ["duration=2s,3s,4s,5s,6s", "flows.bulk.scheme=sack,newreno"])
    bad = CampaignSpec.from_cli(str(tiny_path), ["duration=4s,5s,2s", 'metrics.windows.w=["0s", "3s"]'])
    with ProcessPoolExecutor(2) as pool:
        parallel = good._validate_and_plan(vhsim.__version__, pool.map)
        with pytest.raises(CampaignError, match=r"configuration 2 \(duration=2s, .*end 3s is after the end"):
            bad._validate_and_plan(vhsim.__version__, pool.map)
    assert parallel == good._validate_and_plan(vhsim.__version__, map) and len(parallel) == 10


def test_bad_combination_and_bad_campaign_files(tiny_path, tmp_path):
    # each value is fine alone; one combination is not (the window ends after the run)
    spec = CampaignSpec.from_cli(str(tiny_path), ["duration=2s,5s", 'metrics.windows.w=["0s", "1s"],["0s", "4s"]'])
    with pytest.raises(CampaignError, match=r'configuration 1 \(duration=2s, metrics.windows.w=\["0s", "4s"\]\).*'
                                            r"metrics.windows.w: end 4s is after the end of the run"):
        run_campaign(spec, tmp_path / "c", workers=1)
    assert not (tmp_path / "c").exists()
    with pytest.raises(CampaignError, match="--zip needs axes of equal length"):
        CampaignSpec.from_cli(str(tiny_path), [SCHEMES, LOSSES], zip_axes=True)
    (tmp_path / "bad.toml").write_text(f'scenario = "{tiny_path.name}"\nreplication = 3\n', encoding="utf-8")
    r = run_vhsim("sweep", "--file", tmp_path / "bad.toml")
    assert r.returncode == 2 and "unknown key 'replication'" in r.stderr
    (tmp_path / "stuff").mkdir()
    (tmp_path / "stuff" / "notes.txt").write_text("mine")
    r = run_vhsim("sweep", tiny_path, "-p", SCHEMES, "--campaign", tmp_path / "stuff")
    assert r.returncode == 2 and "not a campaign folder" in r.stderr


def test_a_campaign_of_another_version_is_not_mixed_in(spec, tmp_path, monkeypatch):
    folder = tmp_path / "c"
    monkeypatch.setattr(vhsim, "__version__", "0.0.1-old")
    run_campaign(spec, folder, workers=1)
    monkeypatch.undo()
    old = campaign.open(folder).results()
    assert (old.vhsim_version == "0.0.1-old").all()

    with pytest.raises(CampaignVersionError, match="12 runs made by vhsim 0.0.1-old"):
        run_campaign(spec, folder, workers=1)
    r = run_vhsim("sweep", spec.scenario_path, "-p", SCHEMES, "-p", LOSSES, "--reps", "2", "--campaign", folder)
    assert r.returncode == 2
    assert "vhsim 0.0.1-old" in r.stderr and "--rerun-other-versions" in r.stderr
    assert set(campaign.open(folder).versions()) == {"0.0.1-old"}  # nothing ran

    r = run_vhsim("sweep", spec.scenario_path, "-p", SCHEMES, "-p", LOSSES, "--reps", "2", "--campaign", folder,
                  "--rerun-other-versions", "--workers", "1")
    assert r.returncode == 0, r.stderr
    camp = campaign.open(folder)
    assert camp.versions() == {"0.0.1-old": 12, vhsim.__version__: 12}
    new = camp.results()
    assert (new.vhsim_version == vhsim.__version__).all() and len(new) == 12
    assert (camp.results(version="0.0.1-old").vhsim_version == "0.0.1-old").all()
    assert list(new["bulk.goodput_kbps"]) == list(old["bulk.goodput_kbps"])  # same simulator underneath


def test_sweep_cli_resumes_from_the_folder_alone(spec, tmp_path):
    r = run_vhsim("sweep", spec.scenario_path, "-p", SCHEMES, "--campaign", tmp_path / "c", "--workers", "2")
    assert r.returncode == 0, r.stderr
    assert "3/3 runs done" in r.stdout
    r = run_vhsim("sweep", "--campaign", tmp_path / "c", "--reps", "2", "--dry-run")
    assert r.returncode == 0 and "6 runs, 3 already in" in r.stdout
    r = run_vhsim("sweep", "--campaign", tmp_path / "c", "--reps", "2", "--workers", "1")
    assert r.returncode == 0 and "(3 run now on 1 process, 3 already stored)" in r.stdout


def test_the_folder_is_locked_while_a_sweep_runs(spec, tmp_path):
    import subprocess
    import sys

    folder = tmp_path / "c"
    folder.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); "
         "fcntl.lockf(f.fileno(), fcntl.LOCK_EX); print('locked', flush=True); time.sleep(60)",
         str(folder / ".lock")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(CampaignError, match="being run by another process"):
            run_campaign(spec, folder, workers=1)
    finally:
        holder.kill()
        holder.wait()
    assert run_campaign(spec, folder, workers=1).executed == 12  # free again once the holder is gone


# -------------------------------------------------------------------------- branching
def test_a_handover_instant_axis_runs_as_branches_with_the_results_of_independent_runs(tmp_path, monkeypatch):
    """Issue #16: runs that differ only in a handover instant (and the duration) share their
    past; the table equals that of independent runs, and the grouping is as documented."""
    from vhsim.campaign.runner import branch_units

    fig8 = Path(__file__).resolve().parent.parent / "scenarios" / "danielkojo" / "fig08-mbb.toml"
    axes = ["timeline[0].at=3s,5s,6.5s,9s", "flows.bulk.scheme=regular,enhanced", "links.slow.queue=5pkt,50pkt"]
    spec = CampaignSpec.from_cli(str(fig8), axes, replications=2)
    plan = spec.plan(vhsim.__version__)
    tasks = [(r.run_id, spec.scenario_text, r.overrides, spec.scenario_path, r.seed, "summary") for r in plan]
    units = branch_units(tasks)
    assert len(units) == 2 * 2 * 2 and all(len(u) == 4 for u in units), "one group per scheme, queue and seed"
    # A group the core cannot branch falls back to independent runs, which would give the same
    # table: here every group must branch (run_branches alone, no fallback to execute_run).
    from vhsim.campaign import runner

    def fell_back(task):
        raise AssertionError(f"group of {task[0]} was not run as branches")

    monkeypatch.setattr(runner, "execute_run", fell_back)
    branched = run_campaign(spec, tmp_path / "b", workers=1).campaign.results()
    monkeypatch.undo()
    alone = run_campaign(spec, tmp_path / "a", workers=1, branching=False).campaign.results()
    pd.testing.assert_frame_equal(branched, alone)
    assert branched["bulk.ho0.time_to_n_acked_s"].notna().sum() > 20


# ------------------------------------------------------------- the parent's cheaper steps
def test_a_record_is_the_same_line_whether_the_worker_encoded_its_metrics(spec, tmp_path):
    # Workers send the metrics' names and the JSON text of their values (runner._finished); the
    # parent splices it into the record's line. The line must be what the metrics dict makes, and
    # read back as the whole record.
    import json

    from vhsim import atomic
    from vhsim.campaign.store import Campaign, flatten_summary, metrics_values

    version = vhsim.__version__
    run = spec.plan(version)[5]
    summary = vhsim.Scenario(spec.scenario_text, run.overrides, spec.scenario_path).run(seed=run.seed).summary
    metrics = flatten_summary(summary)
    metrics["bulk.nan_figure"] = float("nan")  # records allow NaN, as before
    texts, camps = [], []
    for kind in ("dict", "text"):
        camp = Campaign.prepare(tmp_path / kind, spec, version)
        camp.commit(run, summary, None, version, **({"metrics": metrics} if kind == "dict" else
                                                     {"values": metrics_values(metrics)}))
        texts.append(Path(camp.record_log().path).read_text(encoding="utf-8"))
        camps.append(camp)
    stamp = re.compile(r'"finished_at": "[^"]*", "checksum": "[^"]*"')
    assert stamp.sub("", texts[0]) == stamp.sub("", texts[1])
    names, line = [json.loads(t) for t in texts[1].splitlines()]
    assert names["names"] == list(metrics) and line["columns"] == names["columns"]
    assert texts[1].splitlines(keepends=True)[0] == atomic.seal(json.dumps({"columns": names["columns"],
                                                                            "names": list(metrics)}))
    record = camps[1].record(run.run_id)
    expected = {"run_id": run.run_id, "vhsim_version": version, "seed": run.seed, "rep": run.rep,
                "config": run.labels, "detail": "summary", "metrics": metrics, "wall_s": summary["wall_s"],
                "finished_at": record["finished_at"]}
    assert json.dumps(record, allow_nan=True) == json.dumps(expected, allow_nan=True)


def test_the_table_gathers_rows_of_changing_keys_as_a_dataframe_of_dicts_would():
    from vhsim.campaign.table import Columns

    rows = [{"a": 1, "b": 2.0}, {"a": 3, "b": 4.0}, {"b": 5.0, "a": 6}, {"a": 7, "c": "x"}, {"a": 8, "c": "y"},
            {"a": 9, "b": 1.5}, {"a": 10, "b": 2.5, "c": "z"}, {"a": 11, "b": 3.5, "c": "w"}]
    cols = Columns()
    for row in rows:
        cols.add(row)
    pd.testing.assert_frame_equal(cols.frame(), pd.DataFrame(rows))


@pytest.mark.parametrize("values", [
    [1, 2, 3], [1, 2.5, 3], [None, 1, 2], [1, None, 2], [None, None, 2.5], [None, None, None], [1.5, float("nan"), None],
    [True, False, True], [True, None, False], [1, True, 2], [None, "x", 1], [1, 2.5, None, "x"], [2, 2**70, 3],
    [0.0, -0.0, 1e300], [None, 1, "sack"], ["a", None, None], [3, None, True],
])
def test_a_column_of_every_kind_of_values_is_what_pandas_makes_of_them(values):
    # Numbers are gathered as arrays, anything else as Python values (vhsim.campaign.table).
    from vhsim.campaign.table import Columns

    cols = Columns()
    for i, value in enumerate(values):
        cols.add({"k": value, **({"late": i} if i else {})})  # "late": a column the first row lacks
    want = pd.DataFrame([{"k": v, **({"late": i} if i else {})} for i, v in enumerate(values)])
    pd.testing.assert_frame_equal(cols.frame(), want, check_exact=True)
