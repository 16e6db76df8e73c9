"""Campaign definitions: a base scenario, axes, replications, seeds; and the runs they imply.

A :class:`CampaignSpec` is pure data (it round-trips through ``campaign.json``).
:meth:`CampaignSpec.plan` validates every configuration against the scenario schema and
returns the list of :class:`PlannedRun` -- each with its seed and run id -- before anything
is executed, so a typo in the last axis value is reported before the first run starts.

Run identity: ``run_id = sha256(canonical JSON of {resolved scenario with the run's seed,
vhsim version})``.  The output ``detail`` is left out of the resolved scenario for the hash,
because it changes what is recorded, not what is simulated.
"""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import hashlib
import itertools
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from .. import atomic
from .._native import ScenarioError
from ..errors import shown
from ..scenario import DETAILS, Scenario
from ..wording import counted
from .axes import Axis, AxisValue, CampaignError, axis_from_toml, parse_cli_axis, toml_literal

__all__ = ["CampaignSpec", "Configuration", "PlannedRun", "run_identity", "seed_for", "MAX_RUNS"]

# Seeds of unpaired campaigns are hashes; keep them well inside u64 (and JSON-safe as ints).
_SEED_BITS = 62

#: Most runs a campaign may have unless the caller raises the limit (CampaignSpec.check_size;
#: the largest registered reproduction, Daniel & Kojo's, has 76,815).
MAX_RUNS = 250_000

CAMPAIGN_FILE_KEYS = (
    "scenario", "replications", "seed", "paired_seeds", "zip", "detail", "metrics", "folder", "set", "axes",
)


@dataclass(frozen=True)
class Configuration:
    """One point of the parameter grid: its index in sweep order and one value per axis."""

    index: int
    values: tuple[AxisValue, ...]

    def overrides(self, axes: Sequence[Axis]) -> tuple[tuple[str, str], ...]:
        return tuple((a.key, v.override) for a, v in zip(axes, self.values) if v.override is not None)

    def labels(self, axes: Sequence[Axis]) -> dict[str, str]:
        return {a.key: v.label for a, v in zip(axes, self.values)}

    def describe(self, axes: Sequence[Axis]) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.labels(axes).items()) or "(no axes)"


@dataclass(frozen=True, slots=True)
class PlannedRun:
    """One simulation to have in the store: configuration x replication."""

    config: int
    rep: int
    seed: int
    run_id: str
    overrides: tuple[tuple[str, str], ...]  # fixed overrides, then one per axis
    labels: dict[str, str] = field(hash=False, compare=False)


def run_identity(resolved: dict, version: str) -> str:
    """sha256 hex digest identifying one run (resolved scenario incl. seed, vhsim version)."""
    scenario = {k: v for k, v in resolved.items() if k != "detail"}
    payload = json.dumps({"scenario": scenario, "vhsim_version": version},
                         sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def seed_for(base_seed: int, rep: int, paired: bool, labels: dict[str, str] | None = None) -> int:
    """Seed of replication ``rep``.

    Paired (default): ``base_seed + rep`` for every configuration (common random numbers,
    so comparisons between configurations are paired).  Unpaired: a hash of
    (base seed, configuration labels, rep), different for every configuration.
    """
    if paired:
        return base_seed + rep
    key = json.dumps([base_seed, labels or {}, rep], sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - _SEED_BITS)


@dataclass(frozen=True)
class CampaignSpec:
    """What a campaign runs.  See docs/campaigns.md for the TOML form."""

    scenario_text: str
    scenario_path: str | None = None
    fixed: tuple[tuple[str, str], ...] = ()
    axes: tuple[Axis, ...] = ()
    zip_axes: bool = False
    replications: int = 1
    seed: int | None = None  # base seed; None = the scenario's own `seed`
    paired_seeds: bool = True
    detail: str = "summary"
    metrics: tuple[str, ...] = ()  # fnmatch patterns of result columns to keep; empty = all

    def __post_init__(self) -> None:
        if self.replications < 1:
            raise CampaignError(f"replications must be at least 1, got {self.replications}")
        if self.seed is not None and self.seed < 0:
            raise CampaignError(f"seed must be a non-negative integer, got {self.seed}")
        if self.detail not in DETAILS:
            raise CampaignError(f"detail must be one of {', '.join(DETAILS)}, got {shown(self.detail)}")
        keys = [a.key for a in self.axes]
        for key in keys:
            if keys.count(key) > 1:
                raise CampaignError(f"axis {key} is given twice")
        if self.zip_axes and self.axes:
            lengths = {a.key: len(a.values) for a in self.axes}
            if len(set(lengths.values())) > 1:
                detail = ", ".join(f"{k} has {n}" for k, n in lengths.items())
                raise CampaignError(f"--zip needs axes of equal length: {detail}")

    # -- construction ------------------------------------------------------------
    @classmethod
    def from_cli(
        cls,
        scenario_path: str,
        params: Sequence[str],
        fixed: Sequence[tuple[str, str]] = (),
        **options: Any,
    ) -> "CampaignSpec":
        """From ``vhsim sweep SCENARIO -p KEY=V1,V2 ...`` arguments."""
        text = _read_scenario(scenario_path)
        axes = tuple(parse_cli_axis(p) for p in params)
        return cls(text, os.fspath(scenario_path), tuple(fixed), axes, **options)

    @classmethod
    def from_toml_file(cls, path: str | os.PathLike[str]) -> tuple["CampaignSpec", str | None]:
        """From a campaign TOML file; returns the spec and the file's ``folder`` (or None)."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise FileNotFoundError(f"campaign file not found: {os.fspath(path)}") from None
        except tomllib.TOMLDecodeError as err:
            raise CampaignError(f"{path}: not valid TOML: {err}") from None
        except UnicodeDecodeError as err:
            raise CampaignError(f"{path}: not a UTF-8 text file (byte offset {err.start})") from None
        return cls.from_toml_dict(data, base_dir=path.parent, origin=os.fspath(path))

    @classmethod
    def from_toml_dict(
        cls, data: dict, base_dir: str | os.PathLike[str] = ".", origin: str = "campaign file"
    ) -> tuple["CampaignSpec", str | None]:
        unknown = sorted(set(data) - set(CAMPAIGN_FILE_KEYS))
        if unknown:
            raise CampaignError(f"{origin}: unknown key {shown(unknown[0])} (known: {', '.join(CAMPAIGN_FILE_KEYS)})")
        if "scenario" not in data:
            raise CampaignError(f"{origin}: missing `scenario` (path of the base scenario, relative to the campaign file)")
        scenario_path = Path(base_dir) / str(data["scenario"])
        text = _read_scenario(scenario_path)
        fixed = tuple((str(k), toml_literal(v)) for k, v in _expect_table(data, "set", origin).items())
        axes = tuple(axis_from_toml(k, v) for k, v in _flatten_axes(_expect_table(data, "axes", origin)).items())
        metrics = data.get("metrics", [])
        if isinstance(metrics, str):
            metrics = [metrics]
        options = dict(
            zip_axes=_expect(data, "zip", bool, False, origin),
            replications=_expect(data, "replications", int, 1, origin),
            seed=_expect(data, "seed", int, None, origin),
            paired_seeds=_expect(data, "paired_seeds", bool, True, origin),
            detail=_expect(data, "detail", str, "summary", origin),
            metrics=tuple(str(m) for m in metrics),
        )
        folder = data.get("folder")
        return cls(text, os.fspath(scenario_path), fixed, axes, **options), (None if folder is None else str(folder))

    def with_options(self, **changes: Any) -> "CampaignSpec":
        """A copy with some fields replaced (None values are ignored)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    # -- persistence ---------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "scenario_text": self.scenario_text,
            "scenario_path": self.scenario_path,
            "fixed": [list(kv) for kv in self.fixed],
            "axes": [a.to_json() for a in self.axes],
            "zip_axes": self.zip_axes,
            "replications": self.replications,
            "seed": self.seed,
            "paired_seeds": self.paired_seeds,
            "detail": self.detail,
            "metrics": list(self.metrics),
        }

    @classmethod
    def from_json(cls, data: dict) -> "CampaignSpec":
        return cls(
            scenario_text=data["scenario_text"],
            scenario_path=data.get("scenario_path"),
            fixed=tuple((str(k), str(v)) for k, v in data.get("fixed", [])),
            axes=tuple(Axis.from_json(a) for a in data.get("axes", [])),
            zip_axes=bool(data.get("zip_axes", False)),
            replications=int(data.get("replications", 1)),
            seed=data.get("seed"),
            paired_seeds=bool(data.get("paired_seeds", True)),
            detail=str(data.get("detail", "summary")),
            metrics=tuple(data.get("metrics", [])),
        )

    def digest(self) -> str:
        """sha256 of the definition (which runs, which columns): keys the consolidated table.
        Computed once per object (the definition is immutable): a Daniel & Kojo figure's zipped
        axes are ~100,000 values, and a sweep asks for the digest several times."""
        known = self.__dict__.get("_digest")
        if known is None:
            text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
            known = self.__dict__["_digest"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
        return known

    # -- the grid ------------------------------------------------------------------
    def base_scenario(self) -> Scenario:
        return Scenario(self.scenario_text, self.fixed, self.scenario_path)

    def configurations(self) -> list[Configuration]:
        """Grid points in sweep order: Cartesian product (last axis fastest), or zipped."""
        if not self.axes:
            return [Configuration(0, ())]
        if self.zip_axes:
            combos = zip(*(a.values for a in self.axes))
        else:
            combos = itertools.product(*(a.values for a in self.axes))
        return [Configuration(i, tuple(c)) for i, c in enumerate(combos)]

    @property
    def size(self) -> int:
        """Runs in the campaign (configurations x replications), counted without listing them."""
        if not self.axes:
            return self.replications
        lengths = [len(a.values) for a in self.axes]
        return (min(lengths) if self.zip_axes else math.prod(lengths)) * self.replications

    def check_size(self, max_runs: int | None = MAX_RUNS) -> None:
        """CampaignError if the campaign has more than ``max_runs`` runs (None: no limit): a
        typo in ``--reps`` or a range step would otherwise plan (and hold in memory) millions."""
        if max_runs is None or self.size <= max_runs:
            return
        configs = self.size // self.replications
        raise CampaignError(
            f"the campaign has {self.size:,} runs ({configs:,} configuration{'s' if configs != 1 else ''} x "
            f"{self.replications:,} replication{'s' if self.replications != 1 else ''}), more than the limit of "
            f"{max_runs:,}; check --reps and the axes, or raise the limit (--max-runs {self.size}, "
            f"max_runs={self.size} from Python)")

    def base_seed(self) -> int:
        if self.seed is not None:
            return self.seed
        return int(self._resolve(self.base_scenario(), "the base scenario").get("seed", 1))

    def plan(self, version: str, cache_dir: Path | None = None, write_cache: bool = True,
             map_chunks: Callable[..., Iterable] | None = None) -> list[PlannedRun]:
        """Validate every configuration and list the runs, replication-major.

        Replication-major order (all configurations of rep 0, then rep 1, ...) means an
        interrupted campaign holds complete early replications rather than some
        configurations fully and others not at all.  Raises :class:`CampaignError`
        naming the axis (or the configuration) on the first invalid value.

        Validation resolves every configuration, which is most of a large campaign's start-up,
        so a plan is remembered in this process and, with ``cache_dir`` (an existing campaign
        folder; ``write_cache=False`` only reads it), in ``plan-<version>.json`` there, keyed by this definition's digest and the
        version: a resumed campaign whose definition did not change is not validated again.
        ``map_chunks``: a parallel ``map`` (a process pool's ``executor.map``) that validates
        chunks of configurations in worker processes.
        """
        key = (self.digest(), version)
        cache = cache_dir / f"plan-{_file_safe(version)}.json" if cache_dir is not None else None
        runs = _PLANS.get(key)
        if runs is None and cache is not None:
            runs = _read_plan(cache, key)
            if runs is not None:
                _CACHED.add((key, cache))
        if runs is None:
            runs = self._validate_and_plan(version, map_chunks or map)
        _PLANS[key] = runs
        while len(_PLANS) > 1 and sum(map(len, _PLANS.values())) > _PLANS_MAX_RUNS:
            del _PLANS[next(iter(_PLANS))]
        if write_cache and cache is not None and cache_dir.is_dir() and (key, cache) not in _CACHED:
            _write_plan(cache, key, runs)  # replaces a stale plan of another definition
            _CACHED.add((key, cache))
        return runs

    def _validate_and_plan(self, version: str, map_chunks: Callable[..., Iterable]) -> list[PlannedRun]:
        base = self.base_scenario()
        self._resolve(base, "the base scenario" + (" with its --set overrides" if self.fixed else ""))
        base_seed = self.base_seed()
        configs = self.configurations()
        labels_of = [config.labels(self.axes) for config in configs]
        items = [(self.fixed + config.overrides(self.axes),
                  [seed_for(base_seed, rep, self.paired_seeds, labels) for rep in range(self.replications)])
                 for config, labels in zip(configs, labels_of)]
        chunks = [items[i:i + _CHUNK] for i in range(0, len(items), _CHUNK)] or [[]]
        ids: list[list[tuple[int, str]]] = []
        validate = functools.partial(_identities, self.scenario_text, self.scenario_path, version)
        for done, error in map_chunks(validate, chunks):
            ids += done
            if error is not None:
                config = configs[len(ids)]
                self._name_the_axis(base)
                raise CampaignError(f"configuration {config.index} ({config.describe(self.axes)}): {error}")
        runs = []
        pairs: dict[tuple[str, str], tuple[str, str]] = {}
        for rep in range(self.replications):
            for config, per_rep, labels in zip(configs, ids, labels_of):
                seed, run_id = per_rep[rep]
                runs.append(PlannedRun(config.index, rep, seed, run_id,
                                       _shared_pairs(pairs, self.fixed + config.overrides(self.axes)), labels))
        return runs

    def _name_the_axis(self, base: Scenario) -> None:
        """A configuration failed: raise the error of the first axis value invalid on its own."""
        for axis in self.axes:
            for value in (v for v in axis.values if v.override is not None):
                self._resolve(base.set(axis.key, value.override), f"axis {shown(axis.key, 80, quote=False)}, "
                                                                  f"value {shown(value.label)}")

    @staticmethod
    def _resolve(scenario: Scenario, what: str) -> dict:
        try:
            return scenario.resolved()
        except ScenarioError as err:
            raise CampaignError(f"{what}: {err}") from None

    def metric_selected(self, column: str) -> bool:
        return not self.metrics or any(fnmatch.fnmatchcase(column, pattern) for pattern in self.metrics)

    def describe(self) -> str:
        """One line: scenario, axes and their sizes, replications, seeds."""
        name = Path(self.scenario_path).stem if self.scenario_path else "scenario"
        if self.zip_axes and len(self.axes) > 1:  # one point per value index, not a product
            axes = (f"the zipped axes {', '.join(a.key for a in self.axes)} "
                    f"({counted(len(self.axes[0].values), 'point')})")
        else:
            axes = " x ".join(f"{a.key} ({counted(len(a.values), 'value')})" for a in self.axes) or "no axes"
        seeds = "paired seeds" if self.paired_seeds else "unpaired seeds"
        return f"{name}: {axes}, {counted(self.replications, 'replication')}, {seeds}"


def _read_scenario(path: str | os.PathLike[str]) -> str:
    from ..scenario import read_scenario_text

    return read_scenario_text(path)  # one-line errors: missing, unreadable, not UTF-8


def _expect(data: dict, key: str, kind: type, default: Any, origin: str) -> Any:
    value = data.get(key, default)
    if value is default:
        return value
    if kind is int and isinstance(value, bool) or not isinstance(value, kind):
        raise CampaignError(f"{origin}: `{key}` must be a {kind.__name__}, got {shown(value)}")
    return value


def _expect_table(data: dict, key: str, origin: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise CampaignError(f'{origin}: `{key}` must be a table such as [{key}] with "dotted.key" = value lines')
    return value


def _flatten_axes(table: dict, prefix: str = "") -> dict:
    """Accept both ``"flows.bulk.scheme" = [...]`` and the unquoted ``flows.bulk.scheme = [...]``.

    An axis value is a list or a range string, never a table, so a nested table can only
    come from an unquoted dotted key and is flattened back into one.
    """
    flat: dict = {}
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, dict):
            flat.update(_flatten_axes(value, full))
        else:
            flat[full] = value
    return flat


# Plans already computed in this process, keyed by (definition digest, vhsim version), the
# oldest dropped beyond this many runs in all (a reproduction validates every figure's plan
# before running the first; Daniel & Kojo's are 76,815 runs, a few hundred bytes each).
_PLANS: dict[tuple[str, str], list[PlannedRun]] = {}
_PLANS_MAX_RUNS = 200_000
_CHUNK = 500  # configurations validated per task of a parallel plan


def _identities(text: str, path: str | None, version: str, items) -> tuple[list, str | None]:
    """The ``(seed, run id)`` pairs of configurations ``items`` (their overrides and seeds), and
    the error of the first invalid one (None if all are valid); runs in a worker for a parallel
    plan. Each resolved scenario is reduced to its run ids at once: a large campaign's resolved
    scenarios held together took hundreds of MB."""
    out = []
    for overrides, seeds in items:
        try:
            res = Scenario(text, overrides, path).resolved()
        except ScenarioError as err:
            return out, str(err)
        out.append([(seed, run_identity({**res, "seed": seed}, version)) for seed in seeds])
    return out, None
# (key, file) pairs known to hold that plan on disk.
_CACHED: set[tuple[tuple[str, str], Path]] = set()


def forget_plan(spec: CampaignSpec, version: str) -> None:
    """Drop ``spec``'s plan for ``version`` from the in-process memo."""
    _PLANS.pop((spec.digest(), version), None)


def _file_safe(version: str) -> str:
    return "".join(c if c.isalnum() or c in ".-_" else "_" for c in version)


def _shared_pairs(seen: dict[tuple[str, str], tuple[str, str]], pairs) -> tuple[tuple[str, str], ...]:
    """``pairs`` as a tuple of (key, value) pairs met before where equal: the runs of a plan
    repeat the same few pairs, and Daniel & Kojo's 76,815 runs held 49 MB of copies of them."""
    return tuple(seen.setdefault(p, p) for p in pairs)


def _read_plan(path: Path, key: tuple[str, str]) -> list[PlannedRun] | None:
    """The cached plan at ``path`` if it was made for ``key``; None if absent, stale, unreadable
    or damaged (its checksum, :func:`vhsim.atomic.seal`).

    The runs are decoded one at a time, and the runs of one configuration share their overrides
    and labels: decoded whole, Daniel & Kojo's 9,600-run figure took ~50 MB at once to read its
    7.5 MB plan, in the plotting process as in the parent."""
    try:
        raw = path.read_bytes()
        if not atomic.seal_holds(raw):  # damaged (or unsealed): planned again, never trusted
            return None
        text = raw.decode("utf-8")
        del raw
        start = text.index('"runs":[') + len('"runs":[')
        head = json.loads(text[:start] + "]}")
        if [head["digest"], head["vhsim_version"]] != list(key):
            return None
        pairs: dict[tuple[str, str], tuple[str, str]] = {}
        # The overrides and labels of a configuration's runs, once (equal ones are the same object).
        overrides_seen: dict[tuple, tuple] = {}
        labels_seen: dict[tuple, dict[str, str]] = {}
        runs = []
        decode, at = json.JSONDecoder().raw_decode, start
        while text[at] != "]":
            r, at = decode(text, at + (text[at] == ","))
            overrides = _shared_pairs(pairs, ((str(k), str(v)) for k, v in r["overrides"]))
            labels = tuple(r["labels"].items())
            if labels not in labels_seen:
                labels_seen[labels] = dict(labels)
            runs.append(PlannedRun(r["config"], r["rep"], r["seed"], r["run_id"],
                                   overrides_seen.setdefault(overrides, overrides), labels_seen[labels]))
        return runs
    except (OSError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return None


def _write_plan(path: Path, key: tuple[str, str], runs: list[PlannedRun]) -> None:
    data = {"digest": key[0], "vhsim_version": key[1],
            "runs": [{"config": r.config, "rep": r.rep, "seed": r.seed, "run_id": r.run_id,
                      "overrides": [list(kv) for kv in r.overrides], "labels": r.labels} for r in runs]}
    with contextlib.suppress(OSError):  # a cache: failing to write it costs time, not results
        atomic.write_text(path, atomic.seal(json.dumps(data, separators=(",", ":"))))
