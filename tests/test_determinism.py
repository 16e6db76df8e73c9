"""Same scenario + seed in two separate processes gives bit-identical traces."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import TINY

HASH_SCRIPT = r"""
import hashlib, json, sys
import numpy as np
import vhsim

res = vhsim.loads(open(sys.argv[1]).read()).run(seed=int(sys.argv[2]), detail="packets")
h = hashlib.sha256()
for table in sorted(res.tables):
    cols = res.arrays(table)
    for col in sorted(cols):
        arr = np.ascontiguousarray(cols[col])
        h.update(f"{table}.{col}:{arr.dtype.str}:{arr.shape}".encode())
        h.update(arr.tobytes())
timing = {"wall_s", "events_per_s"}
summary = {k: v for k, v in res.summary.items() if k not in timing}
h.update(json.dumps(summary, sort_keys=True).encode())
h.update(json.dumps(res.codes, sort_keys=True).encode())
print(h.hexdigest())
"""


def _trace_hash(scenario_path, seed: int) -> str:
    proc = subprocess.run([sys.executable, "-c", HASH_SCRIPT, str(scenario_path), str(seed)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


@pytest.fixture
def lossy_path(tmp_path):
    path = tmp_path / "lossy.toml"
    # 5 % loss makes the run depend visibly on the random stream.
    path.write_text(TINY.replace("p = 0.01", "p = 0.05"))
    return path


def test_same_seed_in_two_processes_gives_identical_traces(lossy_path):
    assert _trace_hash(lossy_path, 11) == _trace_hash(lossy_path, 11)


def test_another_seed_gives_different_traces(lossy_path):
    assert _trace_hash(lossy_path, 11) != _trace_hash(lossy_path, 12)


def test_in_process_reruns_match_too(lossy_path):
    import vhsim

    a = vhsim.load(lossy_path).run(seed=5, detail="summary").summary
    b = vhsim.load(lossy_path).run(seed=5, detail="summary").summary
    for key in ("wall_s", "events_per_s"):
        a.pop(key), b.pop(key)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
