//! The Delivery Service (DS) of Sobral, Bernardo & Pinto §2.2: a sublayer below IP between the
//! mobile node's anchor (their HNAC) and the mobile node, giving an *acknowledged* service on
//! one interface's path (their WLAN, path A) and a non-acknowledged one on the others (UTRAN
//! via the SGSN, path B).
//!
//! * [`DsAnchor`], at the anchor: keeps a copy of every packet for the mobile node it forwards
//!   onto the guarded path, until the mobile node's DS acknowledges it. If no acknowledgement
//!   comes for `timeout` while copies are kept, it declares the interface failed
//!   ([`super::AgentAction::InterfaceFailed`]: the forced handover under way completes, so the
//!   binding now names another interface) and sends every kept copy again, in order, by the
//!   path the binding names (§2.2: "data packets that were queued in the DS at the HNAC travel
//!   to the SGSN for delivery").
//! * [`DsMobile`], at the mobile node: acknowledges every packet that reaches it by the guarded
//!   interface with a small control packet of its own, sent from that interface's care-of
//!   address to the anchor (so by that interface's uplink, where it may be lost or delayed like
//!   any packet). Optionally, its *active mode* (§5.2, Figure 7) destroys repeated ACKs of
//!   every flow for a while after each handover to the guarded interface ([`DupAckFilter`]).
//!
//! Acknowledgements are cumulative by position: one names the uid of the packet that arrived
//! (`tag.seq`), and the anchor frees that copy and every copy forwarded before it. This relies
//! on the guarded path being FIFO, as vhsim's links are without a reordering model; a packet
//! the path's own error model loses ahead of one that arrives is freed with it (the paper's
//! WLAN has link-layer retransmissions; the DS repairs failures of the path, not bit errors).

mod anchor;
mod dupack_filter;
mod mobile;

pub use anchor::DsAnchor;
pub use dupack_filter::DupAckFilter;
pub use mobile::DsMobile;

/// `TraceTag::flags` of a DS acknowledgement (a control packet of flow `NO_FLOW`).
pub const DS_ACK_FLAG: u8 = 0x40;
