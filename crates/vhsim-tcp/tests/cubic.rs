//! CUBIC's window law (RFC 9438) driven ACK by ACK at hand-computed points: the reduction and
//! W_max at a loss (§4.6, §4.7), K and W_cubic (§4.2, Figures 1-2), the step towards the
//! target (§4.4-4.5), the Reno-friendly region (§4.3), the timeout (§4.8), the application-
//! limited rule (§5.8) and CUBIC in a sender.

mod common;

use common::*;
use vhsim_core::{SimDuration, SimTime};
use vhsim_tcp::cc::cubic::{cube_root, Cubic, CubicConfig};
use vhsim_tcp::cc::{AckSample, CongestionControl, CongestionEvent, Window};
use vhsim_tcp::estimate::Estimators;
use vhsim_tcp::part::Part;
use vhsim_tcp::rtt::RttEstimator;

const C: f64 = 0.4;
const BETA: f64 = 0.7;

/// A CUBIC law with `cfg`, and an RTT estimator holding one exact 100 ms sample.
fn law(cfg: CubicConfig) -> (Cubic, RttEstimator, Estimators) {
    let tcp = cfg_named("cubic");
    let mut rtt = RttEstimator::new(tcp.rto());
    rtt.on_new_ack(SimTime(100_000_000), 1, Some(SimTime::ZERO));
    assert_eq!(rtt.srtt(), Some(SimDuration::from_millis(100)));
    (Cubic::new(&cfg, &tcp), rtt, Estimators::new(1000, false, false))
}

fn cfg_named(name: &str) -> vhsim_tcp::TcpConfig {
    cfg(name).set("clock_granularity = \"0s\"\nrtt_timing = \"every_ack\"")
}

fn loss(window: f64) -> CongestionEvent {
    CongestionEvent { window, in_flight: window as u64, lost: None, bandwidth: None, min_rtt: None }
}

/// One ACK of `acked` segments at `at_s` seconds, from a full window (cwnd-limited).
fn ack(at_s: f64, acked: u64) -> (SimTime, AckSample) {
    (SimTime((at_s * 1e9).round() as u64), AckSample { acked, in_flight: 1000, ..AckSample::default() })
}

/// The law's engagement counters (docs/schemes.md "Engagement counters").
fn counters(cubic: &Cubic) -> vhsim_net::Engagement {
    let mut e = vhsim_net::Engagement::new();
    cubic.engagement(&mut e);
    e
}

/// RFC 9438 Figure 1 with W_max = 100, cwnd_epoch = 70 (Figure 2: K = ∛(30/0.4) = ∛75).
fn w_cubic(t: f64) -> f64 {
    let k = 75f64.cbrt();
    C * (t - k).powi(3) + 100.0
}

#[test]
fn a_loss_at_100_segments_gives_ssthresh_70_w_max_100_and_k_4_217_s() {
    let (mut cubic, _, _) = law(CubicConfig::default());
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    // §4.6: ssthresh = cwnd = 0.7 · 100; §4.7: the first loss sets W_max = cwnd.
    assert_close(w.ssthresh, 70.0);
    assert_close(w.cwnd, 70.0);
    assert_eq!(cubic.w_max(), Some(100.0));
    assert_eq!(cubic.cwnd_prior(), Some(100.0));
    // The cube root is Newton's, from basic operations; it agrees with libm's to 1e-12.
    assert!((cube_root(75.0) - 4.217_163_326_508_746).abs() < 1e-12);
    assert!((cube_root(-8.0) + 2.0).abs() < 1e-12);
}

#[test]
fn after_the_loss_each_ack_moves_cwnd_a_cwnd_th_of_the_way_to_w_cubic_one_rtt_ahead() {
    // Hand-computed (C = 0.4, W_max = 100, K = 4.21716 s, RTT = 0.1 s):
    //   W_cubic(0.1)      = 100 + 0.4·(0.1 − 4.21716)³ = 100 − 0.4·69.789 = 72.084
    //   W_cubic(1.1)      = 100 − 0.4·(3.11716)³       = 100 − 0.4·30.289 = 87.885
    //   W_cubic(K)        = 100 (the plateau at W_max)
    //   W_cubic(2K + 0.1) = 100 + 0.4·(4.31716)³       = 132.186, above 1.5·cwnd? no (cwnd ≈ 70)
    let cfg = CubicConfig { reno_friendly: false, ..CubicConfig::default() };
    let (mut cubic, rtt, est) = law(cfg);
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    let start = 10.0; // the stage starts at the first ACK after recovery, t = 0 there
    let hand = [(0.0, 72.084), (1.0, 87.885), (75f64.cbrt() - 0.1, 100.0), (2.0 * 75f64.cbrt(), 132.186)];
    for (t, w_hand) in hand {
        let target = w_cubic(t + 0.1);
        assert!((target - w_hand).abs() < 1e-3, "W_cubic({}) = {target}, by hand {w_hand}", t + 0.1);
        let before = w.cwnd;
        let (now, a) = ack(start + t, 1);
        cubic.on_ack(&mut w, now, &a, &rtt, &est);
        let bounded = target.clamp(before, 1.5 * before);
        assert_close(w.cwnd, before + (bounded - before) / before);
    }
    assert!((cubic.k() - 4.217_163_326_508_746).abs() < 1e-12);
}

#[test]
fn the_first_ack_of_the_stage_adds_2_084_seventieths() {
    // By hand: 70 + (72.084 − 70)/70 = 70.0298.
    let cfg = CubicConfig { reno_friendly: false, ..CubicConfig::default() };
    let (mut cubic, rtt, est) = law(cfg);
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    let (now, a) = ack(3.0, 1);
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    assert!((w.cwnd - 70.0298).abs() < 1e-4, "{}", w.cwnd);
}

#[test]
fn the_target_is_bounded_by_one_and_a_half_cwnd() {
    let cfg = CubicConfig { reno_friendly: false, ..CubicConfig::default() };
    let (mut cubic, rtt, est) = law(cfg);
    let mut w = Window { cwnd: 10.0, ssthresh: 10.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(10.0)); // W_max 10, cwnd 7, K = ∛7.5
    let (now, a) = ack(0.0, 1);
    cubic.on_ack(&mut w, now, &a, &rtt, &est); // the stage starts
    let before = w.cwnd;
    // 30 s into the stage W_cubic is ~10⁴, far above 1.5·cwnd: the step is 0.5 (§4.2).
    let (now, a) = ack(30.0, 1);
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    assert_close(w.cwnd, before + 0.5);
}

#[test]
fn linux_counts_the_step_per_segment_acknowledged() {
    let cfg = CubicConfig {
        reno_friendly: false,
        growth: vhsim_tcp::cc::cubic::CubicGrowth::PerSegment,
        ..CubicConfig::default()
    };
    let (mut cubic, rtt, est) = law(cfg);
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    let (now, a) = ack(1.0, 2); // a delayed ACK of two segments
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    // t = 0 at this first ACK: step = (W_cubic(0.1) − 70)/70, twice.
    assert_close(w.cwnd, 70.0 + 2.0 * (w_cubic(0.1) - 70.0) / 70.0);
}

#[test]
fn in_the_reno_friendly_region_cwnd_follows_w_est() {
    // Right after the loss W_cubic(0) = cwnd_epoch = 70, and W_est = 70 + α·1/70 with
    // α = 3(1 − 0.7)/(1 + 0.7) = 9/17 is above it (§4.3): cwnd = W_est = 70.0075630.
    let (mut cubic, rtt, est) = law(CubicConfig::default());
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    let (now, a) = ack(0.0, 1);
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    let alpha = 3.0 * (1.0 - BETA) / (1.0 + BETA);
    assert_close(alpha, 9.0 / 17.0);
    assert_close(w.cwnd, 70.0 + alpha / 70.0);
    assert!((w.cwnd - 70.007_563_0).abs() < 1e-7);
    assert_close(cubic.w_est(), w.cwnd);
    assert_eq!(counters(&cubic).get("cubic_reno_friendly_acks"), Some(&1));
}

#[test]
fn w_est_grows_with_alpha_one_once_it_reaches_cwnd_prior() {
    // A small W_max (short K) and many ACKs at t = 0: W_cubic(0) stays at cwnd_epoch while
    // W_est climbs by α/cwnd per ACK, then by 1/cwnd once it passes cwnd_prior (§4.3).
    let (mut cubic, rtt, est) = law(CubicConfig::default());
    let mut w = Window { cwnd: 4.0, ssthresh: 4.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(4.0)); // cwnd 2.8, cwnd_prior 4
    let alpha = 9.0 / 17.0;
    let mut w_est = 2.8;
    for _ in 0..40 {
        let step = if w_est >= 4.0 { 1.0 } else { alpha };
        w_est += step / w.cwnd;
        let (now, a) = ack(0.0, 1);
        cubic.on_ack(&mut w, now, &a, &rtt, &est);
        assert_close(cubic.w_est(), w_est);
        assert_close(w.cwnd, w_est);
    }
    assert!(w_est > 4.0, "W_est passed cwnd_prior: {w_est}");
}

#[test]
fn fast_convergence_lowers_w_max_when_the_window_shrank_since_the_last_loss() {
    let (mut cubic, _, _) = law(CubicConfig::default());
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    w.cwnd = 90.0;
    cubic.on_congestion(&mut w, SimTime(1), &loss(90.0));
    // §4.7: 90 < W_max = 100, so W_max = 90·(1 + 0.7)/2 = 76.5; §4.6: ssthresh = 63.
    assert_eq!(cubic.w_max(), Some(76.5));
    assert_close(w.ssthresh, 63.0);
    assert_eq!(cubic.fast_convergences(), 1);
    assert_eq!(counters(&cubic).get("cubic_fast_convergences"), Some(&1));
    let (mut plain, _, _) = law(CubicConfig { fast_convergence: false, ..CubicConfig::default() });
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    plain.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    w.cwnd = 90.0;
    plain.on_congestion(&mut w, SimTime(1), &loss(90.0));
    assert_eq!(plain.w_max(), Some(90.0));
    assert_eq!(counters(&plain).get("cubic_fast_convergences"), None, "not configured: not reported");
}

#[test]
fn after_a_timeout_the_next_stage_starts_with_k_zero_at_its_own_window() {
    let (mut cubic, rtt, est) = law(CubicConfig { reno_friendly: false, ..CubicConfig::default() });
    let mut w = Window { cwnd: 80.0, ssthresh: 100.0 };
    cubic.on_rto(&mut w, SimTime::ZERO, &loss(80.0));
    // §4.8: ssthresh = 0.7 · 80 = 56, cwnd = 1.
    assert_close(w.ssthresh, 56.0);
    assert_close(w.cwnd, 1.0);
    assert_eq!(cubic.w_max(), None);
    // Slow start to 56 (the rest of the ACK beyond ssthresh is congestion avoidance).
    let (now, a) = ack(1.0, 55);
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    assert_close(w.cwnd, 56.0);
    let (now, a) = ack(2.0, 1);
    cubic.on_ack(&mut w, now, &a, &rtt, &est);
    // The stage starts here: W_max = cwnd_epoch = 56, K = 0; target = W_cubic(0.1) = 56.0004.
    assert_eq!(cubic.w_max(), Some(56.0));
    assert_close(cubic.k(), 0.0);
    let target: f64 = 56.0 + C * 0.1f64.powi(3);
    assert_close(w.cwnd, 56.0 + (target - 56.0) / 56.0);
}

#[test]
fn an_application_limited_flow_neither_grows_nor_ages_its_curve() {
    // A flight below cwnd/2 in this round and the last is RFC 7661 §4.3's non-validated phase:
    // no growth (RFC 9438 §5.8), and t stands still (§4.2).
    let cfg = CubicConfig { reno_friendly: false, ..CubicConfig::default() };
    let (mut cubic, rtt, est) = law(cfg);
    let mut w = Window { cwnd: 100.0, ssthresh: 100.0 };
    cubic.on_congestion(&mut w, SimTime::ZERO, &loss(100.0));
    let sample =
        |flight, round_start| AckSample { acked: 1, in_flight: flight, round_start, ..AckSample::default() };
    // Full flights (70): validated; the stage starts at t = 0 s.
    cubic.on_ack(&mut w, SimTime::ZERO, &sample(69, true), &rtt, &est);
    cubic.on_ack(&mut w, SimTime(500_000_000), &sample(69, true), &rtt, &est);
    let grown = w.cwnd;
    assert!(grown > 70.0);
    // Then the application sends little: flights of 10 for two rounds (1 s to 11.5 s).
    cubic.on_ack(&mut w, SimTime(1_000_000_000), &sample(9, true), &rtt, &est);
    assert!(w.cwnd > grown, "the last round's full flight still counts");
    let grown = w.cwnd;
    cubic.on_ack(&mut w, SimTime(1_500_000_000), &sample(9, true), &rtt, &est);
    cubic.on_ack(&mut w, SimTime(11_000_000_000), &sample(9, false), &rtt, &est);
    assert_eq!(w.cwnd, grown);
    // A full flight again: the curve resumes where it stopped; the 10 s from 1.5 s to 11.5 s
    // (limited since the ACK at 1.5 s) are not part of t.
    let before = w.cwnd;
    cubic.on_ack(&mut w, SimTime(11_500_000_000), &sample(69, true), &rtt, &est);
    let t = 1.5;
    let target = w_cubic(t + 0.1).clamp(before, 1.5 * before);
    assert_close(w.cwnd, before + (target - before) / before);
    // The ACKs at 1.5 s and 11 s found the flow application-limited; the Reno-friendly
    // region is off here, so it reports nothing.
    let e = counters(&cubic);
    assert_eq!((e.get("cubic_app_limited_acks"), e.get("cubic_reno_friendly_acks")), (Some(&2), None));
}

#[test]
fn the_cubic_preset_cuts_to_seven_tenths_at_a_fast_retransmit() {
    // ns-2 Sack1 recovery with CUBIC's law: 20 segments out, segment 0 lost; the third SACK
    // duplicate ACK retransmits it and cuts ssthresh to 0.7 · 20 = 14 (not Reno's 10).
    let mut t = Script::new(cfg("cubic").iw(20).ssthresh(20));
    assert_eq!(t.send_all(0), new(0..20));
    t.ack_sack(100, 0, &[(1, 2)]);
    t.ack_sack(101, 0, &[(1, 3)]);
    let sent = t.ack_sack(102, 0, &[(1, 4)]);
    assert_eq!(sent[0], tx(0, vhsim_tcp::TxCause::FastRetransmit));
    assert_close(t.ssthresh(), 14.0);
    assert_close(t.cwnd(), 14.0);
    assert_eq!(t.tcp.core().congestion_control().cubic().unwrap().w_max(), Some(20.0));
}
