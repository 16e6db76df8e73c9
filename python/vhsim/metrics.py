"""Names of the metrics a run reports, derived from the JSON Schema of ``summary.json`` that the
core emits (``vhsim._native.summary_schema()``; also docs/summary.schema.json).

Campaign result tables flatten each run's summary into columns (``vhsim.campaign.store``):
run-level figures keep their names, flow figures become ``<flow>.<metric>`` (a transport's
part, e.g. ``tcp.fast_retransmits``, joins the flow's own figures), handover figures
``<flow>.ho<k>.<metric>``, a transport's per-path figures ``<flow>.path<i>.<metric>`` (SCTP:
one per destination address, ``bulk.path1.cwnd_bytes``), drops ``<flow>.drops_<cause>``,
windows ``<flow>.goodput_kbps_<window>``, link figures ``<link>.<metric>`` (drops ``<link>.drops_<cause>``
and, while a handover window was open, ``<link>.window_drops_<cause>``). This module lists those
names with their descriptions without running anything, so code can refer to a metric by a
checked name instead of a string literal.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, Iterable

from . import _native
from .result import DROP_CAUSES, PATHS_KEY, TRANSPORT_PARTS

__all__ = ["schema", "run_metrics", "flow_metrics", "path_metrics", "handover_metrics", "link_metrics",
           "aggregate_metrics", "columns", "names_module"]

#: Run-level figures that describe the engine, not the simulation (left out of campaign tables).
ENGINE_FIGURES = ("vhsim_version", "wall_s", "events_per_s")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of ``summary.json``."""
    return json.loads(_native.summary_schema())


def _definition(name: str) -> dict[str, Any]:
    return schema()["$defs"][name]


def _scalars(props: dict[str, Any]) -> dict[str, str]:
    """Scalar properties (numbers, integers, strings, booleans, possibly null) with descriptions."""
    out = {}
    for key, spec in props.items():
        types = spec.get("type")
        types = types if isinstance(types, list) else [types]
        if set(types) - {None, "null"} <= {"number", "integer", "string", "boolean"} and "$ref" not in spec \
                and "anyOf" not in spec and any(t in ("number", "integer", "string", "boolean") for t in types):
            out[key] = spec.get("description", "")
    return out


def _part(ref_holder: dict[str, Any]) -> dict[str, Any]:
    for alt in ref_holder.get("anyOf", [ref_holder]):
        if "$ref" in alt:
            return _definition(alt["$ref"].rsplit("/", 1)[-1])
    return {}


def run_metrics() -> dict[str, str]:
    """Run-level figures: name -> description."""
    return {k: v for k, v in _scalars(schema()["properties"]).items() if k not in ENGINE_FIGURES}


def flow_metrics() -> dict[str, str]:
    """Per-flow figures (``<flow>.<name>``), transport parts included: name -> description."""
    props = _definition("FlowSummary")["properties"]
    out = _scalars(props)
    for part in TRANSPORT_PARTS:
        if part in props:
            out.update({k: f"{v} ({part})" for k, v in _scalars(_part(props[part]).get("properties", {})).items()})
    for cause in DROP_CAUSES:
        out[f"drops_{cause}"] = f"packets of the flow dropped with cause {cause}"
    return out


def path_metrics() -> dict[str, str]:
    """Per-path figures of the transport parts that have them (``<flow>.path<i>.<name>``):
    name -> description."""
    props = _definition("FlowSummary")["properties"]
    out: dict[str, str] = {}
    for part in TRANSPORT_PARTS:
        paths = _part(props[part]).get("properties", {}).get(PATHS_KEY) if part in props else None
        if paths and "$ref" in paths.get("items", {}):
            item = _definition(paths["items"]["$ref"].rsplit("/", 1)[-1])
            out.update({k: f"{v} ({part}, per path)" for k, v in _scalars(item.get("properties", {})).items()})
    return out


def handover_metrics() -> dict[str, str]:
    """Per-flow, per-handover figures (``<flow>.ho<k>.<name>``): name -> description."""
    return _scalars(_definition("FlowHandoverStats")["properties"])


def link_metrics() -> dict[str, str]:
    """Per-link-direction figures (``<link>.<name>``): name -> description."""
    out = _scalars(_definition("LinkSummary")["properties"])
    for cause in DROP_CAUSES:
        out[f"drops_{cause}"] = f"packets dropped on the link with cause {cause}"
        out[f"window_drops_{cause}"] = (f"packets dropped on the link with cause {cause} while a handover window "
                                        "was open (exact in a run stopped early)")
    return out


def agent_metrics() -> dict[str, str]:
    """Per-node-agent figures (``agent<i>.<name>``, i = its index in ``[[agents]]``): its node,
    kind and counters (a Delivery Service's ``failures``, ``resent``, ``dropped``, ...)."""
    return _scalars(_definition("AgentSummary")["properties"])


def aggregate_metrics() -> dict[str, str]:
    """Figures over all flows and handovers (``aggregate.<name>``; a distribution's
    ``aggregate.<name>.<stat>``, drops ``aggregate.drops_<cause>``): name -> description."""
    props = _definition("AggregateSummary")["properties"]
    out = _scalars(props)
    stats = _scalars(_definition("Distribution")["properties"])
    for key, spec in props.items():
        if _part(spec):
            out.update({f"{key}.{s}": f"{spec.get('description', '')} ({d})" for s, d in stats.items()})
    out.update({f"drops_{cause}": f"packets of all flows dropped with cause {cause}" for cause in DROP_CAUSES})
    return out


def columns(flows: Iterable[str], links: Iterable[str] = (), handovers: int = 0,
            windows: Iterable[str] = (), paths: int = 0, agents: int = 0,
            engagement: Iterable[str] = ()) -> list[str]:
    """Every column a campaign table can have for these flows, links, handover count, goodput
    windows, paths per flow, node agents and engagement counters (docs/schemes.md; a flow's
    optional figures, e.g. ``ld_accuracy``, included)."""
    out = list(run_metrics())
    out += [f"aggregate.{m}" for m in aggregate_metrics()]
    out += [f"agent{i}.{m}" for i in range(agents) for m in agent_metrics()]
    windows, engagement = list(windows), list(engagement)
    for f in flows:
        out += [f"{f}.{m}" for m in flow_metrics()]
        out += [f"{f}.path{i}.{m}" for i in range(paths) for m in path_metrics()]
        out += [f"{f}.goodput_kbps_{w}" for w in windows]
        out += [f"{f}.engagement.{c}" for c in engagement]
        out += [f"{f}.ho{k}.{m}" for k in range(handovers) for m in handover_metrics()]
    for link in links:
        out += [f"{link}.{m}" for m in link_metrics()]
    return out


#: The generated module of typed metric names (:func:`names_module`), and its classes.
NAMES_FILE = "summary_names.py"
_NAME_CLASSES = (("Run", "Run-level figures (campaign column ``<name>``).", run_metrics),
                 ("Flow", "Per-flow figures, transport parts included (``<flow>.<name>``).", flow_metrics),
                 ("Handover", "Per-flow, per-handover figures (``<flow>.ho<k>.<name>``).", handover_metrics),
                 ("Path", "Per-path figures of a transport part (``<flow>.path<i>.<name>``).", path_metrics),
                 ("Link", "Per-link-direction figures (``<link>/<direction>.<name>``).", link_metrics),
                 ("Agent", "Per-node-agent figures (``agent<i>.<name>``).", agent_metrics))


def names_module() -> str:
    """The text of ``vhsim/summary_names.py``: one class per level of the summary with one
    constant per figure (``Flow.GOODPUT_KBPS = "goodput_kbps"``), each with the schema's
    description, so that code names a metric by an attribute that exists only if the summary
    has it. Regenerate with ``python -m vhsim.metrics > python/vhsim/summary_names.py``; a test keeps the
    file up to date."""
    out = ['"""Names of the figures of ``summary.json``, generated from its JSON Schema by',
           "``vhsim.metrics.names_module()`` (regenerate: ``python -m vhsim.metrics > python/vhsim/summary_names.py``;",
           "do not edit).",
           "",
           "Build campaign columns from these with :mod:`vhsim.campaign.metrics` (``M.flow(\"bulk\",",
           "Flow.GOODPUT_KBPS)``) instead of spelling them as string literals.",
           '"""']
    for cls, doc, names in _NAME_CLASSES:
        out += ["", "", f"class {cls}:", f'    """{doc}"""', ""]
        for name, description in sorted(names().items()):
            text = " ".join(description.split()) or name
            out += [f"    #: {text}" if len(text) <= 110 else f"    #: {text[:107]}...",
                    f"    {name.upper()} = {json.dumps(name)}"]
    return "\n".join(out) + "\n"


if __name__ == "__main__":  # pragma: no cover - python -m vhsim.metrics > python/vhsim/summary_names.py
    print(names_module(), end="")
