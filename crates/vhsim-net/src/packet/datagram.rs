//! The header of the minimal datagram transport (UDP-like: a sequence number for the
//! receiver's loss and order accounting, no acknowledgments).

/// A datagram's header.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagramHeader {
    /// Datagram number, from 0.
    pub seq: u64,
}
