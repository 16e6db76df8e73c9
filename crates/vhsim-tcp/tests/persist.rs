//! Zero-window persist mode (RFC 9293 §3.8.6.1, RFC 1122 §4.2.2.17; docs/references.md §6): a zero
//! advertised window stops new data and queued retransmissions, the persist timer sends probes
//! with exponential backoff, the retransmission timer neither fires nor backs off during the
//! freeze, and a window update resumes sending with the cwnd of before.
//!
//! Common start (`sack`, initial window 4): 0..4 sent at 0; their ACK at 100 ms gives SRTT
//! 100 ms, RTO 300 ms, cwnd 5.

mod common;

use common::*;
use vhsim_tcp::Timer;
use vhsim_tcp::TxCause::{FastRetransmit, Probe};

fn persist_deadline(t: &Script) -> Option<u64> {
    t.tcp.timer(Timer::Persist).map(|d| d.0 / 1_000_000)
}

#[test]
fn a_long_freeze_sends_backed_off_probes_and_no_timeout_then_resumes_with_the_same_cwnd() {
    let mut t = Script::new(cfg("sack").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    // Freeze-TCP's ZWA: an ACK of everything with a zero window. Nothing may go out.
    assert_eq!(t.ack_win(100, 4, 0), none());
    assert!(t.tcp.core().persisting());
    assert_eq!(t.cwnd(), 5.0);
    assert_eq!(t.tcp.core().rtx_deadline(), None, "the retransmission timer stops");
    assert_eq!(persist_deadline(&t), Some(400), "first probe one RTO (300 ms) later");
    // First probe: nothing is outstanding, so it repeats the last acknowledged segment (a new
    // segment lost with the link would leave a hole).
    assert_eq!(t.fire_timer(400), vec![tx(3, Probe)]);
    assert_eq!(t.tcp.core().rtx_deadline(), None, "a probe does not start the retransmission timer");
    // The frozen receiver drops it and answers with the same zero window.
    assert_eq!(t.ack_win(450, 4, 0), none());
    // Later probes repeat it, each interval twice the last, capped at max_rto (60 s).
    let mut at = 400;
    for interval in [600, 1200, 2400, 4800, 9600, 19_200, 38_400, 60_000, 60_000] {
        at += interval;
        assert_eq!(persist_deadline(&t), Some(at));
        assert_eq!(t.fire_timer(at), vec![tx(3, Probe)], "probe at {at} ms");
        assert_eq!(t.tcp.core().rtx_deadline(), None);
    }
    let s = t.tcp.stats();
    assert_eq!((s.rto_count, t.tcp.core().rtt().backoff()), (0, 1), "no timeout and no backoff in 196 s");
    assert_eq!(t.cwnd(), 5.0);
    // The window opens (TR-ACK: the same ACK, a non-zero window): persist mode ends, the timer
    // restarts with the un-backed-off RTO, and cwnd 5 from snd_una 4 sends 4..=8.
    let now = at + 100;
    assert_eq!(t.ack_win(now, 4, 20), new(4..9));
    assert!(!t.tcp.core().persisting());
    assert_eq!(persist_deadline(&t), None);
    assert_eq!(t.deadline_ms(), Some(now + 300));
    assert_eq!(t.cwnd(), 5.0, "the cwnd of before the freeze");
}

#[test]
fn outstanding_data_at_the_zero_window_does_not_time_out_during_the_freeze() {
    let mut t = Script::new(cfg("sack").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 1), new(4..6), "cwnd 3 from snd_una 1");
    // 1..6 outstanding when the receiver closes its window at 150 ms.
    assert_eq!(t.ack_win(150, 1, 0), none());
    assert_eq!(t.tcp.core().rtx_deadline(), None);
    // 30 s of freeze: only probes (copies of the first unacknowledged segment) at 450, 1050,
    // 2250, 4650, 9450 and 19050 ms; no timeout.
    let mut probes = 0;
    while t.tcp.next_timeout().is_some_and(|d| d.0 < 30_000_000_000) {
        let (_, sent) = t.fire_due_timer();
        assert_eq!(sent, vec![tx(1, Probe)]);
        probes += 1;
    }
    assert_eq!((probes, t.tcp.stats().rto_count), (6, 0));
    // The window opens with an ACK of everything: cwnd 5 + 1 (slow start) sends 6..=11, and
    // the timer runs again with the RTO of before: segment 4, timed before the freeze, gives
    // no 30 s RTT sample.
    assert_eq!(t.ack_win(30_000, 6, 20), new(6..12));
    assert_eq!(t.tcp.core().rtt().srtt(), Some(dur_ms(100)));
    assert_eq!(t.deadline_ms(), Some(30_300));
}

#[test]
fn a_zero_window_holds_queued_retransmissions_until_it_opens() {
    // TCP-DCR (tau = srtt = 100 ms): the first dupACK both arms the delay and closes the
    // window; when tau expires the fast retransmit is decided but must wait.
    let mut t = Script::new(cfg("dcr").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 4), new(4..9));
    assert_eq!(t.ack_full(200, 4, &[(5, 6)], 0), none(), "no limited transmit either");
    assert_eq!(t.tcp.timer(Timer::DcrDelay), Some(ms(300)));
    assert_eq!(t.fire_timer(300), none(), "the fast retransmit is queued, not sent");
    assert_eq!((t.tcp.stats().fast_retransmits, t.tcp.stats().retransmissions), (1, 0));
    assert_eq!(t.tcp.core().rtx_deadline(), None);
    // The window opens before the first probe: the queued retransmission goes first.
    let sent = t.ack_full(450, 4, &[(5, 7)], 20);
    assert_eq!(sent.first(), Some(&tx(4, FastRetransmit)), "{sent:?}");
    assert!(t.deadline_ms().is_some());
    // Had it stayed closed, the retransmission would have been the probe (next test).
}

#[test]
fn a_probe_is_the_queued_retransmission_when_one_waits() {
    let mut t = Script::new(cfg("dcr").iw(4));
    t.send_all(0);
    t.ack(100, 4);
    t.ack_full(200, 4, &[(5, 6)], 0);
    assert_eq!(t.fire_timer(300), none());
    assert_eq!(persist_deadline(&t), Some(500));
    assert_eq!(t.fire_timer(500), vec![tx(4, FastRetransmit)]);
    assert_eq!(t.fire_timer(1100), vec![tx(4, Probe)]);
    assert_eq!(t.tcp.stats().rto_count, 0);
}

#[test]
fn before_anything_is_acknowledged_a_probe_carries_the_next_new_segment() {
    // The window closes in the first ACK, which acknowledges nothing: there is no old segment
    // to repeat, so the probe is segment 0... here nothing is outstanding only if nothing was
    // sent: an application with no data yet.
    let mut t = Script::with_app_limit(cfg("sack").iw(4), 0);
    assert_eq!(t.send_all(0), none());
    assert_eq!(t.ack_win(100, 0, 0), none());
    let first = persist_deadline(&t).unwrap();
    assert_eq!(t.fire_timer(first), none(), "nothing to probe with");
    let second = persist_deadline(&t).expect("still probing: the application may write more");
    t.tcp.set_app_limit(6);
    assert_eq!(t.fire_timer(second), new([0]));
}
