//! The receiving half (RFC 4960 §6.2, §6.7, §5.1): when SACKs go, what they report, the
//! receive window, in-order delivery, and answers to HEARTBEATs.

mod common;

use common::*;
use vhsim_net::{Endpoint, Report};
use vhsim_sctp::wire::Chunk;
use vhsim_sctp::SctpConfig;

#[test]
fn delayed_sack_every_second_packet_or_after_200_ms() {
    let mut r = Rx::new(cfg());
    assert_eq!(r.data(0, &[1]), sack_to_cn(1, &[], &[]), "§5.1: the first DATA chunk is SACKed at once");
    assert_eq!(r.data(10, &[2]), none());
    assert_eq!(r.ep.poll_timeout(), Some(ms(210)));
    assert_eq!(r.data(20, &[3]), sack_to_cn(3, &[], &[]), "every 2nd packet");
    assert_eq!(r.data(30, &[4]), none());
    assert_eq!(r.fire(230), sack_to_cn(4, &[], &[]), "within 200 ms");
}

#[test]
fn gaps_and_duplicates_are_sacked_at_once() {
    let mut r = Rx::new(cfg());
    r.data(0, &[1]);
    assert_eq!(r.data(10, &[3]), sack_to_cn(1, &[(3, 3)], &[]), "§6.7: a gap");
    assert_eq!(r.data(20, &[4, 6]), sack_to_cn(1, &[(3, 4), (6, 6)], &[]));
    // Filling the first gap leaves one: still at once.
    assert_eq!(r.data(30, &[2]), sack_to_cn(4, &[(6, 6)], &[]));
    // Filling the last gap is an ordinary packet (RFC 4960 §6.2, ns-2).
    assert_eq!(r.data(40, &[5]), none());
    assert_eq!(r.fire(240), sack_to_cn(6, &[], &[]));
    assert_eq!(r.data(300, &[2, 3]), sack_to_cn(6, &[], &[2, 3]), "§6.2: only duplicates: at once, reported");
    let delivered: u64 =
        r.reports.iter().map(|x| if let Report::Delivered { units, .. } = x { *units } else { 0 }).sum();
    assert_eq!(delivered, 6);
}

#[test]
fn optional_sack_when_the_last_gap_is_filled() {
    let mut r = Rx::new(SctpConfig { sack_on_gap_fill: true, ..cfg() });
    r.data(0, &[1]);
    r.data(10, &[3]);
    assert_eq!(r.data(20, &[2]), sack_to_cn(3, &[], &[]));
}

#[test]
fn without_delayed_sacks_every_packet_is_sacked() {
    let mut r = Rx::new(SctpConfig { delayed_sack: false, ..cfg() });
    r.data(0, &[1]);
    assert_eq!(r.data(10, &[2]), sack_to_cn(2, &[], &[]));
    assert_eq!(r.data(20, &[3]), sack_to_cn(3, &[], &[]));
}

#[test]
fn replies_go_back_from_the_address_the_packet_arrived_at() {
    let mut r = Rx::new(cfg());
    r.data_at(0, MN_B, &[1]);
    let p = r.sent.last().unwrap();
    assert_eq!((p.src, p.dst), (MN_B, CN));
}

#[test]
fn receive_window_shrinks_with_out_of_order_data_and_drops_what_does_not_fit() {
    let mut r = Rx::new(SctpConfig { receive_buffer: 3 * MTU, ..cfg() });
    r.data(0, &[1]);
    let a_rwnd = |r: &Rx| {
        let s = vhsim_sctp::sctp_payload(r.sent.last().unwrap()).unwrap();
        match &s.chunks[0] {
            Chunk::Sack(k) => k.a_rwnd,
            c => panic!("{c:?}"),
        }
    };
    assert_eq!(a_rwnd(&r), 3 * MTU, "in-order data is consumed at once");
    r.data(10, &[3, 4]);
    assert_eq!(a_rwnd(&r), MTU);
    r.data(20, &[5]);
    assert_eq!(a_rwnd(&r), 0);
    assert_eq!(r.data(30, &[6]), sack_to_cn(1, &[(3, 5)], &[]), "6 dropped: not in the SACK");
    assert_eq!(r.ep.inbound().stats.dropped, 1);
    // 2 is below the highest held TSN: 5 is dropped to make room (RFC 9260 §6.2) and the
    // SACK, sent at once because a gap remains, no longer reports it.
    assert_eq!(r.data(40, &[2]), sack_to_cn(4, &[], &[]));
    assert_eq!(a_rwnd(&r), 3 * MTU);
    assert_eq!(r.data(50, &[5, 6]), none(), "the first packet since the last SACK");
    assert_eq!(r.fire(250), sack_to_cn(6, &[], &[]));
}

#[test]
fn heartbeat_is_answered_with_its_information() {
    use vhsim_net::{Packet, Payload, TraceTag};
    use vhsim_sctp::wire::{CommonHeader, HeartbeatInfo, SctpPacket};
    let mut r = Rx::new(cfg());
    let info = HeartbeatInfo { dest: MN_B.0, sent_at_ns: 123 };
    let s = SctpPacket { header: CommonHeader::default(), chunks: vec![Chunk::Heartbeat(info)] };
    let p = Packet {
        uid: 0,
        flow: 0,
        src: CN,
        dst: MN_B,
        size: 56,
        tag: TraceTag::control(0),
        payload: Payload::Sctp(Box::new(s)),
    };
    r.ep.on_packet(ms(5), &p);
    let reply = r.ep.poll_transmit(ms(5)).expect("a HEARTBEAT-ACK");
    assert_eq!((reply.src, reply.dst, reply.size), (MN_B, CN, 20 + 12 + 24));
    let s = vhsim_sctp::sctp_payload(&reply).unwrap();
    assert_eq!(s.chunks, vec![Chunk::HeartbeatAck(info)]);
}

#[test]
fn heartbeats_leave_from_the_address_data_last_arrived_at() {
    let mut r = Rx::new(SctpConfig { heartbeat: true, ..cfg() });
    r.data_at(0, MN_B, &[1]);
    // The MN's only destination (CN) is idle in DATA terms: probed at 0 + 30 s + 3 s.
    assert_eq!(r.fire(33_000), vec![Out::Heartbeat { to: CN }]);
    assert_eq!(r.sent.last().unwrap().src, MN_B);
}
