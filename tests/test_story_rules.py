"""A run story's rules on a hand-made time series (vhsim.campaign.story._read_state_changes):
which rows are RTOs and which enter fast recovery, each judged against the row before it."""

from __future__ import annotations

import pandas as pd

from vhsim.campaign import metrics as M
from vhsim.campaign.story import Snapshot, Story, _read_state_changes

# time, state, flight, cwnd, ssthresh, rto
ROWS = [
    (9.0, M.LOSS, 1, 1.0, 8.0, 0.4),       # before the start: only the row the next is judged against
    (10.0, M.LOSS, 1, 1.0, 8.0, 0.8),      # RTO backed off (doubled), cwnd still 1
    (10.5, M.OPEN, 4, 4.0, 8.0, 0.8),
    (11.0, M.RECOVERY, 4, 2.0, 2.0, 0.8),  # enters fast recovery
    (11.2, M.RECOVERY, 2, 2.0, 2.0, 0.8),  # stays: not a second entry
    (12.0, M.LOSS, 2, 1.0, 1.0, 1.6),      # RTO: from recovery into the loss state with cwnd 1
    (12.5, M.LOSS, 1, 1.0, 1.0, 1.6),      # nothing changed: no RTO
    (13.0, M.LOSS, 1, 1.0, 20.0, 0.2),     # at the notification: a cross-layer restore, not an RTO
    (14.0, M.LOSS, 1, 1.0, 5.0, 0.2),      # a new ssthresh with cwnd 1: an RTO
]


def test_rtos_and_recovery_entries_are_the_rows_the_rules_pick():
    ts = pd.DataFrame(ROWS, columns=[M.TIME, M.STATE, M.FLIGHT, M.CWND, M.SSTHRESH, M.RTO])
    ts[M.STATE] = ts[M.STATE].astype("category")  # as the trace stores it
    snap = Snapshot(0.0, M.OPEN, 0, 1.0, 1.0, 1.0)
    story = Story(start_s=9.5, notify_s=13.0, before=snap, after=snap, pre_acked_s=0.0)
    _read_state_changes(story, ts, notify=13.0)
    assert story.rto_s == [10.0, 12.0, 14.0]
    assert story.rto_ssthresh == [8.0, 1.0, 5.0]
    assert story.fast_retransmit_s == [11.0]
    assert story.recovery_entries == [(Snapshot(10.5, M.OPEN, 4, 4.0, 8.0, 0.8),
                                       Snapshot(11.0, M.RECOVERY, 4, 2.0, 2.0, 0.8))]


def test_a_series_of_one_row_has_nothing_to_judge():
    ts = pd.DataFrame(ROWS[:1], columns=[M.TIME, M.STATE, M.FLIGHT, M.CWND, M.SSTHRESH, M.RTO])
    snap = Snapshot(0.0, M.OPEN, 0, 1.0, 1.0, 1.0)
    story = Story(start_s=0.0, notify_s=1.0, before=snap, after=snap, pre_acked_s=0.0)
    _read_state_changes(story, ts, notify=1.0)
    assert story.rto_s == [] and story.fast_retransmit_s == []
