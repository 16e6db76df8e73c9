//! Fast retransmit and Fast Recovery (RFC 4960 §7.2.4): miss indications by the HTNA rule,
//! retransmission at the 3rd, the window update, one cut per recovery, each TSN
//! fast-retransmitted at most once, and where the retransmission goes (`rtx_to_alt`).

mod common;

use common::*;
use vhsim_net::RetxCause::{FastRetransmit, Timeout};
use vhsim_sctp::{InitialCwnd, RtxToAlt, SctpConfig};

/// Ten chunks in one window, no burst limit: TSNs 1..=10 leave at 0 ms; the SACK for 1 at
/// 100 ms grows cwnd to 11·MTU (flight was 10·MTU = cwnd).
fn ten(c: SctpConfig, peer: &[vhsim_sctp::Addr]) -> Script {
    let c = SctpConfig { initial_cwnd: InitialCwnd::Bytes(10 * MTU), max_burst: 0, ..c };
    let mut t = Script::build(c, peer, 10);
    assert_eq!(t.send_all(0), data(peer[0], 1..=10));
    assert_eq!(t.sack(100, 1, &[]), none());
    assert_eq!(t.cwnd(0), 11 * MTU);
    t
}

#[test]
fn third_miss_indication_triggers_one_fast_retransmit_and_the_window_update() {
    let mut t = ten(cfg(), &[MN_A]);
    assert_eq!(t.sack(101, 1, &[(3, 3)]), none(), "1st miss indication of TSN 2");
    assert_eq!(t.sack(102, 1, &[(3, 4)]), none(), "2nd");
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]), "3rd");
    // ssthresh = max(cwnd/2, 4·MTU) = max(8074, 5872); cwnd = ssthresh; pba = 0.
    let p = &t.ep.paths()[0];
    assert_eq!((p.ssthresh, p.cwnd, p.partial_bytes_acked), (8074, 8074, 0));
    assert_eq!(t.ep.outbound().fast_recovery_exit, Some(10), "exit point = highest TSN outstanding");
    // 6..=10 and the retransmitted 2 are in flight.
    assert_eq!(t.flight(0), 6 * MTU);
    // More miss indications never fast-retransmit TSN 2 again.
    for (i, end) in (6..=10).enumerate() {
        assert_eq!(t.sack(104 + i as u64, 1, &[(3, end)]), none());
    }
    assert_eq!(t.ep.paths()[0].stats.fast_retransmissions, 1);
    // Only the T3-rtx resends it: restarted at 103 ms (the first chunk in flight was resent)
    // with RTO 1 s (one 100 ms sample, clamped to RTO.Min).
    let out = t.fire(1103);
    assert_eq!(out, data_with(MN_A, Timeout, [2]));
}

#[test]
fn duplicate_sacks_add_no_miss_indication() {
    // HTNA: a SACK that newly acknowledges nothing adds no miss indication.
    let mut t = ten(cfg(), &[MN_A]);
    for k in 0..5 {
        assert_eq!(t.sack(101 + k, 1, &[(3, 3)]), none());
    }
    assert_eq!(t.ep.outbound().chunks[0].misses, 1);
    assert_eq!(t.sack(110, 1, &[(3, 4)]), none());
    assert_eq!(t.sack(111, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]));
}

#[test]
fn second_loss_in_the_window_is_retransmitted_without_a_second_cut() {
    let mut t = ten(cfg(), &[MN_A]);
    t.sack(101, 1, &[(3, 4)]); // TSN 2: 1
    t.sack(102, 1, &[(3, 4), (6, 6)]); // 2: 2, 5: 1
    assert_eq!(t.sack(103, 1, &[(3, 4), (6, 7)]), data_with(MN_A, FastRetransmit, [2])); // 2: 3, 5: 2
    assert_eq!((t.ssthresh(0), t.cwnd(0)), (8074, 8074));
    assert_eq!(t.sack(104, 1, &[(3, 4), (6, 8)]), data_with(MN_A, FastRetransmit, [5]), "5: 3");
    assert_eq!((t.ssthresh(0), t.cwnd(0)), (8074, 8074), "§7.2.4: no further cut in Fast Recovery");
    assert_eq!(t.ep.outbound().stats.fast_recoveries, 1);
    // The SACK reaching the exit point ends Fast Recovery.
    t.sack(200, 10, &[]);
    assert_eq!(t.ep.outbound().fast_recovery_exit, None);
}

#[test]
fn in_fast_recovery_a_cumulative_advance_counts_every_reported_hole() {
    let mut t = ten(cfg(), &[MN_A]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]));
    t.sack(104, 1, &[(3, 7)]); // TSN 8 is not below the highest newly acked: no indication
    t.sack(105, 1, &[(3, 7), (9, 9)]); // 8: 1
                                       // The retransmitted 2 arrives: cum 7. HTNA alone would not count 8 (highest newly acked
                                       // is 2), but in Fast Recovery a cumulative advance counts every hole reported: 8: 2.
    assert_eq!(t.sack(106, 7, &[(9, 9)]), none());
    assert_eq!(t.ep.outbound().chunks[0].misses, 2);
    assert_eq!(t.sack(107, 7, &[(9, 10)]), data_with(MN_A, FastRetransmit, [8]));
}

#[test]
fn fast_retransmission_goes_to_the_alternate_destination_by_default() {
    // ns-2 rtxToAlt_ = 1: the retransmission goes to MN_B; the window of MN_A is cut.
    let mut t = ten(cfg(), &[MN_A, MN_B]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_B, FastRetransmit, [2]));
    assert_eq!((t.cwnd(0), t.cwnd(1)), (8074, 10 * MTU), "MN_B keeps its initial window");
    assert_eq!((t.flight(0), t.flight(1)), (5 * MTU, MTU));
    assert!(t.ep.paths()[1].t3.is_some(), "§6.3.2 R1 on the alternate");
}

#[test]
fn timeouts_only_policy_keeps_fast_retransmissions_on_their_path() {
    let mut t = ten(SctpConfig { rtx_to_alt: RtxToAlt::TimeoutsOnly, ..cfg() }, &[MN_A, MN_B]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]));
}

#[test]
fn fast_retransmit_threshold_is_configurable() {
    let mut t = ten(SctpConfig { fast_rtx_threshold: 4, ..cfg() }, &[MN_A]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), none(), "RFC 2960's 4 indications");
    assert_eq!(t.sack(104, 1, &[(3, 6)]), data_with(MN_A, FastRetransmit, [2]));
}
