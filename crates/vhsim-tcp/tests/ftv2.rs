//! Freeze-TCPv2 (Park et al. 2009 §3; docs/references.md §8, A8, A9): each WAVE branch in a
//! scripted case built for it, cwnd after the decision checked against the formula by hand.
//!
//! Common start (`ftv2`, initial window 44, window_ 64 so cwnd is not capped): 0..44 sent at
//! 0 ms; at 100 ms the ACK of all of them arrives with a zero window (the ZWA): slow start
//! makes cwnd 45, its RTT sample (segment 43, 100 ms) is RTT_prev, and the sender freezes. At
//! 300 ms the PACK (the same ACK, window 64) restores cwnd 45 and RTT_base := RTT_prev; P =
//! segment 44, the first sent after it. P's ACK at 300 + RTT_curr ms makes the first WAVE
//! decision: Δ = (W/RTT_base − W/RTT_curr)·RTT_base = 45·(1 − 100/RTT_curr).
//!
//! Then the rule of when WAVE starts and ends (a loss the handoff caused does not stop the
//! first decision; one of a segment sent after it ends WAVE; `until_loss` lets any loss end
//! it), the Westwood branch's estimate from the PACK on, and the engagement counters.

mod common;

use common::*;
use vhsim_tcp::cc::ftv2::{Ftv2Phase, WaveBranch};
use vhsim_tcp::{TcpSender, TxCause};

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
fn delta_below_alpha_with_a_shorter_rtt_is_dabe_equation_1_once_per_decision() {
    // RTT_curr 80 ms < RTT_prev 100 ms: Δ = 45·(1 − 100/80) = −11.25 < 14. Eq. (1) read per
    // decision (default): cwnd += cwnd·(RTT_prev − RTT_curr)/RTT_curr = 45·20/80 = 11.25 at
    // the decision, then held until the next decision.
    let mut t = wave_after(80);
    let (branch, delta) = decision(&t);
    let WaveBranch::DabeEq1(step) = branch else { panic!("{branch:?}") };
    assert_close(step, 11.25);
    assert_close(delta, -11.25);
    assert_close(t.cwnd(), 56.25);
    t.ack_win(381, 46, 64);
    assert_close(t.cwnd(), 56.25);
}

#[test]
fn a_larger_rtt_drop_grows_the_window_more_per_decision() {
    // The per-decision reading grows with the drop (the paper: "the bandwidth provided by the
    // new network cell is increased"): 100 -> 50 ms doubles the window, 45 + 45 = 90.
    let t = wave_after(50);
    assert_close(t.cwnd(), 90.0);
}

#[test]
fn equation_1_per_ack_is_an_option() {
    // eq1 = "per_ack" (A8): + min(1, 1/|ΔRTT|_ms) = 1/20 segment per ACK, on this ACK too:
    // 45.05, and another 0.05 on the next.
    let mut t = wave_after_with(80, "congestion_control.eq1 = \"per_ack\"");
    let WaveBranch::DabeEq1(step) = decision(&t).0 else { panic!() };
    assert_close(step, 0.05);
    assert_close(t.cwnd(), 45.05);
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
    assert_eq!(t.tcp.core().estimators().bandwidth.as_deref().and_then(|b| b.estimate()), Some(16_000.0));
    assert_eq!(t.ssthresh(), 2.0);
    assert_close(t.cwnd(), 2.5);
}

#[test]
fn ordinary_acks_follow_reno() {
    // Before any freeze: Reno slow start, one segment per ACK.
    let mut t = Script::new(cfg("ftv2").iw(4).window(64));
    t.send_all(0);
    t.ack(100, 1);
    t.ack(100, 2);
    assert_eq!(t.cwnd(), 6.0);
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
}

/// The common start up to the PACK at 300 ms (45 segments 44..89 sent then), with P = 44 lost:
/// three duplicate ACKs at 410-412 ms fast-retransmit it (a loss the handoff caused: P was sent
/// before any decision), and Reno halves: ssthresh = cwnd = ⌊45/2⌋ = 22.
fn resume_burst_loses_p(keys: &str) -> Script {
    let mut t = Script::new(cfg("ftv2").set(keys).iw(44).window(64));
    t.send_all(0);
    t.ack_win(100, 44, 0);
    assert_eq!(t.ack_win(300, 44, 64), new(44..89));
    assert_eq!(t.ack_win(410, 44, 64), new([89]));
    assert_eq!(t.ack_win(411, 44, 64), new([90]));
    assert_eq!(t.ack_win(412, 44, 64), vec![tx(44, TxCause::FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (22.0, 22.0));
    t
}

#[test]
fn handoff_losses_do_not_stop_the_first_decision() {
    // Default `until_new_loss`: the fast retransmit of P leaves WAVE waiting for its first
    // sample. Recovery ends at 520 ms with the ACK of everything sent (up to 91; it covers the
    // retransmitted P: no sample; Reno: cwnd = 22 + 1/22), which lets 91.. out. The ACK of 91
    // at 640 ms times it: RTT_curr = 120 ms, the first decision:
    // Δ = 22.045·(1 − 100/120) = 3.67 < 14, RTT_prev < RTT_curr: DABE's linear increase.
    let mut t = resume_burst_loses_p("");
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Resumed);
    assert!(ftv2(&t.tcp).decisions().is_empty());
    t.ack_win(520, 91, 64);
    assert!(ftv2(&t.tcp).decisions().is_empty(), "the ACK that covers the retransmission gives no sample");
    let w = t.cwnd();
    assert_close(w, 22.0 + 1.0 / 22.0);
    t.ack_win(640, 92, 64);
    assert_eq!(ftv2(&t.tcp).rtt_curr(), Some(0.12));
    let (branch, delta) = decision(&t);
    assert_eq!(branch, WaveBranch::DabeLinear);
    assert_close(delta, w * (1.0 - 100.0 / 120.0));
    assert_close(t.cwnd(), w + 1.0 / w);
    let k = ftv2(&t.tcp).counters();
    assert_eq!((k.started, k.first, k.ended_by_loss), (1, [1, 0, 0, 0], 0));
}

#[test]
fn until_loss_lets_a_handoff_loss_cancel_wave() {
    // `wave_duration = "until_loss"`: the same fast retransmit ends WAVE before any decision;
    // the later sample decides nothing and Reno goes on.
    let mut t = resume_burst_loses_p("congestion_control.wave_duration = \"until_loss\"");
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
    t.ack_win(520, 91, 64);
    t.ack_win(640, 92, 64);
    assert!(ftv2(&t.tcp).decisions().is_empty());
    let k = ftv2(&t.tcp).counters();
    assert_eq!((k.started, k.decisions, k.ended_by_loss), (1, [0; 4], 1));
}

#[test]
fn a_loss_from_before_the_first_decision_keeps_wave_a_later_one_ends_it() {
    // The decision at 420 ms (RTT_curr 120 ms); P's ACK lets 89 out.
    // Three duplicate ACKs of 45 at 430 ms: 45 was sent at 300 ms, before the decision (the
    // resume burst): Reno halves, WAVE goes on.
    let mut t = wave_after(120);
    assert_eq!(t.log.last(), Some(&(ms(420), tx(89, TxCause::New))));
    for _ in 0..3 {
        t.ack_win(430, 45, 64);
    }
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Resumed);
    assert_eq!(ftv2(&t.tcp).counters().ended_by_loss, 0);
    // Limited transmit sent 90 and 91 before it, so recover = 92 and the next fast retransmit
    // needs an ACK beyond it. Reno's recovery ends with the ACK of 45..88 at 500 ms, which lets
    // 92.. out. 93, sent at 500 ms, after the first decision, is lost: the new cell's
    // congestion ends WAVE.
    assert_eq!(t.tcp.core().recover(), Some(92));
    t.ack_win(500, 89, 64);
    assert!(t.log.iter().any(|&(at, x)| at == ms(500) && x.seq == 93));
    t.ack_win(505, 93, 64);
    for _ in 0..3 {
        t.ack_win(510, 93, 64);
    }
    assert_eq!(t.tcp.stats().fast_retransmits, 2);
    assert_eq!(ftv2(&t.tcp).phase(), Ftv2Phase::Normal);
    assert_eq!(ftv2(&t.tcp).counters().ended_by_loss, 1);
}

#[test]
fn the_westwood_branch_measures_the_new_cell_from_the_pack() {
    // iw 44, ssthresh 10 (congestion avoidance), window_ 64. The ZWA at 100 ms acknowledges
    // 0..20 (RTT_prev = 100 ms); the PACK at 300 ms restores cwnd 44.02 with 20..44 still
    // outstanding and sends 44..64 (P = 44). The ACKs of 21..44 arrive at 310-333 ms (frozen
    // segments: no RTT sample, but deliveries), P's at 600 ms: RTT_curr = 300 ms,
    // Δ = 44.56·(1 − 100/300) = 29.7 > 16: the Westwood branch.
    // Since the PACK (default): 25 segments delivered in 300 ms = 666 667 bit/s; RTTmin since
    // the PACK = 300 ms (P's sample): BWE·RTTmin/MSS = 25 segments, cwnd = ssthresh = 25, then
    // linear growth on this ACK, 25.04.
    // Over the connection (`bandwidth_since = "connection"`): Westwood+'s estimate, 25
    // segments in the round 100..600 ms = 400 000 bit/s, and RTTmin = 100 ms (the old cell):
    // 5 segments.
    for (keys, window) in [("", 25.0), ("congestion_control.bandwidth_since = \"connection\"", 5.0)] {
        let mut t = Script::new(cfg("ftv2").set(keys).iw(44).window(64).ssthresh(10));
        t.send_all(0);
        t.ack_win(100, 20, 0);
        assert_eq!(t.ack_win(300, 20, 64), new(44..64));
        for (i, a) in (21..=44).enumerate() {
            t.ack_win(310 + i as u64, a, 64);
        }
        t.ack_win(600, 45, 64);
        let e = t.tcp.core().estimators();
        let r = e.since_resume.as_deref().expect("an FTv2 sender keeps them");
        assert_eq!(r.min_rtt.get(), Some(dur_ms(300)));
        assert_close(r.bandwidth.estimate().unwrap(), 25.0 * 8000.0 / 0.3);
        assert_eq!(e.bandwidth.as_deref().and_then(|b| b.estimate()), Some(400_000.0));
        let (branch, delta) = decision(&t);
        assert_eq!(branch, WaveBranch::Bandwidth);
        assert!(delta > 16.0, "{delta}");
        assert_eq!(t.ssthresh(), window, "{keys}");
        assert_close(t.cwnd(), window + 1.0 / window);
    }
}

#[test]
fn delta_counts_the_window_in_use_not_a_cwnd_above_the_cap() {
    // window_ 20 (and so ssthresh 20: congestion avoidance) with cwnd 44.02 restored: 20
    // segments are what the sender has out, so Δ = 20·(1 − 100/150) = 6.67 < 14 (DABE), where
    // cwnd would give 14.67 (the Vegas rule).
    let mut t = Script::new(cfg("ftv2").iw(44).window(20));
    t.send_all(0);
    t.ack_win(100, 20, 0); // the ZWA acknowledges all 20 sent: cwnd 44 + 1/44
    assert_close(t.cwnd(), 44.0 + 1.0 / 44.0);
    assert_eq!(t.ack_win(300, 20, 64), new(20..40));
    t.ack_win(450, 21, 64);
    let (branch, delta) = decision(&t);
    assert_eq!(branch, WaveBranch::DabeLinear);
    assert_close(delta, 20.0 * (1.0 - 100.0 / 150.0));
}

#[test]
fn wave_reports_its_engagement() {
    // One handover, one decision (DABE linear), nothing ended by a loss.
    let t = wave_after(120);
    let mut e = vhsim_net::Engagement::new();
    t.tcp.engagement(&mut e);
    for (name, n) in [
        ("wave_started", 1),
        ("wave_decisions", 1),
        ("wave_decisions_dabe_linear", 1),
        ("wave_decisions_dabe_eq1", 0),
        ("wave_decisions_vegas", 0),
        ("wave_decisions_westwood", 0),
        ("wave_first_dabe_linear", 1),
        ("wave_first_westwood", 0),
        ("wave_ended_by_loss", 0),
        ("persist_episodes", 1),
    ] {
        assert_eq!(e.get(name), Some(&n), "{name}: {e:?}");
    }
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
    // eq1 = "per_round": A8's 0.05 is added once at the decision, nothing per ACK after it.
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
