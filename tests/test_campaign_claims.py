"""The claim vocabulary (vhsim.campaign.claims): every rule on synthetic results, on both sides
of its threshold, the paired-CI annotation, the categories and their counts."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from vhsim.campaign import claims as C
from vhsim.campaign.claims import ALL, Measure


def _runs(values: dict, reps: int = 4, spread: float = 0.0) -> pd.DataFrame:
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
    assert v.status == "holds" and v.ours.count(" vs ") == 4 and "paired" not in v.ours  # 4 pairs: no CIs
    df["z"] = df["y"] * 0.5  # "falls by half": one column against another of the same runs
    half = C.Gain("falls by 50%", measure=Measure("z"), measure_b=Y, where={"scheme": "a"}, band=C.factor(-0.5))
    assert _status(half, df) == "holds"
    assert _status(C.Gain("rises", measure=Measure("z"), measure_b=Y, where={"scheme": "a"}, band=C.factor(0.5)),
                   df) == "does not hold"
    times = pd.DataFrame({"sender": ["reg"] * 3 + ["enh"] * 3, "k": 1, "t": [10.0, 10, 10, 4, 4, 4]})
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
    df = _runs({("a", x): y for x, y in zip((1, 2, 3), ys)})
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
    assert counts["claim"] == {"holds": 0, "does not hold": 0, "not checkable": 1}
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
