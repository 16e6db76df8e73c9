//! Flows: protocol, scheme and the sender's and sink's tables (read by `vhsim-tcp`),
//! application.

use crate::units::{Amount, Duration, RateValue, Size};
use schemars::JsonSchema;
use serde::Deserialize;

/// Transport protocols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Protocol {
    /// TCP.
    Tcp,
    /// A minimal UDP-like datagram transport: the application's writes are sent at once, one
    /// datagram per write, with no acknowledgment and no retransmission (needs a `cbr` app).
    Datagram,
    /// SCTP (RFC 4960; docs/sctp.md): an association whose endpoint at the mobile node uses
    /// its interfaces' care-of addresses (`[flows.<f>.sctp]`).
    Sctp,
}

/// Sizes of the datagram transport (`protocol = "datagram"`).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DatagramSpec {
    /// Payload bytes per datagram (default "1000B", >= 1 B).
    pub size: Option<Size>,
    /// Header bytes added on the wire (default "28B": IPv4 + UDP).
    pub header_size: Option<Size>,
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
    /// cbr: the sender's send buffer, e.g. "400pkt" or "400kB" (bytes become whole segments):
    /// written data not yet acknowledged may not exceed it; a write that does not fit is
    /// refused and its data discarded (counted in the summary's `app.refused_writes`).
    /// Default: unlimited, as ns-2's TcpAgent.
    pub send_buffer: Option<Amount>,
}

/// A transport flow from a sender node to a receiver node.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Sender node.
    pub from: String,
    /// Receiver node.
    pub to: String,
    /// Send to this interface's care-of address of the mobile node `to` (default: its home
    /// address, which follows handovers through the anchor's binding). Packets to a care-of
    /// address take that interface's path whatever interface is in use.
    pub to_interface: Option<String>,
    /// Transport protocol (default "tcp").
    pub protocol: Option<Protocol>,
    /// Sender preset (default "sack" for TCP, "sctp" for SCTP); see `vhsim schemes`.
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
    pub tcp: KeyTable,
    /// The sink's configuration, over the preset's in the same way.
    #[serde(default)]
    #[schemars(with = "vhsim_tcp::SinkConfig")]
    pub sink: KeyTable,
    /// Sizes of a datagram flow (`protocol = "datagram"` only).
    // Boxed, as `sctp`: TCP flows, a population's thousands, have none.
    pub datagram: Option<Box<DatagramSpec>>,
    /// Addresses and preset overrides of an SCTP flow (`protocol = "sctp"` only).
    // Boxed: half of the table's size, and a population reads thousands of TCP flows.
    pub sctp: Option<Box<super::SctpSpec>>,
}

/// A table of keys another crate reads (a flow's `tcp` and `sink`), boxed when given: most
/// flows of a population give none, and an empty table held inline was 72 bytes of each flow's
/// file entry, which a large population's loading keeps until every flow is resolved (issue
/// #29, memory per flow). An empty table given (`tcp = {}`) reads as none.
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct KeyTable(Option<Box<toml::Table>>);

impl KeyTable {
    /// The keys given (none: an empty table).
    pub fn table(&self) -> &toml::Table {
        static NONE: std::sync::LazyLock<toml::Table> = std::sync::LazyLock::new(toml::Table::new);
        self.0.as_deref().unwrap_or(&NONE)
    }

    /// Whether no key is given.
    pub fn is_empty(&self) -> bool {
        self.table().is_empty()
    }
}

/// As its table (the JSON Schema states the default, `{}`, from it).
impl serde::Serialize for KeyTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.table().serialize(s)
    }
}
