"""Regression tests of issue #27 for errors: bad input reported as an internal error (item 7),
exception types leaking from the Python API (item 8), and messages (item 9)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import vhsim
from vhsim import _native
from vhsim.cli import cli
from vhsim.errors import MissingPathError, PathError

REPO = Path(__file__).resolve().parent.parent
SCTP = REPO / "scenarios" / "examples" / "bulk-sctp.toml"
HEADER = "scenario\tset\tseed\tpackets\ttimeseries\tsummary\n"


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _one_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), stderr
    assert "internal error" not in lines[0] and "Traceback" not in stderr, stderr
    return lines[0]


# ------------------------------------------------------------ item 7: fingerprints input
@pytest.mark.parametrize("content", [
    HEADER + "a.toml\t\tx\t1\t2\t3\n",          # a seed that is not a number
    HEADER + "a.toml\t\t1\t1\n",                # too few fields
    HEADER + "a.toml\t\t1\t1\t2\t3\t4\n",       # too many
    "scenario\tseed\n",                         # another header
    b"\xff\xfe\x00\x01",                        # not text
])
def test_a_damaged_fingerprint_store_is_bad_input(runner, tmp_path, content):
    store = tmp_path / "store.tsv"
    store.write_bytes(content.encode() if isinstance(content, str) else content)
    result = runner.invoke(cli, ["fingerprints", "--store", str(store)])
    assert result.exit_code == 2, result.output
    assert "not a fingerprint store" in _one_error(result.stderr)


def test_a_store_that_is_a_folder_is_bad_input(runner, tmp_path):
    result = runner.invoke(cli, ["fingerprints", "--store", str(tmp_path)])
    assert result.exit_code == 2 and "is a directory" in result.stderr and "Traceback" not in result.stderr


def test_a_non_utf8_scenario_under_the_root_is_bad_input(runner, tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "scenarios" / "a.toml").write_bytes(b"name = \"\xff\"\n")
    result = runner.invoke(cli, ["fingerprints", "--root", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "a.toml: not a UTF-8 text file" in _one_error(result.stderr)


# ------------------------------------------------------------ item 8: only two exception types
@pytest.fixture(scope="module")
def result():
    return vhsim.load(REPO / "scenarios/examples/bulk-3g.toml").set("duration", "5s").set("metrics.windows", "{}").run(
        detail="timeseries")


@pytest.mark.parametrize("kwargs, key", [
    ({"progress": 5}, "progress"), ({"control": "stop"}, "control"), ({"pcap_dir": 3}, "pcap_dir"),
    ({"pcap_dir": "a\0b"}, "pcap_dir"), ({"pcap_key": 4}, "pcap_key"), ({"pcap": 7}, "pcap"),
    ({"pcap": [None]}, "pcap"), ({"pcap": ["nope"], "pcap_dir": "unused"}, "pcap"),
])
def test_bad_run_arguments_raise_scenario_error_naming_them(tiny_text, kwargs, key):
    with pytest.raises(vhsim.ScenarioError, match=rf"^{key}: "):
        vhsim.loads(tiny_text).run(detail="summary", **kwargs)


def test_pcap_none_and_a_bytes_folder_are_accepted(tiny_text, tmp_path):
    sc = vhsim.loads(tiny_text).set("duration", "1s")
    assert sc.run(detail="summary", pcap=None).captures == []
    got = sc.run(detail="summary", pcap_dir=os.fsencode(tmp_path), pcap="access/forward")
    assert [c.path.name for c in got.captures] == ["access-forward.pcap"]


def test_an_unwritable_folder_is_a_path_error(tiny_text, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    sc = vhsim.loads(tiny_text).set("duration", "1s")
    with pytest.raises(PathError, match=r"^pcap: cannot write the capture of `access/forward` to .*file/access-forward"):
        sc.run(detail="summary", pcap_dir=blocker, pcap=["access/forward"])
    res = sc.run(detail="summary")
    with pytest.raises(PathError, match=r"^directory: .*file.*: Not a directory") as err:
        res.save(blocker / "sub")
    assert isinstance(err.value, vhsim.ScenarioError) and isinstance(err.value, OSError)


@pytest.mark.parametrize("variants", [None, 5, "timeline[0].at=1s", [5], [("a",)], [{"x": 1}, {"y": 2}]])
def test_bad_branch_variants_raise_scenario_error(tiny_text, variants):
    with pytest.raises(vhsim.ScenarioError, match=r"^branch: |^(flows|x|y)"):
        vhsim.loads(tiny_text).branch(variants, detail="summary")


def test_read_result_raises_scenario_errors(tmp_path):
    with pytest.raises(vhsim.ScenarioError, match="^directory: expected a folder name, got 5"):
        vhsim.read_result(5)
    with pytest.raises(MissingPathError, match="result folder not found"):
        vhsim.read_result(tmp_path / "none")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "summary.json").write_bytes(b"\xff[")
    with pytest.raises(vhsim.ScenarioError, match="not a readable vhsim result"):
        vhsim.read_result(tmp_path / "bad")
    (tmp_path / "bad" / "summary.json").write_text("{}")
    (tmp_path / "bad" / "goodput.parquet").write_bytes(b"PAR1 not parquet")
    with pytest.raises(vhsim.ScenarioError, match="not a readable vhsim result"):
        vhsim.read_result(tmp_path / "bad")


@pytest.mark.parametrize("call", [lambda r: r.decisions("nope"), lambda r: r.state_around("nope", 1.0),
                                  lambda r: r.decisions(3), lambda r: r.state_around("bulk", "1s"),
                                  lambda r: r.state_around("bulk", -1.0), lambda r: r.trace("nope")])
def test_result_lookups_raise_scenario_error(result, call):
    with pytest.raises(vhsim.ScenarioError):
        call(result)


def test_a_missing_table_is_still_a_key_error(result):
    with pytest.raises(KeyError, match="no trace table 'packets' in this result .run with detail='packets'."):
        result.trace("packets")


@pytest.mark.parametrize("name", [5, None, b"sack", "x" * 1000])
def test_a_bad_scheme_name_is_a_short_scenario_error(name):
    with pytest.raises(vhsim.ScenarioError) as err:
        vhsim.scheme(name)
    assert len(str(err.value)) <= 500


def test_a_missing_scenario_file_is_a_scenario_error_and_a_file_not_found_error(tmp_path):
    with pytest.raises(MissingPathError) as err:
        vhsim.load(tmp_path / "none.toml")
    assert isinstance(err.value, FileNotFoundError) and isinstance(err.value, vhsim.ScenarioError)


# ------------------------------------------------------------ item 9: messages
@pytest.mark.parametrize("key", ["flows.bulk.sctp.bogus", "flows.bulk.sctp." + "x" * 300, "flows.bulk.tcp.rto_mn"])
def test_unknown_field_lists_keep_whole_names(key):
    sc = vhsim.load(SCTP) if ".sctp." in key else vhsim.load(REPO / "scenarios/examples/bulk-3g.toml")
    with pytest.raises(vhsim.ScenarioError) as err:
        sc.set(key, "1").validate()
    msg = str(err.value)
    assert len(msg) <= 500, len(msg)
    assert key[:40] in msg and "expected one of `" in msg and "…" not in msg.split("expected one of")[1]
    names = msg.split("expected one of ")[1].split("`")[1::2]
    known = set(_native.json_schema().replace('"', " ").split())
    assert names and all(n in known or n == "vhsim schema" for n in names), names
    if key.endswith("rto_mn"):
        assert names[0] == "min_rto" or "min_rto" in names[:3]


def test_long_values_are_cut_in_axis_and_reproduce_messages(runner, tiny_path):
    long = "z" * 500
    for args in (["sweep", str(tiny_path), "-p", f"duration={long}", "--dry-run"],
                 ["sweep", str(tiny_path), "-p", f"{long}=1,2", "--dry-run"],
                 ["sweep", str(tiny_path), "-p", f"duration=range({long})", "--dry-run"],
                 ["reproduce", "demo", "--figure", long], ["reproduce", long]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        line = _one_error(result.stderr)
        assert len(line.replace(str(tiny_path), "")) <= 500 and "characters)" in line, line
        assert "z" * 121 not in line and ("'" + "z" * 61) not in line, line  # key paths: 120, values: 60


def test_a_nul_byte_in_a_path_option_is_bad_input(runner, tiny_path):
    # Only reachable from Python (argv cannot hold one): the option parser raised ValueError.
    for args in (["run", str(tiny_path), "--out", "a\0b"], ["reproduce", "demo", "--out", "a\0b"],
                 ["sweep", "--check", "a\0b"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2 and "NUL character" in _one_error(result.stderr), (args, result.output)


@pytest.mark.parametrize("window", ["1..2", "1s..2", "x..", "..y", "1s-2s", "1e999s..", "..-1s", "1s..2s..3s",
                                    "\u00e9..", "5" * 300 + "s.."])
def test_every_bad_trace_window_names_the_option(runner, tiny_path, tmp_path, window):
    result = runner.invoke(cli, ["run", str(tiny_path), "--trace-window", window, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    line = _one_error(result.stderr)
    assert line.startswith("error: trace_window: ") and len(line) <= 500, line
