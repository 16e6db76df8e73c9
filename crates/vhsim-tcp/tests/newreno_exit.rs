//! NewReno's `exit_fast_retrans` (ns-2 `exitFastRetrans_`) against a hand-written ns-2 trace.
//!
//! The exchange is Sobral et al.'s §5.1 story in small: a spurious timeout, go-back-N
//! retransmissions of segments that were not lost, and the duplicate ACKs those duplicates
//! cause, which do not cover `recover` (so the careful check, RFC 6582 §3.2 step 1 / ns-2
//! `bugFix_`, blocks a fast retransmit).
//!
//! Where the expected trace comes from: we stepped ns-2.35's `tcp/tcp-newreno.cc`
//! (`NewRenoTcpAgent::recv`, `dupack_action`), `tcp/tcp-reno.cc` (`RenoTcpAgent::timeout`,
//! `window`) and `tcp/tcp.cc` (`TcpAgent::timeout`, `send_much`, `send_one`, `opencwnd`,
//! `newack`, `rtt_timeout`) by hand with ns-default.tcl's values (`window_` 20, `minrto_`
//! 0.2 s, `tcpTick_` 0.01 s, `bugFix_` true, `bugFix_ack_` / `bugFix_ts_` false,
//! `singledup_` 1, `newreno_changes_` 0, `newreno_changes1_` 1, `maxburst_` 0) and a
//! windowInit of 8. ns-2 numbers an ACK by the highest segment received; the trace below uses
//! ours (the next expected, ns-2's plus one). The steps:
//!
//! * 0 ms: cwnd 8, segments 0..=7 leave.
//! * 100 ms: ACKs 1..=4 (slow start, cwnd 9..12) each send two: 8..=15. The first one times
//!   segment 0: srtt 100 ms, rttvar 50 ms, RTO 300 ms (30 ticks), re-armed by each new ACK.
//! * 400 ms: timeout (`RenoTcpAgent::timeout`: dupwnd_ = dupacks_ = 0, recover_ = maxseq_ =
//!   our 16; `TcpAgent::timeout`: ssthresh = min(12, 20)/2 = 6, cwnd = 1, backoff x2,
//!   t_seqno_ = una): segment 4 again.
//! * 500 ms: the ACKs of the original 4..=15 arrive (ACK 5..=16). `last_cwnd_action_` is
//!   TIMEOUT, so each is a plain new ACK (dupwnd_ = 0, `newack`, `opencwnd`): cwnd 2..6 in slow
//!   start, then +1/cwnd; go-back-N 5..=15 and new 16..=22 go out. cwnd ends at 7.0829.
//! * 700 ms: the duplicates of the go-back-N segments reach the receiver, which repeats ACK
//!   16 (= `recover`). The 1st and 2nd: `send_one` (limited transmit), 23 and 24. The 3rd:
//!   `dupack_action` returns at `bugFix_` without a fast retransmit. With `exitFastRetrans_`
//!   true nothing more happens, on this or any later duplicate. With false, `dupwnd_ =
//!   numdupacks_` (3) at the 3rd and `++dupwnd_` on each later one, and `send_much(0, 0, 2)`
//!   fills window() = min(int(cwnd_) + dupwnd_, window_): one new segment per duplicate, 25..=35,
//!   until window_ (20) stops it at the 14th.
//! * 800 ms: a new ACK (17): dupwnd_ = 0, cwnd += 1/cwnd (7.2241); window 7 from 17 allows
//!   nothing more in either case.
//!
//! In neither case does the sender retransmit, cut cwnd or ssthresh, or re-arm the timer on a
//! duplicate.

mod common;

use common::*;
use vhsim_tcp::TxCause;

/// The common prefix up to the last new ACK before the duplicates: returns the sender.
fn spurious_timeout(exit_fast_retrans: bool) -> Script {
    let c = cfg("newreno").iw(8).set(&format!("recovery = {{ kind = \"new_reno\", exit_fast_retrans = {exit_fast_retrans} }}"));
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..8));
    for (ack, sent) in [(1, [8, 9]), (2, [10, 11]), (3, [12, 13]), (4, [14, 15])] {
        assert_eq!(t.ack(100, ack), new(sent), "ACK {ack}");
    }
    assert_close(t.cwnd(), 12.0);
    assert_eq!(t.deadline_ms(), Some(400));
    assert_eq!(t.fire_timer(400), [tx(4, TxCause::Rto)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (1.0, 6.0));
    assert_eq!(t.tcp.core().recover(), Some(16));
    // Slow start to ssthresh 6 on ACKs 5..=9, go-back-N two per ACK.
    for (ack, sent) in [(5, [5, 6]), (6, [7, 8]), (7, [9, 10]), (8, [11, 12]), (9, [13, 14])] {
        assert_eq!(t.ack(500, ack), txs(TxCause::GoBackN, sent), "ACK {ack}");
    }
    // Congestion avoidance: +1/cwnd per ACK; 15 is the last go-back-N segment, 16.. are new.
    assert_eq!(t.ack(500, 10), [tx(15, TxCause::GoBackN)]);
    for ack in 11..=15 {
        assert_eq!(t.ack(500, ack), new([ack + 5]), "ACK {ack}");
    }
    assert_eq!(t.ack(500, 16), new([21, 22]));
    let mut cwnd = 6.0;
    for _ in 10..=16 {
        cwnd += 1.0 / cwnd;
    }
    assert_close(t.cwnd(), cwnd);
    assert!((t.cwnd() - 7.0829).abs() < 1e-4);
    t
}

/// What the sender sends on each of 14 duplicates of ACK 16 at 700 ms.
fn duplicates(t: &mut Script) -> Vec<Vec<u64>> {
    let deadline = t.deadline_ms();
    let out = (0..14).map(|_| seqs(&t.ack(700, 16))).collect();
    assert_eq!(t.deadline_ms(), deadline, "duplicates never re-arm the timer");
    assert_eq!(t.tcp.stats().fast_retransmits, 0, "recover blocks the fast retransmit");
    assert!((t.cwnd() - 7.0829).abs() < 1e-4 && t.ssthresh() == 6.0, "no window cut");
    out
}

#[test]
fn with_exit_fast_retrans_only_limited_transmit_answers_the_blocked_duplicates() {
    let mut t = spurious_timeout(true);
    let mut expected = vec![vec![23], vec![24]];
    expected.resize(14, vec![]);
    assert_eq!(duplicates(&mut t), expected);
    assert_eq!(t.ack(800, 17), none());
}

#[test]
fn without_exit_fast_retrans_the_blocked_duplicates_inflate_the_window_up_to_window_cap() {
    let mut t = spurious_timeout(false);
    let mut expected = vec![vec![23], vec![24]];
    expected.extend((25..=35).map(|s| vec![s]));
    expected.push(vec![]); // the 14th: int(cwnd) + dupwnd = 21 > window_ 20
    assert_eq!(duplicates(&mut t), expected);
    // The next new ACK removes the inflation: window 7 from 17 sends nothing.
    assert_eq!(t.ack(800, 17), none());
    assert!((t.cwnd() - 7.2241).abs() < 1e-4);
}

#[test]
fn exit_fast_retrans_does_not_change_a_fast_recovery_the_threshold_starts() {
    // Inside recovery both settings inflate (ns-2: `last_cwnd_action_ == CWND_ACTION_DUPACK`).
    let run = |exit: bool| {
        let c = cfg("newreno").iw(8).set(&format!("recovery = {{ kind = \"new_reno\", exit_fast_retrans = {exit} }}"));
        let mut t = Script::new(c);
        t.send_all(0);
        let mut out = vec![seqs(&t.dupacks(100, 0, 3))];
        out.extend((0..4).map(|_| seqs(&t.ack(100, 0))));
        out.push(seqs(&t.ack(200, 8)));
        (out, t.cwnd())
    };
    assert_eq!(run(true), run(false));
    let (out, _) = run(true);
    assert_eq!(out[0], [8, 9, 0], "limited transmit twice, then the fast retransmit");
}
