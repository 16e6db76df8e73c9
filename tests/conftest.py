"""Shared fixtures: tiny scenarios written into tmp_path, and a subprocess runner."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

# 5 s of a 1 Mbit/s, 50 ms access link with 1 % random loss on the data
# direction: a few hundred segments, some retransmissions, runs in well under
# a second even in a debug build.
TINY = """\
name = "tiny"
duration = "5s"
seed = 1

[nodes.cn]
[nodes.r]
[nodes.mn]

[links.wired]
between = ["cn", "r"]
rate = "100Mbps"
delay = "1ms"
queue = "100pkt"

[links.access]
between = ["r", "mn"]
rate = "1Mbps"
delay = "50ms"
queue = "20pkt"

[links.access.forward]
error = { kind = "bernoulli", p = 0.01 }

[flows.bulk]
from = "cn"
to = "mn"
scheme = "sack"
app = { kind = "bulk" }

[flows.bulk.tcp]
segment_size = "1000B"
window = "20pkt"

[flows.bulk.sink]
delayed_ack = false

[output]
detail = "packets"
"""

# Same scenario with a typo in a unit: must fail validation naming the key.
BAD_RATE = TINY.replace('rate = "1Mbps"', 'rate = "10Mbs"')


@pytest.fixture
def tiny_text() -> str:
    return TINY


@pytest.fixture
def tiny_path(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


@pytest.fixture
def bad_path(tmp_path: Path) -> Path:
    path = tmp_path / "bad-rate.toml"
    path.write_text(BAD_RATE, encoding="utf-8")
    return path


def run_vhsim(*args: str, cwd: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """Run the CLI in a fresh interpreter, as a user's shell would."""
    return subprocess.run(
        [sys.executable, "-m", "vhsim", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=timeout,
    )


@pytest.fixture
def vhsim_proc():
    """The :func:`run_vhsim` helper, as a fixture."""
    return run_vhsim


def record_lines(folder: Path) -> list[bytes]:
    """The complete run record lines of a campaign folder's logs (``runs/<version>/records.jsonl``),
    every version's: a run is stored exactly when its line is there (a last line without its
    newline is a write under way)."""
    return [line for log in sorted(folder.glob("runs/*/records.jsonl"))
            for line in log.read_bytes().splitlines(keepends=True)
            if line.startswith(b'{"run_id"') and line.endswith(b"\n")]


def record_ids(folder: Path) -> list[str]:
    """The run ids of :func:`record_lines`, sorted."""
    return sorted(line[12:].split(b'"', 1)[0].decode() for line in record_lines(folder))
