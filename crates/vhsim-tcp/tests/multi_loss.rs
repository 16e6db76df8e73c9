//! Several losses in one window: SACK and NewReno recover without a timeout, Reno needs one;
//! NewReno's two timer variants on partial ACKs (RFC 6582 §4, docs/references.md §1.4, A2).
//!
//! The scripted timelines feed arrivals in the order a FIFO path delivers them (the times are
//! labels of round trips, 100 ms apart), and the sink's ACK reaches the sender at once.

mod common;

use common::*;
use vhsim_tcp::TxCause::{FastRetransmit, GoBackN, Recovery, Rto};
use vhsim_tcp::{CaState, NewRenoTimer};

/// Segments 0..8 go out at t = 0; 1, 3 and 5 are lost. Returns the script after the arrivals
/// of round one up to segment 7 (the caller checks what they triggered).
fn three_losses(name: &str) -> Script {
    let mut t = Script::with_sink(cfg(name).iw(8), sink_cfg(name));
    assert_eq!(t.send_all(0), new(0..8));
    t
}

#[test]
fn sack1_recovers_three_losses_in_one_window_without_a_timeout() {
    let mut t = three_losses("sack");
    assert_eq!(t.arrive(100, 0), new([8, 9]), "slow start: cwnd 9");
    assert_eq!(t.arrive(100, 2), new([10]), "limited transmit");
    assert_eq!(t.arrive(100, 4), new([11]), "limited transmit");
    assert_eq!(t.arrive(100, 6), vec![tx(1, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (4.0, 4.0), "floor(9 / 2)");
    // pipe = 11 outstanding - 3 = 8, minus one per ACK.
    assert_eq!(t.arrive_all(100, [7, 8, 9, 10]), none());
    assert_eq!(t.arrive(100, 11), vec![tx(3, Recovery)], "pipe 3 < 4: lowest hole");
    // Round two: the retransmission of 1 makes a partial ACK (pipe -= 2): next hole, then new.
    assert_eq!(t.arrive(200, 1), vec![tx(5, Recovery), tx(12, vhsim_tcp::TxCause::New)]);
    assert_eq!(t.arrive(200, 3), new([13, 14]), "partial ACK, no hole left");
    // Round three: 5 arrives, the cumulative ACK passes recover = 12.
    assert_eq!(t.arrive(300, 5), new([15]));
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.arrive(300, 12), new([16]));
    let s = t.tcp.stats();
    assert_eq!((s.rto_count, s.fast_retransmits, s.retransmissions), (0, 1, 3));
}

#[test]
fn rfc6675_recovers_three_losses_in_one_window_without_a_timeout() {
    let mut t = three_losses("sack-rfc6675");
    assert_eq!(t.arrive(100, 0), new([8, 9]));
    assert_eq!(t.arrive(100, 2), new([10]));
    assert_eq!(t.arrive(100, 4), new([11]));
    assert_eq!(t.arrive(100, 6), vec![tx(1, FastRetransmit)]);
    assert_eq!(t.cwnd(), 4.0, "FlightSize 11 - 2 limited-transmit segments, halved");
    // 3 becomes lost once 4, 6, 7 are SACKed above it; 5 once 6, 7, 8 are.
    assert_eq!(t.arrive_all(100, [7, 8]), none());
    assert_eq!(t.arrive(100, 9), vec![tx(3, Recovery)]);
    assert_eq!(t.arrive(100, 10), vec![tx(5, Recovery)]);
    assert_eq!(t.arrive(100, 11), new([12]));
    assert_eq!(t.arrive(200, 1), new([13]));
    assert_eq!(t.arrive(200, 3), new([14]));
    assert_eq!(t.arrive(200, 5), new([15]), "RecoveryPoint 12 acknowledged");
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    let s = t.tcp.stats();
    assert_eq!((s.rto_count, s.fast_retransmits, s.retransmissions), (0, 1, 3));
}

#[test]
fn newreno_recovers_three_losses_one_per_round_trip_without_a_timeout() {
    let mut t = three_losses("newreno");
    assert_eq!(t.arrive(100, 0), new([8, 9]));
    assert_eq!(t.arrive(100, 2), new([10]));
    assert_eq!(t.arrive(100, 4), new([11]));
    assert_eq!(t.arrive(100, 6), vec![tx(1, FastRetransmit)]);
    // Inflation 4..7 over 4 segments: the 8th dupACK opens room for one new segment.
    assert_eq!(t.arrive_all(100, [7, 8, 9, 10]), none());
    assert_eq!(t.arrive(100, 11), new([12]));
    assert_eq!(t.arrive(200, 1), vec![tx(3, Recovery), tx(13, vhsim_tcp::TxCause::New)]);
    assert_eq!(t.arrive(200, 12), new([14]));
    assert_eq!(t.arrive(300, 3), vec![tx(5, Recovery), tx(15, vhsim_tcp::TxCause::New)]);
    assert_eq!(t.arrive_all(300, [13, 14]), new([16, 17]));
    assert_eq!(t.arrive(400, 5), new([18]), "full ACK: cwnd 4.25 with 15..17 outstanding");
    assert_close(t.cwnd(), 4.25);
    let s = t.tcp.stats();
    assert_eq!((s.rto_count, s.fast_retransmits, s.retransmissions), (0, 1, 3));
}

#[test]
fn reno_needs_a_timeout_for_three_losses_in_one_window() {
    let mut t = three_losses("reno");
    assert_eq!(t.arrive(100, 0), new([8, 9]));
    // First RTT sample: 100 ms -> SRTT 100, RTTVAR 50, RTO 300 ms.
    assert_eq!(t.tcp.core().rtt().rto(), dur_ms(300));
    assert_eq!(t.arrive(100, 2), new([10]));
    assert_eq!(t.arrive(100, 4), new([11]));
    assert_eq!(t.arrive(100, 6), vec![tx(1, FastRetransmit)]);
    assert_eq!(t.deadline_ms(), Some(400));
    assert_eq!(t.arrive_all(100, [7, 8, 9, 10]), none());
    assert_eq!(t.arrive(100, 11), new([12]));
    // The first new ACK ends Reno's recovery although 3 and 5 are still missing.
    assert_eq!(t.arrive(200, 1), none());
    assert_close(t.cwnd(), 4.25);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.deadline_ms(), Some(500));
    // Only one more dupACK can come (from 12): no fast retransmit, nothing sent.
    assert_eq!(t.arrive(200, 12), none());
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    // The timer fires: ssthresh = max(2, floor(4.25 / 2)), cwnd 1, retransmit 3.
    assert_eq!(t.fire_timer(500), vec![tx(3, Rto)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (1.0, 2.0));
    assert_eq!(t.tcp.ca_state(), CaState::Loss);
    assert_eq!(t.deadline_ms(), Some(1100), "backed-off RTO 600 ms");
    // Go-back-N in slow start from the first unacknowledged segment.
    assert_eq!(t.arrive(600, 3), txs(GoBackN, [5, 6]));
    assert_eq!(t.tcp.stats().rto_count, 1);
}

/// Segments 0..8 at t = 0 with 0, 3 and 5 lost, driven with plain ACKs up to the first
/// partial ACK (t = 200) and the second (t = 300). Returns the deadlines seen after the fast
/// retransmit, the first partial ACK and the second partial ACK.
fn newreno_partial_acks(timer: NewRenoTimer) -> (Script, [u64; 3]) {
    let c = with_timer(cfg("newreno").iw(8), timer);
    let mut t = Script::new(c);
    t.send_all(0);
    assert_eq!(t.deadline_ms(), Some(3000));
    assert_eq!(t.ack(100, 0), new([8]));
    assert_eq!(t.ack(100, 0), new([9]));
    assert_eq!(t.ack(100, 0), vec![tx(0, FastRetransmit)]);
    let d0 = t.deadline_ms().unwrap();
    assert_eq!(t.dupacks(100, 0, 3), none());
    assert_eq!(t.ack(100, 0), new([10]));
    assert_eq!(t.ack(200, 3), vec![tx(3, Recovery), tx(11, vhsim_tcp::TxCause::New)]);
    let d1 = t.deadline_ms().unwrap();
    assert_eq!(t.ack(200, 3), new([12]));
    assert_eq!(t.ack(300, 5), vec![tx(5, Recovery), tx(13, vhsim_tcp::TxCause::New)]);
    let d2 = t.deadline_ms().unwrap();
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
    (t, [d0, d1, d2])
}

#[test]
fn impatient_newreno_restarts_the_timer_only_on_the_first_partial_ack() {
    let (mut t, deadlines) = newreno_partial_acks(NewRenoTimer::Impatient);
    assert_eq!(deadlines, [3100, 3200, 3200]);
    // DupACKs never restart it either.
    t.dupacks(310, 5, 2);
    assert_eq!(t.deadline_ms(), Some(3200));
    // If recovery stalls, the timeout ends it.
    assert_eq!(t.fire_timer(3200), vec![tx(5, Rto)]);
    assert_eq!(t.tcp.ca_state(), CaState::Loss);
    assert_eq!(t.cwnd(), 1.0);
}

#[test]
fn slow_but_steady_newreno_restarts_the_timer_on_every_partial_ack() {
    let (mut t, deadlines) = newreno_partial_acks(NewRenoTimer::SlowButSteady);
    assert_eq!(deadlines, [3100, 3200, 3300]);
    t.dupacks(310, 5, 2);
    assert_eq!(t.deadline_ms(), Some(3300), "dupACKs do not restart it");
    // The full ACK covers segment 10 (sent new at 100 ms, timed, never retransmitted): the
    // first RTT sample, 300 ms, gives RTO 900 ms, and the timer restarts with it.
    t.ack(400, 14);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(300)));
    assert_eq!(t.deadline_ms(), Some(1300));
}

#[test]
fn whole_connections_with_three_losses_per_window() {
    // Over a real pipe (50 ms one way, 1 ms per segment: RTT about 102 ms, so RTO = minrto
    // 200 ms), the first transmissions of 20, 22 and 24 are lost while cwnd is about 20.
    // NewReno retransmits one hole per RTT: the third retransmission is acknowledged three
    // RTTs after the fast retransmit. Slow-but-Steady restarts the timer on every partial
    // ACK and finishes; Impatient restarts it only on the first, so it expires 2 ms before
    // that ACK (the RFC 6582 §4 trade-off).
    let cases = [
        ("sack", NewRenoTimer::Impatient, false),
        ("sack-rfc6675", NewRenoTimer::Impatient, false),
        ("newreno", NewRenoTimer::SlowButSteady, false),
        ("newreno", NewRenoTimer::Impatient, true),
        ("reno", NewRenoTimer::Impatient, true),
    ];
    for (name, timer, want_rto) in cases {
        let c = with_timer(cfg(name), timer);
        let mut net = Net::new(c, sink_cfg(name), 120, 50, 1000);
        net.drop_data = Box::new(|seq, before| before == 0 && [20, 22, 24].contains(&seq));
        net.start();
        net.run_until(ms(60_000));
        assert_eq!(net.delivered, 120, "{name} {timer:?}");
        let s = net.tcp.stats();
        assert_eq!(s.fast_retransmits, 1, "{name} {timer:?}");
        if want_rto {
            assert_eq!(s.rto_count, 1, "{name} {timer:?}: recovered without a timeout");
        } else {
            assert_eq!(s.rto_count, 0, "{name} {timer:?}");
            let rx: Vec<u64> = net.retransmissions().iter().map(|r| r.0).collect();
            // window_ = 20 binds (20..39 outstanding), so RFC 6675 finds no new data and, after
            // the lost segments, sends its one rescue retransmission (NextSeg rule 4) of the
            // highest unSACKed segment. ns-2 Sack1 and NewReno have no such rule.
            let want: &[u64] = if name == "sack-rfc6675" { &[20, 22, 24, 39] } else { &[20, 22, 24] };
            assert_eq!(rx, want, "{name}: the lost segments, once each");
        }
        assert_eq!(net.tcp.next_timeout(), None, "{name}: timer stopped when all is acknowledged");
    }
}
