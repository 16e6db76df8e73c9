"""The commands that measure the simulator: ``vhsim check`` (against analytic models) and
``vhsim bench`` (speed). Registered on the ``vhsim`` group in :mod:`vhsim.cli`."""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.group("check")
def check_group() -> None:
    """Check the simulator against analytic models.

    \b
    Examples:
      vhsim check pftk               # NewReno vs the PFTK model, 5 seeds x 600 s per loss rate
      vhsim check pftk --scheme sack --seeds 3
    """


@check_group.command("pftk")
@click.option("--scheme", default="newreno", show_default=True, help="Sender preset to check.")
@click.option("--seeds", type=click.IntRange(min=1), default=5, show_default=True,
              help="Replications (seeds 1..N) averaged per loss rate.")
def check_pftk_cmd(scheme: str, seeds: int) -> None:
    """Goodput under Bernoulli loss beside the PFTK and Mathis models (Markdown table).

    One bulk flow over a 100 Mb/s link with 50 ms one-way delay and loss p in
    {0.5%, 1%, 2%, 5%} on the data direction; see vhsim.validation.
    """
    from .validation import pftk_markdown, pftk_table

    click.echo(pftk_markdown(pftk_table(seeds=seeds, scheme=scheme)))


@click.command("bench")
@click.option("--quick", is_flag=True, help="Shorten every scenario to 30 s of simulated time.")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Runs per scenario; the fastest is reported.")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of a table.")
@click.option("--dir", "bench_dir", type=click.Path(file_okay=False, path_type=str), default="benches",
              show_default=True, help="Folder holding the benchmark scenarios.")
@click.option("--campaign", "campaign_instants", type=click.IntRange(min=2), default=None, metavar="N",
              help="Instead: a Daniel & Kojo handover grid of N instants (200 in README), run "
                   "independently, branched, branched with early stop, and through vhsim sweep.")
@click.option("--scale", is_flag=True,
              help="Instead: one shared cell with N = 1 .. 10,000 users (--quick: up to 1,000, 3 s each), two "
                   "shapes, and a 1,000-user handover storm (vhsim.bench_scale).")
def bench_cmd(quick: bool, repeat: int, as_json: bool, bench_dir: str, campaign_instants: int | None,
              scale: bool) -> None:
    """Measure simulator speed on the fixed benchmark scenarios.

    Runs benches/bulk-sack1.toml and benches/bulk-sack1-loss1pct.toml with
    detail=summary and reports, for the fastest of --repeat runs: simulated
    seconds, wall seconds, events, events per wall-second and delivered data
    segments per wall-second.

    \b
    Examples:
      vhsim bench                 # from the repository root
      vhsim bench --quick --repeat 1
      vhsim bench --json > bench.json
      vhsim bench --campaign 200  # runs/s of a 200-instant handover grid
    """
    from . import bench

    if scale:
        # One run per size unless --repeat is given: the sizes take minutes already.
        given = click.get_current_context().get_parameter_source("repeat") != click.core.ParameterSource.DEFAULT
        _bench_scale(quick, repeat if given else 1, as_json)
        return
    if campaign_instants is not None:
        _bench_campaign(campaign_instants, as_json, Path(bench_dir).resolve().parent)
        return

    paths = bench.find_bench_files(bench_dir)
    rows = _bench_with_progress(bench, paths, repeat, quick)
    if as_json:
        payload = {"quick": quick, "repeat": repeat, "environment": bench.environment(),
                   "results": [r.as_dict() for r in rows]}
        click.echo(json.dumps(payload, indent=2))
    else:
        env = bench.environment()
        click.echo(f"vhsim {env['vhsim_version']} | python {env['python']} | {env['system']} "
                   f"{env['machine']} | {env['cpu_count']} CPUs | best of {repeat}"
                   + (" | quick (duration=30s)" if quick else ""))
        click.echo(bench.format_table(rows))


def _bench_scale(quick: bool, repeat: int, as_json: bool) -> None:
    from .bench_scale import SIZES, default_storm, format_scale_table, run_scale

    sizes = [n for n in SIZES if n <= 1000] if quick else list(SIZES)
    rows = run_scale(sizes, repeat=repeat, quick=quick, storm=default_storm(),
                     on_run=lambda m: click.echo(f"bench: {m}", err=True))
    if as_json:
        click.echo(json.dumps({"quick": quick, "repeat": repeat, "results": [r.as_dict() for r in rows]}, indent=2))
    else:
        click.echo(format_scale_table(rows))


def _bench_campaign(instants: int, as_json: bool, root: Path) -> None:
    from .bench_campaign import format_campaign_table, run_campaign_bench

    rows = run_campaign_bench(root, instants, on_step=lambda m: click.echo(f"bench: {m}", err=True))
    if as_json:
        click.echo(json.dumps({"instants": instants, "results": [r.as_dict() for r in rows]}, indent=2))
    else:
        click.echo(format_campaign_table(rows))


def _bench_with_progress(bench, paths, repeat: int, quick: bool):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    total = len(paths) * repeat
    with Progress(TextColumn("[bold]bench[/bold] {task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task(Path(paths[0]).name, total=total)

        def on_run(path: str, index: int) -> None:
            progress.update(task, advance=1, description=Path(path).name)

        return bench.run_bench(paths, repeat=repeat, quick=quick, on_run=on_run)
