//! TCP-DCR (Bhandarkar et al. 2005; protocol-facts §4, A5) as the dupACK response: a
//! reordered segment within tau costs nothing; a real loss is retransmitted when tau expires;
//! the retransmission timer never expires before tau.
//!
//! Common timeline (preset `dcr`: trigger = 1st dupACK, tau = srtt): 0..4 sent at 0; the ACK
//! for all four at 100 ms gives one RTT sample of 100 ms (SRTT 100, RTO 300 ms, timer due at
//! 400); slow start makes cwnd 5 and 4..8 go out.

mod common;

use common::*;
use vhsim_tcp::TxCause::{FastRetransmit, New};
use vhsim_tcp::{CaState, DupAckCount, TcpConfig};

fn started(c: TcpConfig) -> Script {
    let mut t = Script::new(c.iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 4), new(4..9));
    assert_eq!(t.cwnd(), 5.0);
    assert_eq!(t.tcp.core().rtt.srtt(), Some(dur_ms(100)));
    assert_eq!(t.deadline_ms(), Some(400));
    t
}

fn dcr_deadline(t: &Script) -> Option<u64> {
    t.tcp.dupack_response().dcr().expect("DCR configured").deadline().map(|d| d.0 / 1_000_000)
}

#[test]
fn a_reordered_segment_within_tau_changes_nothing_and_is_not_retransmitted() {
    let mut t = started(cfg("dcr"));
    // 5 overtakes 4: the first dupACK arms tau = srtt = 100 ms and, as limited transmit
    // extended, lets one new segment out (cwnd 5 + 1 dupACK from snd_una 4: up to 9).
    assert_eq!(t.ack_sack(200, 4, &[(5, 6)]), new([9]));
    assert_eq!(dcr_deadline(&t), Some(300));
    assert_eq!(t.tcp.next_timeout(), Some(ms(300)), "the delay is the earliest timer");
    assert_eq!(t.cwnd(), 5.0, "no cwnd change during the delay");
    assert_eq!(t.tcp.ca_state(), CaState::Disorder);
    // 4 arrives 10 ms later: the new ACK cancels the delay (reordering). cwnd grows as for
    // any new ACK in slow start (5 -> 6); nothing was retransmitted.
    assert_eq!(t.ack(210, 6), new([10, 11]));
    assert_eq!(dcr_deadline(&t), None);
    assert_eq!(t.cwnd(), 6.0);
    assert_eq!(t.ssthresh(), 20.0);
    let s = t.tcp.stats();
    assert_eq!((s.retransmissions, s.fast_retransmits, s.dcr_delays, s.dcr_reorderings), (0, 0, 1, 1));
    assert_eq!(t.tcp.next_timeout(), t.tcp.core().rtx_deadline);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
}

#[test]
fn a_real_loss_is_retransmitted_when_tau_expires() {
    let mut t = started(cfg("dcr"));
    // 4 is lost. Each dupACK sends one new segment; the third does not fast-retransmit.
    assert_eq!(t.ack_sack(200, 4, &[(5, 6)]), new([9]));
    assert_eq!(t.ack_sack(201, 4, &[(5, 7)]), new([10]));
    assert_eq!(t.ack_sack(202, 4, &[(5, 8)]), new([11]));
    assert_eq!(t.ack_sack(203, 4, &[(5, 9)]), new([12]));
    assert_eq!(t.tcp.stats().retransmissions, 0);
    assert_eq!(t.cwnd(), 5.0);
    // tau = 100 ms after the first dupACK: fast retransmit and Sack1 recovery.
    // ssthresh = cwnd = floor(5 / 2) = 2; pipe = 9 outstanding - 4 dupACKs = 5 >= cwnd.
    assert_eq!(t.fire_timer(300), vec![tx(4, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (2.0, 2.0));
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!(t.deadline_ms(), Some(600), "the fast retransmit restarts the RTO timer");
    assert_eq!(dcr_deadline(&t), None);
}

#[test]
fn the_retransmission_timer_does_not_expire_before_tau() {
    // Protocol-facts A5: the first dupACK at 350 ms arms tau until 450 ms, after the RTO
    // deadline (400 ms); the timer is moved to 450 and the delay is served first.
    let mut t = started(cfg("dcr"));
    assert_eq!(t.ack_sack(350, 4, &[(5, 6)]), new([9]));
    assert_eq!(t.deadline_ms(), Some(450));
    assert_eq!(t.tcp.next_timeout(), Some(ms(450)));
    assert_eq!(t.fire_timer(450), vec![tx(4, FastRetransmit)]);
    assert_eq!(t.tcp.stats().rto_count, 0);
    assert_eq!(t.deadline_ms(), Some(750));
}

#[test]
fn the_third_dupack_trigger_uses_limited_transmit_before_arming() {
    let mut c = cfg("dcr");
    c.dcr.trigger = DupAckCount(3);
    let mut t = started(c);
    assert_eq!(t.ack_sack(200, 4, &[(5, 6)]), new([9]), "limited transmit (RFC 3042)");
    assert_eq!(t.ack_sack(201, 4, &[(5, 7)]), new([10]));
    assert_eq!(dcr_deadline(&t), None);
    assert_eq!(t.ack_sack(202, 4, &[(5, 8)]), new([11]), "third dupACK: armed, no retransmission");
    assert_eq!(dcr_deadline(&t), Some(302));
    assert_eq!(t.ack_sack(203, 4, &[(5, 9)]), new([12]));
    assert_eq!(t.fire_timer(302), vec![tx(4, FastRetransmit)]);
}

#[test]
fn without_limited_transmit_each_dupack_from_the_trigger_on_sends_one_segment() {
    let mut c = cfg("dcr").limited_transmit(false);
    c.dcr.trigger = DupAckCount(3);
    let mut t = started(c);
    assert_eq!(t.ack_sack(200, 4, &[(5, 6)]), none());
    assert_eq!(t.ack_sack(201, 4, &[(5, 7)]), none());
    assert_eq!(t.ack_sack(202, 4, &[(5, 8)]), new([9]), "one, not three");
    assert_eq!(t.ack_sack(203, 4, &[(5, 9)]), new([10]));
}

#[test]
fn the_window_cap_still_bounds_sending_during_the_delay() {
    let mut t = started(cfg("dcr").window(6));
    // window_ 6 from snd_una 4: up to 9.
    assert_eq!(t.ack_sack(200, 4, &[(5, 6)]), new([9]));
    assert_eq!(t.ack_sack(201, 4, &[(5, 7)]), none());
}

#[test]
fn a_later_reordering_arms_the_delay_again_once_recovery_is_over() {
    // RFC 6582 §3.2 step 1 applies to the delay as to a fast retransmit; Sack1 clears
    // `recover` when recovery ends.
    let mut t = started(cfg("dcr"));
    t.ack_sack(200, 4, &[(5, 6)]);
    assert_eq!(t.fire_timer(300), vec![tx(4, FastRetransmit)]);
    // Recovery ends at recover = 10 (Sack1 clears it, ns-2 recover_ = 0)...
    t.ack(400, 10);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.tcp.core().recover, None);
    // ...so a later reordering arms the delay again.
    let sent = t.ack_sack(500, 10, &[(11, 12)]);
    assert!(sent.iter().all(|s| s.cause == New));
    assert!(dcr_deadline(&t).is_some());
    assert_eq!(t.tcp.stats().dcr_delays, 2);
}

#[test]
fn dupacks_that_do_not_cover_recover_arm_no_delay() {
    // RFC 6582 §3.2 step 1 (ns-2 bugFix_): NewReno keeps `recover` after recovery.
    let mut c = cfg("dcr");
    c.recovery = vhsim_tcp::RecoveryKind::NewReno;
    let mut t = started(c);
    assert_eq!(t.ack(200, 4), new([9]));
    assert_eq!(t.fire_timer(300), vec![tx(4, FastRetransmit)]);
    assert_eq!(t.tcp.core().recover, Some(10));
    t.ack(400, 10);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    t.ack(500, 10);
    assert_eq!(dcr_deadline(&t), None, "ack 10 does not cover recover 10");
    assert_eq!(t.tcp.stats().dcr_delays, 1);
}
