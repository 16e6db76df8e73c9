//! SCTP packets (RFC 4960 §3, RFC 5061 §4) from the simulator's [`SctpPacket`].
//!
//! etherparse has no SCTP, so the bytes are laid out here, field by field as RFC 4960 §3 draws
//! them (all integers in network byte order): the 12-byte common header, then every chunk as
//! type, flags, length (without padding) and value, zero-padded to a multiple of 4 bytes (§3.2).
//! The lengths are those [`SctpPacket::wire_len`] counts, so the IPv4 total length is the
//! simulated size whenever the flow's `ip_header_size` is the real 20 bytes.
//!
//! Which values the fields hold:
//!
//! * ports: the flow's ([`FlowWire`]): the data sender's endpoint uses the sender port, the data
//!   receiver's the receiver port, whichever chunks a packet carries (both sides send
//!   HEARTBEATs and ASCONFs);
//! * verification tag (§8.5): the tag of the endpoint a packet is sent to, which, without an
//!   INIT exchange to learn it from, is fixed as that endpoint's port in the high 16 bits and
//!   its peer's port in the low 16 bits ([`verification_tag`]): never 0 (0 is reserved for INIT),
//!   different in the two directions, and the same in every packet of one direction;
//! * DATA: the simulator's TSN, stream, SSN, PPID and U/B/E bits, zero user data;
//! * SACK: the cumulative TSN ack, a_rwnd, Gap Ack Blocks and duplicate TSNs as sent;
//! * HEARTBEAT / HEARTBEAT-ACK: one Heartbeat Info parameter (type 1) of 16 bytes of
//!   sender-specific information (§3.3.5): the destination's IPv4 address, 4 zero bytes, and the
//!   sending time in nanoseconds of simulated time (8 bytes);
//! * ASCONF: serial number, the sender's IPv4 Address Parameter, then one Add IP / Delete IP /
//!   Set Primary Address parameter per request with its correlation id and IPv4 Address
//!   Parameter; ASCONF-ACK: serial number, then a Success Indication or an Error Cause
//!   Indication per result with its correlation id (the simulator does not size the error cause
//!   inside, so none is written: the indication is 8 bytes, as the simulated size counts it);
//! * checksum: CRC32c (RFC 3309, RFC 4960 §6.8 and appendix B) of the whole SCTP packet with
//!   the checksum field zero, stored least significant byte first as appendix B prescribes.

use crate::encode::{EncodeError, FlowWire, SctpWire};
use crate::ipv4::{self, Ends};
use crate::zeros;
use etherparse::IpNumber;
use vhsim_net::packet::sctp::{
    padded, AsconfAckChunk, AsconfChunk, AsconfRequest, AsconfResult, Chunk, DataChunk, HeartbeatInfo,
    SackChunk, SctpPacket,
};
use vhsim_net::Packet;

/// Chunk types (RFC 4960 §3.2, RFC 5061 §4.1).
pub mod chunk_type {
    /// Payload Data.
    pub const DATA: u8 = 0;
    /// Selective Acknowledgement.
    pub const SACK: u8 = 3;
    /// Heartbeat Request.
    pub const HEARTBEAT: u8 = 4;
    /// Heartbeat Acknowledgement.
    pub const HEARTBEAT_ACK: u8 = 5;
    /// Address Configuration Change.
    pub const ASCONF: u8 = 0xC1;
    /// Address Configuration Acknowledgement.
    pub const ASCONF_ACK: u8 = 0x80;
}

/// Parameter types (RFC 4960 §3.3.2.1, §3.3.5; RFC 5061 §4.2).
pub mod param_type {
    /// Heartbeat Info.
    pub const HEARTBEAT_INFO: u16 = 1;
    /// IPv4 Address.
    pub const IPV4_ADDRESS: u16 = 5;
    /// Add IP Address.
    pub const ADD_IP: u16 = 0xC001;
    /// Delete IP Address.
    pub const DELETE_IP: u16 = 0xC002;
    /// Error Cause Indication.
    pub const ERROR_CAUSE_INDICATION: u16 = 0xC003;
    /// Set Primary Address.
    pub const SET_PRIMARY: u16 = 0xC004;
    /// Success Indication.
    pub const SUCCESS_INDICATION: u16 = 0xC005;
}

/// DATA chunk flag U: unordered (RFC 4960 §3.3.1).
pub const FLAG_UNORDERED: u8 = 0x04;
/// DATA chunk flag B: first fragment of a user message.
pub const FLAG_BEGINNING: u8 = 0x02;
/// DATA chunk flag E: last fragment of a user message.
pub const FLAG_ENDING: u8 = 0x01;

/// Offset of the checksum in the common header.
const CHECKSUM_AT: usize = 8;

/// CRC32c, the Castagnoli polynomial 0x1EDC6F41 reflected, as RFC 3309 defines it (the `crc`
/// crate's CRC-32/ISCSI).
const CRC32C: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);

/// The verification tag of the endpoint listening on `own_port` whose peer uses `peer_port`:
/// what packets sent to it carry.
pub fn verification_tag(own_port: u16, peer_port: u16) -> u32 {
    (u32::from(own_port) << 16) | u32::from(peer_port)
}

/// The checksum field of SCTP packet `bytes` (whose checksum field is zero), as stored:
/// RFC 4960 appendix B puts the CRC's least significant byte first.
pub fn checksum_field(bytes: &[u8]) -> [u8; 4] {
    CRC32C.checksum(bytes).to_le_bytes()
}

/// Append the IPv4 packet of SCTP packet `pkt` carrying `sctp` to `out`. `addresses` is the
/// run's address table (HEARTBEAT information and ASCONF parameters name addresses).
pub fn encode(
    pkt: &Packet,
    sctp: &SctpPacket,
    flow: &FlowWire,
    wire: &SctpWire,
    addresses: &[[u8; 4]],
    ends: &Ends,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    let len = sctp.wire_len() as usize;
    let ip = ipv4::header(ends, IpNumber::SCTP, len)?;
    ipv4::write(&ip, out);
    let start = out.len();
    let (src_port, dst_port) = if wire.sender_addrs.contains(&pkt.src.0) {
        (flow.sender_port, flow.receiver_port)
    } else {
        (flow.receiver_port, flow.sender_port)
    };
    // Common header (§3.1): ports, verification tag, checksum (zero while it is computed).
    put16(out, src_port);
    put16(out, dst_port);
    put32(out, verification_tag(dst_port, src_port));
    put32(out, 0);
    let addr = |a: u32| addresses.get(a as usize).copied().ok_or(EncodeError::Address(a));
    for chunk in &sctp.chunks {
        let at = out.len();
        match chunk {
            Chunk::Data(d) => data(d, out),
            Chunk::Sack(s) => sack(s, out),
            Chunk::Heartbeat(h) => heartbeat(chunk_type::HEARTBEAT, h, addr(h.dest)?, out),
            Chunk::HeartbeatAck(h) => heartbeat(chunk_type::HEARTBEAT_ACK, h, addr(h.dest)?, out),
            Chunk::Asconf(a) => asconf(a, &addr, out)?,
            Chunk::AsconfAck(a) => asconf_ack(a, out),
        }
        // The Chunk Length counts no padding; the chunk is padded with zeros to 4 bytes (§3.2).
        let chunk_len = out.len() - at;
        out[at + 2..at + 4].copy_from_slice(&(chunk_len as u16).to_be_bytes());
        out.resize(at + padded(chunk_len as u32) as usize, 0);
    }
    debug_assert_eq!(out.len() - start, len, "the bytes written are the size SctpPacket::wire_len counts");
    let sum = checksum_field(&out[start..]);
    out[start + CHECKSUM_AT..start + CHECKSUM_AT + 4].copy_from_slice(&sum);
    Ok(())
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}

/// Chunk type and flags, and a length field that [`encode`] fills in once the value is written.
fn chunk_header(out: &mut Vec<u8>, kind: u8, flags: u8) {
    out.extend_from_slice(&[kind, flags, 0, 0]);
}

/// DATA (§3.3.1): TSN, stream identifier, stream sequence number, payload protocol identifier,
/// then the user data (zeros).
fn data(d: &DataChunk, out: &mut Vec<u8>) {
    let flags = (if d.unordered { FLAG_UNORDERED } else { 0 })
        | (if d.beginning { FLAG_BEGINNING } else { 0 })
        | (if d.ending { FLAG_ENDING } else { 0 });
    chunk_header(out, chunk_type::DATA, flags);
    put32(out, d.tsn);
    put16(out, d.stream);
    put16(out, d.ssn);
    put32(out, d.ppid);
    out.extend_from_slice(zeros(d.payload_len as usize));
}

/// SACK (§3.3.4): cumulative TSN ack, a_rwnd, the numbers of Gap Ack Blocks and of duplicate
/// TSNs, the blocks (start and end offsets from the cumulative ack), the duplicate TSNs.
fn sack(s: &SackChunk, out: &mut Vec<u8>) {
    chunk_header(out, chunk_type::SACK, 0);
    put32(out, s.cum_tsn_ack);
    put32(out, s.a_rwnd);
    put16(out, s.gap_blocks.len() as u16);
    put16(out, s.dup_tsns.len() as u16);
    for b in &s.gap_blocks {
        put16(out, b.start);
        put16(out, b.end);
    }
    for &tsn in &s.dup_tsns {
        put32(out, tsn);
    }
}

/// HEARTBEAT or HEARTBEAT-ACK (§3.3.5, §3.3.6): one Heartbeat Info parameter whose 16 bytes
/// (the simulated size) hold the destination address, 4 zero bytes and the sending time.
fn heartbeat(kind: u8, h: &HeartbeatInfo, dest: [u8; 4], out: &mut Vec<u8>) {
    chunk_header(out, kind, 0);
    put16(out, param_type::HEARTBEAT_INFO);
    put16(out, 4 + 16);
    out.extend_from_slice(&dest);
    put32(out, 0);
    out.extend_from_slice(&h.sent_at_ns.to_be_bytes());
}

/// IPv4 Address Parameter (RFC 4960 §3.3.2.1).
fn ipv4_address(out: &mut Vec<u8>, a: [u8; 4]) {
    put16(out, param_type::IPV4_ADDRESS);
    put16(out, 8);
    out.extend_from_slice(&a);
}

/// ASCONF (RFC 5061 §4.1.1): serial number, the sender's address parameter, then each request
/// (§4.2.1-§4.2.4) as type, length, correlation id and the IPv4 Address Parameter it names.
fn asconf(
    a: &AsconfChunk,
    addr: &impl Fn(u32) -> Result<[u8; 4], EncodeError>,
    out: &mut Vec<u8>,
) -> Result<(), EncodeError> {
    chunk_header(out, chunk_type::ASCONF, 0);
    put32(out, a.serial);
    ipv4_address(out, addr(a.sender_addr)?);
    for r in &a.requests {
        let kind = match r {
            AsconfRequest::AddIp { .. } => param_type::ADD_IP,
            AsconfRequest::DeleteIp { .. } => param_type::DELETE_IP,
            AsconfRequest::SetPrimary { .. } => param_type::SET_PRIMARY,
        };
        put16(out, kind);
        put16(out, 8 + 8);
        put32(out, r.correlation());
        ipv4_address(out, addr(r.addr())?);
    }
    Ok(())
}

/// ASCONF-ACK (RFC 5061 §4.1.2): serial number, then per result a Success Indication (§4.2.5)
/// or an Error Cause Indication (§4.2.6) with the correlation id of the request it answers.
fn asconf_ack(a: &AsconfAckChunk, out: &mut Vec<u8>) {
    chunk_header(out, chunk_type::ASCONF_ACK, 0);
    put32(out, a.serial);
    for r in &a.results {
        let kind = match r {
            AsconfResult::Success { .. } => param_type::SUCCESS_INDICATION,
            AsconfResult::Error { .. } => param_type::ERROR_CAUSE_INDICATION,
        };
        put16(out, kind);
        put16(out, 8);
        put32(out, r.correlation());
    }
}
