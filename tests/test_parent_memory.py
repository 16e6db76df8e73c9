"""What keeps `vhsim reproduce`'s parent process small (issue #28), checked by structure, never by
time or resident memory: a result is encoded to its files' bytes without pandas; fewer runs with
traces wait in the parent; a reader asks for the trace tables it needs; the t quantiles come
without scipy.stats; Sobral et al.'s panels read one table per run."""

from __future__ import annotations

import filecmp
import subprocess
import sys

import numpy as np
import pytest

import vhsim
from vhsim.campaign import runner
from vhsim.campaign.stats import mean_ci, t_quantile
from vhsim.result import EncodedResult


def _in_fresh_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_an_encoded_result_writes_the_files_save_wrote(tiny_text, tmp_path):
    result = vhsim.loads(tiny_text).run(detail="packets")
    result.save(tmp_path / "saved")
    encoded = result.encoded()
    assert sorted(encoded.files) == ["goodput.parquet", "packets.parquet", "timeseries.parquet"]
    encoded.save(tmp_path / "encoded")
    names = sorted(p.name for p in (tmp_path / "saved").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "encoded").iterdir())
    _, mismatch, errors = filecmp.cmpfiles(tmp_path / "saved", tmp_path / "encoded", names, shallow=False)
    assert (mismatch, errors) == ([], [])
    back = vhsim.read_result(tmp_path / "encoded")
    for table in ("goodput", "timeseries", "packets"):
        for column, values in result.arrays(table).items():
            np.testing.assert_array_equal(back.arrays(table)[column], values)
            assert back.arrays(table)[column].dtype == values.dtype


def test_encoding_a_result_does_not_import_pandas(tiny_text):
    # A campaign worker encodes every run it sends back: pa.array would import pandas (~50 MB).
    code = (f"import sys, vhsim\nr = vhsim.loads({tiny_text!r}).run(detail='packets')\n"
            "e = r.encoded()\nprint(len(e.files), 'pandas' in sys.modules)")
    assert _in_fresh_python(code) == "3 False"


def test_a_worker_sends_traces_as_arrays_for_the_parent_to_encode(tiny_text):
    # Encoding in the worker would import pyarrow there (~40 MB a worker); the parent has it.
    task = ("run-1", tiny_text, (), None, 1, "packets")
    outcome = runner.execute_run(task)
    assert outcome["ok"] and isinstance(outcome["result"], vhsim.Result)
    assert isinstance(outcome["result"].encoded(), EncodedResult)
    summary_only = runner.execute_run(task[:5] + ("summary",))
    assert summary_only["result"] is None


def test_fewer_runs_with_traces_wait_in_the_parent(tiny_text, monkeypatch):
    # A run that sends traces back is held in the parent until written: fewer are submitted ahead.
    submitted = []

    class Executor:
        def submit(self, fn, unit):
            from concurrent.futures import Future

            submitted.append(unit)
            done = Future()
            done.set_result([])
            return done

    pool = type("Pool", (), {"executor": Executor(), "workers": 2})()
    for detail, ahead in (("summary", 8), ("packets", 4)):
        submitted.clear()
        units = [[(f"r{i}", tiny_text, (), None, 1, detail)] for i in range(20)]
        stream = runner._process_pool(units, 2, pool)
        next(stream)
        assert len(submitted) == ahead  # the window: submitted before the first result is taken
        stream.close()


def test_read_result_reads_only_the_trace_tables_asked_for(tiny_text, tmp_path):
    result = vhsim.loads(tiny_text).run(detail="packets")
    result.save(tmp_path / "r")
    some = vhsim.read_result(tmp_path / "r", tables=("goodput",))
    assert some.tables == ["goodput"]
    assert some.summary == vhsim.read_result(tmp_path / "r").summary
    with pytest.raises(KeyError):
        some.trace("packets")


@pytest.mark.parametrize("q", [0.9, 0.95, 0.975, 0.995])
def test_t_quantiles_are_scipy_stats_numbers(q):
    from scipy.stats import t

    for dof in [1, 2, 3, 4, 9, 29, 30.5, 117.25, 1000]:
        assert t_quantile(q, dof) == float(t.ppf(q, dof))


def test_confidence_intervals_do_not_import_scipy_stats():
    code = ("import sys\nfrom vhsim.campaign.stats import mean_ci\nprint(round(mean_ci([1, 2, 3, 4, 5]).half_width, 4), "
            "'scipy.stats' in sys.modules)")
    assert _in_fresh_python(code) == "1.9632 False"
    assert round(mean_ci([1, 2, 3, 4, 5]).half_width, 4) == 1.9632


@pytest.mark.parametrize("what, table", [("cwnd", "timeseries"), ("throughput", "goodput")])
def test_sobral_panels_read_each_run_once_and_only_the_table_they_draw(tiny_text, tmp_path, what, table):
    import pandas as pd

    from vhsim.campaign.papers.sobral_plots import Curve, Panel, Panels

    vhsim.loads(tiny_text).run(detail="packets").save(tmp_path / "run")
    asked = []

    class Camp:
        def trace_for(self, row, rerun=False, tables=None):
            asked.append((row["run_id"], tables))
            return vhsim.read_result(tmp_path / "run", tables)

    runs = pd.DataFrame({"case": ["UH", "FH"], "run_id": ["a", "b"], "vhsim_version": ["x", "x"]})
    curves = (Curve({"case": "UH"}, "UH"), Curve({"case": "FH"}, "FH", 1))
    plot = Panels(what, (Panel("one", 0, 5, curves), Panel("two", 1, 2, curves)))
    files = plot.draw(Camp(), runs, tmp_path / "out", type("Fig", (), {"id": "f", "title": "t"})())
    assert files and asked == [("a", (table,)), ("b", (table,))]
