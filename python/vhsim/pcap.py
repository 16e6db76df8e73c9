"""Packet captures of a run: which link directions, where the files are (docs/pcap.md).

The Rust core writes one pcap file per captured link direction while it runs
(``<out>/<link>-<direction>.pcap``); this module carries the names in from the
command line (``--pcap LINK[,LINK]``), lists what a run wrote, and keeps a
result folder's ``captures.json`` index, so a folder read back later still
knows which file holds which link direction.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from . import atomic

__all__ = ["Capture", "split_links", "from_native", "write_index", "read_index", "INDEX_FILE"]

#: The index of the captures in a result folder.
INDEX_FILE = "captures.json"


@dataclass(frozen=True)
class Capture:
    """One pcap file a run wrote: the link direction, the file and how many packets it holds."""

    link: str
    path: Path
    packets: int


def split_links(values: Iterable[str]) -> list[str]:
    """The link names of repeated ``--pcap A,B --pcap C`` options, in order (``[A, B, C]``).

    Names are only split and trimmed here; the core checks them and names ``--pcap`` in
    its errors.
    """
    return [name.strip() for value in values for name in value.split(",")]


def from_native(raw: Sequence[Mapping[str, Any]]) -> list[Capture]:
    """The captures listed by ``vhsim._native.run``."""
    return [Capture(str(c["link"]), Path(str(c["path"])), int(c["packets"])) for c in raw]


def write_index(directory: str | os.PathLike[str], captures: Sequence[Capture]) -> None:
    """Record the ``captures`` that are files of ``directory`` in its ``captures.json``, and
    remove pcap files of earlier runs.

    As with the Parquet tables of :meth:`vhsim.Result.save`, a folder never mixes captures
    of different runs: ``*.pcap`` files not among ``captures`` are removed, and so is the
    index when none is left.
    """
    out = Path(directory).resolve()
    here = [c for c in captures if c.path.resolve().parent == out]
    mine = {c.path.resolve() for c in here}
    for stale in out.glob("*.pcap"):
        if stale.resolve() not in mine:
            stale.unlink()
    index = out / INDEX_FILE
    if not here:
        index.unlink(missing_ok=True)
        return
    rows = [{"link": c.link, "file": c.path.name, "packets": c.packets} for c in here]
    atomic.write_text(index, json.dumps(rows, indent=2) + "\n")


def read_index(directory: str | os.PathLike[str]) -> list[Capture]:
    """The captures recorded in ``directory/captures.json`` (none if there is no index)."""
    src = Path(directory)
    index = src / INDEX_FILE
    if not index.is_file():
        return []
    rows = json.loads(index.read_text(encoding="utf-8"))
    return [Capture(str(r["link"]), src / str(r["file"]), int(r["packets"])) for r in rows]
