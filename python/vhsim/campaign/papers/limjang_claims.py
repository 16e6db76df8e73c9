"""The claims of Lim & Jang §4.1.2 and §5, as checks on our campaign results.

Every claim is checked for each of protocol-facts A1's two sender profiles (the text starts
with ``[20x1000B]`` or ``[64x1460B]``), so the report shows which profile the paper's numbers
fit.  Verdict rules (stated once here and in docs/reproductions.md):

* "A improves by P% over B": our gain g = mean(A) / mean(B) - 1 has the sign of P and lies
  within a factor of two of it (P/2 <= g <= 2P); with several A or B, every pair must.
* a level ("up to 60% of the link bandwidth", "229 kb/s"): ours within +-25% of the paper's.
* "negligible": |g| <= 5%.
* "higher than the other schemes": mean above every other scheme's mean.

Means are over the replications of one (profile, scheme); throughput in % of the network's
bandwidth (or kb/s where the paper gives kb/s).  The paired 95% CI (same seeds) of the
difference is given for the gains.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable, Sequence

from ..reproduce import Claim
from ..stats import paired_difference
from . import limjang_analysis as A
from . import limjang_setup as S

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

FACTOR = 2.0
LEVEL_TOLERANCE = 0.25
NEGLIGIBLE = 0.05

Check = Callable[["pd.DataFrame"], tuple[bool, str]]


def name(scheme: str) -> str:
    return S.SCHEME_NAMES.get(scheme, scheme)


def within_factor(g: float, paper: float, factor: float = FACTOR) -> bool:
    """Same sign as ``paper`` and |g| within a factor of two of |paper|."""
    if math.isnan(g) or paper == 0:
        return False
    if (g > 0) != (paper > 0):
        return False
    return abs(paper) / factor <= abs(g) <= abs(paper) * factor


def signed(g: float) -> str:
    """A gain as a signed percentage: one decimal below 10%, none above."""
    return f"{100 * g:+.1f}%" if abs(g) < 0.1 else f"{100 * g:+.0f}%"


def within_level(value: float, paper: float, tolerance: float = LEVEL_TOLERANCE) -> bool:
    return abs(value - paper) <= tolerance * abs(paper)


def _paired_text(df: "pd.DataFrame", scenario: S.Scenario, profile: str, phase: str, a: str, b: str) -> str:
    """Paired difference of % throughput, a - b, with its 95% CI (empty if not computable)."""
    try:
        sub = A.with_percent(df[df[S.PROFILE].astype(str) == profile], scenario)
        d = paired_difference(sub, f"{phase}_pct", S.SCHEME, a, b, by=[S.PROFILE]).iloc[0]
    except Exception:  # noqa: BLE001 - too few runs or no seed column: the means are enough
        return ""
    if math.isnan(d["ci_low"]):
        return ""
    return f" (paired {d['mean_diff']:+.1f} points, CI {d['ci_low']:+.1f}..{d['ci_high']:+.1f})"


def gain_check(scenario: S.Scenario, profile: str, phase: str, a_schemes: Sequence[str], b_schemes: Sequence[str],
               paper_pct: float) -> Check:
    """Each of ``a_schemes`` improves by ``paper_pct`` % over each of ``b_schemes``."""

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        holds, parts = True, []
        net = A.network(scenario, phase)
        few = len(a_schemes) * len(b_schemes) <= 2  # paired CIs only where the text stays short
        for a in a_schemes:
            ma = A.mean_pct(df, scenario, profile, a, phase)
            for b in b_schemes:
                mb = A.mean_pct(df, scenario, profile, b, phase)
                g = A.gain(ma, mb)
                holds &= within_factor(g, paper_pct / 100.0)
                parts.append(f"{name(a)} {ma:.1f}% vs {name(b)} {mb:.1f}%: {signed(g)}"
                             + (_paired_text(df, scenario, profile, phase, a, b) if few else ""))
        return holds, f"{phase} (% of {net}): " + "; ".join(parts) + f" (paper {paper_pct:+g}%)"

    return check


def negligible_check(scenario: S.Scenario, profile: str, phases: Sequence[str], a: str, b: str) -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        holds, parts = True, []
        for phase in phases:
            ma, mb = (A.mean_pct(df, scenario, profile, s, phase) for s in (a, b))
            g = A.gain(ma, mb)
            holds &= abs(g) <= NEGLIGIBLE
            parts.append(f"{phase}: {name(a)} {ma:.1f}% vs {name(b)} {mb:.1f}%: {signed(g)}")
        return holds, "; ".join(parts) + f" (negligible: within \u00b1{100 * NEGLIGIBLE:.0f}%)"

    return check


def level_check(scenario: S.Scenario, profile: str, phase: str, schemes: Sequence[str], paper: float,
                unit: str = "pct", best: bool = False) -> Check:
    """Each scheme's mean (or the best one's, ``best=True``) within 25% of ``paper`` (% or kb/s)."""

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        values = {}
        for s in schemes:
            kbps = A.mean_of(df, profile, s, A.METRIC[phase])
            values[s] = kbps if unit == "kbps" else A.percent(kbps, A.network(scenario, phase))
        judged = [max(values.values())] if best else list(values.values())
        holds = all(within_level(v, paper) for v in judged)
        u = " kb/s" if unit == "kbps" else f"% of {A.network(scenario, phase)}"
        text = ", ".join(f"{name(s)} {v:.0f}{u}" if unit == "kbps" else f"{name(s)} {v:.1f}{u}" for s, v in values.items())
        return holds, f"{phase}: {text} (paper {paper:g}{u}; within \u00b1{100 * LEVEL_TOLERANCE:.0f}%)"

    return check


def transition_check(profile: str, scheme: str, before_kbps: float, after_kbps: float) -> Check:
    """``scheme`` goes from ``before_kbps`` to ``after_kbps`` (both within 25%)."""

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        b = A.mean_of(df, profile, scheme, A.METRIC["before"])
        a = A.mean_of(df, profile, scheme, A.METRIC["after"])
        holds = within_level(b, before_kbps) and within_level(a, after_kbps)
        return holds, (f"{name(scheme)}: {b:.0f} \u2192 {a:.0f} kb/s (paper {before_kbps:g} \u2192 {after_kbps:g}; "
                       f"each within \u00b1{100 * LEVEL_TOLERANCE:.0f}%)")

    return check


def change_check(profile: str, schemes: Sequence[str], paper_pct: float) -> Check:
    """After vs before the handover in kb/s changes by ``paper_pct`` % for each scheme."""

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        holds, parts = True, []
        for s in schemes:
            b = A.mean_of(df, profile, s, A.METRIC["before"])
            a = A.mean_of(df, profile, s, A.METRIC["after"])
            g = A.gain(a, b)
            holds &= within_factor(g, paper_pct / 100.0)
            parts.append(f"{name(s)} {b:.0f} \u2192 {a:.0f} kb/s ({signed(g)})")
        return holds, "; ".join(parts) + f" (paper {paper_pct:+g}%)"

    return check


def highest_check(scenario: S.Scenario, profile: str, phase: str, scheme: str) -> Check:
    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        means = {s: A.mean_pct(df, scenario, profile, s, phase) for s in A.schemes_in(df)}
        top = means[scheme]
        holds = all(top > v for s, v in means.items() if s != scheme)
        return holds, f"{phase}: " + ", ".join(f"{name(s)} {v:.2f}%" for s, v in means.items())

    return check


def _per_profile(text: str, make: Callable[[str], Check]) -> tuple[Claim, ...]:
    return tuple(Claim(f"[{p}] {text}", make(p)) for p in S.PROFILES)


def throughput_claims(scenario: S.Scenario) -> tuple[Claim, ...]:
    """The claims of §5.2-5.3 about Figures 11-14."""
    sc = scenario
    I, II = "dcr-ld", "dcr-frto-ld"
    claims: list[tuple[str, Callable[[str], Check]]] = []
    if sc.number == 11:
        claims = [
            ("Before the handover (3G) schemes I and II improve the throughput by 26% over DCR (§5.2).",
             lambda p: gain_check(sc, p, "before", S.PROPOSED, ("dcr",), 26)),
            ("After the handover (WLAN) the proposed schemes improve the throughput by 60% over Sack, DCR and "
             "DCR-FRTO (§5.2).", lambda p: gain_check(sc, p, "after", S.PROPOSED, S.KNOWN, 60)),
            ("From 3G to WLAN, F-RTO's improvement is negligible: DCR-FRTO vs DCR and scheme II vs scheme I after "
             "the handover (§5.2).", lambda p: _all(negligible_check(sc, p, ("after",), "dcr-frto", "dcr"),
                                                    negligible_check(sc, p, ("after",), II, I))),
        ]
    elif sc.number == 12:
        claims = [
            ("Before the handover (WLAN) schemes I and II improve the throughput by about 85% over Sack, DCR and "
             "DCR-FRTO (§5.2).", lambda p: gain_check(sc, p, "before", S.PROPOSED, S.KNOWN, 85)),
            ("The difference between schemes I and II is negligible (§5.2, §5.4).",
             lambda p: negligible_check(sc, p, ("before", "after"), II, I)),
            ("After the handover (3G) schemes I and II reach up to 60% of the link bandwidth (§5.2).",
             lambda p: level_check(sc, p, "after", S.PROPOSED, 60, best=True)),
            ("After the handover (3G) schemes I and II improve the throughput by about 87% over DCR and DCR-FRTO "
             "(§5.2).", lambda p: gain_check(sc, p, "after", S.PROPOSED, ("dcr", "dcr-frto"), 87)),
            ("After the handover (3G) DCR improves the throughput by 100% over Sack (§5.2).",
             lambda p: gain_check(sc, p, "after", ("dcr",), ("sack",), 100)),
            ("From WLAN to 3G, DCR-FRTO and scheme II slightly improve the throughput, by 1.2% over DCR and 1.8% "
             "over scheme I (§5.2).", lambda p: _all(gain_check(sc, p, "after", ("dcr-frto",), ("dcr",), 1.2),
                                                      gain_check(sc, p, "after", (II,), (I,), 1.8))),
        ]
    elif sc.number == 13:
        claims = [
            ("Under congestion, the proposed schemes improve the throughput by about 44% over DCR on 3G before the "
             "handover (§5.3).", lambda p: gain_check(sc, p, "before", S.PROPOSED, ("dcr",), 44)),
            ("After the handover to WLAN, schemes I and II improve the throughput by 480% over DCR and 457% over "
             "DCR-FRTO (§5.3).", lambda p: _all(gain_check(sc, p, "after", S.PROPOSED, ("dcr",), 480),
                                                 gain_check(sc, p, "after", S.PROPOSED, ("dcr-frto",), 457))),
            ("Scheme II goes from 229 kb/s (3G) to 734 kb/s (WLAN) (§5.3).",
             lambda p: transition_check(p, II, 229, 734)),
            ("Scheme I goes from 238 kb/s (3G) to 459 kb/s (WLAN) (§5.3).",
             lambda p: transition_check(p, I, 238, 459)),
            ("Scheme II improves the throughput by 59.9% over scheme I on WLAN after the handover (§5.3).",
             lambda p: gain_check(sc, p, "after", (II,), (I,), 59.9)),
            ("The throughputs of Sack, DCR and DCR-FRTO fall by about 50% from before to after the handover "
             "(kb/s; §5.3).", lambda p: change_check(p, S.KNOWN, -50)),
        ]
    elif sc.number == 14:
        claims = [
            ("Under congestion from WLAN to 3G, scheme II's throughput after the handover is higher than every "
             "other scheme's (§5.3).", lambda p: highest_check(sc, p, "after", II)),
            ("Scheme II is 4.5% higher than scheme I on 3G after the handover (§5.3).",
             lambda p: gain_check(sc, p, "after", (II,), (I,), 4.5)),
        ]
    out: list[Claim] = []
    for text, make in claims:
        out += _per_profile(text, make)
    return tuple(out)


def _all(*checks: Check) -> Check:
    """Holds when every check holds; the numbers of all, joined."""

    def check(df: "pd.DataFrame") -> tuple[bool, str]:
        results = [c(df) for c in checks]
        return all(h for h, _ in results), " \u2016 ".join(t for _, t in results)

    return check
