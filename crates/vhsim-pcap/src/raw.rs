//! Packets without a transport header (node agents' signalling): IPv4 with protocol 253
//! ("use for experimentation and testing", RFC 3692) and a zero payload up to the simulated
//! size.

use crate::encode::EncodeError;
use crate::ipv4::{self, Ends};
use crate::zeros;
use etherparse::IpNumber;
use vhsim_net::Packet;

/// Append the IPv4 packet of `pkt` to `out`.
pub fn encode(pkt: &Packet, ends: &Ends, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let payload = (pkt.size as usize).saturating_sub(etherparse::Ipv4Header::MIN_LEN);
    let ip = ipv4::header(ends, IpNumber::EXPERIMENTAL_AND_TESTING_0, payload)?;
    ipv4::write(&ip, out);
    out.extend_from_slice(zeros(payload));
    Ok(())
}
