"""Scenarios: a TOML text plus an ordered list of dotted-key overrides.

A :class:`Scenario` never changes after it is made; :meth:`Scenario.set` and
:meth:`Scenario.with_` return a new one with the override appended.  The Rust
core does all parsing and validation (``vhsim._native.resolve``), so the rules
live in one place and Python only carries text around.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from . import _native
from ._native import ScenarioError

if TYPE_CHECKING:  # pragma: no cover
    from .result import Result

__all__ = ["Scenario", "load", "loads", "format_value"]


def format_value(value: Any) -> str:
    """Turn a Python value into the string form an override expects.

    Booleans become ``"true"``/``"false"`` (TOML spelling), strings pass
    through unchanged, everything else goes through ``str()``.
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return str(value)


def _with_origin(err: ScenarioError, origin: str | None) -> ScenarioError:
    """Return a ScenarioError whose message starts with ``origin`` (a file path)."""
    if origin is None:
        return err
    msg = str(err)
    if msg.startswith(f"{origin}:"):
        return err
    new = ScenarioError(f"{origin}: {msg}")
    new.__cause__ = err
    return new


class Scenario:
    """A scenario ready to validate or run.

    Build one with :func:`load` or :func:`loads`.  Overrides use dotted keys
    of the TOML file, e.g. ``("links.access.rate", "2Mbps")``.

    >>> sc = vhsim.load("scenarios/examples/bulk-3g.toml")      # doctest: +SKIP
    >>> sc.set("flows.bulk.scheme", "newreno").run(seed=2)        # doctest: +SKIP
    """

    __slots__ = ("_text", "_overrides", "_path")

    def __init__(
        self,
        text: str,
        overrides: Iterable[tuple[str, str]] = (),
        path: str | os.PathLike[str] | None = None,
    ) -> None:
        self._text = str(text)
        self._overrides = tuple((str(k), str(v)) for k, v in overrides)
        self._path = None if path is None else os.fspath(path)

    # -- read-only views -------------------------------------------------
    @property
    def text(self) -> str:
        """The TOML text the scenario was made from (without overrides)."""
        return self._text

    @property
    def overrides(self) -> tuple[tuple[str, str], ...]:
        """The overrides applied on top of :attr:`text`, in order."""
        return self._overrides

    @property
    def path(self) -> str | None:
        """The file the scenario was loaded from, if any."""
        return self._path

    @property
    def name(self) -> str:
        """The scenario's ``name`` after overrides."""
        return str(self.resolved().get("name", ""))

    # -- deriving new scenarios ------------------------------------------
    def set(self, key: str, value: Any) -> "Scenario":
        """Return a copy with ``key = value`` appended to the overrides."""
        if not isinstance(key, str) or not key:
            raise TypeError("override key must be a non-empty string such as 'links.access.rate'")
        return Scenario(self._text, self._overrides + ((key, format_value(value)),), self._path)

    def with_(self, mapping: Mapping[str, Any] | None = None, /, **kw: Any) -> "Scenario":
        """Return a copy with several overrides appended.

        Keyword names use ``__`` in place of dots, because dots are not
        allowed in Python names; a mapping may use dotted keys directly::

            sc.with_(links__access__rate="2Mbps", duration="30s")
            sc.with_({"flows.bulk.scheme": "newreno"})
        """
        new = self
        for key, value in (mapping or {}).items():
            new = new.set(key, value)
        for key, value in kw.items():
            new = new.set(key.replace("__", "."), value)
        return new

    # -- using it ----------------------------------------------------------
    def resolved_json(self) -> str:
        """Canonical JSON of the fully resolved scenario (raises ScenarioError)."""
        try:
            return _native.resolve(self._text, list(self._overrides))
        except ScenarioError as err:
            raise _with_origin(err, self._path) from None

    def resolved(self) -> dict:
        """The fully resolved scenario as a dict (raises ScenarioError)."""
        return json.loads(self.resolved_json())

    def validate(self) -> "Scenario":
        """Check the scenario with its overrides; return ``self`` if valid."""
        self.resolved_json()
        return self

    def run(
        self,
        seed: int | None = None,
        detail: str | None = None,
        pcap_dir: str | os.PathLike[str] | None = None,
        pcap: Iterable[str] = (),
        pcap_key: str = "pcap",
    ) -> "Result":
        """Run one simulation and return its :class:`vhsim.Result`.

        ``seed`` replaces the scenario's seed; ``detail`` is one of
        ``"summary"``, ``"timeseries"``, ``"packets"`` (``None`` keeps the
        scenario's ``output.detail``).  With ``pcap_dir``, packet captures are
        written there: those of the scenario's ``output.pcap`` plus the link
        directions named in ``pcap`` (docs/pcap.md; errors about them name
        ``pcap_key``); without it, none.
        """
        from .result import Result

        if seed is not None:
            seed = int(seed)
            if seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed}")
        if detail is not None and detail not in DETAILS:
            raise ValueError(f"detail must be one of {', '.join(DETAILS)}, got {detail!r}")
        try:
            raw = _native.run(
                self._text,
                list(self._overrides),
                seed,
                detail,
                None if pcap_dir is None else os.fspath(pcap_dir),
                [str(p) for p in pcap],
                pcap_key,
            )
        except ScenarioError as err:
            if str(err).startswith(f"{pcap_key}:"):
                raise  # about the `pcap` argument, not the file
            raise _with_origin(err, self._path) from None
        return Result.from_native(raw)

    # -- dunder ------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scenario):
            return NotImplemented
        return (self._text, self._overrides) == (other._text, other._overrides)

    def __hash__(self) -> int:
        return hash((self._text, self._overrides))

    def __repr__(self) -> str:
        origin = repr(self._path) if self._path else "<string>"
        if self._overrides:
            ov = ", ".join(f"{k}={v}" for k, v in self._overrides)
            return f"Scenario({origin}, overrides=[{ov}])"
        return f"Scenario({origin})"


DETAILS = ("summary", "timeseries", "packets")


def loads(text: str, overrides: Iterable[tuple[str, str]] = ()) -> Scenario:
    """Make a :class:`Scenario` from TOML text and validate it at once."""
    return Scenario(text, overrides).validate()


def load(path: str | os.PathLike[str], overrides: Iterable[tuple[str, str]] = ()) -> Scenario:
    """Read a scenario TOML file and validate it at once.

    Errors in the file raise :class:`vhsim.ScenarioError` with the path
    prefixed; a missing file raises :class:`FileNotFoundError`.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(f"scenario file not found: {os.fspath(path)}") from None
    except IsADirectoryError:
        raise IsADirectoryError(f"scenario path is a directory, not a file: {os.fspath(path)}") from None
    return Scenario(text, overrides, os.fspath(path)).validate()
