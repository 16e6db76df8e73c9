//! TCP Vegas (Brakmo & Peterson 1995; ns-2 tcp-vegas.cc; docs/references.md §7.2): the steady
//! state on a clean path against the hand-computed one, the per-round rule, the fine-grained
//! retransmit on the first duplicate ACK, the window cuts, bad input.

mod common;

use common::*;
use vhsim_core::SimTime;
use vhsim_tcp::TxCause::FastRetransmit;

/// Vegas's BaseRTT (s) as the window law holds it.
fn base_rtt(tcp: &vhsim_tcp::TcpSender) -> f64 {
    tcp.core().congestion_control().vegas().expect("vegas").base_rtt()
}

#[test]
fn steady_state_on_a_clean_path_is_the_bdp_plus_alpha_to_beta() {
    // Bottleneck 10 ms per segment (100 segments/s), 50 ms each way, no loss, window_ 64 so
    // only Vegas limits the window. BaseRTT = 10 + 50 + 50 = 110 ms, so BDP = 11 segments.
    // With W segments per round and W >= 11 the queue holds W - 11 and the RTT is W·10 ms.
    // At the round's last ACK ns-2 counts Expected from the segments outstanding after that
    // ACK (W − 1) and Actual from the W sent in the round: diff = (W − 1) − W·BaseRTT/RTT =
    // W − 1 − 11. Vegas grows while diff < alpha = 1 and shrinks while diff > beta = 3, so it
    // settles at 13 <= W <= 15: the BDP plus alpha..beta queued, plus the one just acknowledged.
    let mut net = Net::new(cfg("vegas").window(64), sink_cfg("vegas"), u64::MAX, 50, 10_000);
    net.start();
    net.run_until(ms(20_000));
    assert!((base_rtt(&net.tcp) - 0.110).abs() < 1e-9, "BaseRTT {}", base_rtt(&net.tcp));
    let mut seen = Vec::new();
    while net.now < ms(40_000) {
        net.step();
        seen.push(net.tcp.cwnd());
    }
    let (lo, hi) = seen.iter().fold((f64::MAX, f64::MIN), |(a, b), &w| (a.min(w), b.max(w)));
    assert!(lo >= 13.0 && hi < 16.0, "cwnd between {lo} and {hi}, expected within 13..=15 (+1/cwnd)");
    let diff = net.tcp.core().congestion_control().vegas().unwrap();
    let mut vars = Vec::new();
    vhsim_tcp::CongestionControl::traced_vars(net.tcp.core().congestion_control(), &mut vars);
    let d = vars.iter().find(|v| v.name == "vegas_diff").unwrap().value;
    assert!((1.0..=3.0).contains(&d), "diff {d} (BaseRTT {})", diff.base_rtt());
    assert_eq!(net.tcp.stats().retransmissions, 0);
    // Reno on the same path fills window_: Vegas keeps the queue at 1..3 segments instead.
    let mut reno = Net::new(cfg("reno").window(64), sink_cfg("reno"), u64::MAX, 50, 10_000);
    reno.start();
    reno.run_until(ms(40_000));
    assert!(reno.tcp.cwnd() >= 64.0, "reno cwnd {}", reno.tcp.cwnd());
}

#[test]
fn slow_start_grows_every_other_round() {
    // Scripted: iw 2, one ACK per segment, RTT 100 ms with no queue (diff 0).
    let mut t = Script::new(cfg("vegas").window(64));
    assert_eq!(t.send_all(0), new(0..2));
    // Round 1 ends with the ACK of segment 0 (rtt 100 ms; BaseRTT 100 ms; diff 0): slow start
    // flips the grow flag to "grow" (ns-2 v_inc_flag_ starts at 1, the first round clears it).
    t.ack(100, 1);
    assert_eq!(t.cwnd(), 2.0, "the first round does not grow");
    t.ack(100, 2);
    assert_eq!(t.cwnd(), 2.0);
    // Round 2 (segments 2, 3) ends with the ACK of 2: this round grows, +1 per ACK while
    // cwnd − outstanding <= 2.
    assert_eq!(seqs(&t.send_all(100)), Vec::<u64>::new());
    let sent = t.ack(200, 3);
    assert_eq!(t.cwnd(), 3.0, "{sent:?}");
    t.ack(200, 4);
    assert_eq!(t.cwnd(), 4.0);
    assert!((base_rtt(&t.tcp) - 0.100).abs() < 1e-9);
}

#[test]
fn a_duplicate_ack_retransmits_at_once_when_the_fine_grained_timer_expired() {
    // iw 4: 0..4 at 0; ACK 1 at 100 (sample 100 ms: fine timeout = (8·0.1/4 + 0.1)/2 = 150 ms).
    let mut t = Script::new(cfg("vegas").window(64).iw(4));
    assert_eq!(t.send_all(0), new(0..4));
    let sent = t.ack(100, 1);
    assert_eq!(seqs(&sent), vec![4], "cwnd 4 from snd_una 1");
    let fine = match t.tcp.loss_detection() {
        vhsim_tcp::detect::AnyLossDetection::Vegas(v) => v.timeout(),
        other => panic!("{other:?}"),
    };
    assert!((fine - 0.150).abs() < 1e-12, "fine-grained timeout {fine}");
    // A dupACK at 140 ms: segment 1 was sent at 0, 140 ms < 150 ms ago: only counted
    // (limited transmit sends one new segment).
    assert_eq!(t.ack(140, 1), new([5]));
    // The second dupACK at 160 ms: 160 ms >= 150 ms -- retransmitted at once, without waiting
    // for the third. The window was never cut since segment 1 was sent: cwnd 4 -> 4 − 4/4 = 3.
    let sent = t.ack(160, 1);
    assert_eq!(sent.first(), Some(&tx(1, FastRetransmit)), "{sent:?}");
    assert_eq!(t.tcp.stats().fast_retransmits, 1);
    assert_eq!((t.cwnd(), t.ssthresh()), (3.0, 2.0));
}

#[test]
fn window_cuts_are_three_quarters_half_for_a_lost_retransmission_and_two_for_small_windows() {
    use vhsim_tcp::{CongestionControl, CongestionEvent, Window};
    let cfg = cfg("vegas");
    let mut law = vhsim_tcp::cc::AnyCc::new(&cfg.congestion_control, &cfg);
    let ev = |window: f64, sent_ms: u64, n: u32| CongestionEvent {
        window,
        in_flight: 0,
        lost: Some((ms(sent_ms), n)),
        bandwidth: None,
        min_rtt: None,
    };
    let mut w = Window { cwnd: 12.0, ssthresh: 64.0 };
    law.on_congestion(&mut w, ms(1000), &ev(12.0, 900, 1));
    assert_eq!((w.cwnd, w.ssthresh), (9.0, 2.0), "12 − ⌊12/4⌋");
    // A second loss of a segment sent before that cut: no second cut (ns-2 t_cwnd_changed_).
    law.on_congestion(&mut w, ms(1100), &ev(9.0, 950, 1));
    assert_eq!(w.cwnd, 9.0);
    // A retransmission sent after the cut is lost: halve.
    law.on_congestion(&mut w, ms(1300), &ev(9.0, 1200, 2));
    assert_eq!(w.cwnd, 4.0, "⌊9/2⌋");
    law.on_congestion(&mut w, ms(1500), &ev(3.0, 1400, 1));
    assert_eq!(w.cwnd, 2.0, "a window of 3 or less goes to 2");
    // A timeout: ssthresh halves as Reno, cwnd = 2 (ns-2 v_slowstart_).
    let mut w = Window { cwnd: 10.0, ssthresh: 64.0 };
    law.on_rto(&mut w, ms(2000), &CongestionEvent { lost: None, ..ev(10.0, 0, 1) });
    assert_eq!((w.cwnd, w.ssthresh), (2.0, 5.0));
}

#[test]
fn alpha_greater_than_beta_is_an_error_naming_the_key() {
    let e = cfg("vegas").merged(&toml::from_str("congestion_control = { kind = \"vegas\", alpha = 4, beta = 3 }").unwrap());
    let e = e.unwrap_err().to_string();
    assert!(e.contains("congestion_control.alpha") && e.contains("greater than beta"), "{e}");
    let e = cfg("ftv2")
        .merged(&toml::from_str("congestion_control = { kind = \"ftv2\", wave_alpha = 17 }").unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("congestion_control.wave_alpha") && e.contains("wave_beta (16)"), "{e}");
}

#[test]
fn a_clean_run_never_times_out() {
    let mut net = Net::new(cfg("vegas"), sink_cfg("vegas"), 2000, 20, 1000);
    net.start();
    net.run_until(SimTime(60_000_000_000));
    assert_eq!(net.delivered, 2000);
    assert_eq!(net.tcp.stats().rto_count, 0);
}

#[test]
fn the_first_new_ack_after_a_retransmission_retransmits_an_expired_next_segment() {
    // Segments 1 and 2 are lost. As above, the 2nd dupACK at 160 ms retransmits 1 (fine
    // timeout 150 ms, then backed off ×9/8 to 168.75 ms) and makes the sender "worried" for two
    // new ACKs. The ACK of the retransmission at 260 ms finds segment 2, sent at 0, expired:
    // it is retransmitted at once, without waiting for three more dupACKs or the RTO.
    let mut t = Script::new(cfg("vegas").window(64).iw(4));
    t.send_all(0);
    assert_eq!(t.ack(100, 1), new([4]));
    assert_eq!(t.ack(140, 1), new([5]));
    assert_eq!(t.ack(160, 1).first(), Some(&tx(1, FastRetransmit)));
    let sent = t.ack(260, 2);
    assert_eq!(sent.first(), Some(&tx(2, vhsim_tcp::TxCause::Recovery)), "{sent:?}");
    assert_eq!((t.tcp.stats().fast_retransmits, t.tcp.stats().rto_count), (1, 0));
    assert_eq!(t.cwnd(), 3.0, "no second cut for the second loss");
}

#[test]
fn slow_start_ends_with_ssthresh_two_once_diff_exceeds_gamma() {
    // On the clean path of the steady-state test a queue builds in slow start; the first
    // growing round whose diff exceeds gamma = 1 sets ssthresh = 2 and cuts cwnd by 1/8 (ns-2),
    // long before window_ (64): cwnd never passes twice the BDP of 11 (+ alpha..beta).
    let mut net = Net::new(cfg("vegas").window(64), sink_cfg("vegas"), u64::MAX, 50, 10_000);
    net.start();
    let mut peak: f64 = 0.0;
    while net.now < ms(5_000) {
        net.step();
        peak = peak.max(net.tcp.cwnd());
    }
    assert_eq!(net.tcp.ssthresh(), 2.0);
    assert!(peak <= 2.0 * 11.0 + 3.0, "cwnd peaked at {peak}");
    assert_eq!(net.tcp.stats().retransmissions, 0);
}
