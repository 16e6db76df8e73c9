"""Axis values of a campaign: parsing ``-p KEY=V1,V2,...``, ``range(...)`` and TOML lists.

An axis is a scenario key plus an ordered list of values.  Each value has two spellings:

* ``label`` -- how it is shown in the result table and on plots (``"2Mbps"``, ``"0.01"``,
  ``'{kind="bernoulli", p=0.01}'``);
* ``override`` -- the text handed to :meth:`vhsim.Scenario.set`, which parses it as a TOML
  value when it is one and takes it as a plain string otherwise (the ``--set`` rules).

For values typed on the command line both are the same text.  Values from a campaign TOML
file arrive as Python objects and are turned back into exact TOML (strings quoted), so a
string such as ``"true"`` stays a string.

``range(start, stop, step)`` expands like Python's ``range``: ``start`` included, ``stop``
excluded.  The three bounds may carry units of one kind (``range(1s, 20s, 100ms)``); the
generated values keep the unit of ``start`` and are computed in exact decimal arithmetic,
so ``1.1s`` never becomes ``1.1000000000000001s``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable

from ..errors import shown

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = [
    "AxisValue",
    "Axis",
    "CampaignError",
    "split_top_level",
    "parse_cli_axis",
    "axis_from_toml",
    "expand_range",
    "toml_literal",
    "quantity",
]


class CampaignError(ValueError):
    """Invalid campaign input (axis, range, campaign file or folder); the message names it."""


@dataclass(frozen=True)
class AxisValue:
    """One value of an axis: what is shown (``label``) and what is set (``override``).

    ``override=None`` sets nothing: in a zipped grid, an axis that changes some configurations
    and leaves the others as they are (a reproduction's alternative reading of a parameter that
    only some of a figure's schemes have, :mod:`vhsim.campaign.variants`)."""

    label: str
    override: str | None


@dataclass(frozen=True)
class Axis:
    """A scenario key and the values it takes, in sweep order."""

    key: str
    values: tuple[AxisValue, ...]

    @property
    def labels(self) -> list[str]:
        return [v.label for v in self.values]

    def to_json(self) -> dict:
        return {"key": self.key, "values": [[v.label, v.override] for v in self.values]}

    @classmethod
    def from_json(cls, data: dict) -> "Axis":
        # One object per distinct value: a zipped axis repeats a few values thousands of times,
        # and a reproduction keeps every figure's campaign open (Daniel & Kojo: ~10 MB each).
        shared: dict[tuple[str, str | None], AxisValue] = {}
        values = ((str(a), None if b is None else str(b)) for a, b in data["values"])
        return cls(str(data["key"]), tuple(shared.get(v) or shared.setdefault(v, AxisValue(*v)) for v in values))


# Units the scenario format knows, as multipliers of one base unit per kind.  Only needed
# to step a range whose bounds use different units of one kind (1s .. 20s by 100ms).
_UNITS: dict[str, tuple[str, Decimal]] = {
    "ns": ("duration", Decimal(1)),
    "us": ("duration", Decimal(10) ** 3),
    "ms": ("duration", Decimal(10) ** 6),
    "s": ("duration", Decimal(10) ** 9),
    "min": ("duration", Decimal(60) * Decimal(10) ** 9),
    "bps": ("rate", Decimal(1)),
    "kbps": ("rate", Decimal(10) ** 3),
    "Mbps": ("rate", Decimal(10) ** 6),
    "Gbps": ("rate", Decimal(10) ** 9),
    "b/s": ("rate", Decimal(1)),
    "kb/s": ("rate", Decimal(10) ** 3),
    "Mb/s": ("rate", Decimal(10) ** 6),
    "Gb/s": ("rate", Decimal(10) ** 9),
    "B": ("size", Decimal(1)),
    "kB": ("size", Decimal(10) ** 3),
    "KiB": ("size", Decimal(1024)),
    "MB": ("size", Decimal(10) ** 6),
    "MiB": ("size", Decimal(1024) ** 2),
    "pkt": ("packets", Decimal(1)),
    "km/h": ("speed", Decimal(10) ** 6),  # speeds in mm/h, as the core counts them
    "m/s": ("speed", Decimal(3_600_000)),
    "m": ("length", Decimal(1000)),  # lengths in mm
    "km": ("length", Decimal(10) ** 6),
    "%": ("percent", Decimal(1)),
    "": ("number", Decimal(1)),
}

_QUANTITY = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z/%]*)\s*$")
_RANGE = re.compile(r"^\s*range\s*\((.*)\)\s*$", re.DOTALL)

# Refuse ranges that would silently create an enormous campaign from a typo in the step.
MAX_RANGE_POINTS = 1_000_000
# Largest decimal exponent of a range bound (1e30 s is already 10^13 ages of the universe); a
# bound such as 1e9999999 would otherwise overflow the decimal arithmetic (issue #27).
MAX_EXPONENT = 30


def _parse_quantity(text: str, where: str) -> tuple[Decimal, str]:
    match = _QUANTITY.match(text)
    if not match:
        raise CampaignError(f"{where}: {shown(text.strip())} is not a number with an optional unit "
                            "(e.g. 100ms, 2Mbps, 0.01)")
    number, unit = match.groups()
    if unit not in _UNITS:
        known = ", ".join(u for u in _UNITS if u)
        raise CampaignError(f"{where}: unknown unit {shown(unit)} in {shown(text.strip())} (units: {known})")
    try:
        value = Decimal(number)
    except InvalidOperation:  # pragma: no cover - the regex only lets valid numbers through
        raise CampaignError(f"{where}: {shown(text.strip())} is not a number") from None
    if value and not -MAX_EXPONENT <= value.adjusted() <= MAX_EXPONENT:
        raise CampaignError(f"{where}: {shown(text.strip())} is out of range (a range bound is at most "
                            f"1e{MAX_EXPONENT} and at least 1e-{MAX_EXPONENT} in size)")
    return value, unit


def quantity(text: str) -> float | None:
    """The numeric value of ``text`` in its kind's base unit (s, bit/s, bytes, packets), or None.

    Used to order and place axis values on a plot's x axis: ``"100ms"`` -> 0.1,
    ``"2Mbps"`` -> 2e6, ``"0.01"`` -> 0.01, ``"20pkt"`` -> 20.0, ``"36km/h"`` -> 10.0 (m/s),
    ``"1km"`` -> 1000.0 (m), ``"sack"`` -> None.
    """
    match = _QUANTITY.match(str(text))
    if not match or match.group(2) not in _UNITS:
        return None
    number, unit = match.groups()
    kind, factor = _UNITS[unit]
    to_base = {"duration": Decimal(10) ** 9, "speed": Decimal(3_600_000), "length": Decimal(1000)}
    try:
        return float(Decimal(number) * factor / to_base.get(kind, Decimal(1)))
    except ArithmeticError:  # an absurd magnitude: not placeable
        return None


def _format_decimal(value: Decimal) -> str:
    """Plain positional notation without trailing zeros: 1.100 -> '1.1', 2E+1 -> '20'."""
    text = format(value.normalize(), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def expand_range(text: str, where: str) -> list[str]:
    """Expand ``range(start, stop[, step])`` into value strings (stop excluded).

    ``where`` names the axis in error messages.  Step defaults to 1 in the unit of start.
    """
    match = _RANGE.match(text)
    if not match:
        raise CampaignError(f"{where}: {shown(text)} is not of the form range(start, stop, step)")
    parts = [p.strip() for p in match.group(1).split(",")]
    if len(parts) not in (2, 3) or any(not p for p in parts):
        raise CampaignError(f"{where}: {shown(text.strip())} needs 2 or 3 arguments: range(start, stop[, step])")
    (start, unit), (stop, stop_unit) = (_parse_quantity(p, where) for p in parts[:2])
    step, step_unit = _parse_quantity(parts[2], where) if len(parts) == 3 else (Decimal(1), unit)
    kind = _UNITS[unit][0]
    for other in (stop_unit, step_unit):
        if _UNITS[other][0] != kind:
            raise CampaignError(
                f"{where}: {shown(text.strip())} mixes units of different kinds ({unit or 'no unit'} and {other or 'no unit'})"
            )
    # Work in the unit of `start`, so the generated strings keep the unit the user wrote.
    scale = _UNITS[unit][1]
    stop_v = stop * _UNITS[stop_unit][1] / scale
    step_v = step * _UNITS[step_unit][1] / scale
    if step_v <= 0:
        raise CampaignError(f"{where}: {shown(text.strip())} has a step of {parts[2] if len(parts) == 3 else 1}; the step must be > 0")
    count = math.ceil((stop_v - start) / step_v)
    if count <= 0:
        raise CampaignError(f"{where}: {shown(text.strip())} is empty (stop must be greater than start; stop is excluded)")
    if count > MAX_RANGE_POINTS:
        raise CampaignError(f"{where}: {shown(text.strip())} has {count} values (more than {MAX_RANGE_POINTS}); check the step")
    return [f"{_format_decimal(start + i * step_v)}{unit}" for i in range(count)]


def split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside (), [], {} or quotes.

    ``'reno,sack'`` -> 2 items; ``'{kind="bernoulli", p=0.01},{kind="none"}'`` -> 2 items;
    ``'range(1s,20s,100ms)'`` -> 1 item.
    """
    items, depth, quote, current = [], 0, "", []
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    items.append("".join(current).strip())
    return items


def _name(key: str) -> str:
    """An axis key in a message, cut to a readable length."""
    return shown(key, 80, quote=False)


def _check_count(key: str, values: list[AxisValue]) -> None:
    if len(values) > MAX_RANGE_POINTS:
        raise CampaignError(f"axis {_name(key)}: more than {MAX_RANGE_POINTS:,} values; check the ranges")


def _check_distinct(key: str, values: list[AxisValue]) -> tuple[AxisValue, ...]:
    if not values:
        raise CampaignError(f"axis {_name(key)}: no values")
    seen: set[str] = set()
    for v in values:
        if v.label in seen:
            raise CampaignError(f"axis {_name(key)}: value {shown(v.label)} appears twice")
        seen.add(v.label)
    return tuple(values)


def _check_key(key: str, where: str) -> str:
    key = key.strip()
    if not key:
        raise CampaignError(f"{where}: empty axis key (expected KEY=V1,V2,..., e.g. flows.bulk.scheme=reno,sack)")
    return key


def parse_cli_axis(text: str) -> Axis:
    """Parse one ``-p KEY=V1,V2,...`` option (items may be ``range(...)``)."""
    key, sep, rest = text.partition("=")
    if not sep:
        raise CampaignError(f"-p {shown(text)}: expected KEY=V1,V2,... (e.g. -p flows.bulk.scheme=reno,sack)")
    key = _check_key(key, f"-p {shown(text)}")
    values: list[AxisValue] = []
    for item in split_top_level(rest):
        if not item:
            raise CampaignError(f"axis {_name(key)}: empty value in {shown(rest)}")
        if _RANGE.match(item):
            values.extend(AxisValue(v, v) for v in expand_range(item, f"axis {_name(key)}"))
        else:
            values.append(AxisValue(item, item))
        _check_count(key, values)
    return Axis(key, _check_distinct(key, values))


def toml_literal(value: Any) -> str:
    """Exact TOML spelling of a value read from a TOML file (strings quoted)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {toml_literal(v)}" for k, v in value.items())
        return "{" + inner + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_literal(v) for v in value) + "]"
    raise CampaignError(f"cannot use a {type(value).__name__} value ({shown(value)}) in a scenario override")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else toml_literal(key)


def _label(value: Any) -> str:
    """Short display text: strings bare, everything else as TOML."""
    return value if isinstance(value, str) else toml_literal(value)


def axis_from_toml(key: str, raw: Any) -> Axis:
    """Build an axis from a campaign file entry: a list of values or a ``"range(...)"`` string."""
    key = _check_key(key, "campaign file [axes]")
    items: Iterable[Any] = raw if isinstance(raw, list) else [raw]
    values: list[AxisValue] = []
    for item in items:
        if isinstance(item, str) and _RANGE.match(item):
            # Range values are unit strings such as "1.1s": plain strings in TOML too.
            values.extend(AxisValue(v, v) for v in expand_range(item, f"axis {_name(key)}"))
        else:
            values.append(AxisValue(_label(item), toml_literal(item)))
        _check_count(key, values)
    return Axis(key, _check_distinct(key, values))


def column_values(axis: Axis) -> list[Any]:
    """Values for the axis column of the result table.

    Numbers when every label is a bare TOML number (so DuckDB and pandas compare them as
    numbers), the label strings otherwise.
    """
    numbers = []
    for label in axis.labels:
        try:
            parsed = tomllib.loads(f"v = {label}")["v"]
        except tomllib.TOMLDecodeError:
            return axis.labels
        if isinstance(parsed, bool) or not isinstance(parsed, (int, float)):
            return axis.labels
        numbers.append(parsed)
    if all(isinstance(n, int) for n in numbers):
        return numbers
    return [float(n) for n in numbers]
