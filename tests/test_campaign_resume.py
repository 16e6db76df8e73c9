"""A sweep killed with SIGKILL in the middle resumes and ends as if it had never stopped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import record_ids, record_lines
from vhsim import campaign
from vhsim.campaign import CampaignSpec, run_campaign

# About 0.05 s per run (a 100 Mb/s access link for 60 s), so a sweep of 16 runs lasts long
# enough to be killed after a few of them, at a moment chosen by the test, not the sweep.
SLOW_OVERRIDES = [("duration", "60s"), ("links.access.rate", "100Mbps"), ("links.access.delay", "5ms"),
                  ("links.access.queue", "200pkt"), ("flows.bulk.tcp.window", "200pkt")]
AXES = ["flows.bulk.scheme=reno,newreno,sack,sack-rfc6675", "links.access.forward.error.p=0.001,0.01"]
REPS = 2


def _sweep_args(scenario: Path, folder: Path, workers: int) -> list[str]:
    args = [sys.executable, "-m", "vhsim", "sweep", str(scenario), "--reps", str(REPS),
            "--campaign", str(folder), "--workers", str(workers), "--no-progress"]
    for axis in AXES:
        args += ["-p", axis]
    for key, value in SLOW_OVERRIDES:
        args += ["--set", f"{key}={value}"]
    return args


def _done(folder: Path) -> int:
    return len(record_lines(folder))


@pytest.mark.parametrize("workers", [1, 2])
def test_sweep_killed_with_sigkill_resumes_to_the_same_results(tiny_path, tmp_path, workers):
    # Reference: the same campaign, never interrupted, through the Python API.
    spec = CampaignSpec.from_cli(str(tiny_path), AXES, SLOW_OVERRIDES, replications=REPS)
    reference = run_campaign(spec, tmp_path / "reference", workers=1)
    assert reference.executed == 16

    folder = tmp_path / "killed"
    proc = subprocess.Popen(_sweep_args(tiny_path, folder, workers), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    try:
        while _done(folder) < 3:
            assert proc.poll() is None, f"sweep ended before it could be killed: {proc.communicate()}"
            assert time.monotonic() < deadline, "sweep made no progress"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    interrupted = _done(folder)
    assert 3 <= interrupted < 16, "the kill should land in the middle of the sweep"

    # Every committed record is complete JSON; leftovers of a write in progress are hidden
    # temporary files that do not count as runs.
    camp = campaign.open(folder)
    assert len(camp.done_ids()) == interrupted
    assert camp.status()["missing"] == 16 - interrupted

    resumed = subprocess.run(_sweep_args(tiny_path, folder, workers), capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"({16 - interrupted} run now" in resumed.stdout and f"{interrupted} already stored" in resumed.stdout
    assert not list((folder / "runs").glob("*/.*.tmp")), "temporary files are cleaned up"

    want = campaign.open(tmp_path / "reference").results()
    got = campaign.open(folder).results()
    assert record_ids(folder) == record_ids(tmp_path / "reference")
    pd.testing.assert_frame_equal(got, want, check_exact=True)
