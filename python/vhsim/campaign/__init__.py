"""Campaigns: parameter sweeps with replications, a resumable results store, statistics,
paper-style plots and registered paper reproductions.

>>> from vhsim import campaign                                            # doctest: +SKIP
>>> spec = campaign.CampaignSpec.from_cli(
...     "scenarios/examples/loss-sweep.toml",
...     ["flows.bulk.scheme=reno,sack", "links.access.forward.error.p=0.01,0.05"],
...     replications=5)
>>> campaign.run_campaign(spec, "out/loss", workers=2)
>>> df = campaign.open("out/loss").results()      # one row per run
>>> campaign.stats.summarize(df, "bulk.goodput_kbps")

The command line equivalent is ``vhsim sweep``; docs/campaigns.md describes the folder
layout, the campaign TOML file and the resumption guarantees.
"""

from __future__ import annotations

from . import stats
from .axes import Axis, AxisValue, CampaignError, expand_range, parse_cli_axis, quantity
from .runner import SweepReport, WorkerPool, default_workers, execute_run, run_campaign
from .spec import CampaignSpec, Configuration, PlannedRun, run_identity, seed_for
from .store import Campaign, CampaignVersionError, flatten_summary, open_campaign

#: ``vhsim.campaign.open(DIR)`` reads a campaign folder (the name mirrors ``open`` of files).
open = open_campaign  # noqa: A001 - deliberate: the documented API is campaign.open(DIR)

__all__ = [
    "Axis",
    "AxisValue",
    "Campaign",
    "CampaignError",
    "CampaignSpec",
    "CampaignVersionError",
    "Configuration",
    "PlannedRun",
    "SweepReport",
    "WorkerPool",
    "default_workers",
    "execute_run",
    "expand_range",
    "flatten_summary",
    "open",
    "open_campaign",
    "parse_cli_axis",
    "quantity",
    "run_campaign",
    "run_identity",
    "seed_for",
    "stats",
]
