//! Proportional Rate Reduction (RFC 6937) against the RFC's own examples (§3.1): cwnd =
//! FlightSize = pipe = 20 segments, ssthresh 10 after the loss, limited transmit sending two new
//! segments and the fast retransmit one retransmission in answer to the first three duplicate
//! ACKs; the ACK of segment k SACKs it.

mod common;

use common::*;
use vhsim_tcp::TxCause::{FastRetransmit, New, Recovery};
use vhsim_tcp::{TcpConfig, Transmit};

/// RFC 6675 detection (DupThresh = 3, IsLost) with PRR (`bound`), Reno's halving, 20 segments
/// in flight in congestion avoidance.
fn prr(bound: &str) -> TcpConfig {
    cfg("sack-rfc6675")
        .iw(20)
        .ssthresh(20)
        .window(1000)
        .set(&format!("recovery = {{ kind = \"prr\", bound = \"{bound}\" }}"))
}

/// 'N' for new data, 'R' for a retransmission, per ACK.
fn code(sent: &[Transmit]) -> String {
    sent.iter().map(|t| if t.cause == New { 'N' } else { 'R' }).collect()
}

fn pipe(t: &Script) -> u64 {
    t.tcp.recovery().prr().expect("PRR").pipe(t.tcp.core())
}

#[test]
fn a_single_loss_spreads_the_reduction_over_the_round_trip() {
    // RFC 6937 §3.1, first figure ("PRR"): segment 0 lost, ACKs of 1-19.
    //   ack#  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19
    //   sent  N  N  R     N     N     N     N     N     N        N  N
    // Acks 1-16 match the figure: RecoverFS = 20 (the FlightSize the example halves to 10;
    // the two limited-transmit segments do not count, RFC 5681 §3.2 step 2), the ACK that
    // starts recovery counts in prr_delivered, and sndcnt = ⌈prr_delivered·10/20⌉ − prr_out
    // sends one new segment on every other ACK. From ack 17 the figure's pipe leaves out the
    // retransmission of segment 0, which RFC 6675's SetPipe counts (S <= HighRxt); counted,
    // pipe is 11 at ack 17 (still above ssthresh: ⌈15·10/20⌉ − 7 = 1 segment) and 10 from ack
    // 19 on (sndcnt = ssthresh − pipe = 0). PRR ends the round trip with pipe = ssthresh = 10
    // (§4: "PRR converges to exactly the target window"); the figure's schedule would end it at
    // 11 by SetPipe's count.
    let mut t = Script::new(prr("ssrb"));
    assert_eq!(t.send_all(0), new(0..20));
    let mut row = Vec::new();
    for k in 1..20u64 {
        row.push(code(&t.ack_sack(100 + k, 0, &[(1, k + 1)])));
    }
    let figure = ["N", "N", "R", "", "N", "", "N", "", "N", "", "N", "", "N", "", "N", "", "", "N", "N"];
    assert_eq!(row[..16], figure[..16], "acks 1-16");
    assert_eq!(row[16..], ["N", "", ""], "acks 17-19 with SetPipe's count");
    assert_eq!(t.log.iter().filter(|(_, x)| x.seq == 0 && x.cause == FastRetransmit).count(), 1);
    assert_eq!(pipe(&t), 10);
    assert_close(t.ssthresh(), 10.0);
    let (delivered, out, recover_fs) = t.tcp.recovery().prr().unwrap().counters();
    assert_eq!((delivered, out, recover_fs), (17, 8, 20));
}

#[test]
fn fifteen_losses_the_conservative_bound_sends_one_per_ack() {
    // RFC 6937 §3.1, PRR-CRB: segments 0-14 lost, ACKs of 15-19 only.
    //   ack#  15 16 17 18 19
    //   pipe  19 19  4  4  4   (before sending)
    //   sent   N  N  R  R  R    RB: b b b
    let mut t = Script::new(prr("crb"));
    t.send_all(0);
    let mut rows = Vec::new();
    for k in 15..20u64 {
        let sent = t.ack_sack(100 + k, 0, &[(15, k + 1)]);
        let after = if t.tcp.core().in_recovery() { pipe(&t) } else { 0 };
        rows.push((code(&sent), after - sent.len() as u64 * u64::from(t.tcp.core().in_recovery())));
    }
    assert_eq!(rows[2..], [("R".to_string(), 4), ("R".to_string(), 4), ("R".to_string(), 4)]);
    assert_eq!((rows[0].0.as_str(), rows[1].0.as_str()), ("N", "N"));
    // The retransmissions are the lost segments from the lowest.
    let retx: Vec<u64> = t.log.iter().filter(|(_, x)| x.cause != New).map(|(_, x)| x.seq).collect();
    assert_eq!(retx, [0, 1, 2]);
    // One episode; the Reduction Bound set sndcnt on its three ACKs (pipe 4 <= ssthresh 10).
    assert_eq!(engaged(&t.tcp, &["prr_episodes", "prr_reduction_bound_acks"]), [1, 3]);
}

#[test]
fn fifteen_losses_the_slow_start_bound_sends_two_per_ack() {
    // RFC 6937 §3.1, PRR-SSRB:
    //   ack#  15 16 17 18 19
    //   pipe  19 19  4  5  6   (before sending)
    //   sent   N  N 2R 2R 2R    RB: bd d d
    let mut t = Script::new(prr("ssrb"));
    t.send_all(0);
    let mut rows = Vec::new();
    for k in 15..20u64 {
        let sent = t.ack_sack(100 + k, 0, &[(15, k + 1)]);
        rows.push((code(&sent), pipe_before(&t, &sent)));
    }
    let want: Vec<(String, u64)> =
        [("RR", 4), ("RR", 5), ("RR", 6)].iter().map(|&(s, p)| (s.into(), p)).collect();
    assert_eq!(rows[2..], want[..]);
    let retx: Vec<u64> = t.log.iter().filter(|(_, x)| x.cause != New).map(|(_, x)| x.seq).collect();
    assert_eq!(retx, [0, 1, 2, 3, 4, 5]);
}

/// pipe when the ACK had been processed, before this ACK's transmissions.
fn pipe_before(t: &Script, sent: &[Transmit]) -> u64 {
    if t.tcp.core().in_recovery() {
        pipe(t) - sent.len() as u64
    } else {
        0
    }
}

#[test]
fn recovery_ends_at_ssthresh() {
    let mut t = Script::new(prr("ssrb"));
    t.send_all(0);
    for k in 1..20u64 {
        t.ack_sack(100 + k, 0, &[(1, k + 1)]);
    }
    // The retransmission of segment 0 arrives: the ACK covers everything sent before recovery.
    let recover = t.tcp.core().recover().unwrap();
    assert_eq!(recover, 22);
    t.ack(200, recover);
    assert!(!t.tcp.core().in_recovery());
    assert_close(t.cwnd(), 10.0);
    assert_eq!(t.tcp.recovery().prr().unwrap().episodes(), 1);
}

#[test]
fn without_sack_prr_follows_newreno_and_sends_the_same_schedule() {
    // newreno-prr: duplicate ACKs carry no SACK; each one is one segment delivered (RFC 6937
    // §2), the first unacknowledged segment is the lost one (RFC 6582). The single-loss example
    // gives the same schedule as with SACK.
    let mut t = Script::new(cfg("newreno-prr").iw(20).ssthresh(20).window(1000));
    assert_eq!(t.send_all(0), new(0..20));
    let mut row = Vec::new();
    for k in 1..20u64 {
        row.push(code(&t.ack(100 + k, 0)));
    }
    let figure = ["N", "N", "R", "", "N", "", "N", "", "N", "", "N", "", "N", "", "N", "", "N", "", ""];
    assert_eq!(row, figure);
    // A partial ACK (segment 0 arrived; 20 and 21 lost too): the next hole is retransmitted.
    let sent = t.ack(300, 20);
    assert_eq!(sent.first(), Some(&tx(20, Recovery)), "{sent:?}");
}
