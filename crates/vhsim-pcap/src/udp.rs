//! Datagrams of the datagram transport as UDP (RFC 768).
//!
//! The payload starts with the datagram number as 8 big-endian bytes (when it has room for
//! them), then zeros; it is as long as the simulated size allows beyond the 28 bytes of IPv4 and
//! UDP headers, and at least the datagram's application bytes.

use crate::encode::{EncodeError, FlowWire};
use crate::ipv4::{self, Ends};
use crate::zeros;
use etherparse::{IpNumber, UdpHeader};
use vhsim_net::{DatagramHeader, Packet};

/// Append the IPv4 packet of datagram `pkt` with header `h` to `out`.
pub fn encode(pkt: &Packet, h: &DatagramHeader, flow: &FlowWire, ends: &Ends, out: &mut Vec<u8>) -> Result<(), EncodeError> {
    let headers = ipv4_len() + UdpHeader::LEN;
    let payload = (pkt.size as usize).saturating_sub(headers).max(pkt.tag.payload_bytes as usize);
    let too_long = || EncodeError::TooLong(headers + payload);
    let ip = ipv4::header(ends, IpNumber::UDP, UdpHeader::LEN + payload)?;
    ipv4::write(&ip, out);
    let start = out.len() + UdpHeader::LEN;
    out.resize(start, 0);
    out.extend_from_slice(zeros(payload));
    if payload >= 8 {
        out[start..start + 8].copy_from_slice(&h.seq.to_be_bytes());
    }
    let udp = UdpHeader::with_ipv4_checksum(flow.sender_port, flow.receiver_port, &ip, &out[start..]).map_err(|_| too_long())?;
    out[start - UdpHeader::LEN..start].copy_from_slice(&udp.to_bytes());
    Ok(())
}

fn ipv4_len() -> usize {
    etherparse::Ipv4Header::MIN_LEN
}
