//! The scenario file as written: serde types of the TOML format.
//!
//! Every struct denies unknown fields. Named collections (`nodes`, `links`, `flows`, `routes`,
//! `metrics.windows`) are `IndexMap`s so file order is kept (with toml's `preserve_order`).
//! Variants that need different fields (error models, timeline actions) are flat structs with a
//! `kind`/`action` enum rather than tagged enums: serde buffers tagged enums, which would lose
//! the key path of errors inside them; [`crate::resolve`] checks which fields fit which kind.
//! The doc comments become the descriptions of the JSON Schema.

use crate::units::{Amount, Duration, Packets, RateValue, Size};
use indexmap::IndexMap;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;
use vhsim_tcp::{NewRenoTimer, RecoveryKind, RttTiming};

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
    /// Error model of both directions (default none).
    pub error: Option<ErrorSpec>,
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
}

/// An error model: `{ kind = "none" }`, `{ kind = "bernoulli", p = 0.01 }` or
/// `{ kind = "drop_list", flow = "bulk", seqs = [5, 6], copies = 1 }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorSpec {
    /// Which model.
    pub kind: ErrorKind,
    /// bernoulli: loss probability per packet, in [0, 1].
    pub p: Option<f64>,
    /// drop_list: name of the flow whose segments are dropped.
    pub flow: Option<String>,
    /// drop_list: segment numbers to drop.
    pub seqs: Option<Vec<u64>>,
    /// drop_list: transmissions of each listed segment to drop (default 1 = only the original).
    pub copies: Option<u32>,
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
}

/// The application feeding a sender, e.g. `{ kind = "bulk" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AppSpec {
    /// Which application.
    pub kind: AppKind,
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
    /// When the sender starts (default "0s"; must be before the end of the run).
    pub start: Option<Duration>,
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
    /// Name of the link it acts on.
    pub link: String,
    /// Which directions (default both).
    pub direction: Option<DirectionSel>,
    /// set_link: new rate.
    pub rate: Option<RateValue>,
    /// set_link: new delay.
    pub delay: Option<Duration>,
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
/// Names of [`RttTiming`] variants.
pub(crate) const RTT_TIMING_NAMES: &[&str] = &["one_per_rtt", "every_ack"];
/// Names of [`crate::model::Detail`] variants.
pub(crate) const DETAIL_NAMES: &[&str] = &["summary", "timeseries", "packets"];

fn recovery_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RECOVERY_NAMES, "Loss recovery algorithm.")
}
fn newreno_timer_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(NEWRENO_TIMER_NAMES, "NewReno timer variant.")
}
fn rtt_timing_schema(_: &mut SchemaGenerator) -> Schema {
    names_schema(RTT_TIMING_NAMES, "How RTT samples are taken.")
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
        all_parse::<RecoveryKind>(RECOVERY_NAMES);
        all_parse::<NewRenoTimer>(NEWRENO_TIMER_NAMES);
        all_parse::<RttTiming>(RTT_TIMING_NAMES);
        all_parse::<crate::model::Detail>(DETAIL_NAMES);
    }
}
