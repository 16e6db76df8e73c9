"""Numbers of the ``limjang`` reproduction, computed from campaign results.

* throughput as a percentage of each network's bandwidth (§5.1: "The TCP throughputs are
  represented as percentages of the maximum bandwidth of the corresponding networks"), before
  the handover on the first network and after it on the second, from the per-handover metrics
  ``tcp.ho0.throughput_{before,after}_kbps`` (all data reaching the receiver, payload bytes;
  windows set by ``metrics.handover_window``);
* means per (profile, scheme, phase) and gains between schemes;
* LD's decisions against the ground truth (``tcp.ld_<truth>_as_<verdict>``);
* loss on the wired link (queue overflows over packets offered).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable

from ..reproduce import markdown_table
from ..stats import mean_ci
from . import limjang_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

PHASES = ("before", "after")
METRIC = {phase: f"{S.FLOW}.ho0.throughput_{phase}_kbps" for phase in PHASES}
LD_TRUTHS = ("wireless", "congestion", "not_lost", "link_down")
WIRED = "wired/forward"


def percent(kbps: float, network: str) -> float:
    """Throughput as % of the bandwidth of ``network`` ("3G": 1 Mb/s, "WLAN": 10 Mb/s)."""
    return 100.0 * float(kbps) / S.NETWORK_KBPS[network]


def network(scenario: S.Scenario, phase: str) -> str:
    return scenario.before if phase == "before" else scenario.after


def with_percent(df: "pd.DataFrame", scenario: S.Scenario) -> "pd.DataFrame":
    """``df`` plus ``before_pct`` and ``after_pct`` columns (attrs kept)."""
    out = df.copy()
    for phase in PHASES:
        out[f"{phase}_pct"] = 100.0 * out[METRIC[phase]].astype(float) / S.NETWORK_KBPS[network(scenario, phase)]
    out.attrs.update(df.attrs)
    return out


def long_percent(df: "pd.DataFrame", scenario: S.Scenario) -> "pd.DataFrame":
    """One row per run and phase: ``profile, scheme, rep, phase, kbps, pct`` (for the bar charts)."""
    import pandas as pd

    frames = []
    for phase in PHASES:
        net = network(scenario, phase)
        part = pd.DataFrame({
            "profile": df[S.PROFILE].astype(str).to_numpy(),
            "scheme": [S.SCHEME_NAMES.get(s, s) for s in df[S.SCHEME].astype(str)],
            "rep": df["rep"].to_numpy() if "rep" in df else range(len(df)),
            "phase": f"{phase}: {net}",
            "kbps": df[METRIC[phase]].astype(float).to_numpy(),
        })
        part["pct"] = 100.0 * part["kbps"] / S.NETWORK_KBPS[net]
        frames.append(part)
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(df.attrs)
    return out


def mean_of(df: "pd.DataFrame", profile: str, scheme: str, column: str) -> float:
    sub = df[(df[S.PROFILE].astype(str) == profile) & (df[S.SCHEME].astype(str) == scheme)]
    if not len(sub):
        raise KeyError(f"no runs of scheme {scheme} with profile {profile}")
    return float(sub[column].astype(float).mean())


def mean_pct(df: "pd.DataFrame", scenario: S.Scenario, profile: str, scheme: str, phase: str) -> float:
    return percent(mean_of(df, profile, scheme, METRIC[phase]), network(scenario, phase))


def gain(a: float, b: float) -> float:
    """Relative improvement of ``a`` over ``b`` (0.26 = +26%)."""
    return a / b - 1.0 if b else math.inf if a > 0 else math.nan


def profiles_in(df: "pd.DataFrame") -> list[str]:
    present = set(df[S.PROFILE].astype(str))
    return [p for p in S.PROFILES if p in present] + sorted(present - set(S.PROFILES))


def schemes_in(df: "pd.DataFrame") -> list[str]:
    present = set(df[S.SCHEME].astype(str))
    return [s for s in S.SCHEMES if s in present]


def _ci_text(values: Iterable[float]) -> str:
    ci = mean_ci(list(values))
    half = "" if math.isnan(ci.half_width) else f" \u00b1 {ci.half_width:.1f}"
    return f"{ci.mean:.1f}{half}"


def ld_confusion(df: "pd.DataFrame", profile: str, scheme: str) -> dict[str, float] | None:
    """Sums over the runs of ``tcp.ld_<truth>_as_<verdict>``; None without LD.  A frame
    without a scheme column (the LD-trace campaigns run scheme II only) is not filtered on it."""
    sub = df[df[S.PROFILE].astype(str) == profile]
    if S.SCHEME in sub:
        sub = sub[sub[S.SCHEME].astype(str) == scheme]
    col = f"{S.FLOW}.ld_decisions"
    if col not in sub or sub[col].isna().all():
        return None
    out = {"decisions": float(sub[col].sum())}
    for truth in LD_TRUTHS:
        for verdict in ("wireless", "congestion"):
            c = f"{S.FLOW}.ld_{truth}_as_{verdict}"
            out[f"{truth}_as_{verdict}"] = float(sub[c].sum()) if c in sub else 0.0
    real = sum(out[f"{t}_as_{v}"] for t in ("wireless", "congestion", "link_down") for v in ("wireless", "congestion"))
    right = out["wireless_as_wireless"] + out["congestion_as_congestion"] + out["link_down_as_wireless"]
    out["accuracy"] = right / real if real else math.nan
    return out


def confusion_text(c: dict[str, float] | None) -> str:
    if c is None:
        return "\u2013"
    if not c["decisions"]:
        return "no decisions"
    parts = [f"W\u2192W {c['wireless_as_wireless']:.0f}", f"W\u2192C {c['wireless_as_congestion']:.0f}",
             f"C\u2192C {c['congestion_as_congestion']:.0f}", f"C\u2192W {c['congestion_as_wireless']:.0f}"]
    if c["not_lost_as_wireless"] or c["not_lost_as_congestion"]:
        parts.append(f"none\u2192W {c['not_lost_as_wireless']:.0f}, none\u2192C {c['not_lost_as_congestion']:.0f}")
    acc = "" if math.isnan(c["accuracy"]) else f"; {100 * c['accuracy']:.0f}% right"
    return ", ".join(parts) + acc


def wired_loss(df: "pd.DataFrame") -> "pd.Series":
    """Per run: queue-overflow drops on the wired link / packets offered to it."""
    drops = df[f"{WIRED}.drops_queue_overflow"].astype(float)
    return drops / (df[f"{WIRED}.packets_sent"].astype(float) + drops)


def study_queue_loss(df: "pd.DataFrame") -> "pd.Series":
    """Per run: the studied flow's queue-overflow drops (any link) / its segments sent."""
    return df[f"{S.FLOW}.drops_queue_overflow"].astype(float) / df[f"{S.FLOW}.segments_sent"].astype(float)


def throughput_table(df: "pd.DataFrame", scenario: S.Scenario) -> str:
    """Our numbers for one of Figures 11-14, per profile and scheme."""
    rows = []
    for profile in profiles_in(df):
        for scheme in schemes_in(df):
            sub = df[(df[S.PROFILE].astype(str) == profile) & (df[S.SCHEME].astype(str) == scheme)]
            row = [profile, S.SCHEME_NAMES[scheme], len(sub)]
            for phase in PHASES:
                net = network(scenario, phase)
                row.append(_ci_text(100.0 * sub[METRIC[phase]].astype(float) / S.NETWORK_KBPS[net]))
                row.append(f"{sub[METRIC[phase]].astype(float).mean():.0f}")
            row.append(f"{sub[f'{S.FLOW}.ho0.rtos'].mean():.1f} / {sub[f'{S.FLOW}.ho0.spurious_rtos'].mean():.1f}"
                       if f"{S.FLOW}.ho0.rtos" in sub else "\u2013")
            row.append(f"{sub[f'{S.FLOW}.fast_retransmits'].mean():.0f}" if f"{S.FLOW}.fast_retransmits" in sub else "\u2013")
            row.append(confusion_text(ld_confusion(df, profile, scheme)))
            if scenario.congested:
                row.append(f"{100 * wired_loss(sub).mean():.2f}%")
                row.append(f"{100 * study_queue_loss(sub).mean():.2f}%")
            rows.append(row)
    b, a = scenario.before, scenario.after
    header = ["profile", "scheme", "runs", f"before: % of {b} \u00b1 95% CI", "kb/s", f"after: % of {a} \u00b1 95% CI",
              "kb/s", "RTOs / spurious (handover window)", "fast rexmits", "LD decisions vs ground truth (sums)"]
    if scenario.congested:
        header += ["wired loss", "studied flow's queue drops"]
    note = ("Throughput = all data reaching the receiver (payload), before = on " + b + " until the handover, after = on "
            + a + " from the end of the 30 s pause to the end of the run; % of " + b + " = kb/s / "
            + f"{S.NETWORK_KBPS[b]:.0f}, % of {a} = kb/s / {S.NETWORK_KBPS[a]:.0f}. RTOs: mean per run from the "
            "handover start to the end of the after window, and how many the ground truth calls spurious. LD: "
            "W\u2192C = a wireless (error-model) loss classified as congestion, C\u2192W a queue-overflow loss "
            "classified as wireless, none\u2192 a fast retransmit of a segment that was not lost; summed over the runs.")
    if scenario.congested:
        note += (" Wired loss: queue overflows / packets offered on the wired link, mean over runs (paper: 1.5%). "
                 "Studied flow's queue drops: its packets lost to any full queue (wired or access) / segments sent.")
    return note + "\n\n" + markdown_table(header, rows)


def cross_table(df: "pd.DataFrame") -> str:
    """Wired loss per cross-sink placement (the calibration figure)."""
    rows = []
    for (sink, delay), sub in df.groupby([S.CROSS_SINK, S.CROSS_DELAY], sort=False):
        loss = wired_loss(sub)
        study = study_queue_loss(sub)
        where = "r (as the paper's text reads: RTT about 2 ms)" if sink == "r" else f"behind a {delay} access link"
        rows.append([where, len(sub), f"{100 * loss.mean():.2f}% (" + ", ".join(f"{100 * v:.2f}" for v in loss) + ")",
                     f"{100 * study.mean():.2f}%", f"{sub[f'{S.FLOW}.goodput_kbps'].mean():.0f}"])
    return ("Loss on the wired link (queue overflows / packets offered) with 10 `sack` cross flows (ns-2 defaults) "
            "beside the studied flow (error-free 10 Mb/s / 20 ms WLAN, no handover); per seed in brackets. The "
            f"congested scenarios use {S.CROSS_CHOSEN_MS} ms.\n\n"
            + markdown_table(["cross flows end at", "runs", "wired loss", "studied flow's loss", "studied flow kb/s"], rows))
