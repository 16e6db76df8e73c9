//! The sink: immediate and delayed ACKs (RFC 5681 §4.2, ns-2 TCPSink/DelAck), SACK blocks
//! (RFC 2018 §4, ns-2 maxSackBlocks_ 3), in-order delivery.

mod common;

use common::*;
use vhsim_tcp::{AckOut, Received, SinkConfig, TcpSink};

fn sack_sink(delayed: bool) -> TcpSink {
    let mut c: SinkConfig = sink_cfg("sack");
    c.delayed_ack = delayed;
    TcpSink::new(c)
}

fn ack(ack: u64, sack: &[(u64, u64)]) -> AckOut {
    AckOut { ack, sack: sack.to_vec(), window: u32::MAX, sig: false }
}

/// The ACK a segment triggers at once (panics if the sink holds it back).
#[track_caller]
fn immediate(s: &mut TcpSink, at_ms: u64, seq: u64) -> AckOut {
    s.on_data(ms(at_ms), seq).ack.expect("expected an immediate ACK")
}

#[test]
fn every_segment_is_acked_without_delayed_acks() {
    let mut s = sack_sink(false);
    assert_eq!(s.on_data(ms(0), 0), Received { delivered: 1, ack: Some(ack(1, &[])) });
    assert_eq!(s.on_data(ms(1), 1), Received { delivered: 1, ack: Some(ack(2, &[])) });
    assert_eq!(s.next_timeout(), None);
}

#[test]
fn delayed_acks_cover_every_second_segment() {
    let mut s = sack_sink(true);
    assert_eq!(s.on_data(ms(0), 0), Received { delivered: 1, ack: None });
    assert_eq!(s.next_timeout(), Some(ms(100)));
    assert_eq!(s.on_data(ms(10), 1), Received { delivered: 1, ack: Some(ack(2, &[])) });
    assert_eq!(s.next_timeout(), None, "the ACK cancels the delayed-ACK timer");
    assert_eq!(s.on_data(ms(20), 2).ack, None);
    assert_eq!(s.on_data(ms(30), 3).ack, Some(ack(4, &[])));
}

#[test]
fn delayed_ack_timer_fires_100_ms_after_the_first_unacknowledged_segment() {
    let mut s = sack_sink(true);
    s.on_data(ms(0), 0);
    assert_eq!(s.on_timeout(ms(99)), None, "not yet due");
    assert_eq!(s.on_timeout(ms(100)), Some(ack(1, &[])));
    assert_eq!(s.next_timeout(), None);
    assert_eq!(s.on_timeout(ms(150)), None, "nothing left to acknowledge");
    // The next segment starts a new 100 ms wait from its own arrival.
    assert_eq!(s.on_data(ms(150), 1).ack, None);
    assert_eq!(s.next_timeout(), Some(ms(250)));
}

#[test]
fn out_of_order_segment_is_acked_at_once_with_a_sack_block() {
    let mut s = sack_sink(true);
    assert_eq!(s.on_data(ms(0), 0).ack, None);
    assert_eq!(s.on_data(ms(1), 2), Received { delivered: 0, ack: Some(ack(1, &[(2, 3)])) });
    assert_eq!(s.next_timeout(), None, "the immediate ACK also covers segment 0");
}

#[test]
fn gap_filling_segment_is_acked_at_once_and_delivers_the_buffered_data() {
    let mut s = sack_sink(true);
    s.on_data(ms(0), 0);
    s.on_data(ms(1), 2);
    s.on_data(ms(2), 3);
    assert_eq!(s.on_data(ms(3), 1), Received { delivered: 3, ack: Some(ack(4, &[])) });
    assert_eq!(s.rcv_nxt(), 4);
}

#[test]
fn partly_filling_a_gap_is_acked_at_once() {
    let mut s = sack_sink(true);
    s.on_data(ms(0), 1);
    s.on_data(ms(1), 3);
    assert_eq!(s.on_data(ms(2), 0), Received { delivered: 2, ack: Some(ack(2, &[(3, 4)])) });
}

#[test]
fn duplicate_segment_is_acked_at_once() {
    let mut s = sack_sink(true);
    assert_eq!(s.on_data(ms(0), 0).ack, None);
    assert_eq!(s.on_data(ms(1), 0), Received { delivered: 0, ack: Some(ack(1, &[])) });
    // A duplicate of buffered out-of-order data too.
    s.on_data(ms(2), 5);
    assert_eq!(s.on_data(ms(3), 5), Received { delivered: 0, ack: Some(ack(1, &[(5, 6)])) });
}

#[test]
fn sack_blocks_are_most_recent_first_at_most_three_and_merged() {
    let mut s = sack_sink(false);
    immediate(&mut s, 0, 0);
    assert_eq!(immediate(&mut s, 1, 2), ack(1, &[(2, 3)]));
    assert_eq!(immediate(&mut s, 2, 4), ack(1, &[(4, 5), (2, 3)]));
    assert_eq!(immediate(&mut s, 3, 6), ack(1, &[(6, 7), (4, 5), (2, 3)]));
    assert_eq!(immediate(&mut s, 4, 8), ack(1, &[(8, 9), (6, 7), (4, 5)]), "at most 3 blocks");
    // 3 joins 2 and 4 into one block, which is reported first.
    assert_eq!(immediate(&mut s, 5, 3), ack(1, &[(2, 5), (8, 9), (6, 7)]));
    // 7 joins 6 and 8.
    assert_eq!(immediate(&mut s, 6, 7), ack(1, &[(6, 9), (2, 5)]));
    // 1 fills the first gap: everything up to 5 is delivered, 6..9 stays SACKed.
    assert_eq!(s.on_data(ms(7), 1), Received { delivered: 4, ack: Some(ack(5, &[(6, 9)])) });
    assert_eq!(immediate(&mut s, 8, 5), ack(9, &[]));
}

#[test]
fn older_sack_blocks_are_repeated_after_many_newer_segments() {
    // RFC 2018 §4: after the block of the newest segment, repeat the most recently reported
    // other blocks. A long run of segments all extending one block must not push an older
    // block out of the report.
    let mut s = sack_sink(false);
    immediate(&mut s, 0, 0);
    assert_eq!(immediate(&mut s, 1, 2), ack(1, &[(2, 3)]));
    for seq in 4..30 {
        let a = immediate(&mut s, 2, seq);
        assert_eq!(a, ack(1, &[(4, seq + 1), (2, 3)]), "after segment {seq}");
    }
}

#[test]
fn sink_without_sack_sends_no_blocks() {
    let mut s = TcpSink::new(sink_cfg("newreno"));
    s.on_data(ms(0), 0);
    assert_eq!(s.on_data(ms(1), 2).ack, Some(ack(1, &[])));
}

#[test]
fn acks_carry_the_advertised_window() {
    let mut c = sink_cfg("sack");
    c.advertised_window = 7;
    let mut s = TcpSink::new(c);
    assert_eq!(s.on_data(ms(0), 0).ack.map(|a| a.window), Some(7));
}

#[test]
fn lossy_reordered_arrivals_are_delivered_in_order_exactly_once() {
    let mut s = sack_sink(true);
    let mut rng = Lcg::new(7);
    let mut delivered = 0;
    let mut t = 0;
    // Each segment arrives one to three times, in a shuffled neighbourhood.
    let mut order: Vec<u64> = (0..200).flat_map(|q| (0..1 + rng.below(3)).map(move |_| q)).collect();
    for i in 0..order.len() {
        let j = (i + rng.below(6) as usize).min(order.len() - 1);
        order.swap(i, j);
    }
    for seq in order {
        t += 1;
        let before = s.rcv_nxt();
        let r = s.on_data(ms(t), seq);
        delivered += r.delivered;
        assert_eq!(s.rcv_nxt(), before + r.delivered);
        if let Some(a) = &r.ack {
            assert_eq!(a.ack, s.rcv_nxt());
            assert!(a.sack.len() <= 3);
            assert!(a.sack.iter().all(|&(b, e)| b > a.ack && b < e), "{a:?}");
        }
        if let Some(d) = s.next_timeout() {
            if d <= ms(t) {
                s.on_timeout(ms(t));
            }
        }
    }
    assert_eq!(delivered, 200);
    assert_eq!(s.rcv_nxt(), 200);
}

#[test]
fn the_freeze_sink_advertises_zero_from_the_warning_and_sends_tr_acks_when_up() {
    use vhsim_core::SimDuration;
    use vhsim_tcp::SinkLinkEvent::{Completed, Down, Imminent, Up};
    let mut s = TcpSink::new(sink_cfg("freeze"));
    s.on_data(ms(0), 0);
    s.on_data(ms(1), 1);
    let zwa = s.on_link_event(ms(10), Imminent { eta: SimDuration::from_millis(100) });
    assert_eq!(zwa, vec![AckOut { ack: 2, sack: vec![], window: 0, sig: false }], "one ZWA");
    // Data still in flight is accepted and acknowledged with the zero window.
    assert_eq!(immediate(&mut s, 20, 2), AckOut { ack: 3, sack: vec![], window: 0, sig: false });
    assert!(s.on_link_event(ms(110), Down).is_empty());
    let tr = s.on_link_event(ms(600), Up);
    assert_eq!(tr, vec![AckOut { ack: 3, sack: vec![], window: u32::MAX, sig: false }; 3], "3 TR-ACKs");
    assert!(s.on_link_event(ms(600), Completed).is_empty(), "already reopened");
}

#[test]
fn the_sig_sink_sets_the_bit_from_the_warning_until_completed() {
    use vhsim_core::SimDuration;
    use vhsim_tcp::SinkLinkEvent::{Completed, Down, Imminent, Up};
    let mut c = sink_cfg("demo-vegas");
    c.policy = vhsim_tcp::SinkPolicyConfig::Sig(vhsim_tcp::sink::sig::SigConfig {
        set_at: vhsim_tcp::sink::sig::SigStart::Imminent,
        notify_acks: 1,
    });
    let mut s = TcpSink::new(c);
    s.on_data(ms(0), 0);
    let set = s.on_link_event(ms(10), Imminent { eta: SimDuration::from_millis(100) });
    assert_eq!(set, vec![AckOut { ack: 1, sack: vec![], window: u32::MAX, sig: true }]);
    assert!(immediate(&mut s, 20, 1).sig);
    assert!(s.on_link_event(ms(110), Down).is_empty());
    assert!(s.on_link_event(ms(600), Up).is_empty());
    let clear = s.on_link_event(ms(600), Completed);
    assert_eq!(clear, vec![AckOut { ack: 2, sack: vec![], window: u32::MAX, sig: false }]);
    assert!(!immediate(&mut s, 700, 2).sig);
}

#[test]
fn the_original_sig_sink_sets_and_clears_the_bit_at_the_care_of_address_change() {
    use vhsim_core::SimDuration;
    use vhsim_tcp::SinkLinkEvent::{Completed, Down, Imminent, Up};
    // The preset (`set_at = "completed"`): nothing at the warning, the loss of the old link or
    // the new link's coming up; at Completed one ACK with SIG, then one without.
    let mut s = TcpSink::new(sink_cfg("demo-vegas"));
    s.on_data(ms(0), 0);
    assert!(s.on_link_event(ms(10), Imminent { eta: SimDuration::from_millis(100) }).is_empty());
    assert!(!immediate(&mut s, 20, 1).sig);
    assert!(s.on_link_event(ms(110), Down).is_empty());
    assert!(s.on_link_event(ms(600), Up).is_empty());
    let ack = |sig| AckOut { ack: 2, sack: vec![], window: u32::MAX, sig };
    assert_eq!(s.on_link_event(ms(600), Completed), vec![ack(true), ack(false)]);
    assert!(!immediate(&mut s, 700, 2).sig);
}

#[test]
fn sink_policy_options_are_checked_with_their_key() {
    use vhsim_tcp::presets::preset;
    let p = preset("freeze").unwrap();
    let sink: toml::Table = toml::from_str("policy = { kind = \"freeze\", tr_acks = 0 }").unwrap();
    let e = p.resolve(vhsim_tcp::Defaults::Rfc, &toml::Table::new(), &sink).unwrap_err().to_string();
    assert!(e.starts_with("sink.policy.tr_acks"), "{e}");
}
