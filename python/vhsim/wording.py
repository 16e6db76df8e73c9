"""Small helpers for the words vhsim prints: counts with the right plural, lists of instants.

>>> counted(1, "RTO"), counted(2, "RTO"), counted(0, "replication"), counted(1_500, "run")
('1 RTO', '2 RTOs', '0 replications', '1,500 runs')
>>> instants([8.42, 9.875]), instants([])
('8.42 and 9.88 s', 'none')
>>> occurrences("RTO", [8.42, 9.875]), occurrences("RTO", [8.42]), occurrences("fast recovery", [], "fast recoveries")
('2 RTOs at 8.42 and 9.88 s', '1 RTO at 8.42 s', 'no fast recovery')
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["counted", "instants", "occurrences"]


def counted(n: int, word: str, plural: str | None = None) -> str:
    """``n`` and ``word``, in the plural (``plural``, default ``word + "s"``) unless ``n`` is 1."""
    return f"{n:,} {word if n == 1 else (plural or word + 's')}"


def instants(times: Iterable[float], digits: int = 2, unit: str = "s", empty: str = "none") -> str:
    """Instants as words: ``8.42 s``, ``8.42 and 9.88 s``, ``8.42, 8.93 and 10.34 s``; ``empty``
    when there are none (never "at none s")."""
    shown = [f"{t:.{digits}f}" for t in times]
    if not shown:
        return empty
    text = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return f"{text} {unit}".rstrip()


def occurrences(word: str, times: Iterable[float], plural: str | None = None, digits: int = 2) -> str:
    """How many ``word`` events and when: ``2 RTOs at 8.42 and 9.88 s``, ``1 RTO at 8.42 s``,
    ``no RTO``."""
    times = list(times)
    if not times:
        return f"no {word}"
    return f"{counted(len(times), word, plural)} at {instants(times, digits)}"
