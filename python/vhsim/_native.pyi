"""Type stubs of the Rust extension module ``vhsim._native`` (crates/vhsim-py)."""

from typing import Any

import numpy as np

class ScenarioError(ValueError):
    """Invalid scenario; the message names the key path."""

class SimulationError(RuntimeError):
    """The simulation failed inside the core (a Rust panic becomes this)."""

def version() -> str: ...
def schemes() -> list[tuple[str, str, str]]: ...
def json_schema() -> str: ...
def summary_schema() -> str: ...
def resolve(toml_text: str, overrides: list[tuple[str, str]]) -> str: ...
def run(
    toml_text: str,
    overrides: list[tuple[str, str]],
    seed: int | None,
    detail: str | None,
) -> dict[str, Any]:
    """Returns {"summary": dict, "traces": {table: {column: np.ndarray}}, "codes": {column: [str]}}."""
    ...

def fingerprint(
    toml_text: str, overrides: list[tuple[str, str]], seed: int | None
) -> tuple[str, str, str, int]: ...

_Traces = dict[str, dict[str, np.ndarray]]
