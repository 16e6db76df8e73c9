//! The TCP header as vhsim models it. Sequence numbers count segments (as ns-2's one-way TCP
//! does); an ACK carries the next segment expected (cumulative), unlike ns-2's "highest
//! received". Only the TCP endpoints (crate vhsim-tcp) build and read it.

/// Trace flag: the advertised window is zero (RFC 9293 §3.8.6.1; Freeze-TCP's ZWA).
pub const TCP_FLAG_ZERO_WINDOW: u8 = 1;
/// Trace flag and header bit: DEMO-Vegas's SIG bit (a care-of address change in progress).
pub const TCP_FLAG_SIG: u8 = 2;

/// A SACK block: segments `start..end` (end exclusive) have been received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlock {
    /// First segment of the block.
    pub start: u64,
    /// One past the last segment of the block.
    pub end: u64,
}

/// A TCP segment's header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpHeader {
    /// Segment number (data segments).
    pub seq: u64,
    /// Next segment expected (ACKs).
    pub ack: u64,
    /// Advertised window in segments (0 = zero-window advertisement).
    pub window: u32,
    /// Flag bits beyond SYN/ACK/FIN: [`TCP_FLAG_SIG`]; room for more.
    pub flags: u8,
    /// Number of valid entries in `sack`.
    pub n_sack: u8,
    /// Timestamps option (RFC 7323 §3), a 1 µs clock, 0 = none: TSval, the sending
    /// endpoint's clock (the receiver stamps its ACKs), and TSecr, the TSval it echoes (the
    /// sender's data segments echo the latest ACK's), from which the receiver measures the
    /// round trip (RFC 7323 §4; Freeze-TCP's warning, `mobile.warning = "srtt"`).
    pub ts_val: u32,
    /// See `ts_val`.
    pub ts_ecr: u32,
    /// SACK blocks, most recent first (RFC 2018 §4).
    pub sack: [SackBlock; 3],
}

impl TcpHeader {
    /// The valid SACK blocks.
    pub fn sack_blocks(&self) -> &[SackBlock] {
        &self.sack[..self.n_sack as usize]
    }
}
