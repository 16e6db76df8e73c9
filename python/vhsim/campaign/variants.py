"""Variants of a figure's campaign, declared by a paper module as data and applied after the
figure's own axes:

* a :class:`Perturbation` (robustness ensemble, ``vhsim reproduce P --robustness N``): small
  changes a real setup would have -- every link's delay within +-5% (:class:`LinkDelays`), the
  flows' start times shifted (:class:`FlowStarts`), another base seed (:class:`Seeds`).  Variant
  k draws its values from the named seed ``vhsim-robustness/<paper>/variant-<k>``, one value per
  link, flow or seed, so variant k is the same world in every figure and in every call;
* an :class:`Alternative` (ambiguity matrix, ``--ambiguities``): another reading of a choice
  the paper leaves open, as a set of scenario overrides (``--set`` keys).

:func:`rewrite` turns a figure's :class:`~vhsim.campaign.spec.CampaignSpec` into the variant's:
the overrides each configuration needs become zipped axes appended after the figure's own, so
they win over an axis that sets a whole table around them (sobral's ``agents``) and each
configuration gets its own value (a delay the figure sets per configuration is scaled in each).
A configuration the variant leaves alone gets no override (``AxisValue(override=None)``): its
runs keep the default campaign's run ids.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping, Sequence

from .._native import ScenarioError
from ..scenario import Scenario
from .axes import Axis, AxisValue, CampaignError
from .spec import CampaignSpec
from ..wording import counted

__all__ = ["Alternative", "Draw", "FlowStarts", "LinkDelays", "Perturbation", "Rewrite", "Seeds", "alternative_spec",
           "perturbed_spec", "rewrite"]


# -- declarations (data in the paper modules) ------------------------------------------------------
@dataclass(frozen=True)
class LinkDelays:
    """Each link's one-way delay times a factor drawn uniformly in [1 - spread, 1 + spread], one
    factor per link and variant (both directions of a duplex link get the same)."""

    spread: float = 0.05
    links: tuple[str, ...] = ()  # the links perturbed; empty = every link of the scenario

    def describe(self) -> str:
        which = f"links {', '.join(self.links)}" if self.links else "every link"
        return (f"{which}: one-way delay \u00d7 U({1 - self.spread:g}, {1 + self.spread:g}), one factor per link "
                "and variant (both directions alike)")


@dataclass(frozen=True)
class FlowStarts:
    """Each flow's start time plus an offset drawn uniformly in [0, max_offset), one per flow (a
    group of ``count`` flows as one) and variant."""

    max_offset: str = "50ms"
    flows: tuple[str, ...] = ()  # empty = every flow

    def describe(self) -> str:
        which = f"flows {', '.join(self.flows)}" if self.flows else "every flow"
        return f"{which}: start + U(0, {self.max_offset}), one offset per flow and variant"


@dataclass(frozen=True)
class Seeds:
    """Another base seed per variant (replications keep their paired seeds within a variant)."""

    def describe(self) -> str:
        return "a base seed of its own per variant (the replications stay paired within a variant)"


@dataclass(frozen=True)
class Perturbation:
    """What a robustness variant changes: its ``parts``, and ``note`` (why these, in words)."""

    parts: tuple[LinkDelays | FlowStarts | Seeds, ...]
    note: str = ""

    def describe(self) -> str:
        text = "; ".join(p.describe() for p in self.parts)
        return text + (f". {self.note.rstrip('.')}" if self.note else "")

    def draw(self, paper: str, k: int) -> "Draw":
        return Draw(self, f"vhsim-robustness/{paper}/variant-{k}")


_FLOW_KEY = re.compile(r"flows\.([^.\[\]]+)\..+")  # a flow's key: flows.<name>.<key>


@dataclass(frozen=True)
class Alternative:
    """Another reading of a choice the paper leaves open: ``name`` (short, for the table),
    ``text`` (the reading and why it is plausible), ``overrides`` (scenario keys and values,
    ``--set`` syntax) and ``ours`` (what the paper's scenarios use instead, and whose value it is:
    ns-2's default, the paper's text, an RFC).  It applies to every configuration where the
    overrides are valid and change something (an SCTP option leaves a TCP figure alone, a
    Freeze-TCPv2 option the other schemes)."""

    name: str
    text: str
    overrides: Mapping[str, str]
    ours: str
    # The schemes whose option it is: a configuration whose flow (the ``flows.<name>`` of the
    # overrides) runs another scheme is left alone, even though the option resolves there too
    # (kimkoh's scenarios set HR-mSCTP's and MT-mSCTP's options for every scheme; only they read them).
    schemes: tuple[str, ...] = ()
    # What a configuration must have for this reading to exist there, in words ("a Delivery Service
    # (Mobile IP has none)"): where the scenario rejects the overrides, the report says "not
    # applicable: <name> needs <needs>" rather than the scenario's error.
    needs: str = ""
    # Overrides of flows that only some configurations have (``flows.<name>.…``: limjang's cross
    # flows, park's fairness flows): each applied where the configuration has a flow ``<name>``
    # (a ``count`` group's flows are ``<name>.<i>``), as ``overrides`` are everywhere.  A reading
    # of the simulator (ns-2.27's timers) holds for every flow of the run, not the studied one only.
    where_flows: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        bad = [k for k in self.where_flows if not _FLOW_KEY.match(k)]
        if bad:
            raise ValueError(f"alternative {self.name}: where_flows keys must name a flow (flows.<name>.<key>), "
                             f"not {', '.join(bad)}")

    def describe(self) -> str:
        text = ", ".join(f"`{k} = {v}`" for k, v in {**self.overrides, **self.where_flows}.items())
        return text + (f" ({'each ' if len(self.where_flows) > 1 else ''}where the configuration has the flow)"
                       if self.where_flows else "")

    def overrides_for(self, flows: Sequence[str]) -> dict[str, str]:
        """The overrides of a configuration whose flows are named ``flows``: ``overrides`` and the
        ``where_flows`` entries whose flow it has."""
        groups = {str(f).split(".")[0] for f in flows}
        return {**self.overrides, **{k: v for k, v in self.where_flows.items() if _FLOW_KEY.match(k)[1] in groups}}

    def keys(self) -> list[str]:
        return [*self.overrides, *self.where_flows]


# -- drawing a variant ---------------------------------------------------------------------------------
@dataclass
class Draw:
    """Variant k's values, drawn from its named seed as they are needed (and kept, for the report)."""

    perturbation: Perturbation
    seed_name: str
    drawn: dict[str, str] = field(default_factory=dict)  # what was drawn, in words, by item

    def uniform(self, item: str) -> float:
        """A number in [0, 1) for ``item``: the same for the same seed name and item, always."""
        digest = hashlib.sha256(f"{self.seed_name}/{item}".encode("utf-8")).digest()
        return int.from_bytes(digest[:8], "big") / 2.0 ** 64

    def factor(self, part: LinkDelays, link: str) -> float:
        f = 1.0 + part.spread * (2.0 * self.uniform(f"delay/{link}") - 1.0)
        self.drawn.setdefault(f"link {link}", f"delay \u00d7{f:.4f}")
        return f

    def offset_ns(self, part: FlowStarts, flow: str) -> int:
        from .._native import duration_ns

        ns = round(self.uniform(f"start/{flow}") * duration_ns(part.max_offset) / 1000) * 1000  # whole us
        self.drawn.setdefault(f"flow {flow}", f"start +{_duration(ns)}")
        return ns

    def base_seed(self) -> int | None:
        if not any(isinstance(p, Seeds) for p in self.perturbation.parts):
            return None
        seed = 1 + int(self.uniform("seed") * (2 ** 31 - 2))
        self.drawn["seed"] = f"base seed {seed}"
        return seed

    def overrides(self, resolved: Mapping) -> dict[str, str]:
        """The overrides that perturb one resolved configuration."""
        out: dict[str, str] = {}
        for part in self.perturbation.parts:
            if isinstance(part, LinkDelays):
                for direction in resolved["links"]:
                    link, _, side = str(direction["name"]).partition("/")
                    if part.links and link not in part.links:
                        continue
                    key = f"links.{link}.{side}.delay" if side else f"links.{link}.delay"
                    out[key] = _duration(round(int(direction["delay"]) * self.factor(part, link) / 1000) * 1000)
            elif isinstance(part, FlowStarts):
                for flow in resolved["flows"]:
                    group = str(flow["name"]).split(".")[0]  # `count` flows are <group>.<i>
                    key = f"flows.{group}.start"
                    if (part.flows and group not in part.flows) or key in out:
                        continue
                    out[key] = _duration(int(flow["start"]) + self.offset_ns(part, group))
        return out


def _duration(ns: int) -> str:
    """``ns`` as an exact duration the scenario reads (``31.521ms``, ``0ms``)."""
    if ns % 1000:
        return f"{ns}ns"
    whole, frac = divmod(ns // 1000, 1000)
    return f"{whole}.{frac:03d}".rstrip("0").rstrip(".") + "ms"


# -- rewriting a campaign ------------------------------------------------------------------------------
@dataclass
class Rewrite:
    """A figure's campaign under a variant: ``spec`` (None if no configuration changes),
    ``applied`` of ``total`` configurations changed, ``why_not`` (why the others are left alone)."""

    spec: CampaignSpec | None
    applied: int
    total: int
    why_not: str = ""

    def describe(self) -> str:
        if self.spec is None:
            return f"does not apply ({self.why_not})" if self.why_not else "does not apply"
        text = f"{self.applied} of {counted(self.total, 'configuration')}"
        return text + (f" (elsewhere: {self.why_not})" if self.why_not and self.applied < self.total else "")


def rewrite(spec: CampaignSpec, extra: Callable[[tuple[tuple[str, str], ...]], Mapping[str, str]],
            seed: int | None = None) -> tuple[CampaignSpec, int]:
    """``spec`` with ``extra(configuration's overrides)`` applied after its axes, per configuration.

    The extra keys become zipped axes after the figure's axes (a product grid is spelt out as a
    zipped one when the values differ between configurations); a key the figure already has as
    an axis replaces that axis's overrides and keeps its labels, so the figure's columns still
    name the nominal values.  Returns the new spec and how many configurations it changes."""
    configs = spec.configurations()
    per_config = [extra(spec.fixed + c.overrides(spec.axes)) for c in configs]
    keys = list(dict.fromkeys(k for overrides in per_config for k in overrides))
    changed = sum(1 for overrides in per_config if overrides)
    shared: dict[tuple[str, str | None], AxisValue] = {}

    def value(label: str, override: str | None) -> AxisValue:
        return shared.setdefault((label, override), AxisValue(label, override))

    own = {a.key: i for i, a in enumerate(spec.axes)}
    constant = all(len({o.get(k) for o in per_config}) == 1 for k in keys)
    if spec.zip_axes or len(configs) == 1 or not constant:
        axes = [Axis(a.key, tuple(c.values[i] for c in configs)) for i, a in enumerate(spec.axes)]
        for key in keys:
            if key in own:  # the figure's own axis: its labels, the variant's values
                i = own[key]
                axes[i] = Axis(key, tuple(value(v.label, o.get(key, v.override))
                                          for v, o in zip(axes[i].values, per_config)))
            else:
                axes.append(Axis(key, tuple(value(o.get(key, "\u2013"), o.get(key)) for o in per_config)))
        return replace(spec, axes=tuple(axes), zip_axes=bool(axes), seed=seed if seed is not None else spec.seed), \
            changed
    # A product grid whose extra values are the same everywhere keeps its shape.
    axes = list(spec.axes)
    for key in keys:
        v = per_config[0][key]
        if key in own:
            i = own[key]
            axes[i] = Axis(key, tuple(value(a.label, v) for a in axes[i].values))
        else:
            axes.append(Axis(key, (value(v, v),)))
    return replace(spec, axes=tuple(axes), seed=seed if seed is not None else spec.seed), changed


_INSTANT = re.compile(r"timeline\[\d+\]\.at|duration")


def _resolved(spec: CampaignSpec, overrides: Sequence[tuple[str, str]]) -> dict:
    return json.loads(Scenario(spec.scenario_text, overrides, spec.scenario_path).resolved_json())


def perturbed_spec(spec: CampaignSpec, draw: Draw) -> Rewrite:
    """The figure's campaign as robustness variant ``draw`` (every configuration perturbed)."""
    # A link's delay and a flow's start do not depend on a handoff instant or the run's length:
    # configurations that differ only there (Daniel & Kojo's 200 instants) are resolved once.
    memo: dict[tuple, dict[str, str]] = {}

    def extra(overrides: tuple[tuple[str, str], ...]) -> dict[str, str]:
        key = tuple(kv for kv in overrides if not _INSTANT.fullmatch(kv[0]))
        if key not in memo:
            memo[key] = draw.overrides(_resolved(spec, overrides))
        return memo[key]

    try:
        new, changed = rewrite(spec, extra, draw.base_seed())
    except ScenarioError as err:
        raise CampaignError(f"perturbation {draw.seed_name}: {err}") from None
    return Rewrite(new, changed, len(spec.configurations()))


def alternative_spec(spec: CampaignSpec, alt: Alternative) -> Rewrite:
    """The figure's campaign under ``alt``: the configurations where its overrides are valid and
    change the resolved scenario get them, the others are left alone (and say why)."""
    total = len(spec.configurations())
    axis_keys = [a.key for a in spec.axes]
    for key in alt.keys():
        clash = [a for a in axis_keys if a == key or a.startswith(key + ".") or a.startswith(key + "[")]
        if clash:
            return Rewrite(None, 0, total, f"the figure varies {clash[0]} itself")
    reasons: list[str] = []

    def extra(overrides: tuple[tuple[str, str], ...]) -> Mapping[str, str]:
        base = Scenario(spec.scenario_text, overrides, spec.scenario_path)
        default = base.resolved_json()
        resolved = json.loads(default)
        if alt.schemes and not _runs_scheme(resolved, alt):
            reasons.append(f"not a configuration of {' or '.join(alt.schemes)}")
            return {}
        mine = alt.overrides_for([f["name"] for f in resolved["flows"]])
        if not mine:  # only where_flows, and none of their flows here
            reasons.append(f"not applicable: {alt.name} needs {alt.needs or 'one of the flows it names'}")
            return {}
        try:
            changed = base.with_(mine).resolved_json() != default
        except ScenarioError as err:
            reasons.append(_not_applicable(alt, err))
            return {}
        if not changed:
            reasons.append("already the figure's setting")
        return mine if changed else {}

    new, changed = rewrite(spec, extra)
    why = reasons[0] if reasons else ""
    return Rewrite(new if changed else None, changed, total, why)


def _not_applicable(alt: Alternative, err: ScenarioError) -> str:
    """Why ``alt`` does not exist in a configuration whose scenario rejects its overrides: what
    it needs, as the paper module declares it, or else the scenario's own one-line error."""
    if alt.needs:
        return f"not applicable: {alt.name} needs {alt.needs}"
    detail = " ".join(str(err).split(": ", 1)[-1].split())  # without the file name, on one line
    return f"not applicable: the scenario rejects {alt.name}'s override ({detail})"


def _runs_scheme(resolved: Mapping, alt: Alternative) -> bool:
    """Whether a flow the overrides name (``flows.<name>.…``; a ``count`` group's flows are
    ``<name>.<i>``) runs one of ``alt.schemes``."""
    names = {key.split(".")[1] for key in alt.keys() if key.startswith("flows.")}
    return any(str(f["scheme"]) in alt.schemes for f in resolved["flows"]
               if not names or str(f["name"]).split(".")[0] in names)
