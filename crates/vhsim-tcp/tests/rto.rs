//! Retransmission timeouts (RFC 6298 §5, RFC 5681 §3.1, docs/references.md §1.2) and the RTT
//! estimator behind them (RFC 6298 §2-3 with ns-2's tick quantization).

mod common;

use common::*;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::TxCause::{FastRetransmit, GoBackN, Rto};
use vhsim_tcp::{CaState, RttTiming};

// ---------------------------------------------------------------- timeout response

#[test]
fn rto_collapses_cwnd_to_one_segment_and_halves_ssthresh() {
    let mut t = Script::new(cfg("reno").iw(8));
    assert_eq!(t.send_all(0), new(0..8));
    assert_eq!(t.fire_timer(3000), vec![tx(0, Rto)]);
    assert_eq!(t.cwnd(), 1.0);
    assert_eq!(t.ssthresh(), 4.0, "max(2, floor(min(8, 20) / 2))");
    assert_eq!(t.tcp.ca_state(), CaState::Loss);
    let s = t.tcp.stats();
    assert_eq!((s.rto_count, s.retransmissions, s.fast_retransmits), (1, 1, 0));
    assert_eq!(t.send_all(3001), none(), "cwnd 1: one segment until an ACK");
}

#[test]
fn rto_halves_the_window_cap_when_it_is_below_cwnd() {
    let mut t = Script::new(cfg("newreno").iw(8).window(6));
    assert_eq!(t.send_all(0), new(0..6));
    t.fire_timer(3000);
    assert_eq!(t.ssthresh(), 3.0);
}

#[test]
fn go_back_n_resends_everything_from_the_first_unacknowledged_segment_in_slow_start() {
    let mut t = Script::new(cfg("reno").iw(8));
    t.send_all(0);
    t.fire_timer(3000);
    // Only segment 0 was lost, but the sender does not know: it resends 1, 2, ... again.
    assert_eq!(t.ack(3100, 1), txs(GoBackN, [1, 2]));
    assert_eq!(t.cwnd(), 2.0);
    assert_eq!(t.ack(3200, 3), txs(GoBackN, [3, 4, 5]));
    let mut want = txs(GoBackN, [6, 7]);
    want.extend(new([8, 9]));
    assert_eq!(t.ack(3300, 6), want, "past the old highest segment, new data again");
    assert_eq!(t.tcp.ca_state(), CaState::Loss, "until recover = 8 is acknowledged");
    assert_eq!(t.ack(3400, 8), new([10, 11]));
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_close(t.cwnd(), 4.25);
}

#[test]
fn dupacks_after_a_timeout_are_ignored_until_a_new_ack() {
    // ns-2 Sack1 timeout_: no fast retransmit and no limited transmit on the dupACKs that
    // the go-back-N retransmission triggers.
    let mut t = Script::new(cfg("sack").iw(8));
    t.send_all(0);
    assert_eq!(t.fire_timer(3000), vec![tx(0, Rto)]);
    assert_eq!(t.ack_sack(3100, 0, &[(1, 3)]), none());
    assert_eq!(t.ack_sack(3100, 0, &[(1, 5)]), none());
    assert_eq!(t.ack_sack(3100, 0, &[(1, 8)]), none());
    assert_eq!(t.tcp.stats().fast_retransmits, 0);
    assert_eq!(t.ack(3200, 8), new([8, 9]));
    assert_eq!(t.tcp.ca_state(), CaState::Open);
}

#[test]
fn repeated_timeouts_double_the_timer_up_to_the_maximum() {
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    let mut at = 3000;
    for (i, next) in [9000u64, 21_000, 45_000, 93_000, 153_000, 213_000].into_iter().enumerate() {
        assert_eq!(t.fire_timer(at), vec![tx(0, Rto)], "timeout {}", i + 1);
        assert_eq!(t.deadline_ms(), Some(next), "after timeout {}", i + 1);
        at = next;
    }
    assert_eq!(t.ssthresh(), 2.0);
    assert_eq!(t.tcp.stats().rto_count, 6);
}

#[test]
fn backoff_keeps_doubling_past_64_while_the_rto_is_below_the_maximum() {
    // ns-2 rtt_backoff with rfc2988_: `if (t_backoff_ < 64 || rtt_timeout() < maxrto_)`;
    // RFC 6298 §5.5 doubles the RTO on every expiry, bounded only by the maximum.
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    assert_eq!(t.ack(20, 1), new([2, 3]));
    assert_eq!(t.tcp.core().rtt().rto(), dur_ms(200), "20 ms sample: RTO 60 ms clamped to minrto");
    let mut at = 220;
    let intervals = [400u64, 800, 1600, 3200, 6400, 12_800, 25_600, 51_200, 60_000, 60_000, 60_000];
    for (i, gap) in intervals.into_iter().enumerate() {
        assert_eq!(t.fire_timer(at), vec![tx(1, Rto)]);
        assert_eq!(t.deadline_ms(), Some(at + gap), "after timeout {}", i + 1);
        at += gap;
    }
}

#[test]
fn many_backoffs_clear_srtt_but_keep_the_timer_base_until_the_next_sample() {
    // ns-2 rtt_backoff: once backoff exceeds 8, t_srtt_ = 0 so that the next sample starts a
    // new estimate (RFC 6298 §5 allows clearing SRTT/RTTVAR); the RTO base t_rtxcur_ is only
    // recomputed by that sample.
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    t.ack(500, 1);
    assert_eq!(t.tcp.core().rtt().rto(), dur_ms(1500), "500 + 4 * 250");
    let mut at = 2000;
    for gap in [3000u64, 6000, 12_000, 24_000, 48_000, 60_000] {
        t.fire_timer(at);
        assert_eq!(t.deadline_ms(), Some(at + gap));
        at += gap;
    }
    assert_eq!(t.tcp.core().rtt().srtt(), None);
    // Everything is acknowledged; the retransmitted segments give no sample (Karn).
    assert_eq!(t.ack(at + 100, 4), new([4, 5]));
    assert_eq!(t.tcp.core().rtt().srtt(), None);
    // The next sample initialises the estimator afresh: SRTT = R, RTTVAR = R / 2.
    t.ack(at + 300, 5);
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(200)));
    assert_eq!(t.tcp.core().rtt().rttvar(), dur_ms(100));
    assert_eq!(t.tcp.core().rtt().backoff(), 1);
    assert_eq!(t.deadline_ms(), Some(at + 300 + 600));
}

#[test]
fn karn_rule_takes_no_sample_from_a_retransmitted_segment() {
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    assert_eq!(t.ack(100, 1), new([2, 3]));
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
    assert_eq!(t.deadline_ms(), Some(400));
    assert_eq!(t.fire_timer(400), vec![tx(1, Rto)]);
    assert_eq!(t.deadline_ms(), Some(1000), "backoff 2: 600 ms");
    // The ACK of the retransmission 550 ms later is ambiguous: no sample, backoff kept.
    assert_eq!(t.ack(950, 2), txs(GoBackN, [2, 3]));
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(100)));
    assert_eq!(t.tcp.core().rtt().backoff(), 2);
    assert_eq!(t.deadline_ms(), Some(1550));
    // Go-back-N resends are retransmissions too.
    assert_eq!(t.ack(1050, 4), new([4, 5]));
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
    assert_eq!(t.deadline_ms(), Some(1650));
    // Segment 4 was sent once: its ACK is a valid sample and ends the backoff.
    assert_eq!(t.ack(1150, 5), new([6]));
    assert_eq!(t.tcp.core().rtt().backoff(), 1);
    assert_eq!(t.tcp.core().rtt().rttvar(), SimDuration(37_500_000), "3/4 * 50 ms");
    assert_eq!(t.deadline_ms(), Some(1400), "RTO 100 + 4 * 37.5 ms");
}

#[test]
fn fast_retransmit_cancels_the_pending_rtt_sample() {
    let mut t = Script::new(cfg("reno").iw(4));
    t.send_all(0);
    assert_eq!(t.dupacks(100, 0, 3).last(), Some(&tx(0, FastRetransmit)));
    // The ACK for 0..5 would time segment 0 at 500 ms; Karn's rule forbids it.
    t.ack(500, 6);
    assert_eq!(t.tcp.core().rtt().srtt(), None);
}

// ---------------------------------------------------------------- estimator

#[test]
fn first_rtt_sample_sets_srtt_to_r_and_rttvar_to_half_r() {
    let mut t = Script::new(cfg("sack"));
    t.send_all(0);
    t.ack(105, 1);
    let rtt = &t.tcp.core().rtt();
    assert_eq!(rtt.srtt(), Some(dur_ms(100)), "105 ms is 10 whole ticks of 10 ms");
    assert_eq!(rtt.rttvar(), dur_ms(50));
    assert_eq!(rtt.rto(), dur_ms(300));
    assert_eq!(t.deadline_ms(), Some(405), "RFC 6298 §5.3: restarted by the new ACK");
}

#[test]
fn later_samples_use_gains_one_eighth_and_one_quarter() {
    let mut t = Script::new(cfg("sack"));
    t.send_all(0);
    t.ack(105, 1); // sample 100 ms; segment 2 is timed at 105 ms
    t.ack(305, 3); // sample 200 ms
    let rtt = &t.tcp.core().rtt();
    // RTTVAR = 3/4 * 50 + 1/4 * |100 - 200| = 62.5; SRTT = 7/8 * 100 + 1/8 * 200 = 112.5.
    assert_eq!(rtt.rttvar(), SimDuration(62_500_000));
    assert_eq!(rtt.srtt(), Some(SimDuration(112_500_000)));
    assert_eq!(t.tcp.next_timeout(), Some(SimTime(305_000_000 + 362_500_000)));
}

#[test]
fn one_sample_per_round_trip_without_timestamps() {
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    t.ack(100, 1);
    t.ack(150, 2); // segment 1 was not timed
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(100)));
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
}

#[test]
fn every_ack_timing_samples_each_new_ack() {
    let mut c = cfg("reno");
    c.rtt_timing = RttTiming::EveryAck;
    let mut t = Script::new(c);
    t.send_all(0);
    t.ack(100, 1);
    t.ack(150, 2);
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(150)));
    // SRTT = 7/8 * 100 + 1/8 * 150.
    assert_eq!(t.tcp.core().rtt().srtt(), Some(SimDuration(106_250_000)));
}

#[test]
fn min_rto_clamps_the_timer_for_short_round_trips() {
    let mut t = Script::new(cfg("newreno"));
    t.send_all(0);
    t.ack(20, 1);
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(20)));
    assert_eq!(t.deadline_ms(), Some(220), "SRTT + 4 RTTVAR = 60 ms, below minrto 200 ms");
}

#[test]
fn max_rto_caps_the_backed_off_timer() {
    let mut c = cfg("reno");
    c.max_rto = dur_ms(5000);
    let mut t = Script::new(c);
    t.send_all(0);
    t.fire_timer(3000);
    assert_eq!(t.deadline_ms(), Some(8000), "6 s capped at 5 s");
    t.fire_timer(8000);
    assert_eq!(t.deadline_ms(), Some(13_000));
}

#[test]
fn clock_granularity_counts_tick_boundaries_crossed() {
    // ns-2 rtt_update without timestamps: ticks between the send tick and the ACK tick,
    // at least one.
    let mut t = Script::new(cfg("reno"));
    t.send_all(8);
    t.ack(11, 1); // 3 ms that cross the 10 ms tick
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(10)));

    let mut t = Script::new(cfg("reno"));
    t.send_all(1);
    t.ack(9, 1); // 8 ms within one tick: still one tick
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(10)));

    let mut t = Script::new(cfg("reno"));
    t.send_all(1);
    t.ack(29, 1); // 28 ms crossing two boundaries
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(20)));
}

#[test]
fn zero_granularity_keeps_samples_exact() {
    let mut c = cfg("reno");
    c.clock_granularity = dur_ms(0);
    let mut t = Script::new(c);
    t.send_all(8);
    t.ack(11, 1);
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(3)));
}
