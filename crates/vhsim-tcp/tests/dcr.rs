//! TCP-DCR (Bhandarkar et al. 2005; docs/references.md §4, A5) as the dupACK response: a
//! reordered segment within tau costs nothing; a real loss is retransmitted when tau expires;
//! the retransmission timer never expires before tau.
//!
//! Common timeline (preset `dcr`: trigger = 1st dupACK, tau = srtt): 0..4 sent at 0; the ACK
//! for all four at 100 ms gives one RTT sample of 100 ms (SRTT 100, RTO 300 ms, timer due at
//! 400); slow start makes cwnd 5 and 4..8 go out.

mod common;

use common::*;
use vhsim_tcp::TxCause::{FastRetransmit, New, Rto};
use vhsim_tcp::{CaState, DcrConfig, DcrTau, DupAckCount, DupAckResponseConfig, TcpConfig, Timer};

fn started(c: TcpConfig) -> Script {
    let mut t = Script::new(c.iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 4), new(4..9));
    assert_eq!(t.cwnd(), 5.0);
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
    assert_eq!(t.deadline_ms(), Some(400));
    t
}

/// TCP-DCR's engagement counters: delays armed, fast retransmits at tau, delays a new ACK
/// cancelled.
const DCR_COUNTERS: [&str; 3] = ["dcr_delays", "dcr_delayed_fast_retransmits", "dcr_reorderings"];

fn dcr_deadline(t: &Script) -> Option<u64> {
    assert!(t.tcp.dupack_response().dcr().is_some(), "DCR configured");
    t.tcp.timer(Timer::DcrDelay).map(|d| d.0 / 1_000_000)
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
    assert_eq!(engaged(&t.tcp, &DCR_COUNTERS), [1, 0, 1]);
    assert_eq!(t.tcp.next_timeout(), t.tcp.core().rtx_deadline());
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
    assert_eq!(engaged(&t.tcp, &DCR_COUNTERS), [1, 1, 0]);
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
    let c = cfg("dcr").set("dupack_response.trigger = 3");
    assert_eq!(
        c.dupack_response,
        DupAckResponseConfig::Dcr(DcrConfig { trigger: DupAckCount(3), tau: DcrTau::Srtt })
    );
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
    let c = cfg("dcr").limited_transmit(false).set("dupack_response.trigger = \"third\"");
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
    assert_eq!(t.tcp.core().recover(), None);
    // ...so a later reordering arms the delay again.
    let sent = t.ack_sack(500, 10, &[(11, 12)]);
    assert!(sent.iter().all(|s| s.cause == New));
    assert!(dcr_deadline(&t).is_some());
    assert_eq!(t.tcp.stats().dcr_delays, 2);
}

#[test]
fn dupacks_that_do_not_cover_recover_arm_no_delay() {
    // RFC 6582 §3.2 step 1 (ns-2 bugFix_): NewReno keeps `recover` after recovery.
    let c = cfg("dcr").set("recovery = \"new_reno\"\nloss_detection = { kind = \"dupack\", sack = false }");
    let mut t = started(c);
    assert_eq!(t.ack(200, 4), new([9]));
    assert_eq!(t.fire_timer(300), vec![tx(4, FastRetransmit)]);
    assert_eq!(t.tcp.core().recover(), Some(10));
    t.ack(400, 10);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    t.ack(500, 10);
    assert_eq!(dcr_deadline(&t), None, "ack 10 does not cover recover 10");
    assert_eq!(t.tcp.stats().dcr_delays, 1);
}

#[test]
fn tau_after_a_long_outage_is_one_rtt_not_the_backed_off_timer() {
    // Issue #18 item 1 (Lim & Jang's 30 s pause with `dcr-frto`): four timeouts in a row back
    // the RTO off to 16 x 300 ms and clear SRTT (more than 8 backoffs, ns-2's rule), F-RTO then
    // finds the timeout spurious, and no valid sample has come in since. tau is still one RTT:
    // the latest valid sample (100 ms), not the 4.8 s backed-off timer.
    let mut t = started(cfg("dcr-frto"));
    assert_eq!(t.fire_timer(400), vec![tx(4, Rto)]);
    assert_eq!(t.fire_timer(1000), vec![tx(4, Rto)]);
    assert_eq!(t.fire_timer(2200), vec![tx(4, Rto)]);
    assert_eq!(t.fire_timer(4600), vec![tx(4, Rto)]);
    assert_eq!(t.tcp.core().rtt().srtt(), None, "cleared after more than 8 backoffs");
    assert_eq!(t.tcp.core().rtt().rto(), dur_ms(4800));
    // The originals of 4 and 5 arrive after the outage: step 2b, then spurious (step 3b).
    assert_eq!(t.ack(5000, 5), new([9, 10]));
    assert_eq!(t.ack(5001, 6), new([11]));
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
    assert_eq!(t.tcp.core().rtt().srtt(), None, "no valid sample yet");
    // 6 was lost: the first dupACK arms tau = the latest sample, 100 ms.
    assert_eq!(t.ack_sack(5010, 6, &[(7, 8)]), new([12]));
    assert_eq!(dcr_deadline(&t), Some(5110));
    assert_eq!(t.fire_timer(5110), vec![tx(6, FastRetransmit)]);
}

#[test]
fn tau_before_any_sample_is_the_rto_without_backoff() {
    // No sample at all: tau falls back to the RTO before backoff (the initial 3 s), even after
    // a timeout doubled the timer to 6 s.
    let mut t = Script::new(cfg("dcr-frto").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.fire_timer(3000), vec![tx(0, Rto)]);
    assert_eq!(t.tcp.core().rtt().rto(), dur_ms(6000));
    // The originals of 0 and 1 arrive late: F-RTO finds the timeout spurious (no sample: 0 was
    // retransmitted, and the segment timed now, 4, is not acknowledged yet).
    assert_eq!(t.ack(3100, 1), new([4, 5]));
    t.ack(3101, 2);
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
    assert_eq!(t.tcp.core().rtt().srtt(), None);
    // 2 was lost: the first dupACK arms tau = 3 s.
    t.ack_sack(3200, 2, &[(3, 4)]);
    assert_eq!(dcr_deadline(&t), Some(6200));
}
