//! Freeze-TCP end to end (Goff et al. 2000; docs/references.md §6, A6): the mobile receiver's ZWA
//! at the handover warning puts a standard sender in persist mode, the TR-ACKs after the
//! handover resume it; a lost ZWA or lost TR-ACKs degrade as the paper warns, and probes still
//! recover.
//!
//! The path: 1 ms per segment at the bottleneck, 50 ms each way (RTT 101 ms), window_ 20. The
//! warning comes at 2000 ms; the old link is lost at 2150 ms and the new one is up at 2650 ms
//! (a 500 ms break). A shared flag drops every packet sent while the link is down.

mod common;

use common::*;
use std::cell::Cell;
use std::rc::Rc;
use vhsim_core::SimDuration;
use vhsim_tcp::{SinkLinkEvent, TxCause};

const WARNING: u64 = 2000;
const DOWN: u64 = 2150;
const UP: u64 = 2650;
const RTT: u64 = 101;

struct Run {
    net: Net,
    down: Rc<Cell<bool>>,
    /// cwnd when the sender entered persist mode (the ZWA), and when it left it.
    frozen_at: Option<(u64, f64)>,
    resumed_at: Option<(u64, f64)>,
    /// cwnd when the new link came up, and segments delivered then.
    at_up: (f64, u64),
}

/// A Freeze-TCP connection through one break-before-make handover; `drop_ack` decides on the
/// ACKs the link would carry.
fn run(drop_ack: impl FnMut(&vhsim_tcp::AckOut, u64) -> bool + 'static, until: u64) -> Run {
    let mut net = Net::new(cfg("freeze"), sink_cfg("freeze"), u64::MAX, 50, 1000);
    let down = Rc::new(Cell::new(false));
    let d = down.clone();
    net.drop_data = Box::new(move |_, _| d.get());
    let d = down.clone();
    let clock = Rc::new(Cell::new(0u64));
    let c = clock.clone();
    let mut drop_ack = drop_ack;
    net.drop_ack = Box::new(move |a| d.get() || drop_ack(a, c.get()));
    net.start();
    let mut r = Run { net, down, frozen_at: None, resumed_at: None, at_up: (0.0, 0) };
    let step_to = |r: &mut Run, t: u64| {
        while r.net.next_time().is_some_and(|n| n <= ms(t)) {
            r.net.step();
            clock.set(r.net.now.0 / 1_000_000);
            let persisting = r.net.tcp.core().persisting();
            let now = r.net.now.0 / 1_000_000;
            if persisting && r.frozen_at.is_none() {
                r.frozen_at = Some((now, r.net.tcp.cwnd()));
            }
            if !persisting && r.frozen_at.is_some() && r.resumed_at.is_none() {
                r.resumed_at = Some((now, r.net.tcp.cwnd()));
            }
        }
        r.net.run_to(ms(t));
        clock.set(t);
    };
    step_to(&mut r, WARNING);
    r.net.link_event(SinkLinkEvent::Imminent { eta: SimDuration::from_millis(DOWN - WARNING) });
    step_to(&mut r, DOWN);
    r.down.set(true);
    r.net.link_event(SinkLinkEvent::Down);
    step_to(&mut r, UP);
    r.down.set(false);
    r.at_up = (r.net.tcp.cwnd(), r.net.delivered);
    r.net.link_event(SinkLinkEvent::Up);
    r.net.link_event(SinkLinkEvent::Completed);
    step_to(&mut r, until);
    r
}

fn sent_between(net: &Net, from: u64, to: u64) -> Vec<(u64, vhsim_tcp::Transmit)> {
    net.log.iter().filter(|(t, _)| *t > ms(from) && *t < ms(to)).map(|&(t, x)| (t.0 / 1_000_000, x)).collect()
}

#[test]
fn the_zwa_freezes_the_sender_and_the_tr_acks_resume_it_with_its_cwnd() {
    let r = run(|_, _| false, 6000);
    let (froze, _) = r.frozen_at.expect("the sender never entered persist mode");
    assert_eq!(froze, WARNING + 50, "the ZWA takes one way");
    // Between the ZWA and the TR-ACKs only window probes go out (persist timer: one RTO, then
    // doubling): at most one carries a never-sent segment, the rest repeat it.
    let (resumed, cwnd_resumed) = r.resumed_at.expect("never resumed");
    assert_eq!(resumed, UP + 50, "the first TR-ACK takes one way");
    let during = sent_between(&r.net, froze, resumed);
    assert!(!during.is_empty() && during.len() <= 2, "expected the backed-off probes: {during:?}");
    assert!(during.iter().all(|(_, x)| matches!(x.cause, TxCause::Probe | TxCause::New)), "{during:?}");
    assert!(during.iter().filter(|(_, x)| x.cause == TxCause::New).count() <= 1, "{during:?}");
    // No timeout, no backoff, and the cwnd of before the break (the ACKs of the data in flight
    // at the ZWA, zero-window ACKs of new data, still opened it as any ACK does).
    assert_eq!(r.net.tcp.stats().rto_count, 0);
    assert_eq!(cwnd_resumed, r.at_up.0);
    // Sending resumes within one RTT of the new link coming up.
    let first_new = r.net.log.iter().find(|(t, x)| *t >= ms(UP) && x.cause == TxCause::New).unwrap();
    assert!(first_new.0 <= ms(UP + RTT), "first new segment at {}", first_new.0);
    assert!(r.net.delivered - r.at_up.1 > 500, "delivered {} after Up", r.net.delivered - r.at_up.1);
    // Engagement: one persist episode with its probes at the sender, one ZWA and three
    // TR-ACKs at the receiver.
    let probes = during.iter().filter(|(_, x)| x.cause == TxCause::Probe).count() as u64;
    assert_eq!(engaged(&r.net.tcp, &["persist_episodes", "window_probes"]), [1, during.len() as u64]);
    assert!(probes <= during.len() as u64);
    assert_eq!(sink_engaged(&r.net.sink, &["zwa_sent", "tr_acks_sent"]), [1, 3]);
}

#[test]
fn the_tr_acks_are_not_a_fast_retransmit() {
    // A6 (default `window_update`): the first TR-ACK is a window update and its two copies are
    // ignored as copies of it, so no fast retransmit comes of them.
    let r = run(|_, _| false, 3000);
    let frs: Vec<_> = r.net.log.iter().filter(|(_, x)| x.cause == TxCause::FastRetransmit).collect();
    assert!(frs.iter().all(|(t, _)| *t > ms(UP + 50)), "{frs:?}");
    assert!(r.net.tcp.ssthresh() >= 20.0 || !frs.is_empty(), "no halving without a real loss");
}

#[test]
fn a_lost_zwa_leaves_the_sender_sending_into_the_break_and_timing_out() {
    let r = run(|a, _| a.window == 0, 8000);
    assert!(r.frozen_at.is_none(), "the sender never heard of the freeze");
    let into_break = sent_between(&r.net, DOWN + 50, UP);
    assert!(!into_break.is_empty(), "data was sent into the break");
    let s = r.net.tcp.stats();
    assert!(s.rto_count >= 1, "the break cost a timeout");
    assert!(r.net.tcp.core().rtt().backoff() >= 1);
    // It still recovers.
    assert!(r.net.delivered - r.at_up.1 > 300, "delivered {} after Up", r.net.delivered - r.at_up.1);
}

#[test]
fn lost_tr_acks_leave_the_sender_frozen_until_a_probe_gets_through() {
    // Every ACK sent in the first millisecond after the link comes up is lost: the TR-ACKs.
    let r = run(|a, now| a.window > 0 && (UP..UP + 1).contains(&now), 8000);
    let (resumed, _) = r.resumed_at.expect("a probe must end the freeze");
    assert!(resumed > UP + RTT, "resumed at {resumed}: the TR-ACKs were lost, only a probe can");
    // The probe that did it went out just before (its ACK takes one RTT).
    let probe = r.net.log.iter().rev().find(|(t, x)| *t <= ms(resumed) && x.cause == TxCause::Probe);
    assert!(probe.is_some_and(|(t, _)| *t >= ms(UP) && *t + dur_ms(RTT) >= ms(resumed)), "{probe:?}");
    assert_eq!(r.net.tcp.stats().rto_count, 0, "persist mode, not timeouts");
    assert!(r.net.delivered - r.at_up.1 > 300, "delivered {} after Up", r.net.delivered - r.at_up.1);
}

#[test]
fn tr_ack_copies_are_window_updates_not_duplicate_acks() {
    // Scripted (A6): 0..4 sent, ACK 4 at 100 ms (min RTT 100 ms) with a zero window; the window
    // reopens at 600 ms and cwnd 5 sends 4..9; the two copies at 600 and 601 ms are not
    // duplicate ACKs (within half the min RTT), so no limited transmit and no count.
    let mut t = Script::new(cfg("freeze").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack_win(100, 4, 0), none());
    assert_eq!(t.ack_win(600, 4, 20), new(4..9));
    assert_eq!(t.ack_win(600, 4, 20), none());
    assert_eq!(t.ack_win(601, 4, 20), none());
    assert_eq!(t.tcp.core().dupacks(), 0);
    // A repeat one min RTT later is an ordinary duplicate ACK again (limited transmit).
    assert_eq!(t.ack_win(700, 4, 20), new([9]));
    assert_eq!(t.tcp.core().dupacks(), 1);
}

#[test]
fn read_as_duplicate_acks_the_tr_ack_copies_count_and_trigger_limited_transmit() {
    // The other reading of A6 (`reopening_copies = "duplicate_acks"`): the same script as above,
    // but each copy of the reopening ACK is a duplicate ACK at once: limited transmit sends one
    // new segment on each of the first two (RFC 3042), and the count reaches 2.
    let mut c = cfg("freeze").iw(4);
    c.reopening_copies = vhsim_tcp::ReopeningCopies::DuplicateAcks;
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack_win(100, 4, 0), none());
    assert_eq!(t.ack_win(600, 4, 20), new(4..9));
    assert_eq!(t.ack_win(600, 4, 20), new([9]));
    assert_eq!(t.ack_win(601, 4, 20), new([10]));
    assert_eq!(t.tcp.core().dupacks(), 2);
}
