//! Flows: protocol, scheme and the sender's and sink's tables (read by `vhsim-tcp`),
//! application.

use crate::units::{Duration, RateValue, Size};
use schemars::JsonSchema;
use serde::Deserialize;

/// Transport protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// TCP.
    Tcp,
}

/// Application kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AppKind {
    /// Infinite backlog.
    Bulk,
    /// Constant bit rate: one write of `packet_size` bytes every `packet_size * 8 / rate` (or
    /// every `interval`).
    Cbr,
}

/// The application feeding a sender, e.g. `{ kind = "bulk" }` or
/// `{ kind = "cbr", rate = "500kbps" }` (Sobral et al. §5: CBR over TCP).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppSpec {
    /// Which application.
    pub kind: AppKind,
    /// cbr: payload rate the application writes (> 0); give `rate` or `interval`.
    pub rate: Option<RateValue>,
    /// cbr: time between two writes (> 0), instead of `rate`.
    pub interval: Option<Duration>,
    /// cbr: bytes per write (default: the flow's segment_size); a write makes
    /// ceil(packet_size / segment_size) segments available, as ns-2's TcpAgent::sendmsg.
    pub packet_size: Option<Size>,
}

/// A transport flow from a sender node to a receiver node.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Sender node.
    pub from: String,
    /// Receiver node.
    pub to: String,
    /// Transport protocol (default "tcp", the only one for now).
    pub protocol: Option<Protocol>,
    /// Sender preset (default "sack"); see `vhsim schemes`.
    pub scheme: Option<String>,
    /// Number of identical flows (default 1). With count = N > 1 the flows are named
    /// `<name>.0` ... `<name>.<N-1>`.
    pub count: Option<u32>,
    /// When the sender starts (default "0s"; must be before the end of the run).
    pub start: Option<Duration>,
    /// Start times are drawn uniformly from [start, start + start_spread) (default "0s" = all
    /// at `start`), from the random stream `flow/<name>/start`.
    pub start_spread: Option<Duration>,
    /// When the application stops offering data (default: never; must be after `start`).
    pub stop: Option<Duration>,
    /// Application (default `{ kind = "bulk" }`).
    pub app: Option<AppSpec>,
    /// The sender's configuration: each key given here replaces the preset's (an axis table
    /// of the preset's kind changes only the options given; one of another kind replaces it).
    /// Read by `vhsim-tcp` (docs/scenario-format.md, "TCP").
    #[serde(default)]
    #[schemars(with = "vhsim_tcp::TcpConfig")]
    pub tcp: toml::Table,
    /// The sink's configuration, over the preset's in the same way.
    #[serde(default)]
    #[schemars(with = "vhsim_tcp::SinkConfig")]
    pub sink: toml::Table,
}
