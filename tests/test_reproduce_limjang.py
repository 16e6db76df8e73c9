"""The limjang reproduction: scenario files against Table 1, the throughput-% conversion, the
claim checks on tiny synthetic results (holds / does not hold), and quick runs of one
throughput figure and one LD-trace figure through `vhsim reproduce`."""

from __future__ import annotations

import math

import pandas as pd
import pytest

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

import vhsim
from vhsim.campaign.papers import limjang as L
from vhsim.campaign.papers import limjang_analysis as A
from vhsim.campaign.papers import limjang_claims as C
from vhsim.campaign.papers import limjang_setup as S
from vhsim.campaign.reproduce import papers

from conftest import REPO, run_vhsim

SCEN = REPO / "scenarios" / "limjang"
TABLE1 = ["3g-to-wlan.toml", "wlan-to-3g.toml", "3g-to-wlan-congested.toml", "wlan-to-3g-congested.toml"]


def _toml(name: str) -> dict:
    return tomllib.loads((SCEN / name).read_text(encoding="utf-8"))


# -- scenario files ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TABLE1)
def test_table1_scenarios_have_the_papers_values(name):
    s = _toml(name)
    vhsim.load(SCEN / name).validate()
    assert s["duration"] == "500s"
    wired, umts, wlan = s["links"]["wired"], s["links"]["umts"], s["links"]["wlan"]
    assert (wired["rate"], wired["delay"], wired["queue"]) == ("20Mbps", "1ms", "30pkt")
    assert (umts["rate"], umts["delay"]) == ("1Mbps", "200ms")
    assert umts["forward"]["error"] == {"kind": "bernoulli", "p": 0.005}
    assert umts["forward"]["reorder"] == {"kind": "swap", "q": 0.05, "depth": 1}
    assert (wlan["rate"], wlan["delay"]) == ("10Mbps", "20ms")
    assert wlan["forward"]["error"] == {"kind": "gilbert_elliott_timed", "good_duration": "1s",
                                        "bad_duration": "100ms", "p_bad": 0.5, "loss_good": 0.001,
                                        "loss_bad": 0.1}
    (ho,) = s["timeline"]
    assert (ho["at"], ho["kind"], ho["duration"]) == ("250s", "pause", "30s")
    first, second = ("umts", "wlan") if name.startswith("3g") else ("wlan", "umts")
    assert (s["mobile"]["initial"], ho["to"]) == (first, second)
    assert s["metrics"]["handover_window"] == "250s"
    assert s["flows"]["tcp"]["scheme"] == "sack" and "tcp" not in s["flows"]["tcp"]  # ns-2 defaults
    if "congested" in name:
        cross = s["flows"]["cross"]
        assert cross["count"] == 10 and cross["from"] == "cn" and cross["to"] == "x"
        assert s["links"]["crossaccess"]["delay"] == f"{S.CROSS_CHOSEN_MS}ms"
        assert s["links"]["crossaccess"]["between"] == ["r", "x"]
    else:
        assert "cross" not in s["flows"]


@pytest.mark.parametrize("name, first, second", [("ld-trace-3g-to-wlan.toml", "umts", "wlan"),
                                                 ("ld-trace-wlan-to-3g.toml", "wlan", "umts")])
def test_ld_trace_scenarios_are_loss_free_with_a_3s_pause(name, first, second):
    s = _toml(name)
    vhsim.load(SCEN / name).validate()
    for link in s["links"].values():
        assert "forward" not in link and "error" not in link and "reorder" not in link
    assert set(s["flows"]) == {"tcp"} and s["flows"]["tcp"]["scheme"] == "dcr-frto-ld"
    (ho,) = s["timeline"]
    assert (ho["kind"], ho["duration"], s["mobile"]["initial"], ho["to"]) == ("pause", "3s", first, second)
    umts, wlan = s["links"]["umts"], s["links"]["wlan"]
    # The paper's equal bandwidth-delay products: 1 Mb/s x 200 ms = 10 Mb/s x 20 ms.
    assert (umts["rate"], umts["delay"], wlan["rate"], wlan["delay"]) == ("1Mbps", "200ms", "10Mbps", "20ms")


def test_calibration_file_keeps_the_literal_cross_sinks_by_default():
    s = _toml("cross-traffic-calibration.toml")
    assert s["flows"]["cross"]["to"] == "r" and s["flows"]["cross"]["count"] == 10
    vhsim.load(SCEN / "cross-traffic-calibration.toml").set("flows.cross.to", "x").validate()


def test_registered_with_all_figures_and_campaign_sizes():
    paper = papers()["limjang"]
    assert [f.id for f in paper.figures] == ["fig2", "fig3", "fig11", "fig12", "fig13", "fig14", "cross-traffic",
                                             "fig11-depth3", "fig12-depth3", "fig13-cross-at-r", "fig14-cross-at-r"]
    for sc in S.FIGURES + S.VARIANTS:
        assert S.throughput_campaign(sc, False).size == 2 * 5 * 30
        assert S.throughput_campaign(sc, True).size == 2 * 5 * 2
        assert S.is_quick(S.throughput_campaign(sc, True)) and not S.is_quick(S.throughput_campaign(sc, False))
    assert S.ld_trace_campaign("fig2", False).detail == "timeseries"
    # The A10 variant differs from Figure 12 only by the swap depth, and has Figure 12's claims.
    depth3 = S.throughput_campaign(S.BY_FIGURE["fig12-depth3"], False)
    assert dict(depth3.fixed) == {"links.umts.forward.reorder.depth": "3"}
    assert depth3.scenario_text == S.throughput_campaign(S.BY_FIGURE["fig12"], False).scenario_text
    assert [c.text for c in C.throughput_claims(S.BY_FIGURE["fig12-depth3"])] == \
        [c.text for c in C.throughput_claims(S.BY_FIGURE["fig12"])]


# -- throughput as % of the bandwidth --------------------------------------------------------------
def test_percent_of_each_networks_bandwidth():
    # The paper's own example (§5.1): 50% of 3G is 0.5 Mb/s, 40% of WLAN is 4 Mb/s.
    assert A.percent(500, "3G") == 50.0 and A.percent(4000, "WLAN") == 40.0
    df = _synthetic({("20x1000B", "sack"): (250, 2800)}, spread=0)
    pct = A.with_percent(df, S.BY_FIGURE["fig11"])
    assert pct["before_pct"].tolist() == [25.0] * 3 and pct["after_pct"].tolist() == [28.0] * 3
    pct = A.with_percent(df, S.BY_FIGURE["fig12"])  # WLAN before, 3G after
    assert pct["before_pct"].tolist() == [2.5] * 3 and pct["after_pct"].tolist() == [280.0] * 3
    long = A.long_percent(df, S.BY_FIGURE["fig11"])
    assert set(long["phase"]) == {"before: 3G", "after: WLAN"} and set(long["scheme"]) == {"Sack"}
    assert sorted(long["pct"].unique()) == [25.0, 28.0]


def _synthetic(means: dict[tuple[str, str], tuple[float, float]], reps: int = 3, spread: float = 0.01) -> pd.DataFrame:
    """Results of a throughput campaign: per (profile, scheme) before/after kb/s, with a
    +-1% spread around them over the replications (same seeds across schemes)."""
    rows = []
    for (profile, scheme), (before, after) in means.items():
        for rep in range(reps):
            f = 1 + spread * (rep - (reps - 1) / 2)
            rows.append({"config": 0, "rep": rep, "seed": 1 + rep, S.PROFILE: profile, S.SCHEME: scheme,
                         A.METRIC["before"]: before * f, A.METRIC["after"]: after * f})
    df = pd.DataFrame(rows)
    df.attrs["axes"] = [S.PROFILE, S.SCHEME]
    return df


def _claim(figure: str, profile: str, start: str):
    (claim,) = [c for c in C.throughput_claims(S.BY_FIGURE[figure])
                if c.text.startswith(f"[{profile}] {start}")]
    return claim


# -- claims on synthetic results -------------------------------------------------------------------
def test_gain_claim_holds_within_a_factor_of_two_and_not_otherwise():
    df = _synthetic({("20x1000B", "dcr"): (300, 2000), ("20x1000B", "dcr-ld"): (378, 2000),
                     ("20x1000B", "dcr-frto-ld"): (390, 2000),
                     ("64x1460B", "dcr"): (500, 5000), ("64x1460B", "dcr-ld"): (500, 5000),
                     ("64x1460B", "dcr-frto-ld"): (510, 5000)})
    holds, text = _claim("fig11", "20x1000B", "Before the handover (3G)").check(df)
    assert holds and "+26%" in text and "+30%" in text and "paired" in text
    holds, text = _claim("fig11", "64x1460B", "Before the handover (3G)").check(df)
    assert not holds and "+0.0%" in text and "+2.0%" in text  # not within a factor of two of +26%
    assert C.within_factor(0.13, 0.26) and C.within_factor(0.52, 0.26)
    assert not C.within_factor(0.12, 0.26) and not C.within_factor(-0.26, 0.26)
    assert C.within_factor(-0.5, -0.5) and not C.within_factor(0.5, -0.5)


def test_level_transition_change_negligible_and_highest_claims():
    fig12 = {("20x1000B", s): (3000, v) for s, v in
             [("sack", 150), ("dcr", 300), ("dcr-frto", 304), ("dcr-ld", 560), ("dcr-frto-ld", 570)]}
    df = _synthetic(fig12)
    holds, text = _claim("fig12", "20x1000B", "After the handover (3G) schemes I and II reach up to 60%").check(df)
    assert holds and "57.0%" in text                      # best of I and II: 57% vs 60% +-25%
    assert _claim("fig12", "20x1000B", "After the handover (3G) DCR improves").check(df)[0]  # +100%
    holds, text = _claim("fig12", "20x1000B", "The difference between schemes I and II").check(df)
    assert holds and "+1.8%" in text                       # 570 / 560 and 3000 / 3000
    low = _synthetic({k: (b, v / 3) for k, (b, v) in fig12.items()})
    assert not _claim("fig12", "20x1000B", "After the handover (3G) schemes I and II reach up to 60%").check(low)[0]

    fig13 = {("20x1000B", "sack"): (160, 80), ("20x1000B", "dcr"): (165, 79), ("20x1000B", "dcr-frto"): (165, 82),
             ("20x1000B", "dcr-ld"): (238, 459), ("20x1000B", "dcr-frto-ld"): (229, 734)}
    df = _synthetic(fig13)
    holds, text = _claim("fig13", "20x1000B", "Scheme II goes from 229").check(df)
    assert holds and "229 \u2192 734 kb/s" in text
    assert _claim("fig13", "20x1000B", "The throughputs of Sack, DCR and DCR-FRTO fall").check(df)[0]
    assert _claim("fig13", "20x1000B", "Scheme II improves the throughput by 59.9%").check(df)[0]  # +59.9%
    flat = _synthetic({k: (b, b) for k, (b, a) in fig13.items()})  # nothing changes at the handover
    assert not _claim("fig13", "20x1000B", "The throughputs of Sack, DCR and DCR-FRTO fall").check(flat)[0]
    assert not _claim("fig13", "20x1000B", "Scheme II goes from 229").check(flat)[0]

    fig14 = {("20x1000B", s): (3000, v) for s, v in
             [("sack", 200), ("dcr", 250), ("dcr-frto", 255), ("dcr-ld", 400), ("dcr-frto-ld", 418)]}
    assert _claim("fig14", "20x1000B", "Under congestion from WLAN to 3G").check(_synthetic(fig14))[0]
    fig14[("20x1000B", "dcr-ld")] = (3000, 500)
    holds, text = _claim("fig14", "20x1000B", "Under congestion from WLAN to 3G").check(_synthetic(fig14))
    assert not holds and "scheme I 50.00%" in text


def test_every_throughput_claim_is_checked_for_both_profiles():
    for sc in S.FIGURES:
        claims = C.throughput_claims(sc)
        assert claims and len(claims) % 2 == 0
        assert {c.text.split("]")[0] for c in claims} == {"[20x1000B", "[64x1460B"}


def test_ld_confusion_and_wired_loss_from_result_columns():
    df = pd.DataFrame({S.PROFILE: ["20x1000B"] * 2, S.SCHEME: ["dcr-ld"] * 2,
                       "tcp.ld_decisions": [10.0, 6.0], "tcp.ld_wireless_as_wireless": [6.0, 3.0],
                       "tcp.ld_wireless_as_congestion": [2.0, 1.0], "tcp.ld_congestion_as_congestion": [1.0, 1.0],
                       "tcp.ld_congestion_as_wireless": [1.0, 0.0], "tcp.ld_not_lost_as_wireless": [0.0, 1.0],
                       "wired/forward.drops_queue_overflow": [15, 30], "wired/forward.packets_sent": [985, 970],
                       "tcp.drops_queue_overflow": [1, 0], "tcp.segments_sent": [100, 100]})
    c = A.ld_confusion(df, "20x1000B", "dcr-ld")
    assert c["decisions"] == 16 and c["wireless_as_congestion"] == 3
    assert math.isclose(c["accuracy"], 11 / 15)  # the fast retransmit of a segment not lost is not a loss
    assert "W\u2192C 3" in A.confusion_text(c) and "73% right" in A.confusion_text(c)
    assert A.ld_confusion(df, "20x1000B", "sack") is None  # no runs of that scheme
    assert A.wired_loss(df).round(4).tolist() == [0.015, 0.03]
    assert A.study_queue_loss(df).tolist() == [0.01, 0.0]


# -- quick runs through the CLI --------------------------------------------------------------------
def test_reproduce_quick_throughput_figure_writes_plots_and_report(tmp_path):
    out = tmp_path / "lj"
    r = run_vhsim("reproduce", "limjang", "--quick", "--figure", "fig12", "--out", out, "--workers", "2",
                  cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    for profile in S.PROFILES:
        assert (out / "fig12" / f"fig12-{profile}.png").stat().st_size > 10_000
        assert (out / "fig12" / f"fig12-{profile}.svg").is_file()
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## fig12: Figure 12" in report and "### Our numbers" in report
    assert "after: % of 3G" in report and "LD decisions vs ground truth" in report
    rows = [line for line in report.splitlines() if line.startswith("| [")]
    assert len(rows) == len(C.throughput_claims(S.BY_FIGURE["fig12"]))
    assert all(line.endswith(("**holds** |", "**does not hold** |")) for line in rows), rows


def test_reproduce_quick_ld_trace_figure(tmp_path):
    out = tmp_path / "lj"
    r = run_vhsim("reproduce", "limjang", "--quick", "--figure", "fig2", "--out", out, "--workers", "1",
                  cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    assert (out / "fig2" / "fig2-ld-trace.png").stat().st_size > 10_000
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## fig2: Figure 2" in report and "Tcur after (ms)" in report
    assert "could not be checked" not in report
    assert L.PAPER.figure("fig2").claims[0].text in report.replace("\\|", "|")
