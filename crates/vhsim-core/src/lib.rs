//! vhsim-core: the pieces every other vhsim crate shares.
//!
//! * [`time`]: integer nanosecond time ([`SimTime`], [`SimDuration`]) and link rates ([`Rate`]).
//! * [`rng`]: random streams keyed by (master seed, component name).
//! * [`events`]: the total event order (time, class, insertion sequence).
//! * [`prefetch`]: a hint that memory will be read soon (the one `unsafe` block of vhsim).
//! * [`vars`]: traced variables (name, unit, value) that endpoint parts report.
//! * [`units`]: values with units as files write them (`"9ms"`, `"20pkt"`), with their serde
//!   and JSON Schema.

pub mod events;
pub mod prefetch;
pub mod rng;
pub mod time;
pub mod units;
pub mod vars;

pub use events::{EventClass, EventKey, EventQueue, Moment, SCHEDULED_LOOKAHEAD};
pub use rng::{RngStream, RngStreams};
pub use time::{Rate, SimDuration, SimTime};
pub use vars::TracedVar;
