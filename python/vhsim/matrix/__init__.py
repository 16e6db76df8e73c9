"""The scheme x scenario matrix (``vhsim matrix``; docs/matrix.md): every sender preset on one
representative handover of each paper, set against the paper's baseline scheme, with paired
95% confidence intervals, as a table, a report and heat maps.

>>> from vhsim import matrix                                              # doctest: +SKIP
>>> spec = matrix.load_matrix(schemes=["sack", "linux"], scenarios=["limjang"], seeds=5)
>>> outcome = matrix.run_matrix(spec, "out/matrix-small", workers=2)
>>> [(c.scheme, c.metric, c.verdict) for c in outcome.cells]
"""

from __future__ import annotations

from .compare import Cell, compare
from .run import EntryOutcome, MatrixOutcome, run_matrix
from .spec import DEFAULT_FILE, METRICS, Entry, MatrixSpec, Metric, load_matrix, schemes_of

__all__ = ["Cell", "DEFAULT_FILE", "METRICS", "Entry", "EntryOutcome", "MatrixOutcome", "MatrixSpec", "Metric",
           "compare", "load_matrix", "run_matrix", "schemes_of"]
