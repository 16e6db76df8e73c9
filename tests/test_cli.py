"""The vhsim command line: in-process through CliRunner, exit codes through subprocesses."""

from __future__ import annotations

import json
import re

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
from click.testing import CliRunner

import vhsim
from vhsim.cli import cli
from conftest import TINY

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture(scope="module")
def packets_dir(tmp_path_factory) -> Path:
    """A result folder written by `vhsim run --detail packets`."""
    base = tmp_path_factory.mktemp("cli")
    scenario = base / "tiny.toml"
    scenario.write_text(TINY)
    out = base / "res"
    result = CliRunner().invoke(cli, ["run", str(scenario), "--detail", "packets", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


# ---------------------------------------------------------------- run
def test_run_writes_summary_json_and_parquet_traces(packets_dir):
    files = sorted(p.name for p in packets_dir.iterdir())
    assert files == ["goodput.parquet", "packets.parquet", "summary.json", "timeseries.parquet"]
    summary = json.loads((packets_dir / "summary.json").read_text())
    assert summary["scenario"] == "tiny"


def test_run_prints_a_per_flow_summary(runner, tiny_path, tmp_path):
    result = runner.invoke(cli, ["run", str(tiny_path), "--out", str(tmp_path / "o"), "--seed", "4"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "scenario tiny" in out and "seed 4" in out
    for word in ("goodput kbps", "retx", "RTOs", "spurious", "bulk"):
        assert word in out
    assert "summary.json" in out


def test_run_defaults_to_out_slash_scenario_stem(runner, tiny_path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["run", str(tiny_path), "--detail", "summary"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "tiny" / "summary.json").is_file()
    assert (tmp_path / "out" / "tiny" / "goodput.parquet").is_file()


def test_run_applies_set_overrides(runner, tiny_path, tmp_path):
    out = tmp_path / "o"
    result = runner.invoke(cli, ["run", str(tiny_path), "--set", "duration=2s", "--set",
                                 "flows.bulk.scheme=newreno", "--detail", "summary", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads((out / "summary.json").read_text())["sim_s"] == pytest.approx(2.0)


def test_simulation_error_exits_1_with_one_line(runner, tiny_path, tmp_path, monkeypatch):
    def boom(self, seed=None, detail=None, **kwargs):
        raise vhsim.SimulationError("core panicked: invariant broken")

    monkeypatch.setattr(vhsim.Scenario, "run", boom)
    result = runner.invoke(cli, ["run", str(tiny_path), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.stderr.strip() == "error: simulation failed: core panicked: invariant broken"


# --------------------------------------------------------------- plot
def test_plot_writes_a_png(runner, packets_dir, tmp_path):
    png = tmp_path / "fig" / "overview.png"
    result = runner.invoke(cli, ["plot", str(packets_dir), "--out", str(png), "--flow", "bulk"])
    assert result.exit_code == 0, result.output
    data = png.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 10_000


def test_plot_defaults_to_overview_png_in_the_result_folder(runner, packets_dir):
    result = runner.invoke(cli, ["plot", str(packets_dir)])
    assert result.exit_code == 0, result.output
    assert (packets_dir / "overview.png").read_bytes().startswith(PNG_MAGIC)


def test_plot_of_a_summary_only_result_says_which_detail_is_needed(runner, tiny_path, tmp_path):
    out = tmp_path / "s"
    assert runner.invoke(cli, ["run", str(tiny_path), "--detail", "summary", "--out", str(out)]).exit_code == 0
    result = runner.invoke(cli, ["plot", str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ")
    assert "--detail packets" in result.stderr
    assert not (out / "overview.png").exists()


def test_plot_of_a_timeseries_result_warns_about_the_missing_panel(runner, tiny_path, tmp_path):
    out = tmp_path / "t"
    assert runner.invoke(cli, ["run", str(tiny_path), "--detail", "timeseries", "--out", str(out)]).exit_code == 0
    result = runner.invoke(cli, ["plot", str(out)])
    assert result.exit_code == 0, result.output
    assert "warning" in result.stderr and "--detail packets" in result.stderr
    assert (out / "overview.png").read_bytes().startswith(PNG_MAGIC)


def test_plot_of_an_unknown_flow_lists_the_flows(runner, packets_dir, tmp_path):
    result = runner.invoke(cli, ["plot", str(packets_dir), "--flow", "nope", "--out", str(tmp_path / "x.png")])
    assert result.exit_code == 2
    assert "nope" in result.stderr and "bulk" in result.stderr


# ------------------------------------------------- schemes, validate, schema
def test_schemes_lists_sack_newreno_reno_one_per_line(runner):
    result = runner.invoke(cli, ["schemes"])
    assert result.exit_code == 0, result.output
    names = [line.split()[0] for line in result.stdout.splitlines() if line.strip()]
    assert {"sack", "newreno", "reno"} <= set(names)
    assert len(names) == len(vhsim.schemes())


def test_schemes_show_prints_the_resolved_composition_that_reads_back(runner, tiny_text):
    result = runner.invoke(cli, ["schemes", "--show", "dcr-frto-ld"])
    assert result.exit_code == 0, result.output
    doc = tomllib.loads(result.stdout)
    assert doc["tcp"]["rto_response"] == {"kind": "frto", "variant": "basic", "response": "full_revert"}
    assert doc["tcp"]["dupack_response"] == {"kind": "dcr", "trigger": 3, "tau": "tavg"}
    assert doc["tcp"]["loss_classifier"]["handover_reset"] is True
    assert doc["sink"]["sack"] is True
    # The printed tables, given to a `sack` flow, make the same sender as the preset (with no
    # [tcp] keys of the flow's own over it).
    base = vhsim.loads(tiny_text)
    flow = next(iter(tomllib.loads(tiny_text)["flows"]))
    shown = base.set(f"flows.{flow}.scheme", "sack").set(f"flows.{flow}.tcp", _inline(doc["tcp"]))
    preset = base.set(f"flows.{flow}.scheme", "dcr-frto-ld").set(f"flows.{flow}.tcp", "{}")
    assert json.loads(shown.resolved_json())["flows"][0]["transport"]["tcp"] == json.loads(preset.resolved_json())["flows"][0]["transport"]["tcp"]


def _inline(table: dict) -> str:
    """A TOML inline table for --set (nested tables and strings only, as the tcp table has)."""
    def value(v):
        if isinstance(v, dict):
            return _inline(v)
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return json.dumps(v)
        return repr(v)
    return "{ " + ", ".join(f"{k} = {value(v)}" for k, v in table.items()) + " }"


def test_schemes_show_of_an_unknown_name_lists_the_names(runner):
    result = runner.invoke(cli, ["schemes", "--show", "bbr"])
    assert result.exit_code == 2
    assert "bbr" in result.stderr and "dcr-frto-ld" in result.stderr


def test_validate_prints_ok(runner, tiny_path):
    result = runner.invoke(cli, ["validate", str(tiny_path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "ok"


def test_validate_show_prints_the_resolved_json(runner, tiny_path):
    result = runner.invoke(cli, ["validate", str(tiny_path), "--set", "flows.bulk.scheme=newreno", "--show"])
    assert result.exit_code == 0, result.output
    first, rest = result.stdout.split("\n", 1)
    assert first == "ok"
    resolved = json.loads(rest)
    assert resolved == vhsim.load(tiny_path).set("flows.bulk.scheme", "newreno").resolved()


def test_schema_prints_json_or_writes_a_file(runner, tmp_path):
    result = runner.invoke(cli, ["schema"])
    assert result.exit_code == 0
    assert isinstance(json.loads(result.stdout), dict)
    dest = tmp_path / "s" / "schema.json"
    result = runner.invoke(cli, ["schema", "--out", str(dest)])
    assert result.exit_code == 0
    assert json.loads(dest.read_text()) == json.loads(vhsim.json_schema())


@pytest.mark.parametrize("command", ["run", "plot", "schemes", "validate", "schema", "bench"])
def test_every_command_has_help_with_examples(runner, command):
    result = runner.invoke(cli, [command, "--help"])
    assert result.exit_code == 0
    assert "Example" in result.stdout


def test_version_option(runner):
    result = runner.invoke(cli, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"vhsim {vhsim.__version__}"


# -------------------------------------------------------------- bench
def _bench_root(tmp_path: Path) -> Path:
    """A repository root with tiny stand-ins for the benchmark's three scenarios."""
    for rel in ("benches/bulk-sack1.toml", "benches/bulk-sack1-loss1pct.toml", "scenarios/danielkojo/fig08-mbb.toml"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(TINY.replace('detail = "packets"', 'detail = "summary"'))
    return tmp_path


def test_bench_json_reports_best_of_n_per_scenario(runner, tmp_path):
    root = _bench_root(tmp_path)
    result = runner.invoke(cli, ["bench", "--root", str(root), "--repeat", "2", "--json", "--quick", "--campaign", "0"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["repeat"] == 2 and payload["quick"] is True and "campaign" not in payload
    assert payload["environment"]["load_average"] is not None
    rows = payload["results"]
    assert [r["scenario"] for r in rows] == ["bulk", "loss 1%", "handover"]
    for r in rows:
        # --quick sets the bulk runs to 30 s and leaves the (short) handover run as it is.
        assert r["sim_s"] == pytest.approx(5.0 if r["scenario"] == "handover" else 30.0)
        assert r["events"] > 0 and r["wall_s"] > 0 and r["build"] == "this build"
        assert r["segments_per_wall_s"] == pytest.approx(r["delivered_segments"] / r["wall_s"])
        assert r["events_per_segment"] == pytest.approx(r["events"] / r["delivered_segments"])
        # A worker process of its own: its peak RSS is a real process's (tens of MB).
        assert 10 < r["peak_rss_mb"] < 2000


def test_bench_table_has_one_row_per_scenario(runner, tmp_path):
    root = _bench_root(tmp_path)
    result = runner.invoke(cli, ["bench", "--root", str(root), "--repeat", "1", "--campaign", "0"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert any("events/seg" in line and "segments/wall-s" in line and "peak RSS MB" in line for line in lines)
    assert [line.split()[0] for line in lines[3:]] == ["bulk", "loss", "handover"]
    assert "load" in lines[0]


def test_bench_campaign_runs_the_grid_every_way_with_equal_results(runner):
    """`vhsim bench --campaign N`: the benchmark itself asserts that branched runs equal
    independent ones (and early-stopped ones their handover metrics) before printing."""
    root = Path(__file__).resolve().parents[1]
    result = runner.invoke(cli, ["bench", "--no-scenarios", "--campaign", "4", "--root", str(root), "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert "results" not in payload
    rows = payload["campaign"]["results"]
    assert [r["mode"].split(",")[0] for r in rows] == [
        "independent runs", "branches of one trunk", "branches + early stop", "vhsim sweep", "vhsim sweep"]
    assert all(r["runs"] == 4 and r["runs_per_s"] > 0 for r in rows)


def test_bench_builds_alternate_run_by_run(tmp_path, monkeypatch):
    """Two builds (here the same one twice): a worker per build, their runs alternating, one
    row per scenario and build."""
    from vhsim import bench

    root = _bench_root(tmp_path)
    rounds = []
    rows = bench.run_bench(root, bench.BENCH_CASES[:1], repeat=3, quick=True,
                           builds=[bench.CURRENT, bench.Build("again")], on_run=lambda p, i: rounds.append(i))
    assert rounds == [0, 1, 2]
    assert [(r.scenario, r.build) for r in rows] == [("bulk", "this build"), ("bulk", "again")]
    assert rows[0].events == rows[1].events
    table = bench.format_table(rows)
    assert "vs first" in table and "1.00x" in table


def test_bench_build_runs_its_own_revisions_scenarios(tmp_path):
    """A compared revision runs the benchmark files of its own tree (a newer file may state a key
    the older build does not know): here the other tree's file lasts twice as long."""
    from vhsim import bench

    ours, theirs = _bench_root(tmp_path / "ours"), _bench_root(tmp_path / "theirs")
    other = theirs / "benches" / "bulk-sack1.toml"
    text = other.read_text()
    assert 'duration = "' in text
    other.write_text(re.sub(r'duration = "([0-9.]+)s"', lambda m: f'duration = "{2 * float(m[1])}s"', text, count=1))
    rows = bench.run_bench(ours, bench.BENCH_CASES[:1], repeat=1,
                           builds=[bench.CURRENT, bench.Build("other", scenario_root=str(theirs))])
    assert [r.build for r in rows] == ["this build", "other"]
    assert rows[1].sim_s == 2 * rows[0].sim_s


def test_bench_compare_with_an_unknown_revision_fails_clearly(runner, tmp_path):
    root = _bench_root(tmp_path)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    result = runner.invoke(cli, ["bench", "--root", str(root), "--compare", "no-such-rev", "--campaign", "0"])
    assert result.exit_code == 1
    assert "no-such-rev" in result.output and "Traceback" not in result.output


def test_bench_without_its_scenarios_fails_clearly(runner, tmp_path):
    result = runner.invoke(cli, ["bench", "--root", str(tmp_path)])
    assert result.exit_code == 2
    assert "bulk-sack1.toml" in result.stderr and "missing" in result.stderr


# ------------------------------------------- subprocess: exit codes, no traceback
def _assert_one_line_error(proc, *needles):
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: ")
    for needle in needles:
        assert needle in lines[0]


def test_validate_bad_file_exits_2_naming_the_key(vhsim_proc, bad_path):
    proc = vhsim_proc("validate", bad_path)
    assert proc.returncode == 2
    _assert_one_line_error(proc, "links.access.rate", str(bad_path))
    assert proc.stdout == ""


def test_run_with_a_bad_override_exits_2(vhsim_proc, tiny_path, tmp_path):
    proc = vhsim_proc("run", tiny_path, "--set", "links.access.rate=fast", "--out", tmp_path / "o")
    assert proc.returncode == 2
    _assert_one_line_error(proc, "links.access.rate")
    assert not (tmp_path / "o").exists()


def test_toml_syntax_error_exits_2_on_one_line(vhsim_proc, tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text(TINY.replace('[links.wired]', '[links.wired'))
    proc = vhsim_proc("validate", broken)
    assert proc.returncode == 2
    _assert_one_line_error(proc, str(broken))


def test_missing_scenario_file_exits_2(vhsim_proc, tmp_path):
    proc = vhsim_proc("run", tmp_path / "absent.toml")
    assert proc.returncode == 2
    _assert_one_line_error(proc, "absent.toml", "not found")


def test_set_without_equals_is_a_usage_error_naming_it(vhsim_proc, tiny_path):
    proc = vhsim_proc("validate", tiny_path, "--set", "duration")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "--set" in proc.stderr and "'duration'" in proc.stderr and "KEY=VALUE" in proc.stderr


def test_successful_run_exits_0(vhsim_proc, tiny_path, tmp_path):
    proc = vhsim_proc("run", tiny_path, "--detail", "summary", "--out", tmp_path / "o", "--quiet")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "o")


def test_console_script_is_declared():
    eps = metadata.entry_points(group="console_scripts")
    assert any(ep.name == "vhsim" and ep.value == "vhsim.cli:main" for ep in eps)


# The script of this interpreter's environment (e.g. .venv/bin/vhsim), else one on PATH.
_SCRIPT = shutil.which("vhsim", path=str(Path(sys.executable).parent)) or shutil.which("vhsim")


@pytest.mark.skipif(_SCRIPT is None, reason="vhsim script not installed")
def test_console_script_runs():
    import subprocess

    proc = subprocess.run([_SCRIPT, "--version"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"vhsim {vhsim.__version__}"
