//! SCTP packets read back by hand (offsets from RFC 4960 §3 and RFC 5061 §4), with the CRC32c
//! computed bit by bit here, independently of the encoder's `crc` crate, and checked against
//! the test vector of RFC 3720 appendix B.4.

use vhsim_net::packet::sctp::{
    AsconfAckChunk, AsconfChunk, AsconfRequest, AsconfResult, Chunk, CommonHeader, DataChunk, GapAckBlock,
    HeartbeatInfo, SackChunk, SctpPacket, CAUSE_DELETE_LAST_ADDRESS,
};
use vhsim_net::{Addr, Packet, Payload, RetxCause, TraceTag};
use vhsim_pcap::{EncodeError, Encoder, FlowWire, SctpWire, WireTransport};

const CN: [u8; 4] = [10, 0, 0, 1];
const MN_UMTS: [u8; 4] = [10, 1, 0, 1];
const MN_WLAN: [u8; 4] = [10, 2, 0, 1];
/// Address table: cn (node 0), ar (node 1), mn (node 2) and its two care-of addresses.
const CN_A: Addr = Addr(0);
const UMTS_A: Addr = Addr(3);
const WLAN_A: Addr = Addr(4);

/// Flow 0 sends from cn to mn; flow 1 from mn to cn.
fn encoder() -> Encoder {
    Encoder::new(
        vec![CN, [10, 0, 0, 2], [10, 0, 0, 3], MN_UMTS, MN_WLAN],
        vec![
            FlowWire::new(0, WireTransport::Sctp(SctpWire { sender_addrs: vec![0] })),
            FlowWire::new(1, WireTransport::Sctp(SctpWire { sender_addrs: vec![2, 3, 4] })),
        ],
    )
}

fn packet(flow: u32, src: Addr, dst: Addr, tag: TraceTag, chunks: Vec<Chunk>) -> Packet {
    // As the SCTP endpoint builds it: ports 5001 and the flow index as tag (replaced on the wire).
    let sctp = SctpPacket {
        header: CommonHeader { src_port: 5001, dst_port: 5001, verification_tag: flow },
        chunks,
    };
    let size = 20 + sctp.wire_len();
    Packet { uid: 77, flow, src, dst, size, tag, payload: Payload::Sctp(Box::new(sctp)) }
}

/// CRC32c of RFC 3309 computed one bit at a time (reflected polynomial 0x82F63B78).
fn crc32c_bitwise(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0x82F6_3B78 } else { crc >> 1 };
        }
    }
    !crc
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

fn be32(b: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(b[at..at + 4].try_into().unwrap())
}

/// One chunk as read: type, flags, value (the Chunk Length minus the 4-byte header).
#[derive(Debug)]
struct Read {
    kind: u8,
    flags: u8,
    value: Vec<u8>,
}

/// The common header (ports, tag) and chunks of an IPv4 frame carrying SCTP; checks the IPv4
/// length, the checksum and the zero padding of every chunk.
fn read(frame: &[u8]) -> ((u16, u16, u32), Vec<Read>) {
    assert_eq!((frame[0], frame[9]), (0x45, 132), "IPv4 with a 20-byte header carrying SCTP");
    assert_eq!(be16(frame, 2) as usize, frame.len(), "total length");
    let sctp = &frame[20..];
    let mut zeroed = sctp.to_vec();
    zeroed[8..12].fill(0);
    // RFC 4960 appendix B: the CRC goes into the field least significant byte first.
    assert_eq!(u32::from_le_bytes(sctp[8..12].try_into().unwrap()), crc32c_bitwise(&zeroed), "CRC32c");
    let mut chunks = Vec::new();
    let mut at = 12;
    while at < sctp.len() {
        let len = be16(sctp, at + 2) as usize;
        assert!(len >= 4 && at + len <= sctp.len(), "chunk length {len} at {at}");
        let padded = len.div_ceil(4) * 4;
        assert!(sctp[at + len..at + padded].iter().all(|&b| b == 0), "zero padding");
        chunks.push(Read { kind: sctp[at], flags: sctp[at + 1], value: sctp[at + 4..at + len].to_vec() });
        at += padded;
    }
    assert_eq!(at, sctp.len(), "the chunks fill the packet");
    ((be16(sctp, 0), be16(sctp, 2), be32(sctp, 4)), chunks)
}

fn encode(p: &Packet) -> Vec<u8> {
    let frame = encoder().encode(p).unwrap().to_vec();
    assert_eq!(frame.len(), p.size as usize, "the frame is as long as the simulated packet");
    frame
}

fn data_chunk(tsn: u32, payload_len: u32) -> DataChunk {
    DataChunk {
        tsn,
        stream: 0,
        ssn: (tsn - 1) as u16,
        ppid: 0,
        payload_len,
        unordered: false,
        beginning: true,
        ending: true,
    }
}

#[test]
fn the_checksum_is_crc32c_stored_as_rfc_4960_appendix_b_says() {
    // RFC 3720 B.4: 32 zero bytes have CRC32c 0x8A9136AA, sent as aa 36 91 8a.
    assert_eq!(vhsim_pcap::sctp::checksum_field(&[0; 32]), [0xaa, 0x36, 0x91, 0x8a]);
    assert_eq!(crc32c_bitwise(&[0; 32]), 0x8A91_36AA);
    assert_eq!(crc32c_bitwise(b"123456789"), 0xE306_9283, "the CRC-32C check value");
}

#[test]
fn a_data_packet_has_the_flow_ports_and_the_receivers_tag() {
    let p = packet(
        0,
        CN_A,
        WLAN_A,
        TraceTag::data(5, 1452, RetxCause::New),
        vec![Chunk::Data(data_chunk(5, 1452))],
    );
    assert_eq!(p.size, 1500, "ns-2's 1468-byte chunk fills a 1500-byte packet");
    let frame = encode(&p);
    assert_eq!((&frame[12..16], &frame[16..20]), (&CN[..], &MN_WLAN[..]));
    let (header, chunks) = read(&frame);
    assert_eq!(
        header,
        (50_000, 40_000, 40_000 << 16 | 50_000),
        "sender port to receiver port, receiver's tag"
    );
    let [d] = &chunks[..] else { panic!("one chunk: {chunks:?}") };
    assert_eq!((d.kind, d.flags, d.value.len()), (0, 0x03, 12 + 1452), "DATA, B and E bits");
    assert_eq!((be32(&d.value, 0), be16(&d.value, 4), be16(&d.value, 6), be32(&d.value, 8)), (5, 0, 4, 0));
    assert!(d.value[12..].iter().all(|&b| b == 0), "zero user data");
}

#[test]
fn bundled_data_chunks_are_padded_and_flags_follow_the_chunk() {
    let mut odd = data_chunk(1, 5);
    (odd.unordered, odd.beginning, odd.ending) = (true, true, false);
    let mut last = data_chunk(2, 7);
    (last.beginning, last.ending) = (false, true);
    let p = packet(
        0,
        CN_A,
        UMTS_A,
        TraceTag::data(1, 12, RetxCause::New),
        vec![Chunk::Data(odd), Chunk::Data(last)],
    );
    assert_eq!(p.size, 20 + 12 + 24 + 24);
    let (_, chunks) = read(&encode(&p));
    assert_eq!(
        chunks.iter().map(|c| (c.kind, c.flags, c.value.len())).collect::<Vec<_>>(),
        vec![(0, 0x06, 17), (0, 0x01, 19)]
    );
    assert_eq!(be32(&chunks[1].value, 0), 2);
}

#[test]
fn a_sack_carries_gap_blocks_and_duplicate_tsns() {
    let mut sack = SackChunk::from_received(10, 65_536, [(12, 13), (15, 15)], 100);
    sack.dup_tsns = vec![9, 4];
    let p = packet(0, WLAN_A, CN_A, TraceTag::ack(10), vec![Chunk::Sack(sack)]);
    assert_eq!(p.size, 20 + 12 + 16 + 8 + 8);
    let (header, chunks) = read(&encode(&p));
    assert_eq!(header, (40_000, 50_000, 50_000 << 16 | 40_000), "receiver to sender, sender's tag");
    let [s] = &chunks[..] else { panic!("one chunk: {chunks:?}") };
    assert_eq!((s.kind, s.flags), (3, 0));
    let v = &s.value;
    assert_eq!((be32(v, 0), be32(v, 4), be16(v, 8), be16(v, 10)), (10, 65_536, 2, 2));
    assert_eq!(
        (be16(v, 12), be16(v, 14), be16(v, 16), be16(v, 18)),
        (2, 3, 5, 5),
        "offsets from the cumulative ack"
    );
    assert_eq!((be32(v, 20), be32(v, 24)), (9, 4));
    assert_eq!(v.len(), 28);
}

#[test]
fn heartbeats_carry_the_destination_and_time_in_their_info() {
    let info = HeartbeatInfo { dest: 3, sent_at_ns: 30_123_456_789 };
    // The receiving endpoint (on mn) probes cn; cn's ACK echoes it from cn.
    for (chunk, src, dst, kind, ports) in [
        (Chunk::Heartbeat(info), UMTS_A, CN_A, 4, (40_000, 50_000)),
        (Chunk::HeartbeatAck(info), CN_A, UMTS_A, 5, (50_000, 40_000)),
    ] {
        let p = packet(0, src, dst, TraceTag::control(0), vec![chunk]);
        assert_eq!(p.size, 20 + 12 + 24);
        let (header, chunks) = read(&encode(&p));
        assert_eq!((header.0, header.1), ports);
        let [h] = &chunks[..] else { panic!("one chunk: {chunks:?}") };
        assert_eq!(
            (h.kind, h.flags, be16(&h.value, 0), be16(&h.value, 2)),
            (kind, 0, 1, 20),
            "Heartbeat Info, 20 bytes"
        );
        assert_eq!(&h.value[4..8], &MN_UMTS, "the probed destination");
        assert_eq!(&h.value[8..12], &[0; 4]);
        assert_eq!(u64::from_be_bytes(h.value[12..20].try_into().unwrap()), 30_123_456_789);
    }
}

#[test]
fn asconf_requests_and_results_have_correlation_ids_and_ipv4_addresses() {
    // Flow 1: mn sends data, so mn's care-of addresses use the sender port.
    let asconf = AsconfChunk {
        serial: 7,
        sender_addr: 3,
        requests: vec![
            AsconfRequest::AddIp { correlation: 1, addr: 4 },
            AsconfRequest::SetPrimary { correlation: 2, addr: 4 },
            AsconfRequest::DeleteIp { correlation: 3, addr: 3 },
        ],
    };
    let p = packet(1, UMTS_A, CN_A, TraceTag::control(0), vec![Chunk::Asconf(asconf)]);
    assert_eq!(p.size, 20 + 12 + 16 + 3 * 16);
    let (header, chunks) = read(&encode(&p));
    assert_eq!(header, (50_001, 40_000, 40_000 << 16 | 50_001));
    let [a] = &chunks[..] else { panic!("one chunk: {chunks:?}") };
    let v = &a.value;
    assert_eq!((a.kind, a.flags, be32(v, 0)), (0xC1, 0, 7));
    assert_eq!(
        (be16(v, 4), be16(v, 6), &v[8..12]),
        (5, 8, &MN_UMTS[..]),
        "the sender's IPv4 Address Parameter"
    );
    let params: Vec<_> = (0..3).map(|i| &v[12 + 16 * i..28 + 16 * i]).collect();
    for (param, (kind, corr, addr)) in
        params.iter().zip([(0xC001, 1, MN_WLAN), (0xC004, 2, MN_WLAN), (0xC002, 3, MN_UMTS)])
    {
        assert_eq!((be16(param, 0), be16(param, 2), be32(param, 4)), (kind, 16, corr));
        assert_eq!((be16(param, 8), be16(param, 10), &param[12..16]), (5, 8, &addr[..]));
    }

    let ack = AsconfAckChunk {
        serial: 7,
        results: vec![
            AsconfResult::Success { correlation: 1 },
            AsconfResult::Error { correlation: 3, cause: CAUSE_DELETE_LAST_ADDRESS },
        ],
    };
    let p = packet(1, CN_A, UMTS_A, TraceTag::control(0), vec![Chunk::AsconfAck(ack)]);
    assert_eq!(p.size, 20 + 12 + 8 + 16);
    let (header, chunks) = read(&encode(&p));
    assert_eq!((header.0, header.1), (40_000, 50_001));
    let [a] = &chunks[..] else { panic!("one chunk: {chunks:?}") };
    let v = &a.value;
    assert_eq!((a.kind, be32(v, 0)), (0x80, 7));
    assert_eq!((be16(v, 4), be16(v, 6), be32(v, 8)), (0xC005, 8, 1), "Success Indication");
    assert_eq!((be16(v, 12), be16(v, 14), be32(v, 16)), (0xC003, 8, 3), "Error Cause Indication");
}

#[test]
fn a_sack_and_data_bundle_in_order() {
    let sack = SackChunk {
        cum_tsn_ack: 3,
        a_rwnd: 1000,
        gap_blocks: vec![GapAckBlock { start: 2, end: 2 }],
        dup_tsns: vec![],
    };
    let p = packet(
        1,
        UMTS_A,
        CN_A,
        TraceTag::data(8, 100, RetxCause::New),
        vec![Chunk::Sack(sack), Chunk::Data(data_chunk(8, 100))],
    );
    let (_, chunks) = read(&encode(&p));
    assert_eq!(chunks.iter().map(|c| c.kind).collect::<Vec<_>>(), vec![3, 0]);
}

#[test]
fn a_changed_byte_breaks_the_checksum() {
    let p = packet(
        0,
        CN_A,
        WLAN_A,
        TraceTag::data(1, 100, RetxCause::New),
        vec![Chunk::Data(data_chunk(1, 100))],
    );
    let mut frame = encode(&p);
    frame[20 + 12 + 4] ^= 1; // the TSN
    let mut zeroed = frame[20..].to_vec();
    zeroed[8..12].fill(0);
    assert_ne!(u32::from_le_bytes(frame[28..32].try_into().unwrap()), crc32c_bitwise(&zeroed));
}

#[test]
fn unknown_addresses_in_chunks_and_mismatched_flows_are_errors() {
    let lost = HeartbeatInfo { dest: 9, sent_at_ns: 0 };
    let p = packet(0, CN_A, WLAN_A, TraceTag::control(0), vec![Chunk::Heartbeat(lost)]);
    assert_eq!(encoder().encode(&p).unwrap_err(), EncodeError::Address(9));
    let tcp_flow = Encoder::new(vec![CN, MN_WLAN], vec![FlowWire::new(0, WireTransport::Datagram)]);
    let p =
        packet(0, Addr(0), Addr(1), TraceTag::control(0), vec![Chunk::Heartbeat(HeartbeatInfo::default())]);
    assert_eq!(tcp_flow.clone().encode(&p).unwrap_err(), EncodeError::Mismatch(0));
}

/// Every chunk kind and variant in one capture, as a file for Wireshark.
fn every_kind() -> Vec<Packet> {
    let mut sack = SackChunk::from_received(10, 65_536, [(12, 13), (15, 15)], 100);
    sack.dup_tsns = vec![9, 4];
    let mut odd = data_chunk(20, 5);
    (odd.unordered, odd.ending) = (true, false);
    let info = HeartbeatInfo { dest: 4, sent_at_ns: 30_123_456_789 };
    let asconf = AsconfChunk {
        serial: 7,
        sender_addr: 3,
        requests: vec![
            AsconfRequest::AddIp { correlation: 1, addr: 4 },
            AsconfRequest::SetPrimary { correlation: 2, addr: 4 },
            AsconfRequest::DeleteIp { correlation: 3, addr: 3 },
        ],
    };
    let ack = AsconfAckChunk {
        serial: 7,
        results: vec![
            AsconfResult::Success { correlation: 1 },
            AsconfResult::Error { correlation: 3, cause: CAUSE_DELETE_LAST_ADDRESS },
        ],
    };
    vec![
        packet(
            0,
            CN_A,
            WLAN_A,
            TraceTag::data(5, 1452, RetxCause::New),
            vec![Chunk::Data(data_chunk(5, 1452))],
        ),
        packet(
            0,
            CN_A,
            WLAN_A,
            TraceTag::data(20, 12, RetxCause::New),
            vec![Chunk::Data(odd), Chunk::Data(data_chunk(21, 7))],
        ),
        packet(0, WLAN_A, CN_A, TraceTag::ack(10), vec![Chunk::Sack(sack.clone())]),
        packet(0, CN_A, WLAN_A, TraceTag::control(0), vec![Chunk::Heartbeat(info)]),
        packet(0, WLAN_A, CN_A, TraceTag::control(0), vec![Chunk::HeartbeatAck(info)]),
        packet(1, UMTS_A, CN_A, TraceTag::control(7), vec![Chunk::Asconf(asconf)]),
        packet(1, CN_A, UMTS_A, TraceTag::control(7), vec![Chunk::AsconfAck(ack)]),
        packet(
            1,
            UMTS_A,
            CN_A,
            TraceTag::data(8, 100, RetxCause::New),
            vec![Chunk::Sack(sack), Chunk::Data(data_chunk(8, 100))],
        ),
    ]
}

/// tshark's fields, one line per frame (`-E occurrence=a`, values of one field joined by `;`).
fn tshark_fields(tshark: &std::path::Path, file: &std::path::Path, fields: &[&str]) -> Vec<Vec<String>> {
    let mut cmd = std::process::Command::new(tshark);
    cmd.args(["-n", "-r"]).arg(file);
    cmd.args([
        "-o",
        "sctp.checksum:CRC-32C",
        "-o",
        "ip.check_checksum:TRUE",
        "-T",
        "fields",
        "-E",
        "aggregator=;",
    ]);
    for f in fields {
        cmd.args(["-e", f]);
    }
    let out = cmd.output().expect("tshark runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines().map(|l| l.split('\t').map(str::to_string).collect()).collect()
}

fn which(program: &str) -> Option<std::path::PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| std::path::Path::new(d).join(program))
        .find(|p| p.is_file())
}

#[test]
fn tshark_decodes_every_chunk_kind_without_warnings() {
    let Some(tshark) = which("tshark") else {
        eprintln!("tshark is not installed (apt-get install tshark): Wireshark check skipped");
        return;
    };
    let mut enc = encoder();
    let mut cap = vhsim_pcap::CaptureFile::new(Vec::new(), None).unwrap();
    let packets = every_kind();
    for (i, p) in packets.iter().enumerate() {
        cap.write(vhsim_core::SimTime(i as u64 * 1_000), enc.encode(p).unwrap()).unwrap();
    }
    let file = std::env::temp_dir().join(format!("vhsim-pcap-sctp-{}.pcap", std::process::id()));
    std::fs::write(&file, cap.finish().unwrap()).unwrap();
    // No PI_CHECKSUM or PI_MALFORMED expert group (epan/proto.h; tshark prints them in
    // decimal); checksum status 1 = good.
    let lines = tshark_fields(
        &tshark,
        &file,
        &["_ws.malformed", "_ws.expert.group", "sctp.checksum.status", "ip.checksum.status"],
    );
    let decoded = tshark_fields(
        &tshark,
        &file,
        &[
            "sctp.data_tsn_raw",
            "sctp.sack_cumulative_tsn_ack_raw",
            "sctp.sack_duplicate_tsn",
            "sctp.correlation_id",
            "sctp.parameter_ipv4_address",
        ],
    );
    std::fs::remove_file(&file).unwrap();
    assert_eq!(lines.len(), packets.len());
    for (k, l) in lines.iter().enumerate() {
        let groups: Vec<&str> = l[1].split(';').filter(|g| !g.is_empty()).collect();
        assert!(l[0].is_empty(), "frame {}: malformed {l:?}", k + 1);
        assert!(
            !groups.iter().any(|g| g.parse::<u32>().is_ok_and(|g| g == 0x0100_0000 || g == 0x0700_0000)),
            "frame {}: {l:?}",
            k + 1
        );
        assert_eq!((l[2].as_str(), l[3].as_str()), ("1", "1"), "frame {}: checksums good", k + 1);
    }
    let field = |frame: usize, i: usize| decoded[frame][i].as_str();
    assert_eq!((field(0, 0), field(1, 0)), ("5", "20;21"), "TSNs");
    assert_eq!((field(2, 1), field(2, 2)), ("10", "9;4"), "cumulative TSN ack and duplicate TSNs");
    assert_eq!(
        (field(5, 3), field(5, 4)),
        ("0x00000001;0x00000002;0x00000003", "10.1.0.1;10.2.0.1;10.2.0.1;10.1.0.1")
    );
    assert_eq!(field(6, 3), "0x00000001;0x00000003", "correlation ids of the ASCONF-ACK's results");
    assert_eq!((field(7, 0), field(7, 1)), ("8", "10"), "a SACK bundled before DATA");
}
