"""The campaign commands: ``vhsim sweep`` (run, resume, check a campaign folder) and ``vhsim
export`` (its result table). Registered on the ``vhsim`` group in :mod:`vhsim.cli`, whose error
handling (one ``error:`` line, exit codes) they share."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import click

from .atomic import replacing
from .campaign.spec import MAX_RUNS
from .cli import EXIT_SIM, _campaign_fail, _fail, _interrupted, _one_line, _set_option
from .wording import counted


@click.command("sweep")
@click.argument("scenario", required=False, type=click.Path(dir_okay=False, path_type=str))
@click.option("-f", "--file", "campaign_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Campaign TOML file (base scenario, axes, replications, ...); see docs/campaigns.md.")
@click.option("-p", "--param", "params", metavar="KEY=V1,V2,...", multiple=True,
              help="An axis: a scenario key and its values, comma-separated; an item may be "
                   "range(START,STOP,STEP) with units, e.g. -p timeline[0].at=range(1s,20s,100ms). Repeatable.")
@_set_option
@click.option("--zip", "zip_axes", is_flag=True, default=None,
              help="Pair the axes element-wise (all of equal length) instead of their Cartesian product.")
@click.option("-r", "--reps", type=click.IntRange(min=1), default=None,
              help="Replications per configuration (default 1, or the campaign file's).")
@click.option("-c", "--campaign", "folder", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Campaign folder (default: the file's `folder`, else out/campaigns/<scenario stem>). "
                   "An existing folder is resumed: only missing runs execute.")
@click.option("-w", "--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: all cores; 1 runs in this process).")
@click.option("--dask", "dask_address", metavar="ADDRESS|local", default=None,
              help="Run on a Dask cluster: a scheduler address (tcp://host:8786) or 'local' for a "
                   "LocalCluster of --workers processes. Needs: pip install 'vhsim[dask]'.")
@click.option("--paired-seeds/--no-paired-seeds", "paired", default=None,
              help="Paired (default): replication k has seed BASE+k in every configuration. "
                   "Unpaired: seeds are hashes of (configuration, k).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Base seed (default: the scenario's `seed`).")
@click.option("--detail", type=click.Choice(["summary", "timeseries", "packets"]), default=None,
              help="Traces to keep per run under DIR/traces/<run id>/ (default summary: none).")
@click.option("--metric", "metrics", metavar="PATTERN", multiple=True,
              help="Keep only result columns matching this glob, e.g. 'bulk.*' (repeatable; default all).")
@click.option("--rerun-other-versions", is_flag=True,
              help="The folder holds runs of another vhsim version: run the campaign again with this "
                   "version (the old runs stay in DIR/runs/<version>/).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (same as --no-progress).")
@click.option("--max-runs", type=click.IntRange(min=1), default=MAX_RUNS, show_default=True,
              help="Refuse a campaign of more runs (configurations x replications): a guard against a typo "
                   "in --reps or a range step.")
@click.option("--dry-run", is_flag=True, help="Validate and print the plan; run nothing.")
@click.option("--check", "check_dir", metavar="DIR", type=click.Path(file_okay=False, path_type=str), default=None,
              help="Verify the campaign folder DIR (every run record complete and unchanged); run nothing. "
                   "Exit 1 if some records are damaged (the next sweep runs them again).")
@click.pass_context
def sweep_cmd(ctx: click.Context, scenario, campaign_file, params, overrides, zip_axes, reps, folder, workers,
              dask_address, paired, seed, detail, metrics, rerun_other_versions, progress, quiet, max_runs, dry_run,
              check_dir) -> None:
    """Run a campaign: SCENARIO over axes x replications, into a resumable folder.

    Every configuration is validated before the first run.  A run's id is a
    hash of its resolved scenario, seed and the vhsim version; runs already in
    the folder are skipped, and each finished run is committed at once, so an
    interrupted sweep (Ctrl-C, kill -9) resumes where it stopped when the same
    command is run again (or just `vhsim sweep --campaign DIR`).

    \b
    Examples:
      vhsim sweep scenarios/examples/loss-sweep.toml -p flows.bulk.scheme=reno,newreno,sack
            -p links.access.forward.error.p=0.005,0.01,0.02,0.05 --reps 10 --campaign out/loss
      vhsim sweep my.toml -p 'timeline[0].at=range(1s,20s,100ms)' --reps 5 -c out/instants
      vhsim sweep my.toml -p links.access.rate=1Mbps,2Mbps -p links.access.queue=10pkt,20pkt --zip
      vhsim sweep --file campaign.toml --workers 8
      vhsim sweep --campaign out/loss                  # resume with the stored definition
      vhsim sweep --file campaign.toml --dask tcp://scheduler:8786
      vhsim sweep --check out/loss                     # verify the stored runs
    """
    from concurrent.futures.process import BrokenProcessPool

    from .campaign import Campaign, CampaignError, CampaignSpec, run_campaign

    progress = False if quiet else progress
    from .campaign.axes import parse_cli_axis

    if check_dir is not None:
        _check_folder(ctx, check_dir)
        return
    try:
        options = dict(zip_axes=zip_axes, replications=reps, paired_seeds=paired, seed=seed, detail=detail,
                       metrics=tuple(metrics) or None)
        if scenario and campaign_file:
            raise click.UsageError("give a SCENARIO or --file, not both")
        if campaign_file:
            spec, file_folder = CampaignSpec.from_toml_file(campaign_file)
            extra = [parse_cli_axis(p) for p in params]
            keys = {a.key for a in extra}
            spec = spec.with_options(axes=tuple(a for a in spec.axes if a.key not in keys) + tuple(extra),
                                     fixed=spec.fixed + tuple(overrides), **options)
            folder = folder or file_folder or os.fspath(Path("out") / "campaigns" / Path(campaign_file).stem)
        elif scenario:
            spec = CampaignSpec.from_cli(scenario, params, overrides,
                                         **{k: v for k, v in options.items() if v is not None})
            folder = folder or os.fspath(Path("out") / "campaigns" / Path(scenario).stem)
        elif folder and (Path(folder) / "campaign.json").is_file():
            if params or overrides:
                raise click.UsageError("-p/--set change a campaign: give the SCENARIO or --file as well")
            spec = Campaign(folder).spec.with_options(**options)
        else:
            raise click.UsageError("give a SCENARIO, a --file, or an existing --campaign folder to resume")
        spec.check_size(max_runs)
        if dry_run:
            from . import __version__

            plan = spec.plan(__version__)
            done = 0
            if (Path(folder) / "campaign.json").is_file():
                done_ids = Campaign(folder).done_ids(__version__)
                done = sum(1 for r in plan if r.run_id in done_ids)
            click.echo(f"{spec.describe()}: {counted(len(spec.configurations()), 'configuration')}, "
                       f"{counted(len(plan), 'run')}, "
                       f"{done} already in {folder}")
            return
        click.echo(f"sweep {spec.describe()} -> {folder}", err=True)
        report = run_campaign(spec, folder, workers=workers, dask=dask_address,
                              rerun_other_versions=rerun_other_versions, progress=progress, max_runs=max_runs)
    except CampaignError as err:
        _campaign_fail(ctx, err)
        return
    except KeyboardInterrupt as err:
        stored = None
        with contextlib.suppress(Exception):
            if folder and (Path(folder) / "campaign.json").is_file():
                stored = Campaign(folder).status()
        note = f"{stored['done']}/{stored['total']} runs stored" if stored else "nothing stored"
        _interrupted(ctx, err, f"{note}; run the same command again to resume")
        return
    except BrokenProcessPool as err:  # a worker process died (killed, out of memory)
        _fail(ctx, f"a worker process died ({err}); finished runs are stored, run the same command "
                   "again to resume", EXIT_SIM)
        return
    for record in report.damaged[:5]:
        click.echo(f"warning: damaged run record set aside in {Path(folder) / 'corrupt'} and run again: "
                   f"{record.line(Path(folder))}", err=True)
    click.echo(report.line())
    click.echo(f"results: {Path(folder) / 'results.parquet'} (vhsim.campaign.open({folder!r}).results())")
    if report.failed:
        for run, message in report.failed[:5]:
            click.echo(f"error: run {run.run_id[:12]} ({', '.join(f'{k}={v}' for k, v in run.labels.items())}, "
                       f"seed {run.seed}): {_one_line(message)}", err=True)
        more = len(report.failed) - 5
        if more > 0:
            click.echo(f"error: ... and {more} more failed runs (see {Path(folder) / 'failures'})", err=True)
        ctx.exit(EXIT_SIM)


# ------------------------------------------------------------------------ export
@click.command("export")
@click.argument("campaign_dir", type=click.Path(file_okay=False, path_type=str))
@click.option("--csv", "csv_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write the result table as CSV ('-' for stdout).")
@click.option("--parquet", "parquet_file", type=click.Path(dir_okay=False, path_type=str), default=None,
              help="Write the result table as a Parquet file.")
@click.option("--version", "version", default=None,
              help="Runs of this vhsim version (default: the campaign's active version).")
@click.pass_context
def export_cmd(ctx: click.Context, campaign_dir: str, csv_file, parquet_file, version) -> None:
    """Export a campaign's result table (one row per run) as CSV or Parquet.

    \b
    Examples:
      vhsim export out/loss --csv loss.csv
      vhsim export out/loss --csv - | head
      vhsim export out/loss --parquet loss.parquet
    """
    from .campaign import CampaignError, open_campaign

    if not csv_file and not parquet_file:
        raise click.UsageError("say where to write: --csv FILE (or -) and/or --parquet FILE")
    try:
        df = open_campaign(campaign_dir).results(version=version)
    except CampaignError as err:
        _campaign_fail(ctx, err)
        return
    if csv_file == "-":
        click.echo(df.to_csv(index=False), nl=False)
    elif csv_file:
        Path(csv_file).parent.mkdir(parents=True, exist_ok=True)
        with replacing(csv_file) as tmp:
            df.to_csv(tmp, index=False)
        click.echo(f"wrote {csv_file} ({counted(len(df), 'run')}, {len(df.columns)} columns)", err=True)
    if parquet_file:
        Path(parquet_file).parent.mkdir(parents=True, exist_ok=True)
        with replacing(parquet_file) as tmp:
            df.to_parquet(tmp, index=False)
        click.echo(f"wrote {parquet_file} ({counted(len(df), 'run')}, {len(df.columns)} columns)", err=True)


def _check_folder(ctx: click.Context, folder: str) -> None:
    """``vhsim sweep --check DIR``: every record of the active version read and verified."""
    from .campaign import Campaign, CampaignError

    try:
        campaign = Campaign(folder)
        damaged = campaign.verify()
        status = campaign.status()
    except CampaignError as err:
        _campaign_fail(ctx, err)
        return
    for record in damaged:
        click.echo(f"damaged: {record.line(Path(folder))}")
    # A damaged line of the log may not tell its run: it is counted as a record all the same.
    records = len(campaign.stored_ids()) + sum(1 for d in damaged if d.run_id is None)
    intact = campaign.done_ids() - {d.run_id for d in damaged}
    done = sum(1 for run in campaign.plan() if run.run_id in intact)
    click.echo(f"campaign {folder}: {records} run records of vhsim {campaign.active_version} checked, "
               f"{len(damaged)} damaged; {done}/{status['total']} runs done"
               + (f", {status['failed']} failed" if status["failed"] else ""))
    if damaged:
        _fail(ctx, f"{len(damaged)} damaged run record{'s' if len(damaged) > 1 else ''} in {folder}; "
                   f"`vhsim sweep --campaign {folder}` sets them aside and runs them again", EXIT_SIM)
