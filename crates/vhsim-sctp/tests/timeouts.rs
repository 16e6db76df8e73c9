//! T3-rtx (RFC 4960 §6.3.2, §6.3.3, §7.2.3): when it runs, what its expiry does to the
//! destination (window, RTO, error counter), where the retransmission goes (§6.4, ns-2
//! `rtxToAlt_`), Karn's rule, and the failure of the association (§8.1).

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_net::Report;
use vhsim_net::RetxCause::{GoBackN, Timeout};
use vhsim_sctp::{RtxToAlt, SctpConfig};

#[test]
fn t3_expiry_retransmits_to_the_alternate_with_the_6_3_3_updates() {
    let mut t = Script::multihomed(cfg());
    assert_eq!(t.send_all(0), data(MN_A, [1, 2, 3]));
    assert_eq!(t.deadline_ms(), Some(3000), "R1: started with RTO.Initial at the first send");
    // E3: the earliest chunk that fits one packet goes to the alternate MN_B, ignoring cwnd;
    // nothing else goes at this moment.
    assert_eq!(t.fire(3000), data_with(MN_B, Timeout, [1]));
    assert_eq!(t.reports, vec![Report::Timeout]);
    let a = &t.ep.paths()[0];
    assert_eq!((a.cwnd, a.ssthresh), (MTU, 4 * MTU), "E1: cwnd 1 MTU, ssthresh max(4380/2, 4 MTU)");
    assert_eq!(a.rto.rto(), SimDuration::from_secs(6), "E2: RTO doubled");
    assert_eq!((a.error_count, a.active, a.flight, a.t3), (1, true, 0, None));
    let b = &t.ep.paths()[1];
    assert_eq!((b.flight, b.t3), (MTU, Some(ms(6000))), "the chunk moved to MN_B's flight; R1 there");
    assert!(t.ep.outbound().chunks.iter().skip(1).all(|c| c.mark.is_some()), "2 and 3 are marked");
    // The SACK for 1 (from MN_B) lets 2 and 3 go within MN_B's cwnd, then new data goes to the
    // primary MN_A, which is still active (1 error <= Path.Max.Retrans).
    let mut out = t.sack_full(3100, MN_B, 1, &[], 65536);
    assert_eq!(out.split_off(2), data(MN_A, [4]));
    assert_eq!(out, data_with(MN_B, GoBackN, [2, 3]));
    assert_eq!(t.ep.paths()[0].error_count, 1, "an ACK of a chunk sent to MN_B does not clear MN_A");
}

#[test]
fn single_homed_retransmits_to_the_same_destination_and_skips_the_rtt_sample() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    assert_eq!(t.fire(3000), data_with(MN_A, Timeout, [1]));
    // The SACK for the retransmitted 1: flight 1468 >= cwnd 1468, slow start: cwnd 2936;
    // 2 and 3 go back out.
    assert_eq!(t.sack(3100, 1, &[]), data_with(MN_A, GoBackN, [2, 3]));
    assert_eq!(t.cwnd(0), 2 * MTU);
    let a = &t.ep.paths()[0];
    assert_eq!(a.rto.srtt(), None, "Karn: no measurement on a retransmitted chunk");
    assert_eq!(a.rto.rto(), SimDuration::from_secs(6), "the backed-off RTO stays until a measurement");
    assert_eq!(a.t3, Some(ms(9100)), "R3: restarted with the current RTO");
}

#[test]
fn same_destination_policy() {
    let mut t = Script::multihomed(SctpConfig { rtx_to_alt: RtxToAlt::Same, ..cfg() });
    t.send_all(0);
    assert_eq!(t.fire(3000), data_with(MN_A, Timeout, [1]));
}

#[test]
fn t3_restarts_when_the_earliest_chunk_is_acked_and_stops_when_all_are() {
    let mut t = Script::single_with_backlog(cfg(), 3);
    t.send_all(0);
    t.sack(100, 1, &[]);
    // R3 with the RTO of the new measurement: 100 ms -> 1 s.
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1100)));
    t.sack(150, 1, &[(3, 3)]);
    assert_eq!(t.ep.paths()[0].t3, Some(ms(1100)), "TSN 2, the earliest, is still missing");
    t.sack(200, 3, &[]);
    assert_eq!(t.ep.paths()[0].t3, None, "R2: nothing in flight");
}

#[test]
fn repeated_expiries_back_off_and_fail_the_association() {
    let c = SctpConfig { heartbeat: false, ..cfg() };
    let mut t = Script::single(c);
    t.send_all(0);
    let mut at = 0;
    let mut rto = 3000;
    for n in 1..=10u32 {
        at += rto;
        assert_eq!(t.fire(at), data_with(MN_A, Timeout, [1]), "expiry {n}");
        rto = (2 * rto).min(60_000);
        let a = &t.ep.paths()[0];
        assert_eq!((a.error_count, a.active), (n, n <= 5), "Path.Max.Retrans 5");
    }
    assert_eq!(at, 3000 + 6000 + 12_000 + 24_000 + 48_000 + 5 * 60_000);
    assert_eq!(t.ep.failed_at(), None, "10 errors = Association.Max.Retrans");
    at += rto;
    assert_eq!(t.fire(at), none(), "the 11th error fails the association");
    assert_eq!(t.ep.failed_at(), Some(ms(at)));
    assert_eq!(t.deadline_ms(), None);
    assert_eq!(t.reports.len(), 11);
}

#[test]
fn acks_clear_the_error_counter_except_for_chunks_marked_by_a_timeout() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    t.fire(3000); // 1 resent, 2 and 3 marked
                  // A late SACK for the first transmissions of 2 and 3: they need no resending any more, but
                  // it does not show that MN_A is reachable now (ns-2's guard): the counter stays.
    assert_eq!(t.sack(3050, 0, &[(2, 3)]), none());
    assert_eq!(t.ep.paths()[0].error_count, 1);
    assert!(!t.ep.outbound().has_marked());
    // The ACK of the retransmitted 1 clears it (§8.2); slow start opens cwnd to 2 MTU.
    assert_eq!(t.sack(3100, 3, &[]), data(MN_A, [4, 5]));
    assert_eq!(t.ep.paths()[0].error_count, 0);
}
