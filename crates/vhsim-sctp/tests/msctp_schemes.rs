//! The options of the mSCTP schemes (issue #25): HR-mSCTP with and without the cwnd reset,
//! MT-mSCTP's two handover regions, the address the Set-Primary leaves from, the chunks of a
//! deleted address, the RFC 4960 idle reset, and the engagement counters.
//!
//! Paths: MN_A is a 3G-like path (384 kb/s, 100 ms), MN_B a WLAN-like one (11 Mb/s, 15 ms).

mod common;

use common::*;
use vhsim_core::Rate;
use vhsim_net::{AppOffer, Endpoint, Engagement, RetxCause};
use vhsim_sctp::outbound::Mark;
use vhsim_sctp::wire::AsconfRequest;
use vhsim_sctp::{presets, AddressOp, AsconfAction, InitialCwnd, MtRegion, SctpConfig, SetPrimarySource};

fn preset(name: &str) -> SctpConfig {
    SctpConfig {
        hb_jitter: 0.0,
        max_burst: 0,
        rto_initial: RFC4960_RTO_INITIAL,
        ..presets::preset(name).unwrap().config()
    }
}

fn set_primary(addr: vhsim_sctp::Addr, correlation: u32) -> Vec<AsconfRequest> {
    vec![AsconfRequest::SetPrimary { correlation, addr: addr.0 }]
}

/// HR-mSCTP CN: TSNs 1-3 to MN_A, the SACK for them grows MN_A's cwnd and sends 4-7 there,
/// Set-Primary MN_B at 110 ms (4-7 go to MN_B as handover retransmissions), Set-Primary MN_A
/// again at 120 ms. Returns the script and MN_A's cwnd before the switches.
fn hr_back_and_forth(cfg: SctpConfig) -> (Script, u32) {
    let mut t = Script::multihomed(cfg);
    assert_eq!(t.send_all(0), data(MN_A, 1..=3), "initial cwnd 4380 B");
    assert_eq!(t.sack(100, 3, &[]), data(MN_A, 4..=7));
    let cwnd_a = t.cwnd(0);
    assert_eq!(cwnd_a, 4380 + MTU, "slow start: + one MTU");
    let out = t.asconf(110, MN_A, 1, set_primary(MN_B, 1));
    let rtx: Vec<&Out> = out.iter().filter(|o| matches!(o, Out::Data { .. })).collect();
    assert_eq!(
        rtx,
        data_with(MN_B, RetxCause::Recovery, 4..=6).iter().collect::<Vec<_>>(),
        "within MN_B's cwnd"
    );
    t.asconf(120, MN_A, 2, set_primary(MN_A, 2));
    (t, cwnd_a)
}

#[test]
fn hr_msctp_without_the_reset_keeps_the_new_paths_cwnd() {
    let (t, cwnd_a) = hr_back_and_forth(preset("hr-msctp"));
    assert_eq!(t.ep.primary(), 0);
    assert_eq!(t.cwnd(0), cwnd_a, "Kim & Koh's Steps 1-4 leave the window alone");
    // Step 1: nothing outstanding on MN_B any more; 4-7 went back to MN_A at once, within
    // its unchanged window.
    assert_eq!(t.flight(1), 0);
    let dests: Vec<(usize, Option<Mark>)> = t.ep.outbound().chunks.iter().map(|c| (c.dest, c.mark)).collect();
    assert_eq!(dests, [(0, None); 4]);
    let mut e = Engagement::new();
    t.ep.engagement(&mut e);
    assert_eq!((e["hr_switches"], e.get("hr_cwnd_resets")), (2, None), "{e:?}");
    assert_eq!(e["primary_switches"], 2);
}

#[test]
fn hr_msctp_with_the_reset_restarts_the_new_path_from_the_initial_cwnd() {
    let (t, _) = hr_back_and_forth(SctpConfig { hr_cwnd_reset: true, ..preset("hr-msctp") });
    assert_eq!(t.cwnd(0), 4380);
    let mut e = Engagement::new();
    t.ep.engagement(&mut e);
    assert_eq!((e["hr_switches"], e["hr_cwnd_resets"]), (2, 2));
}

#[test]
fn hr_msctp_sends_already_marked_chunks_to_the_new_primary_too() {
    // Step 1 pauses every transmission to the old address: a chunk marked for fast
    // retransmission on MN_A before the switch (same-path policy) goes to MN_B instead.
    let cfg = SctpConfig { initial_cwnd: InitialCwnd::Bytes(6 * MTU), ..preset("hr-msctp") };
    let mut t = Script::multihomed(cfg);
    assert_eq!(t.send_all(0), data(MN_A, 1..=6));
    t.sack(100, 1, &[(3, 3)]);
    t.sack(101, 1, &[(3, 4)]);
    assert_eq!(t.sack(102, 1, &[(3, 5)]), data_with(MN_A, RetxCause::FastRetransmit, [2]));
    t.sack(103, 1, &[(3, 6)]);
    assert!(t.ep.outbound().chunks.iter().any(|c| c.mark.is_none() && c.dest == 0 && !c.gap_acked));
    let out = t.asconf(110, MN_A, 1, set_primary(MN_B, 1));
    assert!(out.contains(&Out::Data { to: MN_B, tsns: vec![2], cause: RetxCause::Recovery }), "{out:?}");
    assert_eq!(t.flight(0), 0);
}

fn links() -> Vec<Link> {
    vec![Link::new(MN_A, Rate::kbps(384), 100), Link::new(MN_B, Rate::kbps(11_000), 15)]
}

fn at(ms_: u64, op: AddressOp) -> AsconfAction {
    AsconfAction { at: ms(ms_), op }
}

/// 3G -> WLAN with MT-mSCTP's `region`: Add-IP at 2 s, Set-Primary at 5 s, 1 MiB buffer. Returns
/// the run and when the CN switched.
fn mt_run(region: MtRegion) -> (Net, SimTimeMs) {
    let cfg = SctpConfig { mt_region: region, receive_buffer: 1 << 20, ..preset("mt-msctp") };
    let script = vec![at(2000, AddressOp::Add(MN_B)), at(5000, AddressOp::SetPrimary(MN_B))];
    let mut net = Net::with_association(cfg, links(), &[MN_A], script);
    let switch = loop {
        let t = net.now + vhsim_core::SimDuration::from_millis(1);
        net.run_until(t);
        if net.cn.primary() == 1 {
            break net.now.0 / 1_000_000;
        }
        assert!(net.now < ms(6000), "no switch");
    };
    net.run_until(ms(9000));
    (net, switch)
}

type SimTimeMs = u64;

fn new_data_to(net: &Net, to: vhsim_sctp::Addr, after_ms: u64) -> usize {
    net.cn_sent()
        .filter(|s| s.at > ms(after_ms))
        .filter(|s| matches!(&s.out, Out::Data { to: d, cause: RetxCause::New, .. } if *d == to))
        .count()
}

#[test]
fn mt_msctp_set_primary_region_sends_no_new_data_to_the_old_path_after_the_switch() {
    let (net, switch) = mt_run(MtRegion::SetPrimary);
    assert_eq!(new_data_to(&net, MN_A, switch), 0);
    assert!(new_data_to(&net, MN_B, switch) > 100);
    let mut e = Engagement::new();
    net.cn.engagement(&mut e);
    assert_eq!(e.get("mt_concurrent_packets"), None, "no concurrent sending in this region");
    assert!(e["split_misses_ignored"] > 0, "the 3G chunks arriving late were no loss: {e:?}");
    assert_eq!(e["fast_retransmits"], 0);
    // The Add-IP region keeps feeding 3G whenever WLAN's window is full (A11's scheduler).
    let (net, switch) = mt_run(MtRegion::AddIp);
    assert!(new_data_to(&net, MN_A, switch) > 0);
    let mut e = Engagement::new();
    net.cn.engagement(&mut e);
    assert!(e["mt_concurrent_packets"] > 0);
}

#[test]
fn set_primary_leaves_from_the_old_or_the_new_address() {
    for (from, link) in [(SetPrimarySource::New, 1), (SetPrimarySource::Old, 0)] {
        let cfg = SctpConfig { set_primary_from: from, ..preset("msctp") };
        let script = vec![at(2000, AddressOp::Add(MN_B)), at(5000, AddressOp::SetPrimary(MN_B))];
        let mut net = Net::with_association(cfg, links(), &[MN_A], script);
        net.run_until(ms(7000));
        let sp = net
            .log
            .iter()
            .find(|s| matches!(&s.out, Out::Asconf { requests, .. } if matches!(requests[0], AsconfRequest::SetPrimary { .. })))
            .expect("a Set-Primary");
        assert_eq!((sp.from, sp.link), (Side::Mn, link), "{from:?}");
        // Either way the switch happens and the reply returns to the ASCONF's source.
        assert_eq!(net.cn.primary(), 1);
        let ack = net
            .log
            .iter()
            .find(|s| s.at >= sp.at && matches!(&s.out, Out::AsconfAck { serial: 2, .. }))
            .unwrap();
        assert_eq!(ack.link, link);
    }
}

#[test]
fn a_deleted_address_hands_its_outstanding_chunks_to_the_active_path() {
    let mut t = Script::multihomed(preset("msctp"));
    assert_eq!(t.send_all(0), data(MN_A, 1..=3));
    let out = t.asconf(10, MN_B, 1, set_primary(MN_B, 1));
    assert_eq!(out.iter().filter(|o| matches!(o, Out::Data { to, .. } if *to == MN_B)).count(), 3);
    // Delete MN_A (sent from MN_B): 1-3, outstanding on MN_A, join MN_B's flight and timer.
    t.asconf(20, MN_B, 2, vec![AsconfRequest::DeleteIp { correlation: 2, addr: MN_A.0 }]);
    assert!(t.ep.paths()[0].deleted);
    assert_eq!((t.flight(0), t.flight(1)), (0, 6 * MTU));
    assert_eq!(t.ep.paths()[0].t3, None);
    let t3 = t.ep.paths()[1].t3.expect("MN_B's T3-rtx covers them");
    assert_eq!(t3, ms(3010), "started at MN_B's first DATA (10 ms), RTO.Initial 3 s");
    // Nothing is acknowledged: the T3-rtx of MN_B resends TSN 1 there.
    let out = t.fire(3010);
    assert_eq!(out[0], Out::Data { to: MN_B, tsns: vec![1], cause: RetxCause::Timeout });
    let mut e = Engagement::new();
    t.ep.engagement(&mut e);
    assert_eq!(e["deleted_chunks_moved"], 3);
}

#[test]
fn rfc4960_idle_reset_restarts_a_long_idle_destination_from_the_initial_cwnd() {
    let run = |reset: Option<u64>| {
        let cfg = SctpConfig {
            idle_cwnd_reset: reset.map(vhsim_core::SimDuration::from_secs),
            max_burst: 0,
            ..cfg()
        };
        let mut t = Script::single_with_backlog(cfg, 7);
        assert_eq!(t.send_all(0), data(MN_A, 1..=3));
        assert_eq!(t.sack(100, 3, &[]), data(MN_A, 4..=7));
        t.sack(200, 7, &[]);
        assert_eq!(t.cwnd(0), 4380 + 2 * MTU);
        assert_eq!(t.ep.paths()[0].decay_at, None, "cwnd was below 4 MTU when DATA last left: no decay");
        t.ep.on_app(ms(6000), AppOffer::More(10));
        let sent = t.send_all(6000).len();
        let mut e = Engagement::new();
        t.ep.engagement(&mut e);
        (sent, t.cwnd(0), e.get("idle_cwnd_resets").copied())
    };
    assert_eq!(run(None), (5, 4380 + 2 * MTU, None), "RFC 9260: no reset");
    assert_eq!(run(Some(5)), (3, 4380, Some(1)), "RFC 4960: the initial cwnd after 5.8 s idle");
    assert_eq!(run(Some(10)), (5, 4380 + 2 * MTU, Some(0)), "not idle long enough");
}

#[test]
fn a_plain_association_reports_only_the_core_counters() {
    let mut t = Script::multihomed(cfg());
    t.send_all(0);
    let mut e = Engagement::new();
    t.ep.engagement(&mut e);
    let names: Vec<&str> = e.keys().copied().collect();
    assert_eq!(
        names,
        [
            "fast_retransmits",
            "fast_retransmits_to_alternate",
            "gap_acks_withdrawn",
            "idle_cwnd_decays",
            "stale_sacks_ignored",
            "t3_timeouts"
        ]
    );
    assert!(e.values().all(|&n| n == 0));
}
