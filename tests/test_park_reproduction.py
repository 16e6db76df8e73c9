"""The park reproduction: the scenario files against Park et al. §4.1, Jain's index and the gain
rule on tiny synthetic results (holds / does not hold), the scheme list as data, and one reduced
figure run end to end with the paper's presets; the stand-in mapping's labels."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover
    import tomli as tomllib

from vhsim.campaign import claims as C
from vhsim.campaign.papers import park as P
from vhsim.campaign.papers import park_claims as PC
from vhsim.campaign.reproduce import register, reproduce

from conftest import REPO

SCEN = REPO / "scenarios" / "park"
WAVE_DECISIONS = PC.WAVE.columns[0]


def _toml(name: str) -> dict:
    return tomllib.loads((SCEN / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name, new_rate", [("cells-6to1.toml", "1Mbps"), ("cells-6to11.toml", "11Mbps")])
def test_the_cell_scenarios_have_the_papers_values(name, new_rate):
    s = _toml(name)
    assert s["duration"] == "180s"
    assert all(link["queue"] == "20pkt" for link in s["links"].values())
    assert (s["links"]["cell_old"]["rate"], s["links"]["cell_new"]["rate"]) == ("6Mbps", new_rate)
    assert s["mobile"]["mobility"]["cell_radius"] == "500m"
    assert list(s["flows"]) == ["bulk"]
    # Figure 2: CN -> GW -> old AP / new AP -> MN, the paths parting at the GW.
    assert s["mobile"]["anchor"] == "gw"
    assert {tuple(link["between"]) for link in s["links"].values()} == {
        ("cn", "gw"), ("gw", "ap_old"), ("gw", "ap_new"), ("ap_old", "mn"), ("ap_new", "mn")}


def test_the_movement_capacity_is_the_cells_rates_over_the_window_by_hand():
    # 6 -> 11 Mb/s at 50 km/h: the window is [81 s, 99 s]; 9 s in the old cell at 6 Mb/s, then
    # the handoff (10 m / 13.89 m/s + 0.2 s = 0.92 s) and 8.08 s at 11 Mb/s; payload 1000/1040:
    # (6000 x 9 + 11000 x 8.08) / 18 x 1000/1040 = 7632.5 kb/s.
    assert P.movement_capacity_kbps("6to11", 50) == pytest.approx((6000 * 9 + 11000 * 8.08) / 18 * 1000 / 1040)
    # The constants are the scenarios': cell rates, the handoff band and latency, the geometry.
    for cells, (old, new) in P.CELL_KBPS.items():
        s = _toml(f"cells-{cells}.toml")
        assert (s["links"]["cell_old"]["rate"], s["links"]["cell_new"]["rate"]) == (f"{old / 1000:g}Mbps",
                                                                                    f"{new / 1000:g}Mbps")
        m = s["mobile"]["mobility"]
        assert (m["handoff_band"], m["handoff_latency"]) == (f"{P.BAND_M:g}m", f"{1000 * P.LATENCY_S:g}ms")
        assert (m["start_position"], m["spacing"], m["trigger"]) == ("250m", "750m", "midpoint")
        assert s["metrics"]["windows"]["movement"] == "overlap"


def test_jains_index():
    assert P.jain([5, 5, 5, 5]) == 1.0
    assert P.jain([1, 0, 0, 0]) == 0.25           # 1/n: one flow takes everything
    assert P.jain([1, 3]) == pytest.approx(16 / 20)


def _synthetic(ftv2: list[float], other: list[float], x: str = PC.SPEED, capacity: float = 1000.0,
               wave: int = 3) -> pd.DataFrame:
    """Two speeds x two seeds per scheme; the other three schemes all give ``other``; FTv2's WAVE
    took ``wave`` decisions in every run (the others have no such counter)."""
    rows = []
    for role, values in ((PC.FTV2, ftv2), *((o, other) for o in PC.OTHERS)):
        for k, v in enumerate(values):
            rows.append({PC.SCHEME: role, x: float(10 + 90 * (k // 2)), "seed": 1 + k % 2, PC.THROUGHPUT.column: v,
                         PC.MOVEMENT_CAPACITY: capacity, WAVE_DECISIONS: wave if role == PC.FTV2 else float("nan")})
    df = pd.DataFrame(rows)
    df.attrs["axes"] = [PC.SCHEME, x]
    return df


def _status(claim, table) -> str:
    return C.evaluate(claim, table).status


def test_the_gain_rule_needs_the_paired_ci_above_zero_and_the_size_in_range():
    claim = PC.gain_claim(PC.VEGAS, 40, "test")
    # +40% in every pair: holds.
    assert _status(claim, _synthetic([140, 141, 142, 143], [100, 100.5, 101, 101.5])) == C.HOLDS
    # +100% (more than twice 40%): out of range.
    assert _status(claim, _synthetic([200, 201, 202, 203], [100, 100.5, 101, 101.5])) == C.FAILS
    # +40% on average, but one pair negative and the spread large: the paired CI includes 0.
    assert _status(claim, _synthetic([300, 60, 90, 110], [100, 100, 100, 100])) == C.FAILS
    # No FTv2 runs: not checkable.
    table = _synthetic([140, 141, 142, 143], [100, 100, 100, 100])
    assert _status(claim, table[table[PC.SCHEME] != PC.FTV2]) == C.NOT_CHECKABLE
    # The other scheme already at 97% of the capacity: +40% is out of reach, whatever FTv2 does.
    capped = C.evaluate(claim, _synthetic([140, 141, 142, 143], [100, 100.5, 101, 101.5], capacity=104))
    assert capped.status == C.NOT_CHECKABLE and "as set up" in capped.ours and "payload capacity" in capped.ours
    # Identical replications (a speed study without the random start): n = 1, not checkable.
    same = C.evaluate(claim, _synthetic([140, 140, 142, 142], [100, 100, 101, 101]))
    assert same.status == C.NOT_CHECKABLE and "no randomness" in same.ours


def test_a_gain_of_ftv2_whose_wave_never_decided_is_not_checkable():
    # The numbers would hold, but WAVE took no decision in any FTv2 run: the claim tests nothing.
    claim = PC.gain_claim(PC.FREEZE, 8, "test")
    engaged = _synthetic([108, 109, 110, 111], [100, 100.5, 101, 101.5])
    assert _status(claim, engaged) == C.HOLDS
    assert "WAVE engaged in 4 of 4 runs" in C.evaluate(claim, engaged).ours
    never = C.evaluate(claim, _synthetic([108, 109, 110, 111], [100, 100.5, 101, 101.5], wave=0))
    assert never.status == C.NOT_CHECKABLE and "WAVE never engaged" in never.ours
    assert _status(PC.mean_gain_claim(5, 50, "test"),
                   _synthetic([108, 109, 110, 111], [100, 100.5, 101, 101.5], wave=0)) == C.NOT_CHECKABLE


def test_the_overall_improvement_is_the_mean_of_the_three_gains():
    claim = PC.mean_gain_claim(20, 50, "test")
    assert _status(claim, _synthetic([130, 131, 132, 133], [100, 100.5, 101, 101.5], PC.ERROR)) == C.HOLDS
    assert _status(claim, _synthetic([110, 111, 112, 113], [100, 100.5, 101, 101.5], PC.ERROR)) == C.FAILS


def test_the_scheme_list_is_data():
    assert P.SCHEMES is P.PAPER_PRESETS  # the registered reproduction runs the paper's schemes
    paper = P.paper(P.PAPER_PRESETS)
    fig = paper.figure("fig3a")
    assert [v.override for v in fig.grid.axes[0].values][::len(P.SPEEDS)] == ["vegas", "freeze", "demo-vegas", "ftv2"]
    assert "STAND-IN" not in paper.citation and "STAND-IN" not in P.PAPER.citation
    assert "STAND-IN" in P.paper(P.STAND_INS).citation
    assert P.names(P.STAND_INS)[P.FTV2] == "Freeze-TCPv2 (stand-in: sack)"
    with pytest.raises(ValueError, match="no preset for ftv2"):
        P.paper({P.VEGAS: "reno", P.FREEZE: "reno", P.DEMO: "reno"})


def test_a_reduced_figure_3b_runs_end_to_end_with_the_paper_schemes(tmp_path):
    # Two speeds, two seeds, a 60 s run with the handover at 50 s: 16 short runs.
    fig = P.PAPER.figure("fig3b")
    small = P.speed_grid(P.SCHEMES, "6to11", (10, 100), 2).but(
        fixed={"duration": "60s", "mobile.mobility.handover_at": "50s"})
    paper = register(replace(P.paper(P.SCHEMES, name="park-test"), figures=(replace(fig, quick=small),)))
    out = reproduce(paper.name, quick=True, out=tmp_path, workers=1, progress=False)
    assert out.failed_runs == 0
    verdicts = out.verdicts
    assert len(verdicts) == 4
    assert all(not v.ours.startswith("the check failed") for v in verdicts), [v.ours for v in verdicts]
    report = out.report.read_text()
    assert "Freeze-TCPv2" in report and "stand-in" not in report and "STAND-IN" not in report
    table = out.figures[0].table
    assert "10 km/h" in table and "100 km/h" in table
    assert "Freeze-TCPv2, 180 s" in table  # the run's average beside the throughput during the movement
    # WAVE decided in the FTv2 runs of the figure (their claims name the counter).
    assert any("WAVE engaged in" in v.ours for v in verdicts), [v.ours for v in verdicts]


def test_the_sensitivity_grids_set_the_window_and_the_paper_keeps_its_own():
    fig = P.paper(name="park-w40", window=40).figure("fig3b")
    assert fig.grid.fixed == {P.WINDOW_KEY: "40pkt"} and fig.quick.fixed == {P.WINDOW_KEY: "40pkt"}
    assert [f.id for f in P.paper(window=40).figures] == ["fig3a", "fig3b", "fig4a", "fig4b"]
    assert P.PAPER.figure("fig3b").grid.fixed == {}
    assert _toml("cells-6to11.toml")["flows"]["bulk"]["tcp"]["window"] == f"{P.WINDOW}pkt"


def test_every_ftv2_gain_names_wave_and_is_not_checkable_on_the_real_runs_without_it():
    # The stored table of the full Figure 3b campaign (tests/claim_tables.py): WAVE decided in
    # every FTv2 run; the same runs with the counter at 0 leave every FTv2 gain not checkable
    # (the framework's engagement rule), never "does not hold".
    import claim_tables

    table = claim_tables.load(claim_tables.TABLES / "park" / "fig3b.json.gz")
    fig = P.PAPER.figure("fig3b")
    gains = [c for c in fig.claims if isinstance(c, C.Gain)]
    assert len(gains) == 3 and all(c.engages == (PC.WAVE,) for c in gains)
    counter = table[WAVE_DECISIONS]
    assert (counter[table[PC.SCHEME] == PC.FTV2] > 0).all() and counter[table[PC.SCHEME] != PC.FTV2].isna().all()
    never = table.assign(**{WAVE_DECISIONS: counter.where(counter.isna(), 0.0)})
    for claim in gains:
        engaged = C.evaluate(claim, table, ctx=fig.context(table))
        assert "as set up" in engaged.ours or "WAVE engaged in 100 of 100 runs" in engaged.ours, engaged.ours
        v = C.evaluate(claim, never, ctx=fig.context(never))
        assert v.status == C.NOT_CHECKABLE and "WAVE never engaged" in v.ours, v.ours


def test_the_sensitivity_table_reads_the_gain_or_the_ceiling_from_a_verdict():
    assert P.measured_gain("throughput during the movement: Freeze-TCPv2 5624 kb/s vs Freeze-TCP 5552 kb/s: "
                           "+1.3% [-0.6% .. +3.2%]; n = 100, paired t") == "+1.3%"
    assert P.measured_gain("... vs TCP Vegas 1001 kb/s: -27% [..]; ... vs DEMO-Vegas 986 kb/s: -26% [..]; "
                           "mean -17% [-21% .. -14%]") == "-17%"
    assert P.measured_gain("not checkable as set up: the cells' payload capacity during the movement (3315 kb/s) "
                           "allows at most +1.5% against TCP Vegas (3267 kb/s)") == "ceiling: at most +1.5%"
    assert P.measured_gain("TCP Vegas: 1%: 1619 kb/s, 5%: 648 kb/s (last - first -971 [-1089 .. -853])") is None
