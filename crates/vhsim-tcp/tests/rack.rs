//! RACK-TLP (RFC 8985) as scripted exchanges: losses marked by time with the reordering window
//! (min_RTT/4; none while DupThresh segments are SACKed and no reordering was seen), the
//! reordering timer, reordering and D-SACK growing the window, the tail loss probe at the PTO
//! and the ACK of the probe, a lost retransmission, and the sink's D-SACK.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::detect::rack::Rack;
use vhsim_tcp::TxCause::{FastRetransmit, New, Recovery};
use vhsim_tcp::{TcpConfig, Timer};

/// The `rack` preset with exact RTT samples, a 1 s minimum RTO (so the PTO comes first) and no
/// window cap.
fn rack_cfg(iw: u32) -> TcpConfig {
    cfg("rack")
        .iw(iw)
        .window(1000)
        .set("clock_granularity = \"0s\"\nrtt_timing = \"every_ack\"\nmin_rto = \"1s\"")
}

fn rack(t: &Script) -> &Rack {
    t.tcp.loss_detection().rack().expect("RACK")
}

/// Ten segments at t = 0; 0-2 acknowledged at 100 ms, 3 lost, 4, 5, 6 SACKed at 101-103 ms:
/// what the sender sends on the third SACK.
fn three_sacks_above_a_hole(t: &mut Script) -> Vec<vhsim_tcp::Transmit> {
    t.send_all(0);
    for k in 1..=3 {
        t.ack(100, k);
    }
    t.ack_sack(101, 3, &[(4, 5)]);
    t.ack_sack(102, 3, &[(4, 6)]);
    t.ack_sack(103, 3, &[(4, 7)])
}

#[test]
fn a_hole_is_lost_once_a_later_segment_was_delivered_rtt_plus_reo_wnd_ago() {
    // Ten segments at t = 0 (send-time ties broken by sequence, RACK_sent_after). 0-2 are
    // acknowledged at 100 ms (RTT samples 100 ms: min_RTT = 100 ms), 3 is lost, 4 is SACKed at
    // 101 ms. RACK's segment is 4 (sent at 0, RACK.rtt = 101 ms); segment 3 was sent before it
    // and is due at 0 + 101 + reo_wnd, reo_wnd = min_RTT/4 = 25 ms (one segment SACKed, below
    // DupThresh): the reordering timer is armed for 126 ms.
    let mut t = Script::new(rack_cfg(10));
    assert_eq!(t.send_all(0), new(0..10));
    t.ack(100, 1);
    t.ack(100, 2);
    t.ack(100, 3);
    assert!(t.ack_sack(101, 3, &[(4, 5)]).iter().all(|x| x.cause == New)); // limited transmit
    assert_eq!(rack(&t).reo_wnd(), SimDuration::from_millis(25));
    assert_eq!(rack(&t).rack_rtt(), SimDuration::from_millis(101));
    assert_eq!(t.tcp.timer(Timer::Loss), Some(ms(126)));
    assert_eq!(rack(&t).marked_lost(), 0);
    // 5 is SACKed at 110 ms: RACK.rtt becomes 110 ms (5 was sent at 0 too), so 3 is due at
    // 0 + 110 + 25 = 135 ms; nothing is lost yet.
    t.ack_sack(110, 3, &[(4, 6)]);
    assert_eq!(rack(&t).marked_lost(), 0);
    assert_eq!(t.tcp.timer(Timer::Loss), Some(ms(135)));
    // At 135 ms the timer fires: 3 is lost, fast recovery retransmits it (PRR).
    let sent = t.fire_timer(135);
    assert_eq!(sent.first(), Some(&tx(3, FastRetransmit)), "{sent:?}");
    assert_eq!((rack(&t).marked_lost(), rack(&t).reorder_timeouts()), (1, 1));
    assert!(t.tcp.core().in_recovery());
    // The engagement counters say the same (docs/schemes.md "Engagement counters"); PRR
    // entered one episode, TLP sent no probe.
    let names = ["rack_marked_lost", "rack_reorder_timeouts", "rack_reo_wnd_raises", "tlp_probes"];
    assert_eq!(engaged(&t.tcp, &names), [1, 1, 0, 0]);
    assert_eq!(engaged(&t.tcp, &["prr_episodes"]), [1]);
}

#[test]
fn with_dupthresh_segments_sacked_and_no_reordering_seen_the_loss_is_immediate() {
    // RFC 8985 §6.2 step 4: reo_wnd = 0 once DupThresh (3) segments are SACKed and no
    // reordering was seen: the third SACK marks segment 3 at once.
    let mut t = Script::new(rack_cfg(10));
    let sent = three_sacks_above_a_hole(&mut t);
    assert_eq!(sent.first(), Some(&tx(3, FastRetransmit)), "{sent:?}");
    assert_eq!(rack(&t).reo_wnd(), SimDuration::ZERO);
}

#[test]
fn a_swap_with_the_next_segment_is_reordering_not_loss() {
    // The 3G model's "swap with the next packet": 4 arrives before 3, then 3 right after. The
    // SACK of 4 arms the timer (25 ms); the ACK that covers 3 comes 1 ms later: nothing is
    // retransmitted, the timer is gone, and RACK has seen reordering (3 was delivered below
    // RACK.fack = 5 without a retransmission), so later holes wait min_RTT/4 even with three
    // segments SACKed.
    let mut t = Script::new(rack_cfg(10));
    t.send_all(0);
    t.ack(100, 1);
    t.ack(100, 2);
    t.ack(100, 3);
    t.ack_sack(101, 3, &[(4, 5)]);
    assert!(t.tcp.timer(Timer::Loss).is_some());
    t.ack(102, 5);
    assert!(rack(&t).reordering_seen());
    assert!(t.log.iter().all(|(_, x)| x.cause == New));
    assert_ne!(t.tcp.timer(Timer::Loss), Some(ms(126)), "the reordering timer was cleared");
    // Now 5 is lost and 6, 7, 8 are SACKed: the window is min_RTT/4, not 0.
    t.ack_sack(103, 5, &[(6, 7)]);
    t.ack_sack(104, 5, &[(6, 8)]);
    let sent = t.ack_sack(105, 5, &[(6, 9)]);
    assert!(sent.iter().all(|x| x.cause == New), "{sent:?}");
    assert_eq!(rack(&t).reo_wnd(), SimDuration::from_millis(25));
}

#[test]
fn a_dsack_for_a_spurious_retransmission_widens_the_window_by_a_quarter_rtt() {
    // A real sink with D-SACK. 3 is delayed: 4, 5, 6 arrive first (three SACKed, no reordering
    // seen yet: reo_wnd 0), so 3 is deemed lost and retransmitted at once; then the original 3
    // arrives, then its retransmission, which the sink reports as a D-SACK (RFC 2883): RACK's
    // reo_wnd_mult becomes 2 and reo_wnd = 2 · min_RTT/4 = 50 ms (RFC 8985 §6.2 step 4).
    let mut t = Script::with_sink(rack_cfg(10), sink_cfg("rack"));
    t.send_all(0);
    t.arrive_all(100, 0..3);
    t.arrive_all(101, 4..6);
    let sent = t.arrive(102, 6);
    assert_eq!(sent.first(), Some(&tx(3, FastRetransmit)), "{sent:?}");
    t.arrive(103, 3); // the original: cumulative ACK 7
    assert_eq!(rack(&t).reo_wnd_mult(), 1);
    t.arrive(202, 3); // the retransmission: a duplicate, reported by a D-SACK
    assert_eq!(rack(&t).dsacks(), 1);
    assert_eq!(rack(&t).reo_wnd_mult(), 2);
    assert_eq!(engaged(&t.tcp, &["rack_reo_wnd_raises"]), [1]);
    assert_eq!(sink_engaged(t.sink.as_ref().unwrap(), &["dsacks_sent"]), [1]);
    // Once recovery is over (everything sent arrives), the window is 2 · 100/4 = 50 ms.
    let high = t.tcp.snd_max();
    t.arrive_all(203, 7..high);
    assert!(!t.tcp.core().in_recovery());
    assert_eq!(rack(&t).reo_wnd(), SimDuration::from_millis(50));
}

#[test]
fn the_tail_loss_probe_fires_at_two_srtt_and_retransmits_the_last_segment() {
    // Ten segments, nothing more to send; 8 and 9 (the tail) are lost. The ACK of 7 at 100 ms
    // leaves SRTT = 100 ms: PTO = 2·SRTT = 200 ms (two segments in flight: no max_ack_delay),
    // well before the RTO (1 s). At 300 ms the probe retransmits the highest segment sent, 9.
    let mut t = Script::with_app_limit(rack_cfg(10), 10);
    t.send_all(0);
    for k in 1..=8 {
        t.ack(100, k);
    }
    assert_eq!(t.tcp.core().rtt().srtt(), Some(SimDuration::from_millis(100)));
    assert_eq!(t.tcp.timer(Timer::Loss), Some(ms(300)));
    assert_eq!(t.tcp.timer(Timer::Rto), Some(ms(1100)));
    let sent = t.fire_timer(300);
    assert_eq!(sent, [tx(9, Recovery)]);
    assert_eq!(rack(&t).tlp_probes(), 1);
    // The RTO is re-armed from the probe (RFC 8985 §7.3).
    assert_eq!(t.tcp.timer(Timer::Rto), Some(ms(1300)));
    // The probe's ACK SACKs 9: RACK now sees 8 (sent before 9's retransmission) as lost and
    // fast recovery retransmits it -- no timeout (§7.4.1).
    let sent = t.ack_sack(400, 8, &[(9, 10)]);
    assert_eq!(sent, [tx(8, FastRetransmit)]);
    assert_eq!(t.tcp.stats().rto_count, 0);
    assert_eq!(engaged(&t.tcp, &["tlp_probes", "tlp_repairs", "rack_marked_lost"]), [1, 0, 1]);
}

#[test]
fn with_one_segment_in_flight_the_pto_waits_for_a_delayed_ack_too() {
    // PTO = 2·SRTT + TLP.max_ack_delay (200 ms) when one segment is outstanding (§7.2).
    let mut t = Script::with_app_limit(rack_cfg(2), 2);
    t.send_all(0);
    t.ack(100, 1);
    assert_eq!(t.tcp.timer(Timer::Loss), Some(ms(100 + 200 + 200)));
}

#[test]
fn the_probe_sends_new_data_when_there_is_some() {
    // With data left and the receive window open, the probe is the next new segment (§7.3),
    // sent beyond cwnd; its ACK ends the episode without a window reduction (§7.4).
    let mut t = Script::new(rack_cfg(4));
    assert_eq!(t.send_all(0), new(0..4));
    t.ack(100, 1); // 4, 5 go out (cwnd 5)
    let pto = t.tcp.timer(Timer::Loss).unwrap();
    let cwnd = t.cwnd();
    // No more ACKs: at the PTO the probe is new segment 6.
    let sent = t.fire_timer((pto.0 / 1_000_000) as u64);
    assert_eq!(sent, new([6]));
    t.ack(400, 7);
    assert!(t.cwnd() >= cwnd, "no reduction for a probe of new data");
}

#[test]
fn a_lost_retransmission_is_detected_without_a_timeout() {
    // 3 is lost, retransmitted at 103 ms (fast recovery), and the retransmission is lost too.
    // Segments sent after 103 ms that are SACKed later make RACK mark 3 again once 103 ms +
    // RACK.rtt + reo_wnd has passed (RFC 8985 §3.3.3): a second retransmission, no RTO.
    let mut t = Script::new(rack_cfg(10));
    let sent = three_sacks_above_a_hole(&mut t);
    assert_eq!(sent.first(), Some(&tx(3, FastRetransmit)));
    // SACKs of 7, 8, 9 and of the new data sent during recovery.
    let mut last = 0;
    for (k, at) in (7..10).zip(104..) {
        t.ack_sack(at, 3, &[(4, k + 1)]);
        last = at;
    }
    let new_sent: Vec<u64> =
        t.log.iter().filter(|(s, x)| x.cause == New && s.0 > 103_000_000).map(|(_, x)| x.seq).collect();
    assert!(!new_sent.is_empty());
    let first_new = new_sent[0];
    let sent = t.ack_sack(last + 101, 3, &[(4, first_new + 1)]);
    assert!(sent.contains(&tx(3, Recovery)), "{sent:?}");
    assert_eq!(t.tcp.stats().rto_count, 0);
    assert_eq!(t.log.iter().filter(|(_, x)| x.seq == 3).count(), 3);
}

#[test]
fn a_probe_that_repaired_a_loss_reduces_the_window_once_later_data_is_acknowledged() {
    // Segment 9 (the tail) is lost; the probe retransmits it (TLP.end_seq = 10). Its ACK (10)
    // ends nothing yet (§7.4: a repair shows as an ACK beyond TLP.end_seq); new data written
    // later is acknowledged beyond 10: the probe repaired a loss, and the window law reduces
    // the window as for one (§7.4.2): Reno halves the window in effect.
    let mut t = Script::with_app_limit(rack_cfg(10), 10);
    t.send_all(0);
    for k in 1..=9 {
        t.ack(100, k);
    }
    assert_close(t.cwnd(), 19.0);
    // One segment in flight: PTO = 2·100 ms + 200 ms.
    let (at, probe) = t.fire_due_timer();
    assert_eq!((at, probe), (500, vec![tx(9, Recovery)]));
    t.ack(600, 10);
    assert_eq!(rack(&t).tlp_repairs(), 0);
    let cwnd = t.cwnd();
    t.tcp.set_app_limit(11);
    assert_eq!(t.send_all(601), new([10]));
    t.ack(700, 11);
    assert_eq!(rack(&t).tlp_repairs(), 1);
    assert_eq!(engaged(&t.tcp, &["tlp_probes", "tlp_repairs"]), [1, 1]);
    // This ACK first grew cwnd by one (slow start), then the reduction halved that window.
    let halved = ((cwnd + 1.0).floor() / 2.0).floor();
    assert_close(t.ssthresh(), halved);
    assert_close(t.cwnd(), halved);
}

#[test]
fn a_dsack_for_the_probe_says_nothing_was_lost() {
    // The tail segment was only late: the original and the probe both arrive, the sink
    // reports the second copy by a D-SACK matching TLP.end_seq: no reduction (§7.4).
    let mut t = Script::with_sink(rack_cfg(10), sink_cfg("rack"));
    t.tcp.set_app_limit(10);
    t.send_all(0);
    t.arrive_all(100, 0..9);
    let (at, probe) = t.fire_due_timer();
    assert_eq!(probe, [tx(9, Recovery)]);
    t.arrive(at + 10, 9); // the original, late
    let ssthresh = t.ssthresh();
    t.arrive(at + 100, 9); // the probe: a D-SACK
    t.tcp.set_app_limit(11);
    t.send_all(at + 101);
    t.arrive(at + 200, 10);
    assert_eq!((rack(&t).dsacks(), rack(&t).tlp_repairs()), (1, 0));
    assert_eq!(t.ssthresh(), ssthresh);
}
