"""Result.save / vhsim.read_result round trip and the on-disk format."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import vhsim


@pytest.fixture(scope="module")
def result():
    from conftest import TINY

    return vhsim.loads(TINY).run(seed=2, detail="packets")


def test_save_writes_summary_json_and_one_parquet_per_table(result, tmp_path):
    out = result.save(tmp_path / "r")
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["summary.json"] + [f"{t}.parquet" for t in result.tables])
    assert json.loads((out / "summary.json").read_text()) == result.summary


def test_read_result_restores_arrays_codes_and_summary_exactly(result, tmp_path):
    result.save(tmp_path)
    back = vhsim.read_result(tmp_path)
    assert back.summary == result.summary
    assert back.codes == result.codes
    assert back.tables == result.tables
    for table in result.tables:
        a, b = result.arrays(table), back.arrays(table)
        assert list(a) == list(b)
        for col in a:
            assert a[col].dtype == b[col].dtype, (table, col)
            np.testing.assert_array_equal(a[col], b[col], err_msg=f"{table}.{col}")
        pd.testing.assert_frame_equal(result.trace(table), back.trace(table))
    pd.testing.assert_frame_equal(result.flows, back.flows)


def test_parquet_files_are_readable_without_vhsim(result, tmp_path):
    result.save(tmp_path)
    df = pd.read_parquet(tmp_path / "packets.parquet")
    assert isinstance(df["event"].dtype, pd.CategoricalDtype)
    assert set(df["event"].dropna().unique()) <= set(result.codes["event"])
    assert len(df) == len(result.trace("packets"))


def test_saving_a_smaller_result_into_the_same_folder_removes_stale_tables(result, tmp_path):
    from conftest import TINY

    result.save(tmp_path)
    small = vhsim.loads(TINY).run(seed=2, detail="summary")
    small.save(tmp_path)
    assert sorted(p.name for p in tmp_path.glob("*.parquet")) == ["goodput.parquet"]
    assert vhsim.read_result(tmp_path).tables == ["goodput"]


def test_read_result_of_a_missing_folder_names_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere"):
        vhsim.read_result(tmp_path / "nowhere")
    with pytest.raises(FileNotFoundError, match="summary.json"):
        vhsim.read_result(tmp_path)
