//! Packets as plain data. TCP sequence numbers count segments (as ns-2 one-way TCP does); an
//! ACK carries the next segment expected (cumulative), unlike ns-2's "highest received".

/// A SACK block: segments `start..end` (end exclusive) have been received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlock {
    /// First segment of the block.
    pub start: u64,
    /// One past the last segment of the block.
    pub end: u64,
}

/// What a packet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketKind {
    /// A TCP data segment.
    Data {
        /// Segment number.
        seq: u64,
        /// Which transmission of this segment (0 = first); set by the world's ground-truth
        /// tracker, never read by endpoints.
        tx_index: u32,
    },
    /// A TCP acknowledgment.
    Ack {
        /// Next segment expected (cumulative ACK).
        ack: u64,
        /// Number of valid entries in `sack`.
        n_sack: u8,
        /// SACK blocks, most recent first.
        sack: [SackBlock; 3],
        /// Advertised window in segments.
        window: u32,
    },
}

/// One packet in the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packet {
    /// Unique id within the run (monotonic in creation order).
    pub uid: u64,
    /// Index of the flow it belongs to.
    pub flow: u32,
    /// Node it was sent from.
    pub src: u32,
    /// Node it is addressed to.
    pub dst: u32,
    /// Bytes on the wire (headers included).
    pub size: u32,
    /// Payload.
    pub kind: PacketKind,
}

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
}

impl DropCause {
    /// All causes, in code order.
    pub const ALL: [DropCause; 3] = [DropCause::QueueOverflow, DropCause::ErrorModel, DropCause::LinkDown];

    /// Name used in summaries and traces.
    pub fn name(self) -> &'static str {
        match self {
            DropCause::QueueOverflow => "queue_overflow",
            DropCause::ErrorModel => "error_model",
            DropCause::LinkDown => "link_down",
        }
    }
}
