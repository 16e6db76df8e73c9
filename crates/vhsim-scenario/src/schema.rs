//! The scenario file as written: serde types of the TOML format.
//!
//! Every struct denies unknown fields. Named collections (`nodes`, `links`, `flows`, `routes`,
//! `metrics.windows`) are `IndexMap`s so file order is kept (with toml's `preserve_order`).
//! Variants that need different fields (error models, timeline actions) are flat structs with a
//! `kind`/`action` enum rather than tagged enums: serde buffers tagged enums, which would lose
//! the key path of errors inside them; [`crate::resolve`] checks which fields fit which kind.
//! The doc comments become the descriptions of the JSON Schema.

use crate::units::{Amount, Duration, Length, Packets, RateValue, Size, Speed};
use indexmap::IndexMap;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;
use vhsim_tcp::{
    DcrTau, DupAckCount, DupAckResponseKind, FrtoVariant, HandoverPolicyKind, LossClassifierKind,
    NewRenoTimer, RecoveryKind, RtoResponseKind, RttTiming, SpuriousResponse, DUPACK_COUNT_NAMES,
};

/// A vhsim scenario: a network of nodes and links, TCP flows over it, and a timeline.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Scenario name (default "scenario").
    pub name: Option<String>,
    /// Free text; not used by the simulator.
    #[allow(dead_code)]
    pub description: Option<String>,
    /// Length of the run, e.g. "300s" (must be > 0).
    pub duration: Duration,
    /// Master seed of the random streams (default 1).
    pub seed: Option<u64>,
    /// Nodes by name; a node's id is its position in the file.
    #[serde(default)]
    pub nodes: IndexMap<String, NodeSpec>,
    /// Links by name: duplex (`between`) or simplex (`from` + `to`).
    #[serde(default)]
    pub links: IndexMap<String, LinkSpec>,
    /// Flows by name (at least one).
    #[serde(default)]
    pub flows: IndexMap<String, FlowSpec>,
    /// Actions at given times, in any order (they are sorted by `at`, ties keep file order).
    #[serde(default)]
    pub timeline: Vec<TimelineSpec>,
    /// The mobile node and its interfaces (needed for handovers).
    pub mobile: Option<MobileSpec>,
    /// What is recorded.
    #[serde(default)]
    pub output: OutputSpec,
    /// Metrics settings.
    #[serde(default)]
    pub metrics: MetricsSpec,
}

/// A node. The body may be empty.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Static routes: destination node -> name of the link to leave on. Overrides the
    /// automatic shortest-hop route to that destination.
    #[serde(default)]
    pub routes: IndexMap<String, String>,
}

/// A link: either `between = [a, b]` (two directions, "forward" = a -> b, "reverse" = b -> a)
/// or `from` + `to` (one direction).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// The two nodes of a duplex link.
    pub between: Option<[String; 2]>,
    /// Sending node of a simplex link.
    pub from: Option<String>,
    /// Receiving node of a simplex link.
    pub to: Option<String>,
    /// Rate of both directions, e.g. "100Mbps".
    pub rate: Option<RateValue>,
    /// One-way propagation delay of both directions, e.g. "1ms".
    pub delay: Option<Duration>,
    /// Drop-tail queue limit of both directions (default "100pkt").
    pub queue: Option<Amount>,
    /// Error model of both directions (default none); per transmission attempt if `arq` is set.
    pub error: Option<ErrorSpec>,
    /// Link-layer ARQ of both directions (default none).
    pub arq: Option<ArqSpec>,
    /// Reordering model of both directions (default none).
    pub reorder: Option<ReorderSpec>,
    /// Overrides for the forward direction (first node -> second) of a duplex link.
    pub forward: Option<DirectionSpec>,
    /// Overrides for the reverse direction (second node -> first) of a duplex link.
    pub reverse: Option<DirectionSpec>,
}

/// Per-direction overrides of a duplex link.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DirectionSpec {
    /// Rate of this direction.
    pub rate: Option<RateValue>,
    /// Propagation delay of this direction.
    pub delay: Option<Duration>,
    /// Queue limit of this direction.
    pub queue: Option<Amount>,
    /// Error model of this direction.
    pub error: Option<ErrorSpec>,
    /// Link-layer ARQ of this direction.
    pub arq: Option<ArqSpec>,
    /// Reordering model of this direction.
    pub reorder: Option<ReorderSpec>,
}

/// Error model kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// Nothing is lost.
    None,
    /// Each packet is lost with probability `p`.
    Bernoulli,
    /// The first `copies` transmissions of segments `seqs` of flow `flow` are lost.
    DropList,
    /// Gilbert-Elliott, per-packet Markov form: `p` (Good -> Bad), `r` (Bad -> Good),
    /// `loss_good`, `loss_bad`.
    GilbertElliott,
    /// Gilbert-Elliott, time-based with deterministic sojourns (Lim & Jang's WLAN):
    /// `good_duration`, `bad_duration`, `p_bad`, `loss_good`, `loss_bad`.
    GilbertElliottTimed,
    /// Bernoulli loss only inside time windows: `p`, `start`, `end`, or `windows`.
    TimeWindow,
}

impl ErrorKind {
    /// The name as written in files.
    pub(crate) fn name(self) -> &'static str {
        ERROR_KIND_NAMES[self as usize]
    }
}

/// Names of [`ErrorKind`] variants, in declaration order.
pub(crate) const ERROR_KIND_NAMES: &[&str] =
    &["none", "bernoulli", "drop_list", "gilbert_elliott", "gilbert_elliott_timed", "time_window"];

/// An error model, e.g. `{ kind = "bernoulli", p = 0.01 }`,
/// `{ kind = "gilbert_elliott", p = 0.01, r = 0.1 }`, `{ kind = "gilbert_elliott_timed" }`
/// (Lim & Jang's WLAN by default), `{ kind = "time_window", p = 0.03, start = "48s", end = "50s" }`
/// or `{ kind = "drop_list", flow = "bulk", seqs = [5, 6], copies = 1 }`. Each kind accepts only
/// its own keys; see docs/link-models.md.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpec {
    /// Which model.
    pub kind: ErrorKind,
    /// bernoulli: loss probability per packet; gilbert_elliott: probability of Good -> Bad per
    /// packet; time_window: loss probability inside the window. In [0, 1].
    pub p: Option<f64>,
    /// gilbert_elliott: probability of Bad -> Good per packet, in [0, 1].
    pub r: Option<f64>,
    /// gilbert_elliott(_timed): loss probability in Good (default 0 / 0.001), in [0, 1].
    pub loss_good: Option<f64>,
    /// gilbert_elliott(_timed): loss probability in Bad (default 1 / 0.1), in [0, 1].
    pub loss_bad: Option<f64>,
    /// gilbert_elliott_timed: length of a Good sojourn (default "1s", > 0).
    pub good_duration: Option<Duration>,
    /// gilbert_elliott_timed: length of a Bad sojourn (default "100ms", > 0).
    pub bad_duration: Option<Duration>,
    /// gilbert_elliott_timed: probability that the next sojourn is Bad (default 0.5), in [0, 1].
    pub p_bad: Option<f64>,
    /// time_window: start of the single window (inclusive).
    pub start: Option<Duration>,
    /// time_window: end of the single window (exclusive; after `start`).
    pub end: Option<Duration>,
    /// time_window: several windows instead of `p`/`start`/`end` (non-overlapping).
    pub windows: Option<Vec<WindowSpec>>,
    /// drop_list: name of the flow whose segments are dropped.
    pub flow: Option<String>,
    /// drop_list: segment numbers to drop.
    pub seqs: Option<Vec<u64>>,
    /// drop_list: transmissions of each listed segment to drop (default 1 = only the original).
    pub copies: Option<u32>,
}

/// One loss window of a time_window error model: `{ p = 0.03, start = "48s", end = "50s" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WindowSpec {
    /// Loss probability per packet leaving the link inside the window, in [0, 1].
    pub p: f64,
    /// Start (inclusive).
    pub start: Duration,
    /// End (exclusive; after `start`).
    pub end: Duration,
}

/// Link-layer ARQ kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArqKind {
    /// No ARQ (e.g. to switch off, on one direction, an ARQ given for the whole link).
    None,
    /// IEEE 802.11 stop-and-wait ARQ: `frame_loss`, `retry_limit`, `retry_delay`, `backoff_max`.
    StopAndWait,
}

/// A link-layer ARQ, e.g. `{ kind = "stop_and_wait", frame_loss = 0.1, retry_limit = 4,
/// retry_delay = "1ms" }`. With an ARQ, the error model acts on each transmission attempt.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ArqSpec {
    /// Which ARQ.
    pub kind: ArqKind,
    /// Probability that one attempt fails (default 0), in [0, 1], on top of the error model.
    pub frame_loss: Option<f64>,
    /// Total attempts per frame, the first included (default 4 = ns-2 LongRetryLimit_; >= 1).
    pub retry_limit: Option<u32>,
    /// Time a failed attempt adds before the next one (ACK timeout + backoff), e.g. "1ms".
    pub retry_delay: Option<Duration>,
    /// Extra uniform random backoff in [0, backoff_max] per failed attempt (default "0s").
    pub backoff_max: Option<Duration>,
}

/// Reordering model kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ReorderKind {
    /// No reordering.
    None,
    /// "Swap with the next packet(s)" (Lim & Jang's 3G): `q`, `depth`, `hold_timeout`.
    Swap,
}

/// A reordering model, e.g. `{ kind = "swap", q = 0.05, depth = 1 }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReorderSpec {
    /// Which model.
    pub kind: ReorderKind,
    /// Probability that a packet is held back, in [0, 1].
    pub q: Option<f64>,
    /// How many following packets pass a held one (default 1; >= 1).
    pub depth: Option<u32>,
    /// Longest wait for the next following packet (default: one serialization time of the held
    /// packet; > 0).
    pub hold_timeout: Option<Duration>,
}

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
    /// Overrides of the preset's sender configuration.
    #[serde(default)]
    pub tcp: TcpSpec,
    /// Overrides of the preset's sink configuration.
    #[serde(default)]
    pub sink: SinkSpec,
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

/// Timeline actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// Take the link down (fields: link, direction).
    LinkDown,
    /// Bring the link up (fields: link, direction).
    LinkUp,
    /// Change rate and/or delay (fields: link, direction, rate, delay).
    SetLink,
    /// Move the mobile node to another interface (fields: kind, to, gap, duration,
    /// notify_delay).
    Handover,
}

/// How a handover happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum HandoverKindSpec {
    /// From `at`, new packets take the new interface; packets on the old path still arrive.
    MakeBeforeBreak,
    /// The old access link drops everything for `gap`, then traffic takes the new interface.
    BreakBeforeMake,
    /// Nothing moves on the old access link for `duration` (nothing is lost), then traffic
    /// takes the new interface.
    Pause,
}

/// The mobile node: which node moves, where its paths part, and its interfaces.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MobileSpec {
    /// The mobile node (MN).
    pub node: String,
    /// The node where the interfaces' paths part (the access router): its route to the MN
    /// changes at a handover, as does the MN's own route to everything.
    pub anchor: String,
    /// Interface in use at the start.
    pub initial: String,
    /// Interfaces by name (at least two).
    pub interfaces: IndexMap<String, InterfaceSpec>,
    /// Straight-line movement across two overlapping cells; generates the handover instead of
    /// `[[timeline]]` handover entries (docs/mobility.md).
    pub mobility: Option<MobilitySpec>,
}

/// Where in the overlap of the two cells the handover happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TriggerSpec {
    /// When the MN enters the new cell (x = spacing - cell_radius).
    Enter,
    /// When the new cell's signal becomes the stronger one: the perpendicular bisector of the
    /// two base stations (x = spacing / 2).
    Midpoint,
    /// When the MN leaves the old cell (x = cell_radius).
    Exit,
}

/// The MN moves in a straight line at constant speed from the old cell's base station
/// (x = 0) towards the new one (x = spacing); both cells have radius `cell_radius`, e.g.
/// `{ speed = "50km/h", cell_radius = "500m" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MobilitySpec {
    /// Speed of the mobile node (> 0), e.g. "50km/h" or "10m/s".
    pub speed: Speed,
    /// Radius of each cell (> 0), e.g. "500m".
    pub cell_radius: Length,
    /// Distance between the two base stations (default 1.5 * cell_radius; must be more than
    /// cell_radius and less than 2 * cell_radius so that the cells overlap).
    pub spacing: Option<Length>,
    /// Position of the MN at time 0 (default "0m", at the old base station; at most
    /// spacing - cell_radius).
    pub start_position: Option<Length>,
    /// Where the handover happens (default midpoint).
    pub trigger: Option<TriggerSpec>,
    /// Interface the MN moves to from `initial` (default: the other interface, if there are
    /// two).
    pub to: Option<String>,
    /// How the handover happens (default make_before_break).
    pub kind: Option<HandoverKindSpec>,
    /// break_before_make: how long the old access link drops everything.
    pub gap: Option<Duration>,
    /// pause: how long nothing moves.
    pub duration: Option<Duration>,
    /// Signalling delay of the cross-layer notification after the handover completes.
    pub notify_delay: Option<Duration>,
}

/// One interface of the mobile node.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterfaceSpec {
    /// The access link of this interface (a link name): it goes down during a
    /// break-before-make handover and pauses during a pause handover; its rate and delay are
    /// what cross-layer notifications report.
    pub access: String,
    /// The MN's own link on this side (default: `access`, which must then end at the MN).
    pub attach: Option<String>,
}

/// Which directions of a link an action applies to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DirectionSel {
    /// Every direction of the link.
    #[default]
    Both,
    /// The forward direction (a simplex link's only direction).
    Forward,
    /// The reverse direction of a duplex link.
    Reverse,
}

/// One timeline action.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TimelineSpec {
    /// When it happens (before the end of the run).
    pub at: Duration,
    /// What happens.
    pub action: ActionKind,
    /// Name of the link it acts on (link actions).
    pub link: Option<String>,
    /// Which directions (default both).
    pub direction: Option<DirectionSel>,
    /// set_link: new rate.
    pub rate: Option<RateValue>,
    /// set_link: new delay.
    pub delay: Option<Duration>,
    /// handover: how it happens.
    pub kind: Option<HandoverKindSpec>,
    /// handover: the interface to move to.
    pub to: Option<String>,
    /// handover, break_before_make: how long the old access link drops everything (>= 0).
    pub gap: Option<Duration>,
    /// handover, pause: how long nothing moves.
    pub duration: Option<Duration>,
    /// handover: signalling delay of the cross-layer notification after the handover
    /// completes (default 0s: it arrives when the handover completes).
    pub notify_delay: Option<Duration>,
}

/// Output settings.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Trace detail (default summary).
    #[serde(default)]
    #[schemars(schema_with = "detail_schema")]
    pub detail: Option<crate::model::Detail>,
}

/// Metrics settings.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetricsSpec {
    /// Interval of the goodput series (default "1s", > 0).
    pub goodput_interval: Option<Duration>,
    /// Named goodput windows: name -> [start, end), with start < end <= duration.
    #[serde(default)]
    pub windows: IndexMap<String, [Duration; 2]>,
    /// Window before and after each handover for goodput, throughput, RTOs and spurious
    /// retransmissions (default "10s", > 0).
    pub handover_window: Option<Duration>,
    /// n of the time-to-n-acknowledged index after a handover (default 100, >= 1).
    pub handover_packets: Option<u64>,
}

/// The JSON Schema of [`ScenarioFile`]. TOML has no null, so the `null` alternatives schemars
/// adds for `Option` fields are removed (an absent key is how a value is left out).
pub(crate) fn generate() -> Schema {
    SchemaSettings::draft2020_12()
        .with_transform(RecursiveTransform(drop_null))
        .into_generator()
        .into_root_schema_for::<ScenarioFile>()
}

/// Remove `null` from `type` lists, `{"type": "null"}` from `anyOf` lists, and `"default": null`.
fn drop_null(schema: &mut Schema) {
    let Some(obj) = schema.as_object_mut() else { return };
    if obj.get("default") == Some(&Value::Null) {
        obj.remove("default");
    }
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if let [only] = types.as_slice() {
            let only = only.clone();
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(any)) = obj.get_mut("anyOf") {
        any.retain(|s| s != &serde_json::json!({ "type": "null" }));
        if let [Value::Object(only)] = any.as_slice() {
            let only = only.clone();
            obj.remove("anyOf");
            for (k, v) in only {
                obj.entry(k).or_insert(v);
            }
        }
    }
}

/// A string enum schema (for enums defined in other crates).
fn names_schema(names: &[&str], description: &str) -> Schema {
    json_schema!({ "type": "string", "enum": names, "description": description })
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
/// Names of [`crate::model::Detail`] variants.
pub(crate) const DETAIL_NAMES: &[&str] = &["summary", "timeseries", "packets"];

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
fn detail_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(DETAIL_NAMES, "Trace detail: summary | timeseries | packets.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::de::DeserializeOwned;

    fn all_parse<T: DeserializeOwned>(names: &[&str]) {
        for n in names {
            toml::Value::String(n.to_string()).try_into::<T>().unwrap();
        }
    }

    #[test]
    fn enum_name_lists_match_serde() {
        all_parse::<ErrorKind>(ERROR_KIND_NAMES);
        for (i, n) in ERROR_KIND_NAMES.iter().enumerate() {
            let k: ErrorKind = toml::Value::String(n.to_string()).try_into().unwrap();
            assert_eq!(k as usize, i);
        }
        all_parse::<RecoveryKind>(RECOVERY_NAMES);
        all_parse::<HandoverPolicyKind>(HANDOVER_POLICY_NAMES);
        all_parse::<NewRenoTimer>(NEWRENO_TIMER_NAMES);
        all_parse::<RttTiming>(RTT_TIMING_NAMES);
        all_parse::<RtoResponseKind>(RTO_RESPONSE_NAMES);
        all_parse::<FrtoVariant>(FRTO_VARIANT_NAMES);
        all_parse::<SpuriousResponse>(SPURIOUS_RESPONSE_NAMES);
        all_parse::<DupAckResponseKind>(DUPACK_RESPONSE_NAMES);
        all_parse::<DcrTau>(DCR_TAU_NAMES);
        all_parse::<LossClassifierKind>(LOSS_CLASSIFIER_NAMES);
        all_parse::<DupAckCount>(&DUPACK_COUNT_NAMES);
        all_parse::<crate::model::Detail>(DETAIL_NAMES);
    }
}
