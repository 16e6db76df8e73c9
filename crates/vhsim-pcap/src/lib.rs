//! vhsim-pcap: packet captures of simulated links, for Wireshark and tshark.
//!
//! A simulated [`Packet`](vhsim_net::Packet) has addresses, a size on the wire, a trace tag and
//! a typed transport header, but no bytes. This crate synthesizes the bytes a real capture would
//! hold and writes them as pcap (docs/pcap.md):
//!
//! * [`Encoder`] turns a packet into an IPv4 packet: addresses from the run's address table,
//!   total length = the simulated size (when the real headers fit in it), a valid header
//!   checksum, then one encoder per payload type — [`tcp`] (byte sequence numbers derived from
//!   segment numbers, flags, window, SACK blocks, valid checksum), [`sctp`] (common header and
//!   DATA/SACK/HEARTBEAT/ASCONF chunks, CRC32c), [`udp`] for datagrams, and [`raw`] for packets
//!   without a transport header. A new transport is one more module and one more arm in
//!   [`Encoder::encode`].
//! * [`CaptureFile`] writes frames as a pcap file with nanosecond timestamps and link type
//!   `RAW` (the frame starts with the IP header; there is no link-layer header to invent).
//!
//! IPv4, TCP and UDP headers are built and checksummed with `etherparse`, the file format is
//! `pcap-file`'s; SCTP, which etherparse lacks, is laid out by [`sctp`] (CRC32c from `crc`).

mod encode;
pub mod ipv4;
pub mod raw;
pub mod sctp;
pub mod tcp;
pub mod udp;
mod writer;

pub use encode::{EncodeError, Encoder, FlowWire, SctpWire, TcpWire, WireTransport};
pub use writer::CaptureFile;

/// Zero bytes to checksum and copy as payload (the simulator's payloads are lengths only).
static ZEROS: [u8; 65_536] = [0; 65_536];

/// `n` zero bytes (at most 65 536).
fn zeros(n: usize) -> &'static [u8] {
    &ZEROS[..n]
}
