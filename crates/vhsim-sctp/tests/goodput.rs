//! Steady-state goodput of a bulk association over the harness's simulated links: the
//! application receives data at close to the bottleneck rate times the payload share of a
//! packet (1452 of 1500 bytes).

mod common;

use common::*;
use vhsim_core::Rate;

/// Goodput ceiling of a link: rate · 1452 / 1500.
fn ceiling(rate: Rate) -> f64 {
    rate.bits_per_sec() as f64 * 1452.0 / 1500.0
}

fn goodput(net: &Net, from_s: u64, to_s: u64) -> f64 {
    let bytes = net.delivered_bytes_between(ms(from_s * 1000), ms(to_s * 1000));
    bytes as f64 * 8.0 / (to_s - from_s) as f64
}

#[test]
fn clean_path_runs_at_the_link_rate() {
    let rate = Rate::mbps(2);
    let mut net = Net::new(cfg(), vec![Link::new(MN_A, rate, 40)]);
    net.run_until(ms(30_000));
    let g = goodput(&net, 5, 30);
    let share = g / ceiling(rate);
    println!("clean 2 Mbps / 40 ms: goodput {g:.0} b/s = {:.2}% of the ceiling", share * 100.0);
    assert!((0.97..=1.005).contains(&share), "goodput {g} b/s is {share} of the ceiling");
    assert_eq!(net.timeouts.len(), 0);
    assert_eq!(net.cn.summary().fast_recoveries, 0);
    // Every chunk delivered once, in order, up to what has arrived.
    assert_eq!(net.delivered_units(), net.mn.inbound().cum as u64);
}

#[test]
fn multihomed_bulk_uses_the_primary_and_only_probes_the_alternate() {
    let rate = Rate::mbps(2);
    let links = vec![Link::new(MN_A, rate, 40), Link::new(MN_B, Rate::kbps(384), 100)];
    let mut net = Net::new(cfg(), links);
    net.run_until(ms(60_000));
    let share = goodput(&net, 5, 60) / ceiling(rate);
    assert!((0.97..=1.005).contains(&share), "share {share}");
    let to_b: Vec<&Out> = net.cn_sent().filter(|s| s.link == 1).map(|s| &s.out).collect();
    assert!(!to_b.is_empty() && to_b.iter().all(|o| matches!(o, Out::Heartbeat { .. })), "{to_b:?}");
}

#[test]
fn drop_tail_bottleneck_keeps_goodput_high() {
    // A 10-packet queue at 2 Mbps, 40 ms: losses every cwnd cycle, recovered by fast
    // retransmit (the retransmission goes to the same path: single-homed).
    let rate = Rate::mbps(2);
    let mut link = Link::new(MN_A, rate, 40);
    link.down.limit = Some(10);
    let mut net = Net::new(cfg(), vec![link]);
    net.run_until(ms(60_000));
    let g = goodput(&net, 5, 60);
    let share = g / ceiling(rate);
    let s = net.cn.summary();
    println!(
        "drop-tail 10 pkts: goodput {g:.0} b/s = {:.2}% of the ceiling, {} fast recoveries, {} T3 expiries",
        share * 100.0,
        s.fast_recoveries,
        s.paths[0].counters.t3_expiries
    );
    assert!(s.fast_recoveries > 0, "the queue does overflow");
    assert!(share > 0.9, "share {share}");
    assert_eq!(net.delivered_units(), net.mn.inbound().cum as u64);
}
