"""The claim vocabulary (vhsim.campaign.claims): every rule on synthetic results, on both sides
of its threshold, the statistics behind comparisons (a CI crossing zero never holds; identical
replications count once), ceilings, engagement, quick mode, the categories and their counts."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest

from vhsim.campaign import claims as C
from vhsim.campaign.claims import ALL, Measure


def _runs(values: dict, reps: int = 4, spread: float = 0.01) -> pd.DataFrame:
    """One row per run: (scheme, x) -> value, ``reps`` paired seeds around it."""
    rows = []
    for (scheme, x), v in values.items():
        for rep in range(reps):
            rows.append({"seed": 1 + rep, "scheme": scheme, "x": x, "y": v * (1 + spread * (rep - (reps - 1) / 2))})
    return pd.DataFrame(rows)


Y = Measure("y", unit=" kb/s", digits=0)


def _status(claim, df, names=None) -> str:
    return C.evaluate(claim, df, names).status


@pytest.mark.parametrize("value, expected", [(115, "holds"), (125, "holds"), (126, "does not hold"),
                                             (74, "does not hold")])
def test_level_around_the_papers_number(value, expected):
    df = _runs({("a", 1): value})
    claim = C.Level("a reaches 100 kb/s", measure=Y, where={"scheme": "a"}, band=C.around(100, 0.25))
    v = C.evaluate(claim, df)
    assert v.status == expected and f"{value} kb/s" in v.ours and "75 kb/s .. 125 kb/s" in v.rule


def test_level_aggregates_and_missing_points():
    df = _runs({("a", 1): 50, ("a", 2): 80})
    best = C.Level("best of two", measure=Y, where={"scheme": "a"}, over={"x": (1, 2, 3)}, band=C.above(70),
                   aggregate="max")
    v = C.evaluate(best, df, {"x": "x={}"})
    assert v.status == "holds" and "x=1: 50 kb/s, x=2: 80 kb/s" in v.ours and "largest 80 kb/s" in v.ours
    assert _status(C.Level("each", measure=Y, where={"scheme": "a"}, over={"x": (1, 2)}, band=C.above(70)),
                   df) == "does not hold"
    absent = C.evaluate(C.Level("none there", measure=Y, where={"scheme": "b"}, band=C.above(0)), df)
    assert absent.status == "not checkable" and "none of the claim's configurations" in absent.ours


@pytest.mark.parametrize("share, expected", [(0.9, "holds"), (0.85, "does not hold")])
def test_share_strictly_above(share, expected):
    n = 20
    df = pd.DataFrame({"seed": 1, "x": 1, "spurious": [1 if i < round(share * n) else 0 for i in range(n)]})
    claim = C.Share("spurious RTOs at more than 85%", column="spurious", band=C.above(0.85))
    v = C.evaluate(claim, df)
    assert v.status == expected and f"{100 * share:.0f}%" in v.ours and "> 85%" in v.rule
    again = claim.scoped({"x": 1})  # scoping keeps the band a fraction
    assert C.evaluate(again, df).status == expected


@pytest.mark.parametrize("a, expected", [(126, "holds"), (114, "holds"), (112, "does not hold"),
                                         (151, "holds"), (153, "does not hold"), (80, "does not hold")])
def test_gain_within_a_factor_of_two(a, expected):
    df = _runs({("a", 1): a, ("b", 1): 100}, spread=0.01)
    claim = C.Gain("a improves by 26% over b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.factor(0.26))
    v = C.evaluate(claim, df)
    assert v.status == expected and "paired" in v.ours and "95% CI" in v.ours


def test_gain_with_several_sides_measure_b_and_reduction():
    df = _runs({("a", 1): 130, ("c", 1): 135, ("b", 1): 100, ("d", 1): 100})
    claim = C.Gain("a, c over b, d", measure=Y, a=({"scheme": "a"}, {"scheme": "c"}),
                   b=({"scheme": "b"}, {"scheme": "d"}), band=C.factor(0.26))
    v = C.evaluate(claim, df)
    assert v.status == "holds" and v.ours.count(" vs ") == 4 and v.ours.count("[") == 4  # every pair has its CI
    df["z"] = df["y"] * 0.5  # "falls by half": one column against another of the same runs
    half = C.Gain("falls by 50%", measure=Measure("z"), measure_b=Y, where={"scheme": "a"}, band=C.factor(-0.5))
    assert _status(half, df) == "holds"
    assert _status(C.Gain("rises", measure=Measure("z"), measure_b=Y, where={"scheme": "a"}, band=C.factor(0.5)),
                   df) == "does not hold"
    times = pd.DataFrame({"sender": ["reg"] * 3 + ["enh"] * 3, "k": 1, "t": [10.0, 10.2, 9.8, 4, 4.1, 3.9]})
    cut = C.Gain("a 60% cut", measure=Measure("t", "median"), a={"sender": "enh"}, b={"sender": "reg"},
                 band=C.Band(0.5, 0.7), reduction=True)
    v = C.evaluate(cut, times)
    assert v.status == "holds" and "reduction 60%" in v.ours
    times.loc[times.sender == "reg", "t"] = math.inf  # censored regular runs: a full cut
    assert C.evaluate(cut, times).status == "does not hold" and "reduction 100%" in C.evaluate(cut, times).ours


@pytest.mark.parametrize("a, expected", [(104, "holds"), (96, "holds"), (106, "does not hold"),
                                         (94, "does not hold")])
def test_negligible(a, expected):
    df = _runs({("a", 1): a, ("b", 1): 100})
    assert _status(C.Negligible("negligible", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}), df) == expected


def test_ordering_highest_and_pairs():
    df = _runs({("a", 1): 5, ("b", 1): 7, ("c", 1): 6, ("a", 2): 5, ("b", 2): 4, ("c", 2): 9})
    highest = C.Ordering("b is highest", measure=Y, axis="scheme", top=("b",), over={"x": (1,)})
    v = C.evaluate(highest, df)
    assert v.status == "holds" and "(highest: b)" in v.ours
    assert _status(C.Ordering("b everywhere", measure=Y, axis="scheme", top=("b",), over={"x": ALL}), df) \
        == "does not hold"
    pair = C.Ordering("c above a", measure=Y, axis="scheme", top=("c", "a"), rest=False, over={"x": ALL})
    assert _status(pair, df) == "holds"
    assert _status(C.Ordering("a above c", measure=Y, axis="scheme", top=("a", "c"), rest=False,
                              over={"x": ALL}), df) == "does not hold"
    tie = _runs({("a", 1): 5, ("b", 1): 5})
    assert _status(C.Ordering("a strictly highest", measure=Y, axis="scheme", top=("a",)), tie) == "does not hold"


@pytest.mark.parametrize("ys, tolerance, overall, expected", [
    ((1, 2, 3), 0.0, True, "holds"),
    ((1, 2, 1.95), 0.05, True, "holds"),       # a 2.5% step back within 5%
    ((1, 2, 1.85), 0.05, True, "does not hold"),
    ((1, 1, 1), 0.0, False, "holds"),
    ((1, 1, 1), 0.0, True, "does not hold"),   # flat: the last is not beyond the first
])
def test_monotone(ys, tolerance, overall, expected):
    df = _runs({("a", x): y for x, y in zip((10, 20, 30), ys)})
    claim = C.Monotone("rises", measure=Measure("y", digits=2), along="x", order=(10, 20, 30), tolerance=tolerance,
                       overall=overall, where={"scheme": "a"}, over={"x": (10, 20, 30)})
    assert _status(claim, df) == expected
    falling = C.Monotone("falls", measure=Measure("y", digits=2), along="x", order=(30, 20, 10), rising=True,
                         tolerance=tolerance, overall=overall, where={"scheme": "a"}, over={"x": (10, 20, 30)})
    assert _status(falling, df) == ("holds" if ys == (1, 1, 1) and not overall else "does not hold")


@pytest.mark.parametrize("ys, expected", [((10, 12, 12.5), "holds"), ((10, 12, 12.6), "does not hold")])
def test_spread(ys, expected):
    df = _runs({("a", x): y for x, y in zip((1, 2, 3), ys)}, spread=0.0)
    v = C.evaluate(C.Spread("flat", measure=Measure("y"), along="x", over={"x": (1, 2, 3)}, limit=0.25), df)
    assert v.status == expected and "spread" in v.ours


def test_events_against_the_papers_sequence():
    df = pd.DataFrame({"sender": ["regular"], "rtos": [[8.42, 8.93, 10.34]], "spurious": [[True, True, True]]})
    paper = ((8.4, True), (9.7, True))
    v = C.evaluate(C.Events("RTOs at 8.4 and 9.7 s", times="rtos", flags="spurious", expected=paper), df)
    assert v.status == "does not hold" and "8.42 (spurious), 8.93 (spurious), 10.34 (spurious)" in v.ours
    df.at[0, "rtos"], df.at[0, "spurious"] = [8.42, 9.6], [True, True]
    assert _status(C.Events("x", times="rtos", flags="spurious", expected=paper), df) == "holds"
    df.at[0, "spurious"] = [True, False]
    assert _status(C.Events("x", times="rtos", flags="spurious", expected=paper), df) == "does not hold"
    assert _status(C.Events("x", times="rtos", expected=((8.4, None), (9.7, None))), df) == "holds"
    df.at[0, "rtos"] = [8.42, 10.0]  # 0.3 s late
    assert _status(C.Events("x", times="rtos", expected=((8.4, None), (9.7, None))), df) == "does not hold"


def test_all_of_any_of_skip_absent_parts_and_scope():
    df = _runs({("a", 1): 100, ("b", 1): 50})
    yes = C.Level("a", measure=Y, where={"scheme": "a"}, band=C.above(90))
    no = C.Level("b", measure=Y, where={"scheme": "b"}, band=C.above(90))
    absent = C.Level("z", measure=Y, where={"scheme": "z"}, band=C.above(0))
    assert _status(C.AllOf("both", parts=(yes, no)), df) == "does not hold"
    assert _status(C.AllOf("present ones", parts=(yes, absent)), df) == "holds"
    assert _status(C.AnyOf("either", parts=(yes, no)), df) == "holds"
    assert _status(C.AllOf("none", parts=(absent,)), df) == "not checkable"
    both = C.each("x", (1, 2), [C.AllOf("all at x", parts=(yes,))])
    assert [c.text for c in both] == ["[1] all at x", "[2] all at x"]
    assert [_status(c, df) for c in both] == ["holds", "not checkable"]


def test_categories_calibration_and_consistency_are_never_claims_that_hold():
    df = _runs({("a", 1): 1.57})
    loss = Measure("y", unit="%", digits=2)
    calib = C.Level("1.5% wired loss", measure=loss, band=C.plusminus(1.5, 0.5), category=C.CALIBRATION)
    v = C.evaluate(calib, df)
    assert v.status == "calibration" and "meets the target" in v.ours
    test = C.Check("formula applied", fn=lambda ctx: (True, "557.48 ms"), category=C.CONSISTENCY)
    assert C.evaluate(test, df).status == "passes"

    def not_there(ctx):
        raise C.NotCheckable("not in fast recovery")
    assert C.evaluate(C.Check("case 2", fn=not_there, category=C.CONSISTENCY), df).status == "not reached"
    broken = C.evaluate(C.Check("broken", fn=lambda ctx: 1 / 0), df)
    assert broken.status == "not checkable" and "ZeroDivisionError" in broken.ours
    counts = C.tally([v, C.evaluate(test, df), broken])
    assert counts["claim"] == {"holds": 0, "does not hold": 0, "not checkable": 1, "not checked in quick mode": 0}
    assert counts["calibration"] == {"calibration": 1}
    assert counts["consistency test"]["passes"] == 1


def test_measure_statistics():
    assert Measure("y", "median").of([1, 2, 3, math.inf]) == 2.5
    assert math.isinf(Measure("y", "q3").of([1, 2, 3, math.inf]))
    assert Measure("y", "share").of([0, 1, 2, float("nan")]) == pytest.approx(2 / 3)
    assert Measure("y", "iqr/median").of([1, 2, 3, 4]) == pytest.approx(1.5 / 2.5)
    assert Measure("y", percent=True, digits=0).text(0.97) == "97%"
    with pytest.raises(ValueError):
        Measure("y", "average")


def test_given_keeps_only_the_points_where_the_precondition_holds():
    rows = []
    for x, reg_share, enh_share in ((1, 1.0, 0.0), (2, 0.5, 0.5), (3, 0.9, 0.1)):
        for i in range(10):
            rows.append({"sender": "reg", "x": x, "s": 1 if i < 10 * reg_share else 0})
            rows.append({"sender": "enh", "x": x, "s": 1 if i < 10 * enh_share else 0})
    df = pd.DataFrame(rows)
    given = C.Given(Measure("s", "share", percent=True, digits=0), {"sender": "reg"}, C.above(0.85), "reg > 85%")
    gone = C.Share("enh at most 5% where reg > 85%", column="s", band=C.below(0.05, strict=False),
                   where={"sender": "enh"}, over={"x": ALL}, given=given)
    v = C.evaluate(gone, df, {"x": "x{}"})
    assert v.status == "does not hold" and "x1: 100% \u2192 0%, x3: 90% \u2192 10%" in v.ours and "x2" not in v.ours
    none = C.evaluate(gone.scoped({"x": 2}), df)
    assert none.status == "not checkable" and "reg > 85%" in none.ours
    whole = C.AllOf("all parts", given=given, where={"x": 2}, parts=(C.Share("", column="s", band=C.above(0)),))
    assert C.evaluate(whole, df).status == "not checkable"  # the precondition guards the whole claim


def test_ordering_lowest():
    df = _runs({("a", 1): 0.0, ("b", 1): 3.0, ("c", 1): 5.0})
    assert _status(C.Ordering("a fewest", measure=Y, axis="scheme", top=("a",), lowest=True), df) == "holds"
    assert _status(C.Ordering("b fewest", measure=Y, axis="scheme", top=("b",), lowest=True), df) == "does not hold"
    assert _status(C.Ordering("b below c", measure=Y, axis="scheme", top=("b",), lowest=True, among=("b", "c")),
                   df) == "holds"


# -- statistics behind comparisons ----------------------------------------------------------------
def _noisy(values: dict, noise: dict, reps: int = 6) -> pd.DataFrame:
    """(scheme, x) -> mean, with per-seed deviations ``noise[scheme]`` (a list of ``reps``)."""
    return pd.DataFrame([{"seed": 1 + r, "scheme": s, "x": x, "y": v + noise[s][r]}
                         for (s, x), v in values.items() for r in range(reps)])


NOISE = {"a": [9, -7, 4, -8, 6, -4], "b": [-6, 8, -5, 7, -3, -1]}  # each sums to 0


def test_a_gain_whose_ci_crosses_zero_does_not_hold():
    df = _noisy({("a", 1): 104, ("b", 1): 100}, NOISE)  # +4% on average, the paired CI crosses 0
    claim = C.Gain("a is better than b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0))
    v = C.evaluate(claim, df)
    assert v.status == "does not hold" and "+4.0%" in v.ours and "the 95% CI includes 0" in v.ours
    calm = _runs({("a", 1): 104, ("b", 1): 100}, reps=6)  # the same +4% with little noise: shown
    assert _status(claim, calm) == "holds"
    # "improves by 5%" (factor 2: 2.5% .. 10%) with the same noisy runs: the value is in the band, the CI is not
    assert _status(replace_band(claim, C.factor(0.05)), df) == "does not hold"


def replace_band(claim, band):
    from dataclasses import replace
    return replace(claim, band=band)


def test_negligible_needs_the_whole_ci_inside_the_tolerance():
    noisy = _noisy({("a", 1): 101, ("b", 1): 100}, NOISE)     # +1%, CI about +-15%
    claim = C.Negligible("a and b similar", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, tolerance=0.05)
    v = C.evaluate(claim, noisy)
    assert v.status == "does not hold" and "reaches outside the band" in v.ours
    assert _status(claim, _runs({("a", 1): 101, ("b", 1): 100}, reps=6)) == "holds"


def test_ordering_and_monotone_need_shown_differences():
    df = _noisy({("a", 1): 104, ("b", 1): 100}, NOISE)
    v = C.evaluate(C.Ordering("a highest", measure=Y, axis="scheme", top=("a",)), df)
    assert v.status == "does not hold" and "not shown" in v.ours
    assert _status(C.Ordering("a highest", measure=Y, axis="scheme", top=("a",)),
                   _runs({("a", 1): 104, ("b", 1): 100})) == "holds"
    series = pd.DataFrame([{"seed": 1 + r, "scheme": "a", "x": x, "y": y + 3 * NOISE["a"][(r + x) % 6]}
                           for x, y in ((1, 100), (2, 102), (3, 104)) for r in range(6)])
    rises = C.Monotone("rises", measure=Y, along="x", order=(1, 2, 3), overall=True, where={"scheme": "a"},
                       over={"x": (1, 2, 3)})
    assert _status(rises, series) == "does not hold"  # every step rises, the rise is within the noise
    clear = _runs({("a", 1): 100, ("a", 2): 102, ("a", 3): 104})
    assert _status(rises, clear) == "holds"


def test_identical_replications_count_once():
    same = _runs({("a", 1): 120, ("b", 1): 100}, reps=10, spread=0.0)
    same["events"] = 5000  # bit-identical runs: same event count, same value
    gain = C.Gain("a over b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0))
    v = C.evaluate(gain, same)
    assert v.status == "not checkable" and "no randomness" in v.ours and "10 replications" in v.ours and "n = 1" in v.ours
    for rule in (C.Negligible("same", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}),
                 C.Ordering("a highest", measure=Y, axis="scheme", top=("a",))):
        assert "no randomness" in C.evaluate(rule, same).ours
    # a figure deterministic by design (one run per configuration) compares exact values
    exact = C.evaluate(gain, same, ctx=C.Context(same, deterministic=True))
    assert exact.status == "holds" and "n = 1, deterministic: exact values" in exact.ours
    # the same values but different runs (event counts differ): a real sample, n = 10
    varied = same.assign(events=range(len(same)))
    assert C.evaluate(gain, varied).status == "holds"


def test_one_run_per_configuration_needs_replications_and_quick_mode_says_so():
    one = _runs({("a", 1): 120, ("b", 1): 100}, reps=1)
    gain = C.Gain("a over b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0))
    v = C.evaluate(gain, one)
    assert v.status == "not checkable" and "one run per configuration" in v.ours
    quick = C.evaluate(gain, one, ctx=C.Context(one, quick=True))
    assert quick.status == "not checked in quick mode" and "(needs replications)" in quick.ours
    missing = C.Gain("a over c", measure=Y, a={"scheme": "a"}, b={"scheme": "c"}, band=C.above(0))
    q = C.evaluate(missing, one, ctx=C.Context(one, quick=True))
    assert q.status == "not checked in quick mode" and "configurations of the full grid" in q.ours
    assert C.evaluate(missing, one).status == "not checkable"
    counts = C.tally([quick, q, v])
    assert counts["claim"]["not checked in quick mode"] == 2 and counts["claim"]["not checkable"] == 1


def test_median_comparisons_pair_by_the_sample_column_with_a_reproducible_bootstrap():
    # Daniel & Kojo style: one run per (sender, instant); the instants are the sample.
    rows = []
    for k, at in enumerate(np.linspace(1, 20, 20)):
        base = 10 + 5 * np.sin(k)
        rows += [{"seed": 1, "at": at, "sender": "regular", "t": base},
                 {"seed": 1, "at": at, "sender": "enhanced", "t": base * 0.6 + 0.1 * np.cos(3 * k)}]
    df = pd.DataFrame(rows)
    df.attrs["axes"] = ["sender", "at"]
    cut = C.Gain("enhanced cuts the median by 30-50%", measure=Measure("t", "median"), a={"sender": "enhanced"},
                 b={"sender": "regular"}, reduction=True, band=C.Band(0.3, 0.5))
    ctx = C.Context(df, samples=("at",))
    v = C.evaluate(cut, df, ctx=ctx)
    assert v.status == "holds" and "paired bootstrap" in v.ours and "n = 20" in v.ours
    assert C.evaluate(cut, df, ctx=C.Context(df, samples=("at",))).ours == v.ours  # fixed bootstrap seed
    # without the instants declared as samples, each (sender, instant) is a configuration of one run
    assert "one run per configuration" in C.evaluate(cut, df).ours
    # no difference at all: the reduction's CI includes 0
    flat = df.copy()
    flat.loc[flat.sender == "enhanced", "t"] = flat.loc[flat.sender == "regular", "t"].to_numpy()
    assert C.evaluate(replace_band(cut, C.above(0)), flat, ctx=C.Context(flat, samples=("at",))).status == "does not hold"


def test_unpaired_runs_get_welchs_interval():
    df = _noisy({("a", 1): 130, ("b", 1): 100}, NOISE)
    df.loc[df.scheme == "b", "seed"] += 100  # no seed in common
    v = C.evaluate(C.Gain("a over b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0)), df)
    assert v.status == "holds" and "Welch t" in v.ours


# -- ceilings -------------------------------------------------------------------------------------
def test_a_gain_the_ceiling_forbids_is_not_checkable_as_set_up():
    df = _runs({("a", 1): 980, ("b", 1): 970})
    df["capacity"] = 1000.0
    capped = Measure("y", unit=" kb/s", digits=0, ceiling=C.Bound("capacity", "the link's capacity over the run"))
    claim = C.Gain("a beats b by 40%", measure=capped, a={"scheme": "a"}, b={"scheme": "b"}, band=C.factor(0.40))
    v = C.evaluate(claim, df)
    assert v.status == "not checkable" and v.ours.startswith("not checkable as set up")
    assert "the link's capacity over the run (1000 kb/s)" in v.ours and "+3.1%" in v.ours and "970 kb/s" in v.ours
    # a gain the ceiling allows is judged as usual
    assert _status(replace_band(claim, C.factor(0.01)), df) == "holds"
    # a number as the bound, in the measure's units
    fixed = C.Gain("x", measure=Measure("y", ceiling=C.Bound(990.0, "the CBR rate")), a={"scheme": "a"},
                   b={"scheme": "b"}, band=C.factor(0.40))
    assert "the CBR rate" in C.evaluate(fixed, df).ours
    # a reduction beyond 100% (below the floor of 0) is out of reach too
    cut = C.Gain("a 150% cut", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, reduction=True, band=C.Band(1.2, 2.0))
    assert "not checkable as set up" in C.evaluate(cut, df).ours


# -- engagement -----------------------------------------------------------------------------------
def test_a_mechanism_that_never_engaged_makes_its_claim_not_checkable():
    df = _runs({("a", 1): 80, ("b", 1): 100})
    df["a.engagement.wave_decisions"] = np.where(df.scheme == "a", 0.0, np.nan)  # configured in a, never acted
    wave = C.Engagement("FTv2's WAVE", ("a.engagement.wave_decisions",), where={"scheme": "a"})
    claim = C.Gain("a beats b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0), engages=(wave,))
    v = C.evaluate(claim, df)
    assert v.status == "not checkable" and "FTv2's WAVE never engaged" in v.ours  # never "does not hold"
    df.loc[(df.scheme == "a") & (df.seed == 2), "a.engagement.wave_decisions"] = 3
    v = C.evaluate(claim, df)
    assert v.status == "does not hold" and "FTv2's WAVE engaged in 1 of 4 runs" in v.ours
    absent = df.assign(**{"a.engagement.wave_decisions": np.nan})
    assert "is not in the scheme" in C.evaluate(claim, absent).ours
    assert "is not in the scheme" in C.evaluate(claim, df.drop(columns=["a.engagement.wave_decisions"])).ours
    # inside AllOf: an unengaged part leaves the claim not checkable unless another part fails
    level = C.Level("", measure=Y, where={"scheme": "b"}, band=C.above(90))
    df.loc[:, "a.engagement.wave_decisions"] = np.where(df.scheme == "a", 0.0, np.nan)
    both = C.AllOf("both", parts=(claim, level))
    assert C.evaluate(both, df).status == "not checkable"
    assert C.evaluate(C.AllOf("both", parts=(claim, replace_band(level, C.above(200)))), df).status == "does not hold"


def test_event_tolerance_is_at_most_half_the_minimum_timeout():
    with pytest.raises(ValueError, match="more than half"):
        C.Events("x", times="t", expected=((1.0, None),), tolerance_s=0.25)
    C.Events("x", times="t", expected=((1.0, None),), tolerance_s=0.5, min_timeout_s=1.0)  # SCTP's 1 s RTO.min


def test_a_level_above_the_ceiling_is_not_checkable_as_set_up():
    df = _runs({("a", 1): 31, ("a", 2): 35})
    df["cap"] = 39.0
    m = Measure("y", unit="%", ceiling=C.Bound("cap", "the window's limit"))
    claim = C.Level("reaches up to 60%", measure=m, where={"scheme": "a"}, over={"x": (1, 2)}, band=C.around(60),
                    aggregate="max")
    v = C.evaluate(claim, df)
    assert v.status == "not checkable" and "the window's limit (39.0%)" in v.ours and "as set up" in v.ours
    assert _status(replace_band(claim, C.around(36)), df) == "holds"


# -- quick mode: an interval only the few replications leave open (issue #23 item 7) ----------------
def _two_reps_apart(values: dict, reps: int = 2) -> pd.DataFrame:
    """Two paired replications whose differences disagree enough for a t interval with one
    degree of freedom to include zero, though the means differ in the claimed direction."""
    rows = []
    for (scheme, x), v in values.items():
        for rep, noise in zip(range(reps), (-1, 1)):
            rows.append({"seed": 1 + rep, "scheme": scheme, "x": x, "y": v + noise * (40 if scheme == "a" else 0)})
    return pd.DataFrame(rows)


def test_quick_mode_leaves_undecided_what_only_its_few_replications_cannot_show():
    df = _two_reps_apart({("a", 1): 120, ("b", 1): 100, ("a", 2): 110, ("b", 2): 100})
    quick, full = C.Context(df, quick=True, full_replications=10), C.Context(df)
    gain = C.Gain("a beats b", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0), over={"x": (1,)})
    assert C.evaluate(gain, df, ctx=full).status == "does not hold"  # the full campaign's rule: CI includes 0
    v = C.evaluate(gain, df, ctx=quick)
    assert v.status == "not checked in quick mode"
    assert v.ours.startswith("not checked in quick mode (needs the full campaign's 10 replications): ")
    assert "+20%" in v.ours and "95% CI over the quick campaign's runs does not show it" in v.ours
    # a quick table whose campaign has as many replications as the full one decides as the full one
    assert C.evaluate(gain, df, ctx=C.Context(df, quick=True)).status == "does not hold"
    # a value outside the band is decided by the quick campaign too
    worse = C.Gain("b beats a", measure=Y, a={"scheme": "b"}, b={"scheme": "a"}, band=C.above(0), over={"x": (1,)})
    assert C.evaluate(worse, df, ctx=quick).status == "does not hold"
    # ... and so is a claim of which one pair fails on its value, another only on its interval
    both = C.Gain("a beats b by 15%", measure=Y, a={"scheme": "a"}, b={"scheme": "b"}, band=C.above(0.15),
                  over={"x": (1, 2)})
    assert C.evaluate(both, df, ctx=quick).status == "does not hold"
    # inside AllOf the reason, and what it needs, survive
    whole = C.AllOf("all", parts=(gain,))
    assert "needs the full campaign's 10 replications" in C.evaluate(whole, df, ctx=quick).ours
    counts = C.tally([C.evaluate(gain, df, ctx=quick), C.evaluate(worse, df, ctx=quick)])
    assert counts["claim"]["not checked in quick mode"] == 1 and counts["claim"]["does not hold"] == 1


def test_quick_mode_trends_and_orderings_open_only_on_their_interval_are_not_checked():
    df = _two_reps_apart({("a", 1): 100, ("b", 1): 90})  # a: 60 and 140 against 90 and 90
    quick = C.Context(df, quick=True, full_replications=10)
    # a's series rises (100, 110, 160) but last - first differs by 20 and 100 in the two pairs
    trend = pd.DataFrame([{"seed": seed, "scheme": "a", "x": x, "y": y}
                          for x, ys in ((1, (100, 100)), (2, (110, 110)), (3, (120, 200))) for seed, y in zip((1, 2), ys)])
    quick_trend = C.Context(trend, quick=True, full_replications=10)
    rises = C.Monotone("a rises with x", measure=Y, along="x", order=(1, 2, 3), overall=True, over={"scheme": ("a",)})
    assert C.evaluate(rises, trend).status == "does not hold"
    assert "(last beyond first not shown by its 95% CI)" in C.evaluate(rises, trend).ours
    assert C.evaluate(rises, trend, ctx=quick_trend).status == "not checked in quick mode"
    falls = replace(rises, text="a falls with x", rising=False)  # its steps go the other way: decided
    v = C.evaluate(falls, trend, ctx=quick_trend)
    assert v.status == "does not hold" and "(not falling throughout)" in v.ours
    top = C.Ordering("a highest", measure=Y, axis="scheme", top=("a",), over={"x": (1,)})
    assert C.evaluate(top, df).status == "does not hold"
    assert C.evaluate(top, df, ctx=quick).status == "not checked in quick mode"
    bottom = C.Ordering("a lowest", measure=Y, axis="scheme", top=("a",), lowest=True, over={"x": (1,)})
    assert C.evaluate(bottom, df, ctx=quick).status == "does not hold"


def test_a_figure_knows_the_replications_its_quick_campaign_drops():
    from vhsim.campaign.papers import park

    assert park.PAPER.figure("fig3a").replications_dropped_by_quick() == park.REPLICATIONS == 10
    assert park.PAPER.figure("fig3a").context(pd.DataFrame(), quick=True).full_replications == 10
    assert park.PAPER.figure("fig3a").context(pd.DataFrame()).full_replications == 0
    from vhsim.campaign.papers import sobral

    assert sobral.PAPER.figure("fig5").replications_dropped_by_quick() == 0  # one deterministic run either way
