"""The danielkojo reproduction: buffers, configuration lists, the censored quartiles, the
formulas of A1/A2, claims on synthetic results (regular, and regular against enhanced TCP,
drops of A2 against A5), and quick runs of one small figure of each kind and a case study."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from vhsim import campaign
from vhsim.campaign.papers import danielkojo as D
from vhsim.campaign.papers import danielkojo_analysis as A
from vhsim.campaign.papers import danielkojo_cases as K
from vhsim.campaign.papers import danielkojo_claims as C
from vhsim.campaign.papers import danielkojo_claims6 as E
from vhsim.campaign.papers import danielkojo_setup as S

from conftest import REPO, run_vhsim


@pytest.mark.parametrize("kbps, ms, packets", [
    (6400, 9, 10),     # 6400e3 * 0.018 / 12000 = 9.6 -> 10
    (200, 1, 5),       # 0.03 packets -> the floor of 5
    (200, 300, 10),    # exactly 10 (no rounding up of float noise)
    (6400, 300, 320),  # the paper's "320 packets"
    (6400, 75, 80),    # the paper's "80 packets"
    (1600, 37, 10),    # 9.87 -> 10
    (6400, 37, 40),    # 39.5 -> 40
])
def test_router_buffer_is_the_bdp_with_a_floor_of_five(kbps, ms, packets):
    assert S.queue_packets(kbps, ms) == packets


def test_configuration_lists_full_and_quick():
    assert len(S.instants(False)) == 200 and S.instants(False)[:2] == ["1s", "1.1s"]
    assert S.instants(False)[-1] == "20.9s"
    assert S.instants(True) == [f"{s}s" for s in range(1, 21)]
    full = {"fig2": 3 * 6, "fig3": 3 * 6, "fig4": 4 * 5, "fig5": 4 * 5, "fig6": 6, "fig7": 6}
    quick = {"fig2": 3 * 4, "fig3": 3 * 4, "fig4": 4 * 3, "fig5": 4 * 3, "fig6": 3, "fig7": 3}
    for study in D.STUDIES:
        assert len(study.pairs(False)) == full[study.id], study.id
        assert len(study.pairs(True)) == quick[study.id], study.id
        # x 2 handoff kinds x instants, one run each
        assert study.campaign(False).size == full[study.id] * 2 * 200
        assert study.campaign(True).size == quick[study.id] * 2 * 20
    # regular vs enhanced (Figure 23: three senders and the drop-counting runs); quick: 10 instants
    enhanced = {"fig17": (12, 4, 2, 2), "fig18": (6, 2, 2, 2), "fig19": (6, 2, 2, 2), "fig21": (10, 4, 1, 2),
                "fig22": (5, 2, 2, 2), "fig23": (6, 2, 1, 6), "fig26": (6, 2, 1, 2), "fig27": (6, 2, 2, 2)}
    for study in D.ENHANCED_STUDIES:
        full_pairs, quick_pairs, kinds, runs_per = enhanced[study.id]
        assert len(study.kinds) == kinds and len(study.pairs(False)) == full_pairs, study.id
        assert study.campaign(False).size == full_pairs * kinds * runs_per * 200, study.id
        assert len(study.pairs(True)) == quick_pairs, study.id
        assert study.campaign(True).size == quick_pairs * kinds * runs_per * 10, study.id
    for case in D.CASES:
        n = len(case.senders)
        assert case.campaign(False).size == case.campaign(True).size == n
    assert D.CASES[-1].senders == ("regular", "enhanced", "enhanced-a5")
    assert S.instants(True, S.INSTANTS_QUICK_ENHANCED) == [f"{s}s" for s in range(1, 20, 2)]


def test_each_configuration_carries_its_own_buffers_kind_and_horizon():
    spec = D.STUDIES[0].campaign(True)  # fig2 quick
    keys = [a.key for a in spec.axes]
    assert spec.zip_axes and keys == list(S.AXIS_KEYS)
    for config in spec.configurations():
        v = dict(zip(keys, (x.label for x in config.values)))
        old = (int(v[S.OLD_RATE].removesuffix("kbps")), int(v[S.OLD_DELAY].removesuffix("ms")))
        new = (int(v[S.NEW_RATE].removesuffix("kbps")), int(v[S.NEW_DELAY].removesuffix("ms")))
        assert v[S.OLD_QUEUE] == f"{S.queue_packets(*old)}pkt" and v[S.NEW_QUEUE] == f"{S.queue_packets(*new)}pkt"
        assert new[1] == 300 and old[0] == new[0]
        at = float(v[S.AT].removesuffix("s"))
        assert math.isclose(float(v[S.DURATION].removesuffix("s")) - at, S.horizon_s(new[0]))
        assert v[S.KIND] in S.KINDS and v[S.SENDER] == "regular"
    # every configuration resolves (break_before_make gets its gap, make_before_break none)
    from vhsim import __version__
    runs = spec.plan(__version__)
    assert len(runs) == 480 and len({r.run_id for r in runs}) == 480


def test_drop_counting_runs_end_five_seconds_after_the_handoff():
    spec = D.ENHANCED_STUDIES[5].campaign(True)  # fig23 quick
    assert spec.fixed[0] == ("timeline[0].at", "0.5s")
    labels = [dict(zip(S.AXIS_KEYS, (v.label for v in c.values))) for c in spec.configurations()]
    short = [v for v in labels if float(v[S.DURATION][:-1]) - float(v[S.AT][:-1]) == S.DROPS_WINDOW_S]
    assert len(short) == len(labels) // 2 and {v[S.SENDER] for v in short} == set(S.WITH_A5)
    from vhsim import __version__
    assert len({r.run_id for r in spec.plan(__version__)}) == len(labels)


def test_a1_and_a2_formulas_give_the_papers_worked_values():
    # crates/vhsim-tcp/tests/crosslayer.rs asserts the same numbers in the sender itself
    assert math.isclose(K.a1_minrto(1, S.Link(6400, 9), S.Link(200, 300), 21), 0.55185)
    assert math.isclose(K.a1_minrto(2, S.Link(800, 75), S.Link(200, 300), 24), 1.2216)
    assert math.isclose(K.a1_minrto(3, S.Link(400, 150), S.Link(200, 300), 21), 2.1216)
    assert math.isclose(K.bdp_newlink(S.Link(400, 150)), 11.0267, rel_tol=1e-4)  # "11"
    assert K.cut_window(S.Link(400, 150)) == 11 and K.cut_window(S.Link(1600, 1)) == 2


def test_censored_quartiles():
    assert A.censored_quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)  # numpy's type 7
    assert A.censored_quartiles([4, 1, 3, 2, math.inf]) == (2.0, 3.0, 4.0)  # censored run above q3
    q1, med, q3 = A.censored_quartiles([1, 2, 3, math.inf])
    assert (q1, med) == (1.75, 2.5) and math.isinf(q3)


def _synthetic(shares: dict[tuple[int, int], float], n: int = 20) -> pd.DataFrame:
    """fig2-like results: MBB from kbps/ms to kbps/300 ms; a share of the n instants has a spurious RTO."""
    rows = []
    for (kbps, ms), share in shares.items():
        for i in range(n):
            rows.append({S.SENDER: "regular", S.KIND: "MBB", S.AT: f"{1 + i}s",
                         S.OLD_RATE: f"{kbps}kbps", S.OLD_DELAY: f"{ms}ms", S.OLD_QUEUE: "5pkt",
                         S.NEW_RATE: f"{kbps}kbps", S.NEW_DELAY: "300ms", S.NEW_QUEUE: "5pkt",
                         S.DURATION: f"{31 + i}s", S.TIME: 5.0 + i / n, S.RTOS: 1,
                         S.SPURIOUS_RTOS: 1 if i < round(share * n) else 0, S.SPURIOUS_RETX: 0,
                         S.OLD_LINK_DOWN: 0, S.NEW_OVERFLOWS: 0})
    return pd.DataFrame(rows)


def test_spurious_rto_claim_on_synthetic_results():
    good = {(k, ms): (0.95 if ms <= 37 else 0.10) for k in (1600, 6400) for ms in (150, 75, 37, 9)}
    holds, numbers = C.fig2_spurious_fast(_synthetic(good))
    assert holds and "1600 kb/s" in numbers and "37 ms: 95%" in numbers
    bad = dict(good)
    bad[(6400, 9)] = 0.80  # below the paper's 85% at a 33x delay increase
    assert not C.fig2_spurious_fast(_synthetic(bad))[0]
    bad = dict(good)
    bad[(1600, 75)] = 0.25  # at least 20% below the 8x line
    assert not C.fig2_spurious_fast(_synthetic(bad))[0]
    # 200 kb/s: 10-40%, not falling as the old delay decreases
    slow = {(200, 150): 0.10, (200, 37): 0.20, (200, 1): 0.40}
    assert C.fig2_spurious_slow(_synthetic(slow))[0]
    slow[(200, 150)] = 0.0
    assert not C.fig2_spurious_slow(_synthetic(slow))[0]


def _pairs(times: dict[tuple[str, str, int, int], float], n: int = 10, drops: dict | None = None) -> pd.DataFrame:
    """fig17-like results: (sender, kind, kbps, old ms) -> median-ish transfer time over n instants;
    spurious RTOs at every instant for regular when the old delay is 37 ms or less. ``drops``:
    (sender, kbps) -> new-link drops of the drop-counting runs."""
    rows = []
    for (sender, kind, kbps, ms), t in times.items():
        for i in range(n):
            base = {S.SENDER: sender, S.KIND: kind, S.AT: f"{1 + i}s", S.OLD_RATE: f"{kbps}kbps",
                    S.OLD_DELAY: f"{ms}ms", S.OLD_QUEUE: "5pkt", S.NEW_RATE: f"{kbps}kbps", S.NEW_DELAY: "300ms",
                    S.NEW_QUEUE: "5pkt", S.RTOS: 1, S.SPURIOUS_RETX: 0, S.OLD_LINK_DOWN: 0, S.NEW_OVERFLOWS: 0,
                    S.SPURIOUS_RTOS: 1 if sender == "regular" and ms <= 37 else 0}
            rows.append({**base, S.DURATION: f"{31 + i}s", S.TIME: t + (i - n / 2) / 100})
            if drops is not None:
                rows.append({**base, S.DURATION: f"{1 + i + S.DROPS_WINDOW_S}s", S.TIME: float("nan"),
                             S.NEW_OVERFLOWS: drops.get((sender, kbps), 0)})
    return pd.DataFrame(rows)


def test_enhanced_reduction_claim_on_synthetic_results():
    times = {}
    for ms, regular, enhanced in ((150, 3.0, 3.1), (75, 3.0, 2.9), (37, 8.0, 4.0), (9, 10.0, 4.0)):
        times[("regular", "MBB", 6400, ms)] = regular
        times[("enhanced", "MBB", 6400, ms)] = enhanced
    holds, numbers = E.FIG17[0].check(_pairs(times))
    assert holds and "9 ms: 60% (10.00 -> 4.00 s)" in numbers and "150 ms: -3%" in numbers, numbers
    assert E.FIG17[2].check(_pairs(times))[0]  # no spurious RTO where regular has them at every instant
    worse = dict(times)
    worse[("enhanced", "MBB", 6400, 9)] = 9.0   # a 10% cut where the paper says 35-65%
    holds, numbers = E.FIG17[0].check(_pairs(worse))
    assert not holds and "9 ms: 10%" in numbers
    worse = dict(times)
    worse[("enhanced", "MBB", 6400, 150)] = 4.0  # 33% slower below the 8x line, not "similar"
    assert not E.FIG17[0].check(_pairs(worse))[0]
    with pytest.raises(ValueError):              # none of the claim's points: could not be checked
        E.FIG17[1].check(_pairs(times))


def test_a5_drops_claim_on_synthetic_results():
    times = {(sender, "MBB", 6400, 9): t for sender, t in (("regular", 12.0), ("enhanced", 7.2),
                                                          ("enhanced-a5", 7.0))}
    df = _pairs(times, drops={("regular", 6400): 15, ("enhanced", 6400): 3, ("enhanced-a5", 6400): 0})
    row = A.summary(df).set_index("sender").loc["enhanced"]
    assert row["instants"] == 10 and row["window_drops_mean"] == 3  # the short runs are not transfer runs
    drops_claim, a5_claim = E.FIG23[3], E.FIG23[4]
    holds, numbers = drops_claim.check(df)
    assert holds and "regular 15.0, A2 3.0, A5 0.0" in numbers
    assert a5_claim.check(df)[0]
    df = _pairs(times, drops={("regular", 6400): 15, ("enhanced", 6400): 3, ("enhanced-a5", 6400): 1})
    assert not drops_claim.check(df)[0]


def test_censored_runs_are_counted_not_dropped():
    df = _synthetic({(1600, 9): 1.0}, n=8)
    df.loc[df.index[-3:], S.TIME] = float("nan")  # 3 of 8 did not finish within the horizon
    table = A.summary(df)
    row = table.iloc[0]
    assert row["instants"] == 8 and row["censored"] == 3
    assert math.isfinite(row["median"]) and math.isinf(row["q3"])


def test_reproduce_quick_one_figure(tmp_path):
    out = tmp_path / "dk"
    r = run_vhsim("reproduce", "danielkojo", "--quick", "--figure", "fig6", "--out", out, "--workers", "2",
                  cwd=REPO, timeout=120)
    assert r.returncode == 0, r.stderr
    for ext in ("png", "svg"):
        assert (out / "fig6" / f"fig6-transfer-time.{ext}").stat().st_size > 1000
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "## fig6: Figure 6" in report and "![fig6-transfer-time](fig6/fig6-transfer-time.png)" in report
    assert "| regular | 6400/9 | 200/300 | MBB |" in report
    for claim in C.FIG6:
        line = next(ln for ln in report.splitlines() if ln.startswith(f"| {claim.text}"))
        assert line.endswith("| **holds** |") or line.endswith("| **does not hold** |"), line
    df = campaign.open(out / "fig6" / "campaign").results()
    assert len(df) == 3 * 2 * 20 and df[S.TIME].notna().all()


def test_reproduce_quick_enhanced_figure(tmp_path):
    from vhsim.campaign.reproduce import reproduce

    outcome = reproduce("danielkojo", "fig26", quick=True, out=tmp_path, workers=2, progress=False)
    fig = outcome.figures[0]
    assert {p.name for p in fig.files} == {"fig26-transfer-time.png", "fig26-transfer-time.svg"}
    assert len(fig.verdicts) == len(E.FIG26) and all(h is not None for _, h, _ in fig.verdicts)
    report = outcome.report.read_text(encoding="utf-8")
    assert "**enhanced against regular TCP**" in report and "| BBM | 1600/37 | 200/300 |" in report
    df = fig.sweep.campaign.results()
    assert len(df) == 2 * 10 * 2 and set(df[S.SENDER]) == {"regular", "enhanced"} and df[S.TIME].notna().all()


def test_case_study_plot(tmp_path):
    from vhsim.campaign.reproduce import reproduce

    outcome = reproduce("danielkojo", "fig8", quick=True, out=tmp_path, workers=1, progress=False)
    names = {p.name for p in outcome.figures[0].files}
    assert {"fig8-time-sequence.png", "fig8-regular-whole-run.png", "fig8-enhanced-whole-run.png"} <= names
    verdicts = outcome.figures[0].verdicts
    assert len(verdicts) == 4 and all(h is not None for _, h, _ in verdicts)
    # regular has a spurious RTO, enhanced none and is faster; A1 Case 1 applied with our FlightSize
    assert all(h for _, h, _ in verdicts[2:]), verdicts[2:]
    assert "formula" in verdicts[3][2] and "551.85 ms" in verdicts[3][2]
    report = outcome.report.read_text(encoding="utf-8")
    assert "* at the notification (8.20 s) enhanced TCP is 'open'" in report
