//! F-RTO (RFC 5682 §2 basic, §3 SACK-enhanced; docs/references.md §3) as the timeout response:
//! spurious timeouts (a delay spike, nothing lost) are detected and answered with each of ns-2's
//! responses; genuine ones fall back to conventional recovery; F-RTO is never entered during
//! fast recovery.
//!
//! Common timeline (initial window 4, initial ssthresh 3, so the sender is in congestion
//! avoidance): 0..4 sent at 0; the ACK for all four at 100 ms gives one RTT sample of 100 ms
//! (SRTT 100, RTTVAR 50, RTO = 100 + 4·50 = 300 ms), cwnd 4 + 1/4 = 4.25, and 4..8 go out; the
//! timer expires at 400 ms while they are held up.

mod common;

use common::*;
use vhsim_tcp::response::FrtoStep;
use vhsim_tcp::TxCause::{FastRetransmit, GoBackN, Rto};
use vhsim_tcp::{CaState, FrtoConfig, FrtoVariant, RtoResponseConfig, SpuriousResponse, TcpConfig};

fn frto(variant: FrtoVariant, response: SpuriousResponse) -> TcpConfig {
    let mut c = cfg("sack").iw(4).ssthresh(3);
    c.rto_response = RtoResponseConfig::Frto(FrtoConfig { variant, response });
    c
}

/// Run the common timeline up to the timeout; returns the script after it.
fn timed_out(c: TcpConfig) -> Script {
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 4), new(4..8));
    assert_close(t.cwnd(), 4.25);
    assert_eq!(t.deadline_ms(), Some(400));
    // Step 1: retransmit the first unacknowledged segment only (no go-back-N).
    assert_eq!(t.fire_timer(400), vec![tx(4, Rto)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (1.0, 2.0), "ssthresh = max(2, floor(4.25) / 2)");
    assert_eq!(t.tcp.ca_state(), CaState::Loss);
    assert_eq!(step(&t), FrtoStep::FirstAck);
    t
}

fn step(t: &Script) -> FrtoStep {
    t.tcp.rto_response().frto().expect("F-RTO configured").step()
}

// ---------------------------------------------------------------- spurious timeouts

#[test]
fn spurious_timeout_full_revert_restores_the_flight_size_and_ssthresh() {
    for variant in [FrtoVariant::Basic, FrtoVariant::Sack] {
        let mut t = timed_out(frto(variant, SpuriousResponse::FullRevert));
        // The delayed original of 4 arrives: a new ACK below recover (8). Step 2b: two new
        // segments instead of go-back-N retransmissions.
        assert_eq!(t.ack(500, 5), new([8, 9]), "{variant:?}");
        assert_eq!(step(&t), FrtoStep::SecondAck);
        assert_eq!(t.tcp.core().recover(), Some(8));
        // The original of 5: acknowledges never-retransmitted data -> spurious (step 3b).
        // Full revert (spurious_response_ 1): cwnd = FlightSize before this ACK = 10 - 5 = 5;
        // ssthresh = max(window 4.25, ssthresh 3) at the timeout = 4.25.
        assert_eq!(t.ack(510, 6), new([10]), "{variant:?}: window 6..=10 with cwnd 5");
        assert_eq!(t.cwnd(), 5.0);
        assert_close(t.ssthresh(), 4.25);
        assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
        assert_eq!(engaged(&t.tcp, &["frto_episodes", "frto_spurious_detected"]), [1, 1]);
        assert_eq!(t.tcp.stats().retransmissions, 1, "only the timeout retransmission");
        assert_eq!(t.tcp.ca_state(), CaState::Open);
        assert_eq!(t.tcp.core().recover(), None, "later fast retransmits are not blocked");
        assert_eq!(step(&t), FrtoStep::Idle);
    }
}

#[test]
fn spurious_timeout_with_the_ssthresh_response_sets_cwnd_to_the_halved_ssthresh() {
    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::Ssthresh));
    assert_eq!(t.ack(500, 5), new([8, 9]));
    // spurious_response_ 2: cwnd = the ssthresh the timeout set (2); ssthresh reverts to 4.25.
    assert_eq!(t.ack(510, 6), none(), "cwnd 2 from snd_una 6: 6, 7 only, both outstanding");
    assert_eq!(t.cwnd(), 2.0);
    assert_close(t.ssthresh(), 4.25);
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
}

#[test]
fn spurious_timeout_with_the_slow_start_response_restarts_from_one_without_retransmitting() {
    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::SlowStart));
    assert_eq!(t.ack(500, 5), new([8, 9]));
    assert_eq!(t.ack(510, 6), none());
    assert_eq!(t.cwnd(), 1.0);
    assert_close(t.ssthresh(), 4.25);
    // Slow start up to the reverted ssthresh, with new data only: 6..9 were not lost.
    assert_eq!(t.ack(520, 7), none(), "cwnd 2: 7, 8 outstanding");
    assert_eq!(t.ack(530, 8), new([10]), "cwnd 3: 8..=10");
    assert_eq!(t.ack(540, 9), new([11, 12]), "cwnd 4: 9..=12");
    assert_eq!(t.tcp.stats().retransmissions, 1);
    assert_eq!(t.cwnd(), 4.0);
}

#[test]
fn a_timeout_that_recurs_before_any_ack_restarts_f_rto_and_keeps_the_first_timeouts_window() {
    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::FullRevert));
    // Still nothing back (a long pause): the backed-off timer (600 ms) expires again.
    assert_eq!(t.fire_timer(1000), vec![tx(4, Rto)]);
    assert_eq!(step(&t), FrtoStep::FirstAck, "RFC 5682 §3 step 2: back to step 1");
    assert_eq!(t.ack(1100, 5), new([8, 9]));
    assert_eq!(t.ack(1110, 6), new([10]));
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
    assert_eq!(t.tcp.stats().rto_count, 2);
    // pipe_prev is from the first timeout (RFC 4015 §3.2): not max(1, 2) from the second.
    assert_close(t.ssthresh(), 4.25);
}

// ---------------------------------------------------------------- genuine timeouts

#[test]
fn genuine_timeout_a_duplicate_ack_in_step_three_reverts_to_go_back_n_with_cwnd_two() {
    for variant in [FrtoVariant::Basic, FrtoVariant::Sack] {
        let mut t = timed_out(frto(variant, SpuriousResponse::FullRevert));
        // 4..7 were really lost; the retransmission of 4 arrives.
        assert_eq!(t.ack(500, 5), new([8, 9]));
        // The new segment 8 arrives above the hole at 5: a duplicate ACK (SACKing 8).
        // Step 3a: genuine. ns-2 sets cwnd = 2 and retransmits in slow start from 5.
        assert_eq!(t.ack_sack(600, 5, &[(8, 9)]), txs(GoBackN, [5, 6]), "{variant:?}");
        assert_eq!(t.cwnd(), 2.0);
        assert_eq!(t.ssthresh(), 2.0, "the timeout's ssthresh stays");
        assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
        assert_eq!(engaged(&t.tcp, &["frto_episodes", "frto_spurious_detected"]), [1, 0]);
        assert_eq!(t.tcp.ca_state(), CaState::Loss);
        assert_eq!(step(&t), FrtoStep::Idle);
        // Conventional recovery goes on: congestion avoidance from cwnd 2 (ssthresh 2).
        assert_eq!(t.ack(700, 7), txs(GoBackN, [7, 8]));
        assert_close(t.cwnd(), 2.5);
    }
}

#[test]
fn basic_f_rto_treats_a_duplicate_ack_as_the_first_ack_as_a_genuine_timeout() {
    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::FullRevert));
    // 4 was lost, 5 arrives: a duplicate ACK first (step 2a) -> conventional recovery, which
    // goes on after the segment the timeout already retransmitted.
    assert_eq!(t.ack(450, 4), none());
    assert_eq!(step(&t), FrtoStep::Idle);
    assert_eq!(t.ack(500, 6), txs(GoBackN, [6, 7]), "cwnd 2 from 6: go-back-N, no new data");
    assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
}

#[test]
fn sack_f_rto_waits_through_duplicate_acks_in_step_two() {
    let mut t = timed_out(frto(FrtoVariant::Sack, SpuriousResponse::FullRevert));
    // RFC 5682 §3 step 2: duplicate ACKs only update the scoreboard.
    assert_eq!(t.ack_sack(450, 4, &[(5, 6)]), none());
    assert_eq!(step(&t), FrtoStep::FirstAck);
    assert!(t.tcp.core().scoreboard().is_sacked(5));
    assert_eq!(t.ack_sack(500, 6, &[]), new([8, 9]));
    assert_eq!(step(&t), FrtoStep::SecondAck);
}

#[test]
fn a_duplicate_ack_sacking_never_retransmitted_data_is_spurious_only_for_sack_f_rto() {
    // Step 3 ACK: cumulative 5, SACK 6 (below recover 8, never retransmitted).
    let mut t = timed_out(frto(FrtoVariant::Sack, SpuriousResponse::FullRevert));
    t.ack(500, 5);
    assert_eq!(t.ack_sack(510, 5, &[(6, 7)]), none(), "cwnd 5 = FlightSize 10 - 5: 5..=9 all out");
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1, "RFC 5682 §3 step 3b");
    assert_eq!(t.cwnd(), 5.0);

    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::FullRevert));
    t.ack(500, 5);
    assert_eq!(t.ack_sack(510, 5, &[(6, 7)]), txs(GoBackN, [5, 6]), "RFC 5682 §2.1 step 3a");
    assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
}

#[test]
fn sack_f_rto_step_three_ack_beyond_recover_means_genuine() {
    let mut t = timed_out(frto(FrtoVariant::Sack, SpuriousResponse::FullRevert));
    t.ack(500, 5);
    // SACKs 6 (below recover, new) but also 8 (one of the step-2b segments): §3 step 3a.
    assert_eq!(t.ack_sack(600, 5, &[(8, 9), (6, 7)]), txs(GoBackN, [5, 6]));
    assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
    assert_eq!(t.cwnd(), 2.0);
}

#[test]
fn sack_f_rto_caps_cwnd_at_two_when_the_retransmission_acknowledges_everything() {
    let mut t = timed_out(frto(FrtoVariant::Sack, SpuriousResponse::FullRevert));
    // RFC 5682 §3 step 2a: the ACK covers recover (8): conventional, nothing to probe.
    assert_eq!(t.ack(500, 8), new([8, 9]));
    assert_eq!(t.cwnd(), 2.0);
    assert_eq!(step(&t), FrtoStep::Idle);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
}

#[test]
fn without_new_data_to_probe_with_f_rto_falls_back_to_conventional_recovery() {
    // RFC 5682 §2.1 step 2b: application-limited, so no new segment can go out.
    let mut t = Script::with_app_limit(frto(FrtoVariant::Basic, SpuriousResponse::FullRevert), 8);
    t.send_all(0);
    assert_eq!(t.ack(100, 4), new(4..8));
    assert_eq!(t.fire_timer(400), vec![tx(4, Rto)]);
    assert_eq!(t.ack(500, 5), txs(GoBackN, [5, 6]));
    assert_eq!(step(&t), FrtoStep::Idle);
}

#[test]
fn a_timeout_during_conventional_recovery_is_conventional() {
    let mut t = timed_out(frto(FrtoVariant::Basic, SpuriousResponse::FullRevert));
    t.ack(500, 5);
    assert_eq!(t.ack(600, 5), txs(GoBackN, [5, 6]), "genuine");
    // The go-back-N retransmissions are lost too: RFC 5682 §2.1 step 1, recover (8) >= SND.UNA.
    let (_, sent) = t.fire_due_timer();
    assert_eq!(sent, vec![tx(5, Rto)]);
    assert_eq!(step(&t), FrtoStep::Idle);
    let due = t.tcp.core().snd_una();
    assert_eq!(t.ack(2000, due + 1), txs(GoBackN, [6, 7]), "go-back-N, not two new segments");
}

// ---------------------------------------------------------------- never in fast recovery

#[test]
fn f_rto_is_not_entered_from_fast_recovery() {
    // ns-2 Sack1 no_frto; RFC 5682 §2.1 step 1.
    for variant in [FrtoVariant::Basic, FrtoVariant::Sack] {
        let mut t = Script::new(frto(variant, SpuriousResponse::FullRevert).iw(8));
        assert_eq!(t.send_all(0), new(0..8));
        assert_eq!(t.ack_sack(100, 0, &[(1, 2)]), new([8]));
        assert_eq!(t.ack_sack(100, 0, &[(1, 3)]), new([9]));
        assert_eq!(t.ack_sack(100, 0, &[(1, 4)]), vec![tx(0, FastRetransmit)]);
        assert_eq!(t.tcp.ca_state(), CaState::Recovery);
        // The retransmission is lost; the timer set at the fast retransmit expires.
        assert_eq!(t.fire_timer(3100), vec![tx(0, Rto)], "{variant:?}");
        assert_eq!(step(&t), FrtoStep::Idle);
        // The retransmission arrives: conventional go-back-N from 4, not two new segments.
        assert_eq!(t.ack(3200, 4), txs(GoBackN, [4, 5]));
        assert_eq!(t.tcp.stats().spurious_rto_detected, 0);
    }
}
