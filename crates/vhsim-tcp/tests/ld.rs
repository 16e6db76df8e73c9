//! Lim & Jang's loss differentiation (LD; EURASIP JWCN 2009 §4.1, docs/references.md §5, A3, A4,
//! A7): the estimator's per-ACK updates, inequality (1)/(2) on both sides of the threshold
//! (arithmetic in the comments), Tmin's reset on every timeout, the handover reset after a
//! spurious timeout and the n-round suspension; then the same inside senders (schemes I and II).

mod common;

use common::*;
use vhsim_tcp::classify::ld::{Ld, LdConfig};
use vhsim_tcp::TxCause::{FastRetransmit, Rto};
use vhsim_tcp::{LossClass, TcpConfig};

fn ld_cfg(k: f64, suspend_rounds: u32, handover_reset: bool) -> LdConfig {
    LdConfig { k, suspend_rounds, handover_reset, initial_tdev: dur_ms(500) }
}

fn sample(ld: &mut Ld, sent_ms: u64, rtt_ms: u64) {
    ld.on_sample(ms(sent_ms), dur_ms(rtt_ms));
}

#[track_caller]
fn close(actual: f64, expected: f64) {
    assert!((actual - expected).abs() < 1e-12, "expected {expected}, got {actual}");
}

/// After a spurious timeout the estimator restarts from one sample: Tavg = R, Tdev = R/2,
/// Tmin = R. With R = 200 ms: Tavg 0.2, Tdev 0.1, Tmin 0.2 (the clean state the inequality
/// tests start from). The round of suspension ends with the ACK of segment 50.
fn reset_to_200ms(k: f64) -> Ld {
    let mut ld = Ld::with(ld_cfg(k, 1, true));
    sample(&mut ld, 0, 100);
    ld.on_rto(ms(1000));
    ld.on_spurious_rto(50);
    sample(&mut ld, 1100, 200);
    ld.on_ack(51, 60);
    assert!(!ld.suspended());
    close(ld.tavg(), 0.2);
    close(ld.tdev(), 0.1);
    close(ld.tmin(), 0.2);
    ld
}

// ---------------------------------------------------------------- estimator

#[test]
fn initial_state_is_tavg_zero_tdev_half_a_second_and_no_threshold() {
    let ld = Ld::with(ld_cfg(2.0, 1, false));
    assert_eq!((ld.tcur(), ld.tavg(), ld.tdev()), (None, 0.0, 0.5));
    assert_eq!(ld.tmin(), f64::INFINITY);
    assert_eq!(ld.threshold(), None);
    let c = ld.classify(ms(1), 7);
    assert_eq!(
        (c.class, c.seq, c.suspended),
        (LossClass::Congestion, 7, false),
        "no sample: standard response"
    );
}

#[test]
fn each_sample_updates_tdev_with_the_old_tavg_then_tavg_and_tmin() {
    let mut ld = Ld::with(ld_cfg(2.0, 1, false));
    sample(&mut ld, 0, 100);
    // Tdev = 3/4 * 0.5 + 1/4 * |0 - 0.1| = 0.375 + 0.025 = 0.4; Tavg = 1/8 * 0.1 = 0.0125.
    close(ld.tdev(), 0.4);
    close(ld.tavg(), 0.0125);
    close(ld.tmin(), 0.1);
    sample(&mut ld, 10, 200);
    // Tdev = 3/4 * 0.4 + 1/4 * |0.0125 - 0.2| = 0.3 + 0.046875 = 0.346875;
    // Tavg = 7/8 * 0.0125 + 1/8 * 0.2 = 0.0109375 + 0.025 = 0.0359375; Tmin stays 0.1.
    close(ld.tdev(), 0.346875);
    close(ld.tavg(), 0.0359375);
    close(ld.tmin(), 0.1);
    assert_eq!(ld.tcur(), Some(0.2));
    // Threshold (k = 2) = 0.0359375 + 0.346875 * (2 * (0.1/0.2)^2 - 1)
    //                   = 0.0359375 - 0.1734375 = -0.1375 < Tcur: congestion.
    close(ld.threshold().unwrap(), -0.1375);
    assert_eq!(ld.classify(ms(20), 3).class, LossClass::Congestion);
    sample(&mut ld, 20, 50);
    // Tdev = 3/4 * 0.346875 + 1/4 * |0.0359375 - 0.05| = 0.26015625 + 0.003515625 = 0.263671875;
    // Tavg = 7/8 * 0.0359375 + 1/8 * 0.05 = 0.0314453125 + 0.00625 = 0.0376953125; Tmin = 0.05.
    close(ld.tdev(), 0.263671875);
    close(ld.tavg(), 0.0376953125);
    close(ld.tmin(), 0.05);
    // Tcur = Tmin: threshold = Tavg + Tdev * (2 - 1) = 0.3013671875 >= 0.05: wireless.
    close(ld.threshold().unwrap(), 0.3013671875);
    assert_eq!(ld.classify(ms(30), 4).class, LossClass::Wireless);
}

// ---------------------------------------------------------------- inequality (1)/(2)

#[test]
fn inequality_one_on_both_sides_of_the_threshold_depending_on_k() {
    // From Tavg 0.2, Tdev 0.1, Tmin 0.2, a sample of 250 ms:
    //   Tdev = 3/4 * 0.1 + 1/4 * |0.2 - 0.25| = 0.075 + 0.0125 = 0.0875
    //   Tavg = 7/8 * 0.2 + 1/8 * 0.25 = 0.175 + 0.03125 = 0.20625
    //   left side of (1): (Tcur - Tavg) / Tdev = (0.25 - 0.20625) / 0.0875 = 0.5
    //   right side: 2 * (Tmin/Tcur)^k - 1 with Tmin/Tcur = 0.8
    //     k = 1: 2 * 0.8   - 1 = 0.6   > 0.5 -> wireless;  threshold (2) = 0.20625 + 0.0875 * 0.6   = 0.25875
    //     k = 2: 2 * 0.64  - 1 = 0.28  < 0.5 -> congestion; threshold    = 0.20625 + 0.0875 * 0.28  = 0.23075
    //     k = 3: 2 * 0.512 - 1 = 0.024 < 0.5 -> congestion; threshold    = 0.20625 + 0.0875 * 0.024 = 0.20835
    for (k, threshold, class) in [
        (1.0, 0.25875, LossClass::Wireless),
        (2.0, 0.23075, LossClass::Congestion),
        (3.0, 0.20835, LossClass::Congestion),
    ] {
        let mut ld = reset_to_200ms(k);
        sample(&mut ld, 1300, 250);
        close(ld.tdev(), 0.0875);
        close(ld.tavg(), 0.20625);
        close(ld.threshold().unwrap(), threshold);
        let c = ld.classify(ms(1400), 9);
        assert_eq!(c.class, class, "k = {k}");
        assert_eq!((c.tcur, c.suspended), (Some(0.25), false));
        close(c.threshold.unwrap(), threshold);
    }
}

#[test]
fn a_sample_at_the_propagation_delay_is_wireless_one_well_above_it_congestion() {
    let mut ld = reset_to_200ms(2.0);
    sample(&mut ld, 1300, 200);
    // Tdev = 0.075 + 1/4 * 0 = 0.075; Tavg = 0.2; threshold = 0.2 + 0.075 * (2 * 1 - 1) = 0.275.
    close(ld.threshold().unwrap(), 0.275);
    assert_eq!(ld.classify(ms(1400), 1).class, LossClass::Wireless);
    sample(&mut ld, 1400, 400);
    // Tdev = 3/4 * 0.075 + 1/4 * |0.2 - 0.4| = 0.05625 + 0.05 = 0.10625;
    // Tavg = 0.175 + 0.05 = 0.225; (Tmin/Tcur)^2 = 0.25 -> threshold = 0.225 - 0.5 * 0.10625
    // = 0.171875 < 0.4: congestion.
    close(ld.threshold().unwrap(), 0.171875);
    assert_eq!(ld.classify(ms(1500), 2).class, LossClass::Congestion);
}

#[test]
fn a_fractional_exponent_is_allowed() {
    let mut ld = reset_to_200ms(1.5);
    sample(&mut ld, 1300, 250);
    close(ld.threshold().unwrap(), 0.20625 + 0.0875 * (2.0 * 0.8f64.powf(1.5) - 1.0));
}

// ---------------------------------------------------------------- Tmin reset

#[test]
fn every_timeout_resets_tmin_to_infinity() {
    let mut ld = Ld::with(ld_cfg(2.0, 1, false));
    sample(&mut ld, 0, 100);
    close(ld.tmin(), 0.1);
    ld.on_rto(ms(500));
    assert_eq!(ld.tmin(), f64::INFINITY);
    // (Tmin/Tcur)^k is infinite: so is the threshold, and a loss now is wireless.
    assert_eq!(ld.threshold(), Some(f64::INFINITY));
    assert_eq!(ld.classify(ms(600), 1).class, LossClass::Wireless);
    // The next sample is the new minimum, even if larger than the old one (a slower path).
    sample(&mut ld, 700, 300);
    close(ld.tmin(), 0.3);
}

// ---------------------------------------------------------------- handover reset

#[test]
fn after_a_spurious_timeout_the_first_new_sample_restarts_the_estimator() {
    let mut ld = Ld::with(ld_cfg(2.0, 1, true));
    sample(&mut ld, 0, 100);
    sample(&mut ld, 100, 100);
    ld.on_rto(ms(1000));
    ld.on_spurious_rto(40);
    assert!(ld.suspended());
    // A segment sent before the timeout measures the old path plus the outage: ignored.
    let (tavg, tdev) = (ld.tavg(), ld.tdev());
    sample(&mut ld, 900, 3100);
    assert_eq!((ld.tavg(), ld.tdev(), ld.tcur()), (tavg, tdev, Some(0.1)));
    assert_eq!(ld.tmin(), f64::INFINITY);
    // The first segment sent after it: Tavg = R = 0.08, Tdev = R / 2 = 0.04, Tmin = 0.08.
    sample(&mut ld, 1050, 80);
    close(ld.tavg(), 0.08);
    close(ld.tdev(), 0.04);
    close(ld.tmin(), 0.08);
    assert_eq!(ld.tcur(), Some(0.08));
    // Later samples update as usual: Tdev = 0.03 + 1/4 * |0.08 - 0.12| = 0.04; Tavg = 0.085.
    sample(&mut ld, 1100, 120);
    close(ld.tdev(), 0.04);
    close(ld.tavg(), 0.085);
}

#[test]
fn ld_is_suspended_for_n_rounds_and_a_loss_meanwhile_is_wireless() {
    let mut ld = Ld::with(ld_cfg(2.0, 2, true));
    sample(&mut ld, 0, 100);
    ld.on_rto(ms(1000));
    ld.on_spurious_rto(40); // segment 40 is the first one sent after the detection
    sample(&mut ld, 1010, 100);
    // Round 1 lasts until segment 40 is acknowledged (cumulative ACK > 40).
    ld.on_ack(40, 45);
    assert!(ld.suspended());
    let c = ld.classify(ms(1100), 38);
    assert_eq!((c.class, c.suspended), (LossClass::Wireless, true), "docs/references.md A4");
    ld.on_ack(41, 48);
    assert!(ld.suspended(), "round 2 ends with the ACK of segment 48");
    ld.on_ack(48, 50);
    assert!(ld.suspended());
    ld.on_ack(49, 52);
    assert!(!ld.suspended());
    assert!(!ld.classify(ms(1200), 50).suspended);
}

#[test]
fn a_missing_new_sample_keeps_ld_suspended_after_the_rounds() {
    let mut ld = Ld::with(ld_cfg(2.0, 1, true));
    ld.on_rto(ms(1000));
    ld.on_spurious_rto(40);
    ld.on_ack(41, 45);
    assert!(ld.suspended(), "Tavg and Tdev still describe the old path");
    sample(&mut ld, 1001, 60);
    assert!(!ld.suspended());
}

#[test]
fn without_the_handover_modification_a_spurious_timeout_changes_nothing() {
    // Scheme I: the original LD.
    let mut ld = Ld::with(ld_cfg(2.0, 1, false));
    sample(&mut ld, 0, 100);
    ld.on_rto(ms(1000));
    ld.on_spurious_rto(40);
    assert!(!ld.suspended());
    sample(&mut ld, 900, 3100);
    // Tdev = 3/4 * 0.4 + 1/4 * |0.0125 - 3.1| = 0.3 + 0.771875; Tavg = 0.0109375 + 0.3875.
    close(ld.tdev(), 1.071875);
    close(ld.tavg(), 0.3984375);
    close(ld.tmin(), 3.1);
}

// ---------------------------------------------------------------- inside senders

/// `preset` with initial window 4: 0..4 at 0; the ACK of 0 at 96 ms gives LD its first sample,
/// 96 ms (Tcur 0.096, Tdev = 0.375 + 0.024 = 0.399, Tavg = 0.012, Tmin 0.096), and 4, 5 go out.
/// Segment 1 is lost; 2..5 bring four dupACKs. The third arms TCP-DCR with tau = Tavg = 12 ms.
/// LD's engagement counters: verdicts, congestion, wireless, wireless while suspended.
const LD_COUNTERS: [&str; 4] = ["ld_verdicts", "ld_congestion", "ld_wireless", "ld_wireless_suspended"];

fn third_dupack_with_tau_tavg(c: TcpConfig) -> Script {
    let mut t = Script::new(c.iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(96, 1), new([4, 5]));
    assert_eq!(t.ack_sack(200, 1, &[(2, 3)]), new([6]), "limited transmit");
    assert_eq!(t.ack_sack(201, 1, &[(2, 4)]), new([7]));
    assert_eq!(t.ack_sack(202, 1, &[(2, 5)]), new([8]), "third dupACK: delay armed, no retransmission");
    assert_eq!(t.tcp.next_timeout(), Some(ms(214)), "tau = Tavg = 12 ms (Lim & Jang §4.2)");
    assert_eq!(t.ack_sack(205, 1, &[(2, 6)]), new([9]));
    assert_eq!(t.cwnd(), 5.0);
    t
}

#[test]
fn scheme_one_keeps_cwnd_for_a_wireless_loss_but_still_retransmits() {
    let mut t = third_dupack_with_tau_tavg(cfg("dcr-ld"));
    // Tcur = Tmin: threshold = Tavg + Tdev = 0.012 + 0.399 = 0.411 >= 0.096: wireless.
    // Sack1 recovery without halving: pipe = 9 outstanding - 4 dupACKs = 5 = cwnd.
    assert_eq!(t.fire_timer(214), vec![tx(1, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (5.0, 20.0));
    let recs: Vec<_> = t.tcp.take_loss_classifications().collect();
    assert_eq!(recs.len(), 1);
    let r = recs[0];
    assert_eq!(
        (r.at, r.seq, r.class, r.suspended, r.tcur),
        (ms(214), 1, LossClass::Wireless, false, Some(0.096))
    );
    close(r.threshold.unwrap(), 0.411);
    assert_eq!(t.tcp.take_loss_classifications().count(), 0, "drained");
    let s = t.tcp.stats();
    assert_eq!((s.fast_retransmits, s.wireless_losses, s.retransmissions), (1, 1, 1));
    assert_eq!(engaged(&t.tcp, &LD_COUNTERS), [1, 0, 1, 0]);
}

#[test]
fn scheme_one_halves_for_a_congestion_loss() {
    let c = cfg("dcr-ld").set("loss_classifier.initial_tdev = \"0s\"");
    let mut t = third_dupack_with_tau_tavg(c);
    // Tdev = 0 + 1/4 * 0.096 = 0.024; threshold = 0.012 + 0.024 = 0.036 < 0.096: congestion.
    assert_eq!(t.fire_timer(214), vec![tx(1, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (2.0, 2.0), "floor(5 / 2), at least 2");
    let r = t.tcp.take_loss_classifications().next().unwrap();
    assert_eq!((r.seq, r.class), (1, LossClass::Congestion));
    close(r.threshold.unwrap(), 0.036);
    assert_eq!(t.tcp.stats().wireless_losses, 0);
    assert_eq!(engaged(&t.tcp, &LD_COUNTERS), [1, 1, 0, 0]);
}

#[test]
fn a_sender_resets_tmin_on_every_timeout() {
    let mut t = Script::new(cfg("dcr-ld").iw(4));
    t.send_all(0);
    t.ack(96, 1);
    let ld = |t: &Script| t.tcp.loss_classifier().ld().unwrap().tmin();
    close(ld(&t), 0.096);
    let (_, sent) = t.fire_due_timer();
    assert_eq!(sent, vec![tx(1, Rto)]);
    assert_eq!(ld(&t), f64::INFINITY);
}

#[test]
fn scheme_two_resets_ld_on_a_spurious_timeout_and_suspends_it_for_a_round() {
    let mut t = Script::new(cfg("dcr-frto-ld").iw(4));
    let ld = |t: &Script| t.tcp.loss_classifier().ld().unwrap().clone();
    assert_eq!(t.send_all(0), new(0..4));
    // LD sample 96 ms; the RTO estimator's sample is 90 ms (10 ms ticks): RTO 90 + 180 = 270.
    assert_eq!(t.ack(96, 4), new(4..9));
    close(ld(&t).tavg(), 0.012);
    // A handover pause: the timer expires, F-RTO probes, the delayed originals come back.
    assert_eq!(t.fire_timer(366), vec![tx(4, Rto)]);
    assert_eq!(t.ack(500, 5), new([9, 10]));
    assert_eq!(t.ack(510, 6), new([11]), "spurious: cwnd back to 11 - 5 = 6");
    assert_eq!(t.tcp.stats().spurious_rto_detected, 1);
    let l = ld(&t);
    assert!(l.suspended());
    assert_eq!(l.tmin(), f64::INFINITY);
    close(l.tavg(), 0.012); // samples of segments sent before the timeout (5 at 96 ms) are ignored
    assert_eq!(t.ack(520, 7), new([12, 13]));
    // 7 is lost during the round of suspension. Tau = Tavg = 12 ms after the third dupACK.
    assert_eq!(t.ack_sack(530, 7, &[(8, 9)]), new([14]));
    assert_eq!(t.ack_sack(531, 7, &[(8, 10)]), new([15]));
    assert_eq!(t.ack_sack(532, 7, &[(8, 11)]), new([16]));
    assert_eq!(t.fire_timer(544), vec![tx(7, FastRetransmit)]);
    let r = t.tcp.take_loss_classifications().next().unwrap();
    assert_eq!((r.seq, r.class, r.suspended), (7, LossClass::Wireless, true), "docs/references.md A4");
    assert_eq!(t.cwnd(), 7.0, "kept");
    assert_eq!(engaged(&t.tcp, &LD_COUNTERS), [1, 0, 1, 1]);
    assert_eq!(engaged(&t.tcp, &["frto_episodes", "frto_spurious_detected", "dcr_delayed_fast_retransmits"]), [1, 1, 1]);
    // Everything arrives: the ACK of 16 fills the hole at 7, so it gives no sample (issue #18
    // item 2) and LD still waits for its first new sample.
    assert_eq!(t.ack(600, 17), new(17..24));
    assert_eq!(t.tcp.ca_state(), vhsim_tcp::CaState::Open);
    assert!(ld(&t).suspended());
    // The ACK of 17 (sent at 600) is the first new sample, 68 ms: Tavg = 0.068, Tdev = 0.034,
    // Tmin = 0.068; segment 11 (the first sent after detection) is acknowledged, so the round
    // is over.
    t.ack(668, 18);
    let l = ld(&t);
    close(l.tavg(), 0.068);
    close(l.tdev(), 0.034);
    close(l.tmin(), 0.068);
    assert!(!l.suspended());
}

#[test]
fn the_ack_that_fills_a_hole_gives_ld_no_sample() {
    // Issue #18 item 2: the ACK of the retransmission of 1 also acknowledges 2..9, which waited
    // in the receiver's reassembly buffer; timing segment 9 from its first send (205 ms) to
    // this ACK (400 ms) would give 195 ms for a 96 ms path. No sample: Tcur stays 96 ms.
    let mut t = third_dupack_with_tau_tavg(cfg("dcr-ld"));
    assert_eq!(t.fire_timer(214), vec![tx(1, FastRetransmit)]);
    let ld = |t: &Script| t.tcp.loss_classifier().ld().unwrap().clone();
    let before = ld(&t);
    t.ack_sack(300, 1, &[(2, 10)]);
    t.ack(400, 10);
    assert_eq!(t.tcp.ca_state(), vhsim_tcp::CaState::Open, "recovery is over");
    let after = ld(&t);
    assert_eq!((after.tcur(), after.tavg(), after.tdev()), (before.tcur(), before.tavg(), before.tdev()));
    // A reordering fills a hole too: 11 overtakes 10, the dupACK reports it, then 10 arrives.
    let sent_10 = t.log.iter().find(|(_, s)| s.seq == 10).map(|(at, _)| *at).unwrap();
    assert!(sent_10 <= ms(300));
    t.ack_sack(410, 10, &[(11, 12)]);
    t.ack(420, 12);
    assert_eq!(ld(&t).tcur(), before.tcur(), "the ACK after a dupACK fills a hole: no sample");
    // The next ordinary ACK is a sample again (segment 12, sent at 400 ms, ACKed at 490 ms).
    t.ack(490, 13);
    assert_eq!(ld(&t).tcur(), Some(0.09));
}

#[test]
fn every_ack_rtt_timing_takes_no_sample_from_the_ack_that_fills_a_hole() {
    // The RTO estimator's per-ACK samples (rtt_timing = every_ack) follow the same rule.
    let c = cfg("sack").iw(4).set("rtt_timing = \"every_ack\"");
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..4));
    t.ack(100, 1);
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(100)));
    // 1 overtaken by 2 and 3 (two dupACKs below the threshold); then 1 arrives.
    t.ack_sack(150, 1, &[(2, 3)]);
    t.ack_sack(151, 1, &[(2, 4)]);
    t.ack(300, 4);
    assert_eq!(t.tcp.core().rtt().latest(), Some(dur_ms(100)), "no sample of 3 (sent at 0)");
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
}
