//! Fast retransmit at three duplicate ACKs, limited transmit before it, and each recovery
//! variant's window rule for one loss (docs/references.md §1.3, §1.4, §2.2, §2.3).

mod common;

use common::*;
use vhsim_tcp::CaState;
use vhsim_tcp::TxCause::{FastRetransmit, Recovery};

// ---------------------------------------------------------------- limited transmit (RFC 3042)

#[test]
fn limited_transmit_sends_one_new_segment_on_each_of_the_first_two_dupacks() {
    let mut t = Script::new(cfg("reno").iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    assert_eq!(t.ack(100, 0), new([4]));
    assert_eq!(t.tcp.ca_state(), CaState::Disorder);
    assert_eq!(t.ack(101, 0), new([5]));
    assert_eq!(t.cwnd(), 4.0, "limited transmit does not change cwnd");
    assert_eq!(t.ack(102, 0), vec![tx(0, FastRetransmit)]);
}

#[test]
fn no_limited_transmit_when_disabled() {
    let mut t = Script::new(cfg("reno").iw(4).limited_transmit(false));
    t.send_all(0);
    assert_eq!(t.ack(100, 0), none());
    assert_eq!(t.ack(101, 0), none());
    // At the threshold: cwnd 2 + 3 dupACKs of inflation = 5 > 4 outstanding.
    assert_eq!(t.ack(102, 0), vec![tx(0, FastRetransmit), tx(4, vhsim_tcp::TxCause::New)]);
    assert_eq!(t.tcp.stats().segments_sent, 6);
}

#[test]
fn limited_transmit_respects_the_window_cap() {
    // ns-2 send_one: t_seqno_ <= highest_ack_ + window_.
    let mut t = Script::new(cfg("newreno").iw(4).window(4));
    t.send_all(0);
    assert_eq!(t.dupacks(100, 0, 2), none());
}

#[test]
fn no_fast_retransmit_below_three_dupacks() {
    let mut t = Script::new(cfg("newreno").iw(4).limited_transmit(false));
    t.send_all(0);
    t.dupacks(100, 0, 2);
    assert_eq!(t.tcp.stats().fast_retransmits, 0);
    assert_eq!(t.tcp.stats().retransmissions, 0);
    // A new ACK clears the count: two more dupACKs are again not enough.
    assert_eq!(t.ack(150, 1), new([4, 5]));
    t.dupacks(160, 1, 2);
    assert_eq!(t.tcp.stats().fast_retransmits, 0);
}

#[test]
fn sack_senders_count_only_dupacks_with_new_sack_information() {
    // ns-2 Sack1 CheckUpdate: a dupACK repeating known SACK blocks is not counted.
    let mut t = Script::new(cfg("sack").iw(4));
    t.send_all(0);
    assert_eq!(t.ack_sack(100, 0, &[(1, 2)]), new([4]));
    assert_eq!(t.ack_sack(101, 0, &[(1, 2)]), none());
    assert_eq!(t.tcp.core().dupacks(), 1);
    assert_eq!(t.ack_sack(102, 0, &[(1, 3)]), new([5]));
    assert_eq!(t.ack_sack(103, 0, &[(1, 4)]), vec![tx(0, FastRetransmit)]);
}

// ---------------------------------------------------------------- Reno

#[test]
fn reno_halves_cwnd_retransmits_and_inflates_by_one_per_extra_dupack() {
    let mut t = Script::new(cfg("reno").iw(8));
    assert_eq!(t.send_all(0), new(0..8));
    // Segment 0 is lost; 1..7 and the limited-transmit segments 8, 9 each bring a dupACK.
    assert_eq!(t.ack(100, 0), new([8]));
    assert_eq!(t.ack(101, 0), new([9]));
    assert_eq!(t.ack(102, 0), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.ssthresh(), 4.0, "max(2, floor(min(8, 20) / 2))");
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
    // Effective window cwnd + dupACKs: 7, 8, 9, 10 -> nothing beyond the 10 outstanding.
    assert_eq!(t.dupacks(103, 0, 3), none());
    assert_eq!(t.ack(106, 0), new([10]), "7th dupACK: window 4 + 7 = 11");
    assert_eq!(t.ack(107, 0), new([11]));
    assert_eq!(t.ack(108, 0), new([12]));
    // The retransmission arrives: deflate to ssthresh, leave recovery, open by 1/cwnd.
    assert_eq!(t.ack(200, 10), new([13]));
    assert_close(t.cwnd(), 4.25);
    assert_eq!(t.ssthresh(), 4.0);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    let s = t.tcp.stats();
    assert_eq!((s.fast_retransmits, s.retransmissions, s.rto_count), (1, 1, 0));
}

#[test]
fn fast_retransmit_halves_the_window_cap_when_it_is_below_cwnd() {
    let mut t = Script::new(cfg("reno").iw(8).window(6));
    assert_eq!(t.send_all(0), new(0..6));
    assert_eq!(t.dupacks(100, 0, 2), none(), "window_ full: no limited transmit");
    assert_eq!(t.ack(102, 0), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.ssthresh(), 3.0, "floor(min(cwnd 8, window 6) / 2)");
    assert_eq!(t.cwnd(), 3.0);
}

#[test]
fn fast_retransmit_never_sets_ssthresh_below_two_segments() {
    let mut t = Script::new(cfg("reno").iw(3));
    assert_eq!(t.send_all(0), new(0..3));
    assert_eq!(t.ack(100, 0), new([3]));
    assert_eq!(t.ack(101, 0), new([4]));
    assert_eq!(t.ack(102, 0), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.ssthresh(), 2.0);
    assert_eq!(t.cwnd(), 2.0);
}

#[test]
fn fast_retransmit_restarts_the_timer_without_backoff() {
    let mut t = Script::new(cfg("reno").iw(8));
    t.send_all(0);
    assert_eq!(t.deadline_ms(), Some(3000), "initial RTO 3 s (ns-2.35 rtxcur_init_)");
    t.dupacks(400, 0, 3);
    assert_eq!(t.deadline_ms(), Some(3400));
    assert_eq!(t.tcp.core().rtt().backoff(), 1);
    // Further dupACKs do not touch the timer.
    t.dupacks(500, 0, 4);
    assert_eq!(t.deadline_ms(), Some(3400));
}

// ---------------------------------------------------------------- NewReno

#[test]
fn newreno_partial_ack_retransmits_the_next_hole_and_deflates() {
    let mut t = Script::new(cfg("newreno").iw(8));
    assert_eq!(t.send_all(0), new(0..8));
    // Segments 0 and 3 are lost.
    assert_eq!(t.ack(100, 0), new([8])); // from 1
    assert_eq!(t.ack(100, 0), new([9])); // from 2
    assert_eq!(t.ack(100, 0), vec![tx(0, FastRetransmit)]); // from 4
    assert_eq!((t.cwnd(), t.ssthresh()), (4.0, 4.0));
    assert_eq!(t.dupacks(100, 0, 3), none()); // 5, 6, 7: window 4 + 6 = 10
    assert_eq!(t.ack(100, 0), new([10])); // 8
    assert_eq!(t.ack(100, 0), new([11])); // 9
                                          // Partial ACK (0..2 arrived, recover = 10): retransmit 3 at once; the window deflates by
                                          // the 3 segments acknowledged minus one, so one new segment may follow.
    assert_eq!(t.ack(200, 3), vec![tx(3, Recovery), tx(12, vhsim_tcp::TxCause::New)]);
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.ack(200, 3), new([13])); // 10
    assert_eq!(t.ack(200, 3), new([14])); // 11
                                          // Full ACK (covers recover): leave recovery at ssthresh, then open by 1/cwnd.
    assert_eq!(t.ack(300, 12), new([15]));
    assert_close(t.cwnd(), 4.25);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    let s = t.tcp.stats();
    assert_eq!((s.fast_retransmits, s.retransmissions, s.rto_count), (1, 2, 0));
}

#[test]
fn newreno_partial_ack_larger_than_the_inflation_takes_the_rest_from_cwnd() {
    // RFC 6582 §3.2 step 3 / ns-2 partialnewack: deflate by the amount acknowledged, add back
    // one segment. With only 5 dupACKs of inflation and 6 segments acknowledged, cwnd itself
    // shrinks by one.
    let mut t = Script::with_app_limit(cfg("newreno").iw(8), 8);
    assert_eq!(t.send_all(0), new(0..8));
    // 0, 6 and 7 are lost; 1..5 bring five dupACKs.
    assert_eq!(t.dupacks(100, 0, 2), none(), "application-limited: nothing for limited transmit");
    assert_eq!(t.ack(100, 0), vec![tx(0, FastRetransmit)]);
    t.dupacks(100, 0, 2);
    assert_eq!(t.ack(200, 6), vec![tx(6, Recovery)]);
    assert_eq!(t.cwnd(), 3.0);
    t.tcp.set_app_limit(20);
    // Effective window is cwnd 3 + 1 from snd_una 6: segments 6..9 may be out.
    assert_eq!(t.send_all(200), new([8, 9]));
}

#[test]
fn newreno_blocks_a_second_fast_retransmit_until_recover_is_passed() {
    // ns-2 bugFix_ / RFC 6582 §3.2 step 1: dupACKs that do not cover `recover` after a full
    // ACK do not start another recovery.
    let mut t = Script::new(cfg("newreno").iw(4).limited_transmit(false));
    t.send_all(0);
    t.dupacks(100, 0, 3);
    assert_eq!(t.tcp.core().recover(), Some(4));
    // Inflation sent segment 4 during recovery; the full ACK exactly at recover leaves
    // cwnd = 2 + 1/2, so segment 5 follows.
    assert_eq!(t.ack(200, 4), new([5]));
    // Segment 4 is lost too: its dupACKs carry ack = 4 = recover, not above it.
    assert_eq!(t.dupacks(300, 4, 3), none());
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!(t.tcp.ca_state(), CaState::Disorder);
}

// ---------------------------------------------------------------- ns-2 Sack1

#[test]
fn sack1_sends_while_pipe_is_below_cwnd_and_keeps_cwnd_halved_on_exit() {
    let mut t = Script::with_sink(cfg("sack").iw(8), sink_cfg("sack"));
    assert_eq!(t.send_all(0), new(0..8));
    // Segment 0 is lost.
    assert_eq!(t.arrive(100, 1), new([8]));
    assert_eq!(t.arrive(100, 2), new([9]));
    assert_eq!(t.arrive(100, 3), vec![tx(0, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (4.0, 4.0));
    // pipe = 10 outstanding - 3 = 7; each ACK takes one: 6, 5, 4, then 3 < cwnd 4.
    assert_eq!(t.arrive_all(100, [4, 5, 6]), none());
    assert_eq!(t.arrive(100, 7), new([10]));
    assert_eq!(t.arrive(100, 8), new([11]));
    assert_eq!(t.arrive(100, 9), new([12]));
    // The retransmission arrives: recovery ends, cwnd stays at ssthresh (no opencwnd).
    assert_eq!(t.arrive(200, 0), new([13]));
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
}

#[test]
fn sack1_retransmits_holes_before_new_data() {
    let mut t = Script::with_sink(cfg("sack").iw(8), sink_cfg("sack"));
    t.send_all(0);
    // Segments 0 and 2 are lost.
    assert_eq!(t.arrive(100, 1), new([8]));
    assert_eq!(t.arrive(100, 3), new([9]));
    assert_eq!(t.arrive(100, 4), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.arrive_all(100, [5, 6, 7]), none());
    assert_eq!(t.arrive(100, 8), vec![tx(2, Recovery)], "the hole below the highest SACK first");
    assert_eq!(t.arrive(100, 9), new([10]), "no hole left that was not retransmitted");
    // Partial ACK: pipe -= 2 (ACK + partial), so two segments go out.
    assert_eq!(t.arrive(200, 0), new([11, 12]));
    assert_eq!(t.arrive(200, 2), new([13]), "full ACK ends recovery; cwnd 4 with 11, 12 out");
    assert_eq!(t.tcp.stats().retransmissions, 2);
}

#[test]
fn sack1_partial_ack_restarts_the_timer_and_resets_backoff() {
    let mut t = Script::new(cfg("sack").iw(8));
    t.send_all(0);
    t.ack_sack(100, 0, &[(1, 2)]);
    t.ack_sack(100, 0, &[(1, 3)]);
    t.ack_sack(100, 0, &[(4, 5), (1, 3)]);
    assert_eq!(t.deadline_ms(), Some(3100));
    t.ack_sack(250, 3, &[(4, 5)]);
    assert_eq!(t.deadline_ms(), Some(3250));
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
}

#[test]
fn sack1_retransmits_each_hole_once_so_a_lost_retransmission_needs_a_timeout() {
    let mut t = Script::with_sink(cfg("sack").iw(8), sink_cfg("sack"));
    t.send_all(0);
    assert_eq!(t.arrive_all(100, [1, 2]), new([8, 9]));
    assert_eq!(t.arrive(100, 3), vec![tx(0, FastRetransmit)]); // this copy is lost too
    assert_eq!(t.arrive_all(100, [4, 5, 6]), none());
    assert_eq!(t.arrive(100, 7), new([10]));
    // Every later segment is SACKed; 0 is never retransmitted a second time, new data keeps
    // the pipe full until window_ (20 from snd_una 0) stops it.
    for seq in 8..20 {
        let want = if seq + 3 < 20 { new([seq + 3]) } else { none() };
        assert_eq!(t.arrive(200 + seq, seq), want, "arrival of {seq}");
    }
    assert_eq!(t.tcp.stats().retransmissions, 1);
    assert_eq!(t.tcp.ca_state(), CaState::Recovery);
    // DupACKs never restarted the timer set at the fast retransmit.
    assert_eq!(t.fire_timer(3100), vec![tx(0, vhsim_tcp::TxCause::Rto)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (1.0, 2.0));
    assert_eq!(t.arrive(3200, 0), new([20, 21]));
}

// ---------------------------------------------------------------- RFC 6675

#[test]
fn rfc6675_halves_flight_size_without_the_limited_transmit_segments() {
    // RFC 6675 §5 (4.2) with RFC 5681 §3.2 step 2: ssthresh = cwnd = FlightSize / 2, where
    // segments sent by limited transmit are not counted.
    let mut t = Script::with_sink(cfg("sack-rfc6675").iw(8), sink_cfg("sack-rfc6675"));
    assert_eq!(t.send_all(0), new(0..8));
    assert_eq!(t.arrive(100, 1), new([8]));
    assert_eq!(t.arrive(100, 2), new([9]));
    assert_eq!(t.arrive(100, 3), vec![tx(0, FastRetransmit)]);
    assert_eq!((t.cwnd(), t.ssthresh()), (4.0, 4.0), "FlightSize 10 minus 2 sent by limited transmit");
    // SetPipe: 0 is lost but retransmitted (1) + 4..9 unSACKed, not lost (6) = 7.
    assert_eq!(t.arrive_all(100, [4, 5, 6]), none());
    assert_eq!(t.arrive(100, 7), new([10]), "pipe 3: NextSeg rule 2, new data");
    assert_eq!(t.arrive(100, 8), new([11]));
    assert_eq!(t.arrive(100, 9), new([12]));
    assert_eq!(t.arrive(200, 0), new([13]));
    assert_eq!(t.cwnd(), 4.0);
    assert_eq!(t.tcp.ca_state(), CaState::Open);
}

#[test]
fn rfc6675_enters_recovery_when_islost_before_three_dupacks() {
    // RFC 6675 §5 step (2): one ACK SACKing three segments above HighACK (the ACKs for 1 and 2
    // were lost) makes IsLost(HighACK + 1) true.
    let mut t = Script::new(cfg("sack-rfc6675").iw(8));
    t.send_all(0);
    assert_eq!(t.ack_sack(100, 0, &[(1, 4)]), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!((t.cwnd(), t.ssthresh()), (4.0, 4.0), "FlightSize 8 / 2");
}

#[test]
fn rfc6675_retransmits_a_hole_once_it_is_lost_then_sends_new_data() {
    let mut t = Script::new(cfg("sack-rfc6675").iw(10));
    assert_eq!(t.send_all(0), new(0..10));
    // 0 and 5 lost; SACKs for 1-4, then for 6-9 and the limited-transmit segments.
    assert_eq!(t.ack_sack(100, 0, &[(1, 2)]), new([10]));
    assert_eq!(t.ack_sack(100, 0, &[(1, 3)]), new([11]));
    assert_eq!(t.ack_sack(100, 0, &[(1, 4)]), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.cwnd(), 5.0, "(12 outstanding - 2 limited transmit) / 2");
    // SetPipe: 0 lost + retransmitted = 1, 4..11 = 8 -> 9.
    assert_eq!(t.ack_sack(100, 0, &[(1, 5)]), none());
    assert_eq!(t.ack_sack(100, 0, &[(6, 7), (1, 5)]), none());
    assert_eq!(t.ack_sack(100, 0, &[(6, 8), (1, 5)]), none(), "pipe 6: 5 is not lost yet");
    // Three SACKed segments above 5: IsLost(5); pipe = 1 + 9, 10, 11 = 4 -> rule (1).
    assert_eq!(t.ack_sack(100, 0, &[(6, 9), (1, 5)]), vec![tx(5, Recovery)]);
    // pipe = 1 + 1 + 10, 11 = 4: no lost hole left above HighRxt -> rule (2), new data.
    assert_eq!(t.ack_sack(100, 0, &[(6, 10), (1, 5)]), new([12]));
    // Partial ACK: pipe = 5 (lost, retransmitted) 1 + 11, 12 = 3, room for two.
    assert_eq!(t.ack_sack(200, 5, &[(6, 11)]), new([13, 14]));
    assert_eq!(t.ack(200, 12), new([15, 16]), "RecoveryPoint 12 reached, cwnd 5");
    assert_eq!(t.tcp.ca_state(), CaState::Open);
    assert_eq!(t.cwnd(), 5.0);
}

#[test]
fn rfc6675_retransmits_an_unlost_hole_and_one_rescue_when_no_new_data_exists() {
    let mut t = Script::with_app_limit(cfg("sack-rfc6675").iw(10), 10);
    assert_eq!(t.send_all(0), new(0..10));
    assert_eq!(t.ack_sack(100, 0, &[(1, 2)]), none(), "no data for limited transmit");
    assert_eq!(t.ack_sack(100, 0, &[(1, 3)]), none());
    assert_eq!(t.ack_sack(100, 0, &[(1, 4)]), vec![tx(0, FastRetransmit)]);
    assert_eq!(t.cwnd(), 5.0);
    assert_eq!(t.ack_sack(100, 0, &[(1, 5)]), none());
    assert_eq!(t.ack_sack(100, 0, &[(6, 7), (1, 5)]), none());
    // pipe = 1 + 5 + 8, 9 = 4; 5 is not lost, there is no new data: rule (3) resends it.
    assert_eq!(t.ack_sack(100, 0, &[(6, 8), (1, 5)]), vec![tx(5, Recovery)]);
    // pipe = 0 (1) + 5 (1) + 9 (1) = 3: rules (1)-(3) find nothing, rule (4) sends one rescue
    // retransmission of the highest unSACKed segment, once per recovery.
    assert_eq!(t.ack_sack(100, 0, &[(6, 9), (1, 5)]), vec![tx(9, Recovery)]);
    // The rescue does not move HighRxt, so SetPipe counts 9 once: pipe stays 3 and the
    // application's new data gets two segments.
    t.tcp.set_app_limit(100);
    assert_eq!(t.send_all(100), new([10, 11]));
}
