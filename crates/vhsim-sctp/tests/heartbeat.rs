//! Heartbeats (RFC 4960 §8.3): an idle destination is probed every HB.interval + RTO (jittered
//! by ±50% of the RTO), the HEARTBEAT-ACK measures its RTT, unanswered probes count as errors
//! and back the RTO off, and Path.Max.Retrans of them make the destination inactive.

mod common;

use common::*;
use vhsim_core::{Rate, SimTime};
use vhsim_sctp::SctpConfig;

fn links() -> Vec<Link> {
    vec![Link::new(MN_A, Rate::mbps(2), 40), Link::new(MN_B, Rate::mbps(1), 60)]
}

/// Times the CN sent HEARTBEATs on link `link`.
fn heartbeats(net: &Net, link: usize) -> Vec<SimTime> {
    net.cn_sent().filter(|s| s.link == link && matches!(s.out, Out::Heartbeat { .. })).map(|s| s.at).collect()
}

/// The same in whole milliseconds (panics if one is not whole).
fn heartbeats_ms(net: &Net, link: usize) -> Vec<u64> {
    heartbeats(net, link).into_iter().map(to_ms).collect()
}

#[test]
fn idle_alternate_is_probed_every_interval_plus_rto() {
    let mut net = Net::new(cfg(), links());
    net.run_until(ms(100_000));
    // First probe: 30 s + RTO.Initial 3 s after the start. Its ACK (about 121 ms later) is the
    // first RTT measurement: RTO 1 s (RTO.Min); then every 30 s + 1 s after the previous probe.
    assert_eq!(heartbeats_ms(&net, 1), vec![33_000, 64_000, 95_000]);
    assert!(heartbeats_ms(&net, 0).is_empty(), "the busy primary is never idle");
    let b = &net.cn.paths()[1];
    assert_eq!((b.stats.heartbeats_sent, b.stats.heartbeat_acks), (3, 3));
    let srtt = b.rto.srtt().expect("measured by heartbeats");
    assert!(srtt.as_secs_f64() > 0.120 && srtt.as_secs_f64() < 0.122, "{srtt}");
}

#[test]
fn unanswered_probes_back_off_and_make_the_destination_inactive() {
    let mut l = links();
    l[1].outages.push((SimTime::ZERO, SimTime::MAX));
    let mut net = Net::new(cfg(), l);
    net.run_until(ms(480_000));
    // Probe k times out after the RTO of the moment (3, 6, 12, 24, 48, 60 s: doubled each
    // time, capped at RTO.Max); the next probe is due 30 s + the doubled RTO after probe k.
    // The 6th unanswered probe (at 393 s) makes MN_B inactive; from then on it is probed at
    // every timeout (hb_on_inactive).
    assert_eq!(
        heartbeats_ms(&net, 1),
        vec![33_000, 69_000, 111_000, 165_000, 243_000, 333_000, 393_000, 453_000]
    );
    let b = &net.cn.paths()[1];
    assert!(!b.active);
    assert_eq!((b.error_count, b.stats.heartbeat_timeouts, b.stats.became_inactive), (7, 7, 1));
    assert_eq!(net.cn.data_path(), 0);
    assert_eq!(net.cn.failed_at(), None, "SACKs for data on MN_A keep clearing the association counter");
}

#[test]
fn jitter_spreads_probes_within_half_an_rto() {
    let mut net = Net::new(SctpConfig { hb_jitter: 0.5, ..cfg() }, links());
    net.run_until(ms(400_000));
    let t: Vec<u64> = heartbeats(&net, 1).into_iter().map(|t| t.0).collect();
    assert!(t.len() >= 11, "{t:?}");
    // First period: 30 s + 3 s · [0.5, 1.5); later ones: 30 s + 1 s · [0.5, 1.5) (ns).
    assert!((31_500_000_000..34_500_000_000).contains(&t[0]), "{t:?}");
    let gaps: Vec<u64> = t.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().all(|g| (30_500_000_000..31_500_000_000).contains(g)), "{gaps:?}");
    assert!(gaps.windows(2).any(|w| w[0] != w[1]), "jittered: {gaps:?}");
}

#[test]
fn heartbeats_can_be_disabled() {
    let mut net = Net::new(SctpConfig { heartbeat: false, ..cfg() }, links());
    net.run_until(ms(100_000));
    assert!(heartbeats_ms(&net, 1).is_empty());
}
