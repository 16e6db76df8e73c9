//! The sink's D-SACK (RFC 2883 §4) and quick ACKs (Linux's quick-ack mode), both options of the
//! sink that the `linux` and `rack` presets turn on.

mod common;

use common::*;
use vhsim_core::SimDuration;
use vhsim_tcp::config::resolve;
use vhsim_tcp::detect::rack::has_dsack;
use vhsim_tcp::{AckInfo, AckOut, SinkConfig, TcpSink};

fn sink(dsack: bool, quickack: u32, delayed: bool) -> TcpSink {
    let mut c: SinkConfig = sink_cfg("sack");
    c.dsack = dsack;
    c.quickack = quickack;
    c.delayed_ack = delayed;
    TcpSink::new(c)
}

#[track_caller]
fn immediate(s: &mut TcpSink, at_ms: u64, seq: u64) -> AckOut {
    s.on_data(ms(at_ms), seq).ack.expect("expected an immediate ACK")
}

fn info(a: &AckOut) -> AckInfo {
    AckInfo { ack: a.ack, sack: a.sack.clone(), window: a.window, sig: a.sig }
}

#[test]
fn a_duplicate_below_the_cumulative_ack_is_reported_in_the_first_block() {
    let mut s = sink(true, 0, false);
    for seq in 0..3 {
        immediate(&mut s, seq, seq);
    }
    let a = immediate(&mut s, 10, 1);
    // RFC 2883 §4 (1): the D-SACK block is the first; it lies below the cumulative ACK.
    assert_eq!((a.ack, a.sack.as_slice()), (3, &[(1, 2)][..]));
    assert!(has_dsack(&info(&a)));
    // The next ACK carries no D-SACK any more.
    let a = immediate(&mut s, 11, 3);
    assert_eq!(a.sack, []);
    assert_eq!(sink_engaged(&s, &["dsacks_sent"]), [1]);
}

#[test]
fn a_duplicate_inside_an_out_of_order_block_names_that_block_second() {
    let mut s = sink(true, 0, false);
    immediate(&mut s, 0, 0);
    for seq in [2, 3, 4, 7] {
        immediate(&mut s, seq, seq);
    }
    let a = immediate(&mut s, 10, 3);
    // (2): the D-SACK block, then the (larger) block holding it, then the most recent others.
    assert_eq!(a.ack, 1);
    assert_eq!(a.sack, [(3, 4), (2, 5), (7, 8)]);
    assert!(has_dsack(&info(&a)), "the first block lies inside the second");
}

#[test]
fn without_the_option_a_duplicate_gets_a_plain_ack() {
    let mut s = sink(false, 0, false);
    immediate(&mut s, 0, 0);
    immediate(&mut s, 1, 1);
    let a = immediate(&mut s, 2, 0);
    assert_eq!((a.ack, a.sack.len()), (2, 0));
    let mut e = vhsim_net::Engagement::new();
    s.engagement(&mut e);
    assert!(e.is_empty(), "neither D-SACK nor quick ACKs configured: {e:?}");
    // An ordinary SACK is no D-SACK.
    let mut s = sink(true, 0, false);
    immediate(&mut s, 0, 0);
    let a = immediate(&mut s, 1, 2);
    assert_eq!(a.sack, [(2, 3)]);
    assert!(!has_dsack(&info(&a)));
}

#[test]
fn dsack_needs_sack() {
    let tcp = toml::Table::new();
    let sink: toml::Table = toml::from_str("sack = false\ndsack = true").unwrap();
    let err = resolve(vhsim_tcp::Defaults::Rfc, &toml::Table::new(), &toml::Table::new(), &tcp, &sink).unwrap_err();
    assert_eq!(err.path, "sink.dsack");
}

#[test]
fn quick_acks_acknowledge_the_first_segments_at_once_then_every_second() {
    // quickack = 3 with delayed ACKs: segments 0, 1, 2 each get an ACK at once; from the 4th
    // on, every second segment (or the 40 ms timer of the linux preset).
    let mut s = sink(false, 3, true);
    for seq in 0..3 {
        assert_eq!(s.on_data(ms(seq), seq).ack.map(|a| a.ack), Some(seq + 1), "quick ACK {seq}");
    }
    assert_eq!(s.on_data(ms(3), 3).ack, None);
    assert_eq!(s.on_data(ms(4), 4).ack.map(|a| a.ack), Some(5));
    // A duplicate (a retransmission) starts quick-ack mode again, as Linux does for old data.
    assert_eq!(s.on_data(ms(5), 1).ack.map(|a| a.ack), Some(5));
    assert_eq!(s.on_data(ms(6), 5).ack.map(|a| a.ack), Some(6));
    assert_eq!(s.on_data(ms(7), 6).ack.map(|a| a.ack), Some(7));
    // Quick-ack mode sent five ACKs a delayed ACK would have held (0, 1, 2, 5, 6); the
    // duplicate's ACK and the one for the second of 3-4 go out at once anyway.
    assert_eq!(sink_engaged(&s, &["quick_acks"]), [5]);
}

#[test]
fn the_linux_sink_acks_16_segments_quickly_then_delays_up_to_40_ms() {
    let c = sink_cfg("linux");
    assert_eq!(
        (c.quickack, c.delack_interval, c.delayed_ack, c.dsack, c.sack),
        (16, SimDuration::from_millis(40), true, true, true)
    );
    let mut s = TcpSink::new(c);
    for seq in 0..16 {
        assert!(s.on_data(ms(seq), seq).ack.is_some(), "quick ACK {seq}");
    }
    assert_eq!(s.on_data(ms(100), 16).ack, None);
    assert_eq!(s.next_timeout(), Some(ms(140)));
}
