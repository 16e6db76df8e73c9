//! The scenario file as written: serde types of the TOML format.
//!
//! Every struct denies unknown fields. Named collections (`nodes`, `links`, `flows`, `routes`,
//! `metrics.windows`) are `IndexMap`s so file order is kept (with toml's `preserve_order`).
//! Variants that need different fields (error models, timeline actions) are flat structs with a
//! `kind`/`action` enum rather than tagged enums: serde buffers tagged enums, which would lose
//! the key path of errors inside them; [`crate::resolve`] checks which fields fit which kind.
//! A flow's `tcp` and `sink` tables are kept as TOML and read by `vhsim-tcp` after they are
//! merged over the preset's (its axis tables are tagged, read `kind` first so key paths
//! survive). The doc comments become the descriptions of the JSON Schema.

mod agents;
mod flows;
mod links;
mod sctp;
mod timeline;

pub use agents::*;
pub use flows::*;
pub use links::*;
pub use sctp::*;
pub use timeline::*;

use crate::units::Duration;
use indexmap::IndexMap;
use schemars::generate::SchemaSettings;
use schemars::transform::RecursiveTransform;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::Deserialize;
use serde_json::Value;

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
    /// The set of defaults of every flow's transport settings that neither its scheme nor
    /// its own tables set: "rfc" (the default: the RFCs' values) or "ns-2.35" (ns-2.35's, what
    /// the reproduced papers' simulator used); docs/scenario-format.md "Default sets".
    pub defaults: Option<vhsim_tcp::Defaults>,
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
    /// The mobile node and its interfaces (needed for handovers): the one-node form of
    /// `[[mobiles]]`.
    pub mobile: Option<MobileSpec>,
    /// Mobile nodes, each with its interfaces, anchor, binding, handovers and mobility (a
    /// mobile node's index is its position; instead of `[mobile]`).
    #[serde(default)]
    pub mobiles: Vec<MobileSpec>,
    /// Generated populations of mobile nodes: `count` copies of a template of a mobile node
    /// with its links, flows, timeline entries and agents, expanded when the file is loaded
    /// (docs/scenario-format.md "Populations"). Read by `crate::population` after the rest of
    /// the file; here for the JSON Schema.
    #[serde(default)]
    #[allow(dead_code)]
    pub populations: Vec<crate::population::PopulationSpec>,
    /// Node agents: hooks at a node that see every packet the node handles (docs/agents.md).
    #[serde(default)]
    pub agents: Vec<AgentSpec>,
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
    /// IPv4 address of the node, e.g. "10.0.0.1" (default 10.0.x.y numbered in file order
    /// from 10.0.0.1). Used in packet captures; must be unique.
    pub address: Option<String>,
    /// Static routes: destination node -> name of the link to leave on. Overrides the
    /// automatic shortest-hop route to that destination.
    #[serde(default)]
    pub routes: IndexMap<String, String>,
    /// A shared cell (default false): mobile nodes attach to it by interfaces with `cell =
    /// "<this node>"` and share the queues of its one link, the cell's downlink and uplink
    /// (docs/handover.md "Shared cells").
    #[serde(default)]
    pub cell: bool,
}

/// Output settings.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Trace detail (default summary).
    #[serde(default)]
    #[schemars(schema_with = "detail_schema")]
    pub detail: Option<crate::model::Detail>,
    /// Link directions to capture as pcap files for Wireshark (docs/pcap.md): `"<link>/forward"`,
    /// `"<link>/reverse"`, `"<link>"` (both directions of a duplex link, or a simplex link) or
    /// `"all"`. `vhsim run` writes them into its output folder as `<link>-<direction>.pcap`.
    #[serde(default)]
    pub pcap: Vec<String>,
    /// Bytes of each captured packet kept in the pcap files, e.g. "128B" (default: the whole
    /// packet; at least 80B, so headers are always whole; at most 65535B). The original length
    /// is recorded with every packet.
    pub pcap_snaplen: Option<crate::units::Size>,
}

/// Metrics settings.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetricsSpec {
    /// Interval of the goodput series (default "1s", > 0).
    pub goodput_interval: Option<Duration>,
    /// Named goodput windows: name -> [start, end), with start < end <= duration, or
    /// "overlap": the mobile node's movement through the overlap of the two cells of
    /// `mobile.mobility` (docs/mobility.md "Throughput during the movement").
    #[serde(default)]
    pub windows: IndexMap<String, GoodputWindowSpec>,
    /// Window before and after each handover for goodput, throughput, RTOs and spurious
    /// retransmissions (default "10s", > 0).
    pub handover_window: Option<Duration>,
    /// n of the time-to-n-acknowledged index after a handover (default 100, >= 1).
    pub handover_packets: Option<u64>,
    /// When the run ends: "end" (default, at `duration`) or "when_complete" (as soon as every
    /// handover metric and goodput window is determined; run totals are then marked truncated).
    pub stop: Option<crate::model::StopRule>,
}

/// A goodput window of `metrics.windows`: `[start, end]`, or a window the movement defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoodputWindowSpec {
    /// `[start, end]`.
    Span([Duration; 2]),
    /// `"overlap"`: from when the mobile node enters the overlap of the two cells (leaves the
    /// old cell's core area) to when it leaves it (settled in the new cell's core area).
    Overlap,
}

impl<'de> Deserialize<'de> for GoodputWindowSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = GoodputWindowSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("[start, end] (two durations) or \"overlap\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<GoodputWindowSpec, E> {
                match v {
                    "overlap" => Ok(GoodputWindowSpec::Overlap),
                    _ => Err(E::custom(format!(
                        "\"{v}\" is not a window: give [start, end] or \"overlap\" (the movement through the cells' overlap)"
                    ))),
                }
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> std::result::Result<GoodputWindowSpec, A::Error> {
                <[Duration; 2]>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq)).map(GoodputWindowSpec::Span)
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for GoodputWindowSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "GoodputWindowSpec".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> Schema {
        let span = g.subschema_for::<[Duration; 2]>();
        schemars::json_schema!({
            "description": "[start, end), or \"overlap\": the mobile node's movement through the overlap of the two cells of mobile.mobility.",
            "anyOf": [span, { "const": "overlap" }],
        })
    }
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

/// Names of [`crate::model::Detail`] variants.
pub(crate) const DETAIL_NAMES: &[&str] = &["summary", "timeseries", "packets"];

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
        all_parse::<crate::model::Detail>(DETAIL_NAMES);
    }
}
