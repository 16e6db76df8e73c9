//! vhsim-net: what carries packets between endpoints.
//!
//! * [`packet`]: the packet as a plain struct (headers as fields, payload as a length).
//! * [`link`]: one simplex link direction = rate + propagation delay + drop-tail queue + error
//!   model + optional link-layer ARQ + optional reordering.
//! * [`queue`]: drop-tail queue limited in packets or bytes.
//! * [`error`]: error models (none, Bernoulli, Gilbert–Elliott per packet and time-based,
//!   time-window loss, drop-list), one file each.
//! * [`arq`]: link-layer ARQ (802.11 stop-and-wait).
//! * [`reorder`]: reordering models ("swap with the next packet(s)").
//!
//! `docs/link-models.md` describes each model with its parameters and analytic values.

pub mod arq;
pub mod error;
pub mod link;
pub mod packet;
pub mod queue;
pub mod reorder;

pub use arq::{Arq, ArqConfig};
pub use error::{ErrorModel, ErrorModelConfig, LossWindow};
pub use link::{Finished, Link, LinkParams, Offer, Outcome};
pub use packet::{DropCause, Packet, PacketKind, SackBlock};
pub use queue::{DropTailQueue, QueueLimit};
pub use reorder::{Delivery, Reorder, ReorderConfig};
