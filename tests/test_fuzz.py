"""Property-based fuzz of everything a user hands over (issue #19 item 5, widened by #27).

* Scenario input: mutated shipped scenarios (bytes replaced, inserted or deleted, lines
  dropped or doubled, values swapped for odd ones) and odd ``--set`` values.
* The Python API's arguments: seeds, details, trace filters, progress and control, pcap
  options, ``branch`` variants, ``read_result`` and ``save`` paths, ``decisions`` and
  ``state_around``.
* Sweep axes and ranges, ``reproduce`` and ``fingerprints`` arguments, and campaign folders
  whose files were damaged (a resumed sweep must then give the undamaged campaign's table).

From the command line every outcome is success, or exit code 2 (1 where a verdict is asked
for: ``sweep --check``) with one line ``error: ...`` of at most 500 characters (after the file
name) -- never a traceback, a panic or a hang (each call runs under an alarm).  From the API
the only exceptions are :class:`vhsim.ScenarioError` (its message naming the argument or key)
and :class:`vhsim.SimulationError`, besides the stop a test asks for (:class:`Interrupted`).

Bounded for CI: a few hundred examples in all, about a minute.  ``VHSIM_FUZZ_EXAMPLES=20000``
is the nightly size (docs/cli.md, "Fuzzing"); ``VHSIM_FUZZ_REPORT=FILE`` writes the number of
cases and their outcome categories there as JSON when the module ends.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import re
import shutil
import signal
import tempfile
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import vhsim  # noqa: E402
from vhsim import _native  # noqa: E402
from vhsim.cli import cli  # noqa: E402
from vhsim.control import Interrupted  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted(p for p in (REPO / "scenarios").rglob("*.toml"))
TEXTS = {p.relative_to(REPO).as_posix(): p.read_bytes() for p in SHIPPED}
#: Examples per suite (the cheap ones; the costlier suites take a fraction, see SIZES).
EXAMPLES = int(os.environ.get("VHSIM_FUZZ_EXAMPLES", "60"))
RUN_CAP_S = 0.1
#: Longest a single call may take before the fuzz calls it a hang (seconds).
HANG_S = 120
#: Longest error message (characters, after a file name it starts with).
MAX_MESSAGE = 500
#: How each case ended, per suite: written to VHSIM_FUZZ_REPORT (resolved before the module
#: moves to its scratch folder).
OUTCOMES: collections.Counter = collections.Counter()
REPORT = Path(os.environ["VHSIM_FUZZ_REPORT"]).resolve() if os.environ.get("VHSIM_FUZZ_REPORT") else None

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


def _check_cli(args: list[str], suite: str = "validate", ok_output: str | None = "ok",
               codes: tuple[int, ...] = (2,)) -> tuple[int, str]:
    """Run the CLI; check the outcome is success, or one of ``codes`` with one clean error line."""
    with _no_hang(args):
        result = CliRunner().invoke(cli, [str(a) for a in args])
    out, err = result.stdout, result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out + err and "panicked" not in err and "internal error" not in err, err
    if result.exit_code == 0:
        if ok_output is not None:
            assert out.strip() == ok_output, out
        OUTCOMES[(suite, "ok")] += 1
        return 0, err
    assert result.exit_code in codes, (result.exit_code, err)
    lines = [line for line in err.splitlines() if line.strip()]
    if lines and lines[0].startswith("Usage:"):  # the option parser's own usage error
        assert lines[-1].startswith("Error: "), err
        OUTCOMES[(suite, f"rc {result.exit_code}: usage")] += 1
    else:
        errors = [line for line in lines if line.startswith("error: ")]
        assert len(errors) == 1 and errors == lines[-1:], err
        assert len(_without_file(errors[0][7:])) <= MAX_MESSAGE, errors[0]
        OUTCOMES[(suite, f"rc {result.exit_code}: error")] += 1
    return result.exit_code, err


def _without_file(message: str) -> str:
    """An error message without the file and folder names it quotes (absolute paths)."""
    return re.sub(r"/[^\s:'\"`]+", "", message)


@contextlib.contextmanager
def _no_hang(what: object, seconds: float = HANG_S):
    """Fail the case if the block takes longer than ``seconds`` (SIGALRM, main thread)."""
    def alarm(signum, frame):
        raise AssertionError(f"no answer within {seconds} s (a hang?): {str(what)[:300]}")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _api_outcome(suite: str, err: BaseException | None, keys: tuple[str, ...] = ()) -> None:
    """Check and count how an API call ended: a value, ScenarioError naming one of ``keys`` (any
    key when empty), SimulationError without a panic, or the stop the test asked for."""
    if err is None:
        OUTCOMES[(suite, "ok")] += 1
        return
    if isinstance(err, Interrupted):
        OUTCOMES[(suite, "stopped")] += 1
        return
    assert isinstance(err, (vhsim.ScenarioError, vhsim.SimulationError)), repr(err)
    message = str(err)
    assert len(_without_file(message)) <= MAX_MESSAGE, message
    assert "panic" not in message, message
    if keys and isinstance(err, vhsim.ScenarioError):  # a file's error names the file, then the key
        assert message.startswith(keys) or message.startswith("/"), message
    OUTCOMES[(suite, type(err).__name__)] += 1


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


def _settings(share: float = 1.0) -> settings:
    return settings(max_examples=max(5, int(EXAMPLES * share)), deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


FUZZ = _settings()


@pytest.fixture(scope="module", autouse=True)
def _scratch_folder_and_report(tmp_path_factory):
    """Work in a scratch folder (a fuzzed relative path must not land in the repository), and
    write the outcome counts (VHSIM_FUZZ_REPORT) when the module ends."""
    here = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    try:
        yield
    finally:
        os.chdir(here)
    if REPORT is not None:
        suites: dict = {}
        for (suite, outcome), n in sorted(OUTCOMES.items()):
            suites.setdefault(suite, {})[outcome] = n
        report = {"examples_per_suite": EXAMPLES, "cases": sum(OUTCOMES.values()), "suites": suites}
        REPORT.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


# ------------------------------------------------------------------ scenario input
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
    code, _ = _check_cli(args, suite="--set")
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
        _api_outcome("Scenario.set", None)
    except Exception as err:  # noqa: BLE001 - the check is which
        _api_outcome("Scenario.set", err)
    try:
        sc.run(seed=value, detail="summary", control=_stopped())
        _api_outcome("Scenario.run(seed)", None)
    except BaseException as err:  # noqa: BLE001
        _api_outcome("Scenario.run(seed)", err, ("seed:",))


def _stopped():
    control = _native.RunControl()
    control.stop()  # validate the arguments only: the run stops at its first check
    return control


def _run_capped(sc: vhsim.Scenario) -> None:
    control = _native.RunControl()
    timer = threading.Timer(RUN_CAP_S, control.stop)
    timer.start()
    try:
        with _no_hang(sc):
            sc.run(detail="summary", control=control)
        _api_outcome("run of a valid scenario", None)
    except BaseException as err:  # noqa: BLE001
        _api_outcome("run of a valid scenario", err)
    finally:
        timer.cancel()


def test_the_fuzz_covers_every_shipped_scenario():
    assert len(TEXTS) >= 15 and all(re.search(rb"\[nodes\.", t) for t in TEXTS.values())


# ------------------------------------------------------------------ the Python API's arguments
TINY = vhsim.load(REPO / "scenarios/examples/bulk-3g.toml").with_(duration="1s", metrics__windows="{}")
HANDOVER = vhsim.load(REPO / "scenarios/examples/handover-3g-wlan.toml").set("duration", "12s")
RUN_KEYS = ("seed:", "detail:", "trace_window:", "trace_flows:", "trace_links:", "trace_events:", "progress:",
            "control:", "pcap_dir:", "pcap_key:", "pcap:", "directory:", "branch:", "flow:", "t:", "timeline",
            "duration", "key")
NAMES = ["bulk", "access", "access/forward", "wired/reverse", "all", "send", "control_drop", "retransmit", "",
         "nope", "bulk ", "\u00e9", "x" * 300, "access/sideways", "*", "\ud800"]
WINDOWS = ["", "..", "0s..1s", "1s..", "..0.5s", "2s..1s", "1..2", "1s-2s", "1e999s..", "-1s..", "0ns..1ns",
           "5" * 50 + "s..", "0.5s..0.5s", " 1s .. 2s ", "1s..2s..3s"]
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=12),
                 st.binary(max_size=4), st.lists(st.text(max_size=4), max_size=2), st.just(object()))


def _mostly(usual, odd):
    """``usual`` values most of the time, ``odd`` ones otherwise: a case with one bad argument
    tells more than one with five."""
    return st.one_of(usual, usual, usual, odd)


def _names_arg():
    return _mostly(st.one_of(st.none(), st.sampled_from(NAMES[:8])),
                   st.one_of(JUNK, st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=3)))


#: Per argument of Scenario.run: (usual values, odd values).
RUN_ARGUMENTS = {
    "seed": (st.one_of(st.none(), st.integers(0, 2**64 - 1)), st.one_of(st.integers(-1, 2**64), JUNK)),
    "detail": (st.sampled_from([None, "summary", "timeseries", "packets"]), st.one_of(st.just("Packets"), JUNK)),
    "trace_window": (st.one_of(st.none(), st.sampled_from(WINDOWS[2:5])),
                     st.one_of(st.sampled_from(WINDOWS), JUNK, st.tuples(st.sampled_from(["1s", None, "x"]),
                                                                        st.sampled_from(["2s", None, ""])))),
    "trace_flows": (st.sampled_from([None, "bulk", ["bulk"]]), st.one_of(JUNK, st.lists(st.sampled_from(NAMES), max_size=3))),
    "trace_links": (st.sampled_from([None, "access", ["access/forward", "wired"]]),
                    st.one_of(JUNK, st.lists(st.sampled_from(NAMES), max_size=3))),
    "trace_events": (st.sampled_from([None, "send", ["drop", "control_send"]]),
                     st.one_of(JUNK, st.lists(st.sampled_from(NAMES), max_size=3))),
    "pcap": (st.sampled_from([(), None, "access", ["wired/reverse"]]),
             st.one_of(JUNK, st.lists(st.sampled_from(NAMES), max_size=3))),
    "pcap_dir": (st.sampled_from([None, "out"]),
                 st.one_of(st.sampled_from(["a\0b", "", "file", "file/sub", "/proc/vhsim-x"]), JUNK)),
    "pcap_key": (st.sampled_from(["pcap", "--pcap"]), st.one_of(st.just(""), JUNK)),
    "progress": (st.sampled_from([None, lambda p: None]), JUNK),
    "control": (st.sampled_from([None, "stopped", "running"]), JUNK),
}


@_settings(1.0)
@given(data=st.data())
def test_run_arguments_raise_only_the_two_errors(tmp_path_factory, data):
    odd = data.draw(st.sets(st.sampled_from(sorted(RUN_ARGUMENTS)), max_size=2), label="odd arguments")
    args = {k: data.draw(odd_values if k in odd else usual, label=k) for k, (usual, odd_values) in RUN_ARGUMENTS.items()}
    tmp = tmp_path_factory.mktemp("run")
    (tmp / "file").write_text("x")
    if isinstance(args["pcap_dir"], str) and args["pcap_dir"] and not args["pcap_dir"].startswith("/"):
        args["pcap_dir"] = os.fspath(tmp / args["pcap_dir"])
    if isinstance(args["control"], str) and args["control"] in ("stopped", "running"):
        args["control"] = _stopped() if args["control"] == "stopped" else _native.RunControl()
    try:
        with _no_hang("run"):
            TINY.run(**args)
        _api_outcome("Scenario.run", None)
    except BaseException as err:  # noqa: BLE001
        key = args["pcap_key"]
        _api_outcome("Scenario.run", err, RUN_KEYS + ((key + ":",) if isinstance(key, str) and key else ()))
    assert not list(tmp.glob("**/.*.tmp")), "a staging folder or temporary file left behind"


VARIANT = st.dictionaries(st.sampled_from(["timeline[0].at", "duration", "timeline[1].at", "seed", "x"]),
                          st.sampled_from(["8s", "9s", "1s", "30s", "-1s", "x", ""]), max_size=2)


@_settings(0.3)
@given(_mostly(st.lists(st.dictionaries(st.just("timeline[0].at"), st.sampled_from(["5s", "8s", "9.5s"]), min_size=1),
                        min_size=1, max_size=3),
               st.one_of(JUNK, st.lists(st.one_of(JUNK, VARIANT), max_size=4))),
       _mostly(st.sampled_from([None, 1, 2]), st.one_of(st.integers(-1, 3), JUNK)),
       _mostly(st.sampled_from(["summary", None]), st.sampled_from(["bogus", 3])))
def test_branch_variants_raise_only_the_two_errors(variants, seed, detail):
    try:
        with _no_hang("branch"):
            HANDOVER.branch(variants, seed=seed, detail=detail)
        _api_outcome("Scenario.branch", None)
    except BaseException as err:  # noqa: BLE001
        _api_outcome("Scenario.branch", err, RUN_KEYS)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("saved")
    result = TINY.run(detail="timeseries")
    result.save(folder / "result")
    return result, folder


def _path_arg(folder: Path):
    names = st.text(max_size=10).map(lambda t: os.fspath(folder / ("n" + t.replace("/", "_"))))
    return st.one_of(JUNK, names, st.sampled_from([os.fspath(folder / "result"), os.fspath(folder / "result" / "summary.json"),
                                                   "/proc/vhsim-x", "/dev/null/x", "", "a\0b"]))


@_settings(0.5)
@given(data=st.data())
def test_result_paths_and_lookups_raise_only_the_two_errors(saved, data):
    result, folder = saved
    path = data.draw(_path_arg(folder))
    for name, call in (("read_result", lambda: vhsim.read_result(path)),
                       ("Result.save", lambda: result.save(path) if path != os.fspath(folder / "result") else None),
                       ("Result.decisions", lambda: result.decisions(data.draw(st.one_of(_names_arg(), st.just("bulk"))))),
                       ("Result.state_around", lambda: result.state_around(data.draw(st.one_of(st.just("bulk"), _names_arg())),
                                                                           data.draw(st.one_of(st.floats(), JUNK))))):
        try:
            call()
            _api_outcome(name, None)
        except Exception as err:  # noqa: BLE001
            _api_outcome(name, err, RUN_KEYS)


# ------------------------------------------------------------------ sweep axes and ranges
AXIS_KEYS = ["duration", "seed", "flows.bulk.tcp.window", "flows.bulk.scheme", "links.access.rate",
             "links.access.delay", "timeline[0].at", "mobile.mobility.speed", "nope", "a..b", "x" * 200, "\u00e9", " "]
NUMBERS = ["0", "1", "-1", "0.5", "3", "10", "1e3", "1e30", "1e31", "1e-31", "1e9999999", ".5", "1.", "x", ""]
UNITS = ["", "s", "ms", "ns", "min", "kbps", "Mbps", "B", "KiB", "pkt", "km/h", "m/s", "m", "km", "%", "parsec", "b/s"]


VALID_AXES = {"duration": ["1s", "2s", "range(1s,3s,1s)", "range(500ms,2s,500ms)"],
              "flows.bulk.tcp.window": ["10pkt", "20pkt", "range(10pkt,40pkt,10pkt)"],
              "flows.bulk.scheme": ["reno", "sack", "newreno"], "links.access.delay": ["5ms", "range(1ms,5ms,1ms)"],
              "links.access.rate": ["1Mbps", "range(1Mbps,3Mbps,500kbps)"], "seed": ["1", "range(1,5)"]}


@st.composite
def axes_arg(draw) -> list[tuple[str, str]]:
    if draw(st.integers(0, 2)) == 0:  # a valid axis, the plan is printed
        key = draw(st.sampled_from(sorted(VALID_AXES)))
        return [(key, ",".join(draw(st.lists(st.sampled_from(VALID_AXES[key]), min_size=1, max_size=2, unique=True))))]
    return draw(st.lists(st.tuples(st.sampled_from(AXIS_KEYS), axis_values()), min_size=1, max_size=2))


@st.composite
def axis_values(draw) -> str:
    items = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            parts = [draw(st.sampled_from(NUMBERS)) + draw(st.sampled_from(UNITS)) for _ in range(draw(st.integers(0, 4)))]
            items.append("range(" + ",".join(parts) + ")")
        else:
            items.append(draw(st.one_of(st.sampled_from(ODD_VALUES + ["reno", "sack", "2Mbps", "5ms", "10pkt", "1s"]),
                                        st.text(max_size=8))))
    return ",".join(items)


@_settings(0.5)
@given(axes_arg(), st.sampled_from([[], [], ["--zip"], ["--reps", "3"], ["--reps", "0"], ["--reps", "1000000000"],
                                    ["--seed", "-1"]]))
def test_sweep_axes_and_ranges_get_a_plan_or_one_clean_error(tmp_path_factory, axes, options):
    args = ["sweep", REPO / "scenarios/examples/bulk-3g.toml", "--dry-run", "--max-runs", "40",
            "-c", tmp_path_factory.mktemp("sweep") / "c", *options]
    for key, values in axes:
        args += ["-p", f"{key}={values}"]
    _check_cli(args, suite="sweep -p", ok_output=None)


# ------------------------------------------------------------------ reproduce and fingerprints
PAPERS = ["demo", "limjang", "danielkojo", "park", "nope", "", "x" * 300, "\u00e9", "--list"]


@_settings(0.3)
@given(st.sampled_from(PAPERS), st.one_of(st.text(max_size=12), st.sampled_from(["x" * 400, "goodput-vs-loss "])),
       st.sampled_from([[], ["--quick"], ["--workers", "0"], ["--workers", "x"], ["--dask", ""], ["--out", "a\0b"]]))
def test_reproduce_arguments_get_one_clean_error(tmp_path_factory, paper, figure, options):
    from vhsim.campaign.reproduce import papers

    registry = papers()
    assume(paper not in registry or figure not in [f.id for f in registry[paper].figures])
    if paper == "--list":
        return
    args = ["reproduce", paper, "--figure", figure, "--out", tmp_path_factory.mktemp("repro") / "o", *options]
    _check_cli(args, suite="reproduce", ok_output=None)


STORE_HEADER = "scenario\tset\tseed\tpackets\ttimeseries\tsummary\n"


@_settings(0.3)
@given(st.one_of(st.binary(max_size=60), st.lists(st.text(alphabet="ab1x\t \u00e9#", max_size=16), max_size=3).map(
           lambda rows: (STORE_HEADER + "\n".join(rows)).encode())),
       mutated_files())
def test_fingerprints_arguments_get_one_clean_error(tmp_path_factory, store, scenario):
    tmp = tmp_path_factory.mktemp("fp")
    (tmp / "root" / "scenarios").mkdir(parents=True)
    (tmp / "root" / "scenarios" / "a.toml").write_bytes(scenario)
    (tmp / "store.tsv").write_bytes(store)
    # The root lacks the scenarios the preset cases run on, so a valid store still ends in exit 2.
    _check_cli(["fingerprints", "--root", tmp / "root", "--store", tmp / "store.tsv"], suite="fingerprints",
               ok_output=None)


# ------------------------------------------------------------------ damaged campaign folders
@pytest.fixture(scope="module")
def reference_campaign(tmp_path_factory):
    from vhsim import campaign
    from vhsim.campaign import CampaignSpec, run_campaign

    folder = tmp_path_factory.mktemp("campaign") / "c"
    spec = CampaignSpec.from_cli(str(REPO / "scenarios/examples/bulk-3g.toml"), ["flows.bulk.tcp.window=10pkt,20pkt"],
                                 [("duration", "1s"), ("metrics.windows", "{}")], replications=2)
    run_campaign(spec, folder, workers=1)
    return folder, campaign.open(folder).results()


@st.composite
def damages(draw, files: list[str]) -> list[tuple[str, str, int, bytes]]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        out.append((draw(st.sampled_from(files)), draw(st.sampled_from(["truncate", "garbage", "delete", "flip",
                    "braces", "empty"])), draw(st.integers(0, 4000)), draw(st.binary(min_size=1, max_size=40))))
    return out


def _damage(path: Path, kind: str, at: int, data: bytes) -> None:
    if not path.is_file():
        return
    content = path.read_bytes()
    if kind == "delete":
        path.unlink()
    elif kind == "truncate":
        path.write_bytes(content[: at % max(1, len(content))])
    elif kind == "garbage":
        path.write_bytes(data)
    elif kind == "flip" and content:
        i = at % len(content)
        path.write_bytes(content[:i] + bytes([content[i] ^ 0x5A]) + content[i + 1:])
    elif kind == "braces":
        path.write_bytes(b"{}")
    elif kind == "empty":
        path.write_bytes(b"")


@_settings(0.25)
@given(data=st.data())
def test_damaged_campaign_folders_are_detected_and_resume_to_the_same_table(tmp_path_factory, reference_campaign, data):
    import pandas as pd

    from vhsim import campaign

    source, want = reference_campaign
    folder = tmp_path_factory.mktemp("damaged") / "c"
    shutil.copytree(source, folder)
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != ".lock")
    for name, kind, at, junk in data.draw(damages(files)):
        _damage(folder / name, kind, at, junk)
    _check_cli(["sweep", "--check", folder], suite="sweep --check", ok_output=None, codes=(1, 2))
    code, _ = _check_cli(["sweep", "--campaign", folder, "--workers", "1", "--no-progress"], suite="sweep resume",
                         ok_output=None)
    if code == 0:
        pd.testing.assert_frame_equal(campaign.open(folder).results(), want, check_exact=True)
        _check_cli(["sweep", "--check", folder], suite="sweep --check after resume", ok_output=None, codes=())
