"""vhsim: packet-level simulation of TCP across vertical handovers.

Quick use::

    import vhsim
    sc = vhsim.load("scenarios/examples/bulk-3g.toml").set("duration", "30s")
    res = sc.run(seed=1, detail="timeseries")
    print(res.flows)                      # one row per flow
    cwnd = res.trace("timeseries")        # pandas DataFrame, categorical flow/state

The simulation itself runs in the Rust core (``vhsim._native``); this package
adds scenario handling, result tables, Parquet storage, plots and the CLI.
"""

from __future__ import annotations

from ._native import ScenarioError, SimulationError
from ._native import version as _native_version
from .result import Result, read_result
from .scenario import Scenario, load, loads

__version__: str = _native_version()


def schemes(protocol: str | None = None) -> list[tuple[str, str]]:
    """Available scheme presets as ``(name, one-line description)`` pairs: TCP's, then SCTP's,
    or only those of ``protocol`` (``"tcp"`` or ``"sctp"``)."""
    from . import _native

    return [(str(name), str(desc)) for name, desc, proto in _native.schemes() if protocol in (None, proto)]


def scheme(name: str, defaults: str = "rfc") -> dict[str, str]:
    """One preset: ``name``, ``description``, ``source`` (paper and section) and ``toml``, its
    resolved composition over the set of defaults ``defaults`` (``"rfc"``, the library's, or
    ``"ns-2.35"``; a scenario's top-level ``defaults`` key): the full ``[tcp]`` and ``[sink]``
    tables a flow with ``scheme = name`` starts from. ScenarioError for an unknown name or
    set."""
    from . import _native
    from .errors import shorten_quoted, shown

    if not isinstance(name, str):
        raise ScenarioError(f"scheme: expected a scheme name, got {shown(name)}")
    try:
        description, source, toml = _native.scheme(name, defaults)
    except ScenarioError as err:
        raise ScenarioError(shorten_quoted(str(err))) from None
    return {"name": name, "description": description, "source": source, "toml": toml}


def json_schema() -> str:
    """JSON Schema (as text) of the scenario TOML format."""
    from . import _native

    return _native.json_schema()


__all__ = [
    "ScenarioError",
    "SimulationError",
    "Scenario",
    "Result",
    "load",
    "loads",
    "read_result",
    "schemes",
    "scheme",
    "json_schema",
    "__version__",
]
