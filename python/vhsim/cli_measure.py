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
@click.option("--quick", is_flag=True, help="Shorten the bulk scenarios to 30 s of simulated time, the campaign grid to 20 instants.")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Runs per scenario and build; the fastest is reported (README uses 10).")
@click.option("--json", "as_json", is_flag=True, help="Print machine-readable JSON instead of tables.")
@click.option("--root", type=click.Path(file_okay=False, path_type=str), default=".", show_default=True,
              help="Repository root (benches/ and scenarios/ are read from it).")
@click.option("--campaign", "campaign_instants", type=click.IntRange(min=0), default=None, metavar="N",
              help="Handover instants of the campaign benchmark (default 200, 20 with --quick; 0 skips it).")
@click.option("--scenarios/--no-scenarios", default=True, show_default=True,
              help="Run the scenario benchmark (bulk, 1% loss, handover).")
@click.option("--compare", "compare_rev", default=None, metavar="REV",
              help="Also build git revision REV (release profile, in a worktree under target/) and run "
                   "both builds alternately, run by run.")
@click.option("--same-settings", is_flag=True,
              help="With --compare: build REV with this revision's LTO and codegen-unit settings.")
@click.option("--scale", is_flag=True,
              help="Instead: one shared cell with N = 1 .. 10,000 users (--quick: up to 1,000, 3 s each), two "
                   "shapes, and a 1,000-user handover storm (vhsim.bench_scale).")
def bench_cmd(quick: bool, repeat: int, as_json: bool, root: str, campaign_instants: int | None, scenarios: bool,
              compare_rev: str | None, same_settings: bool, scale: bool) -> None:
    """Measure simulator speed: fixed scenarios and a handover campaign.

    Scenarios (each in a worker process of its own, --repeat runs, the fastest
    reported): benches/bulk-sack1.toml (one bulk TCP flow, 300 s),
    benches/bulk-sack1-loss1pct.toml (the same with 1% loss) and
    scenarios/danielkojo/fig08-mbb.toml (a handover run, 20 s). For each: wall
    seconds, events, events per delivered segment, events and delivered segments
    per wall-second, and the worker's peak resident memory.

    Campaign: Daniel & Kojo's handover grid of N instants run independently,
    branched, branched with early stop, and through vhsim sweep (this build only).

    --scale, instead: one shared cell with N = 1 .. 10,000 users, two shapes, and a
    1,000-user handover storm (vhsim.bench_scale).

    Wall-clock figures depend on the machine's load (printed with them); events
    per segment do not. The native module must be a release build
    (`maturin develop --release`) for the figures to mean anything.

    \b
    Examples:
      vhsim bench                      # from the repository root
      vhsim bench --quick --repeat 1
      vhsim bench --json > bench.json
      vhsim bench --no-scenarios --campaign 200
      vhsim bench --compare c7ebd4a --repeat 10 --campaign 0
      vhsim bench --scale --quick
    """
    from . import bench

    if scale:
        # One run per size unless --repeat is given: the sizes take minutes already.
        given = click.get_current_context().get_parameter_source("repeat") != click.core.ParameterSource.DEFAULT
        _bench_scale(quick, repeat if given else 1, as_json)
        return
    root_path = Path(root).resolve()
    if campaign_instants is None:
        campaign_instants = 20 if quick else 200
    env = bench.environment()
    payload: dict = {"quick": quick, "repeat": repeat, "environment": env}
    if scenarios:
        try:
            bench.find_bench_files(root_path)
        except FileNotFoundError as e:
            raise click.UsageError(str(e)) from None
        builds = [bench.CURRENT]
        if compare_rev is not None:
            from .bench_compare import build_revision

            try:
                builds.append(build_revision(root_path, compare_rev, same_settings,
                                             on_step=lambda m: click.echo(f"bench: {m}", err=True)))
            except RuntimeError as e:
                raise click.ClickException(str(e)) from None
        rows = _bench_with_progress(bench, root_path, repeat, quick, builds)
        payload["builds"] = [b.label for b in builds]
        payload["results"] = [r.as_dict() for r in rows]
        if not as_json:
            load = env["load_average"]
            click.echo(f"vhsim {env['vhsim_version']} | python {env['python']} | {env['system']} "
                       f"{env['machine']} | {env['cpu_count']} CPUs | load {load} | best of {repeat}"
                       + (" | quick" if quick else "") + (" | builds alternate run by run" if len(builds) > 1 else ""))
            click.echo(bench.format_table(rows))
    if campaign_instants:
        payload["campaign"] = _bench_campaign(campaign_instants, as_json, root_path)
    if as_json:
        payload["environment"]["load_average_after"] = bench.environment()["load_average"]
        click.echo(json.dumps(payload, indent=2))


def _bench_scale(quick: bool, repeat: int, as_json: bool) -> None:
    from .bench_scale import SIZES, default_storm, format_scale_table, run_scale

    sizes = [n for n in SIZES if n <= 1000] if quick else list(SIZES)
    rows = run_scale(sizes, repeat=repeat, quick=quick, storm=default_storm(),
                     on_run=lambda m: click.echo(f"bench: {m}", err=True))
    if as_json:
        click.echo(json.dumps({"quick": quick, "repeat": repeat, "results": [r.as_dict() for r in rows]}, indent=2))
    else:
        click.echo(format_scale_table(rows))


def _bench_campaign(instants: int, as_json: bool, root: Path) -> dict:
    from .bench_campaign import format_campaign_table, run_campaign_bench

    rows = run_campaign_bench(root, instants, on_step=lambda m: click.echo(f"bench: {m}", err=True))
    if not as_json:
        click.echo(f"\ncampaign: {instants} handover instants (this build)")
        click.echo(format_campaign_table(rows))
    return {"instants": instants, "results": [r.as_dict() for r in rows]}


def _bench_with_progress(bench, root: Path, repeat: int, quick: bool, builds):
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    total = len(bench.BENCH_CASES) * repeat
    with Progress(TextColumn("[bold]bench[/bold] {task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task(bench.BENCH_CASES[0].label, total=total)

        def on_run(path: str, index: int) -> None:
            progress.update(task, advance=1, description=Path(path).name)

        return bench.run_bench(root, repeat=repeat, quick=quick, builds=builds, on_run=on_run)
