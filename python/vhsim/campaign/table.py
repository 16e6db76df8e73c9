"""A result table gathered row by row from the run records, column by column and, while a
column's values are numbers, as numbers rather than Python objects.

The rows of a large campaign held as Python values were the largest form of its table: Daniel &
Kojo's 9,600-run Figure 17 took ~50 MB as lists of Python numbers (a float object is 24 bytes and
its place in the list 8 more) against ~18 MB as arrays of 8-byte numbers, and that peak was the
plotting process's. The table is the one ``pd.DataFrame(rows)`` makes of the same rows -- the
same columns, dtypes and values: a column of ints is int64, of numbers with a None or NaN
float64 (None as NaN), of anything else (text, booleans, only None) what pandas makes of the
Python values.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["Columns"]

_INT, _FLOAT, _NONE, _OBJECT = range(4)


class _Column:
    """One column's values: an int64 array while they are all ints, a float64 array while they are
    numbers (the rows that were None noted, to give them back as None if a column turns to Python
    objects), a count while they are all None, a list of Python values after anything else."""

    __slots__ = ("kind", "data", "nones", "n")

    def __init__(self) -> None:
        self.kind: int | None = None
        self.data: Any = None
        self.nones = array("q")  # rows that were None in a float column
        self.n = 0

    def append(self, value: Any) -> None:
        kind, cls = self.kind, type(value)
        if kind == _FLOAT and (cls is float or cls is int):
            self.data.append(value)
        elif kind == _INT and cls is int and -2**63 <= value < 2**63:
            self.data.append(value)
        elif kind == _OBJECT:
            self.data.append(value)
        elif value is None and kind in (_FLOAT, _INT):
            if kind == _INT:
                self._to(_FLOAT)
            self.nones.append(self.n)
            self.data.append(math.nan)
        elif value is None and kind in (None, _NONE):
            self.kind, self.data = _NONE, (self.data or 0) + 1
        elif cls is float and kind in (None, _INT, _NONE):
            self._to(_FLOAT)
            self.data.append(value)
        elif cls is int and kind is None and -2**63 <= value < 2**63:
            self.kind, self.data = _INT, array("q", [value])
        elif cls is int and kind == _NONE and -2**63 <= value < 2**63:
            self._to(_FLOAT)
            self.data.append(value)
        else:
            self._to(_OBJECT)
            self.data.append(value)
        self.n += 1

    def _to(self, kind: int) -> None:
        """Turn the values so far into ``kind`` (a float array, or Python values)."""
        if kind == _FLOAT:
            if self.kind == _NONE:
                self.nones.extend(range(self.data))
                self.data = array("d", [math.nan]) * self.data
            else:
                self.data = array("d", self.data or ())
        else:
            values = [None] * self.data if self.kind == _NONE else list(self.data or ())
            for row in self.nones:
                values[row] = None
            self.nones = array("q")
            self.data = values
        self.kind = kind

    def series(self, name: str) -> "pd.Series":
        import numpy as np
        import pandas as pd

        if self.kind == _INT:
            return pd.Series(np.array(self.data, dtype=np.int64), name=name)
        if self.kind == _FLOAT:
            return pd.Series(np.array(self.data, dtype=np.float64), name=name)
        return pd.Series([None] * self.data if self.kind == _NONE else self.data, name=name)


class Columns:
    """Rows gathered column by column (a cell a row lacks is NaN, as ``pd.DataFrame(rows)``
    makes it), then :meth:`frame`."""

    def __init__(self) -> None:
        self.data: dict[str, _Column] = {}
        self.n = 0
        # The last row's keys and their columns: rows of one campaign mostly repeat them, and
        # then each value goes straight to its column (a third of the table's cost was lookups).
        self._keys: tuple[str, ...] = ()
        self._columns: list[_Column] = []

    def add(self, row: Mapping[str, Any]) -> None:
        self.add_values(tuple(row), row.values())

    def add_values(self, keys: tuple[str, ...], values: Iterable[Any]) -> None:
        """Add the row of ``values`` under the column names ``keys`` (as many)."""
        if keys is self._keys or keys == self._keys:  # every column of these keys is exactly self.n long
            for column, value in zip(self._columns, values):
                column.append(value)
            self.n += 1
            return
        for key, value in zip(keys, values):
            column = self.data.get(key)
            if column is None:
                column = self.data[key] = _Column()
            self._pad(column, self.n)  # the rows in between lacked it
            column.append(value)
        self.n += 1
        self._keys, self._columns = keys, [self.data[k] for k in keys]

    @staticmethod
    def _pad(column: _Column, n: int) -> None:
        for _ in range(n - column.n):
            column.append(math.nan)

    def frame(self) -> "pd.DataFrame":
        """The table ``pd.DataFrame(rows)`` would make, each column dropped once it is a Series."""
        import pandas as pd

        self._columns = []
        series = {}
        for name in list(self.data):
            column = self.data.pop(name)
            self._pad(column, self.n)
            series[name] = column.series(name)
        return pd.DataFrame(series)
