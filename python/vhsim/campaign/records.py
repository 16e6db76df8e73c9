"""The run records of one vhsim version of a campaign: one sealed line per finished run, appended
to ``DIR/runs/<version>/records.jsonl``.

Two kinds of lines, each a JSON object ending in ``"checksum": "sha256:..."`` over its own text
(:func:`vhsim.atomic.seal`)::

    {"columns": "<key>", "names": ["sim_s", "events", ...], "checksum": ...}    once per set of names
    {"run_id": ..., "vhsim_version": ..., "seed": ..., "rep": ..., "config": {...}, "detail": ...,
     "columns": "<key>", "values": [...], "wall_s": ..., "finished_at": ..., "checksum": ...}

A run's metrics are the values of its line under the names of the column set it names: the
~180 metric names of a run (most of a record's size) are written once per campaign, not once
per run. Daniel & Kojo's 73,215 runs took ~1 GB as one 9 KB JSON file per run (each a 4 KB
block or three on the disk); as lines they take ~0.1 GB (docs/performance.md).

Why it is safe: a run is done exactly when its complete line is in the file. A line is written
by one ``write`` at the end of the file by the sweep holding the folder's lock, so a killed
writer leaves at most a last line without its newline: readers ignore it and the next writer
cuts it off before it appends (the run is done again, as a stray temporary record file was).
A line damaged later -- a flipped byte, an edit by hand, a line cut short -- fails its checksum
and is found by :meth:`RecordLog.scan`; the sweep moves it to ``DIR/corrupt/`` and runs it
again. One damaged line costs its own run (a damaged column set the runs that use it), never
the file's other runs.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import atomic

__all__ = ["LOG_NAME", "RecordLog", "LogScan", "BadLine"]

LOG_NAME = "records.jsonl"
_RUN_HEAD = b'{"run_id": "'
_COLUMNS_HEAD = b'{"columns": "'


@dataclass(frozen=True)
class BadLine:
    """A damaged line: its byte offset and number in the file, the run it names if any, what is wrong."""

    offset: int
    number: int
    run_id: str | None
    problem: str


@dataclass
class LogScan:
    """What a log holds: where each run's line is in ``data`` (the last one, if a run was written
    twice), the column sets by key, and the damaged lines. The lines stay in the file's bytes,
    one copy (a 9,600-run log is 17 MB; three copies of it were the peak of reading it)."""

    data: bytes = b""
    runs: dict[str, tuple[int, int]] = field(default_factory=dict)
    columns: dict[str, list[str]] = field(default_factory=dict)
    damaged: list[BadLine] = field(default_factory=list)

    def line(self, run_id: str) -> bytes:
        start, end = self.runs[run_id]
        return self.data[start:end]

    def record(self, run_id: str) -> dict[str, Any]:
        """The record of ``run_id`` as a run record file held it (``metrics`` a dict)."""
        entry = json.loads(self.line(run_id))
        out = {}
        for key, value in entry.items():  # the metrics where the column set's key is
            if key == "columns":
                out["metrics"] = dict(zip(self.columns[value], entry["values"]))
            elif key not in ("values", atomic.SEAL_KEY):
                out[key] = value
        return out


def _run_id_of(line: bytes) -> str | None:
    if line.startswith(_RUN_HEAD):
        end = line.find(b'"', len(_RUN_HEAD))
        if end > 0:
            return line[len(_RUN_HEAD):end].decode("ascii", "replace")
    return None


def _key(names: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(names).encode("utf-8")).hexdigest()[:16]


class RecordLog:
    """The record log of one version folder (``DIR/runs/<version>/``)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = os.fspath(directory)
        self.path = os.path.join(self.directory, LOG_NAME)
        self._keys: dict[tuple[str, ...], str] = {}  # names -> their key, in this process
        self._written: set[str] | None = None  # column-set keys in the file (known once appending)

    def exists(self) -> bool:
        return os.path.isfile(self.path)

    def _read(self) -> bytes:
        try:
            with open(self.path, "rb") as fh:
                return fh.read()
        except FileNotFoundError:
            return b""

    def _complete(self) -> bytes:
        """The file's complete lines (a last one without its newline is a write under way or cut off)."""
        data = self._read()
        return data[: data.rfind(b"\n") + 1]

    @staticmethod
    def _lines(data: bytes) -> Iterator[tuple[int, int]]:
        """``(start, end)`` of each complete line of ``data``, its newline included."""
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            yield start, end + 1
            start = end + 1

    def ids(self) -> set[str]:
        """Run ids of the complete lines, unchecked (:meth:`scan` checks them)."""
        data = self._read()
        ids = set()
        for start, _ in self._lines(data):
            run_id = _run_id_of(data[start:start + 100])
            if run_id is not None:
                ids.add(run_id)
        return ids

    def scan(self, want: Iterable[str] | None = None) -> LogScan:
        """Every complete line checked; ``want``: keep the lines of these runs only (all if None)."""
        wanted = None if want is None else set(want)
        out = LogScan(self._read())
        referenced: list[tuple[int, int, str, str]] = []  # (offset, number, run id, key) of each run line
        for number, (here, end) in enumerate(self._lines(out.data), 1):
            line = out.data[here:end]
            run_id = _run_id_of(line)
            problem = _problem(line)
            if problem is not None:
                out.damaged.append(BadLine(here, number, run_id, problem))
            elif line.startswith(_COLUMNS_HEAD):
                head = json.loads(line)
                out.columns[head["columns"]] = head["names"]
            elif run_id is None:
                out.damaged.append(BadLine(here, number, None, "neither a run record nor a column set"))
            else:
                before_values = line[: line.rfind(b', "values": [')]
                key = before_values[before_values.rfind(b'"columns": "') + 12:].split(b'"', 1)[0].decode("ascii", "replace")
                referenced.append((here, number, run_id, key))
                if wanted is None or run_id in wanted:
                    out.runs[run_id] = (here, end)
        for here, number, run_id, key in referenced:
            if key not in out.columns:  # its column set is damaged or missing: the run cannot be read
                out.damaged.append(BadLine(here, number, run_id, f"its column names (set {key}) are missing or damaged"))
                out.runs.pop(run_id, None)
        out.damaged.sort(key=lambda bad: bad.offset)
        return out

    # -- writing (only by the holder of the folder's lock) --------------------------------------
    def append(self, head: str, names: Sequence[str], values_json: str, tail: str) -> None:
        """Add one run's line: ``head`` and ``tail`` JSON objects (its fields before and after its
        metrics), ``values_json`` the JSON list of its metrics' values, in the order of ``names``."""
        names = tuple(names)
        key = self._keys.get(names)
        if key is None:
            key = self._keys[names] = _key(names)
        lines = []
        if key not in self._written_keys():
            lines.append(atomic.seal(json.dumps({"columns": key, "names": list(names)})))
        lines.append(atomic.seal(f'{head[:-1]}, "columns": "{key}", "values": {values_json}, {tail[1:]}'))
        self._write("".join(lines).encode("utf-8"))
        self._written_keys().add(key)

    def copy_lines(self, source: "RecordLog", run_ids: Iterable[str]) -> None:
        """Add the lines of ``run_ids`` from ``source`` (runs two campaigns share), with their column sets."""
        scan = source.scan(run_ids)
        lines = []
        for run_id in scan.runs:
            line = scan.line(run_id)
            key = json.loads(line)["columns"]
            if key not in self._written_keys():
                lines.append(atomic.seal(json.dumps({"columns": key, "names": scan.columns[key]})).encode("utf-8"))
                self._written_keys().add(key)
            lines.append(line)
        if lines:
            self._write(b"".join(lines))

    def _written_keys(self) -> set[str]:
        if self._written is None:
            self._cut_unfinished_line()
            data = self._read()
            lines = (data[start:end] for start, end in self._lines(data))
            self._written = {json.loads(line)["columns"] for line in lines
                             if line.startswith(_COLUMNS_HEAD) and _problem(line) is None}
        return self._written

    def _cut_unfinished_line(self) -> None:
        """Cut off a last line without its newline (a writer killed mid-write) before appending."""
        try:
            size = os.path.getsize(self.path)
        except FileNotFoundError:
            return
        complete = len(self._complete())
        if complete < size:
            os.truncate(self.path, complete)

    def _write(self, data: bytes) -> None:
        os.makedirs(self.directory, exist_ok=True)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            written = os.write(fd, data)
            if written != len(data):  # a full disk: the line is cut short, the next writer cuts it off
                raise OSError(f"{self.path}: only {written} of {len(data)} bytes written (disk full?)")
        finally:
            os.close(fd)

    def remove(self, bad: Sequence[BadLine], corrupt_dir: str | os.PathLike[str]) -> None:
        """Move the lines ``bad`` to ``corrupt_dir/records.jsonl`` (kept to look at) and rewrite the
        log without them (atomically: a killed rewrite leaves the old log)."""
        if not bad:
            return
        data = self._read()
        drop = {b.offset for b in bad}
        kept, removed = [], []
        for start, end in self._lines(data):  # the lines as scan() numbered them (a stray \r splits none)
            (removed if start in drop else kept).append(data[start:end])
        os.makedirs(corrupt_dir, exist_ok=True)
        with open(os.path.join(corrupt_dir, LOG_NAME), "ab") as fh:
            fh.write(b"".join(removed))
        with atomic.replacing(self.path) as tmp:
            with open(tmp, "wb") as fh:
                fh.write(b"".join(kept))
                fh.flush()
                os.fsync(fh.fileno())
        self._written = None


def _problem(line: bytes) -> str | None:
    """What is wrong with one line of a log, or None."""
    if not line.strip():
        return "an empty line"
    sealed = atomic.seal_holds(line)
    if sealed is None:
        return f"cut short or not a record ({len(line)} bytes, no checksum at its end)"
    if not sealed:
        return "its checksum does not match its content (changed after it was written)"
    return None
