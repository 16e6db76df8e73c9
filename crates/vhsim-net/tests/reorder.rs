//! "Swap with the next packet(s)" reordering (Lim & Jang §5.1; docs/references.md §12, ambiguity
//! A10): the arrival pattern, the hold timeout, and the duplicate ACKs a TCP sink sends.

mod common;

use common::{data, run, seq_of, Fate};
use vhsim_core::{Rate, RngStreams, SimDuration, SimTime};
use vhsim_net::{ArqConfig, ErrorModelConfig, Link, LinkParams, QueueLimit, ReorderConfig};
use vhsim_tcp::{SinkConfig, TcpSink};

const PARAMS: LinkParams = LinkParams { rate: Rate::mbps(1), delay: SimDuration::from_millis(200) };
/// 1000 B at 1 Mb/s.
const SER: SimDuration = SimDuration::from_millis(8);

fn swap_link(seed: u64, q: f64, depth: u32, hold_timeout: Option<SimDuration>) -> Link {
    let cfg = ReorderConfig::Swap { q, depth, hold_timeout };
    let streams = RngStreams::new(seed);
    let none = ErrorModelConfig::None;
    Link::build("umts/forward", PARAMS, QueueLimit::Packets(u32::MAX), &none, None, Some(&cfg), &streams)
}

/// Duplicate ACKs an immediate-ACK SACK sink sends for segments arriving in `order`, as
/// (ack value, run length) for each run of duplicates.
fn dupack_runs(order: &[u64]) -> Vec<(u64, u32)> {
    let cfg = SinkConfig {
        delayed_ack: false,
        delack_interval: SimDuration::from_millis(100),
        sack: true,
        max_sack_blocks: 3,
        advertised_window: u32::MAX,
        ack_size: 40,
        ..SinkConfig::default()
    };
    let mut sink = TcpSink::new(cfg);
    let (mut last, mut runs) = (0u64, Vec::<(u64, u32)>::new());
    let mut in_run = false;
    for &seq in order {
        let ack = sink.on_data(SimTime::ZERO, seq).ack.expect("immediate ACKs").ack;
        if ack == last {
            match runs.last_mut() {
                Some(r) if in_run => r.1 += 1,
                _ => runs.push((ack, 1)),
            }
            in_run = true;
        } else {
            in_run = false;
        }
        last = ack;
    }
    runs
}

#[test]
fn swaps_of_depth_d_put_each_held_packet_after_the_next_d_and_cost_d_dupacks() {
    let n = 100_000u64;
    for (depth, seed) in [(1u32, 1u64), (3, 2)] {
        let mut l = swap_link(seed, 0.05, depth, None);
        let out = run(&mut l, (0..n).map(|i| (SimTime::ZERO, data(i, 1000))));
        let order: Vec<u64> = out.arrivals.iter().map(|(_, p)| seq_of(p)).collect();
        assert_eq!(order.len() as u64, n);
        let held: Vec<u64> =
            out.decided.iter().filter(|d| d.fate == Fate::Held).map(|d| d.seq).collect();
        // Eligible packets are held with probability q; each hold makes the next d ineligible,
        // so holds per packet = q / (1 + q d).
        let expected = n as f64 * 0.05 / (1.0 + 0.05 * depth as f64);
        assert!(
            (held.len() as f64 - expected).abs() / expected < 0.05,
            "depth {depth}: {} holds",
            held.len()
        );
        let mut pos = vec![0usize; n as usize];
        for (i, &s) in order.iter().enumerate() {
            pos[s as usize] = i;
        }
        let d = depth as u64;
        for &h in held.iter().filter(|&&h| h + d < n) {
            // n+1..n+d arrive in order, then n: the held packet comes right after the d-th one.
            assert_eq!(pos[h as usize], pos[(h + d) as usize] + 1, "depth {depth}, held {h}");
            for f in 1..=d {
                assert!(!held.contains(&(h + f)), "follower {} of {h} was held", h + f);
                assert_eq!(pos[(h + f) as usize] + 1, pos[h as usize] - (d - f) as usize);
            }
        }
        // At the sink: every swap is one run of exactly d duplicate ACKs for the held segment,
        // so depth 1 never reaches dupthresh 3 and depth 3 always does (fast retransmit).
        let runs = dupack_runs(&order);
        let full: Vec<u64> = held.iter().copied().filter(|&h| h + d < n).collect();
        assert_eq!(runs.iter().map(|r| r.0).collect::<Vec<_>>(), full, "depth {depth}");
        assert!(runs.iter().all(|r| r.1 == depth), "depth {depth}: {runs:?}");
        assert_eq!(runs.iter().filter(|r| r.1 >= 3).count(), if depth >= 3 { full.len() } else { 0 });
    }
}

#[test]
fn back_to_back_follower_ending_at_the_deadline_still_swaps() {
    // q = 1: packet 0 is held; packet 1 (same size, queued) ends exactly one serialization
    // later = the default deadline, and still counts; both arrive at the same time, 1 first.
    let mut l = swap_link(1, 1.0, 1, None);
    let out = run(&mut l, [(SimTime::ZERO, data(0, 1000)), (SimTime::ZERO, data(1, 1000))]);
    let t = SimTime::ZERO + SER + SER + PARAMS.delay;
    let got: Vec<(SimTime, u64)> = out.arrivals.iter().map(|(t, p)| (*t, seq_of(p))).collect();
    assert_eq!(got, [(t, 1), (t, 0)]);
}

#[test]
fn a_held_packet_without_follower_is_released_after_the_hold_timeout() {
    // Default timeout: one serialization time of the held packet.
    let mut l = swap_link(1, 1.0, 1, None);
    let out = run(&mut l, [(SimTime::ZERO, data(0, 1000))]);
    assert_eq!(out.arrivals.len(), 1);
    assert_eq!(out.arrivals[0].0, SimTime::ZERO + SER + SER + PARAMS.delay);

    // Explicit timeout; a later packet (after the deadline) does not overtake: order kept.
    let timeout = SimDuration::from_millis(5);
    let mut l = swap_link(1, 1.0, 3, Some(timeout));
    let late = SimTime::ZERO + SimDuration::from_millis(50);
    let out = run(&mut l, [(SimTime::ZERO, data(0, 1000)), (late, data(1, 1000))]);
    let got: Vec<(SimTime, u64)> = out.arrivals.iter().map(|(t, p)| (*t, seq_of(p))).collect();
    assert_eq!(
        got,
        [(SimTime::ZERO + SER + timeout + PARAMS.delay, 0), (late + SER + timeout + PARAMS.delay, 1)]
    );
}

#[test]
fn with_depth_3_the_timeout_restarts_after_each_follower() {
    // Followers 8 ms apart (back to back), timeout 10 ms: 0 is held until 3 has passed.
    let mut l = swap_link(1, 1.0, 3, Some(SimDuration::from_millis(10)));
    let out = run(&mut l, (0..4).map(|i| (SimTime::ZERO, data(i, 1000))));
    let order: Vec<u64> = out.arrivals.iter().map(|(_, p)| seq_of(p)).collect();
    assert_eq!(order, [1, 2, 3, 0]);
}

#[test]
fn enabling_reordering_or_arq_never_changes_the_error_models_draws() {
    let streams = RngStreams::new(4);
    let err = ErrorModelConfig::Bernoulli { p: 0.1 };
    let swap = ReorderConfig::Swap { q: 0.05, depth: 3, hold_timeout: None };
    let arq = ArqConfig::StopAndWait {
        frame_loss: 0.0,
        retry_limit: 1,
        retry_delay: SimDuration::ZERO,
        backoff_max: SimDuration::ZERO,
    };
    let q = QueueLimit::Packets(u32::MAX);
    let offers = || (0..20_000).map(|i| (SimTime::ZERO, data(i, 1000)));
    let dropped =
        |mut l: Link| -> Vec<u64> { run(&mut l, offers()).drops.iter().map(|d| seq_of(&d.1)).collect() };
    let base = dropped(Link::build("x", PARAMS, q, &err, None, None, &streams));
    assert!(base.len() > 1500);
    assert_eq!(dropped(Link::build("x", PARAMS, q, &err, None, Some(&swap), &streams)), base);
    assert_eq!(dropped(Link::build("x", PARAMS, q, &err, Some(&arq), Some(&swap), &streams)), base);
}
