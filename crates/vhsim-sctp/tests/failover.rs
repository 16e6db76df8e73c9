//! Failover (RFC 4960 §6.4.1, §8.2): the primary path goes down; after Path.Max.Retrans
//! consecutive T3-rtx expiries the destination is inactive and DATA flows on the alternate,
//! and no chunk is lost: every TSN reaches the application exactly once, in order. Driven
//! through the harness's two simulated paths.

mod common;

use common::*;
use vhsim_core::{Rate, SimTime};
use vhsim_net::RetxCause;

fn two_paths() -> Vec<Link> {
    vec![Link::new(MN_A, Rate::mbps(2), 40), Link::new(MN_B, Rate::mbps(1), 60)]
}

/// Stop the application at `stop` s and let everything drain until `end` s; then every TSN
/// sent has been delivered exactly once, in order.
#[track_caller]
fn drain_and_check_delivery(net: &mut Net, stop_s: u64, end_s: u64) {
    net.run_until(ms(stop_s * 1000));
    net.stop_app();
    net.run_until(ms(end_s * 1000));
    let sent = net.cn.outbound().next_tsn - 1;
    assert!(net.cn.outbound().chunks.is_empty(), "everything acknowledged");
    assert_eq!(net.mn.inbound().cum, sent, "every TSN received");
    assert_eq!(net.delivered_units(), sent as u64, "each delivered exactly once");
    let payload = net.cn.config().chunk_payload() as u64;
    assert_eq!(net.delivered.iter().map(|d| d.1).sum::<u64>(), sent as u64 * payload);
}

#[test]
fn primary_failure_moves_data_to_the_alternate_after_path_max_retrans() {
    let mut links = two_paths();
    links[0].outages.push((ms(5000), SimTime::MAX));
    let mut net = Net::new(cfg(), links);
    net.run_until(ms(100_000));
    let a = &net.cn.paths()[0];
    assert!(!a.active, "MN_A inactive");
    assert_eq!(a.stats.became_inactive, 1);
    assert_eq!(a.stats.t3_expiries, 6, "Path.Max.Retrans 5: the 6th expiry makes it inactive");
    assert_eq!(net.cn.data_path(), 1);
    // The T3 expiries of MN_A: RTO 1 s (RTO.Min after ~90 ms samples), doubled each time.
    let gaps: Vec<u64> = net.timeouts.windows(2).map(|w| (w[1].0 - w[0].0) / 1_000_000).collect();
    assert_eq!(gaps.iter().filter(|&&g| g > 0).count(), 5);
    let failover = net.timeouts[5];
    // After failover new DATA goes to MN_B only.
    let new_after: Vec<usize> = net
        .cn_sent()
        .filter(|s| s.at > failover && matches!(s.out, Out::Data { cause: RetxCause::New, .. }))
        .map(|s| s.link)
        .collect();
    assert!(new_after.len() > 1000, "{} new chunks after failover", new_after.len());
    assert!(new_after.iter().all(|&l| l == 1));
    // Timeout retransmissions went to the alternate (rtxToAlt 1).
    assert!(net
        .cn_sent()
        .filter(|s| matches!(s.out, Out::Data { cause: RetxCause::Timeout, .. }))
        .all(|s| s.link == 1));
    drain_and_check_delivery(&mut net, 100, 160);
    assert_eq!(net.cn.failed_at(), None);
}

#[test]
fn primary_recovery_is_found_by_heartbeat_and_data_returns() {
    let mut links = two_paths();
    links[0].outages.push((ms(5000), ms(80_000)));
    let mut net = Net::new(cfg(), links);
    net.run_until(ms(79_000));
    assert!(!net.cn.paths()[0].active);
    // Probing MN_A continues at every unanswered probe's timeout (hb_on_inactive, RTO backed
    // off to RTO.Max); the first probe after 80 s is answered and MN_A is active again.
    net.run_until(ms(250_000));
    let a = &net.cn.paths()[0];
    assert!(a.active && a.error_count == 0, "{a:?}");
    assert!(a.stats.heartbeat_acks >= 1);
    assert_eq!(net.cn.data_path(), 0, "new data returns to the primary");
    let last_new = net.cn_sent().filter(|s| matches!(s.out, Out::Data { cause: RetxCause::New, .. })).last();
    assert_eq!(last_new.map(|s| s.link), Some(0));
    drain_and_check_delivery(&mut net, 250, 320);
}

#[test]
fn random_losses_and_a_failure_never_lose_or_duplicate_a_chunk() {
    for seed in 0..12u64 {
        let mut rng = draws(seed);
        let mut links = two_paths();
        let fail_at = 2000 + rng.below(20_000);
        links[0].outages.push((ms(fail_at), SimTime::MAX));
        let mut net = Net::new(cfg(), links);
        let data_loss = [0.0, 0.01, 0.03][(seed % 3) as usize];
        let sack_loss = [0.0, 0.05][(seed / 3 % 2) as usize];
        let mut drops = draws(seed + 100);
        net.drop = Box::new(move |_, from, _, _| {
            drops.bernoulli(if from == Side::Cn { data_loss } else { sack_loss })
        });
        drain_and_check_delivery(&mut net, 120, 260);
        assert!(!net.cn.paths()[0].active, "seed {seed}");
        assert_eq!(net.cn.failed_at(), None, "seed {seed}");
    }
}
