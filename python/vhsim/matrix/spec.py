"""The matrix as data: which scenarios, which schemes, which metrics (docs/matrix.md).

The data file (:data:`DEFAULT_FILE`, ``matrix.toml`` beside this module) lists one entry per
paper: its representative handover scenario, the flow and handover the metrics read, the
paper's baseline scheme, the replications (paired seeds), optionally a grid of handover
instants (for a scenario with no randomness of its own, every seed gives the same run; the
instants give the spread, as Daniel & Kojo's handoff points do), fixed overrides, and a
robustness variant (overrides of a plausible alternative reading, run with ``--robust``).

Each entry becomes one ordinary campaign (:class:`vhsim.campaign.CampaignSpec`): the axis
``flows.<flow>.scheme`` over the selected schemes of the flow's protocol, the baseline always
among them, and the instants axis if any. So the matrix is resumable, runs on a process pool
or on Dask, and stores its runs like any sweep.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from ..campaign.axes import Axis, AxisValue, CampaignError, axis_from_toml, toml_literal
from ..campaign.figures import scenario_file
from ..campaign.spec import CampaignSpec
from ..summary_names import Flow, Handover

__all__ = ["DEFAULT_FILE", "METRICS", "Entry", "MatrixSpec", "Metric", "load_matrix", "schemes_of"]

DEFAULT_FILE = Path(__file__).with_name("matrix.toml")

#: The suffix of a robustness variant's column name.
ROBUST = "+robust"


@dataclass(frozen=True)
class Metric:
    """A figure the matrix compares: its result column (relative to ``<flow>.``; ``{k}`` is the
    entry's handover), whether more is better, and how a scheme is set against the baseline:
    ``ratio`` (a / b - 1, in %) or ``difference`` (a - b, in the metric's unit)."""

    name: str
    title: str
    column: str
    unit: str
    higher_is_better: bool
    relative: str  # "ratio" | "difference"


#: The metrics, in report order. Columns are per handover (the scenario's own handover window).
METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("goodput", "goodput in the handover window", f"ho{{k}}.{Handover.GOODPUT_AFTER_KBPS}", "kb/s",
           True, "ratio"),
    Metric("interruption", "interruption", f"ho{{k}}.{Handover.INTERRUPTION_S}", "s", False, "difference"),
    Metric("spurious_rtos", "spurious RTOs", f"ho{{k}}.{Handover.SPURIOUS_RTOS}", "per run", False, "difference"),
    Metric("spurious_retransmissions", "spurious retransmissions", f"ho{{k}}.{Handover.SPURIOUS_RETRANSMISSIONS}",
           "per run", False, "difference"),
)}

_ENTRY_KEYS = ("paper", "title", "scenario", "flow", "handover", "baseline", "seeds", "instants", "set",
               "robustness", "columns", "note")
_FILE_KEYS = ("seeds", "seed", "scenarios")


@dataclass(frozen=True)
class Entry:
    """One column of the matrix: a paper's representative handover (or its robustness variant)."""

    name: str
    paper: str
    title: str
    scenario: str           # relative to scenarios/
    flow: str
    protocol: str           # the flow's protocol in the scenario: tcp or sctp
    baseline: str
    seeds: int
    handover: int = 0
    instants: Axis | None = None
    fixed: tuple[tuple[str, str], ...] = ()
    robustness: tuple[tuple[str, str], ...] = ()
    columns: Mapping[str, str] = field(default_factory=dict)  # metric -> column relative to the flow
    note: str = ""
    robust: bool = False    # this is the robustness variant

    @property
    def scheme_key(self) -> str:
        return f"flows.{self.flow}.scheme"

    def column(self, metric: Metric) -> str | None:
        """The result column of ``metric``, or None when this entry does not measure it."""
        if self.columns:
            own = self.columns.get(metric.name)
            return None if own is None else f"{self.flow}.{own}"
        return f"{self.flow}.{metric.column.format(k=self.handover)}"

    def variant(self) -> "Entry":
        """The robustness variant: the same entry with its robustness overrides."""
        return Entry(**{**self.__dict__, "name": self.name + ROBUST, "fixed": self.fixed + self.robustness,
                        "robust": True})

    def refusal(self, scheme: str) -> str | None:
        """Why ``scheme`` cannot run on this entry's scenario (its one-line error), or None."""
        from .._native import ScenarioError
        from ..scenario import load

        try:
            load(scenario_file(self.scenario), self.fixed + ((self.scheme_key, scheme),)).resolved()
        except ScenarioError as err:
            return str(err).splitlines()[0]
        return None

    def campaign(self, schemes: Sequence[str], seed: int) -> CampaignSpec:
        """The campaign of this column: ``schemes`` (the baseline first) x the instants, if any."""
        ordered = [self.baseline] + [s for s in schemes if s != self.baseline]
        axes = (Axis(self.scheme_key, tuple(AxisValue(s, s) for s in ordered)),)
        if self.instants is not None:
            axes += (self.instants,)
        path = scenario_file(self.scenario)
        return CampaignSpec.from_cli(os.fspath(path), [], fixed=self.fixed, replications=self.seeds,
                                     seed=seed).with_options(axes=axes)


@dataclass(frozen=True)
class MatrixSpec:
    """The whole matrix: entries (columns), schemes per protocol (rows), metrics, base seed."""

    entries: tuple[Entry, ...]
    schemes: tuple[str, ...]
    metrics: tuple[Metric, ...]
    seed: int = 1
    origin: str = ""

    def schemes_for(self, entry: Entry) -> list[str]:
        """The selected schemes of ``entry``'s protocol, the baseline first."""
        own = [s for s in self.schemes if _PROTOCOL.get(s) == entry.protocol]
        return [entry.baseline] + [s for s in own if s != entry.baseline]

    def campaigns(self) -> list[tuple[Entry, CampaignSpec, dict[str, str]]]:
        """Per entry: its campaign over the schemes that can run on its scenario, and the
        schemes that cannot, each with the scenario's one-line reason (a plain ``sctp``
        association refuses Kim & Koh's ASCONF actions). A baseline that cannot run is an error."""
        out = []
        for entry in self.entries:
            runnable, refused = [], {}
            for scheme in self.schemes_for(entry):
                reason = entry.refusal(scheme)
                if reason is None:
                    runnable.append(scheme)
                elif scheme == entry.baseline:
                    raise CampaignError(f"matrix scenario {entry.name}: its baseline cannot run: {reason}")
                else:
                    refused[scheme] = reason
            out.append((entry, entry.campaign(runnable, self.seed), refused))
        return out


# --------------------------------------------------------------------------- loading
_PROTOCOL: dict[str, str] = {}


def schemes_of(protocol: str | None = None) -> list[str]:
    """Every preset of ``protocol`` (all when None), in ``vhsim schemes`` order."""
    from .. import _native

    if not _PROTOCOL:
        _PROTOCOL.update({name: proto for name, _, proto in _native.schemes()})
    return [s for s, p in _PROTOCOL.items() if protocol is None or p == protocol]


def load_matrix(
    path: str | os.PathLike[str] | None = None,
    *,
    schemes: Sequence[str] | None = None,
    scenarios: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    seeds: int | None = None,
    robust: bool = False,
) -> MatrixSpec:
    """Read the data file (default :data:`DEFAULT_FILE`) and apply the selections: ``schemes``
    (default: every preset), ``scenarios`` (entry names; default all), ``metrics`` (names of
    :data:`METRICS`; default all), ``seeds`` (replications of every entry without instants,
    replacing the file's), ``robust`` (add each entry's robustness variant beside it). Raises
    :class:`CampaignError` with a one-line message on any bad value."""
    path = Path(path) if path is not None else DEFAULT_FILE
    origin = os.fspath(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CampaignError(f"matrix file not found: {origin}") from None
    except tomllib.TOMLDecodeError as err:
        raise CampaignError(f"{origin}: not valid TOML: {err}") from None
    _known(data, _FILE_KEYS, origin)
    all_schemes = schemes_of()
    default_seeds = _integer(data, "seeds", 10, origin, minimum=1)
    table = data.get("scenarios")
    if not isinstance(table, dict) or not table:
        raise CampaignError(f"{origin}: `scenarios` must be a table of entries ([scenarios.<name>])")
    entries = [_entry(name, raw, default_seeds, seeds, f"{origin}: scenarios.{name}", all_schemes)
               for name, raw in table.items()]
    if scenarios:
        names = [e.name for e in entries]
        unknown = [s for s in scenarios if s not in names]
        if unknown:
            raise CampaignError(f"unknown scenario {unknown[0]!r} (matrix scenarios: {', '.join(names)})")
        entries = [e for e in entries if e.name in scenarios]
    if schemes:
        unknown = [s for s in schemes if s not in all_schemes]
        if unknown:
            raise CampaignError(f"unknown scheme {unknown[0]!r} (schemes: {', '.join(all_schemes)})")
        chosen = tuple(dict.fromkeys(schemes))
        idle = [e for e in entries if not any(_PROTOCOL[s] == e.protocol for s in chosen)]
        if scenarios and idle:
            raise CampaignError(f"no selected scheme runs on scenario {idle[0].name!r} (its flow is "
                                f"{idle[0].protocol}; {idle[0].protocol} schemes: "
                                f"{', '.join(schemes_of(idle[0].protocol))})")
        entries = [e for e in entries if e not in idle]  # another protocol's column: nothing to compare
    else:
        chosen = tuple(all_schemes)
    if robust:
        entries = [v for e in entries for v in ((e, e.variant()) if e.robustness else (e,))]
    if metrics:
        unknown = [m for m in metrics if m not in METRICS]
        if unknown:
            raise CampaignError(f"unknown metric {unknown[0]!r} (metrics: {', '.join(METRICS)})")
        chosen_metrics = tuple(METRICS[m] for m in dict.fromkeys(metrics))
    else:
        chosen_metrics = tuple(METRICS.values())
    return MatrixSpec(tuple(entries), chosen, chosen_metrics, _integer(data, "seed", 1, origin, minimum=0), origin)


def _entry(name: str, raw: Any, seeds: int, forced_seeds: int | None, where: str, all_schemes: list[str]) -> Entry:
    """One entry; ``forced_seeds`` (``--seeds``) replaces the replications of an entry without
    instants (an entry with instants has no randomness of its own: more seeds repeat its runs)."""
    if not isinstance(raw, dict):
        raise CampaignError(f"{where}: must be a table")
    _known(raw, _ENTRY_KEYS, where)
    for key in ("scenario", "flow", "baseline"):
        if not isinstance(raw.get(key), str):
            raise CampaignError(f"{where}: `{key}` (a string) is required")
    try:
        path = scenario_file(raw["scenario"])
    except FileNotFoundError as err:
        raise CampaignError(f"{where}.scenario: {err}") from None
    protocol = _flow_protocol(path, raw["flow"], f"{where}.flow")
    baseline = raw["baseline"]
    if baseline not in all_schemes:
        raise CampaignError(f"{where}.baseline: unknown scheme {baseline!r} (schemes: {', '.join(all_schemes)})")
    if _PROTOCOL[baseline] != protocol:
        raise CampaignError(f"{where}.baseline: {baseline!r} is a {_PROTOCOL[baseline]} scheme; "
                            f"flow {raw['flow']!r} is {protocol}")
    instants = raw.get("instants")
    axis = None
    if instants is not None:
        if not isinstance(instants, dict) or set(instants) != {"key", "values"}:
            raise CampaignError(f'{where}.instants: must be {{ key = "timeline[0].at", values = [...] or "range(...)" }}')
        axis = axis_from_toml(str(instants["key"]), instants["values"])
    columns = raw.get("columns", {})
    if not isinstance(columns, dict) or any(k not in METRICS for k in columns):
        bad = next((k for k in columns if k not in METRICS), None) if isinstance(columns, dict) else None
        raise CampaignError(f"{where}.columns: a table of metric = column (metrics: {', '.join(METRICS)})"
                            + (f"; unknown metric {bad!r}" if bad else ""))
    own_seeds = _integer(raw, "seeds", seeds, where, minimum=1)
    if forced_seeds is not None and axis is None:
        own_seeds = forced_seeds
    return Entry(name=name, paper=str(raw.get("paper", name)), title=str(raw.get("title", name)),
                 scenario=raw["scenario"], flow=raw["flow"], protocol=protocol, baseline=baseline,
                 seeds=own_seeds, handover=_integer(raw, "handover", 0, where, minimum=0), instants=axis,
                 fixed=_overrides(raw.get("set", {}), f"{where}.set"),
                 robustness=_overrides(raw.get("robustness", {}), f"{where}.robustness"),
                 columns={k: str(v) for k, v in columns.items()}, note=str(raw.get("note", "")))


def _flow_protocol(path: Path, flow: str, where: str) -> str:
    flows = tomllib.loads(path.read_text(encoding="utf-8")).get("flows", {})
    if flow not in flows:
        raise CampaignError(f"{where}: the scenario has no flow {flow!r} (flows: {', '.join(flows)})")
    return str(flows[flow].get("protocol", "tcp"))


def _overrides(table: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(table, dict):
        raise CampaignError(f'{where}: must be a table of "dotted.key" = value')
    return tuple((str(k), toml_literal(v)) for k, v in table.items())


def _integer(data: Mapping[str, Any], key: str, default: int, where: str, minimum: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise CampaignError(f"{where}: `{key}` must be an integer >= {minimum}, got {value!r}")
    return value


def _known(data: Mapping[str, Any], keys: Sequence[str], where: str) -> None:
    unknown = [k for k in data if k not in keys]
    if unknown:
        raise CampaignError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(keys)})")
