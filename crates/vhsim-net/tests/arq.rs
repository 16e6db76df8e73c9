//! 802.11 stop-and-wait ARQ on a link (docs/references.md §12): residual loss p^N, in-order
//! delivery, and the time each frame holds the link.

mod common;

use common::{data, run, seq_of, Fate};
use vhsim_core::{Rate, RngStreams, SimDuration, SimTime};
use vhsim_net::{ArqConfig, DropCause, ErrorModelConfig, Link, LinkParams, Outcome, QueueLimit};

const PARAMS: LinkParams = LinkParams { rate: Rate::mbps(1000), delay: SimDuration::from_millis(1) };
/// 125 B at 1 Gb/s.
const SER: SimDuration = SimDuration::from_nanos(1_000);

fn link(seed: u64, error: &ErrorModelConfig, arq: &ArqConfig) -> Link {
    let streams = RngStreams::new(seed);
    Link::build("wlan/forward", PARAMS, QueueLimit::Packets(u32::MAX), error, Some(arq), None, &streams)
}

fn saturated(n: u64) -> impl Iterator<Item = (SimTime, vhsim_net::Packet)> {
    (0..n).map(|i| (SimTime::ZERO, data(i, 125)))
}

fn sw(frame_loss: f64, retry_limit: u32, retry_delay: SimDuration, backoff_max: SimDuration) -> ArqConfig {
    ArqConfig::StopAndWait { frame_loss, retry_limit, retry_delay, backoff_max }
}

#[test]
fn residual_loss_is_per_attempt_loss_to_the_power_of_the_retry_limit() {
    // (frame_loss, error-model loss per attempt, retry_limit). An attempt fails with
    // 1 - (1 - frame_loss)(1 - p); residual = that ^ retry_limit.
    let cases = [(0.3, 0.0, 4), (0.5, 0.0, 3), (0.6, 0.0, 7), (0.1, 0.0, 1), (0.0, 0.4, 4), (0.2, 0.25, 3)];
    let n = 1_000_000;
    for (i, &(fl, p, limit)) in cases.iter().enumerate() {
        let error = if p > 0.0 { ErrorModelConfig::Bernoulli { p } } else { ErrorModelConfig::None };
        let mut l =
            link(100 + i as u64, &error, &sw(fl, limit, SimDuration::from_micros(10), SimDuration::ZERO));
        let out = run(&mut l, saturated(n));
        let fail: f64 = 1.0 - (1.0 - fl) * (1.0 - p);
        let expected = fail.powi(limit as i32);
        let rate = out.drops.len() as f64 / n as f64;
        assert!((rate - expected).abs() / expected < 0.05, "case {i}: residual {rate} vs {expected}");
        assert!(out.drops.iter().all(|d| d.2 == DropCause::ErrorModel));
        assert!(out.decided.iter().all(|d| d.attempts <= limit));
        assert_eq!(out.arrivals.len() + out.drops.len(), n as usize, "case {i}");
        assert_eq!(l.packets_sent, n);
    }
}

#[test]
fn delivery_stays_in_order_and_each_frame_holds_the_link_attempts_times_serialization_plus_retries() {
    let retry_delay = SimDuration::from_micros(7);
    let mut l = link(7, &ErrorModelConfig::None, &sw(0.4, 4, retry_delay, SimDuration::ZERO));
    let out = run(&mut l, saturated(200_000));
    let seqs: Vec<u64> = out.arrivals.iter().map(|(_, p)| seq_of(p)).collect();
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "out of order");
    // Frames go back to back: frame k starts when frame k-1's fate is decided. A frame that used
    // k attempts ends k*ser + (k-1)*retry_delay after it started, and arrives `delay` later.
    let mut start = SimTime::ZERO;
    let mut arrivals = out.arrivals.iter();
    let mut histogram = [0u32; 5];
    for d in &out.decided {
        let k = d.attempts as u64;
        histogram[d.attempts as usize] += 1;
        let held = d.at.saturating_since(start);
        assert_eq!(held, SimDuration::from_nanos(k * SER.as_nanos() + (k - 1) * retry_delay.as_nanos()));
        match d.fate {
            Fate::Arrives(at) => {
                assert_eq!(at, d.at + PARAMS.delay);
                assert_eq!(arrivals.next().map(|a| (a.0, a.1.uid)), Some((at, d.uid)));
            }
            Fate::Dropped(_) => assert_eq!(k, 4),
            o => panic!("unexpected {o:?}"),
        }
        start = d.at;
    }
    // Attempts are geometric: P(k) = 0.4^(k-1) * 0.6 for k < 4.
    let n = out.decided.len() as f64;
    for (k, &count) in histogram.iter().enumerate().take(4).skip(1) {
        let expected = 0.4f64.powi(k as i32 - 1) * 0.6;
        assert!((count as f64 / n - expected).abs() / expected < 0.05, "k={k}: {count}");
    }
    assert_eq!(l.attempts, histogram.iter().enumerate().map(|(k, &c)| k as u64 * c as u64).sum::<u64>());
}

#[test]
fn random_backoff_adds_between_zero_and_backoff_max_per_failed_attempt() {
    let (retry_delay, backoff_max) = (SimDuration::from_micros(5), SimDuration::from_micros(20));
    let mut l = link(8, &ErrorModelConfig::None, &sw(0.5, 7, retry_delay, backoff_max));
    let out = run(&mut l, saturated(100_000));
    let (mut extra, mut retries) = (0u64, 0u64);
    let mut start = SimTime::ZERO;
    for d in &out.decided {
        let k = d.attempts as u64;
        let base = k * SER.as_nanos() + (k - 1) * retry_delay.as_nanos();
        let backoff = d.at.saturating_since(start).as_nanos() - base;
        assert!(backoff <= (k - 1) * backoff_max.as_nanos());
        extra += backoff;
        retries += k - 1;
        start = d.at;
    }
    let mean = extra as f64 / retries as f64;
    assert!((mean - 10_000.0).abs() / 10_000.0 < 0.02, "mean backoff {mean} ns");
}

#[test]
fn arq_without_losses_behaves_like_no_arq() {
    let streams = RngStreams::new(1);
    let none = ErrorModelConfig::None;
    let q = QueueLimit::Packets(u32::MAX);
    let mut plain = Link::build("a", PARAMS, q, &none, None, None, &streams);
    let mut arq = link(1, &none, &sw(0.0, 4, SimDuration::from_millis(1), SimDuration::ZERO));
    let offers: Vec<_> = (0..1000).map(|i| (SimTime(i * 700), data(i, 125))).collect();
    assert_eq!(run(&mut plain, offers.clone()).arrivals, run(&mut arq, offers).arrivals);
}

#[test]
fn a_link_going_down_between_attempts_drops_the_frame_as_link_down() {
    let mut l =
        link(2, &ErrorModelConfig::None, &sw(1.0, 3, SimDuration::from_micros(10), SimDuration::ZERO));
    assert!(matches!(l.offer(SimTime::ZERO, data(0, 125)), vhsim_net::Offer::Transmitting(_)));
    let f = l.finish_transmission(SimTime(1_000));
    assert_eq!((f.outcome, f.next_done), (Outcome::Retrying, Some(SimTime(1_000 + 10_000 + 1_000))));
    l.set_up(false);
    let f = l.finish_transmission(SimTime(12_000));
    assert_eq!((f.dropped(), f.attempts), (Some(DropCause::LinkDown), 2));
}
