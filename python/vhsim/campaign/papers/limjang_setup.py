"""Campaign definitions of the ``limjang`` reproduction (Lim & Jang, EURASIP JWCN 2009).

* Figures 11-14: Table 1's four scenarios (``scenarios/limjang/{3g-to-wlan,wlan-to-3g}
  [-congested].toml``), axes = protocol-facts A1's two sender profiles x the five schemes,
  30 replications with paired seeds (§5.1: "Simulations run 30 times").
* Figures 2-3: the LD-trace scenarios of §4.1.2 (``ld-trace-*.toml``), scheme II, one run per
  profile with ``detail = "timeseries"``.
* ``cross-traffic``: the wired loss that the ten cross flows cause, for where their sinks sit
  (``cross-traffic-calibration.toml``), the rationale of the congested scenarios' 15 ms.

``--quick`` keeps every axis but runs 2 replications of 100 s runs with the handover at 40 s
(before = [0, 40 s), after = [70, 100 s)); the LD traces run 60 s with the pause at 40 s.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..axes import Axis, AxisValue
from ..reproduce import scenario_file
from ..spec import CampaignSpec

SCHEME = "flows.tcp.scheme"
PROFILE = "flows.tcp.tcp"
FLOW = "tcp"

# The paper's five schemes (§5.1) as vhsim presets, in the paper's order, and their names there.
SCHEMES = ("sack", "dcr", "dcr-frto", "dcr-ld", "dcr-frto-ld")
SCHEME_NAMES = {"sack": "Sack", "dcr": "DCR", "dcr-frto": "DCR-FRTO", "dcr-ld": "scheme I",
                "dcr-frto-ld": "scheme II"}
PROPOSED = ("dcr-ld", "dcr-frto-ld")
KNOWN = ("sack", "dcr", "dcr-frto")

# Ambiguity A1 (protocol-facts §15): the paper does not give window_ or packetSize_.
# label -> override of [flows.tcp.tcp]; the cross flows keep ns-2 defaults in both.
PROFILES = {
    "20x1000B": '{ window = "20pkt", segment_size = "1000B" }',
    "64x1460B": '{ window = "64pkt", segment_size = "1460B" }',
}
PROFILE_NAMES = {"20x1000B": "ns-2 default window 20 x 1000 B", "64x1460B": "window 64 x 1460 B"}

NETWORK_KBPS = {"3G": 1000.0, "WLAN": 10000.0}  # Table 1 link rates

REPLICATIONS = 30
QUICK_REPLICATIONS = 2
HANDOVER_AT_S = 250.0
PAUSE_S = 30.0
DURATION_S = 500.0
QUICK = {"duration": "100s", "timeline[0].at": "40s", "metrics.handover_window": "40s"}
QUICK_LD = {"duration": "60s", "timeline[0].at": "40s", "metrics.handover_window": "10s"}


@dataclass(frozen=True)
class Scenario:
    """One of Figures 11-14."""

    figure: str          # fig11 ...
    number: int          # 11 ...
    file: str            # under scenarios/
    before: str          # network before the handover: "3G" or "WLAN"
    after: str
    congested: bool
    fixed: tuple[tuple[str, str], ...] = ()  # overrides of a variant (the A10 swap depth)
    variant: str = ""                        # what the variant changes, for titles

    @property
    def title(self) -> str:
        what = " under congestion (10 cross flows on the wired part)" if self.congested else ""
        variant = f", {self.variant}" if self.variant else ""
        return (f"Figure {self.number}: throughput before and after a handover from {self.before} to "
                f"{self.after}{what}{variant}, % of each network's bandwidth, 5 schemes, 2 window profiles")

    def windows(self, quick: bool) -> tuple[tuple[float, float], tuple[float, float]]:
        """(before, after) measurement windows in seconds."""
        at = float(QUICK["timeline[0].at"].rstrip("s")) if quick else HANDOVER_AT_S
        end = float(QUICK["duration"].rstrip("s")) if quick else DURATION_S
        return (0.0, at), (at + PAUSE_S, end)


FIGURES = (
    Scenario("fig11", 11, "limjang/3g-to-wlan.toml", "3G", "WLAN", False),
    Scenario("fig12", 12, "limjang/wlan-to-3g.toml", "WLAN", "3G", False),
    Scenario("fig13", 13, "limjang/3g-to-wlan-congested.toml", "3G", "WLAN", True),
    Scenario("fig14", 14, "limjang/wlan-to-3g-congested.toml", "WLAN", "3G", True),
)
# Ambiguity A10 (protocol-facts §12, §15): a swap of depth 1 causes one dupACK and never a fast
# retransmit; depth 3 makes every swap a spurious fast retransmit for Sack, which is what DCR
# was designed to hide.  Figures 11-12 again with depth 3 (same claims), as a sensitivity run.
DEPTH3 = (("links.umts.forward.reorder.depth", "3"),)
VARIANTS = (
    Scenario("fig11-depth3", 11, "limjang/3g-to-wlan.toml", "3G", "WLAN", False, DEPTH3,
             "3G swap depth 3 (A10 variant)"),
    Scenario("fig12-depth3", 12, "limjang/wlan-to-3g.toml", "WLAN", "3G", False, DEPTH3,
             "3G swap depth 3 (A10 variant)"),
)
# The congested figures again with the cross flows ending at r, as the calibration file reads
# the paper (cross RTT about 2 ms, 6-7% wired loss instead of 1.5%): whether the conclusions
# hang on our 15 ms choice.
CROSS_AT_R = (("flows.cross.to", "r"),)
VARIANTS += (
    Scenario("fig13-cross-at-r", 13, "limjang/3g-to-wlan-congested.toml", "3G", "WLAN", True, CROSS_AT_R,
             "cross flows ending at r (RTT about 2 ms)"),
    Scenario("fig14-cross-at-r", 14, "limjang/wlan-to-3g-congested.toml", "WLAN", "3G", True, CROSS_AT_R,
             "cross flows ending at r (RTT about 2 ms)"),
)
BY_FIGURE = {s.figure: s for s in FIGURES + VARIANTS}


def is_quick(spec: CampaignSpec) -> bool:
    """Whether a campaign of Figures 11-14 is the quick one (its fixed overrides say so)."""
    return dict(spec.fixed).get("duration") == QUICK["duration"]


def profile_axis(profiles: tuple[str, ...] = tuple(PROFILES)) -> Axis:
    return Axis(PROFILE, tuple(AxisValue(p, PROFILES[p]) for p in profiles))


def scheme_axis(schemes: tuple[str, ...] = SCHEMES) -> Axis:
    return Axis(SCHEME, tuple(AxisValue(s, s) for s in schemes))


def _spec(relative: str, axes: tuple[Axis, ...], fixed: dict[str, str], replications: int,
          detail: str = "summary", zip_axes: bool = False) -> CampaignSpec:
    path = scenario_file(relative)
    return CampaignSpec(path.read_text(encoding="utf-8"), str(path), tuple(fixed.items()), axes,
                        zip_axes=zip_axes, replications=replications, detail=detail)


def throughput_campaign(scenario: Scenario, quick: bool) -> CampaignSpec:
    """Figures 11-14: profile x scheme, 30 replications (quick: 2 of 100 s)."""
    fixed = dict(scenario.fixed) | (QUICK if quick else {})
    return _spec(scenario.file, (profile_axis(), scheme_axis()), fixed, QUICK_REPLICATIONS if quick else REPLICATIONS)


LD_TRACE = {"fig2": ("limjang/ld-trace-3g-to-wlan.toml", "3G", "WLAN"),
            "fig3": ("limjang/ld-trace-wlan-to-3g.toml", "WLAN", "3G")}


def ld_trace_campaign(figure: str, quick: bool) -> CampaignSpec:
    """Figures 2-3: scheme II, one run per profile, with the timeseries trace."""
    return _spec(LD_TRACE[figure][0], (profile_axis(),), QUICK_LD if quick else {}, 1, detail="timeseries")


def ld_trace_handover(quick: bool) -> tuple[float, float]:
    """(start, end) of the 3 s pause of the LD-trace scenarios."""
    at = float(QUICK_LD["timeline[0].at"].rstrip("s")) if quick else HANDOVER_AT_S
    return at, at + 3.0


# Where the cross flows end: at r (as the calibration file is written: RTT about 2 ms) or
# behind their own access link of the given one-way delay.  Zipped: (sink, delay) pairs.
CROSS_DELAYS_MS = (5, 10, 15, 20)
CROSS_CHOSEN_MS = 15  # what *-congested.toml use
CROSS_SINK = "flows.cross.to"
CROSS_DELAY = "links.crossaccess.delay"


def cross_campaign(quick: bool) -> CampaignSpec:
    delays = (10, 15) if quick else CROSS_DELAYS_MS
    sinks = Axis(CROSS_SINK, (AxisValue("r", "r"),) + tuple(AxisValue("x", "x") for _ in delays))
    # The delay does not matter when the flows end at r; it is labelled "none" there.
    delay = Axis(CROSS_DELAY, (AxisValue("none", "15ms"),) + tuple(AxisValue(f"{d}ms", f"{d}ms") for d in delays))
    fixed = {"duration": "100s"} if quick else {}
    return _spec("limjang/cross-traffic-calibration.toml", (sinks, delay), fixed, 1 if quick else 3,
                 zip_axes=True)
