"""``vhsim matrix``: every scheme on each paper's representative handover (docs/matrix.md).
Registered on the ``vhsim`` group in :mod:`vhsim.cli`."""

from __future__ import annotations

import click


def _names(text: str | None) -> list[str] | None:
    return [n.strip() for n in text.split(",") if n.strip()] if text else None


@click.command("matrix")
@click.option("-f", "--file", "matrix_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="The matrix data file (default: the one shipped with vhsim, vhsim/matrix/matrix.toml).")
@click.option("--schemes", metavar="A,B,...", default=None,
              help="Only these presets (each scenario's baseline always runs). Default: every preset.")
@click.option("--scenarios", metavar="A,B,...", default=None, help="Only these entries of the data file.")
@click.option("--metric", "metrics", metavar="NAME", multiple=True,
              help="goodput, interruption, spurious_rtos, spurious_retransmissions (repeatable; default all).")
@click.option("--seeds", type=click.IntRange(min=1), default=None,
              help="Replications of every scenario, replacing the data file's.")
@click.option("--robust", is_flag=True, help="Also run each scenario's robustness variant, beside it.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False, path_type=str), default="out/matrix",
              show_default=True, help="Output folder: matrix.md, cells.csv, heat maps, campaigns/.")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores).")
@click.option("--dask", "dask_address", metavar="ADDRESS|local", default=None, help="Run on a Dask cluster.")
@click.option("--rerun-other-versions", is_flag=True, help="Redo campaigns stored by another vhsim version.")
@click.option("--progress/--no-progress", default=None, help="Progress bars (default: on a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bars (same as --no-progress).")
@click.pass_context
def matrix_cmd(ctx: click.Context, matrix_file, schemes, scenarios, metrics, seeds, robust, out_dir, workers,
               dask_address, rerun_other_versions, progress, quiet) -> None:
    """Run every scheme on each paper's handover; write a table, a report and heat maps.

    Each scenario of the data file is one campaign (OUT/campaigns/NAME),
    resumable like any sweep: a second call runs only what is missing, and
    another --schemes selection reuses every stored run.  Every cell is set
    against the scenario's baseline scheme over paired runs, with 95% CIs.

    \b
    Examples:
      vhsim matrix                                  # everything: out/matrix/matrix.md
      vhsim matrix --schemes sack,linux --scenarios limjang,danielkojo --seeds 5
      vhsim matrix --metric goodput --robust --dask local
    """
    from concurrent.futures.process import BrokenProcessPool

    from .campaign import CampaignError
    from .cli import EXIT_INPUT, EXIT_SIM, _fail, _interrupted
    from .matrix import load_matrix, run_matrix
    from .wording import counted

    try:
        spec = load_matrix(matrix_file, schemes=_names(schemes), scenarios=_names(scenarios),
                           metrics=list(metrics) or None, seeds=seeds, robust=robust)
        outcome = run_matrix(spec, out_dir, workers=workers, dask=dask_address,
                             progress=False if quiet else progress, rerun_other_versions=rerun_other_versions,
                             on_entry=lambda e: click.echo(f"matrix {e.name}: {e.title}", err=True))
    except CampaignError as err:
        _fail(ctx, err, EXIT_INPUT)
        return
    except KeyboardInterrupt as err:
        _interrupted(ctx, err, "finished runs are stored; run the same command again to resume")
        return
    except BrokenProcessPool as err:
        _fail(ctx, f"a worker process died ({err}); finished runs are stored, run the same command again "
                   "to resume", EXIT_SIM)
        return
    for e in outcome.entries:
        click.echo(f"{e.entry.name}: {e.sweep.line()}")
    click.echo(f"matrix: {counted(outcome.total, 'run')} ({outcome.executed} run now) in {outcome.wall_s:.1f} s; "
               f"report: {outcome.files[0]}")
    if outcome.failed_runs:
        _fail(ctx, f"{counted(outcome.failed_runs, 'run')} failed; see the campaigns' failures/ folders", EXIT_SIM)
