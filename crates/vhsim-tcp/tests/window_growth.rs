//! Window growth (slow start, congestion avoidance) and the fixed caps on the window
//! (ns-2 `window_`, the receiver's advertised window). Windows count segments.

mod common;

use common::*;
use vhsim_tcp::{CaState, TxCause};

#[test]
fn initial_window_releases_two_segments() {
    let mut t = Script::new(cfg("reno"));
    assert_eq!(t.cwnd(), 2.0);
    assert_eq!(t.ssthresh(), 20.0, "ns-2 reset(): ssthresh starts at window_");
    assert_eq!(t.send_all(0), new(0..2));
    assert_eq!(t.send_all(1), none(), "nothing more until an ACK arrives");
}

#[test]
fn slow_start_adds_one_segment_per_new_ack_and_releases_two() {
    let mut t = Script::new(cfg("reno"));
    t.send_all(0);
    assert_eq!(t.ack(100, 1), new([2, 3]));
    assert_eq!(t.cwnd(), 3.0);
    assert_eq!(t.ack(100, 2), new([4, 5]));
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.ack(200, 3), new([6, 7]));
    assert_eq!(t.ack(200, 4), new([8, 9]));
    assert_eq!(t.cwnd(), 6.0);
    assert_eq!(t.outstanding(), 6);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
}

#[test]
fn slow_start_grows_per_ack_not_per_segment_acknowledged() {
    // A stretch ACK covering two segments opens cwnd by one (ns-2 opencwnd), so it releases
    // three segments: two for the data that left, one for the growth.
    let mut t = Script::new(cfg("reno").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 2), new([4, 5, 6]));
    assert_eq!(t.cwnd(), 5.0);
}

#[test]
fn slow_start_ends_when_cwnd_reaches_ssthresh() {
    let mut t = Script::new(cfg("reno").ssthresh(4));
    t.send_all(0);
    t.ack(100, 1);
    assert_eq!(t.cwnd(), 3.0);
    t.ack(100, 2);
    assert_eq!(t.cwnd(), 4.0);
    // cwnd == ssthresh: congestion avoidance, +1/cwnd.
    t.ack(200, 3);
    assert_close(t.cwnd(), 4.25);
}

#[test]
fn congestion_avoidance_adds_one_over_cwnd_per_ack() {
    let mut t = Script::new(cfg("reno").ssthresh(2));
    assert_eq!(t.send_all(0), new(0..2));
    assert_eq!(t.ack(100, 1), new([2]), "cwnd 2.5 still allows only two outstanding");
    assert_close(t.cwnd(), 2.5);
    assert_eq!(t.ack(100, 2), new([3]));
    assert_close(t.cwnd(), 2.9);
    // 2.9 + 1/2.9 crosses 3: one extra segment.
    assert_eq!(t.ack(200, 3), new([4, 5]));
    assert_close(t.cwnd(), 2.9 + 1.0 / 2.9);
}

#[test]
fn congestion_avoidance_grows_about_one_segment_per_round_trip() {
    let mut t = Script::new(cfg("reno").iw(10).ssthresh(10).window(64));
    assert_eq!(t.send_all(0), new(0..10));
    t.ack(100, 1);
    assert_close(t.cwnd(), 10.1);
    let mut una = 1;
    let mut after_round = Vec::new();
    for round in 1..=5u64 {
        // Every outstanding segment is acknowledged one ACK at a time, one RTT later.
        let end = t.tcp.core().snd_max();
        while una < end {
            una += 1;
            t.ack(100 * round, una);
        }
        after_round.push(t.cwnd());
    }
    // One ACK per segment of the previous round, +1/cwnd each: a little less than one segment
    // per round trip (the round has floor(cwnd) ACKs while cwnd is already larger).
    let mut prev = 10.1;
    for w in after_round {
        let gain = w - prev;
        assert!(gain > 0.8 && gain < 1.0, "per-round growth {gain} (cwnd {prev} -> {w})");
        prev = w;
    }
    assert!(prev > 14.0 && prev < 15.0, "cwnd after 5 rounds: {prev}");
}

#[test]
fn window_cap_limits_outstanding_segments_even_when_cwnd_is_larger() {
    let mut t = Script::new(cfg("reno").window(4).ssthresh(64));
    assert_eq!(t.send_all(0), new(0..2));
    assert_eq!(t.ack(100, 1), new([2, 3]));
    assert_eq!(t.ack(100, 2), new([4, 5]));
    assert_eq!(t.outstanding(), 4);
    // cwnd keeps growing (5, 6, ...) but only one segment leaves per segment acknowledged.
    assert_eq!(t.ack(200, 3), new([6]));
    assert_eq!(t.ack(200, 4), new([7]));
    assert_eq!(t.cwnd(), 6.0);
    assert_eq!(t.outstanding(), 4);
    assert_eq!(t.ack(300, 8), new(8..12));
    assert_eq!(t.outstanding(), 4);
}

#[test]
fn initial_ssthresh_defaults_to_the_window_cap() {
    let t = Script::new(cfg("sack").window(7));
    assert_eq!(t.ssthresh(), 7.0);
}

#[test]
fn advertised_window_limits_outstanding_segments() {
    let mut t = Script::new(cfg("newreno").iw(8));
    assert_eq!(t.send_all(0), new(0..8));
    // The receiver advertises 3 segments: with 7 outstanding nothing may be sent, although
    // cwnd grows to 9.
    assert_eq!(t.ack_win(100, 1, 3), none());
    assert_eq!(t.cwnd(), 9.0);
    assert_eq!(t.ack_win(100, 5, 3), none(), "5, 6, 7 outstanding = 3");
    assert_eq!(t.ack_win(100, 6, 3), new([8]));
    assert_eq!(t.outstanding(), 3);
    // A larger window opens the sender up to min(cwnd, window).
    assert_eq!(t.ack_win(200, 7, 6), new(9..13));
    assert_eq!(t.outstanding(), 6);
}

#[test]
fn zero_window_stops_new_data_and_an_update_reopens_it() {
    let mut t = Script::new(cfg("reno").iw(4));
    t.send_all(0);
    assert_eq!(t.ack_win(100, 4, 0), none());
    assert_eq!(t.outstanding(), 0);
    assert_eq!(t.ack_win(150, 4, 2), new([4, 5]));
}

#[test]
fn window_updates_with_the_same_ack_are_not_duplicate_acks() {
    // RFC 5681 §2: a duplicate ACK carries an unchanged advertised window.
    let mut t = Script::new(cfg("reno").iw(4));
    t.send_all(0);
    t.ack_win(100, 1, 10);
    t.send_all(100);
    let before = t.outstanding();
    for (i, w) in [12u32, 14, 16, 18].into_iter().enumerate() {
        t.ack_win(110 + i as u64, 1, w);
    }
    assert_eq!(t.tcp.stats().fast_retransmits, 0);
    assert_eq!(t.tcp.core().dupacks(), 0);
    assert_eq!(t.outstanding(), before, "no limited transmit either");
    // The same ACK with an unchanged window is a duplicate again.
    t.ack_win(120, 1, 18);
    assert_eq!(t.tcp.core().dupacks(), 1);
}

#[test]
fn sink_advertised_window_limits_a_whole_transfer() {
    let mut sink = sink_cfg("sack");
    sink.advertised_window = 3;
    let mut net = Net::new(cfg("sack").iw(2), sink, 60, 10, 100);
    net.start();
    let mut steps = 0;
    while net.step() {
        let c = net.tcp.core();
        // Before the first ACK the sender cannot know the window: only IW = 2 is out.
        assert!(c.snd_max() - c.snd_una() <= 3, "{} outstanding at {}", c.snd_max() - c.snd_una(), net.now);
        steps += 1;
        assert!(steps < 100_000);
    }
    assert_eq!(net.delivered, 60);
    assert!(net.tcp.cwnd() > 3.0, "cwnd grew past the advertised window: {}", net.tcp.cwnd());
    assert!(net.log.iter().all(|(_, t)| t.cause == TxCause::New), "lossless run retransmitted");
}

#[test]
fn application_limit_stops_the_sender_and_more_data_restarts_it() {
    let mut t = Script::with_app_limit(cfg("reno").iw(4), 3);
    assert_eq!(t.send_all(0), new(0..3));
    assert_eq!(t.ack(100, 3), none());
    assert_eq!(t.tcp.next_timeout(), None, "RFC 6298 §5.2: nothing outstanding, no timer");
    t.tcp.set_app_limit(10);
    assert_eq!(t.send_all(150), new(3..8));
    assert!(t.tcp.next_timeout().is_some(), "RFC 6298 §5.1: sending starts the timer");
}

#[test]
fn max_burst_limits_segments_sent_in_response_to_one_event() {
    let mut c = cfg("reno").iw(8);
    c.max_burst = 3;
    let mut t = Script::new(c);
    assert_eq!(t.send_all(0), new(0..3));
    assert_eq!(t.send_all(1), none(), "the burst budget is renewed only by an ACK or a timer");
    assert_eq!(t.ack(100, 3), new(3..6));
    assert_eq!(t.cwnd(), 9.0);
}
