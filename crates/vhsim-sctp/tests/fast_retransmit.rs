//! Fast retransmit and Fast Recovery (RFC 4960 §7.2.4): miss indications by the HTNA rule,
//! retransmission at the 3rd, the window update, one cut per recovery, each TSN
//! fast-retransmitted at most once, where the retransmission goes (`rtx_to_alt`), T3-rtx
//! around a mark, withdrawn gap acks and stale SACKs (§6.2.1 D).

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
fn fast_retransmit_leaves_on_the_same_path_by_default() {
    // RFC 9260 §6.4: fast retransmissions SHOULD go to the destination the chunk was last sent
    // to (the library default `timeouts_only`; only timed-out chunks go to an alternate).
    let mut t = ten(cfg(), &[MN_A, MN_B]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]));
    assert_eq!((t.flight(0), t.flight(1)), (6 * MTU, 0));
    assert_eq!(t.ep.outbound().stats.fast_retransmits_to_alternate, 0);
}

#[test]
fn alternate_policy_sends_fast_retransmissions_to_the_other_path() {
    // ns-2's default rtxToAlt_ 1 (RFC 2960 §6.4): the retransmission goes to MN_B; the window
    // of MN_A is cut.
    let mut t = ten(SctpConfig { rtx_to_alt: RtxToAlt::Alternate, ..cfg() }, &[MN_A, MN_B]);
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1100)), "R3 at the SACK for 1, RTO 1 s");
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_B, FastRetransmit, [2]));
    assert_eq!((t.cwnd(0), t.cwnd(1)), (8074, 10 * MTU), "MN_B keeps its initial window");
    assert_eq!((t.flight(0), t.flight(1)), (5 * MTU, MTU));
    assert!(t.ep.paths()[1].t3.is_some(), "§6.3.2 R1 on the alternate");
    // Marking TSN 2 acknowledged nothing on MN_A: its T3-rtx keeps running from the last SACK
    // that acknowledged its earliest outstanding chunk (R3), it is not restarted.
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1100)));
    assert_eq!(t.ep.outbound().stats.fast_retransmits_to_alternate, 1);
}

#[test]
fn a_fast_retransmit_mark_does_not_restart_t3() {
    // Single-homed: the mark alone must not move T3; the retransmission of the first
    // outstanding chunk then restarts it (§7.2.4 step 4), which the same-path policy does.
    let mut t = ten(SctpConfig { rtx_to_alt: RtxToAlt::Alternate, ..cfg() }, &[MN_A]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1100)));
    assert_eq!(t.sack(103, 1, &[(3, 5)]), data_with(MN_A, FastRetransmit, [2]), "no alternate: same path");
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1103)), "restarted by resending the first outstanding chunk");
}

#[test]
fn a_withdrawn_gap_ack_counts_a_miss_indication() {
    // §6.2.1 D iii: a SACK that no longer reports a TSN an earlier SACK gap-acked counts one
    // miss indication for it (whether or not HTNA would) and keeps T3-rtx running.
    let mut t = ten(cfg(), &[MN_A]);
    t.sack(101, 1, &[(3, 4)]); // 2: 1 (HTNA)
    assert_eq!(t.ep.outbound().chunks[0].misses, 1);
    // The receiver reneges on 3 and 4 (same cumulative ack, same address): 3 and 4 return to
    // the flight and get one indication each; 2 gets none (nothing newly acknowledged).
    assert_eq!(t.sack(102, 1, &[]), none());
    let misses: Vec<u32> = t.ep.outbound().chunks.iter().take(3).map(|c| c.misses).collect();
    assert_eq!(misses, vec![1, 1, 1]);
    assert_eq!(t.ep.outbound().stats.gap_acks_withdrawn, 2);
    assert_eq!(t.flight(0), 9 * MTU, "3 and 4 are outstanding again");
    assert!(t.ep.paths()[0].t3.is_some());
    // Two more withdrawals of 3 reach the threshold of 3 indications.
    t.sack(103, 1, &[(3, 3)]);
    assert_eq!(t.sack(104, 1, &[]), none(), "3: 2 (its second withdrawal)");
    t.sack(105, 1, &[(3, 3)]);
    assert_eq!(t.sack(106, 1, &[]), data_with(MN_A, FastRetransmit, [3]), "3: 3");
}

#[test]
fn a_late_sack_over_the_other_path_is_not_read_as_reneging() {
    // A SACK from MN_B overtaken by a newer one from MN_A, with the same cumulative ack and
    // fewer gap blocks, is an old SACK (§6.2.1 D i's reasoning for an equal cumulative ack):
    // it is dropped and counted, and withdraws nothing.
    let mut t = ten(cfg(), &[MN_A, MN_B]);
    t.sack_full(101, MN_A, 1, &[(3, 5)], 65536);
    assert_eq!(t.flight(0), 6 * MTU);
    assert_eq!(t.sack_full(102, MN_B, 1, &[(3, 3)], 65536), none());
    assert_eq!(t.ep.outbound().stats.stale_sacks, 1);
    assert_eq!(t.ep.outbound().stats.gap_acks_withdrawn, 0);
    assert_eq!(t.flight(0), 6 * MTU, "4 and 5 stay acknowledged");
    assert!(t.ep.outbound().chunks.iter().filter(|c| (3..=5).contains(&c.tsn)).all(|c| c.gap_acked));
    // From the address of the latest SACK the same report is the receiver reneging (D iii).
    assert_eq!(t.sack_full(103, MN_A, 1, &[(3, 3)], 65536), none());
    assert_eq!(t.ep.outbound().stats.gap_acks_withdrawn, 2);
    // A SACK below the Cumulative TSN Ack Point is dropped from any address (D i).
    t.sack_full(104, MN_A, 3, &[], 65536);
    assert_eq!(t.sack_full(105, MN_B, 1, &[], 65536), none());
    assert_eq!(t.ep.outbound().stats.stale_sacks, 2);
}

#[test]
fn fast_retransmit_threshold_is_configurable() {
    let mut t = ten(SctpConfig { fast_rtx_threshold: 4, ..cfg() }, &[MN_A]);
    t.sack(101, 1, &[(3, 3)]);
    t.sack(102, 1, &[(3, 4)]);
    assert_eq!(t.sack(103, 1, &[(3, 5)]), none(), "RFC 2960's 4 indications");
    assert_eq!(t.sack(104, 1, &[(3, 6)]), data_with(MN_A, FastRetransmit, [2]));
}
