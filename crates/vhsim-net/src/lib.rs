//! vhsim-net: what carries packets between endpoints.
//!
//! * [`packet`]: the packet as a plain struct (headers as fields, payload as a length).
//! * [`link`]: one simplex link direction = rate + propagation delay + drop-tail queue + error model.
//! * [`queue`]: drop-tail queue limited in packets or bytes.
//! * [`error`]: error models (none, Bernoulli, drop-list), one file each.

pub mod error;
pub mod link;
pub mod packet;
pub mod queue;

pub use error::{ErrorModel, ErrorModelConfig};
pub use link::{Finished, Link, LinkParams, Offer};
pub use packet::{DropCause, Packet, PacketKind, SackBlock};
pub use queue::{DropTailQueue, QueueLimit};
