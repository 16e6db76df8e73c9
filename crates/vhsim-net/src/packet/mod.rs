//! Packets as plain data: a small transport-neutral part the world reads (addresses, size, the
//! trace tag) and a typed transport payload only the endpoints read.
//!
//! The world routes by `dst`, queues by `size` and records the `tag`; it never reads
//! `payload`. Each transport fills the tag when it builds a packet, so traces, ground truth and
//! error models that act on data units (the drop list) work for every transport alike.

mod datagram;
pub mod sctp;
mod tcp;

pub use datagram::DatagramHeader;
pub use sctp::SctpPacket;
pub use tcp::{SackBlock, TcpHeader, MAX_SACK_BLOCKS, TCP_FLAG_SIG, TCP_FLAG_ZERO_WINDOW};

use crate::addr::Addr;

/// Flow id of packets that belong to no flow (packets of node agents).
pub const NO_FLOW: u32 = u32::MAX;

/// What a packet carries, as traces and ground truth see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum UnitKind {
    /// Application data (TCP segment, SCTP DATA, datagram).
    Data = 0,
    /// An acknowledgment without data.
    Ack = 1,
    /// Anything else (heartbeats, agents' signalling).
    Control = 2,
}

/// Why a data unit is (re)sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum RetxCause {
    /// First transmission.
    New = 0,
    /// Fast retransmit at the duplicate-ACK (or miss-indication) threshold.
    FastRetransmit = 1,
    /// Retransmission during loss recovery (partial ACK, SACK hole).
    Recovery = 2,
    /// The retransmission a timeout triggers.
    Timeout = 3,
    /// A later retransmission of go-back-N after a timeout.
    GoBackN = 4,
    /// A zero-window probe that carries already-sent data (RFC 9293 §3.8.6.1).
    Probe = 5,
    /// The retransmission a handover notification triggers at once (TCP's cross-layer A3):
    /// not a timeout's, whatever recovery the sender is in.
    Notified = 6,
}

impl RetxCause {
    /// True for every cause but `New`.
    pub fn is_retransmission(self) -> bool {
        self != RetxCause::New
    }
}

/// The transport-neutral description of a packet, filled by the endpoint that built it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceTag {
    /// What the packet carries.
    pub kind: UnitKind,
    /// Data: the first data unit carried (TCP segment number, SCTP TSN); Ack: the cumulative
    /// acknowledgment point; Control: transport-defined (0 if nothing).
    pub seq: u64,
    /// Data units carried: `seq .. seq + units` (1 for TCP data, 0 for ACKs).
    pub units: u16,
    /// Why a data unit is sent (`New` for ACKs and control).
    pub retx: RetxCause,
    /// Which transmission of `seq` this is (0 = the first); set by the world's ground truth.
    pub copy: u32,
    /// Application payload bytes carried.
    pub payload_bytes: u32,
    /// Transport flags for traces (meaning per transport; TCP: [`TCP_FLAG_ZERO_WINDOW`], ...).
    pub flags: u8,
}

impl TraceTag {
    /// A data unit's tag.
    pub fn data(seq: u64, payload_bytes: u32, retx: RetxCause) -> Self {
        TraceTag { kind: UnitKind::Data, seq, units: 1, retx, copy: 0, payload_bytes, flags: 0 }
    }

    /// An acknowledgment's tag.
    pub fn ack(cumulative: u64) -> Self {
        TraceTag { kind: UnitKind::Ack, seq: cumulative, units: 0, retx: RetxCause::New, copy: 0, payload_bytes: 0, flags: 0 }
    }

    /// A control packet's tag.
    pub fn control(seq: u64) -> Self {
        TraceTag { kind: UnitKind::Control, seq, units: 0, retx: RetxCause::New, copy: 0, payload_bytes: 0, flags: 0 }
    }
}

/// The transport payload: headers as typed structs, application data as a length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A TCP segment or acknowledgment.
    Tcp(TcpHeader),
    /// A datagram of the minimal datagram transport.
    Datagram(DatagramHeader),
    /// An SCTP packet: common header and chunk bundle (out of line: a bundle is large and most
    /// packets of a run are of other transports).
    Sctp(Box<SctpPacket>),
    /// Nothing the world's endpoints read (packets of node agents carry their meaning in the
    /// tag).
    Empty,
}

/// One packet in the network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique id within the run (monotonic in creation order); set by the world.
    pub uid: u64,
    /// Index of the flow it belongs to ([`NO_FLOW`] for node agents' packets).
    pub flow: u32,
    /// Source address.
    pub src: Addr,
    /// Destination address.
    pub dst: Addr,
    /// Bytes on the wire (headers included).
    pub size: u32,
    /// What traces and ground truth see.
    pub tag: TraceTag,
    /// What the endpoints read.
    pub payload: Payload,
}

/// Bytes a [`Packet`] may take at most. Packets are moved whole several times per hop (out
/// of an endpoint, into a link's queue or the in-flight store and out again), so their size
/// is a per-packet cost of the engine (docs/performance.md "Issue #28: a smaller packet"):
/// 104 bytes since the SACK blocks are stored in 32 bits (136 before).
const PACKET_SIZE_LIMIT: usize = 104;
const _: () = assert!(std::mem::size_of::<Packet>() <= PACKET_SIZE_LIMIT, "Packet grew: see PACKET_SIZE_LIMIT");

/// Why a packet was dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum DropCause {
    /// The drop-tail queue was full.
    QueueOverflow = 1,
    /// An error model discarded it.
    ErrorModel = 2,
    /// The link was down.
    LinkDown = 3,
    /// The anchor's binding still named a care-of address the mobile node had left
    /// (Mobile IP registration latency with `old_path = "drop"`).
    Binding = 4,
    /// A node agent dropped it by its rule.
    Agent = 5,
}

impl DropCause {
    /// All causes, in code order.
    pub const ALL: [DropCause; 5] =
        [DropCause::QueueOverflow, DropCause::ErrorModel, DropCause::LinkDown, DropCause::Binding, DropCause::Agent];

    /// Name used in summaries and traces.
    pub fn name(self) -> &'static str {
        match self {
            DropCause::QueueOverflow => "queue_overflow",
            DropCause::ErrorModel => "error_model",
            DropCause::LinkDown => "link_down",
            DropCause::Binding => "binding",
            DropCause::Agent => "agent",
        }
    }
}

/// Drop counters by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DropCounts([u64; DropCause::ALL.len()]);

impl DropCounts {
    /// Count one drop.
    pub fn add(&mut self, cause: DropCause) {
        self.0[cause as usize - 1] += 1;
    }

    /// Drops with `cause`.
    pub fn get(&self, cause: DropCause) -> u64 {
        self.0[cause as usize - 1]
    }

    /// (cause, count) for every cause, in code order.
    pub fn iter(&self) -> impl Iterator<Item = (DropCause, u64)> + '_ {
        DropCause::ALL.iter().map(|&c| (c, self.get(c)))
    }
}
