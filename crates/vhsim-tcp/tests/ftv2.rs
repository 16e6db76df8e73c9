//! Freeze-TCPv2 (Park et al. 2009 §3; protocol-facts §8, A8, A9): each WAVE branch in a
//! scripted case built for it, cwnd after the decision checked against the formula by hand.
//!
//! Common start (`ftv2`, initial window 44, window_ 64 so cwnd is not capped): 0..44 sent at
//! 0 ms; at 100 ms the ACK of all of them arrives with a zero window (the ZWA): slow start
//! makes cwnd 45, its RTT sample (segment 43, 100 ms) is RTT_prev, and the sender freezes. At
//! 300 ms the PACK (the same ACK, window 64) restores cwnd 45 and RTT_base := RTT_prev; P =
//! segment 44, the first sent after it. P's ACK at 300 + RTT_curr ms makes the first WAVE
//! decision: Δ = (W/RTT_base − W/RTT_curr)·RTT_base = 45·(1 − 100/RTT_curr).

mod common;

use common::*;
use vhsim_tcp::cc::ftv2::{Ftv2Phase, WaveBranch};
use vhsim_tcp::TcpSender;

fn ftv2(tcp: &TcpSender) -> &vhsim_tcp::cc::ftv2::Ftv2 {
    tcp.core().congestion_control().ftv2().expect("ftv2")
}

/// The common start, then P's ACK `rtt_curr_ms` after the PACK; returns the script.
fn wave_after(rtt_curr_ms: u64) -> Script {
    wave_after_with(rtt_curr_ms, "")
}

/// [`wave_after`] with `[tcp]` keys merged over the preset.
fn wave_after_with(rtt_curr_ms: u64, keys: &str) -> Script {
    let mut t = Script::new(cfg("ftv2").set(keys).iw(44).window(64));
    assert_eq!(t.send_all(0), new(0..44));
    assert_eq!(t.ack_win(100, 44, 0), none(), "the ZWA freezes the sender");
    let f = ftv2(&t.tcp);
    assert_eq!((f.phase(), f.rtt_prev()), (Ftv2Phase::Frozen, Some(0.1)));
    assert_eq!(t.cwnd(), 45.0);
    // The PACK: sending resumes with the saved cwnd, 44..89.
    assert_eq!(t.ack_win(300, 44, 64), new(44..89));
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Resumed);
    assert_eq!(t.cwnd(), 45.0);
    t.ack_win(300 + rtt_curr_ms, 45, 64);
    assert_eq!(ftv2(&t.tcp).rtt_curr(), Some(rtt_curr_ms as f64 / 1000.0));
    t
}

fn decision(t: &Script) -> (WaveBranch, f64) {
    let d = ftv2(&t.tcp).decisions();
    assert_eq!(d.len(), 1, "{d:?}");
    (d[0].1, d[0].2)
}

#[test]
fn delta_below_alpha_with_a_longer_rtt_is_dabe_linear_increase() {
    // RTT_curr 120 ms > RTT_prev 100 ms: Δ = 45·(1 − 100/120) = 7.5 < 14. DABE, RTT_prev <
    // RTT_curr: linear increase from the saved cwnd, +1/cwnd on this ACK: 45 + 1/45.
    let t = wave_after(120);
    let (branch, delta) = decision(&t);
    assert_eq!(branch, WaveBranch::DabeLinear);
    assert_close(delta, 7.5);
    assert_close(t.cwnd(), 45.0 + 1.0 / 45.0);
}

#[test]
fn delta_below_alpha_with_a_shorter_rtt_is_dabe_equation_1() {
    // RTT_curr 80 ms < RTT_prev 100 ms: Δ = 45·(1 − 100/80) = −11.25 < 14. Eq. (1) as A8 reads
    // it: + min(1, 1/|ΔRTT|_ms) = 1/20 segment per ACK, on this ACK too: 45.05.
    let t = wave_after(80);
    let (branch, delta) = decision(&t);
    let WaveBranch::DabeEq1(step) = branch else { panic!("{branch:?}") };
    assert_close(step, 0.05);
    assert_close(delta, -11.25);
    assert_close(t.cwnd(), 45.05);
    // The next ACK adds another 0.05.
    let mut t = t;
    t.ack_win(381, 46, 64);
    assert_close(t.cwnd(), 45.1);
}

#[test]
fn delta_between_alpha_and_beta_is_the_vegas_rule() {
    // RTT_curr 150 ms: Δ = 45·(1 − 100/150) = 15, between 14 and 16. Vegas with α = 1, β = 3:
    // diff 15 > 3, so cwnd −= 1 and no growth this round: 44.
    let t = wave_after(150);
    let (branch, delta) = decision(&t);
    assert_eq!(branch, WaveBranch::Vegas);
    assert_close(delta, 15.0);
    assert_close(t.cwnd(), 44.0);
}

#[test]
fn delta_above_beta_sets_the_westwood_window() {
    // RTT_curr 300 ms: Δ = 45·(1 − 100/300) = 30 > 16. Westwood+'s estimate: the first round
    // ended at 100 ms, the second ends with P's ACK at 600 ms having delivered one segment:
    // BWE = 8000 bit / 0.5 s = 16 000 bit/s; RTTmin = 100 ms; BWE·RTTmin/MSS = 0.2 segment,
    // so cwnd = ssthresh = max(2, 0) = 2, then linear growth on this ACK: 2.5.
    let t = wave_after(300);
    let (branch, delta) = decision(&t);
    assert_eq!(branch, WaveBranch::Bandwidth);
    assert_close(delta, 30.0);
    assert_eq!(t.tcp.core().estimators().bandwidth.estimate(), Some(16_000.0));
    assert_eq!(t.ssthresh(), 2.0);
    assert_close(t.cwnd(), 2.5);
}

#[test]
fn ordinary_acks_follow_reno_and_a_loss_ends_wave() {
    // Before any freeze: Reno slow start, one segment per ACK.
    let mut t = Script::new(cfg("ftv2").iw(4).window(64));
    t.send_all(0);
    t.ack(100, 1);
    t.ack(100, 2);
    assert_eq!(t.cwnd(), 6.0);
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
    // After a WAVE decision a fast retransmit halves as Reno and leaves WAVE.
    let mut t = wave_after(120);
    for _ in 0..3 {
        t.ack_win(500, 45, 64);
    }
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
    assert_eq!(t.ssthresh(), 22.0, "⌊45/2⌋ of the window 45.02");
}

#[test]
fn bad_thresholds_are_errors_naming_the_key() {
    let e = cfg("ftv2")
        .merged(&toml::from_str("congestion_control = { kind = \"ftv2\", vegas_alpha = 5 }").unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("tcp.congestion_control.vegas_alpha") && e.contains("vegas_beta (3)"), "{e}");
}

#[test]
fn equation_1_once_per_round_is_an_option() {
    // eq1 = "per_round": the 0.05 is added once at the decision, nothing per ACK after it.
    let mut t = wave_after_with(80, "congestion_control.eq1 = \"per_round\"");
    assert_close(t.cwnd(), 45.05);
    t.ack_win(381, 46, 64);
    assert_close(t.cwnd(), 45.05);
}

#[test]
fn wave_for_one_decision_only_is_an_option() {
    // wave_duration = "one_decision": the round after the first decision ends in Reno.
    let mut t = wave_after_with(120, "congestion_control.wave_duration = \"one_decision\"");
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Resumed);
    // The next round ends with the ACK of segment 89 (the first sent after P's ACK).
    for (i, ack) in (46..=90).enumerate() {
        t.ack_win(421 + i as u64, ack, 64);
    }
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
    assert_eq!(ftv2(&t.tcp).decisions().len(), 1);
}
