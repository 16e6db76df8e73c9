"""Result tables of real runs for the claims' mutation test (tests/test_claims_mutation.py).

Every registered figure's derived result table (the table its claims are judged on) is stored
as ``tests/data/claim_tables/<paper>/<figure>.json.gz``: the columns as JSON lists (floats with
NaN and +-inf, strings, booleans, lists of numbers for event times), the table's axes, and how
it was made.  Objects that are not data (a run's story object) are left out: no claim reads them
(a consistency test may, and is then not checkable on the stored table).

Which campaign: the full one for the papers whose full reproduction takes a few minutes
(limjang, sobral, kimkoh, park), the quick one for danielkojo (76,815 runs in full) and demo.

Refresh after a change to the simulator or to a paper's grids or derived columns (it runs the
reproductions, reusing the runs stored in their folders, ``DIR/<paper>`` with ``--campaigns
DIR``, else vhsim's default ``out/reproduce/<paper>[-quick]``):

    .venv/bin/python tests/claim_tables.py [--campaigns out/reproduce] [PAPER ...]
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
TABLES = HERE / "data" / "claim_tables"
QUICK = {"danielkojo": True, "demo": True, "limjang": False, "sobral": False, "kimkoh": False, "park": False}


def _plain(value: Any) -> Any:
    """A JSON value for one cell (None for an object that is not data)."""
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple, np.ndarray)):
        items = [_plain(v) for v in value]
        return items if all(not isinstance(v, _Skip) for v in items) else _SKIP
    if value is None or value is pd.NA:
        return None
    return _SKIP


class _Skip:
    pass


_SKIP = _Skip()


def save(table: pd.DataFrame, path: Path, made_by: str) -> int:
    """Write ``table``; returns the number of columns kept."""
    data = {}
    for column in table.columns:
        cells = [_plain(v) for v in table[column].tolist()]
        if any(isinstance(c, _Skip) for c in cells):
            continue
        data[str(column)] = cells
    payload = {"made_by": made_by, "axes": list(table.attrs.get("axes", ())), "columns": data}
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(payload, f, allow_nan=True, separators=(",", ":"))
    return len(data)


def load(path: Path) -> pd.DataFrame:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        payload = json.load(f)
    columns = {}
    for name, cells in payload["columns"].items():
        if any(isinstance(c, list) for c in cells):
            series = pd.Series(cells, dtype=object)
        elif all(c is None or isinstance(c, (int, float)) and not isinstance(c, bool) for c in cells):
            series = pd.Series([math.nan if c is None else c for c in cells])
        else:
            series = pd.Series(cells, dtype=object)  # text as Python strings, as campaign tables hold them
        columns[name] = series
    table = pd.DataFrame(columns)
    table.attrs["axes"] = payload["axes"]
    table.attrs["made_by"] = payload["made_by"]
    return table


def stored() -> dict[str, dict[str, pd.DataFrame]]:
    """``{paper: {figure: table}}`` of every stored table."""
    out: dict[str, dict[str, pd.DataFrame]] = {}
    for path in sorted(TABLES.glob("*/*.json.gz")):
        out.setdefault(path.parent.name, {})[path.name[: -len(".json.gz")]] = load(path)
    return out


def refresh(paper: str, campaigns: Path | None = None) -> None:
    """Run (or reuse) ``paper``'s reproduction and store every figure's derived table."""
    from vhsim import __version__
    from vhsim.campaign import open as open_campaign
    from vhsim.campaign.reproduce import papers, reproduce

    quick = QUICK.get(paper, True)
    out = (campaigns / paper) if campaigns is not None else Path("out") / "reproduce" / (paper + ("-quick" if quick else ""))
    reproduce(paper, quick=quick, out=out, workers=2, progress=False)  # stored runs are reused
    for fig in papers()[paper].figures:
        if not fig.claims:
            continue  # a figure without claims (a variant, a comparison) is not mutated
        camp = open_campaign(out / fig.id / "campaign")
        df = camp.results()
        table = fig.columns(camp, df) if len(df) else df
        made = f"vhsim {__version__}, {'quick' if quick else 'full'} campaign of `vhsim reproduce {paper}`"
        kept = save(table, TABLES / paper / f"{fig.id}.json.gz", made)
        print(f"{paper} {fig.id}: {len(table)} runs, {kept} columns")


if __name__ == "__main__":  # pragma: no cover - the refresh command
    args = sys.argv[1:]
    root = None
    if args[:1] == ["--campaigns"]:
        root, args = Path(args[1]), args[2:]
    for name in args or sorted(QUICK):
        refresh(name, root)
