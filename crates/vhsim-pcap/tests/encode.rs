//! The encoders' bytes, read back by hand (offsets from RFC 791, RFC 9293 and RFC 768) and
//! checksummed with an independent RFC 1071 sum.

use vhsim_core::SimTime;
use vhsim_net::{Addr, DatagramHeader, Packet, Payload, RetxCause, SackBlock, TcpHeader, TraceTag};
use vhsim_pcap::{CaptureFile, Encoder, FlowWire, TcpWire, WireTransport};

const CN: [u8; 4] = [10, 0, 0, 1];
const MN: [u8; 4] = [10, 0, 0, 3];

fn encoder(tcp: TcpWire) -> Encoder {
    Encoder::new(
        vec![CN, [10, 0, 0, 2], MN],
        vec![FlowWire::new(0, WireTransport::Tcp(tcp)), FlowWire::new(1, WireTransport::Datagram)],
    )
}

fn wire() -> TcpWire {
    TcpWire::new(1460, u32::MAX, 20)
}

fn data(seg: u64, size: u32) -> Packet {
    Packet {
        uid: 0x1_0007,
        flow: 0,
        src: Addr(0),
        dst: Addr(2),
        size,
        tag: TraceTag::data(seg, 1460, RetxCause::New),
        payload: Payload::Tcp(TcpHeader { seq: seg, ..TcpHeader::default() }),
    }
}

fn ack(next: u64, window: u32, sack: &[(u64, u64)]) -> Packet {
    let mut h = TcpHeader { ack: next, window, ..TcpHeader::default() };
    h.set_sack_blocks(sack.iter().map(|&(start, end)| SackBlock { start, end }));
    Packet { uid: 9, flow: 0, src: Addr(2), dst: Addr(0), size: 40, tag: TraceTag::ack(next), payload: Payload::Tcp(h) }
}

/// RFC 1071 Internet checksum of `words` (a trailing odd byte padded with zero); 0 = valid
/// when the data includes its checksum field.
fn ones_complement(parts: &[&[u8]]) -> u16 {
    let mut sum: u32 = 0;
    for part in parts {
        for pair in part.chunks(2) {
            let word = u16::from_be_bytes([pair[0], *pair.get(1).unwrap_or(&0)]);
            sum += u32::from(word);
        }
    }
    while sum > 0xffff {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    !(sum as u16)
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// Check the IPv4 header and the transport checksum; return (protocol, transport bytes).
fn ipv4(frame: &[u8]) -> (u8, &[u8]) {
    assert_eq!(frame[0], 0x45, "IPv4, 20-byte header");
    assert_eq!(be16(frame, 2) as usize, frame.len(), "total length");
    assert_eq!(ones_complement(&[&frame[..20]]), 0, "header checksum");
    let proto = frame[9];
    let l4 = &frame[20..];
    let pseudo = [&frame[12..20], &[0, proto], &(l4.len() as u16).to_be_bytes()[..]].concat();
    assert_eq!(ones_complement(&[&pseudo, l4]), 0, "transport checksum");
    (proto, l4)
}

#[test]
fn a_data_segment_has_byte_sequence_numbers_and_the_simulated_size() {
    let mut enc = encoder(wire());
    let frame = enc.encode(&data(3, 1500)).unwrap().to_vec();
    assert_eq!(frame.len(), 1500);
    assert_eq!((&frame[12..16], &frame[16..20]), (&CN[..], &MN[..]));
    assert_eq!(be16(&frame, 4), 0x0007, "identification = low bits of the uid");
    let (proto, tcp) = ipv4(&frame);
    assert_eq!(proto, 6);
    assert_eq!((be16(tcp, 0), be16(tcp, 2)), (50_000, 40_000), "ports");
    assert_eq!(be32(tcp, 4), 1 + 3 * 1460, "seq = ISN + 1 + segment x 1460");
    assert_eq!(be32(tcp, 8), 1, "acknowledges the receiver's ISN + 1");
    assert_eq!(tcp[12] >> 4, 5, "20-byte header");
    assert_eq!(tcp[13], 0x10, "ACK only");
    assert!(tcp[20..].iter().all(|&b| b == 0) && tcp.len() == 1480, "1460 zero payload bytes");
}

#[test]
fn an_ack_carries_the_sinks_sack_blocks_and_scaled_window() {
    // 20 segments x 1460 bytes = 29200: no scaling needed.
    let mut enc = encoder(wire());
    let frame = enc.encode(&ack(7, u32::MAX, &[(9, 11), (13, 14)])).unwrap().to_vec();
    let (_, tcp) = ipv4(&frame);
    assert_eq!((be16(tcp, 0), be16(tcp, 2)), (40_000, 50_000));
    assert_eq!((be32(tcp, 4), be32(tcp, 8)), (1, 1 + 7 * 1460));
    assert_eq!(be16(tcp, 14), 29_200, "unlimited = the sender's window of 20 segments");
    // NOP NOP SACK(len 18) with two blocks: a 40-byte header.
    assert_eq!(tcp[12] >> 4, 10);
    assert_eq!(&tcp[20..24], &[1, 1, 5, 18]);
    let blocks: Vec<u32> = (0..4).map(|i| be32(tcp, 24 + 4 * i)).collect();
    assert_eq!(blocks, vec![1 + 9 * 1460, 1 + 11 * 1460, 1 + 13 * 1460, 1 + 14 * 1460]);
    assert_eq!(frame.len(), 60, "the 40-byte simulated ACK has no room for the option");

    let zero = encoder(wire()).encode(&ack(7, 0, &[])).unwrap().to_vec();
    assert_eq!((zero.len(), be16(&zero[20..], 14)), (40, 0), "a zero window");
}

#[test]
fn the_window_scale_is_the_smallest_that_fits_the_largest_window() {
    assert_eq!(TcpWire::new(1460, u32::MAX, 44).window_scale, 0); // 64240 bytes
    assert_eq!(TcpWire::new(1460, u32::MAX, 45).window_scale, 1);
    assert_eq!(TcpWire::new(1460, u32::MAX, 100).window_scale, 2); // 146000 bytes
    assert_eq!(TcpWire::new(1460, 1000, 100).window_scale, 5); // 1460000 bytes
    assert_eq!(TcpWire::new(1460, u32::MAX, u32::MAX).window_scale, 14);
    let t = TcpWire::new(1460, u32::MAX, 100);
    let frame = encoder(t).encode(&ack(0, u32::MAX, &[])).unwrap().to_vec();
    assert_eq!(be16(&frame[20..], 14), (146_000u32 >> 2) as u16);
}

#[test]
fn byte_numbers_wrap_modulo_two_to_the_32() {
    let seg = (1u64 << 32) / 1460 + 5;
    let frame = encoder(wire()).encode(&data(seg, 1500)).unwrap().to_vec();
    assert_eq!(be32(&frame[20..], 4), (1 + seg * 1460) as u32);
}

#[test]
fn header_sizes_other_than_forty_bytes() {
    // 52-byte headers: 12 NOP bytes make the frame as long as the simulated packet.
    let frame = encoder(wire()).encode(&data(0, 1512)).unwrap().to_vec();
    assert_eq!(frame.len(), 1512);
    let (_, tcp) = ipv4(&frame);
    assert_eq!((tcp[12] >> 4, &tcp[20..32]), (8, &[1u8; 12][..]));
    // Simulated headers smaller than real ones: the frame keeps the real headers.
    let frame = encoder(wire()).encode(&data(0, 1470)).unwrap().to_vec();
    assert_eq!(frame.len(), 1500);
    ipv4(&frame);
}

#[test]
fn datagrams_are_udp_with_their_number_in_the_payload() {
    let pkt = Packet {
        uid: 1,
        flow: 1,
        src: Addr(0),
        dst: Addr(2),
        size: 1028,
        tag: TraceTag::data(42, 1000, RetxCause::New),
        payload: Payload::Datagram(DatagramHeader { seq: 42 }),
    };
    let frame = encoder(wire()).encode(&pkt).unwrap().to_vec();
    assert_eq!(frame.len(), 1028);
    let (proto, udp) = ipv4(&frame);
    assert_eq!((proto, be16(udp, 0), be16(udp, 2), be16(udp, 4)), (17, 50_001, 40_000, 1008));
    assert_eq!(&udp[8..16], &42u64.to_be_bytes());
}

#[test]
fn packets_without_a_transport_are_experimental_ip() {
    let pkt = Packet {
        uid: 1,
        flow: vhsim_net::NO_FLOW,
        src: Addr(1),
        dst: Addr(2),
        size: 60,
        tag: TraceTag::control(0),
        payload: Payload::Empty,
    };
    let frame = encoder(wire()).encode(&pkt).unwrap().to_vec();
    assert_eq!((frame.len(), frame[9]), (60, 253));
    assert_eq!(ones_complement(&[&frame[..20]]), 0);
}

#[test]
fn bad_packets_are_errors() {
    let mut far = data(0, 1500);
    far.dst = Addr(7);
    assert_eq!(encoder(wire()).encode(&far).unwrap_err().to_string(), "address 7 has no IPv4 address in the address table");
    let mut huge = data(0, 70_000);
    huge.tag.payload_bytes = 69_960;
    assert!(encoder(wire()).encode(&huge).unwrap_err().to_string().contains("does not fit in IPv4"));
    let mut wrong = data(0, 1500);
    wrong.flow = 1;
    assert!(encoder(wire()).encode(&wrong).is_err());
}

#[test]
fn the_file_has_nanosecond_timestamps_raw_ip_and_keeps_original_lengths() {
    let mut cap = CaptureFile::new(Vec::new(), Some(100)).unwrap();
    let frame = encoder(wire()).encode(&data(0, 1500)).unwrap().to_vec();
    cap.write(SimTime(8_200_000_123), &frame).unwrap();
    assert_eq!(cap.packets(), 1);
    let bytes = cap.finish().unwrap();
    // Global header: magic (ns), version 2.4, thiszone, sigfigs, snaplen, link type.
    assert_eq!(&bytes[..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
    let le32 = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    assert_eq!((le32(16), le32(20)), (100, 101));
    // Record header: seconds, nanoseconds, included length, original length.
    assert_eq!((le32(24), le32(28), le32(32), le32(36)), (8, 200_000_123, 100, 1500));
    assert_eq!(&bytes[40..], &frame[..100]);
}
