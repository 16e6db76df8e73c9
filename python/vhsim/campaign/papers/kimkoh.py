"""The ``kimkoh`` reproduction: Kim & Koh (2009), mSCTP handover schemes across 3G and WLAN.

Figures 8-16 (§4): normal mSCTP (``msctp``), MT-mSCTP (``mt-msctp``) and HR-mSCTP (``hr-msctp``)
on ``scenarios/kimkoh/3g-wlan-3g.toml`` (primary switched 3G -> WLAN at 25 s, back at 50 s; 3%
WLAN loss in 48-50 s) and ``ping-pong.toml`` (switches at 5, 7, 11, 16, 20, 28 s); 10
replications with paired seeds; throughput = goodput in the 4 s after a switch.  The TCP SACK
flow over the same link pair (``switch-pair-tcp.toml``) is shown beside them.  Claims:
:mod:`.kimkoh_claims`; per-run trace columns: :mod:`.kimkoh_runs`; plots: :mod:`.kimkoh_plots`.

The scenarios pin ns-2's settings where the paper is silent and the paper's where it speaks
(scenarios/kimkoh/).  Two readings get a variant of Figure 9 each (docs/reproductions.md):
where fast retransmissions go (the main figures: ns-2's default rtxToAlt_ 1, to the alternate
path; the variant: RFC 9260 §6.4, the same path) and the receive buffer (the main figures:
1 MiB, the paper's "large"; the variant: ns-2's default 64 KiB).  The variants show our
numbers and plots only: their claims would restate Figure 9's under another reading of an
unstated choice, which is the ambiguity table's job, not a claim of the paper.  Figure 13's
timeouts get a figure of evidence under varied losses (no claims).

Quick mode: 2 replications and the lowest and highest loss rate of each sweep.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from .. import metrics as M
from ..claims import Measure
from ..figures import Col, FigureSpec, Grid, Paper, Table, axis
from ..plots import Bars
from ..variants import Alternative, FlowStarts, LinkDelays, Perturbation, Seeds
from . import kimkoh_claims as C
from . import kimkoh_plots as P
from . import kimkoh_runs as R
from .simulator_readings import rfc_defaults

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

FLOW = R.FLOW
MAIN, PING_PONG, TCP = "kimkoh/3g-wlan-3g.toml", "kimkoh/ping-pong.toml", "kimkoh/switch-pair-tcp.toml"
SCHEME = P.SCHEME
MSCTP, MT, HR = "msctp", "mt-msctp", "hr-msctp"
SCHEMES, PAIR = (MSCTP, MT, HR), (MSCTP, HR)
NAMES = {MSCTP: "mSCTP", MT: "MT-mSCTP", HR: "HR-mSCTP"}
REPLICATIONS, QUICK_REPLICATIONS = 10, 2
AFTER25, AFTER50 = M.window(FLOW, "after25"), M.window(FLOW, "after50")
BEFORE25 = M.window(FLOW, "before25")
UMTS_ERROR, WLAN_ERROR, WLAN_WINDOW_P = "links.umts.forward.error", "links.wlan.forward.error", "links.wlan.forward.error.p"
NO_WLAN_LOSS = {WLAN_ERROR: '{ kind = "bernoulli", p = 0 }'}
LOSSES = ("0.002", "0.005", "0.01", "0.015", "0.02")          # Figure 10's range, 0.2-2%
WLAN_LOSSES = ("0.002", "0.006", "0.01", "0.014", "0.017", "0.02")  # Figure 12: "up to 1.4%" and above
WINDOW_LOSSES = ("0.01", "0.02", "0.03", "0.04", "0.05")     # Figure 15: the 48-50 s loss (Figure 13: 3%)
PP_SWITCHES = (5.0, 7.0, 11.0, 16.0, 20.0, 28.0)
PP_END = 35.0
RTX_KEY = "flows.ftp.sctp.rtx_to_alt"
NS2_BUFFER = {"flows.ftp.sctp.receive_buffer": "64KiB"}
TIMEOUTS_ONLY = {RTX_KEY: "timeouts_only"}
RTX_OURS = "`rtx_to_alt = alternate`: every retransmission to an alternate, ns-2's default rtxToAlt_ 1 (after RFC 2960 \u00a76.4)"


def bernoulli(losses) -> dict[str, str]:
    return {p: f"{{ kind = \"bernoulli\", p = {p} }}" for p in losses}


def grid(scenario: str, axes, detail: str = "summary", fixed=None) -> Grid:
    return Grid(scenario, tuple(axes), dict(fixed or {}), REPLICATIONS, detail)


def quick(g: Grid, keep: dict[str, tuple[str, ...]] | None = None) -> Grid:
    """Fewer replications, and of each loss axis only the values in ``keep``."""
    axes = tuple(a if a.key not in (keep or {}) else
                 type(a)(a.key, tuple(v for v in a.values if v.label in keep[a.key])) for a in g.axes)
    return g.but(replications=QUICK_REPLICATIONS, axes=axes)


def derive_at(scripted_s: float, new: int, old: int, packets: bool):
    return lambda camp, df: R.derive_switch(camp, df, scripted_s, new, old, packets)


def derive_ping_pong(camp, df: "pd.DataFrame") -> "pd.DataFrame":
    marks = (*PP_SWITCHES[1:], PP_END)
    counts = [R.cumulative_chunks(camp.trace_for(row), marks) for _, row in df.iterrows()]
    return df.assign(**{f"chunks_{t:g}s": [c[k] for c in counts] for k, t in enumerate(marks)})


def goodput(column: str, header: str) -> Col:
    return Col(header, Measure(column, digits=0), ci=True)


SWITCH_COLS = (Col("switch at the CN (s)", Measure("switch_s", digits=3)),
               Col("old path cwnd before (MTU)", Measure("old_cwnd_before", digits=1)),
               *(Col(f"new path cwnd +{dt:g} s (MTU)", Measure(f"new_cwnd_{dt:g}s", digits=1)) for dt in (0.5, 1, 2, 4)))


def fig8() -> FigureSpec:
    g = grid(MAIN, (axis(SCHEME, PAIR),), "packets")
    table = Table((SCHEME,), (
        Col("reordered TSNs in 3 s", Measure("reorders", digits=1)),
        Col("first reordering (s)", Measure("reorder_first_s", digits=3)),
        Col("spurious retransmissions in 3 s", Measure("spurious_n", digits=1)),
        Col("first / last spurious (s)", fn=lambda r: f"{r['spurious_first_s'].mean():.2f} / {r['spurious_last_s'].mean():.2f}"),
        goodput(AFTER25, "goodput 25-29 s (kb/s) \u00b1 95% CI"), *SWITCH_COLS),
        "Per run, from its traces, within 3 s of the CN's Set-Primary (the switch): first copies of TSNs arriving "
        "at the mobile node below a TSN it already has (reordering), retransmissions the ground truth calls "
        "spurious, and the cwnd of the old (3G) and new (WLAN) path in MTUs. Means over the replications.",
        headers=("scheme",))
    return FigureSpec("fig8", "Figure 8: TSNs received by the mobile node around the 3G \u2192 WLAN switch at 25 s, "
                      "normal mSCTP vs HR-mSCTP", g, quick(g),
                      plot=partial(P.tsn_panels, scripted_s=25.0, names=NAMES), claims=C.FIG8, table=table,
                      derive=derive_at(25.0, R.WLAN, R.UMTS, True))


def fig9(variant: str = "", fixed=None, note: str = "") -> FigureSpec:
    """Figure 9, or (``variant``) the same runs under another reading, without claims."""
    g = grid(MAIN, (axis(SCHEME, SCHEMES),), "packets", fixed)
    table = Table((SCHEME,), (goodput(BEFORE25, "goodput 21-25 s (kb/s)"), goodput(AFTER25, "goodput 25-29 s (kb/s)"),
                              Col("old data acked after (s)", Measure("old_acked_s", digits=2)),
                              Col("spurious retransmissions in 3 s", Measure("spurious_n", digits=1)), *SWITCH_COLS),
                  "Goodput windows from the summary; cwnd per path from the timeseries trace (MTUs); old data "
                  "acked = seconds from the switch until the cumulative ack passes every TSN sent before it." + note,
                  headers=("scheme",))
    suffix = f", {variant}" if variant else ""
    return FigureSpec("fig9" + ("-" + variant.split(":")[0] if variant else ""),
                      f"Figure 9: congestion window and throughput of mSCTP, MT-mSCTP and HR-mSCTP after the 3G "
                      f"\u2192 WLAN switch at 25 s{suffix}", g, quick(g),
                      plot=partial(P.cwnd_and_goodput, scripted_s=25.0, new=R.WLAN, window=AFTER25, names=NAMES),
                      claims=() if variant else C.FIG9, table=table, derive=derive_at(25.0, R.WLAN, R.UMTS, True))


def sweep_table(metric: str, x: str, header: str, what: str) -> Table:
    return Table((x,), tuple(Col(NAMES[s], Measure(metric, digits=0), where={SCHEME: s}, ci=True) for s in SCHEMES),
                 f"Mean {what} \u00b1 95% CI half-width over the replications (kb/s), per loss rate and scheme "
                 "(\u2013: scheme not in this figure).", headers=(header,))


def sweep(fig_id: str, title: str, schemes, loss_key: str, losses, values, metric: str, window: str, xlabel: str,
          claims, fixed=None) -> FigureSpec:
    """A figure of goodput in a 4 s window after a switch against a loss rate, one line per scheme."""
    g = grid(MAIN, (axis(SCHEME, schemes), axis(loss_key, values)), fixed=fixed)
    return FigureSpec(fig_id, title, g, quick(g, {loss_key: (losses[0], losses[-1])}),
                      plot=partial(P.lines_vs, metric=metric, x=loss_key, lines=SCHEME, names=NAMES, x_scale=100,
                                   xlabel=xlabel, ylabel=f"goodput {window} (kb/s)"),
                      claims=claims, table=sweep_table(metric, loss_key, xlabel.split(" packet")[0] + " loss",
                                                       f"goodput {window}"))


def fig10() -> FigureSpec:
    return sweep("fig10", "Figure 10: throughput in the 4 s after the 3G \u2192 WLAN switch vs 3G loss rate (WLAN "
                 "lossless)", SCHEMES, UMTS_ERROR, LOSSES, bernoulli(LOSSES), AFTER25, "25-29 s",
                 "3G packet loss rate (%)", C.FIG10, NO_WLAN_LOSS)


def fig11() -> FigureSpec:
    g = grid(MAIN, (axis(SCHEME, (HR,)), axis(UMTS_ERROR, bernoulli(LOSSES))), "timeseries", NO_WLAN_LOSS)
    table = Table((UMTS_ERROR,), (Col("HR-mSCTP 3G cwnd before the switch (MTU)", Measure("old_cwnd_before", digits=1),
                                      ci=True),
                                  Col("goodput 21-25 s (kb/s)", Measure(BEFORE25, digits=0))),
                  "cwnd of the 3G path just before the CN applies the Set-Primary (timeseries trace), mean \u00b1 95% "
                  "CI.", headers=("3G loss",))
    return FigureSpec("fig11", "Figure 11: HR-mSCTP's 3G congestion window just before the switch vs 3G loss rate", g,
                      quick(g, {UMTS_ERROR: (LOSSES[0], LOSSES[-1])}),
                      plot=partial(P.lines_vs, metric="old_cwnd_before", x=UMTS_ERROR, lines=SCHEME, names=NAMES,
                                   x_scale=100, xlabel="3G packet loss rate (%)", ylabel="3G cwnd before the switch (MTUs)",
                                   stem="cwnd"),
                      claims=C.FIG11, table=table, derive=derive_at(25.0, R.WLAN, R.UMTS, False))


def fig12() -> FigureSpec:
    return sweep("fig12", "Figure 12: throughput in the 4 s after the 3G \u2192 WLAN switch vs WLAN loss rate (3G "
                 "lossless)", SCHEMES, WLAN_ERROR, WLAN_LOSSES, bernoulli(WLAN_LOSSES), AFTER25, "25-29 s",
                 "WLAN packet loss rate (%)", C.FIG12)


def fig13() -> FigureSpec:
    g = grid(MAIN, (axis(SCHEME, PAIR),), "packets")
    table = Table((SCHEME,), (
        Col("runs with a T3 expiry on WLAN", Measure("old_t3", "share", digits=0, percent=True)),
        Col("T3 expiries (times, s)", fn=lambda r: "; ".join(t for t in r["old_t3_times"] if t) or "none"),
        Col("old data acked after (s)", Measure("old_acked_s", digits=2)),
        Col("spurious retransmissions in 3 s", Measure("spurious_n", digits=1)),
        goodput(AFTER50, "goodput 50-54 s (kb/s) \u00b1 95% CI"), *SWITCH_COLS),
        "Around the WLAN \u2192 3G switch at 50 s with 3% WLAN loss during 48-50 s: T3-rtx expiries of the WLAN path "
        "(its error counter in the timeseries trace) from 0.5 s before to 3 s after the switch, and when the "
        "cumulative ack passed every TSN sent before it.", headers=("scheme",))
    return FigureSpec("fig13", "Figure 13: TSNs around the WLAN \u2192 3G switch at 50 s (3% WLAN loss in 48-50 s), "
                      "normal mSCTP vs HR-mSCTP", g, quick(g),
                      plot=partial(P.tsn_panels, scripted_s=50.0, names=NAMES), claims=C.FIG13, table=table,
                      derive=derive_at(50.0, R.UMTS, R.WLAN, True))


def _window(p: str, start: str, end: str) -> str:
    return f'{{ kind = "time_window", p = {p}, start = "{start}", end = "{end}" }}'


#: Figure 13's loss around the WLAN -> 3G switch, as the paper gives it and varied.
WINDOWS_13 = {"3% 48-50 s (paper)": _window("0.03", "48s", "50s"), "3% 49-50 s": _window("0.03", "49s", "50s"),
              "3% 46-50 s": _window("0.03", "46s", "50s"), "3% 48-51 s": _window("0.03", "48s", "51s"),
              "10% 48-50 s": _window("0.1", "48s", "50s"), "30% 48-50 s": _window("0.3", "48s", "50s")}
SACK_LOSS_13 = {"data only": '{ kind = "bernoulli", p = 0 }', "SACKs too": _window("0.03", "48s", "50s")}
RTX_13 = ("alternate", "timeouts_only")  # ns-2's default rtxToAlt_ 1; RFC 9260 §6.4
WLAN_REVERSE_ERROR = "links.wlan.reverse.error"
T3_WLAN, FR_CHUNKS = M.flow(FLOW, "path1.t3_expiries"), M.flow(FLOW, "engagement.fast_retransmits")


def fig13_robustness() -> FigureSpec:
    """Figure 13's timeouts under varied losses: normal mSCTP only, no claims (evidence for
    docs/reproductions.md)."""
    g = grid(MAIN, (axis(WLAN_ERROR, WINDOWS_13), axis(WLAN_REVERSE_ERROR, SACK_LOSS_13), axis(RTX_KEY, RTX_13)),
             fixed={SCHEME: MSCTP})
    runs = (Col("runs", fn=lambda r: str(len(r))),
            Col("runs with a T3 expiry on WLAN", fn=lambda r: f"{(r[T3_WLAN] > 0).sum()}"),
            Col("T3 expiries on WLAN per run", Measure(T3_WLAN, digits=2)),
            Col("fast-retransmitted chunks per run", Measure(FR_CHUNKS, digits=1)),
            goodput(AFTER50, "goodput 50-54 s (kb/s)"))
    table = Table((WLAN_ERROR, WLAN_REVERSE_ERROR, RTX_KEY), runs,
                  "Normal mSCTP, WLAN \u2192 3G switch at 50 s, the WLAN loss before it varied in rate, span and "
                  "direction, with both retransmission policies; T3-rtx expiries of the WLAN path over the whole run "
                  "(its only losses are these), fast-retransmitted chunks (engagement counter).",
                  headers=("WLAN loss (data)", "SACK direction", "rtx_to_alt"))
    first = next(iter(WINDOWS_13))
    plot = Bars({"T3-rtx expiries of the WLAN path per run": T3_WLAN}, bars=WLAN_ERROR, panels=RTX_KEY,
                title="Normal mSCTP, rtx_to_alt = {panel} (both SACK directions pooled)", ylabel="T3-rtx expiries",
                bounds=(0, None))
    return FigureSpec("fig13-robustness", "Figure 13's timeouts under varied WLAN losses (normal mSCTP; evidence, "
                      "no claims)", g, g.but(replications=QUICK_REPLICATIONS, axes=(
                          axis(WLAN_ERROR, {first: WINDOWS_13[first]}), *g.axes[1:])), plot=plot, table=table)


def fig14() -> FigureSpec:
    g = grid(MAIN, (axis(SCHEME, PAIR),), "timeseries")
    table = Table((SCHEME,), (goodput(BEFORE25.replace("25", "50"), "goodput 46-50 s (kb/s)"),
                              goodput(AFTER50, "goodput 50-54 s (kb/s)"), *SWITCH_COLS),
                  "cwnd of the new primary (3G) after the switch at 50 s, in MTUs (timeseries trace).", headers=("scheme",))
    return FigureSpec("fig14", "Figure 14: congestion window and throughput after the WLAN \u2192 3G switch at 50 s, "
                      "normal mSCTP vs HR-mSCTP", g, quick(g),
                      plot=partial(P.cwnd_and_goodput, scripted_s=50.0, new=R.UMTS, window=AFTER50, names=NAMES),
                      claims=C.FIG14, table=table, derive=derive_at(50.0, R.UMTS, R.WLAN, False))


def fig15() -> FigureSpec:
    return sweep("fig15", "Figure 15: throughput in the 4 s after the WLAN \u2192 3G switch vs the WLAN loss rate "
                 "during 48-50 s", PAIR, WLAN_WINDOW_P, WINDOW_LOSSES, WINDOW_LOSSES, AFTER50, "50-54 s",
                 "WLAN packet loss rate during 48-50 s (%)", C.FIG15)


def fig16() -> FigureSpec:
    g = grid(PING_PONG, (axis(SCHEME, PAIR),), "timeseries", {"metrics.goodput_interval": "100ms"})
    marks = (*PP_SWITCHES[1:], PP_END)
    table = Table((SCHEME,), tuple(Col(f"TSNs by {t:g} s", Measure(f"chunks_{t:g}s", digits=0), ci=True) for t in marks),
                  "TSNs delivered in order to the mobile node by each switch time and at the end (goodput trace in "
                  "100 ms bins), mean \u00b1 95% CI.", headers=("scheme",))
    return FigureSpec("fig16", "Figure 16: ping-pong switches at 5, 7, 11, 16, 20 and 28 s with 1% WLAN loss for 1 s "
                      "at each move, normal mSCTP vs HR-mSCTP", g, quick(g),
                      plot=partial(P.ping_pong, switches=PP_SWITCHES, names=NAMES, end_s=PP_END), claims=C.FIG16,
                      table=table, derive=derive_ping_pong)


def tcp_summary(df: "pd.DataFrame") -> str:
    after = [df[M.handover("bulk", M.GOODPUT_AFTER_KBPS, k)].mean() for k in (0, 1)]
    return ("TCP SACK (1460 B payload, window 64 packets) over the same 3G / WLAN pair with make-before-break "
            "handovers at 25 s and 50 s (scenarios/kimkoh/switch-pair-tcp.toml: one access router, not the SCTP "
            "runs' two), mean over the replications: goodput in the 4 s after the switch to WLAN "
            f"{after[0]:.0f} kb/s, after the switch back to 3G {after[1]:.0f} kb/s; spurious retransmissions "
            f"{df[M.flow('bulk', M.SPURIOUS_RETRANSMISSIONS)].mean():.1f} and RTOs "
            f"{df[M.flow('bulk', M.RTO_COUNT)].mean():.1f} per run (n = {len(df)}).")


def tcp() -> FigureSpec:
    g = Grid(TCP, (), {}, REPLICATIONS)
    return FigureSpec("tcp", "TCP SACK over the same 3G / WLAN link pair (comparison, not a figure of the paper)", g,
                      g.but(replications=QUICK_REPLICATIONS), table=tcp_summary)


# `--robustness N`: what a real setup would vary (the seeds move the loss draws and the heartbeat jitter).
PERTURBATION = Perturbation((LinkDelays(0.05), FlowStarts("50ms"), Seeds()))
# `--ambiguities`: the SCTP settings the paper does not give, or gives loosely (docs/sctp.md lists every
# default; each entry says what the scenarios use and whose value it is).
SCTP = "flows.ftp.sctp"
AMBIGUITIES = (
    # Where the paper is silent, the scenarios take ns-2's SCTP module (scenarios/kimkoh/):
    Alternative("rtx-timeouts-only", "fast retransmissions to their own destination, timed-out chunks to an "
                                     "alternate (RFC 9260 \u00a76.4; ns-2 rtxToAlt_ 2; the variant fig9-rtx-same)",
                TIMEOUTS_ONLY, ours=RTX_OURS),
    Alternative("rtx-never-alternate", "every retransmission to the destination it was last sent to (ns-2 rtxToAlt_ 0)",
                {RTX_KEY: "same"}, ours=RTX_OURS),
    Alternative("max-burst-every-send", "Max.Burst limits every send (RFC 4960 \u00a76.1 D)",
                {f"{SCTP}.max_burst_scope": "every_send"},
                ours="`max_burst_scope = after_fast_retransmit`: only after a SACK that acknowledges a fast-"
                     "retransmitted chunk, ns-2's useMaxBurst_ 1"),
    Alternative("no-delayed-sack", "a SACK for every packet", {f"{SCTP}.delayed_sack": "false"},
                ours="`delayed_sack = true`: RFC 4960 \u00a76.2, ns-2's useDelayedSacks_ 1"),
    Alternative("idle-cwnd-reset", "RFC 4960 \u00a77.2.1's restart from the initial cwnd of a destination that was "
                                   "idle 'a sufficiently long period', read as 5 s (the RFC gives no length; the 3G "
                                   "path is idle for 25 s before the switch back at 50 s, so any length below that "
                                   "resets it there alike; in the ping-pong runs it resets paths idle for 5 s or more)",
                {f"{SCTP}.idle_cwnd_reset": "5s"},
                ours="no restart (`idle_cwnd_reset` unset): only the decay to max(cwnd/2, 4 MTU) per RTO without "
                     "data, ns-2's SCTP module (it has no restart) and RFC 9260 \u00a77.2.1 (which dropped it)"),
    Alternative("ssthresh-receive-buffer", "the receive buffer, 1 MiB (RFC 9260 \u00a77.2.1: arbitrarily high, "
                                           "e.g. the peer's receive window): the first slow start is not stopped "
                                           "at 44 chunks; the paper states no ssthresh",
                {f"{SCTP}.initial_ssthresh": "1MiB"},
                ours="`initial_ssthresh = 65536B`: ns-2.35's initialSsthresh_ (44 chunks), the simulator the paper "
                     "ran", needs="an SCTP flow (figure tcp runs TCP)"),
    # Where the paper speaks loosely or about another paper's scheme (docs/sctp.md "Schemes"):
    Alternative("ns2-buffer-64k", "ns-2's default initialRwnd_, 64 KiB (44 chunks, below WLAN's bandwidth-delay "
                                  "product; the variant fig9-64k)", NS2_BUFFER,
                ours="`receive_buffer = 1MiB`: the paper's 'large' buffer (\u00a73 assumption (b)), four times what "
                     "both paths hold at once"),
    Alternative("hr-cwnd-reset", "HR-mSCTP restarts the new primary's cwnd from the initial cwnd at each switch "
                                 "(vhsim's model before issue #25; Figures 5-6 start the new path at 2 MTU)",
                {f"{SCTP}.hr_cwnd_reset": "true"}, schemes=(HR,),
                ours="`hr_cwnd_reset = false`: \u00a73's Steps 1-4 contain no restart"),
    Alternative("mt-region-add-ip", "MT-mSCTP's 'at the same time' (\u00a71) read literally: from Add-IP to "
                                    "Delete-IP new data also goes to the other path when the primary's window is full",
                {f"{SCTP}.mt_region": "add_ip"}, schemes=(MT,),
                ours="`mt_region = set_primary`: new data follows the primary, the reading closest to "
                     "\u00a74.1-4.2"),
    Alternative("set-primary-from-new", "the Set-Primary ASCONF leaves from the new address (the library's "
                                        "default; RFC 5061 leaves it open): what the paper's statement decides",
                {f"{SCTP}.set_primary_from": "new"},
                ours="`set_primary_from = old`: \u00a72.1, 'the MN sends the ASCONF chunk using the IP 1 address'"),
    rfc_defaults("the SCTP flows' RTO.Initial 1 s instead of 3 s (RFC 9260 \u00a716; the files set the other keys "
                 "where the sets differ), and in figure tcp RFC 6298's timers, a 1 ms clock, an initial window of 3 "
                 "and a delayed-ACK sink"),
)

PAPER = Paper(
    name="kimkoh",
    title="Performance enhancement of mSCTP for vertical handover across heterogeneous wireless networks",
    citation="D. P. Kim and S. J. Koh, International Journal of Communication Systems 22(12), 2009. Schemes: "
             "`msctp` (normal mSCTP), `mt-msctp` (MT-mSCTP, docs/references.md §10), `hr-msctp` (HR-mSCTP), "
             "docs/sctp.md; scenarios: scenarios/kimkoh/. Verdict rules and every difference from the paper: "
             "docs/reproductions.md.",
    figures=(fig8(), fig9(), fig10(), fig11(), fig12(), fig13(), fig14(), fig15(), fig16(), tcp(), fig13_robustness(),
             fig9("rtx-same: fast retransmissions on their own path (RFC 9260 \u00a76.4)", TIMEOUTS_ONLY,
                  " Variant: rtx_to_alt = timeouts_only (RFC 9260 \u00a76.4, ns-2 rtxToAlt_ 2) instead of ns-2's "
                  "default rtxToAlt_ 1."),
             fig9("64k: ns-2's default 64 KiB receive buffer", NS2_BUFFER,
                  " Variant: the mobile node's receive buffer is ns-2's default initialRwnd_ (64 KiB) instead of the "
                  "paper's 'large' (1 MiB).")),
    names={SCHEME: NAMES, UMTS_ERROR: {float(p): f"{100 * float(p):g}%" for p in LOSSES},
           WLAN_ERROR: {float(p): f"{100 * float(p):g}%" for p in WLAN_LOSSES},
           WLAN_WINDOW_P: {float(p): f"{100 * float(p):g}%" for p in WINDOW_LOSSES}},
    perturbation=PERTURBATION, ambiguities=AMBIGUITIES,
)
