//! Stand-in for the transport-neutral core interface (CORE-INTERFACE, issue #10) until it
//! lands on main: the packet, its trace tag, the endpoint trait and what flows through it,
//! written exactly as specified there, with `Payload` reduced to its SCTP variant.
//!
//! At integration this module becomes re-exports of the real types
//! (`pub use vhsim_net::packet::{Packet, Payload, TraceTag, UnitKind, RetxCause};
//! pub use vhsim_net::endpoint::{...};`); nothing else in the crate names their origin.
//! It is public only so that the tests' harness can build and read packets.

use crate::wire::SctpPacket;
use crate::Addr;
use vhsim_core::{Rate, SimDuration, SimTime, TracedVar};

/// A packet in the network (`Packet` is Clone, not Copy).
#[derive(Clone, Debug, PartialEq)]
pub struct Packet {
    /// Set by the world when the packet enters the network.
    pub uid: u64,
    /// Flow index.
    pub flow: u32,
    /// Source address.
    pub src: Addr,
    /// Destination address.
    pub dst: Addr,
    /// Bytes on the wire, headers included.
    pub size: u32,
    /// Transport-neutral description for traces and ground truth.
    pub tag: TraceTag,
    /// The transport's own header(s).
    pub payload: Payload,
}

/// Kind of data unit a packet carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnitKind {
    /// Application data.
    #[default]
    Data,
    /// An acknowledgement.
    Ack,
    /// Anything else (handshakes, probes, reconfiguration).
    Control,
}

/// Why data is (re)transmitted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RetxCause {
    /// First transmission.
    #[default]
    New,
    /// The fast retransmission itself.
    FastRetransmit,
    /// A later retransmission during loss recovery.
    Recovery,
    /// The retransmission a timeout triggers.
    Timeout,
    /// A later retransmission after a timeout.
    GoBackN,
}

/// Transport-neutral description of a packet.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceTag {
    /// Data | Ack | Control.
    pub kind: UnitKind,
    /// Data: first data unit (TCP segment number, SCTP TSN); Ack: cumulative ack point.
    pub seq: u64,
    /// Data units carried: seq .. seq+units (contiguous); 1 for TCP data.
    pub units: u16,
    /// Why data is sent (Data only).
    pub retx: RetxCause,
    /// Transmission index of `seq` (0 = first); set by the world's ground truth.
    pub copy: u32,
    /// Application bytes carried.
    pub payload_bytes: u32,
    /// Transport flags for traces (set by the endpoint; meaning per transport).
    pub flags: u8,
}

/// The transport header of a packet (here only SCTP's; the real enum has TCP and a datagram
/// test transport too).
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    /// Common header + chunk bundle, out of line.
    Sctp(Box<SctpPacket>),
}

/// A link event, delivered only to endpoints on the mobile node (interface indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// A handover is expected in `eta`.
    Imminent {
        /// Time until the handover.
        eta: SimDuration,
        /// Old interface.
        old: u32,
        /// New interface.
        new: u32,
    },
    /// An interface went down.
    Down(u32),
    /// An interface came up.
    Up(u32),
    /// A handover completed.
    Completed {
        /// Old interface.
        old: u32,
        /// New interface.
        new: u32,
    },
}

/// Rate and delay of an access link (as `vhsim_tcp::AccessLinkInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AccessLinkInfo {
    /// Link bandwidth.
    pub bandwidth: Rate,
    /// One-way propagation delay.
    pub delay: SimDuration,
}

/// Daniel & Kojo's modelled out-of-band cross-layer notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandoverNotice {
    /// The access link before the handover.
    pub old: AccessLinkInfo,
    /// The access link after the handover.
    pub new: AccessLinkInfo,
}

/// What observers learn from an endpoint.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Report {
    /// Receiver: newly delivered in order to the application.
    Delivered {
        /// Application bytes.
        bytes: u64,
        /// Data units.
        units: u64,
    },
    /// Sender: a retransmission timeout fired.
    Timeout,
    /// Sender: a loss classifier's decision.
    LossVerdict {
        /// The data unit.
        seq: u64,
        /// Whether the loss was classified as wireless.
        wireless: bool,
    },
}

/// Cumulative ack point and one past the highest unit sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SendProgress {
    /// First data unit not cumulatively acknowledged.
    pub acked: u64,
    /// One past the highest data unit sent.
    pub sent_max: u64,
}

/// What the application offers a sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppOffer {
    /// This many more data units.
    More(u64),
    /// No more data.
    Stop,
}

/// A transport endpoint as the world drives it.
pub trait Endpoint {
    /// A packet addressed to one of the endpoint's addresses arrived.
    fn on_packet(&mut self, now: SimTime, pkt: &Packet);
    /// The wake-up the endpoint asked for (or a later one) came.
    fn on_timeout(&mut self, now: SimTime);
    /// The next packet to send now, if any (uid/copy filled by the world).
    fn poll_transmit(&mut self, now: SimTime) -> Option<Packet>;
    /// When the endpoint wants to be woken up.
    fn poll_timeout(&self) -> Option<SimTime>;
    /// The next report for observers.
    fn poll_report(&mut self) -> Option<Report>;
    /// A link event on the mobile node.
    fn on_link_event(&mut self, _now: SimTime, _ev: &LinkEvent) {}
    /// A cross-layer handover notice.
    fn on_notice(&mut self, _now: SimTime, _n: &HandoverNotice) {}
    /// The application offers data or stops.
    fn on_app(&mut self, _now: SimTime, _offer: AppOffer) {}
    /// Senders only: cumulative ack point and highest unit sent.
    fn progress(&self) -> Option<SendProgress> {
        None
    }
    /// The endpoint's traced variables.
    fn traced_vars(&self, _out: &mut Vec<TracedVar>) {}
}
