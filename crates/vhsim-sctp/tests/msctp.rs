//! mSCTP (issue #15): ASCONF exchanges (RFC 5061) between a mobile node (MN) and a
//! correspondent (CN) through the harness's two simulated paths, HR-mSCTP's handover
//! retransmission, MT-mSCTP's per-destination miss indications, and exactly-once delivery
//! across switches of every scheme.
//!
//! Paths: MN_A is a 3G-like path (384 kb/s, 100 ms), MN_B a WLAN-like one (11 Mb/s, 15 ms).

mod common;

use common::*;
use vhsim_core::Rate;
use vhsim_net::RetxCause;
use vhsim_sctp::outbound::Mark;
use vhsim_sctp::wire::{
    AsconfRequest, AsconfResult, CAUSE_DELETE_LAST_ADDRESS, CAUSE_DELETE_SOURCE_ADDRESS,
    CAUSE_UNRESOLVABLE_ADDRESS,
};
use vhsim_sctp::{presets, AddressOp, AsconfAction, InitialCwnd, SctpConfig};

fn preset(name: &str) -> SctpConfig {
    SctpConfig {
        hb_jitter: 0.0,
        initial_cwnd: InitialCwnd::Rfc2960,
        rto_initial: RFC4960_RTO_INITIAL,
        ..presets::preset(name).unwrap().config()
    }
}

fn links() -> Vec<Link> {
    vec![Link::new(MN_A, Rate::kbps(384), 100), Link::new(MN_B, Rate::kbps(11_000), 15)]
}

fn at(ms_: u64, op: AddressOp) -> AsconfAction {
    AsconfAction { at: ms(ms_), op }
}

/// The packets `from` sent, with their times in ms, that match `pick`.
fn sent_by<'a>(net: &'a Net, from: Side) -> impl Iterator<Item = (u64, &'a Out, bool)> + 'a {
    net.log.iter().filter(move |s| s.from == from).map(|s| (s.at.0 / 1_000_000, &s.out, s.dropped))
}

fn asconfs(net: &Net) -> Vec<(u64, u32, Vec<AsconfRequest>, bool)> {
    sent_by(net, Side::Mn)
        .filter_map(|(t, o, d)| match o {
            Out::Asconf { serial, requests, .. } => Some((t, *serial, requests.clone(), d)),
            _ => None,
        })
        .collect()
}

fn acks(net: &Net) -> Vec<(u64, u32, Vec<AsconfResult>)> {
    sent_by(net, Side::Cn)
        .filter_map(|(t, o, _)| match o {
            Out::AsconfAck { serial, results, .. } => Some((t, *serial, results.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn add_ip_set_primary_and_delete_ip_are_each_acknowledged() {
    let script = vec![
        at(2000, AddressOp::Add(MN_B)),
        at(4000, AddressOp::SetPrimary(MN_B)),
        at(6000, AddressOp::Delete(MN_A)),
    ];
    // A receive buffer that never limits the sender (Kim & Koh §3 assumption (b)).
    let cfg = SctpConfig { receive_buffer: 1 << 20, ..preset("msctp") };
    let mut net = Net::with_association(cfg, links(), &[MN_A], script);
    net.run_until(ms(8000));
    let a = asconfs(&net);
    assert_eq!(a.len(), 3);
    assert_eq!(
        (a[0].0, a[0].1, a[0].2.clone()),
        (2000, 1, vec![AsconfRequest::AddIp { correlation: 1, addr: MN_B.0 }])
    );
    assert_eq!(
        (a[1].0, a[1].1, a[1].2.clone()),
        (4000, 2, vec![AsconfRequest::SetPrimary { correlation: 2, addr: MN_B.0 }])
    );
    assert_eq!(
        (a[2].0, a[2].1, a[2].2.clone()),
        (6000, 3, vec![AsconfRequest::DeleteIp { correlation: 3, addr: MN_A.0 }])
    );
    let k = acks(&net);
    assert_eq!(k.iter().map(|x| x.1).collect::<Vec<_>>(), [1, 2, 3]);
    for (i, x) in k.iter().enumerate() {
        assert_eq!(x.2, vec![AsconfResult::Success { correlation: i as u32 + 1 }]);
    }
    // Add-IP: MN_B is a new destination, probed at once and confirmed by the HEARTBEAT-ACK; the
    // MN may use it once the ASCONF-ACK arrived.
    let hb =
        sent_by(&net, Side::Cn).find(|(_, o, _)| matches!(o, Out::Heartbeat { to } if *to == MN_B)).unwrap();
    assert_eq!(hb.0, k[0].0, "path verification at once");
    assert!(net.cn.paths()[1].confirmed);
    // Set-Primary: new data goes to MN_B from the ASCONF's arrival on.
    let first_b = sent_by(&net, Side::Cn)
        .find(|(_, o, _)| matches!(o, Out::Data { to, cause: RetxCause::New, .. } if *to == MN_B))
        .unwrap();
    assert_eq!(first_b.0, k[1].0);
    assert!(sent_by(&net, Side::Cn)
        .filter(|(t, o, _)| *t > k[1].0 && matches!(o, Out::Data { cause: RetxCause::New, .. }))
        .all(|(_, o, _)| matches!(o, Out::Data { to, .. } if *to == MN_B)));
    // Delete-IP: MN_A has left the association on both sides.
    assert!(net.cn.paths()[0].deleted && net.cn.spec().peer == [MN_B]);
    assert_eq!(net.mn.spec().local, [MN_B]);
    assert!(sent_by(&net, Side::Cn).filter(|(t, _, _)| *t > k[2].0 + 2000).all(|(_, o, _)| match o {
        Out::Data { to, .. } | Out::Heartbeat { to } | Out::Sack { to, .. } => *to != MN_A,
        _ => true,
    }));
}

#[test]
fn a_lost_asconf_is_sent_again_on_t4_with_the_same_serial_and_a_doubled_rto() {
    let mut net =
        Net::with_association(preset("msctp"), links(), &[MN_A], vec![at(2000, AddressOp::Add(MN_B))]);
    let mut dropped = false;
    net.drop = Box::new(move |_, from, p, _| {
        let first_asconf = from == Side::Mn && p.tag.flags & vhsim_sctp::wire::KIND_ASCONF != 0 && !dropped;
        dropped |= first_asconf;
        first_asconf
    });
    net.run_until(ms(9000));
    let a = asconfs(&net);
    assert_eq!(
        a.iter().map(|x| (x.0, x.1, x.3)).collect::<Vec<_>>(),
        [(2000, 1, true), (5000, 1, false)],
        "T4 = the MN's RTO to the CN (RTO.Initial 3 s; no RTT sample at a receiver)"
    );
    let p = &net.mn.paths()[0];
    assert_eq!((p.error_count, p.rto.rto().as_secs_f64()), (1, 6.0), "B1: one error; B3: RTO doubled");
    assert_eq!(net.mn.mobility().sender.stats.retransmitted, 1);
    assert!(net.cn.paths().len() == 2 && net.mn.spec().local.contains(&MN_B), "added after all");
}

#[test]
fn deleting_the_last_address_or_the_source_address_is_refused_with_its_error_cause() {
    // Only MN_A in the association: Delete(MN_A) is a request to delete the last address.
    let mut net =
        Net::with_association(preset("msctp"), links(), &[MN_A], vec![at(2000, AddressOp::Delete(MN_A))]);
    net.run_until(ms(4000));
    let k = acks(&net);
    assert_eq!(k[0].2, vec![AsconfResult::Error { correlation: 1, cause: CAUSE_DELETE_LAST_ADDRESS }]);
    assert_eq!(net.mn.spec().local, [MN_A], "the refused address is the MN's again");
    assert!(!net.cn.paths()[0].deleted);
    // Both in the association: the MN sends a Delete-IP from another address (its source
    // moves off the address it deletes), so it succeeds ...
    let mut net = Net::with_association(
        preset("msctp"),
        links(),
        &[MN_A, MN_B],
        vec![at(2000, AddressOp::Delete(MN_A))],
    );
    net.run_until(ms(4000));
    assert!(matches!(asconfs(&net)[0], (2000, 1, _, false)));
    assert_eq!(acks(&net)[0].2, vec![AsconfResult::Success { correlation: 1 }]);
    assert!(sent_by(&net, Side::Mn).any(|(_, o, _)| matches!(o, Out::Asconf { .. })));
    // ... while an ASCONF deleting its own source address is refused.
    let mut cn = Script::multihomed(preset("msctp"));
    let delete_source = vec![AsconfRequest::DeleteIp { correlation: 9, addr: MN_A.0 }];
    let out = cn.asconf(10, MN_A, 1, delete_source.clone());
    let reply = vec![AsconfResult::Error { correlation: 9, cause: CAUSE_DELETE_SOURCE_ADDRESS }];
    assert!(out.contains(&Out::AsconfAck { to: MN_A, serial: 1, results: reply }), "{out:?}");
    // The same serial again: the cached ASCONF-ACK is sent again, nothing is processed twice.
    let again = cn.asconf(20, MN_A, 1, delete_source);
    assert_eq!(again.iter().filter(|o| matches!(o, Out::AsconfAck { serial: 1, .. })).count(), 1);
    // Set-Primary to an address not in the association.
    let mut net =
        Net::with_association(preset("msctp"), links(), &[MN_A], vec![at(2000, AddressOp::SetPrimary(MN_B))]);
    net.run_until(ms(4000));
    assert_eq!(
        acks(&net)[0].2,
        vec![AsconfResult::Error { correlation: 1, cause: CAUSE_UNRESOLVABLE_ADDRESS }]
    );
    assert_eq!(net.cn.primary(), 0);
}

#[test]
fn at_most_one_asconf_is_outstanding_and_waiting_requests_leave_together() {
    let script = vec![
        at(2000, AddressOp::Add(MN_B)),
        at(2010, AddressOp::SetPrimary(MN_B)),
        at(2020, AddressOp::Delete(MN_A)),
    ];
    let mut net = Net::with_association(preset("msctp"), links(), &[MN_A], script);
    net.run_until(ms(5000));
    let a = asconfs(&net);
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!(a[0].2.len(), 1);
    assert_eq!(a[1].2.len(), 2, "Set-Primary and Delete-IP waited and left together");
    // The second leaves when the first's ASCONF-ACK arrives: 3G round trip, above 200 ms.
    assert!(a[1].0 >= a[0].0 + 200, "{a:?}");
    assert_eq!(acks(&net).len(), 2);
}

/// 3G -> WLAN under HR-mSCTP: Add-IP at 2 s, Set-Primary at 5 s.
fn hr_net() -> Net {
    let script = vec![at(2000, AddressOp::Add(MN_B)), at(5000, AddressOp::SetPrimary(MN_B))];
    Net::with_association(preset("hr-msctp"), links(), &[MN_A], script)
}

#[test]
fn hr_msctp_retransmits_every_outstanding_chunk_to_the_new_primary_before_any_new_data() {
    let mut net = hr_net();
    let switch = loop {
        // Step until the CN has processed the Set-Primary.
        let t = net.now + vhsim_core::SimDuration::from_millis(1);
        net.run_until(t);
        if net.cn.primary() == 1 {
            break net.now;
        }
        assert!(net.now < ms(6000), "no switch");
    };
    // At the switch: every chunk outstanding on 3G is marked, 3G has nothing in flight, and
    // WLAN restarts at the initial cwnd (2 MTU) with its first packets already out.
    let marked: Vec<u32> =
        net.cn.outbound().chunks.iter().filter(|c| c.mark == Some(Mark::Handover)).map(|c| c.tsn).collect();
    let out_on_b: Vec<u32> =
        net.cn.outbound().chunks.iter().filter(|c| c.dest == 1 && !c.gap_acked).map(|c| c.tsn).collect();
    assert_eq!(net.cn.paths()[0].flight, 0);
    assert_eq!(net.cn.paths()[1].cwnd, 2 * MTU);
    assert_eq!(out_on_b.len(), 2, "clocked by WLAN's cwnd of 2 MTU");
    let outstanding: Vec<u32> = [out_on_b.clone(), marked.clone()].concat();
    assert!(outstanding.len() > 10, "3G had a window in flight: {outstanding:?}");
    let first_new_tsn = net.cn.outbound().next_tsn;
    net.run_until(ms(9000));
    // Afterwards: to WLAN, first handover retransmissions (Recovery) of exactly the chunks
    // outstanding at the switch that were not acknowledged by their 3G copy first, in TSN
    // order; the first new chunk only after them.
    let after: Vec<(u64, u32, RetxCause)> = sent_by(&net, Side::Cn)
        .filter(|(t, _, _)| ms(*t) >= switch)
        .filter_map(|(t, o, _)| match o {
            Out::Data { to, tsns, cause } if *to == MN_B => Some((t, tsns[0], *cause)),
            _ => None,
        })
        .collect();
    let first_new = after.iter().position(|x| x.2 == RetxCause::New).unwrap();
    assert_eq!(after[first_new].1, first_new_tsn);
    let rtx: Vec<u32> = after[..first_new].iter().map(|x| x.1).collect();
    assert!(after[..first_new].iter().all(|x| x.2 == RetxCause::Recovery), "{after:?}");
    assert!(rtx.windows(2).all(|w| w[0] < w[1]) && rtx.iter().all(|t| outstanding.contains(t)));
    assert!(rtx.len() >= outstanding.len() / 2, "most were retransmitted, {rtx:?} of {outstanding:?}");
    // Nothing new went to 3G after the switch.
    assert!(sent_by(&net, Side::Cn)
        .filter(|(t, _, _)| ms(*t) > switch)
        .all(|(_, o, _)| !matches!(o, Out::Data { to, cause: RetxCause::New, .. } if *to == MN_A)));
    // WLAN's window grew in slow start from 2 MTU: no cut.
    assert_eq!(net.cn.paths()[1].stats.window_cuts, 0);
    assert!(net.cn.paths()[1].cwnd > 10 * MTU);
}

/// CN driven by hand, peer MN_A (primary) and MN_B: TSNs 1-4 go to MN_A, then the primary moves
/// to MN_B and TSNs 5-8 go there; SACKs from MN_B acknowledge 5, 5-6, 5-7 while 1-4 are
/// still on the slow path.
fn reordered(cfg: SctpConfig) -> (Script, Vec<Out>) {
    let cfg = SctpConfig { initial_cwnd: InitialCwnd::Bytes(4 * MTU), max_burst: 0, ..cfg };
    let mut t = Script::multihomed(cfg);
    assert_eq!(t.send_all(0), data(MN_A, 1..=4));
    t.ep.set_primary(MN_B).unwrap();
    assert_eq!(t.send_all(1), data(MN_B, 5..=8));
    let mut out = Vec::new();
    for (i, high) in [5u32, 6, 7].into_iter().enumerate() {
        out.extend(t.sack_full(40 + i as u64, MN_B, 0, &[(5, high)], 65536));
    }
    (t, out)
}

#[test]
fn split_fast_retransmit_ignores_misses_reported_by_another_destination() {
    // Normal (HTNA over all destinations): 1-4 have three miss indications after the third
    // SACK and TSN 1 is fast-retransmitted, on its own path (spuriously: it is only delayed on
    // MN_A).
    let (normal, out) = reordered(cfg());
    assert!(
        out.contains(&Out::Data { to: MN_A, tsns: vec![1], cause: RetxCause::FastRetransmit }),
        "{out:?}"
    );
    assert_eq!(normal.ep.outbound().stats.fast_recoveries, 1);
    // Split fast retransmit: the newly acknowledged TSNs were sent to MN_B, 1-4 to MN_A: no
    // miss indication, no fast retransmit, no window cut.
    let (split, out) = reordered(SctpConfig { split_fast_retransmit: true, ..cfg() });
    assert!(!out.iter().any(|o| matches!(o, Out::Data { cause: RetxCause::FastRetransmit, .. })), "{out:?}");
    assert_eq!(split.ep.outbound().stats.fast_recoveries, 0);
    assert!(split.ep.outbound().chunks.iter().all(|c| c.misses == 0));
    assert_eq!(split.ep.outbound().stats.split_misses_ignored, 4 + 4 + 4, "1-4 on each SACK");
}

#[test]
fn split_fast_retransmit_still_detects_a_loss_on_the_same_destination() {
    let cfg = SctpConfig {
        split_fast_retransmit: true,
        initial_cwnd: InitialCwnd::Bytes(6 * MTU),
        max_burst: 0,
        ..cfg()
    };
    let mut t = Script::multihomed(cfg);
    assert_eq!(t.send_all(0), data(MN_A, 1..=6));
    let mut out = Vec::new();
    for high in [3u32, 4, 5] {
        out.extend(t.sack(100, 1, &[(3, high)]));
    }
    assert!(
        out.contains(&Out::Data { to: MN_A, tsns: vec![2], cause: RetxCause::FastRetransmit }),
        "{out:?}"
    );
    assert!(t.ep.outbound().stats.split_misses_ignored == 0, "every report came from MN_A");
}

/// Random switch times, random losses on both paths, every scheme: every TSN reaches the
/// application exactly once, in order, and the sender's invariants hold after every event.
#[test]
fn every_chunk_is_delivered_once_in_order_across_the_switches_of_every_scheme() {
    for (k, scheme) in ["msctp", "mt-msctp", "hr-msctp"].into_iter().enumerate() {
        for seed in 1..=6u64 {
            let mut r = draws(seed * 10 + k as u64);
            let mut t = 1000 + r.below(1000);
            let mut script = vec![at(t, AddressOp::Add(MN_B))];
            let mut to_b = true;
            for _ in 0..4 {
                t += 300 + r.below(3000);
                script.push(at(t, AddressOp::SetPrimary(if to_b { MN_B } else { MN_A })));
                to_b = !to_b;
            }
            let mut net = Net::with_association(preset(scheme), links(), &[MN_A], script);
            let loss = 5 + r.below(20); // per mille
            let mut rl = draws(seed + 1000);
            net.drop = Box::new(move |_, _, _, _| rl.below(1000) < loss);
            net.run_until(ms(t + 3000));
            net.stop_app();
            net.run_until(ms(t + 120_000));
            let sent = net.cn.outbound().next_tsn - 1;
            assert!(net.cn.outbound().chunks.is_empty(), "{scheme} seed {seed}: all acknowledged");
            assert_eq!(net.mn.inbound().cum, sent, "{scheme} seed {seed}");
            assert_eq!(net.delivered_units(), sent as u64, "{scheme} seed {seed}: exactly once");
            assert!(net.cn.mobility().primary_switches >= 1, "{scheme} seed {seed}");
            assert_eq!(net.cn.failed_at(), None);
        }
    }
}
