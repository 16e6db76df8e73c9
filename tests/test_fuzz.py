"""Property-based fuzz of scenario input (issue #19 item 5).

Mutated shipped scenarios (bytes replaced, inserted or deleted, lines dropped or doubled,
values swapped for odd ones) and odd ``--set`` values: every outcome is ``ok``, or one line
``error: ...`` with exit code 2 -- never a traceback, a panic or a hang.  Scenarios that
validate are also run through the Python API under a wall-clock cap, where the only allowed
outcomes are a result, a :class:`vhsim.ScenarioError`, or the cap's interruption.

Bounded for CI: a few hundred examples, a few seconds (``VHSIM_FUZZ_EXAMPLES`` raises it).
"""

from __future__ import annotations

import os
import re
import tempfile
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import vhsim  # noqa: E402
from vhsim import _native  # noqa: E402
from vhsim.cli import cli  # noqa: E402
from vhsim.control import Interrupted  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (REPO / "scenarios").rglob("*.toml"))
TEXTS = {p.relative_to(REPO).as_posix(): p.read_bytes() for p in SHIPPED}
EXAMPLES = int(os.environ.get("VHSIM_FUZZ_EXAMPLES", "100"))
RUN_CAP_S = 0.1

ODD_VALUES = [
    "0", "-1", "1", "2.5", "1e400", "-1e-400", "inf", "nan", "true", "[]", "{}", "[1, [2]]",
    '""', '"0s"', '"-5ms"', '"1e3ms"', '"18446744073709551615ns"', '"99999999999999999999s"',
    '"0bps"', '"1bps"', '"100Gbps"', '"0pkt"', '"1pkt"', '"4294967296pkt"', '"1.5B"', '"9ms"',
    '"sack"', '"nope"', '"\\u0000"', '"' + "x" * 5000 + '"', "{ kind = \"bernoulli\", p = 2 }",
    "{ kind = \"none\" }", '["0s", "1s"]', "1979-05-27T07:32:00Z",
]
SET_KEYS = [
    "duration", "seed", "name", "output.detail", "metrics.goodput_interval", "metrics.handover_window",
    "links.access.rate", "links.access.queue", "links.access.delay", "links.access.forward.error",
    "links.wlan.rate", "links.umts.forward.reorder", "flows.bulk.scheme", "flows.bulk.tcp.window",
    "flows.bulk.tcp.segment_size", "flows.bulk.tcp.min_rto", "flows.bulk.app", "flows.bulk.start",
    "flows.tcp.scheme", "flows.bulk.sink.delayed_ack", "timeline[0].at", "timeline[0].kind",
    "timeline[0].gap", "timeline[9].at", "mobile.initial", "nodes.zz", "links", "flows.bulk",
    "a..b", "x[", "flows.bulk.tcp.window.deeper", "\u00e9t\u00e9", " ",
]


def _check_cli(args: list[str]) -> tuple[int, str]:
    result = CliRunner().invoke(cli, args)
    out, err = result.stdout, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out + err and "panicked" not in err and "internal error" not in err, err
    if result.exit_code == 0:
        assert out.strip() == "ok", out
    else:
        assert result.exit_code == 2, (result.exit_code, err)
        lines = [line for line in err.splitlines() if line.strip()]
        if lines and lines[0].startswith("Usage:"):  # the option parser's own usage error
            assert lines[-1].startswith("Error: "), err
        else:
            assert len(lines) == 1 and lines[0].startswith("error: "), err
            assert len(lines[0]) <= 1100, len(lines[0])
    return result.exit_code, err


def _run_capped(sc: vhsim.Scenario) -> None:
    control = _native.RunControl()
    timer = threading.Timer(RUN_CAP_S, control.stop)
    timer.start()
    try:
        sc.run(detail="summary", control=control)
    except (vhsim.ScenarioError, Interrupted):
        pass
    finally:
        timer.cancel()


@st.composite
def mutated_files(draw) -> bytes:
    name = draw(st.sampled_from(sorted(TEXTS)))
    data = bytearray(TEXTS[name])
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["byte", "insert", "delete", "line", "value"]))
        pos = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "byte" and data:
            data[pos] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            data[pos:pos + draw(st.integers(1, 40))] = b""
        else:
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "line":
                lines[i:i + 1] = [] if draw(st.booleans()) else [lines[i], lines[i]]
            elif b"=" in lines[i]:
                key = lines[i].split(b"=", 1)[0]
                lines[i] = key + b"= " + draw(st.sampled_from(ODD_VALUES)).encode()
            data = bytearray(b"\n".join(lines))
    return bytes(data)


FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@FUZZ
@given(mutated_files())
def test_mutated_scenario_files_get_ok_or_one_clean_error(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "mutated.toml"
        path.write_bytes(data)
        code, _ = _check_cli(["validate", str(path)])
        if code == 0:
            _run_capped(vhsim.load(path))


@FUZZ
@given(st.sampled_from(sorted(TEXTS)),
       st.lists(st.tuples(st.sampled_from(SET_KEYS),
                          st.one_of(st.sampled_from(ODD_VALUES), st.text(max_size=30))), min_size=1, max_size=3))
def test_odd_set_values_get_ok_or_one_clean_error(name, sets):
    args = ["validate", str(REPO / name)]
    for key, value in sets:
        args += ["--set", f"{key}={value}"]
    code, _ = _check_cli(args)
    if code == 0:
        _run_capped(vhsim.load(REPO / name, [(k, v.strip()) for k, v in sets]))


@FUZZ
@given(st.sampled_from(sorted(TEXTS)), st.sampled_from(SET_KEYS),
       st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=20),
                 st.binary(max_size=5), st.lists(st.integers(), max_size=2)))
def test_the_python_api_raises_only_scenario_error(name, key, value):
    sc = vhsim.loads(TEXTS[name].decode())
    try:
        sc.set(key, value).validate()
    except vhsim.ScenarioError as err:
        assert str(err) and len(str(err)) < 1100
    try:
        sc.run(seed=value, detail="summary", control=_stopped())
    except (vhsim.ScenarioError, Interrupted):
        pass


def _stopped():
    control = _native.RunControl()
    control.stop()  # validate the arguments only: the run stops at its first check
    return control


def test_the_fuzz_covers_every_shipped_scenario():
    assert len(TEXTS) >= 15 and all(re.search(rb"\[nodes\.", t) for t in TEXTS.values())
