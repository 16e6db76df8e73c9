"""The ``vhsim`` command line.

Exit codes scripts can rely on:

* 0 -- success
* 1 -- the simulation failed (SimulationError) or another runtime failure
  (failed runs of a sweep, damaged records found by ``sweep --check``)
* 2 -- bad input: invalid scenario (ScenarioError), a file that cannot be
  read or a folder that cannot be written, bad option (usage error), a
  result that lacks the trace a plot needs, traces or captures over their
  size limit, a campaign over --max-runs
* 130 / 143 -- interrupted by SIGINT (Ctrl-C) / SIGTERM; one line
  ``interrupted`` on stderr

Errors are printed as one line ``error: ...`` on stderr, never a traceback
(``VHSIM_TRACEBACK=1`` shows one for an internal error).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Sequence

import click

from . import __version__
from ._native import ScenarioError, SimulationError
from .errors import PathError
from .wording import counted

EXIT_SIM = 1
EXIT_INPUT = 2

_SET_HELP = (
    "Override a scenario value, KEY=VALUE with a dotted key (repeatable), "
    "e.g. --set links.access.rate=2Mbps --set flows.bulk.scheme=newreno."
)


def _one_line(msg: object) -> str:
    """Squash a possibly multi-line error message into one line.

    Parser errors often come with a source snippet (``1 | rate = ...`` and a
    caret line); those gutter lines are dropped, the rest joined with ``: ``.
    """
    lines = []
    for raw in str(msg).splitlines():
        line = raw.strip()
        if not line:
            continue
        head = line.split("|", 1)[0].strip()
        if "|" in line and (head == "" or head.isdigit()):
            continue  # snippet gutter such as "  |" or "3 | rate = 1"
        if set(line) <= set("^~- "):
            continue
        lines.append(line)
    text = ": ".join(lines) if lines else str(msg).strip()
    return text or "unknown error"


#: Longest error line printed (characters); longer messages are cut in the middle.
MAX_ERROR_LINE = 1000


def _fail(ctx: click.Context, message: object, code: int) -> None:
    line = _one_line(message)
    if len(line) > MAX_ERROR_LINE:
        line = f"{line[: MAX_ERROR_LINE - 200]} ... {line[-150:]}"
    click.echo(f"error: {line}", err=True)
    ctx.exit(code)


def _interrupted(ctx: click.Context, err: BaseException, note: str = "") -> None:
    from .control import exit_code

    click.echo(f"interrupted{': ' + note if note else ''}", err=True)
    ctx.exit(exit_code(err))


def _os_error(err: OSError) -> str:
    """``cannot write out/x: Permission denied`` rather than ``[Errno 13] Permission denied: ...``."""
    if err.strerror and err.filename is not None:
        target = os.fsdecode(err.filename) if isinstance(err.filename, bytes) else str(err.filename)
        return f"{target}: {err.strerror}"
    return str(err) or type(err).__name__


class _Group(click.Group):
    """Click group that turns vhsim errors into one-line messages + exit codes."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        from .control import signal_handlers
        from .plots import MissingTraceError

        try:
            with signal_handlers():
                return super().invoke(ctx)
        except KeyboardInterrupt as err:  # Ctrl-C or SIGTERM (control.Interrupted)
            _interrupted(ctx, err)
        except ScenarioError as err:
            _fail(ctx, err, EXIT_INPUT)
        except SimulationError as err:
            _fail(ctx, f"simulation failed: {err}", EXIT_SIM)
        except MissingTraceError as err:
            _fail(ctx, err, EXIT_INPUT)
        except BrokenPipeError:
            # Output piped into e.g. `head`, which stopped reading: not an error worth a message.
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            ctx.exit(141)
        except OSError as err:  # unreadable input or unwritable output path: bad input
            _fail(ctx, _os_error(err), EXIT_INPUT)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except Exception as err:  # noqa: BLE001 - never a traceback for the user
            if isinstance(err, ValueError) and "embedded null byte" in str(err):  # a path option (from Python)
                _fail(ctx, "a file or folder name holds a NUL character, which no path can hold", EXIT_INPUT)
            if os.environ.get("VHSIM_TRACEBACK"):
                raise
            _fail(ctx, f"internal error ({type(err).__name__}: {err}); please report it "
                       "(VHSIM_TRACEBACK=1 shows the traceback)", EXIT_SIM)


def _parse_sets(ctx: click.Context, param: click.Parameter, values: Sequence[str]) -> list[tuple[str, str]]:
    out = []
    for item in values:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            shown = repr(item) if len(item) <= 60 else f"{item[:40]!r}... ({len(item)} characters)"
            raise click.BadParameter(
                f"{shown} is not KEY=VALUE (e.g. --set links.access.rate=2Mbps)", ctx=ctx, param=param
            )
        out.append((key.strip(), value.strip()))
    return out


def _set_option(f):
    return click.option(
        "--set", "overrides", metavar="KEY=VALUE", multiple=True, callback=_parse_sets, help=_SET_HELP
    )(f)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [str(r[0]).ljust(widths[0])] + [str(c).rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} \u00b5s"


def _load(path: str, overrides: Sequence[tuple[str, str]]):
    from .scenario import load

    return load(path, overrides)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(__version__, "-V", "--version", prog_name="vhsim", message="%(prog)s %(version)s")
def cli() -> None:
    """vhsim: packet-level simulation of TCP across vertical handovers.

    \b
    Typical session:
      vhsim schemes                                   # which TCP/SCTP variants exist
      vhsim validate scenarios/examples/bulk-3g.toml  # check a scenario file
      vhsim run scenarios/examples/bulk-3g.toml --detail packets --out out/q
      vhsim plot out/q                                # writes out/q/overview.png

    Run `vhsim COMMAND --help` for the options of each command.  Exit codes:
    0 ok, 1 simulation failed, 2 bad input (scenario, file, option).
    """


# --------------------------------------------------------------------------- run
@cli.command("run")
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=str))
@_set_option
@click.option("--seed", type=click.IntRange(min=0, max=2**64 - 1), default=None,
              help="Random seed (default: the scenario's `seed`).")
@click.option("--detail", type=click.Choice(["summary", "timeseries", "packets"]), default=None,
              help="How much to record: summary (goodput only), timeseries (+ cwnd, RTT, state), "
                   "packets (+ every packet event). Default: the scenario's output.detail.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Folder for summary.json and <table>.parquet (default: out/<scenario file stem>).")
@click.option("--trace-window", metavar="START..END", default=None,
              help="Record trace rows only in this window of simulated time, e.g. 295s..320s "
                   "(either side may be left out: 295s.., ..20s).")
@click.option("--trace-flow", "trace_flows", metavar="NAME", multiple=True,
              help="Record trace rows of this flow only (repeatable).")
@click.option("--trace-link", "trace_links", metavar="NAME", multiple=True,
              help="Record packet rows on this link only: a link name (both directions) or one "
                   "direction such as access/forward (repeatable).")
@click.option("--trace-event", "trace_events", metavar="KIND", multiple=True,
              help="Record packet rows of this kind only: send, retransmit, receive, ack_send, "
                   "ack_receive, drop, ack_drop (repeatable).")
@click.option("--trace-limit", metavar="SIZE", default="1GB", show_default=True,
              help="Refuse a run whose traces are estimated above SIZE (e.g. 500MB, 4GB; 'none': no limit).")
@click.option("--pcap-limit", metavar="SIZE", default="1GB", show_default=True,
              help="Refuse a run whose packet captures are estimated above SIZE on disk ('none': no limit).")
@click.option("--pcap", "pcap", metavar="LINK[,LINK]", multiple=True,
              help="Capture link directions as <out>/<link>-<direction>.pcap for Wireshark "
                   "(repeatable; e.g. access/forward, access for both directions, all); "
                   "adds to the scenario's output.pcap. See docs/pcap.md.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the output folder; no progress or notes.")
def run_cmd(scenario: str, overrides, seed, detail, out_dir, trace_window, trace_flows, trace_links,
            trace_events, trace_limit, pcap_limit, pcap, quiet) -> None:
    """Run one simulation of SCENARIO (a TOML file) and save the result.

    Writes summary.json plus one Parquet file per trace table (goodput,
    timeseries, packets -- depending on --detail) and prints per-flow goodput,
    retransmissions, RTOs and how many of them were spurious.

    Before the run, the size of its traces is estimated from the detail, the
    duration and the link rates; a run above --trace-limit is refused (use the
    --trace-* filters, a lower --detail, or a higher limit), and so is one whose
    packet captures would exceed --pcap-limit.  A long run shows
    its progress on stderr when that is a terminal; Ctrl-C stops it (exit 130)
    and saves nothing.

    \b
    Examples:
      vhsim run scenarios/examples/bulk-3g.toml
      vhsim run scenarios/examples/bulk-3g.toml --seed 7 --detail packets --out out/s7
      vhsim run my.toml --set duration=30s --set flows.bulk.scheme=newreno
      vhsim run long.toml --detail packets --trace-window 295s..320s --trace-event retransmit
      vhsim run scenarios/danielkojo/fig08-mbb.toml --pcap cn_r/forward,fast
    """
    from . import tracesize
    from .pcap import split_links
    from .result import SUMMARY_FILE
    from .runview import RunProgress

    sc = _load(scenario, overrides)
    filters = dict(trace_window=trace_window, trace_flows=list(trace_flows), trace_links=list(trace_links),
                   trace_events=list(trace_events))
    est = tracesize.estimate(sc, detail, trace_window=trace_window, trace_flows=trace_flows,
                             trace_events=trace_events)
    refusal = tracesize.check(est, tracesize.parse_size(trace_limit))
    pcap_links, snaplen = tracesize.capture_links(sc, split_links(pcap))
    pcap_bytes = tracesize.capture_bytes(est, pcap_links, snaplen)
    refusal = refusal or tracesize.check_captures(pcap_bytes, pcap_links, tracesize.parse_size(pcap_limit, "pcap_limit"))
    if refusal:
        raise ScenarioError(refusal)
    note = tracesize.describe_long(est)
    if note and not quiet:
        click.echo(f"note: {note}", err=True)
    out = Path(out_dir) if out_dir else Path("out") / Path(scenario).stem
    (out / SUMMARY_FILE).unlink(missing_ok=True)  # the folder no longer holds a complete result
    with RunProgress(enabled=False if quiet else None) as progress:
        result = sc.run(seed=seed, detail=detail, progress=progress, pcap_dir=out, pcap=split_links(pcap),
                        pcap_key="--pcap", **filters)
    try:
        result.save(out)
    except PathError as err:  # named by the option here, not by save()'s argument
        raise PathError(f"--out: {str(err).removeprefix('directory: ')}") from None
    if quiet:
        click.echo(os.fspath(out))
        return
    _print_run(result, out)


def _print_aggregate(s: dict) -> None:
    """Figures over all flows (summary.json's `aggregate`), for runs with many."""
    a = s.get("aggregate") or {}
    g = a.get("goodput_kbps") or {}
    click.echo(f"{counted(int(a.get('flows', 0)), 'flow')}: {float(a.get('total_goodput_kbps', 0)) / 1000:.3f} Mb/s in all, "
               f"Jain's index {float(a.get('jain_index', 1)):.3f}, goodput per flow median {float(g.get('p50', 0)):.1f} "
               f"kb/s (5% {float(g.get('p5', 0)):.1f}, 95% {float(g.get('p95', 0)):.1f})")
    i = a.get("interruption_s")
    if i:
        click.echo(f"{i['n']} handover interruptions: median {i['p50']:.3f} s, 95% {i['p95']:.3f} s, "
                   f"longest {i['max']:.3f} s")


#: The per-flow table `vhsim run` prints (docs/cli.md explains each column).  "fast recoveries":
#: loss-recovery episodes entered on duplicate ACKs (TCP's fast retransmits; one episode may
#: resend several segments) or SACK gap reports (SCTP's fast recoveries; one may resend several
#: chunks); every resent segment or chunk is in "retx".  "drops": the flow's packets dropped,
#: data and ACKs (the time-sequence plot marks the data drops only).
RUN_COLUMNS = ["flow", "goodput kbps", "retx", "spurious retx", "RTOs", "spurious RTOs", "fast recoveries",
               "drops (data+ACK)"]


def _from_table_row(row: dict) -> dict:
    """A row of ``Result.flows`` as the flow figures :func:`_print_run` reads: its counts as
    integers, its ``drops_<cause>`` columns as ``drops``; figures the flow lacks (NaN) left out."""
    out: dict = {"drops": {}}
    for key, value in row.items():
        if isinstance(value, float) and value != value:
            continue
        if isinstance(value, float) and value.is_integer() and key != "goodput_kbps":
            value = int(value)
        if key.startswith("drops_"):
            out["drops"][key.removeprefix("drops_")] = value
        else:
            out[key] = value
    return out


def _print_run(result, out: Path) -> None:
    s = result.summary
    click.echo(
        f"vhsim {s.get('vhsim_version', __version__)} | scenario {s.get('scenario')} | seed {s.get('seed')} | "
        f"{float(s.get('sim_s', 0)):.1f} s simulated in {_duration(float(s.get('wall_s', 0)))} "
        f"({int(s.get('events', 0)):,} events)"
    )
    from .result import flow_figures

    flows = s.get("flows", {})
    n_flows = len(flows) or len(result.flow_names)
    shown_flows = 10 if n_flows > 20 else n_flows
    if n_flows > 20:
        _print_aggregate(s)
    if flows:
        figures = [(name, flow_figures(f)) for name, f in list(flows.items())[:shown_flows]]
    else:  # a run of many flows: its per-flow figures are in its table (Result.flows)
        head = result.flows.head(shown_flows).to_dict("index")
        figures = [(name, _from_table_row(row)) for name, row in head.items()]
    rows = []
    for name, f in figures:
        drops = sum(int(v) for v in (f.get("drops") or {}).values())
        rows.append([
            name,
            f"{float(f.get('goodput_kbps', 0)):.1f}",
            f"{f.get('retransmissions', 0)}",
            f"{f.get('spurious_retransmissions', 0)}",
            f"{f.get('rto_count', 0)}",
            f"{f.get('spurious_rto_count', 0)}",
            f"{f.get('fast_retransmits', f.get('fast_recoveries', 0))}",
            f"{drops}",
        ])
    click.echo(_table(RUN_COLUMNS, rows))
    if n_flows > len(rows):
        click.echo(f"(the first {len(rows)} of {n_flows} flows)")
    files = ["summary.json"] + [f"{t}.parquet" for t in result.tables]
    files += [f"{t}.parquet" for t in result.entity_tables()]
    files += [f"{c.path.name} ({counted(c.packets, 'packet')})" for c in result.captures]
    click.echo(f"wrote {out}/ ({', '.join(files)})")


# -------------------------------------------------------------------------- plot
@cli.command("plot")
@click.argument("result_dirs", metavar="RESULT_DIR...", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=str))
@click.option("--flow", default=None, help="Flow to plot (default: the first flow).")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="PNG file to write (default: RESULT_DIR/overview.png, with several results the first's).")
@click.option("--title", "titles", multiple=True,
              help="Column title, once per RESULT_DIR (default: the flow's scheme and figures).")
@click.option("--population", is_flag=True,
              help="Plot all flows instead: goodput of all flows over time, CDFs of per-flow goodput and of "
                   "handover interruptions (default file RESULT_DIR/population.png).")
def plot_cmd(result_dirs: tuple[str, ...], flow, out_file, titles, population) -> None:
    """Plot saved results: time-sequence graph and cwnd/ssthresh, one PNG.

    The upper panel shows the sequence number of each sent segment over time,
    with retransmissions (spurious ones in a different colour), drops and
    timeouts (RTO) marked; it needs a run with --detail packets.  The lower
    panel shows cwnd and ssthresh; it needs --detail timeseries or packets.
    Handovers are shaded and named above each panel.  Several RESULT_DIRs are
    drawn side by side on the same axes, e.g. two schemes on one scenario.

    \b
    Examples:
      vhsim run scenarios/examples/bulk-3g.toml --detail packets --out out/q
      vhsim plot out/q
      vhsim plot out/q --flow bulk --out figures/bulk.png
      vhsim plot out/sack out/enhanced --out out/compare.png
      vhsim plot out/storm --population
    """
    from . import plots
    from .result import read_result

    results = [read_result(d) for d in result_dirs]
    if population:
        from .plots_population import population as plot_population

        if len(results) > 1 or flow or titles:
            raise click.UsageError("--population plots one result, all its flows (no --flow or --title)")
        out = Path(out_file) if out_file else Path(result_dirs[0]) / "population.png"
        plot_population(results[0], out)
        click.echo(f"wrote {out}")
        return
    try:
        flow = plots.pick_flow(results[0], flow)
        for r in results[1:]:
            plots.pick_flow(r, flow)
    except ValueError as err:
        raise click.BadParameter(str(err), param_hint="--flow") from None
    out = Path(out_file) if out_file else Path(result_dirs[0]) / "overview.png"
    info = plots.overview(results if len(results) > 1 else results[0], out, flow=flow, titles=titles or None)
    for table in info["missing"]:
        need = "packets" if table == "packets" else "timeseries"
        panel = "time-sequence graph" if table == "packets" else "cwnd panel"
        click.echo(f"warning: result has no '{table}' trace, {panel} left empty "
                   f"(rerun with --detail {need})", err=True)
    click.echo(f"wrote {out}")


# ----------------------------------------------------------------------- schemes
@cli.command("schemes")
@click.option("--show", "show", metavar="NAME", default=None,
              help="Print the resolved composition of TCP preset NAME (its full [tcp] and [sink] tables).")
@click.option("--defaults", "defaults", type=click.Choice(["rfc", "ns-2.35"]), default="rfc", show_default=True,
              help="With --show: the set of defaults under the preset (a scenario's top-level `defaults` key): "
                   "the RFCs' values or ns-2.35's.")
def schemes_cmd(show: str | None, defaults: str) -> None:
    """List the scheme presets, one per line: name, protocol, description and, for TCP, the
    source (paper and section).

    Use a name as a flow's `scheme`, e.g. --set flows.bulk.scheme=newreno (a TCP flow) or
    --set flows.assoc.scheme=sctp (a flow with protocol = "sctp"); any key of the
    composition --show prints can be overridden in a TCP flow's [tcp] / [sink] tables.

    \b
    Examples:
      vhsim schemes
      vhsim schemes --show dcr-frto-ld
      vhsim schemes --show sack --defaults ns-2.35
    """
    from . import _native, scheme

    if show is not None:
        try:
            click.echo(scheme(show, defaults)["toml"], nl=False)
        except ScenarioError as err:
            raise click.BadParameter(str(err), param_hint="--show") from None
        return
    items = _native.schemes()
    width = max((len(n) for n, _, _ in items), default=0)
    for name, desc, protocol in items:
        source = f" [{scheme(name)['source']}]" if protocol == "tcp" else ""
        click.echo(f"{name.ljust(width)}  {protocol.ljust(4)}  {desc}{source}".rstrip())


# ---------------------------------------------------------------------- validate
#: What `validate --show` says about the numbers of the resolved scenario.
RESOLVED_UNITS = ("resolved scenario in the core's units: times and durations in nanoseconds (duration "
                  "60000000000 = 60 s), rates in bit/s, sizes in bytes; nodes, links and addresses as indices")


@cli.command("validate")
@click.argument("scenario", type=click.Path(dir_okay=False, path_type=str))
@_set_option
@click.option("--show", is_flag=True,
              help="Also print the fully resolved scenario as JSON, in the core's units: times and durations in "
                   "nanoseconds, rates in bit/s, sizes in bytes (a note on stderr says so).")
def validate_cmd(scenario: str, overrides, show: bool) -> None:
    """Check SCENARIO (with any --set overrides) without running it.

    Prints "ok" (exit 0) or one line "error: <file>: <key>: <problem>" on
    stderr (exit 2).  With --show, the resolved scenario follows as JSON in the
    core's units: times and durations are integer nanoseconds ("duration":
    60000000000 is 60 s), rates bit/s, queue and packet sizes bytes or packets as
    named; nodes, links and addresses are indices.  A flow's [tcp] and [sink]
    tables keep the units they are written with ("200ms").

    \b
    Examples:
      vhsim validate scenarios/examples/bulk-3g.toml
      vhsim validate my.toml --set links.access.rate=2Mbps --show
    """
    sc = _load(scenario, overrides)
    resolved = sc.resolved_json()
    click.echo("ok")
    if show:
        click.echo(f"note: {RESOLVED_UNITS}", err=True)
        click.echo(json.dumps(json.loads(resolved), indent=2))


# ------------------------------------------------------------------------ schema
@cli.command("schema")
@click.option("--out", "out_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write to this file instead of stdout.")
@click.option("--summary", is_flag=True, help="The schema of summary.json instead of the scenario format.")
def schema_cmd(out_file, summary: bool) -> None:
    """Print the JSON Schema of the scenario TOML format (or of summary.json).

    Editors with TOML + JSON Schema support (e.g. Taplo / Even Better TOML)
    can use it for completion and checking. The summary schema is where the
    campaign metric names come from (vhsim.metrics).

    \b
    Examples:
      vhsim schema > scenario.schema.json
      vhsim schema --out docs/scenario.schema.json
      vhsim schema --summary --out docs/summary.schema.json
    """
    from . import _native, json_schema

    raw = _native.summary_schema() if summary else json_schema()
    text = json.dumps(json.loads(raw), indent=2) + "\n"
    if out_file:
        from .atomic import write_text

        Path(out_file).parent.mkdir(parents=True, exist_ok=True)
        write_text(out_file, text)
        click.echo(f"wrote {out_file}", err=True)
    else:
        click.echo(text, nl=False)


# ------------------------------------------------------------------ fingerprints
@cli.command("fingerprints")
@click.option("--update", is_flag=True, help="Rewrite the store with the fingerprints of this build.")
@click.option("--store", "store", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Store file (default: tests/fingerprints.tsv under --root).")
@click.option("--root", type=click.Path(file_okay=False, exists=True, path_type=str), default=".",
              show_default=True, help="Repository root holding scenarios/ and benches/.")
@click.pass_context
def fingerprints_cmd(ctx: click.Context, update: bool, store, root: str) -> None:
    """Check (or rewrite) the fingerprints of every shipped scenario and preset.

    Each case (a scenario file, or a preset on one of a few scenarios) runs with
    seed 1 at packets detail; its packet trace, time series and summary figures
    are hashed and compared with the store. Exit 0 if nothing moved, 1 naming
    every case that moved, is missing or is stale. A commit that moves a
    fingerprint names the case and why, and updates the store (--update).

    \b
    Examples:
      vhsim fingerprints             # check
      vhsim fingerprints --update    # rewrite tests/fingerprints.tsv
    """
    from . import fingerprints as fp

    base = Path(root)
    path = Path(store) if store else base / fp.STORE
    try:
        report = fp.check(base, path)
    except ScenarioError as err:
        if not update or not str(err).startswith(f"{path}: not a fingerprint store"):
            raise
        click.echo(f"warning: {_one_line(err)}", err=True)  # --update replaces it
        report = fp.check(base, None)
    for line in report.lines():
        click.echo(line)
    if update:
        fp.write_store(path, report.computed)
        click.echo(f"wrote {path} ({len(report.computed)} cases)")
        return
    if not report.ok:
        ctx.exit(EXIT_SIM)
    click.echo(f"ok: {len(report.computed)} cases unchanged")


# ------------------------------------------------------------------ check, bench
from .cli_measure import bench_cmd, check_group  # noqa: E402 - the measuring commands, in their own file

cli.add_command(check_group)
cli.add_command(bench_cmd)
from .cli_matrix import matrix_cmd  # noqa: E402 - the scheme x scenario matrix, in its own file

cli.add_command(matrix_cmd)


# ------------------------------------------------------------------------- sweep
def _campaign_fail(ctx: click.Context, err: Exception) -> None:
    """Campaign input errors are bad input (exit 2), reported like scenario errors."""
    _fail(ctx, err, EXIT_INPUT)


from .cli_campaign import export_cmd, sweep_cmd  # noqa: E402 - the campaign commands, in their own file

cli.add_command(sweep_cmd)
cli.add_command(export_cmd)


# --------------------------------------------------------------------- reproduce
def _check_reproduce_names(paper: str, figure: str | None) -> None:
    """CampaignError for a paper or figure the registry does not have, quoting the name cut to
    a readable length (issue #27: a pasted name was echoed whole)."""
    from .campaign import CampaignError
    from .campaign.reproduce import papers
    from .errors import shown

    registry = papers()
    if paper not in registry:
        raise CampaignError(f"no paper {shown(paper)} registered (papers: {', '.join(registry) or 'none'})")
    ids = [f.id for f in registry[paper].figures]
    if figure is not None and figure not in ids:
        raise CampaignError(f"paper {paper} has no figure {shown(figure)} (figures: {', '.join(ids)})")


@cli.command("reproduce")
@click.argument("paper", required=False)
@click.option("--figure", "figure", metavar="ID", default=None, help="Only this figure (default: all).")
@click.option("--quick", is_flag=True, help="Reduced campaigns (fewer replications and points), for CI.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Output folder (default: out/reproduce/PAPER, or out/reproduce/PAPER-quick).")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--dask", "dask_address", metavar="ADDRESS|local", default=None, help="Run on a Dask cluster.")
@click.option("--rerun-other-versions", is_flag=True, help="Redo campaigns stored by another vhsim version.")
@click.option("--progress/--no-progress", default=None, help="Progress bars (default: on a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bars (same as --no-progress).")
@click.option("--list", "list_papers", is_flag=True, help="List registered papers and their figures.")
@click.option("--robustness", "robustness", metavar="N", type=click.IntRange(min=1), default=None,
              help="Also run every figure as N perturbed variants (the paper's declared perturbation) and label "
                   "each verdict robust / fragile / flips.")
@click.option("--ambiguities", is_flag=True,
              help="Also judge every claim under each alternative reading the paper leaves open (one at a time) "
                   "and mark the verdicts that depend on one.")
@click.pass_context
def reproduce_cmd(ctx: click.Context, paper, figure, quick, out_dir, workers, dask_address, rerun_other_versions,
                  progress, quiet, list_papers, robustness, ambiguities) -> None:
    """Reproduce a paper's figures: run their campaigns, plot, and write report.md.

    The report sets each of the paper's claims beside our numbers, with a
    computed verdict (holds / does not hold / not checkable), and counts
    calibrations and consistency tests apart.  Campaign folders are kept under
    OUT/<figure>/campaign and resumed on the next call.

    --robustness N reruns each figure on N variants (variant k: every link
    delay within +-5%, flow starts shifted, a seed of its own, as the paper
    module declares; drawn from a named seed, so always the same) into
    OUT/robustness/variant-k/, and labels each verdict "robust" (the same in
    >= 90% of the variants), "fragile" (k of N) or "flips" (fewer than half).
    --ambiguities reruns each figure under each alternative reading the
    paper leaves open (OUT/ambiguities/NAME/) and marks the verdicts that
    change. Both add columns and sections to report.md and write
    OUT/robustness.csv|md and OUT/ambiguities.csv|md. Opt-in: a plain run
    is unchanged; with --robustness N the campaigns cost N+1 times as much.

    \b
    Examples:
      vhsim reproduce --list
      vhsim reproduce demo --quick            # about 10 s; out/reproduce/demo-quick/report.md
      vhsim reproduce demo --workers 2 --out out/demo
      vhsim reproduce sobral --quick --robustness 3 --ambiguities
      vhsim reproduce kimkoh --robustness 5 --figure fig12   # one figure, 5 variants
    """
    from .campaign import CampaignError
    from .campaign.reproduce import counts_line, papers, reproduce

    progress = False if quiet else progress

    if list_papers:
        for name, p in papers().items():
            click.echo(f"{name}  {p.title}")
            for fig in p.figures:
                click.echo(f"  --figure {fig.id}  {fig.title}")
        return
    if not paper:
        raise click.UsageError("name a PAPER (see vhsim reproduce --list)")
    try:
        _check_reproduce_names(paper, figure)
        outcome = reproduce(paper, figure, quick=quick, out=out_dir, workers=workers, dask=dask_address,
                            progress=progress, rerun_other_versions=rerun_other_versions,
                            on_figure=lambda f: click.echo(f"figure {f.id}: {f.title}", err=True),
                            robustness=robustness or 0, ambiguities=ambiguities,
                            on_variant=lambda text: click.echo(text, err=True),
                            on_workers_started=_return_large_blocks)
    except CampaignError as err:
        _campaign_fail(ctx, err)
        return
    ens = outcome.ensemble
    for fig in outcome.figures:
        click.echo(f"{fig.figure.id}: {fig.sweep.line()}")
        notes = ens.summaries(fig.figure.id) if ens is not None else []
        for i, verdict in enumerate(fig.verdicts):
            # Each line names its figure: the same statement can be judged under several figures.
            click.echo(f"  [{fig.figure.id}] {verdict.status}: {verdict.claim.text}"
                       + (f"  [{notes[i]}]" if notes and notes[i] else ""))
        for path in fig.files:
            click.echo(f"  wrote {path}")
    if ens is not None:
        click.echo(ens.counts_line() + "; " + ", ".join(str(p) for p in ens.files))
    click.echo(f"{counts_line(outcome.verdicts)}; report: {outcome.report}")
    if outcome.failed_runs:
        _fail(ctx, f"{counted(outcome.failed_runs, 'run')} failed; see the campaigns' failures/ folders", EXIT_SIM)


#: Arrow's allocator (mimalloc, which reads these when pyarrow loads) gives freed memory back to
#: the system at once instead of keeping it for reuse: a process that reads many runs' traces
#: (`vhsim reproduce`'s parent) otherwise holds ~50-80 MB more (issue #28; docs/performance.md
#: "The reproductions' parent process"). A value set in the environment wins.
ARROW_ALLOCATOR_ENV = {"MIMALLOC_ARENA_EAGER_COMMIT": "0", "MIMALLOC_PURGE_DELAY": "0"}
#: glibc's M_MMAP_THRESHOLD (mallopt parameter -3) and the value `vhsim reproduce` fixes it at.
_M_MMAP_THRESHOLD, _LARGE_BLOCK = -3, 128 * 1024


def _return_large_blocks() -> None:
    """Have glibc serve every block of 128 KiB or more by its own mapping, given back when freed.

    By default glibc raises that threshold to the size of each large block freed (up to 32 MB),
    so the trace arrays a reproduction's parent receives from its workers, reads and plots
    (1-8 MB each) soon come from the heap, which keeps the freed ones (issue #28: ~30-90 MB of
    the parent's peak; the plotting process's result tables, ~40 MB of its peak). Set in the
    parent and its plotting process only, once the workers run: in the workers, whose
    runs allocate and free many large blocks, a mapping per block made Daniel & Kojo's full
    reproduction 12% slower (146 s against 129 s, idle machine). Elsewhere (not glibc) nothing
    changes."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, _LARGE_BLOCK)


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point (``vhsim``)."""
    for key, value in ARROW_ALLOCATOR_ENV.items():
        os.environ.setdefault(key, value)
    cli.main(args=list(argv) if argv is not None else None, prog_name="vhsim")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
