//! Daniel & Kojo's cross-layer algorithms A1-A5 (docs/references.md §11), scripted: the worked
//! values of the paper (§5.2: minrto 552 ms, 1220 ms, 2.12 s; §5.3: FlightSize 39 vs BDP 11).

mod common;

use common::*;
use vhsim_core::{Rate, SimDuration};
use vhsim_tcp::{AccessLinkInfo, HandoverNotice, TcpConfig, TxCause};

/// The `enhanced` preset with 1500-byte packets (1460 B payload + 40 B headers), 40-byte ACKs,
/// no window cap, no limited transmit, initial window `iw`.
fn enhanced(iw: u32) -> TcpConfig {
    let mut c = cfg("enhanced").iw(iw).window(1000).ssthresh(1000).limited_transmit(false);
    c.segment_size = 1460;
    c
}

fn link(kbps: u64, delay_ms: u64) -> AccessLinkInfo {
    AccessLinkInfo { bandwidth: Rate::kbps(kbps), delay: SimDuration::from_millis(delay_ms) }
}

fn notify(s: &mut Script, at_ms: u64, old: AccessLinkInfo, new: AccessLinkInfo) -> Vec<vhsim_tcp::Transmit> {
    let now = ms(at_ms);
    s.tcp.on_handover_notice(now, &HandoverNotice { old, new });
    s.send_all(at_ms)
}

fn minrto_ns(s: &Script) -> u64 {
    s.tcp.core().rtt().min_rto().as_nanos()
}

/// Send `iw` segments at 0, then ACK segment 0 at `rtt_ms` (one RTT sample): `iw + 1` segments
/// are then in flight (1..=iw+1) with cwnd iw + 1.
fn in_flight(iw: u32, rtt_ms: u64) -> Script {
    let mut s = Script::new(enhanced(iw));
    assert_eq!(s.send_all(0).len(), iw as usize);
    s.ack(rtt_ms, 1);
    assert_eq!(s.outstanding(), iw as u64 + 1);
    s
}

#[test]
fn a1_case1_sets_minrto_from_rtt_old_newlink_and_restarts_the_timer_at_once() {
    // 6400 kb/s, 9 ms -> 200 kb/s, 300 ms with 21 segments in flight (Figure 8).
    let mut s = in_flight(20, 45); // sample 40 ms (4 ticks): RTO 200 ms (min) < RTT_old_newlink
    assert_eq!(s.tcp.core().rtt().rto(), dur_ms(200));
    notify(&mut s, 50, link(6400, 9), link(200, 300));
    // RTT_old_newlink = 9 + 1.875 + 300 + 1.6 = 312.475 ms; FlightSize/BW_old = 21 x 12000 b /
    // 6.4 Mb/s = 39.375 ms; + 200 ms = 551.85 ms (the paper: 552 ms).
    assert_eq!(minrto_ns(&s), 551_850_000);
    assert_eq!(s.tcp.next_timeout(), Some(ms(50) + SimDuration(551_850_000)));
    // One counter per enabled algorithm (A5 is off in `enhanced`): A1 acted; A2 did not cut
    // (21 in flight < 2 x BDP_newlink = 22.05); A3 and A4 did not act.
    let mut e = vhsim_net::Engagement::new();
    s.tcp.engagement(&mut e);
    assert!(!e.contains_key("a5_activations"), "{e:?}");
    let names = ["a1_activations", "a2_activations", "a3_activations", "a4_activations"];
    assert_eq!(engaged(&s.tcp, &names), [1, 0, 0, 0]);
}

#[test]
fn a1_case2_in_fast_recovery_uses_rtt_newlink_and_the_old_bandwidth() {
    // 800 kb/s, 75 ms -> 200 kb/s, 300 ms with 24 segments in flight, in fast recovery (Fig. 9).
    let mut s = in_flight(23, 450); // sample 450 ms: RTO 1350 ms > RTT_old_newlink (391.6 ms)
    s.ack_sack(460, 1, &[(2, 3)]);
    s.ack_sack(460, 1, &[(2, 4)]);
    let fr = s.ack_sack(460, 1, &[(2, 5)]);
    assert_eq!(fr[0].seq, 1, "fast retransmit");
    assert_eq!(s.outstanding(), 24);
    notify(&mut s, 470, link(800, 75), link(200, 300));
    // RTT_newlink = 600 + 60 + 1.6 = 661.6 ms; 24 x 12000 b / 800 kb/s = 360 ms; + 200 ms =
    // 1221.6 ms (the paper: 1220 ms).
    assert_eq!(minrto_ns(&s), 1_221_600_000);
    let rto = s.tcp.core().rtt().rto();
    assert_eq!(rto, SimDuration::from_millis(1350), "RTO = max(current, new minrto)");
    assert_eq!(s.tcp.next_timeout(), Some(ms(470) + rto));
}

#[test]
fn a1_case3_on_fast_recovery_before_pre_handoff_data_is_acked_uses_the_new_bandwidth() {
    // 400 kb/s, 150 ms -> 200 kb/s, 300 ms; fast retransmit with 21 in flight (Figure 10).
    let mut s = in_flight(20, 450);
    notify(&mut s, 460, link(400, 150), link(200, 300));
    assert_eq!(minrto_ns(&s), 200_000_000, "neither Case 1 (481.6 ms < RTO 1350 ms) nor Case 2");
    s.ack_sack(700, 1, &[(2, 3)]);
    s.ack_sack(700, 1, &[(2, 4)]);
    s.ack_sack(700, 1, &[(2, 5)]);
    // 661.6 ms + 21 x 12000 b / 200 kb/s (1260 ms) + 200 ms = 2121.6 ms (the paper: 2.12 s).
    assert_eq!(minrto_ns(&s), 2_121_600_000);
    assert_eq!(s.tcp.next_timeout(), Some(ms(700) + SimDuration(2_121_600_000)));
}

#[test]
fn a1_restores_minrto_and_restarts_the_rtt_estimate_once_pre_handoff_data_is_acked() {
    let mut s = in_flight(20, 45);
    notify(&mut s, 50, link(6400, 9), link(200, 300));
    assert_eq!(minrto_ns(&s), 551_850_000);
    // All 22 segments sent before the notification (0..=21) are acknowledged.
    s.ack(400, 22);
    assert_eq!(minrto_ns(&s), 200_000_000, "minrto restored");
    assert_eq!(s.tcp.core().rtt().srtt(), None, "RTT variables restarted as for a new connection");
    assert_eq!(s.tcp.core().rtt().rto(), SimDuration::from_secs(3), "RFC 2988 initial RTO (A13)");
    // The next ACK of new data gives the first sample: segment 22 went out on the ACK at
    // 400 ms; its ACK at 1100 ms gives 700 ms.
    s.ack(1100, 23);
    assert_eq!(s.tcp.core().rtt().srtt(), Some(SimDuration::from_millis(700)));
}

#[test]
fn a2_cuts_cwnd_and_ssthresh_to_the_new_bdp_only_when_flight_exceeds_twice_it_and_only_once() {
    // 1600 kb/s, 75 ms -> 400 kb/s, 150 ms with 39 in flight (Figure 12): BDP_newlink =
    // 400 kb/s x (300 + 30 + 0.8 ms) / 12000 b = 11.03 packets; 39 > 22.05.
    let mut s = in_flight(38, 160);
    assert_eq!(s.outstanding(), 39);
    notify(&mut s, 170, link(1600, 75), link(400, 150));
    assert_close(s.cwnd(), 11.0);
    assert_close(s.ssthresh(), 11.0);
    // A pre-handoff loss recovered by fast retransmit does not cut them again.
    s.ack_sack(400, 1, &[(2, 3)]);
    s.ack_sack(400, 1, &[(2, 4)]);
    let fr = s.ack_sack(400, 1, &[(2, 5)]);
    assert_eq!(fr[0].seq, 1);
    assert_close(s.cwnd(), 11.0);
    assert_close(s.ssthresh(), 11.0);
    assert_eq!(engaged(&s.tcp, &["a2_activations"]), [1]);

    // 22 in flight (< 22.05): no cut.
    let mut s = in_flight(21, 160);
    let before = s.cwnd();
    notify(&mut s, 170, link(1600, 75), link(400, 150));
    assert_close(s.cwnd(), before);
    assert_eq!(engaged(&s.tcp, &["a2_activations"]), [0]);
}

#[test]
fn a3_in_rto_recovery_retransmits_at_once_and_restores_the_saved_ssthresh() {
    let mut s = in_flight(19, 45); // 20 in flight, cwnd 20, RTO 200 ms from 45 ms
    let first = s.fire_timer(245);
    assert_eq!(first[0].seq, 1);
    let saved = s.ssthresh();
    assert_close(saved, 10.0); // max(2, 20 / 2)
    s.fire_timer(645); // backed off: 400 ms; the second timeout cuts ssthresh to 2
    assert_close(s.ssthresh(), 2.0);
    // The handover completes while in RTO recovery: segment 1 goes out at once.
    let sent = notify(&mut s, 700, link(6400, 9), link(6400, 300));
    assert_eq!(sent.first().map(|t| t.seq), Some(1), "immediate retransmission");
    // It is the notification's retransmission, not a timeout's: the ground truth must not
    // count it as an RTO retransmission (a flow would report more spurious RTOs than RTOs).
    assert_eq!(sent[0].cause, TxCause::Notified);
    assert!(sent[1..].iter().all(|t| t.cause == TxCause::GoBackN), "{sent:?}");
    assert_eq!(s.tcp.stats().rto_count, 2, "no timeout counted by the notification");
    assert_close(s.ssthresh(), saved);
    // 9 ms -> 300 ms is a significant change: RTT variables restarted, and the retransmission's
    // timer runs with the restarted estimate's RTO (3 s), not the old backed-off 800 ms.
    assert_eq!(s.tcp.core().rtt().srtt(), None);
    assert_eq!(s.tcp.next_timeout(), Some(ms(700) + SimDuration::from_secs(3)));
    assert_eq!(engaged(&s.tcp, &["a3_activations"]), [1]);
}

#[test]
fn a4_restarts_the_rtt_variables_only_after_pre_handoff_data_is_acked() {
    let mut s = in_flight(20, 650); // an RTT of 650 ms on the old, slow link
    let srtt = s.tcp.core().rtt().srtt();
    assert_eq!(srtt, Some(SimDuration::from_millis(650)));
    notify(&mut s, 660, link(200, 300), link(6400, 9));
    assert_eq!(s.tcp.core().rtt().srtt(), srtt, "nothing changes before pre-handoff data is acked");
    s.ack(700, 10);
    assert_eq!(s.tcp.core().rtt().srtt(), srtt);
    assert_eq!(engaged(&s.tcp, &["a4_activations"]), [0]);
    s.ack(720, 22);
    assert_eq!(s.tcp.core().rtt().srtt(), None, "restarted once segments 0..=21 are acked");
    assert_eq!(engaged(&s.tcp, &["a4_activations"]), [1]);
    // Segment 22 went out at 700 ms (the ACK of 10 opened the window); its ACK at 760 ms is
    // the first sample of the restarted estimate.
    s.ack(760, 23);
    assert_eq!(s.tcp.core().rtt().srtt(), Some(SimDuration::from_millis(60)), "first sample from new data");
}

#[test]
fn a5_uses_one_and_a_half_bdp_when_the_bandwidth_drops_eightfold() {
    let a5 = |iw: u32, old: AccessLinkInfo| {
        let mut c = cfg("enhanced-a5").iw(iw).window(1000).ssthresh(1000).limited_transmit(false);
        c.segment_size = 1460;
        let mut s = Script::new(c);
        s.send_all(0);
        s.ack(100, 1);
        let before = s.cwnd();
        notify(&mut s, 110, old, link(200, 300));
        let mut e = vhsim_net::Engagement::new();
        s.tcp.engagement(&mut e);
        assert!(!e.contains_key("a2_activations"), "A5 replaces A2: {e:?}");
        assert_eq!(engaged(&s.tcp, &["a5_activations"]), [u64::from(s.cwnd() < before)]);
        (before, s.cwnd())
    };
    // 1600 -> 200 kb/s (8x): BDP_newlink = 200 kb/s x 661.6 ms / 12000 b = 11.03; threshold
    // 1.5 x 11.03 = 16.54, so 20 in flight is cut (A2's 22.05 would not be).
    let (_, after) = a5(19, link(1600, 37));
    assert_close(after, 11.0);
    // 800 -> 200 kb/s (4x): threshold 2 x BDP = 22.05; 20 in flight is not cut.
    let (before, after) = a5(19, link(800, 75));
    assert_close(after, before);
    // A2 itself leaves 20 in flight alone on the 8x drop.
    let mut s = in_flight(19, 100);
    let before = s.cwnd();
    notify(&mut s, 110, link(1600, 37), link(200, 300));
    assert_close(s.cwnd(), before);
}

#[test]
fn nothing_acts_without_a_notification_and_regular_tcp_ignores_notifications() {
    let mut s = in_flight(20, 45);
    assert_eq!(minrto_ns(&s), 200_000_000);
    let mut r = Script::new({
        let mut c = cfg("regular").iw(20).window(1000).limited_transmit(false);
        c.segment_size = 1460;
        c
    });
    r.send_all(0);
    r.ack(45, 1);
    let cwnd = r.cwnd();
    notify(&mut r, 50, link(6400, 9), link(200, 300));
    assert_eq!(r.tcp.core().rtt().min_rto(), SimDuration::from_millis(200));
    assert_close(r.cwnd(), cwnd);
    s.ack(100, 5);
    assert_eq!(minrto_ns(&s), 200_000_000);
}

/// The decisions the sender took since the last call.
fn decisions(s: &mut Script) -> Vec<vhsim_net::Decision> {
    std::iter::from_fn(|| s.tcp.take_decision()).collect()
}

/// The value of `name` among `vars`.
fn var(vars: &[vhsim_core::TracedVar], name: &str) -> f64 {
    vars.iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no {name} in {vars:?}")).value
}

#[test]
fn each_evaluation_of_a1_and_a2_is_recorded_as_a_decision_with_the_numbers_it_used() {
    // Figure 8's worked example: Case 1 with FlightSize 21 gives 551.85 ms.
    let mut s = in_flight(20, 45);
    notify(&mut s, 50, link(6400, 9), link(200, 300));
    let d = decisions(&mut s);
    let rules: Vec<&str> = d.iter().map(|d| d.rule).collect();
    assert_eq!(rules, ["a1_case1", "a2_no_cut"]);
    let a1 = &d[0];
    assert_eq!(var(&a1.inputs, "flight"), 21.0);
    assert_eq!(var(&a1.inputs, "old_bandwidth"), 6.4e6);
    assert_close(var(&a1.inputs, "rtt_old_newlink"), 0.312475);
    assert_close(var(&a1.inputs, "drain"), 0.039375);
    assert_close(var(&a1.inputs, "rto"), 0.2);
    assert_close(var(&a1.outputs, "minrto"), 0.55185);
    assert_close(var(&a1.outputs, "rto"), s.tcp.core().rtt().rto().as_secs_f64());
    assert!(decisions(&mut s).is_empty(), "taken once");

    // Figure 10: neither case at the notification, then Case 3 on fast recovery (2.12 s).
    let mut s = in_flight(20, 450);
    notify(&mut s, 460, link(400, 150), link(200, 300));
    assert_eq!(decisions(&mut s).iter().map(|d| d.rule).collect::<Vec<_>>(), ["a1_no_case", "a2_no_cut"]);
    s.ack_sack(700, 1, &[(2, 3)]);
    s.ack_sack(700, 1, &[(2, 4)]);
    s.ack_sack(700, 1, &[(2, 5)]);
    let d = decisions(&mut s);
    assert_eq!(d.len(), 1);
    assert_eq!((d[0].rule, var(&d[0].inputs, "flight")), ("a1_case3", 21.0));
    assert_close(var(&d[0].outputs, "minrto"), 2.1216);

    // Figure 12: A2 with FlightSize 39 > 2 x 11.03 cuts to 11; with 22 it does not.
    let mut s = in_flight(38, 160);
    notify(&mut s, 170, link(1600, 75), link(400, 150));
    let d = decisions(&mut s);
    let cut = d.iter().find(|d| d.rule == "a2_cut").expect("A2 cut");
    assert_eq!(var(&cut.inputs, "flight"), 39.0);
    assert_close(var(&cut.inputs, "bdp_newlink"), 400e3 * 0.3308 / 12000.0);
    assert_close(var(&cut.inputs, "threshold"), 2.0 * 400e3 * 0.3308 / 12000.0);
    assert_eq!((var(&cut.outputs, "cwnd"), var(&cut.outputs, "ssthresh")), (11.0, 11.0));
    let mut s = in_flight(21, 160);
    notify(&mut s, 170, link(1600, 75), link(400, 150));
    let d = decisions(&mut s);
    let no_cut = d.iter().find(|d| d.rule == "a2_no_cut").expect("A2 evaluated");
    assert_eq!(var(&no_cut.inputs, "flight"), 22.0);
    assert!(no_cut.outputs.is_empty());
}
