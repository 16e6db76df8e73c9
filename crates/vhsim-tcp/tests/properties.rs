//! Property-style runs (ARCHITECTURE.md §6 item 3): every preset, driven through a lossy,
//! reordering pipe by deterministic pseudo-random sequences, must keep its invariants and
//! deliver every segment in order.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::presets::all;
use vhsim_tcp::{NewRenoTimer, RttTiming, TxCause};

#[derive(Clone, Debug)]
struct Case {
    preset: &'static str,
    seed: u64,
    data_loss: f64,
    /// Loss probability inside a burst (0 = independent losses only).
    burst_loss: f64,
    ack_loss: f64,
    jitter_us: u64,
    delayed_ack: bool,
    window: u32,
    limited_transmit: bool,
    slow_but_steady: bool,
    every_ack_timing: bool,
}

const SEGMENTS: u64 = 300;

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for p in all() {
        for seed in 0..32u64 {
            v.push(Case {
                preset: p.name,
                seed,
                data_loss: [0.0, 0.02, 0.08, 0.2][(seed % 4) as usize],
                burst_loss: if seed % 5 == 3 { 0.7 } else { 0.0 },
                ack_loss: [0.0, 0.05, 0.15][(seed % 3) as usize],
                jitter_us: [0, 0, 3000, 800][(seed % 4) as usize],
                delayed_ack: seed % 2 == 1,
                window: [20, 8, 40, 3][(seed / 4 % 4) as usize],
                limited_transmit: (seed / 2) % 2 == 0,
                slow_but_steady: (seed / 4) % 2 == 1,
                every_ack_timing: (seed / 8) % 2 == 1,
            });
        }
    }
    v
}

fn build(case: &Case) -> Net {
    let mut c = cfg(case.preset).window(case.window).limited_transmit(case.limited_transmit);
    if case.slow_but_steady {
        c = with_timer(c, NewRenoTimer::SlowButSteady);
    }
    if case.every_ack_timing {
        c.rtt_timing = RttTiming::EveryAck;
    }
    let mut s = sink_cfg(case.preset);
    s.delayed_ack = case.delayed_ack;
    let mut net = Net::new(c, s, SEGMENTS, 20, 1000);
    net.jitter = SimDuration::from_micros(case.jitter_us);
    net.rng = Lcg::new(case.seed ^ 0xA5A5);
    let mut rng = Lcg::new(case.seed);
    let (p, pb) = (case.data_loss, case.burst_loss);
    let mut burst_left = 0u32;
    net.drop_data = Box::new(move |_, _| {
        if burst_left > 0 {
            burst_left -= 1;
            return rng.chance(pb);
        }
        if pb > 0.0 && rng.chance(0.01) {
            burst_left = 8;
        }
        rng.chance(p)
    });
    let mut ack_rng = Lcg::new(case.seed.wrapping_mul(31) + 17);
    let q = case.ack_loss;
    net.drop_ack = Box::new(move |_| ack_rng.chance(q));
    net
}

#[track_caller]
fn check_invariants(net: &Net, case: &Case) {
    check_sender_invariants(net, SEGMENTS, case.window, &|| format!("{case:?} at {}", net.now));
}

fn run(case: &Case) -> Net {
    let mut net = build(case);
    net.start();
    let mut steps = 0u64;
    loop {
        check_invariants(&net, case);
        if !net.step() {
            break;
        }
        steps += 1;
        assert!(steps < 1_000_000, "no termination: {case:?}");
    }
    net
}

#[test]
fn every_preset_delivers_everything_in_order_through_a_lossy_pipe() {
    let mut total_rto = 0;
    let mut total_fr = 0;
    for case in cases() {
        let net = run(&case);
        assert_eq!(net.delivered, SEGMENTS, "not everything delivered: {case:?}");
        let c = net.tcp.core();
        assert_eq!(c.snd_una(), SEGMENTS, "not everything acknowledged: {case:?}");
        assert_eq!(net.tcp.next_timeout(), None, "timer left running: {case:?}");
        // Every transmission is either the first send of the next segment or a resend.
        let mut high = 0;
        for (_, t) in &net.log {
            if t.cause == TxCause::New {
                assert_eq!(t.seq, high, "new data out of order: {case:?}");
                high += 1;
            } else {
                assert!(t.seq < high, "retransmission of unsent data: {case:?}");
            }
        }
        if case.data_loss == 0.0 && case.burst_loss == 0.0 {
            assert!(
                net.log.iter().all(|(_, t)| t.cause == TxCause::New)
                    || case.ack_loss > 0.0
                    || case.jitter_us > 0,
                "lossless, in-order run retransmitted: {case:?}"
            );
        }
        total_rto += net.tcp.stats().rto_count;
        total_fr += net.tcp.stats().fast_retransmits;
    }
    // The sequences really exercise both kinds of recovery.
    assert!(total_rto > 10 && total_fr > 50, "rto {total_rto}, fast retransmits {total_fr}");
}

#[test]
fn lossless_in_order_pipe_never_retransmits() {
    for p in all() {
        let mut net = Net::new(cfg(p.name), sink_cfg(p.name), 500, 30, 500);
        net.start();
        net.run_until(ms(3_600_000));
        assert_eq!(net.delivered, 500, "{}", p.name);
        let s = net.tcp.stats();
        assert_eq!((s.segments_sent, s.retransmissions), (500, 0), "{}", p.name);
        // window_ = 20 binds: cwnd grows past it, outstanding never does.
        assert!(net.tcp.cwnd() > 20.0, "{}: cwnd {}", p.name, net.tcp.cwnd());
    }
}

#[test]
fn runs_are_deterministic() {
    for case in cases().into_iter().filter(|c| c.seed == 6) {
        let a = run(&case);
        let b = run(&case);
        assert_eq!(a.log, b.log, "{case:?}");
    }
}
