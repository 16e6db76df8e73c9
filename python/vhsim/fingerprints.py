"""Fingerprints of shipped scenarios: the safety net of refactors.

A fingerprint is three hashes of one run at ``packets`` detail (crates/vhsim-sim
``fingerprint.rs``): the packet trace (time, event, flow, sequence, link, cause, label of
every row), the time series, and the summary's simulation figures (no wall time, no event
count). The store ``tests/fingerprints.tsv`` holds one row per case:

* every shipped scenario (``scenarios/**/*.toml``, ``benches/*.toml``) as it is;
* every sender preset on a few scenarios of its protocol that exercise handovers, loss and
  reordering (``PRESET_SCENARIOS``), so a refactor of any preset's code is covered.

All cases run with seed ``SEED``. ``tests/test_fingerprints.py`` recomputes the store and fails
naming every case whose fingerprint moved; ``vhsim fingerprints --update`` rewrites it. A commit
that moves a fingerprint names the case and the reason in its message.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

from . import _native
from ._native import ScenarioError
from .errors import shown
from .wording import counted

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

SEED = 1
STORE = Path("tests") / "fingerprints.tsv"
SCENARIO_DIRS = ("scenarios", "benches")
#: Scenarios every preset of a protocol runs on, with the overrides that keep the runs short.
PRESET_SCENARIOS: dict[str, tuple[tuple[str, tuple[tuple[str, str], ...]], ...]] = {
    "tcp": (
        ("scenarios/danielkojo/fig08-mbb.toml", ()),
        ("scenarios/limjang/wlan-to-3g.toml", ()),
        ("benches/bulk-sack1-loss1pct.toml", (("duration", "30s"),)),
    ),
    "sctp": (
        ("scenarios/examples/sctp-failover.toml", (("duration", "60s"),)),
        ("scenarios/examples/bulk-sctp.toml", (("links.access.forward.error", '{ kind = "bernoulli", p = 0.01 }'),)),
    ),
}
#: bulk-sack1's 6.4 Mb/s access link, both ways, as a constant trace read as a rate per ms.
CONSTANT_TRACE_SETS: tuple[tuple[str, str], ...] = tuple(
    (f"links.access.{d}.trace", '{ shipped = "constant", opportunity_size = "800B", delivery = "spread" }')
    for d in ("forward", "reverse"))
#: Options no shipped scenario or preset sets by default, each on a scenario where it acts.
OPTION_CASES: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    ("scenarios/sobral/cbr-user-handover.toml", (("flows.cbr.tcp.recovery.timer", "slow_but_steady"),)),
    ("scenarios/sobral/cbr-user-handover.toml", (("flows.cbr.app", '{ kind = "cbr", interval = "2ms" }'),
                                                  ("flows.cbr.tcp.max_burst", "4"))),
    ("scenarios/danielkojo/fig08-bbm.toml", (("flows.*.sink.delayed_ack", "true"),
                                              ("flows.*.tcp.rtt_timing", "every_ack"))),
    ("scenarios/limjang/wlan-to-3g.toml", (("flows.*.scheme", "dcr-frto-ld"),
                                            ("flows.*.tcp.rto_response.variant", "sack"),
                                            ("flows.*.tcp.rto_response.response", "ssthresh"),
                                            ("flows.*.tcp.loss_classifier.k", "3"))),
    ("scenarios/limjang/3g-to-wlan.toml", (("flows.*.scheme", "frto"),
                                            ("flows.*.tcp.rto_response.response", "slow_start"),
                                            ("links.umts.forward.reorder.depth", "3"))),
    ("scenarios/limjang/3g-to-wlan.toml", (("flows.*.scheme", "sack-rfc6675"),
                                            ("flows.*.tcp.limited_transmit", "false"),
                                            ("flows.*.sink.advertised_window", "12pkt"))),
    # The forced handover's other options, ns-2 NewReno's exitFastRetrans_ false and the Delivery
    # Service's other choices (issue #26).
    ("scenarios/sobral/cbr-forced-handover.toml", (("timeline[1].in_flight", "delivered"),
                                                    ("timeline[1].uplink", "at_failure"),
                                                    ("flows.cbr.tcp.recovery.exit_fast_retrans", "false"))),
    ("scenarios/sobral/cbr-forced-handover.toml", (("agents[0].timer", "packet_age"), ("agents[0].buffer", "10kB"),
                                                    ("agents[1].ack_every", "2"),
                                                    ("agents[1].active_mode", "2s"))),
    # Today's TCP options no preset selects: HyStart++ (a buffer deep enough for its delay exit
    # to fire before a loss), PRR-CRB with RACK under deep reordering.
    ("benches/bulk-sack1.toml", (("duration", "10s"), ("links.access.queue", "100pkt"),
                                 ("flows.*.scheme", "cubic"), ("flows.*.tcp.slow_start", "hystart_pp"))),
    ("scenarios/limjang/3g-to-wlan.toml", (("flows.*.scheme", "rack"),
                                            ("flows.*.tcp.recovery.bound", "crb"),
                                            ("links.umts.forward.reorder.depth", "3"))),
    # Recorded link traces (issue #30): a constant trace read as a rate per millisecond is the
    # constant-rate link (tests/test_link_traces.py: the same fingerprint as bulk-sack1 itself), and
    # Mahimahi's burst reading of it.
    ("benches/bulk-sack1.toml", CONSTANT_TRACE_SETS),
    ("benches/bulk-sack1.toml", (("duration", "30s"),
                                 ("links.access.forward.trace", '{ shipped = "constant", opportunity_size = "800B" }'))),
    # The mSCTP schemes on Kim & Koh's scenarios (shipped with the normal scheme).
    ("scenarios/kimkoh/3g-wlan-3g.toml", (("flows.*.scheme", "mt-msctp"),)),
    ("scenarios/kimkoh/3g-wlan-3g.toml", (("flows.*.scheme", "hr-msctp"),)),
    ("scenarios/kimkoh/ping-pong.toml", (("flows.*.scheme", "hr-msctp"),)),
    # The readings of Kim & Koh the scenarios do not pin (issue #25), and RFC 4960's idle reset.
    ("scenarios/kimkoh/3g-wlan-3g.toml", (("flows.*.scheme", "mt-msctp"), ("flows.*.sctp.mt_region", "add_ip"))),
    ("scenarios/kimkoh/ping-pong.toml", (("flows.*.scheme", "hr-msctp"), ("flows.*.sctp.hr_cwnd_reset", "true"),
                                         ("flows.*.sctp.rtx_to_alt", "timeouts_only"))),
    ("scenarios/kimkoh/3g-wlan-3g.toml", (("flows.*.sctp.idle_cwnd_reset", "5s"),
                                          ("flows.*.sctp.set_primary_from", "new"))),
)
COLUMNS = ("scenario", "set", "seed", "packets", "timeseries", "summary")


@dataclass(frozen=True)
class Case:
    """One fingerprinted run: a scenario file, overrides and a seed."""

    scenario: str
    overrides: tuple[tuple[str, str], ...] = ()
    seed: int = SEED

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.scenario, self.set_text, self.seed)

    @property
    def set_text(self) -> str:
        return ";".join(f"{k}={v}" for k, v in self.overrides)

    def label(self) -> str:
        return self.scenario + (f" [{self.set_text}]" if self.overrides else "")


@dataclass(frozen=True)
class Fingerprint:
    packets: str
    timeseries: str
    summary: str

    def differs(self, other: "Fingerprint") -> list[str]:
        """Names of the parts that differ."""
        return [n for n in ("packets", "timeseries", "summary") if getattr(self, n) != getattr(other, n)]


def shipped_scenarios(root: Path) -> list[str]:
    """Every scenario file shipped in the repository, as sorted root-relative POSIX paths."""
    out = []
    for d in SCENARIO_DIRS:
        out += [p.relative_to(root).as_posix() for p in (root / d).rglob("*.toml")]
    return sorted(out)


def cases(root: Path) -> list[Case]:
    """The cases the store must hold, in store order."""
    out = [Case(s) for s in shipped_scenarios(root)]
    for name, _, protocol in _native.schemes():
        for scenario, sets in PRESET_SCENARIOS[protocol]:
            out.append(Case(scenario, (*sets, ("flows.*.scheme", name))))
    out += [Case(scenario, sets) for scenario, sets in OPTION_CASES]
    return out


def compute(root: Path, case: Case) -> Fingerprint:
    """Run ``case`` and fingerprint it. A scenario file that cannot be read or is not valid
    raises :class:`vhsim.ScenarioError` naming it."""
    from .scenario import read_scenario_text

    path = root / case.scenario
    text = read_scenario_text(path)
    try:
        overrides = _expand(text, case.overrides)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{path}: not valid TOML: {err}") from None
    packets, timeseries, summary, _events = _native.fingerprint(text, overrides, case.seed)
    return Fingerprint(packets, timeseries, summary)


def _expand(text: str, overrides: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Expand ``flows.*.KEY`` to every flow of the scenario file."""
    out: list[tuple[str, str]] = []
    for key, value in overrides:
        if key.startswith("flows.*."):
            flows = tomllib.loads(text).get("flows", {})
            out += [(f"flows.{f}.{key[len('flows.*.'):]}", value) for f in flows]
        else:
            out.append((key, value))
    return out


def read_store(path: Path | None) -> dict[tuple[str, str, int], Fingerprint]:
    """The stored fingerprints by case key (none without a ``path``). A file that is not a store
    written by :func:`write_store` raises :class:`vhsim.ScenarioError` naming it and the row."""
    if path is None or not path.exists():
        return {}
    line = 0
    try:
        with path.open(newline="", encoding="utf-8") as fh:
            rows = csv.DictReader((text for text in fh if not text.startswith("#")), delimiter="\t")
            if rows.fieldnames is None or list(rows.fieldnames) != list(COLUMNS):
                raise ValueError(f"its header is not the tab-separated {', '.join(COLUMNS)}")
            out = {}
            for line, r in enumerate(rows, start=2):  # line 1: the header
                if None in r or None in r.values():
                    fields = sum(v is not None for k, v in r.items() if k is not None) + len(r.get(None) or [])
                    raise ValueError(f"{counted(fields, 'field')} instead of {len(COLUMNS)}")
                if not r["seed"].isdigit():
                    raise ValueError(f"seed {shown(r['seed'])} is not a whole number")
                out[(r["scenario"], r["set"], int(r["seed"]))] = Fingerprint(r["packets"], r["timeseries"], r["summary"])
            return out
    except UnicodeDecodeError as err:
        problem = f"not UTF-8 text (byte {err.start})"
    except (ValueError, csv.Error) as err:
        problem = f"row {line - 1}: {err}" if line else str(err)
    except IsADirectoryError:
        problem = "a folder, not a file"
    raise ScenarioError(f"{path}: not a fingerprint store ({shown(problem, 200, quote=False)}); "
                        "`vhsim fingerprints --update` rewrites it")


def write_store(path: Path, rows: Iterable[tuple[Case, Fingerprint]]) -> None:
    """Write the store (header comment, then one tab-separated row per case)."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        fh.write("# vhsim fingerprints: see python/vhsim/fingerprints.py; rewrite with `vhsim fingerprints --update`\n")
        w = csv.writer(fh, delimiter="\t", lineterminator="\n")
        w.writerow(COLUMNS)
        for c, f in rows:
            w.writerow([c.scenario, c.set_text, c.seed, f.packets, f.timeseries, f.summary])


@dataclass
class Report:
    """Outcome of comparing fresh fingerprints with the store."""

    moved: list[tuple[Case, list[str]]]
    missing: list[Case]
    stale: list[tuple[str, str, int]]
    computed: list[tuple[Case, Fingerprint]]

    @property
    def ok(self) -> bool:
        return not (self.moved or self.missing or self.stale)

    def lines(self) -> list[str]:
        out = [f"moved: {c.label()} ({', '.join(parts)})" for c, parts in self.moved]
        out += [f"missing from the store: {c.label()}" for c in self.missing]
        out += [f"in the store but no longer a case: {s} [{o}] seed {seed}" for s, o, seed in self.stale]
        return out


def check(root: Path, store: Path | None, progress: Callable[[Case], None] | None = None) -> Report:
    """Recompute every case and compare with the store (``None``: an empty one)."""
    stored = read_store(store)
    report = Report([], [], [], [])
    wanted = cases(root)
    for c in wanted:
        if progress:
            progress(c)
        fp = compute(root, c)
        report.computed.append((c, fp))
        old = stored.get(c.key)
        if old is None:
            report.missing.append(c)
        elif parts := fp.differs(old):
            report.moved.append((c, parts))
    keys = {c.key for c in wanted}
    report.stale = [k for k in stored if k not in keys]
    return report
