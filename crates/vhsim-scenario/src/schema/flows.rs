//! Flows: protocol, scheme overrides of the sender and sink, application.

use super::names_schema;
use crate::units::{Amount, Duration, Packets, RateValue, Size};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use vhsim_tcp::{
    DcrTau, DupAckCount, DupAckResponseKind, FrtoVariant, HandoverPolicyKind, LossClassifierKind,
    NewRenoTimer, RecoveryKind, RtoResponseKind, RttTiming, SpuriousResponse, DUPACK_COUNT_NAMES,
};

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
    /// Overrides of the preset's sender configuration (TCP flows).
    pub tcp: Option<TcpSpec>,
    /// Overrides of the preset's sink configuration (TCP flows).
    pub sink: Option<SinkSpec>,
    /// Sizes of a datagram flow (`protocol = "datagram"` only).
    pub datagram: Option<DatagramSpec>,
    /// Addresses and preset overrides of an SCTP flow (`protocol = "sctp"` only).
    pub sctp: Option<super::SctpSpec>,
}

/// Overrides of a preset's sender configuration; each absent field keeps the preset's value.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TcpSpec {
    /// Payload bytes per segment (> 0), e.g. "1000B".
    pub segment_size: Option<Size>,
    /// TCP/IP header bytes of a data segment, e.g. "40B".
    pub header_size: Option<Size>,
    /// Bytes of a pure ACK (> 0).
    pub ack_size: Option<Size>,
    /// Receiver-window cap: packets ("20pkt") or bytes ("64000B" = floor(bytes / segment_size)).
    pub window: Option<Amount>,
    /// Initial congestion window in packets (>= 1).
    pub initial_window: Option<Packets>,
    /// Initial slow-start threshold in packets (>= 1; default: the window).
    pub initial_ssthresh: Option<Packets>,
    /// Duplicate ACKs that trigger fast retransmit (>= 1).
    pub dupack_threshold: Option<u32>,
    /// Limited transmit (RFC 3042).
    pub limited_transmit: Option<bool>,
    /// Most segments sent per ACK (0 = no limit).
    pub max_burst: Option<u32>,
    /// Loss recovery algorithm.
    #[serde(default)]
    #[schemars(schema_with = "recovery_schema")]
    pub recovery: Option<RecoveryKind>,
    /// NewReno timer variant.
    #[serde(default)]
    #[schemars(schema_with = "newreno_timer_schema")]
    pub newreno_timer: Option<NewRenoTimer>,
    /// Reaction to cross-layer handover notifications (`none`, `record` to keep them, or
    /// `cross_layer` for Daniel & Kojo's algorithms).
    #[serde(default)]
    #[schemars(schema_with = "handover_policy_schema")]
    pub handover: Option<HandoverPolicyKind>,
    /// Daniel & Kojo's algorithms and parameters (with `handover = "cross_layer"`).
    pub cross_layer: Option<CrossLayerSpec>,
    /// Lower bound of the RTO.
    pub min_rto: Option<Duration>,
    /// RTO before the first RTT sample (> 0).
    pub initial_rto: Option<Duration>,
    /// Upper bound of the RTO (>= min_rto, > 0).
    pub max_rto: Option<Duration>,
    /// Clock granularity of RTT samples ("0s" disables quantization).
    pub clock_granularity: Option<Duration>,
    /// Largest RTO backoff multiplier (>= 1).
    pub max_backoff: Option<u32>,
    /// How RTT samples are taken.
    #[serde(default)]
    #[schemars(schema_with = "rtt_timing_schema")]
    pub rtt_timing: Option<RttTiming>,
    /// Reaction to a retransmission timeout: `conventional` or `frto` (RFC 5682).
    #[serde(default)]
    #[schemars(schema_with = "rto_response_schema")]
    pub rto_response: Option<RtoResponseKind>,
    /// F-RTO algorithm: `basic` (RFC 5682 §2) or `sack` (§3); used with rto_response = "frto".
    #[serde(default)]
    #[schemars(schema_with = "frto_variant_schema")]
    pub frto_variant: Option<FrtoVariant>,
    /// After F-RTO finds a timeout spurious: `full_revert`, `ssthresh` or `slow_start`
    /// (ns-2 spurious_response_ 1, 2, 3).
    #[serde(default)]
    #[schemars(schema_with = "spurious_response_schema")]
    pub spurious_response: Option<SpuriousResponse>,
    /// Reaction to duplicate ACKs: `immediate` (fast retransmit) or `dcr` (TCP-DCR delay).
    #[serde(default)]
    #[schemars(schema_with = "dupack_response_schema")]
    pub dupack_response: Option<DupAckResponseKind>,
    /// The dupACK that arms TCP-DCR's delay: an integer >= 1 or `first`, `second`, `third`.
    #[serde(default)]
    #[schemars(schema_with = "dcr_trigger_schema")]
    pub dcr_trigger: Option<DupAckCount>,
    /// TCP-DCR's delay: `srtt` or `tavg` (LD's Tavg; needs loss_classifier = "ld").
    #[serde(default)]
    #[schemars(schema_with = "dcr_tau_schema")]
    pub dcr_tau: Option<DcrTau>,
    /// Loss classifier before the congestion response: `none` or `ld` (Lim & Jang).
    #[serde(default)]
    #[schemars(schema_with = "loss_classifier_schema")]
    pub loss_classifier: Option<LossClassifierKind>,
    /// LD's exponent k of inequality (1) (> 0; default 2).
    pub ld_k: Option<f64>,
    /// Rounds LD is suspended after a spurious timeout (default 1; 0 = none).
    pub ld_suspend_rounds: Option<u32>,
    /// LD's handover reset on a spurious timeout (Lim & Jang scheme II).
    pub ld_handover_reset: Option<bool>,
    /// LD's initial Tdev (default "500ms").
    pub ld_initial_tdev: Option<Duration>,
}

/// Daniel & Kojo's cross-layer algorithms (`flows.<f>.tcp.cross_layer`); unset keys keep the
/// preset's values.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CrossLayerSpec {
    /// A1: avoid spurious RTOs.
    pub a1: Option<bool>,
    /// A2: cut the window to the new BDP.
    pub a2: Option<bool>,
    /// A3: immediate retransmission and ssthresh restore in RTO recovery.
    pub a3: Option<bool>,
    /// A4: fast RTO convergence after a delay decrease.
    pub a4: Option<bool>,
    /// A5: A2 with a 1.5 x BDP threshold on an 8-fold bandwidth drop (replaces A2).
    pub a5: Option<bool>,
    /// RTO of restarted RTT variables before their first sample (default "3s", > 0).
    pub reinit_rto: Option<Duration>,
    /// Delay of the rest of the path in A1's minrto (default "200ms").
    pub rest_of_path: Option<Duration>,
    /// Factor of delay change counted as significant (default 2, > 1).
    pub significant_delay_factor: Option<f64>,
}

/// Overrides of a preset's sink configuration.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SinkSpec {
    /// ACK every second in-order segment or after `delack_interval`.
    pub delayed_ack: Option<bool>,
    /// Delayed-ACK timer (> 0).
    pub delack_interval: Option<Duration>,
    /// Whether ACKs carry SACK blocks.
    pub sack: Option<bool>,
    /// Most SACK blocks per ACK.
    pub max_sack_blocks: Option<u32>,
    /// Advertised receive window: packets or bytes (converted with the flow's segment_size).
    pub advertised_window: Option<Amount>,
    /// Bytes of an ACK (> 0).
    pub ack_size: Option<Size>,
}

/// Names of [`RecoveryKind`] variants as written in files.
pub(crate) const RECOVERY_NAMES: &[&str] = &["reno", "new_reno", "sack1", "rfc6675"];
/// Names of [`NewRenoTimer`] variants.
pub(crate) const NEWRENO_TIMER_NAMES: &[&str] = &["impatient", "slow_but_steady"];
/// Names of [`HandoverPolicyKind`] variants.
pub(crate) const HANDOVER_POLICY_NAMES: &[&str] = &["none", "record", "cross_layer"];
/// Names of [`RttTiming`] variants.
pub(crate) const RTT_TIMING_NAMES: &[&str] = &["one_per_rtt", "every_ack"];
/// Names of [`RtoResponseKind`] variants.
pub(crate) const RTO_RESPONSE_NAMES: &[&str] = &["conventional", "frto"];
/// Names of [`FrtoVariant`] variants.
pub(crate) const FRTO_VARIANT_NAMES: &[&str] = &["basic", "sack"];
/// Names of [`SpuriousResponse`] variants.
pub(crate) const SPURIOUS_RESPONSE_NAMES: &[&str] = &["full_revert", "ssthresh", "slow_start"];
/// Names of [`DupAckResponseKind`] variants.
pub(crate) const DUPACK_RESPONSE_NAMES: &[&str] = &["immediate", "dcr"];
/// Names of [`DcrTau`] variants.
pub(crate) const DCR_TAU_NAMES: &[&str] = &["srtt", "tavg"];
/// Names of [`LossClassifierKind`] variants.
pub(crate) const LOSS_CLASSIFIER_NAMES: &[&str] = &["none", "ld"];

fn recovery_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RECOVERY_NAMES, "Loss recovery algorithm.")
}
fn newreno_timer_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(NEWRENO_TIMER_NAMES, "NewReno timer variant.")
}
fn handover_policy_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(HANDOVER_POLICY_NAMES, "Reaction to handover notifications.")
}
fn rtt_timing_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RTT_TIMING_NAMES, "How RTT samples are taken.")
}
fn rto_response_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RTO_RESPONSE_NAMES, "Reaction to a retransmission timeout.")
}
fn frto_variant_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(FRTO_VARIANT_NAMES, "F-RTO algorithm (RFC 5682 §2 basic, §3 SACK-enhanced).")
}
fn spurious_response_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(SPURIOUS_RESPONSE_NAMES, "Response to a spurious timeout (ns-2 spurious_response_ 1, 2, 3).")
}
fn dupack_response_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(DUPACK_RESPONSE_NAMES, "Reaction to duplicate ACKs.")
}
fn dcr_trigger_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "description": "The dupACK that arms TCP-DCR's delay: an integer >= 1 or a name.",
        "anyOf": [
            { "type": "integer", "minimum": 1 },
            { "type": "string", "enum": DUPACK_COUNT_NAMES }
        ]
    })
}
fn dcr_tau_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(DCR_TAU_NAMES, "TCP-DCR's delay: srtt, or LD's Tavg.")
}
fn loss_classifier_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(LOSS_CLASSIFIER_NAMES, "Loss classifier before the congestion response.")
}
