"""The ``limjang`` reproduction: Lim & Jang (EURASIP JWCN 2009), TCP across 3G <-> WLAN handovers.

Figures 2-3 (§4.1.2: LD's measured RTT and threshold around the handover, scheme II, from the
timeseries trace) and 11-14 (§5: throughput before and after the handover as % of each
network's bandwidth, Sack, DCR, DCR-FRTO, scheme I = DCR-LD and scheme II = DCR-FRTO-LD,
30 replications, 95% CI), each for protocol-facts A1's two sender profiles (ns-2's window 20 x
1000 B and 64 x 1460 B); plus ``cross-traffic``, the wired loss the ten cross flows cause for
where their sinks sit (why the congested scenarios put them behind a 15 ms access link).

Campaigns: :mod:`.limjang_setup`; numbers: :mod:`.limjang_analysis`; claims:
:mod:`.limjang_claims` and :mod:`.limjang_ldtrace`.  docs/reproductions.md sets the claims
beside our numbers.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..plots import bar_chart
from ..reproduce import Claim, FigureSpec, Paper
from . import limjang_analysis as A
from . import limjang_claims as C
from . import limjang_ldtrace as L
from . import limjang_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from ..store import Campaign


def plot_throughput(scenario: S.Scenario, camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
    """One bar chart per profile: % of bandwidth before / after, one bar per scheme, 95% CI."""
    long = A.long_percent(df, scenario)
    (b0, b1), (a0, a1) = scenario.windows(quick=S.is_quick(camp.spec))
    files: list[Path] = []
    for profile in A.profiles_in(df):
        sub = long[long["profile"] == profile].copy()
        sub.attrs.update(long.attrs)
        title = (f"Figure {scenario.number}: {scenario.before} \u2192 {scenario.after}"
                 f"{' under congestion' if scenario.congested else ''}"
                 f"{', ' + scenario.variant if scenario.variant else ''}, {S.PROFILE_NAMES.get(profile, profile)}: "
                 f"throughput before [{b0:g}, {b1:g}) s and after [{a0:g}, {a1:g}) s")
        files += bar_chart(sub, "pct", "scheme", out / f"{scenario.figure}-{profile}", groups="phase", title=title,
                           ylabel="throughput (% of the network's bandwidth)")
    return files


def _throughput_figure(scenario: S.Scenario) -> FigureSpec:
    return FigureSpec(
        id=scenario.figure,
        title=scenario.title,
        campaign=partial(S.throughput_campaign, scenario),
        plot=partial(plot_throughput, scenario),
        claims=C.throughput_claims(scenario),
        table=partial(A.throughput_table, scenario=scenario),
    )


def _ld_figure(figure: str) -> FigureSpec:
    _, old, new = S.LD_TRACE[figure]
    number = 2 if figure == "fig2" else 3
    return FigureSpec(
        id=figure,
        title=f"Figure {number}: loss differentiation on a vertical handover from {old} to {new} (Tcur and threshold)",
        campaign=partial(S.ld_trace_campaign, figure),
        plot=partial(L.plot, figure),
        claims=L.claims(figure),
        table=partial(L.table, figure),
    )


def plot_cross(camp: "Campaign", df: "pd.DataFrame", out: Path) -> list[Path]:
    import pandas as pd

    labels = [("r" if s == "r" else str(d)) for s, d in zip(df[S.CROSS_SINK], df[S.CROSS_DELAY])]
    long = pd.DataFrame({"cross flows end at": [("at r" if lab == "r" else f"+{lab}") for lab in labels],
                         "loss": 100 * A.wired_loss(df).to_numpy(), "link": "wired link"})
    long.attrs.update(df.attrs)
    return bar_chart(long, "loss", "link", out / "cross-traffic-wired-loss", groups="cross flows end at",
                     title="Loss on the 20 Mb/s wired link with 10 cross flows, by the cross sinks' extra one-way "
                           "delay (paper: 1.5%)", ylabel="queue-overflow loss (%)")


def _cross_holds(df: "pd.DataFrame") -> tuple[bool, str]:
    chosen = df[df[S.CROSS_DELAY].astype(str) == f"{S.CROSS_CHOSEN_MS}ms"]
    literal = df[df[S.CROSS_SINK].astype(str) == "r"]
    loss = 100 * A.wired_loss(chosen).mean()
    lit = 100 * A.wired_loss(literal).mean()
    return abs(loss - 1.5) <= 0.5, (f"cross sinks behind {S.CROSS_CHOSEN_MS} ms: {loss:.2f}%; at r (RTT about 2 ms): "
                                    f"{lit:.2f}% (paper 1.5%; holds within \u00b10.5 points)")


CROSS = FigureSpec(
    id="cross-traffic",
    title="Table 1 congestion: wired loss caused by the 10 cross flows, by where they end",
    campaign=S.cross_campaign,
    plot=plot_cross,
    claims=(Claim("The 10 forward cross-traffic connections cause a congestion loss rate of 1.5% on the wired part "
                  "(Table 1, §5.1; with our choice of the cross flows' path, which the paper does not give).",
                  _cross_holds),),
    table=A.cross_table,
)

PAPER = Paper(
    name="limjang",
    title="A new scheme to improve overall TCP throughput with vertical handover between 3G and WLANs",
    citation="C.-H. Lim and J.-W. Jang, EURASIP Journal on Wireless Communications and Networking, 2009. "
             "Schemes: `sack`, `dcr`, `dcr-frto`, `dcr-ld` (scheme I), `dcr-frto-ld` (scheme II), docs/schemes.md; "
             "scenarios: scenarios/limjang/. Every claim is checked for both window profiles of protocol-facts A1 "
             "([20x1000B] = ns-2 defaults, [64x1460B]); verdict rules in limjang_claims.py and "
             "docs/reproductions.md.",
    figures=(
        _ld_figure("fig2"),
        _ld_figure("fig3"),
        *(_throughput_figure(s) for s in S.FIGURES),
        CROSS,
        *(_throughput_figure(s) for s in S.VARIANTS),
    ),
)
