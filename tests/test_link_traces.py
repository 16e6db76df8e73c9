"""Recorded link traces (issue #30 item 6): the shipped traces are what their documented models
give, a constant trace is the constant-rate link in the fingerprint store, and bad traces are
one-line errors naming the key, the file and the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import vhsim
from vhsim import fingerprints

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "crates" / "vhsim-scenario" / "traces"


def test_the_shipped_traces_are_what_the_generator_makes(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_traces.py"), "--out", str(tmp_path)],
                          capture_output=True, text=True, check=True)
    assert "3g-outages: 5046 opportunities in 60 s" in done.stdout
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in SHIPPED.glob("*.trace"))
    for name in made:
        assert (tmp_path / name).read_bytes() == (SHIPPED / name).read_bytes(), name


def test_a_constant_trace_has_the_fingerprint_of_the_constant_rate_link():
    store = fingerprints.read_store(ROOT / fingerprints.STORE)
    plain = fingerprints.Case("benches/bulk-sack1.toml")
    traced = fingerprints.Case("benches/bulk-sack1.toml", fingerprints.CONSTANT_TRACE_SETS)
    assert traced.key in store, "the constant-trace case is in the store"
    assert store[traced.key] == store[plain.key]


def test_the_traced_example_follows_its_outages():
    s = vhsim.load(ROOT / "scenarios" / "examples" / "traced-wlan-to-3g.toml")
    links = {l["name"]: l for l in s.resolved()["links"]}
    assert links["umts/forward"]["trace"]["source"] == "shipped:3g-outages"
    assert links["umts/forward"]["rate"] == 1_009_200  # 5046 x 1500 B x 8 in 60 s
    assert "trace" not in links["umts/reverse"]


@pytest.mark.parametrize("text, message", [
    ("1\n2\nfoo\n", " line 3: `foo` is not a time: expected a whole number of milliseconds"),
    ("3\n2\n", " line 2: 2 ms is before 3 ms on line 1: times must not decrease"),
    ("", ": no times: the trace is empty"),
])
def test_bad_traces_are_one_line_errors_with_file_and_line(tmp_path, text, message):
    path = tmp_path / "bad.trace"
    path.write_text(text)
    base = ROOT / "benches" / "bulk-sack1.toml"
    with pytest.raises(vhsim.ScenarioError) as err:
        vhsim.load(base, {"links.access.forward.trace": f'{{ file = "{path}" }}'})
    text = str(err.value)
    assert "\n" not in text
    assert f"links.access.forward.trace.file: {path}{message}" in text
