//! The TCP header as vhsim models it. Sequence numbers count segments (as ns-2's one-way TCP
//! does); an ACK carries the next segment expected (cumulative), unlike ns-2's "highest
//! received". Only the TCP endpoints (crate vhsim-tcp) build and read it.
//!
//! The header is moved with its packet several times per hop, so it is kept small (`Packet`'s
//! size is asserted in `packet/mod.rs`): the SACK blocks are stored as 32-bit sequence numbers,
//! as on the wire, and read back relative to the header's cumulative ACK.

/// Trace flag: the advertised window is zero (RFC 9293 §3.8.6.1; Freeze-TCP's ZWA).
pub const TCP_FLAG_ZERO_WINDOW: u8 = 1;
/// Trace flag and header bit: DEMO-Vegas's SIG bit (a care-of address change in progress).
pub const TCP_FLAG_SIG: u8 = 2;

/// SACK blocks a header carries at most (RFC 2018 §3: three with the timestamps option).
pub const MAX_SACK_BLOCKS: usize = 3;

/// A SACK block: segments `start..end` (end exclusive) have been received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SackBlock {
    /// First segment of the block.
    pub start: u64,
    /// One past the last segment of the block.
    pub end: u64,
}

/// A SACK block as the header stores it: its first segment modulo 2^32 and its length. Read
/// back against the cumulative ACK with serial-number arithmetic, as TCP compares its 32-bit
/// sequence numbers (RFC 9293 §3.4): exact for every block within 2^31 segments of the ACK
/// (a receive window is at most 2^30 bytes, RFC 7323 §2.3; a D-SACK block may lie below the
/// ACK, RFC 2883 §4).
///
/// Stored as bytes (alignment 1), so that [`SackBlocks`] packs into the header without padding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct WireSack {
    start: [u8; 4],
    len: [u8; 4],
}

/// How many SACK blocks a header holds: an enum rather than a `u8`, so that its unused values
/// hold the discriminant of `Payload` (one word less per packet).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
enum SackCount {
    #[default]
    Zero = 0,
    One = 1,
    Two = 2,
    Three = 3,
}

impl SackCount {
    fn of(n: usize) -> Self {
        match n {
            0 => SackCount::Zero,
            1 => SackCount::One,
            2 => SackCount::Two,
            _ => SackCount::Three,
        }
    }
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
    /// Timestamps option (RFC 7323 §3), a 1 µs clock, 0 = none: TSval, the sending
    /// endpoint's clock (the receiver stamps its ACKs), and TSecr, the TSval it echoes (the
    /// sender's data segments echo the latest ACK's), from which the receiver measures the
    /// round trip (RFC 7323 §4; Freeze-TCP's warning, `mobile.warning = "srtt"`).
    pub ts_val: u32,
    /// See `ts_val`.
    pub ts_ecr: u32,
    /// Flag bits beyond SYN/ACK/FIN: [`TCP_FLAG_SIG`]; room for more.
    pub flags: u8,
    /// SACK blocks, most recent first (RFC 2018 §4): read with [`TcpHeader::sack_blocks`],
    /// set with [`TcpHeader::set_sack_blocks`].
    pub sack: SackBlocks,
}

/// The SACK blocks of a [`TcpHeader`], stored as on the wire (see [`WireSack`]); they are read
/// against the header's ACK.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    n: SackCount,
    blocks: [WireSack; MAX_SACK_BLOCKS],
}

impl TcpHeader {
    /// The SACK blocks, most recent first.
    pub fn sack_blocks(&self) -> impl ExactSizeIterator<Item = SackBlock> + '_ {
        let ack = self.ack;
        self.sack.blocks[..self.sack.n as usize].iter().map(move |b| {
            // The signed distance from the ACK to the block's start, modulo 2^32.
            let from_ack = i64::from(u32::from_ne_bytes(b.start).wrapping_sub(ack as u32) as i32);
            let start = ack.wrapping_add_signed(from_ack);
            SackBlock { start, end: start + u64::from(u32::from_ne_bytes(b.len)) }
        })
    }

    /// Set the SACK blocks: the first [`MAX_SACK_BLOCKS`] of `blocks`, most recent first.
    pub fn set_sack_blocks(&mut self, blocks: impl IntoIterator<Item = SackBlock>) {
        let mut n = 0;
        for (slot, b) in self.sack.blocks.iter_mut().zip(blocks) {
            debug_assert!(b.start <= b.end && b.end - b.start <= u64::from(u32::MAX), "SACK block {b:?}");
            *slot = WireSack { start: (b.start as u32).to_ne_bytes(), len: ((b.end - b.start) as u32).to_ne_bytes() };
            n += 1;
        }
        self.sack.n = SackCount::of(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(ack: u64, blocks: &[(u64, u64)]) -> Vec<(u64, u64)> {
        let mut h = TcpHeader { ack, ..TcpHeader::default() };
        h.set_sack_blocks(blocks.iter().map(|&(start, end)| SackBlock { start, end }));
        h.sack_blocks().map(|b| (b.start, b.end)).collect()
    }

    #[test]
    fn sack_blocks_read_back_exactly_above_and_below_the_ack() {
        assert_eq!(roundtrip(0, &[]), []);
        assert_eq!(roundtrip(10, &[(12, 14), (16, 17), (20, 25)]), [(12, 14), (16, 17), (20, 25)]);
        // A D-SACK block below the ACK (RFC 2883), and blocks across a 2^32 boundary.
        assert_eq!(roundtrip(3, &[(1, 2), (5, 6)]), [(1, 2), (5, 6)]);
        let big = (1u64 << 32) - 2;
        assert_eq!(roundtrip(big, &[(big - 5, big - 4), (big + 3, big + 9)]), [(big - 5, big - 4), (big + 3, big + 9)]);
        assert_eq!(roundtrip(big + 4, &[(big, big + 2)]), [(big, big + 2)]);
        // Within 2^31 segments either side of the ACK.
        let far = (1u64 << 31) - 1;
        assert_eq!(roundtrip(far + 100, &[(100, 101), (2 * far + 100, 2 * far + 101)]), [(100, 101), (2 * far + 100, 2 * far + 101)]);
    }

    #[test]
    fn at_most_three_blocks_are_kept() {
        let blocks = [(5, 6), (8, 9), (11, 12), (14, 15)];
        assert_eq!(roundtrip(2, &blocks), &blocks[..3]);
    }
}
