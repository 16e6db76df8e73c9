"""Type stubs of the Rust extension module ``vhsim._native`` (crates/vhsim-py)."""

from typing import Any

import numpy as np

class ScenarioError(ValueError):
    """Invalid scenario; the message names the key path."""

class SimulationError(RuntimeError):
    """The simulation failed inside the core (a Rust panic becomes this)."""

def version() -> str: ...
def schemes() -> list[tuple[str, str, str]]: ...
def scheme(name: str, defaults: str = "rfc") -> tuple[str, str, str]:
    """(description, source, resolved composition as TOML) of a TCP preset over a set of
    defaults ("rfc" or "ns-2.35")."""
    ...
def json_schema() -> str: ...
def summary_schema() -> str: ...
def resolve(toml_text: str, overrides: list[tuple[str, str]]) -> str: ...
def duration_ns(text: str) -> int:
    """Nanoseconds of a duration such as "295s"; ScenarioError if it is not one."""
    ...

class RunControl:
    """Stop flag and progress counters shared with a running simulation."""

    def __init__(self) -> None: ...
    def stop(self) -> None:
        """Ask the run to stop; it then raises KeyboardInterrupt."""
    def progress(self) -> tuple[int, int, int]:
        """(simulated ns reached, simulated ns at the end, events so far)."""
        ...

def run(
    toml_text: str,
    overrides: list[tuple[str, str]] = ...,
    seed: int | None = None,
    detail: str | None = None,
    trace_window: str | None = None,
    trace_flows: list[str] = ...,
    trace_links: list[str] = ...,
    trace_events: list[str] = ...,
    control: RunControl | None = None,
    pcap_dir: str | None = None,
    pcap: list[str] = ...,
    pcap_key: str = "--pcap",
) -> dict[str, Any]:
    """Returns {"summary": dict, "traces": {table: {column: np.ndarray}}, "codes": {column: [str]},
    "captures": [{"link": str, "path": str, "packets": int}]}; pcap files are written into
    pcap_dir (the scenario's output.pcap plus `pcap`), none without it."""
    ...

def fingerprint(
    toml_text: str, overrides: list[tuple[str, str]], seed: int | None
) -> tuple[str, str, str, int]: ...

def run_branches(
    toml_text: str, variants: list[list[tuple[str, str]]], seed: int | None = None, detail: str | None = None
) -> list[dict[str, Any]]:
    """One dict per variant, as run() returns; ValueError if they are not branchable."""
    ...

_Traces = dict[str, dict[str, np.ndarray]]
