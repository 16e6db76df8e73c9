//! Timeline actions and the mobile node (interfaces, mobility).

use crate::units::{Duration, Length, RateValue, Speed};
use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::Deserialize;

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
    /// Move the mobile node to another interface (fields: kind, to, gap, duration, detection,
    /// in_flight, uplink, notify_delay).
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
    /// The old access link fails (drops everything, both directions); the handover completes
    /// when a node agent declares the interface failed (the Delivery Service's timeout), or
    /// `detection` after the failure if none does earlier.
    Forced,
}

/// Forced handover: what becomes of packets already propagating on the old access link when
/// it fails (`in_flight`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InFlightSpec {
    /// They are lost with it (default; as ns-2's `rtmodel` link failure, whose `reset` kills
    /// the packets in transit).
    Lost,
    /// They still arrive: the failure stops what has not left yet.
    Delivered,
}

/// Forced handover: when the mobile node starts sending by the new interface (`uplink`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UplinkSpec {
    /// When the handover completes (a node agent's declaration or `detection`; default).
    AtCompletion,
    /// When its own link fails (the mobile node sees the loss locally); the anchor's binding
    /// still waits for the completion.
    AtFailure,
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
    // Boxed: most of the table's size, and a population reads thousands of mobile nodes that
    // do not move.
    pub mobility: Option<Box<MobilitySpec>>,
    /// How the anchor's binding (where packets for the MN's home address go) follows a
    /// handover (default: at once, when the handover completes).
    pub binding: Option<BindingSpec>,
    /// Warning time of the `Imminent` link event before each handover starts: a duration,
    /// "rtt" (the round trip of the MN's flows over the initial interface with empty queues),
    /// or "srtt" / `{ kind = "srtt", margin = "5ms" }` (the MN's own current RTT estimate plus a
    /// margin, measured while the run goes). Default "0s" (at the start), or "rtt" with
    /// `mobility`. Endpoints on the MN get it (Freeze-TCP's zero-window advertisement).
    pub warning: Option<WarningSpec>,
}

/// `mobile.warning`: a duration such as `"100ms"`, `"rtt"`, `"srtt"`, or
/// `{ kind = "srtt", margin = "5ms" }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WarningSpec {
    /// A fixed time before the handover starts.
    Time(Duration),
    /// One round-trip time of the path with empty queues, from the topology (docs/mobility.md
    /// "Link events").
    Rtt,
    /// The mobile node's own current RTT estimate plus `margin` (docs/handover.md "Link events").
    Srtt {
        /// Added to the estimate.
        margin: Duration,
    },
}

/// The table form of `mobile.warning = { kind = "srtt", margin = "5ms" }`.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SrttWarningTable {
    /// "srtt".
    kind: String,
    /// Added to the estimate (default "0s").
    margin: Option<Duration>,
}

impl<'de> Deserialize<'de> for WarningSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = WarningSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a duration, \"rtt\", \"srtt\" or { kind = \"srtt\", margin = <duration> }")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> std::result::Result<WarningSpec, E> {
                match text.trim() {
                    "rtt" => return Ok(WarningSpec::Rtt),
                    "srtt" => return Ok(WarningSpec::Srtt { margin: Duration(vhsim_core::SimDuration::ZERO) }),
                    _ => {}
                }
                crate::units::DURATION
                    .parse(text)
                    .map(|(ns, _)| WarningSpec::Time(Duration(vhsim_core::SimDuration::from_nanos(ns))))
                    .map_err(|e| {
                        E::custom(format!(
                            "{e}, or \"rtt\" (one round-trip time of the empty path), or \"srtt\" (the mobile node's RTT estimate)"
                        ))
                    })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<WarningSpec, A::Error> {
                let t = SrttWarningTable::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                if t.kind != "srtt" {
                    return Err(serde::de::Error::custom(format!(
                        "kind = \"{}\": the table form is {{ kind = \"srtt\", margin = <duration> }}",
                        t.kind
                    )));
                }
                Ok(WarningSpec::Srtt { margin: t.margin.unwrap_or(Duration(vhsim_core::SimDuration::ZERO)) })
            }
        }
        d.deserialize_any(V)
    }
}

impl JsonSchema for WarningSpec {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "WarningSpec".into()
    }
    fn json_schema(g: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let time = g.subschema_for::<Duration>();
        let table = g.subschema_for::<SrttWarningTable>();
        schemars::json_schema!({
            "description": "A duration; \"rtt\": one round-trip time of the mobile node's flows over the initial interface with empty queues; \"srtt\" or { kind = \"srtt\", margin }: the mobile node's own current RTT estimate (plus margin).",
            "anyOf": [time, { "const": "rtt" }, { "const": "srtt" }, table],
        })
    }
}

/// What happens to packets for the old care-of address while the binding update is on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OldPathSpec {
    /// They are lost (cause `binding`): the MN is no longer reachable there (Mobile IP).
    Drop,
    /// They are forwarded to the new care-of address (a forwarding tunnel from the old
    /// access router; its extra delay is not modelled).
    Forward,
}

/// The binding update of the anchor, e.g. `{ latency = "800ms", old_path = "drop" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BindingSpec {
    /// Registration latency: the binding changes this long after the handover completes
    /// (default "0s"; must end before the end of the run).
    pub latency: Option<Duration>,
    /// Fate of packets sent to the old care-of address meanwhile (default drop).
    pub old_path: Option<OldPathSpec>,
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
    /// When the MN reaches the handover point (default: moving from time 0). The MN waits at
    /// `start_position` and departs so as to arrive then, so that the time spent in each cell
    /// does not depend on the speed.
    pub handover_at: Option<Duration>,
    /// Interface the MN moves to from `initial` (default: the other interface, if there are
    /// two).
    pub to: Option<String>,
    /// How the handover happens (default make_before_break).
    pub kind: Option<HandoverKindSpec>,
    /// break_before_make: how long the old access link drops everything.
    pub gap: Option<Duration>,
    /// pause: how long nothing moves.
    pub duration: Option<Duration>,
    /// forced: the latest time after the failure at which the handover completes.
    pub detection: Option<Duration>,
    /// Signalling delay of the cross-layer notification after the handover completes.
    pub notify_delay: Option<Duration>,
    /// Band-crossing handoff (docs/mobility.md): the distance the MN travels after the old link
    /// is lost before the new cell's signal is good enough to associate. The handover lasts
    /// `handoff_band / speed + handoff_latency` (the `gap`, `duration` or `detection` of its
    /// kind, which must not be given then).
    pub handoff_band: Option<Length>,
    /// Band-crossing handoff: the fixed part of the handover's length (L2 association and L3
    /// registration), independent of the speed.
    pub handoff_latency: Option<Duration>,
    /// The `Imminent` event comes when the MN is this far before the handover point (the old
    /// cell's signal falls below the warning level there): a warning time of distance / speed.
    /// Instead of `mobile.warning`.
    pub warning_distance: Option<Length>,
}

/// One interface of the mobile node: an access link (`access`, with `attach`) or a shared cell
/// (`cell`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InterfaceSpec {
    /// The access link of this interface (a link name): it goes down during a
    /// break-before-make handover and pauses during a pause handover; its rate and delay are
    /// what cross-layer notifications report.
    pub access: Option<String>,
    /// The shared cell this interface attaches to (a node with `cell = true`), instead of
    /// `access`: the mobile node shares the cell's link with every mobile node attached, and a
    /// handover takes down or pauses only its own attachment.
    pub cell: Option<String>,
    /// The MN's own link on this side (default: `access`, which must then end at the MN): a
    /// duplex link between the MN and one other node.
    pub attach: Option<String>,
    /// IPv4 care-of address of this interface (default 10.k.0.1 for the k-th interface,
    /// from 1); must be unique. Packets sent to it take this interface's path.
    pub address: Option<String>,
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
    /// handover: the mobile node that hands over (its node name; needed when the scenario has
    /// several).
    pub mobile: Option<String>,
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
    /// handover, forced: when the mobile node itself detects the failure and completes the
    /// handover, counted from `at`, unless a node agent (a Delivery Service guarding the old
    /// interface) completes it earlier (> 0).
    pub detection: Option<Duration>,
    /// handover, forced: packets propagating on the old access link when it fails are `lost`
    /// (default) or `delivered`.
    pub in_flight: Option<InFlightSpec>,
    /// handover, forced: the mobile node sends by the new interface `at_completion` (default)
    /// or `at_failure`.
    pub uplink: Option<UplinkSpec>,
    /// handover: signalling delay of the cross-layer notification after the handover
    /// completes (default 0s: it arrives when the handover completes).
    pub notify_delay: Option<Duration>,
}
