//! SCTP packets as plain data: the common header and a bundle of typed chunks (RFC 4960 §3).
//!
//! The payload of `Payload::Sctp`; the SCTP endpoints (crate `vhsim-sctp`, which re-exports
//! this module as `wire`) build and read it, the world never does. Field widths are those of the wire format (TSN
//! u32, stream id and SSN u16, gap-block offsets u16); sizes are computed, never serialized:
//! [`SctpPacket::wire_len`] is the common header plus every chunk with its header and padding
//! to a multiple of 4 bytes (RFC 4960 §3.2). IP headers are the sender's business.
//!
//! Gap Ack Blocks are offsets from the Cumulative TSN Ack (RFC 4960 §3.3.4):
//! [`SackChunk::from_received`] builds them from the TSNs received above the cumulative ack,
//! [`SackChunk::acked_ranges`] turns them back into absolute TSN ranges.

/// Bytes of the SCTP common header (ports, verification tag, checksum).
pub const COMMON_HEADER_LEN: u32 = 12;
/// Bytes of every chunk header (type, flags, length).
pub const CHUNK_HEADER_LEN: u32 = 4;
/// Bytes of a DATA chunk before its user data (chunk header, TSN, stream id, SSN, PPID).
pub const DATA_HEADER_LEN: u32 = 16;
/// Bytes of a SACK chunk without gap blocks and duplicate TSNs.
pub const SACK_HEADER_LEN: u32 = 16;
/// Bytes of one Gap Ack Block.
pub const GAP_BLOCK_LEN: u32 = 4;
/// Bytes of one reported duplicate TSN.
pub const DUP_TSN_LEN: u32 = 4;
/// Bytes of a HEARTBEAT or HEARTBEAT-ACK chunk: chunk header, Heartbeat Info parameter header
/// and a 16-byte [`HeartbeatInfo`] (24, as ns-2's `SCTP_CHUNK_HEARTBEAT_LENGTH`).
pub const HEARTBEAT_LEN: u32 = CHUNK_HEADER_LEN + 4 + 16;
/// Bytes of an ASCONF chunk before its parameters: chunk header, serial number and the
/// mandatory IPv4 Address Parameter of the sender (RFC 5061 §4.1.1).
pub const ASCONF_HEADER_LEN: u32 = CHUNK_HEADER_LEN + 4 + 8;
/// Bytes of one ASCONF request parameter: type, length, correlation id, IPv4 address parameter.
pub const ASCONF_PARAM_LEN: u32 = 16;
/// Bytes of an ASCONF-ACK chunk before its results: chunk header and serial number.
pub const ASCONF_ACK_HEADER_LEN: u32 = CHUNK_HEADER_LEN + 4;
/// Bytes of one ASCONF-ACK result (Success Indication or Error Cause Indication with its
/// correlation id; error details are not modelled).
pub const ASCONF_RESULT_LEN: u32 = 8;

/// Rounds a chunk length up to the 4-byte boundary every chunk is padded to.
pub const fn padded(len: u32) -> u32 {
    len.div_ceil(4) * 4
}

/// The SCTP common header (RFC 4960 §3.1). The checksum is not modelled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CommonHeader {
    /// Source port.
    pub src_port: u16,
    /// Destination port.
    pub dst_port: u16,
    /// The receiver's verification tag.
    pub verification_tag: u32,
}

/// A DATA chunk (RFC 4960 §3.3.1); the user data itself is only a length.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DataChunk {
    /// Transmission sequence number.
    pub tsn: u32,
    /// Stream identifier.
    pub stream: u16,
    /// Stream sequence number (of the message within its stream).
    pub ssn: u16,
    /// Payload protocol identifier.
    pub ppid: u32,
    /// Bytes of user data (the chunk length minus [`DATA_HEADER_LEN`], before padding).
    pub payload_len: u32,
    /// U bit: unordered delivery.
    pub unordered: bool,
    /// B bit: first fragment of a message.
    pub beginning: bool,
    /// E bit: last fragment of a message.
    pub ending: bool,
}

impl DataChunk {
    /// Chunk length field: header plus user data, before padding.
    pub fn chunk_len(&self) -> u32 {
        DATA_HEADER_LEN + self.payload_len
    }
}

/// One Gap Ack Block: TSNs `cum + start ..= cum + end` were received (RFC 4960 §3.3.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct GapAckBlock {
    /// Offset of the first received TSN of the block from the Cumulative TSN Ack (>= 1).
    pub start: u16,
    /// Offset of the last received TSN of the block (>= start).
    pub end: u16,
}

/// A SACK chunk (RFC 4960 §3.3.4).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SackChunk {
    /// Last TSN received in sequence.
    pub cum_tsn_ack: u32,
    /// Advertised receiver window credit, bytes.
    pub a_rwnd: u32,
    /// Gap Ack Blocks in increasing TSN order.
    pub gap_blocks: Vec<GapAckBlock>,
    /// TSNs received more than once since the previous SACK.
    pub dup_tsns: Vec<u32>,
}

impl SackChunk {
    /// A SACK for `cum` with gap blocks covering `ranges` (inclusive absolute TSN ranges
    /// above `cum + 1`, increasing, disjoint and not adjacent), keeping at most `max_blocks`
    /// blocks (the lowest ones) and only blocks whose offsets fit 16 bits.
    pub fn from_received(
        cum: u32,
        a_rwnd: u32,
        ranges: impl IntoIterator<Item = (u32, u32)>,
        max_blocks: usize,
    ) -> Self {
        let mut gap_blocks = Vec::new();
        for (first, last) in ranges {
            if gap_blocks.len() == max_blocks {
                break;
            }
            debug_assert!(
                first > cum.wrapping_add(1) && last >= first,
                "bad range {first}..={last} over {cum}"
            );
            let (Ok(start), Ok(end)) = (u16::try_from(first - cum), u16::try_from(last - cum)) else {
                break;
            };
            gap_blocks.push(GapAckBlock { start, end });
        }
        SackChunk { cum_tsn_ack: cum, a_rwnd, gap_blocks, dup_tsns: Vec::new() }
    }

    /// The absolute inclusive TSN ranges the gap blocks acknowledge.
    pub fn acked_ranges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let cum = self.cum_tsn_ack;
        self.gap_blocks.iter().map(move |b| (cum + b.start as u32, cum + b.end as u32))
    }

    /// Highest TSN the SACK reports as received (the cumulative ack if there are no gaps).
    pub fn highest_acked(&self) -> u32 {
        self.acked_ranges().map(|r| r.1).max().unwrap_or(self.cum_tsn_ack).max(self.cum_tsn_ack)
    }

    /// Chunk length: header, 4 bytes per gap block and per duplicate TSN.
    pub fn chunk_len(&self) -> u32 {
        SACK_HEADER_LEN
            + GAP_BLOCK_LEN * self.gap_blocks.len() as u32
            + DUP_TSN_LEN * self.dup_tsns.len() as u32
    }
}

/// The sender-specific Heartbeat Information a HEARTBEAT carries and its ACK echoes
/// (RFC 4960 §8.3 suggests the destination address and the sending time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeartbeatInfo {
    /// The destination address the HEARTBEAT was sent to (the address table index).
    pub dest: u32,
    /// When it was sent, nanoseconds since the start of the run.
    pub sent_at_ns: u64,
}

/// One ASCONF request (RFC 5061 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsconfRequest {
    /// Add IP Address (0xC001).
    AddIp {
        /// Correlation id.
        correlation: u32,
        /// The address to add.
        addr: u32,
    },
    /// Delete IP Address (0xC002).
    DeleteIp {
        /// Correlation id.
        correlation: u32,
        /// The address to delete.
        addr: u32,
    },
    /// Set Primary Address (0xC004).
    SetPrimary {
        /// Correlation id.
        correlation: u32,
        /// The address the peer should use as primary destination.
        addr: u32,
    },
}

/// An ASCONF chunk (RFC 5061 §4.1.1, type 0xC1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AsconfChunk {
    /// Serial number.
    pub serial: u32,
    /// The sender's address (the mandatory Address Parameter).
    pub sender_addr: u32,
    /// Requests, processed in order.
    pub requests: Vec<AsconfRequest>,
}

/// Error cause Unresolvable Address (RFC 4960 §3.3.10.5): the request names an address that is
/// not part of the association (Set Primary, Delete IP).
pub const CAUSE_UNRESOLVABLE_ADDRESS: u16 = 0x0005;
/// Error cause Request to Delete Last Remaining IP Address (RFC 5061 §4.2.4).
pub const CAUSE_DELETE_LAST_ADDRESS: u16 = 0x00A0;
/// Error cause Request to Delete Source IP Address (RFC 5061 §4.2.4).
pub const CAUSE_DELETE_SOURCE_ADDRESS: u16 = 0x00A2;

impl AsconfRequest {
    /// The request's correlation id.
    pub fn correlation(&self) -> u32 {
        match *self {
            AsconfRequest::AddIp { correlation, .. }
            | AsconfRequest::DeleteIp { correlation, .. }
            | AsconfRequest::SetPrimary { correlation, .. } => correlation,
        }
    }

    /// The address the request names.
    pub fn addr(&self) -> u32 {
        match *self {
            AsconfRequest::AddIp { addr, .. }
            | AsconfRequest::DeleteIp { addr, .. }
            | AsconfRequest::SetPrimary { addr, .. } => addr,
        }
    }
}

/// Outcome of one ASCONF request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsconfResult {
    /// Success Indication (0xC005).
    Success {
        /// Correlation id of the request.
        correlation: u32,
    },
    /// Error Cause Indication (0xC003) with its cause code (e.g. 0x00A0).
    Error {
        /// Correlation id of the request.
        correlation: u32,
        /// Error cause code.
        cause: u16,
    },
}

impl AsconfResult {
    /// The correlation id of the request it answers.
    pub fn correlation(&self) -> u32 {
        match *self {
            AsconfResult::Success { correlation } | AsconfResult::Error { correlation, .. } => correlation,
        }
    }
}

/// An ASCONF-ACK chunk (RFC 5061 §4.1.2, type 0x80).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AsconfAckChunk {
    /// Serial number of the acknowledged ASCONF.
    pub serial: u32,
    /// Results; requests without a result succeeded (RFC 5061 §5.2).
    pub results: Vec<AsconfResult>,
}

/// One chunk of a packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Chunk {
    /// User data.
    Data(DataChunk),
    /// Selective acknowledgement.
    Sack(SackChunk),
    /// Path probe.
    Heartbeat(HeartbeatInfo),
    /// Reply to a HEARTBEAT, echoing its information.
    HeartbeatAck(HeartbeatInfo),
    /// Address reconfiguration request (RFC 5061).
    Asconf(AsconfChunk),
    /// Address reconfiguration reply (RFC 5061).
    AsconfAck(AsconfAckChunk),
}

impl Chunk {
    /// Bytes on the wire, padding included.
    pub fn wire_len(&self) -> u32 {
        padded(match self {
            Chunk::Data(d) => d.chunk_len(),
            Chunk::Sack(s) => s.chunk_len(),
            Chunk::Heartbeat(_) | Chunk::HeartbeatAck(_) => HEARTBEAT_LEN,
            Chunk::Asconf(a) => ASCONF_HEADER_LEN + ASCONF_PARAM_LEN * a.requests.len() as u32,
            Chunk::AsconfAck(a) => ASCONF_ACK_HEADER_LEN + ASCONF_RESULT_LEN * a.results.len() as u32,
        })
    }

    /// The chunk's bit in [`SctpPacket::kind_flags`].
    pub fn kind_flag(&self) -> u8 {
        match self {
            Chunk::Data(_) => KIND_DATA,
            Chunk::Sack(_) => KIND_SACK,
            Chunk::Heartbeat(_) => KIND_HEARTBEAT,
            Chunk::HeartbeatAck(_) => KIND_HEARTBEAT_ACK,
            Chunk::Asconf(_) => KIND_ASCONF,
            Chunk::AsconfAck(_) => KIND_ASCONF_ACK,
        }
    }
}

/// [`SctpPacket::kind_flags`] bit: the packet carries DATA.
pub const KIND_DATA: u8 = 0x01;
/// Bit: the packet carries a SACK.
pub const KIND_SACK: u8 = 0x02;
/// Bit: the packet carries a HEARTBEAT.
pub const KIND_HEARTBEAT: u8 = 0x04;
/// Bit: the packet carries a HEARTBEAT-ACK.
pub const KIND_HEARTBEAT_ACK: u8 = 0x08;
/// Bit: the packet carries an ASCONF.
pub const KIND_ASCONF: u8 = 0x10;
/// Bit: the packet carries an ASCONF-ACK.
pub const KIND_ASCONF_ACK: u8 = 0x20;

/// An SCTP packet: common header and chunks in bundling order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SctpPacket {
    /// Common header.
    pub header: CommonHeader,
    /// Bundled chunks.
    pub chunks: Vec<Chunk>,
}

impl SctpPacket {
    /// Bytes of the SCTP packet (common header and padded chunks), without IP header.
    pub fn wire_len(&self) -> u32 {
        COMMON_HEADER_LEN + self.chunks.iter().map(Chunk::wire_len).sum::<u32>()
    }

    /// OR of the [`Chunk::kind_flag`]s of the bundled chunks (for packet traces).
    pub fn kind_flags(&self) -> u8 {
        self.chunks.iter().fold(0, |f, c| f | c.kind_flag())
    }

    /// The DATA chunks, in bundling order.
    pub fn data_chunks(&self) -> impl Iterator<Item = &DataChunk> {
        self.chunks.iter().filter_map(|c| match c {
            Chunk::Data(d) => Some(d),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ns2_default_data_packet_is_one_mtu() {
        // ns-2: dataChunkSize_ 1468 (chunk incl. its 16-byte header) + 12 common + 20 IP = 1500.
        let d = DataChunk {
            tsn: 1,
            payload_len: 1468 - DATA_HEADER_LEN,
            beginning: true,
            ending: true,
            ..Default::default()
        };
        let p = SctpPacket { header: CommonHeader::default(), chunks: vec![Chunk::Data(d)] };
        assert_eq!(p.wire_len() + 20, 1500);
        assert_eq!(p.kind_flags(), KIND_DATA);
    }

    #[test]
    fn chunks_are_padded_to_four_bytes() {
        let d = DataChunk { payload_len: 5, ..Default::default() };
        assert_eq!(Chunk::Data(d).wire_len(), 24);
        assert_eq!(Chunk::Heartbeat(HeartbeatInfo::default()).wire_len(), 24);
    }

    #[test]
    fn sack_length_counts_blocks_and_duplicates() {
        let mut s = SackChunk::from_received(10, 65536, [(12, 13), (15, 15)], 100);
        s.dup_tsns = vec![9];
        assert_eq!(s.gap_blocks, vec![GapAckBlock { start: 2, end: 3 }, GapAckBlock { start: 5, end: 5 }]);
        assert_eq!(s.chunk_len(), 16 + 8 + 4);
        assert_eq!(s.acked_ranges().collect::<Vec<_>>(), vec![(12, 13), (15, 15)]);
        assert_eq!(s.highest_acked(), 15);
    }

    #[test]
    fn block_limit_keeps_the_lowest_blocks() {
        let s = SackChunk::from_received(0, 0, [(2, 2), (4, 4), (6, 6)], 2);
        assert_eq!(s.acked_ranges().collect::<Vec<_>>(), vec![(2, 2), (4, 4)]);
        let far = SackChunk::from_received(0, 0, [(2, 2), (70_000, 70_001)], 10);
        assert_eq!(far.gap_blocks.len(), 1, "offsets beyond 16 bits are not reportable");
    }
}
