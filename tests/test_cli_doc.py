"""docs/cli.md against the program: its command table lists exactly the commands of `vhsim
--help`, and its column tables list exactly the columns that runs write (issue #31 item 5)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import vhsim
from vhsim import _native
from vhsim.cli import RUN_COLUMNS, cli

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
DEMO = ROOT / "scenarios" / "examples" / "handover-3g-wlan.toml"


def _table_after(marker: str) -> list[list[str]]:
    """The rows (cells) of the first Markdown table after the line starting with ``marker``."""
    lines = DOC.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(marker))
    rows = []
    for line in lines[start if marker.startswith("|") else start + 1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # header and separator


def _names(cell: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", cell))


def _documented_columns(marker: str) -> set[str]:
    return {name for row in _table_after(marker) for name in _names(row[0])}


@pytest.fixture(scope="module")
def demo_run():
    return vhsim.load(DEMO).run(detail="packets")


def test_the_command_table_lists_every_command():
    documented = {re.match(r"`vhsim ([a-z-]+)", row[0]).group(1) for row in _table_after("| command |")}
    assert documented == set(cli.commands), "docs/cli.md's command table against `vhsim --help`"


def test_the_run_table_columns_are_the_ones_vhsim_run_prints():
    documented = [name for row in _table_after("It prints one line per flow") for name in re.findall(r"`([^`]+)`", row[0])]
    assert documented == RUN_COLUMNS[1:]
    assert " ".join(RUN_COLUMNS) in re.sub(r" +", " ", DOC), "the example output shows the real header"


def test_goodput_and_packets_columns_are_documented_exactly(demo_run):
    assert _documented_columns("Columns of `goodput.parquet`") == set(demo_run.trace("goodput").columns)
    assert _documented_columns("Columns of `packets.parquet`") == set(demo_run.trace("packets").columns)
    rows = {row[0]: row[1] for row in _table_after("Columns of `packets.parquet`")}
    assert _names(rows["`event`"]) == set(demo_run.codes["event"]), "every packet event kind named"
    assert _names(rows["`cause`"]) == set(demo_run.codes["cause"]), "every drop cause named"


def test_timeseries_columns_are_documented_exactly(demo_run):
    """Every TCP preset on the demo scenario, HyStart++ and an SCTP association: together they
    trace every variable the core has."""
    runs = [demo_run]
    sc = vhsim.load(DEMO)
    runs += [sc.set("flows.bulk.scheme", name).run(detail="timeseries")
             for name, _, protocol in _native.schemes() if protocol == "tcp"]
    runs.append(sc.with_(flows__bulk__scheme="cubic", flows__bulk__tcp__slow_start="hystart_pp").run(detail="timeseries"))
    runs.append(vhsim.load(ROOT / "scenarios" / "examples" / "bulk-sctp.toml").run(detail="timeseries"))
    written = {c for r in runs for c in r.trace("timeseries").columns}
    assert _documented_columns("| column | traced by |") == written


def test_each_command_section_names_every_option():
    """The section of each command in docs/cli.md mentions each of its long options (an on/off
    pair by either name)."""
    import click

    sections = re.split(r"\n## ", DOC)

    def options(command) -> set[tuple[str, ...]]:
        found = set()
        for param in command.params:
            if isinstance(param, click.Option):
                names = tuple(o for o in [*param.opts, *param.secondary_opts] if o.startswith("--") and o != "--help")
                if names:
                    found.add(names)
        for sub in getattr(command, "commands", {}).values():
            found |= options(sub)
        return found

    for name, command in cli.commands.items():
        section = next((s for s in sections if s.startswith(f"`vhsim {name}`")), None)
        assert section is not None, f"docs/cli.md has no section for `vhsim {name}`"
        missing = [names for names in options(command) if not any(n in section for n in names)]
        assert not missing, f"`vhsim {name}`: options {missing} not in docs/cli.md"
