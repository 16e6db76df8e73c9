//! vhsim-tcp: sans-IO TCP endpoints.
//!
//! An endpoint gets no clock, no RNG and no engine: the caller hands it the time with every call
//! (`on_ack(now, ..)`, `on_timeout(now)`, `poll_transmit(now)`, `next_timeout()`), so a scripted
//! test can drive it with hand-written ACKs and timer firings.
//!
//! A sender is a composition of parts (ARCHITECTURE.md §3): the window law ([`cc`]), the
//! recovery algorithm ([`recovery`]), the timeout and dupACK responses ([`response`]: F-RTO,
//! TCP-DCR), the loss classifier ([`classify`]: LD), the RTT estimator ([`rtt`]) and the
//! outstanding-segment scoreboard ([`scoreboard`]); [`sender::TcpSender`] calls them in a
//! fixed order. [`endpoint`] wraps the sender and the sink as the world's transport endpoints:
//! the only place TCP headers are built and read.

pub mod cc;
pub mod classify;
pub mod config;
pub mod endpoint;
pub mod handover;
pub mod presets;
pub mod recovery;
pub mod response;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod sink;

pub use classify::{LossClass, LossClassification};
pub use config::*;
pub use endpoint::{TcpSenderEndpoint, TcpSinkEndpoint};
pub use handover::{AccessLinkInfo, AnyHandoverPolicy, HandoverNotice};
pub use sender::{AckInfo, CaState, SenderStats, TcpSender, Transmit, TxCause};
pub use sink::{AckOut, Received, TcpSink};
