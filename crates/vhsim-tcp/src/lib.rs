//! vhsim-tcp: sans-IO TCP endpoints.
//!
//! An endpoint gets no clock, no RNG and no engine: the caller hands it the time with every call
//! (`on_ack(now, ..)`, `on_timeout(now)`, `poll_transmit(now)`, `next_timeout()`), so a scripted
//! test can drive it with hand-written ACKs and timer firings.

pub mod config;
pub mod presets;

pub use config::*;
