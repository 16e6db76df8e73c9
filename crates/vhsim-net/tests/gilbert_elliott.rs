//! Gilbert–Elliott, both forms, driven directly with synthetic packets and times: long-run loss
//! rate and mean bad-burst length against the analytic values (docs/references.md §12).

mod common;

use common::data;
use vhsim_core::{RngStreams, SimDuration, SimTime};
use vhsim_net::error::{ChannelState, GilbertElliott, GilbertElliottTimed};

/// Relative difference.
fn rel(measured: f64, expected: f64) -> f64 {
    (measured - expected).abs() / expected
}

/// Loss rate and mean length of runs of consecutive packets that saw Bad, over `n` packets at
/// times `time(i)`; `step` returns (state seen, lost).
fn measure(n: u64, mut step: impl FnMut(u64) -> (ChannelState, bool)) -> (f64, f64) {
    let (mut lost, mut runs, mut bad, mut in_bad) = (0u64, 0u64, 0u64, false);
    for i in 0..n {
        let (state, l) = step(i);
        lost += u64::from(l);
        if state == ChannelState::Bad {
            bad += 1;
            if !in_bad {
                runs += 1;
            }
        }
        in_bad = state == ChannelState::Bad;
    }
    (lost as f64 / n as f64, bad as f64 / runs as f64)
}

#[test]
fn per_packet_form_matches_stationary_loss_and_mean_bad_burst() {
    // (p, r, loss_good, loss_bad). Analytic: pi_B = p/(p+r); loss = pi_G*lg + pi_B*lb;
    // mean bad burst = 1/r packets.
    let cases =
        [(0.01, 0.1, 0.0, 1.0), (0.05, 0.5, 0.001, 0.5), (0.1, 0.9, 0.02, 0.2), (0.002, 0.02, 0.001, 0.3)];
    let n = 4_000_000;
    for (i, &(p, r, lg, lb)) in cases.iter().enumerate() {
        let s = RngStreams::new(11 + i as u64);
        let mut m = GilbertElliott::new(p, r, lg, lb, s.stream("loss"), s.stream("state"));
        let pi_b = p / (p + r);
        let loss = (1.0 - pi_b) * lg + pi_b * lb;
        assert!((m.stationary_bad() - pi_b).abs() < 1e-12 && (m.mean_loss() - loss).abs() < 1e-12);
        assert!((m.mean_bad_burst() - 1.0 / r).abs() < 1e-12);
        let pkt = data(0, 1000);
        let (rate, burst) = measure(n, |_| {
            let st = m.state();
            (st, m.drops(SimTime::ZERO, &pkt))
        });
        assert!(rel(rate, loss) < 0.05, "case {i}: loss {rate} vs {loss}");
        assert!(rel(burst, 1.0 / r) < 0.05, "case {i}: bad burst {burst} vs {}", 1.0 / r);
    }
}

#[test]
fn per_packet_form_with_all_loss_in_bad_gives_loss_bursts_of_mean_one_over_r() {
    // loss_good = 0, loss_bad = 1: runs of consecutive losses are exactly the Bad sojourns.
    let s = RngStreams::new(5);
    let mut m = GilbertElliott::new(0.01, 0.1, 0.0, 1.0, s.stream("loss"), s.stream("state"));
    let pkt = data(0, 1000);
    let (mut lost, mut bursts, mut prev) = (0u64, 0u64, false);
    for _ in 0..1_000_000 {
        let l = m.drops(SimTime::ZERO, &pkt);
        lost += u64::from(l);
        bursts += u64::from(l && !prev);
        prev = l;
    }
    let mean = lost as f64 / bursts as f64;
    assert!(rel(mean, 10.0) < 0.05, "{mean}");
}

#[test]
fn time_based_form_matches_time_share_loss_and_mean_bad_run() {
    let ms = SimDuration::from_millis;
    // (good, bad, p_bad, loss_good, loss_bad, packet spacing).
    // 4*10^6 packets each (40 000 s and 4 000 s of channel time).
    // Lim & Jang's WLAN (§5.1, Table 1): Bad time share = 0.5*0.1 / (0.5*0.1 + 0.5*1) = 1/11
    // = 0.0909; mean loss = (10/11)*0.001 + (1/11)*0.1 = 0.000909 + 0.009091 = 0.011/1.1 = 0.01
    // exactly. A run of Bad sojourns has geometric length, mean 1/(1-p_bad) = 2 sojourns =
    // 200 ms = 20 packets at one packet per 10 ms.
    // Second case: share = 0.3*50 / (0.3*50 + 0.7*200) = 15/155 = 0.0968 = mean loss;
    // bad run = 50 ms / 0.7 = 71.43 ms = 71.43 packets at one per ms.
    let cases = [
        (ms(1000), ms(100), 0.5, 0.001, 0.1, ms(10), 0.01, 20.0),
        (ms(200), ms(50), 0.3, 0.0, 1.0, ms(1), 15.0 / 155.0, 50.0 / 0.7),
    ];
    for (i, &(g, b, pb, lg, lb, spacing, loss, run)) in cases.iter().enumerate() {
        let s = RngStreams::new(21 + i as u64);
        let mut m = GilbertElliottTimed::new(g, b, pb, lg, lb, s.stream("loss"), s.stream("state"));
        assert!(rel(m.mean_loss(), loss) < 1e-9, "case {i}: analytic {}", m.mean_loss());
        let pkt = data(0, 1000);
        let (rate, burst) = measure(4_000_000, |k| {
            let t = SimTime(k * spacing.as_nanos());
            (m.state_at(t), m.drops(t, &pkt))
        });
        assert!(rel(rate, loss) < 0.05, "case {i}: loss {rate} vs {loss}");
        assert!(rel(burst, run) < 0.05, "case {i}: bad run {burst} vs {run}");
    }
}

#[test]
fn time_based_sojourns_are_deterministic_and_state_ignores_traffic() {
    let s = RngStreams::new(3);
    let (g, b) = (SimDuration::from_secs(1), SimDuration::from_millis(100));
    let mut dense = GilbertElliottTimed::new(g, b, 0.5, 0.0, 0.0, s.stream("l"), s.stream("st"));
    let mut sparse = GilbertElliottTimed::new(g, b, 0.5, 0.5, 0.5, s.stream("l2"), s.stream("st"));
    let pkt = data(0, 1000);
    // Good for exactly the first second; then each state change happens at a multiple of
    // 100 ms, and the trajectory is the same however many packets were sent.
    assert_eq!(dense.state_at(SimTime(999_999_999)), ChannelState::Good);
    let mut changes = 0;
    let mut last = ChannelState::Good;
    for k in 0..600_000u64 {
        let t = SimTime(k * 100_000); // every 0.1 ms for 60 s
        let st = dense.state_at(t);
        dense.drops(t, &pkt);
        if st != last {
            assert_eq!(k % 1000, 0, "state change at {t:?} is not on a 100 ms boundary");
            changes += 1;
            last = st;
        }
        if k % 3333 == 0 {
            sparse.drops(t, &pkt);
            assert_eq!(sparse.state_at(t), st);
        }
    }
    assert!(changes > 10, "{changes}");
}
