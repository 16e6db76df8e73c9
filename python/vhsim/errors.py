"""The errors the Python API raises: :class:`ScenarioError` for bad input, :class:`SimulationError`
for a failed run, and nothing else.

A path that cannot be read or written is bad input too. It raises :class:`PathError`, a
``ScenarioError`` that is also an ``OSError`` (and :class:`MissingPathError` also a
``FileNotFoundError``), so code catching either keeps working; the message names the argument
or key and the path.
"""

from __future__ import annotations

import os
import re
from typing import Any

from ._native import ScenarioError, SimulationError

__all__ = ["ScenarioError", "SimulationError", "PathError", "MissingPathError", "path_error", "shown", "shorten_quoted"]


#: Longest path a message repeats (characters): paths are worth more of a line than values.
PATH_LIMIT = 200


class PathError(ScenarioError, OSError):
    """A path that cannot be used: the message names the key and the path."""


class MissingPathError(PathError, FileNotFoundError):
    """A file or folder that does not exist."""


def path_error(err: OSError, key: str, path: Any = None) -> PathError:
    """``err`` as a :class:`PathError` whose message names ``key`` and the path, in one line
    (``pcap_dir: out/x: Permission denied``)."""
    target = path if path is not None else err.filename
    where = os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike)) else str(target or "")
    reason = err.strerror or str(err) or type(err).__name__
    cls = MissingPathError if isinstance(err, FileNotFoundError) else PathError
    return cls(f"{key}: {shown(where, PATH_LIMIT, quote=False)}: {reason}" if where else f"{key}: {reason}")


def shown(value: Any, limit: int = 60, quote: bool = True) -> str:
    """``value`` for an error message, cut to ``limit`` characters (``'abc... (5000
    characters)'``): a message never repeats a pasted megabyte. ``quote``: as ``repr``."""
    text = repr(value) if quote else str(value)
    return text if len(text) <= limit else f"{text[: max(8, limit - 20)]}... ({len(text)} characters)"


#: A quoted span of a message: '...', "..." or `...` (no line breaks).
_QUOTED = re.compile(r"""'[^'\n]*'|"(?:[^"\\\n]|\\.)*"|`[^`\n]*`""")


def shorten_quoted(message: str, limit: int = 60) -> str:
    """``message`` with every quoted value longer than ``limit`` characters cut as
    :func:`shown` cuts one (what the core does to its own messages, for messages made here)."""
    def cut(m: re.Match) -> str:
        span = m.group(0)
        inner = span[1:-1]
        return span if len(inner) <= limit else f"{span[0]}{shown(inner, limit, quote=False)}{span[0]}"

    return _QUOTED.sub(cut, message)
