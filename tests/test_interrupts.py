"""Ctrl-C and SIGTERM stop runs, sweeps and reproductions at once, and leave nothing that looks
complete; progress of a long run (issue #19 items 2 and 3)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import record_lines
import vhsim
from vhsim import _native, campaign
from vhsim.campaign import CampaignSpec, run_campaign
from vhsim.control import Interrupted, Progress

REPO = Path(__file__).resolve().parent.parent
BULK = REPO / "scenarios" / "examples" / "bulk-3g.toml"


def _start(args: list[str], **kw) -> subprocess.Popen:
    # A new session, so that a signal to the group reaches the command and its workers only,
    # as Ctrl-C in a terminal reaches the foreground process group.
    return subprocess.Popen([sys.executable, "-m", "vhsim", *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, **kw)


def _wait_for(condition, proc: subprocess.Popen, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert proc.poll() is None, f"ended before {what}: {proc.communicate()}"
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.01)


def _signal_and_wait(proc: subprocess.Popen, sig: int) -> tuple[float, str]:
    sent = time.monotonic()
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=30)
    return time.monotonic() - sent, err


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_a_long_run_at_once_and_saves_nothing(tmp_path, sig, code):
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("{}")  # an earlier result in the folder
    # 10^6 simulated seconds: about a minute of wall time if nothing stopped it.
    proc = _start(["run", BULK, "--set", "duration=1000000s", "--detail", "summary", "--out", out])
    _wait_for(lambda: not (out / "summary.json").exists(), proc, "the run to start")
    time.sleep(1.0)
    elapsed, err = _signal_and_wait(proc, sig)
    assert proc.returncode == code, err
    assert elapsed < 3, elapsed
    assert err.strip().splitlines()[-1] == "interrupted", err
    assert "Traceback" not in err and "FATAL" not in err
    assert not (out / "summary.json").exists(), "an interrupted run leaves no complete-looking result"
    assert not list(out.glob("*.parquet"))


def test_a_run_stopped_through_its_control_raises_interrupted(tiny_text):
    sc = vhsim.loads(tiny_text).set("duration", "1000000s")
    control = _native.RunControl()
    seen: list[Progress] = []
    threading.Timer(0.5, control.stop).start()
    started = time.monotonic()
    with pytest.raises(Interrupted, match="interrupted at"):
        sc.run(detail="summary", control=control, progress=seen.append)
    assert time.monotonic() - started < 2
    assert len(seen) >= 2 and seen[-1].sim_s > seen[0].sim_s > 0
    assert all(p.end_s == 1_000_000 for p in seen)
    last = seen[-1]
    assert 0 < last.fraction < 1 and last.events_per_s > 0 and last.eta_s > 0


def test_progress_is_not_shown_when_stderr_is_not_a_terminal(tiny_path, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "vhsim", "run", str(tiny_path), "--set", "duration=20000s",
                           "--detail", "summary", "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""


def test_the_progress_line_shows_simulated_time_rate_and_eta():
    from vhsim.runview import RunProgress

    shown = RunProgress(enabled=True)
    with shown:
        shown(Progress(sim_s=10.0, end_s=100.0, events=5_000_000, wall_s=0.5))  # too early: nothing
        assert shown._bar is None
        shown(Progress(sim_s=50.0, end_s=100.0, events=10_000_000, wall_s=2.0))
        task = shown._bar.tasks[0]
        assert (task.completed, task.total) == (50.0, 100.0)
        assert task.fields == {"sim": "50.0 s", "end": "100.0 s", "rate": "5.0 M events/s"}
    assert shown._bar is None


def test_an_interrupted_save_leaves_no_summary(tiny_text, tmp_path, monkeypatch):
    result = vhsim.loads(tiny_text).run(detail="packets")
    result.save(tmp_path / "r")
    assert (tmp_path / "r" / "summary.json").is_file()

    def cut(*args, **kwargs):
        raise KeyboardInterrupt

    # The files are encoded first (Result.encoded), then written: cut the writing.
    monkeypatch.setattr(Path, "write_bytes", cut)
    with pytest.raises(KeyboardInterrupt):
        result.save(tmp_path / "r")
    assert not (tmp_path / "r" / "summary.json").exists()
    with pytest.raises(FileNotFoundError, match="incomplete vhsim result folder"):
        vhsim.read_result(tmp_path / "r")


# --------------------------------------------------------------------------- sweeps
AXES = ["flows.bulk.scheme=reno,newreno,sack,sack-rfc6675"]
# About 0.3 s per run on this machine: the signal lands while runs are in flight.
SLOW = [("duration", "4000s")]
REPS = 3


def _sweep_args(folder: Path, workers: int) -> list[str]:
    args = ["sweep", BULK, "--reps", str(REPS), "--campaign", folder, "--workers", str(workers), "--no-progress"]
    for axis in AXES:
        args += ["-p", axis]
    for key, value in SLOW:
        args += ["--set", f"{key}={value}"]
    return args


def _done(folder: Path) -> int:
    return len(record_lines(folder))


@pytest.mark.parametrize("workers, sig", [(1, signal.SIGINT), (2, signal.SIGINT), (2, signal.SIGTERM)])
def test_a_signal_stops_a_sweep_keeps_its_runs_and_the_resumed_sweep_equals_an_uninterrupted_one(
        tmp_path, workers, sig):
    spec = CampaignSpec.from_cli(str(BULK), AXES, SLOW, replications=REPS)
    reference = run_campaign(spec, tmp_path / "reference", workers=2)
    assert reference.executed == 12

    folder = tmp_path / "interrupted"
    proc = _start(_sweep_args(folder, workers))
    _wait_for(lambda: _done(folder) >= 2, proc, "two finished runs")
    elapsed, err = _signal_and_wait(proc, sig)
    assert proc.returncode == 128 + sig, err
    assert elapsed < 3, elapsed
    last = err.strip().splitlines()[-1]
    assert last.startswith("interrupted: ") and "runs stored; run the same command again to resume" in last, err
    assert "Traceback" not in err
    stored = _done(folder)
    assert 2 <= stored < 12
    assert f"{stored}/12 runs stored" in last

    resumed = subprocess.run([sys.executable, "-m", "vhsim", *map(str, _sweep_args(folder, workers))],
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{stored} already stored" in resumed.stdout
    want = campaign.open(tmp_path / "reference").results()
    got = campaign.open(folder).results()
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_ctrl_c_stops_a_reproduction_without_a_report(tmp_path):
    out = tmp_path / "repro"
    out.mkdir()
    (out / "report.md").write_text("# an earlier report\n")
    proc = _start(["reproduce", "demo", "--quick", "--workers", "1", "--out", out, "--no-progress"])
    _wait_for(lambda: any(record_lines(c) for c in out.glob("*/campaign")), proc, "a first stored run")
    elapsed, err = _signal_and_wait(proc, signal.SIGINT)
    if proc.returncode == 0:
        pytest.skip("the quick reproduction finished before the signal")
    assert proc.returncode == 130, err
    assert elapsed < 3, elapsed
    assert err.strip().splitlines()[-1] == "interrupted", err
    assert not (out / "report.md").exists(), "no report that looks like the outcome of this call"
