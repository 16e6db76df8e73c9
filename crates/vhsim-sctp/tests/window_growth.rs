//! Window growth per RFC 4960 §7.2.1 (slow start) and §7.2.2 (congestion avoidance), checked
//! against the RFC's arithmetic by hand; the initial window (A16), Max.Burst (§6.1 D) and the
//! RTT measurement (§6.3.1). Windows and flight sizes are bytes of 1468-byte chunks; one packet
//! carries one chunk; "MTU" is 1468.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_net::Endpoint;
use vhsim_sctp::{InitialCwnd, SctpConfig};

#[test]
fn rfc4960_initial_window_admits_three_packets() {
    // cwnd = min(4·1468, max(2·1468, 4380)) = 4380. A packet may go while flight < cwnd:
    // flight 0, 1468, 2936 -> three packets (flight 4404).
    let mut t = Script::single(cfg());
    assert_eq!(t.cwnd(0), 4380);
    assert_eq!(t.ssthresh(0), 65536, "initial ssthresh = the peer's a_rwnd");
    assert_eq!(t.send_all(0), data(MN_A, [1, 2, 3]));
    assert_eq!(t.flight(0), 3 * MTU);
    assert_eq!(t.send_all(1), none());
}

#[test]
fn rfc2960_initial_window_admits_two_packets() {
    let mut t = Script::single(SctpConfig { initial_cwnd: InitialCwnd::Rfc2960, ..cfg() });
    assert_eq!(t.cwnd(0), 2 * MTU);
    assert_eq!(t.send_all(0), data(MN_A, [1, 2]));
}

#[test]
fn slow_start_adds_at_most_one_mtu_per_sack() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    // cum 1: flight before 4404 >= cwnd 4380 -> cwnd = 4380 + min(1468, 1468) = 5848.
    // Flight 2936: TSN 4 (4404 < 5848), TSN 5 (5872 >= 5848, stop).
    assert_eq!(t.sack(100, 1, &[]), data(MN_A, [4, 5]));
    assert_eq!(t.cwnd(0), 5848);
    // A SACK acknowledging two chunks (2936 bytes) still adds only one MTU: 7316.
    // Flight 2936 -> TSNs 6, 7, 8.
    assert_eq!(t.sack(100, 3, &[]), data(MN_A, [6, 7, 8]));
    assert_eq!(t.cwnd(0), 7316);
    assert_eq!(t.flight(0), 5 * MTU);
}

#[test]
fn slow_start_needs_a_fully_used_window() {
    // One chunk to send: flight 1468 < cwnd 4380, so its SACK does not open cwnd (§7.2.1 1).
    let mut t = Script::single_with_backlog(cfg(), 1);
    assert_eq!(t.send_all(0), data(MN_A, [1]));
    assert_eq!(t.sack(100, 1, &[]), none());
    assert_eq!(t.cwnd(0), 4380);
    assert_eq!(t.flight(0), 0);
}

#[test]
fn cwnd_does_not_grow_without_cumulative_ack_advance() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    // TSNs 2 and 3 arrive, 1 does not: the SACK acknowledges 2936 bytes by gap blocks only.
    assert_eq!(t.sack(100, 0, &[(2, 3)]), data(MN_A, [4, 5]));
    assert_eq!(t.cwnd(0), 4380, "§7.2.1: growth needs the Cumulative TSN Ack Point to advance");
    assert_eq!(t.flight(0), 3 * MTU, "gap-acked chunks left the flight, 4 and 5 entered it");
    // The later cumulative SACK for 1..5 advances it: flight before 4404 >= 4380.
    t.sack(200, 5, &[]);
    assert_eq!(t.cwnd(0), 4380 + MTU);
}

#[test]
fn congestion_avoidance_adds_one_mtu_per_window_acknowledged() {
    // cwnd 4·MTU above ssthresh 2·MTU: congestion avoidance from the start.
    let c =
        SctpConfig { initial_cwnd: InitialCwnd::Bytes(4 * MTU), initial_ssthresh: Some(2 * MTU), ..cfg() };
    let mut t = Script::single(c);
    assert_eq!(t.send_all(0), data(MN_A, [1, 2, 3, 4]));
    // Each SACK acknowledges one chunk: pba = 1468, 2936, 4404 < cwnd 5872; one new chunk each.
    assert_eq!(t.sack(100, 1, &[]), data(MN_A, [5]));
    assert_eq!(t.sack(101, 2, &[]), data(MN_A, [6]));
    assert_eq!(t.sack(102, 3, &[]), data(MN_A, [7]));
    assert_eq!((t.cwnd(0), t.ep.paths()[0].partial_bytes_acked), (4 * MTU, 3 * MTU));
    // pba = 5872 >= cwnd, cwnd was fully used: cwnd = 5·MTU, pba = 0; two chunks go.
    assert_eq!(t.sack(103, 4, &[]), data(MN_A, [8, 9]));
    assert_eq!((t.cwnd(0), t.ep.paths()[0].partial_bytes_acked), (5 * MTU, 0));
}

#[test]
fn partial_bytes_acked_resets_when_everything_is_acknowledged() {
    let c =
        SctpConfig { initial_cwnd: InitialCwnd::Bytes(4 * MTU), initial_ssthresh: Some(2 * MTU), ..cfg() };
    let mut t = Script::single_with_backlog(c, 4);
    t.send_all(0);
    t.sack(100, 2, &[]);
    assert_eq!(t.ep.paths()[0].partial_bytes_acked, 2 * MTU);
    t.sack(200, 4, &[]);
    assert_eq!(t.ep.paths()[0].partial_bytes_acked, 0, "§7.2.2: all data acknowledged");
}

#[test]
fn max_burst_limits_packets_per_opportunity() {
    let c = SctpConfig { initial_cwnd: InitialCwnd::Bytes(10 * MTU), ..cfg() };
    let mut t = Script::single(c.clone());
    assert_eq!(t.send_all(0), data(MN_A, [1, 2, 3, 4]), "Max.Burst 4 (§6.1 D)");
    assert_eq!(t.send_all(1), none(), "no new opportunity without an event");
    assert_eq!(t.sack(100, 1, &[]), data(MN_A, [5, 6, 7, 8]));
    let mut off = Script::single(SctpConfig { max_burst: 0, ..c });
    assert_eq!(off.send_all(0), data(MN_A, 1..=10));
}

#[test]
fn one_rtt_measurement_per_round_trip() {
    let mut t = Script::single(cfg());
    t.send_all(0); // TSN 1 is timed
    t.sack(100, 1, &[]); // sample 100 ms; TSN 4, sent now, is timed next
    let p = &t.ep.paths()[0];
    assert_eq!(p.rto.srtt(), Some(SimDuration::from_millis(100)));
    assert_eq!(p.rto.rto(), SimDuration::from_secs(1), "100 + 4·50 ms, clamped to RTO.Min");
    t.sack(150, 3, &[]); // does not cover TSN 4: no sample
    assert_eq!(t.ep.paths()[0].rto.srtt(), Some(SimDuration::from_millis(100)));
    t.sack(250, 5, &[]); // covers TSN 4, sent at 100 ms: sample 150 ms
                         // SRTT = 7/8·100 + 1/8·150 = 106.25 ms; RTTVAR = 3/4·50 + 1/4·50 = 50 ms.
    let p = &t.ep.paths()[0];
    assert_eq!(p.rto.srtt(), Some(SimDuration(106_250_000)));
    assert_eq!(p.rto.rttvar(), SimDuration::from_millis(50));
}

#[test]
fn progress_reports_cumulative_ack_and_highest_sent() {
    let mut t = Script::single(cfg());
    t.send_all(0);
    let p = t.ep.progress().expect("a sender");
    assert_eq!((p.acked, p.sent_max), (1, 4));
    // cum 2: cwnd 4380 -> 5848, flight 1468 -> TSNs 4, 5, 6.
    assert_eq!(t.sack(100, 2, &[]), data(MN_A, [4, 5, 6]));
    let p = t.ep.progress().unwrap();
    assert_eq!((p.acked, p.sent_max), (3, 7));
}
