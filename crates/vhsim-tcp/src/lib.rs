//! vhsim-tcp: sans-IO TCP endpoints.
//!
//! An endpoint gets no clock, no RNG and no engine: the caller hands it the time with every call
//! (`on_ack(now, ..)`, `on_timeout(now)`, `poll_transmit(now)`, `next_timeout()`), so a scripted
//! test can drive it with hand-written ACKs and timer firings.
//!
//! A sender is a composition of parts, one per axis (ARCHITECTURE.md §3): the window law
//! ([`cc`]), loss detection ([`detect`]), recovery ([`recovery`]), the timeout and dupACK
//! responses ([`response`]: F-RTO, TCP-DCR), the loss classifier ([`classify`]: LD) and the
//! handover policy ([`handover`]), over shared state ([`sender::SenderCore`]: sequence space,
//! [`rtt`] estimator, [`scoreboard`], shared [`estimate`]s, the timer table).
//! [`sender::TcpSender`] calls them in a fixed order. Each axis is a trait; each variant is one
//! file registered by one line ([`part`]); its options are read straight from the scenario
//! ([`config`]), and presets are TOML tables ([`presets`]). How slow start ends besides a
//! loss is an axis of its own ([`slowstart`]: HyStart, HyStart++), usable with any window law.
//! The sink ([`sink`]) has a policy axis of its own. [`endpoint`] wraps the sender and the sink as the world's transport
//! endpoints: the only place TCP headers are built and read.

pub mod part;

pub mod cc;
pub mod classify;
pub mod config;
pub mod detect;
pub mod endpoint;
pub mod estimate;
pub mod handover;
mod optseq;
mod outbox;
pub mod presets;
pub mod recovery;
pub mod response;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod sink;
pub mod slowstart;

pub use cc::{AckSample, CongestionControl, CongestionControlConfig, CongestionEvent, PathChange, Window};
pub use classify::ld::LdConfig;
pub use classify::{LossClass, LossClassification, LossClassifierConfig};
pub use config::{ConfigError, Defaults, ReopeningCopies, RtoConfig, RttTiming, SinkConfig, TcpConfig};
pub use endpoint::{TcpSenderEndpoint, TcpSinkEndpoint};
pub use detect::LossDetectionConfig;
pub use handover::crosslayer::CrossLayerConfig;
pub use handover::{AccessLinkInfo, AnyHandoverPolicy, HandoverNotice, HandoverPolicyConfig};
pub use recovery::newreno::{NewRenoConfig, NewRenoTimer};
pub use recovery::RecoveryConfig;
pub use response::{
    DcrConfig, DcrTau, DupAckCount, DupAckResponseConfig, FrtoConfig, FrtoVariant, RtoResponseConfig,
    SpuriousResponse, DUPACK_COUNT_NAMES,
};
pub use sender::{AckInfo, CaState, SenderStats, TcpSender, Timer, Transmit, TxCause};
pub use sink::{AckOut, Received, SinkLinkEvent, SinkPolicyConfig, TcpSink};
