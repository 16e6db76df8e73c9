//! vhsim-net: what carries packets between endpoints, and the interface endpoints implement.
//!
//! * [`addr`]: addresses (one per node, plus the mobile node's care-of addresses).
//! * [`packet`]: the packet as plain data: addresses, size, a transport-neutral trace tag and a
//!   typed transport payload ([`packet::TcpHeader`], ...).
//! * [`endpoint`]: the sans-IO interface between the world and a transport endpoint, the link
//!   events of the mobile node and the cross-layer notification.
//! * [`link`]: one simplex link direction = rate + propagation delay + drop-tail queue + error
//!   model + optional link-layer ARQ + optional reordering.
//! * [`queue`]: drop-tail queue limited in packets or bytes.
//! * [`error`]: error models (none, Bernoulli, Gilbert–Elliott per packet and time-based,
//!   time-window loss, drop-list), one file each.
//! * [`arq`]: link-layer ARQ (802.11 stop-and-wait).
//! * [`reorder`]: reordering models ("swap with the next packet(s)").
//! * [`trace_link`]: a recorded delivery-opportunity trace (Mahimahi's format) in the link's
//!   rate role.
//!
//! `docs/link-models.md` describes each model with its parameters and analytic values.

pub mod addr;
pub mod arq;
pub mod endpoint;
pub mod error;
pub mod link;
pub mod packet;
pub mod queue;
pub mod reorder;
pub mod trace_link;

pub use addr::Addr;
pub use arq::{Arq, ArqConfig};
pub use endpoint::{
    AccessLinkInfo, AppOffer, Decision, Endpoint, Engagement, HandoverNotice, LinkEvent, Pending, Report, SendProgress, Wiring,
};
pub use error::{ErrorModel, ErrorModelConfig, LossWindow};
pub use link::{Departures, Fate, Finish, Finished, Link, LinkParams, Offer, Outcome};
pub use packet::{
    DatagramHeader, DropCause, DropCounts, Packet, Payload, RetxCause, SackBlock, TcpHeader, TraceTag, UnitKind,
    MAX_SACK_BLOCKS, NO_FLOW,
};
pub use queue::{DropTailQueue, QueueLimit};
pub use reorder::{Delivery, Reorder, ReorderConfig};
pub use trace_link::{DeliveryTrace, TraceConfig, TraceDelivery, TraceError, TracePacer};
