"""The words vhsim prints: counts with their plural, instants, and the reports that use them
(issue #31 item 6: "1 runs", "RTOs at none s")."""

from __future__ import annotations

import doctest

import pandas as pd

from vhsim import wording
from vhsim.campaign import metrics as M
from vhsim.campaign.story import Snapshot, Story
from vhsim.wording import counted, instants, occurrences


def test_doctests():
    assert doctest.testmod(wording).failed == 0


def test_counts_instants_and_occurrences():
    assert counted(1, "claim") == "1 claim" and counted(0, "claim") == "0 claims"
    assert counted(1, "fast recovery", "fast recoveries") == "1 fast recovery"
    assert counted(3, "fast recovery", "fast recoveries") == "3 fast recoveries"
    assert instants([]) == "none" and instants([8.4, 9.7, 10.336]) == "8.40, 9.70 and 10.34 s"
    assert occurrences("RTO", []) == "no RTO"
    assert occurrences("RTO", [8.42]) == "1 RTO at 8.42 s"
    assert occurrences("timeout", [1.0, 2.5], digits=1) == "2 timeouts at 1.0 and 2.5 s"


def _story(rtos: list[float], fast: list[float]) -> Story:
    snap = Snapshot(8.2, "open", 20, 20.0, 1e9, 0.2)
    return Story(8.0, 8.2, snap, snap, 8.5, rto_s=rtos, rto_spurious=[True] * len(rtos),
                 rto_ssthresh=[2.0] * len(rtos), fast_retransmit_s=fast)


def test_danielkojo_case_lines_say_no_rto_not_at_none_s():
    from vhsim.campaign.papers.danielkojo_cases import CASES

    stories = [_story([8.42, 9.875], []), _story([], [8.9])]
    table = pd.DataFrame({"sender": ["regular", "enhanced"], "t100": [3.0, 2.0],
                          M.handover("bulk", M.RTOS): [2, 0], M.handover("bulk", M.SPURIOUS_RTOS): [2, 0],
                          M.handover("bulk", M.SPURIOUS_RETRANSMISSIONS): [21, 0], "gap_drops": [0, 0],
                          "new_drops": [1, 0], "story.new_drops": [1, 0], "story": stories})
    text = CASES[0].table(table)
    assert "none s" not in text and "RTOs at none" not in text
    assert "* regular: " in text and "2 RTOs at 8.42 and 9.88 s; no fast recovery; 1 new-link drop in the 5 s" in text
    assert "no RTO; 1 fast recovery at 8.90 s; 0 new-link drops in the 5 s" in text


def test_counts_of_one_are_singular_in_reports():
    from vhsim.campaign import claims as C
    from vhsim.campaign.reproduce import counts_line
    from vhsim.campaign.variants import Rewrite

    one = pd.DataFrame({"seed": [1, 2], "scheme": ["a", "b"], "y": [2.0, 1.0], "a.wave": [3.0, float("nan")]})
    level = C.Level("a is above 1", measure=C.Measure("y"), where={"scheme": "a"}, band=C.above(1),
                    engages=(C.Engagement("WAVE", ("a.wave",), where={"scheme": "a"}),))
    v = C.evaluate(level, one)
    assert v.status == "holds" and "WAVE engaged in 1 of 1 run" in v.ours and "1 runs" not in v.ours
    never = one.assign(**{"a.wave": [0.0, float("nan")]})
    assert "= 0 in 1 run the claim is about" in C.evaluate(level, never).ours
    assert counts_line([v]) == "1 holds, 0 do not hold, 0 not checkable (of 1 claim)"
    calibration = C.evaluate(C.Level("x", category=C.CALIBRATION, measure=C.Measure("y"), band=C.above(0)), one)
    assert counts_line([v, calibration]).endswith("(of 1 claim); 1 calibration")
    assert Rewrite(object(), 1, 1).describe() == "1 of 1 configuration"
