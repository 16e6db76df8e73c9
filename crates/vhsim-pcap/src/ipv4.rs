//! The IPv4 header every frame starts with (RFC 791).

use crate::EncodeError;
use etherparse::{IpNumber, Ipv4Header};

/// Time to live of every packet: a capture point does not know how many hops a packet took.
pub const TTL: u8 = 64;

/// Source and destination of a packet and its identification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ends {
    /// Source address.
    pub src: [u8; 4],
    /// Destination address.
    pub dst: [u8; 4],
    /// Identification field: the low 16 bits of the packet's uid, so one packet can be
    /// followed across the captures of several links (`ip.id`).
    pub id: u16,
}

/// The header of an IPv4 packet carrying `payload_len` bytes of `protocol` (checksum set;
/// don't-fragment set, as TCP with path MTU discovery sends).
pub fn header(ends: &Ends, protocol: IpNumber, payload_len: usize) -> Result<Ipv4Header, EncodeError> {
    let too_long = || EncodeError::TooLong(payload_len + Ipv4Header::MIN_LEN);
    let len = u16::try_from(payload_len).map_err(|_| too_long())?;
    let mut h = Ipv4Header::new(len, TTL, protocol, ends.src, ends.dst).map_err(|_| too_long())?;
    h.identification = ends.id;
    h.header_checksum = h.calc_header_checksum();
    Ok(h)
}

/// Append `h` to `out`.
pub fn write(h: &Ipv4Header, out: &mut Vec<u8>) {
    out.extend_from_slice(&h.to_bytes());
}
