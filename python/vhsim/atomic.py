"""Outputs that are complete or absent: written under a temporary name, renamed when done.

Every file vhsim writes for a user to read later (Parquet tables, ``summary.json``, capture
files, campaign records and tables, exports) goes through :func:`replacing`: the writer gets a
temporary name beside the destination, and the rename (atomic on POSIX) happens only when the
block ends normally.  When it raises -- a full disk, Ctrl-C (``KeyboardInterrupt``), SIGTERM --
the temporary file or folder is removed, so neither a partial output under its final name nor
a stray temporary is left behind.  A process killed outright (SIGKILL) can leave a temporary
(a name starting with ``.`` and ending in ``.tmp``), never a partial output.

A JSON file read back later (campaign records, cached plans) can also be sealed (:func:`seal`): a
checksum of its text as its last entry, which :func:`seal_holds` checks without parsing, so a
file damaged after it was written (a full disk, a crash, an edit) is recognised.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
from pathlib import Path
from typing import Iterator

__all__ = ["replacing", "write_text", "write_small", "remove", "temporary_name", "seal", "seal_holds"]


def temporary_name(path: str | os.PathLike[str]) -> Path:
    """``.<name>.<pid>.tmp`` beside ``path``: hidden, and distinct per writing process."""
    path = Path(path)
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def remove(path: Path) -> None:
    """Remove a file or a folder if it exists (errors ignored: this is cleanup)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary name to write ``path``'s new content to (a file, or a folder the block
    creates); renamed to ``path`` if the block ends normally, removed if it raises."""
    tmp = temporary_name(path)
    remove(tmp)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        remove(tmp)
        raise


def write_text(path: str | os.PathLike[str], text: str, durable: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically; ``durable`` also flushes it to the disk
    before the rename (against a power loss, at the cost of an fsync)."""
    with replacing(path) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())


def write_small(path: str, data: bytes) -> None:
    """Write ``data`` to ``path`` (a string) atomically, without a flush to the disk: the
    campaign's run records, tens of thousands per sweep, where :func:`write_text`'s ``Path``
    handling and its check for a stale temporary folder cost as much as the writing. The
    temporary is a plain file of this process's own name: opening it truncates any stale one."""
    head, name = os.path.split(path)
    tmp = os.path.join(head, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


#: The entry :func:`seal` appends to a JSON object.
SEAL_KEY = "checksum"
_SEAL = re.compile(rb', "' + SEAL_KEY.encode() + rb'": "sha256:([0-9a-f]{64})"\}\s*$')


def seal(json_text: str) -> str:
    """``json_text`` (a JSON object) with a last entry ``"checksum": "sha256:..."``: the sha256 of
    the text before it, closed by ``}``."""
    body = json_text.rstrip()
    digest = hashlib.sha256(body.encode("utf-8")).hexdigest()
    return f'{body[:-1]}, "{SEAL_KEY}": "sha256:{digest}"}}\n'


def seal_holds(data: bytes) -> bool | None:
    """Whether the sealed JSON ``data`` is as it was written; None if it has no seal."""
    match = _SEAL.search(data)
    if match is None:
        return None
    return hashlib.sha256(data[: match.start()] + b"}").hexdigest() == match.group(1).decode()
