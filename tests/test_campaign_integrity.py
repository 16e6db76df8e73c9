"""Regression tests of issue #27 for campaigns: damaged records (item 2), a sweep that hung
after an error (item 3), bounded plans (item 6), a damaged campaign file (item 7) and range
units (item 10)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from vhsim import atomic, campaign
from vhsim.campaign import CampaignError, CampaignSpec, run_campaign
from vhsim.campaign.axes import expand_range, parse_cli_axis, quantity
from vhsim.cli import cli

REPO = Path(__file__).resolve().parent.parent
AXIS = "flows.bulk.tcp.window=10pkt,20pkt,30pkt"
SHORT = [("duration", "2s")]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def _one_error(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def _campaign(tiny_path: Path, folder: Path, reps: int = 2):
    spec = CampaignSpec.from_cli(str(tiny_path), [AXIS], SHORT, replications=reps)
    report = run_campaign(spec, folder, workers=1)
    assert report.executed == 3 * reps
    [log] = (folder / "runs").glob("*/records.jsonl")
    return spec, log


def _run_lines(log: Path) -> list[int]:
    """Indexes of the run record lines of a log (the others are column sets)."""
    return [i for i, line in enumerate(log.read_bytes().splitlines(keepends=True)) if line.startswith(b'{"run_id"')]


def _replace_line(log: Path, index: int, new: bytes) -> bytes:
    lines = log.read_bytes().splitlines(keepends=True)
    old, lines[index] = lines[index], new
    log.write_bytes(b"".join(lines))
    return old


# ------------------------------------------------------------ item 2: damaged run records
@pytest.mark.parametrize("damage", ["empty", "braces", "cut", "edited", "binary", "carriage return"])
def test_a_damaged_record_is_found_set_aside_and_run_again(runner, tiny_path, tmp_path, damage):
    folder = tmp_path / "c"
    spec, log = _campaign(tiny_path, folder)
    want = campaign.open(folder).results()
    victim = _run_lines(log)[1]
    text = log.read_bytes().splitlines(keepends=True)[victim]
    bad = {"empty": b"\n", "braces": b"{}\n", "cut": text[: len(text) // 2] + b"\n",
           "edited": text.replace(b'"rep": ', b'"rep": 1', 1), "binary": b"\xff\xfe" + text,
           "carriage return": text[:40] + b"\r" + text[41:]}[damage]
    _replace_line(log, victim, bad)
    (folder / "results.parquet").unlink()

    # Reading the table says so and leaves the run out: never a row of NaNs.
    with pytest.warns(UserWarning, match="1 damaged run record left out of the table"):
        partial = campaign.open(folder).results()
    assert len(partial) == len(want) - 1 and not partial.isna().all(axis=1).any()

    check = runner.invoke(cli, ["sweep", "--check", str(folder)])
    assert check.exit_code == 1, check.output
    assert f"damaged: runs/{log.parent.name}/records.jsonl, line {victim + 1}" in check.stdout
    assert "6 run records of vhsim" in check.stdout and "1 damaged; 5/6 runs done" in check.stdout, check.stdout
    _one_error(check.stderr)

    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0, resumed.output
    assert "6/6 runs done (1 run now" in resumed.stdout and "1 damaged records run again" in resumed.stdout
    assert "warning: damaged run record set aside" in resumed.stderr
    assert (folder / "corrupt" / log.parent.name / "records.jsonl").read_bytes() == bad, "kept to look at"
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)
    again = runner.invoke(cli, ["sweep", "--check", str(folder)])
    assert again.exit_code == 0 and "0 damaged; 6/6 runs done" in again.stdout, again.output


def test_a_damaged_column_set_costs_the_runs_using_it_only(runner, tiny_path, tmp_path):
    folder = tmp_path / "c"
    _, log = _campaign(tiny_path, folder, reps=1)
    want = campaign.open(folder).results()
    [columns] = [i for i in range(len(log.read_bytes().splitlines())) if i not in _run_lines(log)]
    old = _replace_line(log, columns, b"0\n")
    damaged = campaign.open(folder).verify()
    assert len(damaged) == 1 + 3 and "column names" in damaged[-1].problem
    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0 and "4 damaged records run again" in resumed.stdout, resumed.output
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)
    assert (folder / "corrupt" / log.parent.name / "records.jsonl").read_bytes().startswith(b"0\n")
    assert old in log.read_bytes(), "the column set is written again with the runs done again"


def test_every_record_damaged_into_other_json_is_run_again(runner, tiny_path, tmp_path):
    # The nightly fuzz's find: a record holding `0` made reading the folder's versions raise.
    folder = tmp_path / "c"
    _, log = _campaign(tiny_path, folder, reps=1)
    want = campaign.open(folder).results()
    for index, junk in zip(_run_lines(log), [b"0\n", b"[1, 2]\n", b'"text"\n']):
        _replace_line(log, index, junk)
    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0 and "3 damaged records run again" in resumed.stdout, resumed.output
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)


def test_a_line_cut_off_by_a_killed_writer_is_not_a_record(runner, tiny_path, tmp_path):
    # A last line without its newline is a write under way (or killed): not done, not damaged,
    # and cut off by the next sweep before it appends.
    folder = tmp_path / "c"
    _, log = _campaign(tiny_path, folder, reps=1)
    want = campaign.open(folder).results()
    data = log.read_bytes()
    log.write_bytes(data[: len(data) - 40])
    camp = campaign.open(folder)
    assert camp.verify() == [] and len(camp.done_ids()) == 2
    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0 and "(1 run now" in resumed.stdout, resumed.output
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)
    assert log.read_bytes().count(b"\n") == data.count(b"\n")


def test_record_files_of_an_older_folder_are_still_read_and_checked(runner, tiny_path, tmp_path):
    # Folders written before the log kept one sealed file per run (older still: without a seal).
    folder = tmp_path / "c"
    _, log = _campaign(tiny_path, folder, reps=1)
    camp = campaign.open(folder)
    want = camp.results()
    scan = camp.record_log().scan()
    for i, run_id in enumerate(scan.runs):
        record = scan.record(run_id)
        text = json.dumps(record)
        (log.parent / f"{run_id}.json").write_text(text if i == 0 else atomic.seal(text))
    log.unlink()
    (folder / "results.parquet").unlink()
    camp = campaign.open(folder)
    assert camp.verify() == [] and len(camp.done_ids()) == 3
    pd.testing.assert_frame_equal(camp.results(), want, check_exact=True)
    victim = sorted(log.parent.glob("*.json"))[1]
    victim.write_bytes(victim.read_bytes()[:100])
    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0 and "1 damaged records run again" in resumed.stdout, resumed.output
    assert (folder / "corrupt" / log.parent.name / victim.name).is_file()
    assert len(log.read_bytes().splitlines()) == 2, "the run done again goes to the log (its column set, its line)"
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)


def _flip(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at % len(data)] ^= 0x5A
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("at", [4, 346, 1000, -200])
def test_a_damaged_result_table_is_rebuilt_not_read(tiny_path, tmp_path, at):
    # The fuzz's find: a byte flipped in a run id of results.parquet was read back as the table.
    folder = tmp_path / "c"
    _campaign(tiny_path, folder)
    want = campaign.open(folder).results()
    _flip(folder / "results.parquet", at)
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)


def test_a_damaged_plan_cache_is_planned_again(runner, tiny_path, tmp_path):
    folder = tmp_path / "c"
    _campaign(tiny_path, folder)
    want = campaign.open(folder).results()
    plan = next(folder.glob("plan-*.json"))
    text = plan.read_text()
    run_id = json.loads(text[: text.rindex(', "checksum"')] + "}")["runs"][0]["run_id"]
    plan.write_text(text.replace(run_id, "f" + run_id[1:]))  # still JSON, still the same definition
    resumed = runner.invoke(cli, ["sweep", "--campaign", str(folder), "--workers", "1"])
    assert resumed.exit_code == 0 and "(0 run now" in resumed.stdout, resumed.output
    pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)


def test_records_carry_a_checksum_of_their_content(tiny_path, tmp_path):
    _, log = _campaign(tiny_path, tmp_path / "c", reps=1)
    for line in log.read_text().splitlines():
        record = json.loads(line)
        assert record["checksum"].startswith("sha256:") and len(record["checksum"]) == 7 + 64
        assert list(record)[-1] == "checksum"


def test_check_of_a_folder_that_is_not_a_campaign_is_bad_input(runner, tmp_path):
    result = runner.invoke(cli, ["sweep", "--check", str(tmp_path)])
    assert result.exit_code == 2 and "not a campaign folder" in _one_error(result.stderr)


# ------------------------------------------------------------ item 3: no hang after an error
_SCRIPT = """
import errno, struct, sys, time
from vhsim.campaign import CampaignSpec, runner
from vhsim.campaign.store import Campaign

spec = CampaignSpec.from_cli({scenario!r}, [{axis!r}], [("duration", "2s")])
{setup}
try:
    runner.run_campaign(spec, {folder!r}, workers=2, progress=False)
except BaseException as err:
    print("raised", type(err).__name__, err, flush=True)
"""

_RAISING_WORKER = """
def raising_unit(unit):
    raise RuntimeError("a worker failed on purpose")

runner.execute_unit = raising_unit
"""

# The disk fills while a worker is sending its result: the manager thread of the pool is left
# reading a message whose end never comes (here: a length header and a few bytes written into
# the result pipe, then the error), which the interpreter used to join forever at exit.
_FULL_DISK_MID_MESSAGE = """
executors = []
_new = runner._new_executor
runner._new_executor = lambda n: executors.append(_new(n)) or executors[-1]

def unit(u):
    if u[0][2][-1][1] != "10pkt":
        time.sleep(60)  # still running when the error comes
    return [{"run_id": u[0][0], "ok": True, "summary": {}, "result": None}]

def full_disk(self, run, summary, result, version, metrics=None, values=None):
    executors[0]._result_queue._writer._send(struct.pack("!i", 1 << 20) + bytes(100))
    time.sleep(0.5)  # the manager thread is now reading the rest of that message
    raise OSError(errno.ENOSPC, "No space left on device", str(self.path))

runner.execute_unit = unit
Campaign.commit = full_disk
"""


@pytest.mark.parametrize("setup, raised", [(_RAISING_WORKER, "raised RuntimeError a worker failed on purpose"),
                                           (_FULL_DISK_MID_MESSAGE, "raised OSError [Errno 28]")])
def test_a_sweep_ends_promptly_after_an_error_in_a_worker_or_the_store(tiny_path, tmp_path, setup, raised):
    script = _SCRIPT.format(scenario=str(tiny_path), axis=AXIS, folder=str(tmp_path / "c"),
                            setup=textwrap.dedent(setup))
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail("the sweep's process did not exit after the error: it waits for its worker pool")
    assert proc.returncode == 0, proc.stderr
    assert raised in proc.stdout, proc.stdout + proc.stderr
    assert time.monotonic() - started < 60


_CLI_SCRIPT = """
from vhsim.campaign import runner
from vhsim.cli import main
{setup}
main(["sweep", {scenario!r}, "-p", {axis!r}, "--set", "duration=2s", "-c", {folder!r}, "-w", "2", "--no-progress"])
"""


def test_the_cli_reports_a_worker_failure_in_one_line_and_exits(tiny_path, tmp_path):
    script = _CLI_SCRIPT.format(scenario=str(tiny_path), axis=AXIS, folder=str(tmp_path / "c"),
                                setup=textwrap.dedent(_RAISING_WORKER))
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=90)
    assert proc.returncode == 1, proc.stderr
    assert "a worker failed on purpose" in _one_error(proc.stderr)


# ------------------------------------------------------------ item 6: bounded plans
def test_a_huge_campaign_is_refused_at_once_with_a_way_out(runner, tiny_path, tmp_path):
    started = time.monotonic()
    result = runner.invoke(cli, ["sweep", str(tiny_path), "--reps", "100000000", "--dry-run"])
    assert result.exit_code == 2, result.output
    line = _one_error(result.stderr)
    assert "100,000,000 runs" in line and "more than the limit of 250,000" in line and "--max-runs" in line
    assert time.monotonic() - started < 10
    small = ["sweep", str(tiny_path), "-p", AXIS, "--reps", "2", "--dry-run", "-c", str(tmp_path / "c")]
    assert runner.invoke(cli, [*small, "--max-runs", "5"]).exit_code == 2
    ok = runner.invoke(cli, [*small, "--max-runs", "6"])
    assert ok.exit_code == 0 and "3 configurations, 6 runs" in ok.stdout, ok.output
    spec = CampaignSpec.from_cli(str(tiny_path), [AXIS, "seed=range(0,1000)"], replications=1000)
    assert spec.size == 3_000_000
    with pytest.raises(CampaignError, match="3,000,000 runs"):
        run_campaign(spec, tmp_path / "api")
    spec.check_size(None)  # no limit


@pytest.mark.parametrize("bound", ["1e9999999", "1e31s", "-1e400", "1e-99ms"])
def test_absurd_range_magnitudes_are_bad_input(runner, tiny_path, bound):
    result = runner.invoke(cli, ["sweep", str(tiny_path), "-p", f"duration=range(0,{bound},1)", "--dry-run"])
    assert result.exit_code == 2, result.output
    assert "is out of range" in _one_error(result.stderr)


def test_an_axis_of_too_many_values_is_refused():
    with pytest.raises(CampaignError, match="more than 1,000,000 values"):
        parse_cli_axis("seed=range(0,999999),range(999999,1999999)")


# ------------------------------------------------------------ item 7: a damaged campaign file
@pytest.mark.parametrize("content", [b"\xff\xfe{", b"{}", b"[1]", b'{"spec": {}, "active_version": "x"}', b"{"])
def test_a_damaged_campaign_file_is_bad_input(runner, tiny_path, tmp_path, content):
    folder = tmp_path / "c"
    _campaign(tiny_path, folder, reps=1)
    (folder / "campaign.json").write_bytes(content)
    for args in (["sweep", "--campaign", str(folder)], ["sweep", "--check", str(folder)], ["export", str(folder), "--csv", "-"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert "corrupt campaign file" in _one_error(result.stderr)


# ------------------------------------------------------------ item 10: speed and length units
def test_ranges_take_speed_and_length_units():
    assert expand_range("range(10km/h,60km/h,10km/h)", "a") == ["10km/h", "20km/h", "30km/h", "40km/h", "50km/h"]
    assert expand_range("range(10km/h, 20m/s, 1m/s)", "a")[:3] == ["10km/h", "13.6km/h", "17.2km/h"]
    assert expand_range("range(100m,1km,300m)", "a") == ["100m", "400m", "700m"]
    assert expand_range("range(1km,2km,250m)", "a") == ["1km", "1.25km", "1.5km", "1.75km"]
    assert quantity("36km/h") == pytest.approx(10.0) and quantity("1km") == pytest.approx(1000.0)
    with pytest.raises(CampaignError, match="mixes units of different kinds"):
        expand_range("range(1m,10km/h,1m)", "a")


def test_a_park_style_sweep_over_speeds_validates(runner):
    park = REPO / "scenarios" / "park" / "mobility-50kmh.toml"
    result = runner.invoke(cli, ["sweep", str(park), "-p", "mobile.mobility.speed=range(10km/h,110km/h,10km/h)",
                                 "--dry-run"])
    assert result.exit_code == 0, result.output
    assert "10 configurations, 10 runs" in result.stdout
