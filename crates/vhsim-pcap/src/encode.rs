//! From a simulated packet to the bytes of an IPv4 packet: the run's address table and what the
//! encoders need to know about each flow, and the dispatch to one encoder per payload type.

use crate::{ipv4, raw, sctp, tcp, udp};
use std::fmt;
use vhsim_net::{Packet, Payload, NO_FLOW};

/// First port of the flows' senders: flow `f` sends from `SENDER_PORT_BASE + f % SENDER_PORTS`.
/// 50000..=53999 and [`RECEIVER_PORT`] are ports Wireshark 4 binds no dissector to, so the
/// zero payload shows as plain data rather than as a misparsed application protocol.
pub const SENDER_PORT_BASE: u16 = 50_000;
/// Number of distinct sender ports (flows beyond it reuse ports).
pub const SENDER_PORTS: u32 = 4_000;
/// The port every flow's receiver listens on.
pub const RECEIVER_PORT: u16 = 40_000;

/// What the TCP encoder needs to know about a TCP flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcpWire {
    /// Payload bytes of one segment (the flow's `segment_size`): segment `n` starts at byte
    /// `n * segment_bytes` of the stream.
    pub segment_bytes: u32,
    /// Window (in segments) shown when the receiver advertises an unlimited one (ns-2's sink
    /// does): the sender's own window limit, which is how ns-2 models the receiver's window.
    pub unlimited_window: u32,
    /// Window scale shift applied to the window field (RFC 7323 §2.3): the smallest that lets
    /// the flow's largest advertised window fit in 16 bits.
    pub window_scale: u8,
}

impl TcpWire {
    /// The wire description of a TCP flow with `segment_bytes` per segment whose receiver
    /// advertises `advertised` segments (`u32::MAX` = unlimited) and whose sender never has
    /// more than `sender_window` segments outstanding.
    pub fn new(segment_bytes: u32, advertised: u32, sender_window: u32) -> Self {
        let largest = if advertised == u32::MAX { sender_window } else { advertised.max(sender_window) };
        let bytes = u64::from(largest) * u64::from(segment_bytes);
        // RFC 7323 §2.3: the shift is at most 14.
        let window_scale = (0..=14u8).find(|&s| bytes >> s <= 0xffff).unwrap_or(14);
        TcpWire { segment_bytes, unlimited_window: sender_window, window_scale }
    }
}

/// What the SCTP encoder needs to know about an SCTP association.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SctpWire {
    /// Every address of the data sender's node (indices into the address table): a packet
    /// from one of them comes from the sending endpoint and uses the flow's sender port,
    /// any other from the receiving endpoint. Both endpoints send HEARTBEATs and ASCONFs,
    /// and a multihomed endpoint (a mobile node with mSCTP) sends from several addresses, so
    /// neither the chunks nor one address tell the side.
    pub sender_addrs: Vec<u32>,
}

/// A flow's transport as the encoders see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WireTransport {
    /// TCP.
    Tcp(TcpWire),
    /// The datagram transport, written as UDP.
    Datagram,
    /// SCTP.
    Sctp(SctpWire),
}

/// What the encoders know about one flow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlowWire {
    /// Port of the sending endpoint.
    pub sender_port: u16,
    /// Port of the receiving endpoint.
    pub receiver_port: u16,
    /// Its transport.
    pub transport: WireTransport,
}

impl FlowWire {
    /// Flow `index` with its ports chosen by the fixed rule of [`SENDER_PORT_BASE`].
    pub fn new(index: u32, transport: WireTransport) -> Self {
        let sender_port = SENDER_PORT_BASE + (index % SENDER_PORTS) as u16;
        FlowWire { sender_port, receiver_port: RECEIVER_PORT, transport }
    }
}

/// A packet that cannot be written as IPv4.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EncodeError {
    /// Its address is not in the address table, or not an IPv4 address.
    Address(u32),
    /// It is longer than an IPv4 packet can be (65 535 bytes).
    TooLong(usize),
    /// Its flow has another transport than its payload (a world bug).
    Mismatch(u32),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Address(a) => write!(f, "address {a} has no IPv4 address in the address table"),
            EncodeError::TooLong(n) => write!(f, "a packet of {n} bytes does not fit in IPv4 (at most 65535 bytes)"),
            EncodeError::Mismatch(fl) => write!(f, "flow {fl}'s packet does not carry its flow's transport"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Turns simulated packets into IPv4 packets.
#[derive(Clone, Debug)]
pub struct Encoder {
    addresses: Vec<[u8; 4]>,
    flows: Vec<FlowWire>,
    frame: Vec<u8>,
}

impl Encoder {
    /// An encoder for a run whose address `i` is `addresses[i]` and whose flow `f` is
    /// `flows[f]`.
    pub fn new(addresses: Vec<[u8; 4]>, flows: Vec<FlowWire>) -> Self {
        Encoder { addresses, flows, frame: Vec::with_capacity(2048) }
    }

    /// The IPv4 packet of `pkt` (valid until the next call).
    pub fn encode(&mut self, pkt: &Packet) -> Result<&[u8], EncodeError> {
        let addr = |a: vhsim_net::Addr| self.addresses.get(a.index()).copied().ok_or(EncodeError::Address(a.0));
        let ends = ipv4::Ends { src: addr(pkt.src)?, dst: addr(pkt.dst)?, id: pkt.uid as u16 };
        self.frame.clear();
        let flow = (pkt.flow != NO_FLOW).then(|| self.flows.get(pkt.flow as usize)).flatten();
        match (&pkt.payload, flow.map(|f| (f, &f.transport))) {
            (Payload::Tcp(h), Some((f, WireTransport::Tcp(t)))) => tcp::encode(pkt, h, f, t, &ends, &mut self.frame),
            (Payload::Datagram(h), Some((f, WireTransport::Datagram))) => udp::encode(pkt, h, f, &ends, &mut self.frame),
            (Payload::Empty, _) => raw::encode(pkt, &ends, &mut self.frame),
            (Payload::Sctp(p), Some((f, WireTransport::Sctp(s)))) => {
                sctp::encode(pkt, p, f, s, &self.addresses, &ends, &mut self.frame)
            }
            _ => return Err(EncodeError::Mismatch(pkt.flow)),
        }?;
        Ok(&self.frame)
    }
}
