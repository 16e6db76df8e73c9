"""Regression tests of issue #19: every input defect the fuzz passes found, one test each.

From the command line every bad input is one line ``error: ...`` with exit code 2; from the
Python API it is a :class:`vhsim.ScenarioError` (a ``ValueError``) naming the key.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import vhsim
from vhsim.cli import cli
from conftest import TINY, run_vhsim

BINARY = bytes(range(256)) * 4


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def one_error_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


# ------------------------------------------------------------------ non-UTF-8 scenario files
def test_a_binary_scenario_file_is_a_clean_error_from_the_cli(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(BINARY)
    for command in (["validate", path], ["run", path, "--out", tmp_path / "o"],
                    ["sweep", path, "-p", "seed=1,2", "--campaign", tmp_path / "c"]):
        proc = run_vhsim(*command)
        assert proc.returncode == 2, proc.stderr
        line = one_error_line(proc.stderr)
        assert "binary.toml: not a UTF-8 text file (byte 0x80 at offset 128, line 2)" in line, line


def test_a_stray_byte_in_a_shipped_scenario_names_the_file_and_line(tmp_path):
    text = (Path(__file__).parent.parent / "scenarios/examples/bulk-3g.toml").read_bytes()
    path = tmp_path / "stray.toml"
    path.write_bytes(text.replace(b'rate = "384kbps"', b'rate = "384\xffkbps"'))
    with pytest.raises(vhsim.ScenarioError, match=r"stray\.toml: not a UTF-8 text file \(byte 0xff at offset \d+, line 2[0-9]\)"):
        vhsim.load(path)


# ------------------------------------------------------------------ Python API arguments
@pytest.mark.parametrize("where", ["key", "value", "text"])
def test_a_lone_surrogate_raises_scenario_error(tiny_text, where):
    sc = vhsim.loads(tiny_text)
    with pytest.raises(vhsim.ScenarioError, match="lone surrogate"):
        if where == "key":
            sc.set("flows.bulk.\ud800", "x")
        elif where == "value":
            sc.set("flows.bulk.scheme", "sack\ud800")
        else:
            vhsim.loads(tiny_text + "# \ud800\n")


@pytest.mark.parametrize("seed", [2**64, -1, float("inf"), "abc", [1], 1.5, True, b"7", "7"])
def test_a_bad_seed_raises_scenario_error_naming_seed(tiny_text, seed):
    with pytest.raises(vhsim.ScenarioError, match=r"^seed: must be an integer from 0 to 2\^64-1"):
        vhsim.loads(tiny_text).run(seed=seed, detail="summary")


def test_the_largest_seed_and_numpy_integers_are_accepted(tiny_text):
    import numpy as np

    sc = vhsim.loads(tiny_text).set("duration", "1s")
    assert sc.run(seed=2**64 - 1, detail="summary").seed == 2**64 - 1
    assert sc.run(seed=np.int64(3), detail="summary").seed == 3


def test_with_accepts_a_list_of_pairs(tiny_text):
    sc = vhsim.loads(tiny_text).with_([("duration", "2s"), ("flows.bulk.scheme", "newreno")])
    assert sc.overrides == (("duration", "2s"), ("flows.bulk.scheme", "newreno"))
    assert sc.resolved()["duration"] == 2_000_000_000


@pytest.mark.parametrize("bad", [["duration"], [("a", "b", "c")], "duration=2s", 5, [(1, "x")], [("", "x")]])
def test_badly_shaped_overrides_raise_scenario_error(tiny_text, bad):
    with pytest.raises(vhsim.ScenarioError, match=r"^overrides: "):
        vhsim.loads(tiny_text, overrides=bad)
    with pytest.raises(vhsim.ScenarioError, match=r"^overrides: "):
        vhsim.loads(tiny_text).with_(bad)


def test_an_unknown_detail_raises_scenario_error(tiny_text):
    with pytest.raises(vhsim.ScenarioError, match=r"^detail: must be one of summary, timeseries, packets, got 'bogus'"):
        vhsim.loads(tiny_text).run(detail="bogus")


def test_scenario_text_of_the_wrong_type_raises_scenario_error():
    with pytest.raises(vhsim.ScenarioError, match=r"^scenario text: expected a string"):
        vhsim.loads(b"duration = '1s'")


# ------------------------------------------------------------------ error messages stay short
def test_a_huge_value_is_not_repeated_in_full(runner, tiny_path, tmp_path):
    value = "9" * 1_000_000 + "Mbs"
    result = runner.invoke(cli, ["validate", str(tiny_path), "--set", f"links.access.rate={value}"])
    assert result.exit_code == 2
    line = one_error_line(result.stderr)
    assert len(result.stderr) < 1000, len(result.stderr)
    assert line.startswith(f"error: {tiny_path}: links.access.rate: ") and "(1000003 characters)" in line, line
    # The same value in a file, through a subprocess.
    path = tmp_path / "huge.toml"
    path.write_text(TINY.replace('rate = "1Mbps"', f'rate = "{value}"'))
    proc = run_vhsim("validate", path)
    assert proc.returncode == 2 and len(proc.stderr) < 1000, len(proc.stderr)
    assert "(1000003 characters)" in one_error_line(proc.stderr)


def test_a_huge_key_is_not_repeated_in_full(tiny_text):
    with pytest.raises(vhsim.ScenarioError) as err:
        vhsim.loads(tiny_text).set("flows.bulk.tcp." + "w" * 100_000, "1").validate()
    assert len(str(err.value)) < 1000 and "characters" in str(err.value)


# ------------------------------------------------------------------ --set never creates entries
@pytest.mark.parametrize("key, value, what", [("nodes.zz", "{}", "node"), ("links.extra", "{}", "link"),
                                              ("flows.second", '{ from = "cn", to = "mn" }', "flow")])
def test_set_does_not_create_nodes_links_or_flows(runner, tiny_path, key, value, what):
    result = runner.invoke(cli, ["validate", str(tiny_path), "--set", f"{key}={value}"])
    assert result.exit_code == 2
    assert f"{key}: no {what} named `{key.split('.')[1]}` in the scenario" in result.stderr


# ------------------------------------------------------------------ unusable paths are exit 2
def test_a_symlink_loop_as_the_scenario_is_exit_2(tmp_path):
    (tmp_path / "a.toml").symlink_to(tmp_path / "b.toml")
    (tmp_path / "b.toml").symlink_to(tmp_path / "a.toml")
    proc = run_vhsim("run", tmp_path / "a.toml")
    assert proc.returncode == 2
    assert "Too many levels of symbolic links" in one_error_line(proc.stderr)


@pytest.mark.parametrize("parent", ["/proc", "/sys"])
def test_an_unwritable_out_folder_is_exit_2(tiny_path, parent):
    if not os.path.isdir(parent):
        pytest.skip(f"no {parent} here")
    proc = run_vhsim("run", tiny_path, "--detail", "summary", "--out", f"{parent}/vhsim-test/out")
    assert proc.returncode == 2, proc.stderr
    assert one_error_line(proc.stderr).startswith(f"error: --out: {parent}/vhsim-test")


def test_a_scenario_path_that_is_a_folder_is_exit_2(tmp_path):
    proc = run_vhsim("validate", tmp_path)  # the option parser's usage error, exit 2
    assert proc.returncode == 2 and "is a directory" in proc.stderr and "Traceback" not in proc.stderr


# ------------------------------------------------------------------ odd durations
@pytest.mark.parametrize("value, shown", [("inf", "inf"), ("nan", "NaN"), ("1e300", "1e300")])
def test_a_non_finite_duration_gets_a_plain_message(runner, tiny_path, value, shown):
    result = runner.invoke(cli, ["validate", str(tiny_path), "--set", f"duration={value}"])
    assert result.exit_code == 2
    assert f'duration: {shown} is not a duration like "10ms"' in result.stderr
    assert "infms" not in result.stderr


@pytest.mark.parametrize("duration", ["100000000s", "18446744073709551615ns"])
def test_a_huge_duration_is_refused_before_it_runs(runner, tiny_path, tmp_path, duration):
    # The goodput table alone (one row per second) would not fit: refused at once, nothing written.
    result = runner.invoke(cli, ["run", str(tiny_path), "--detail", "summary", "--set", f"duration={duration}",
                                 "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert "above the limit of 1.0 GB" in result.stderr and "--trace-limit" in result.stderr
    assert not (tmp_path / "o").exists()


def test_a_long_run_gets_a_note_with_its_expected_time(runner, tiny_path, tmp_path, monkeypatch):
    import vhsim.tracesize as ts

    monkeypatch.setattr(ts, "EVENTS_PER_S", 10.0)  # a 5 s run "takes" minutes at this pace
    result = runner.invoke(cli, ["run", str(tiny_path), "--detail", "summary", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "note: long run: about " in result.stderr and "Ctrl-C stops it" in result.stderr
    quiet = runner.invoke(cli, ["run", str(tiny_path), "-q", "--detail", "summary", "--out", str(tmp_path / "o")])
    assert quiet.stderr == ""


def test_an_internal_error_is_one_line_not_a_traceback(runner, tiny_path, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(vhsim.Scenario, "resolved_json", broken)
    result = runner.invoke(cli, ["validate", str(tiny_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: internal error (ZeroDivisionError: division by zero)")


def test_tiny_fixture_is_valid():
    assert vhsim.loads(TINY).name == "tiny"
