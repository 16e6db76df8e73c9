//! The resolved scenario: what the simulator builds a world from.
//!
//! Everything here is in simulation units (ns, bits/s, bytes, segment counts), names are
//! resolved to indices, presets are expanded, and every value has been validated. Its canonical
//! JSON (serde) is what identifies a run.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use vhsim_core::{Rate, SimDuration, SimTime};
use vhsim_net::{ArqConfig, ErrorModelConfig, QueueLimit, ReorderConfig, TraceConfig};
use vhsim_sctp::SctpConfig;
use vhsim_tcp::{SinkConfig, TcpConfig};

mod agents;
pub use agents::*;

/// How much of a run is recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// Summary metrics and the goodput series only.
    Summary,
    /// Plus per-flow time series (cwnd, ssthresh, srtt, rto, flight, state).
    Timeseries,
    /// Plus one row per packet event.
    Packets,
}

/// A fully resolved scenario.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// Scenario name (file's `name`, or "scenario").
    pub name: String,
    /// The run ends at this time.
    pub duration: SimDuration,
    /// Master seed of the random streams.
    pub seed: u64,
    /// Nodes; a node's id is its index.
    pub nodes: Vec<NodeModel>,
    /// Simplex link directions; a link's id is its index.
    pub links: Vec<LinkModel>,
    /// Flows; a flow's id is its index.
    pub flows: Vec<FlowModel>,
    /// Timeline actions, sorted by time (ties keep file order).
    pub timeline: Vec<TimelineEntry>,
    /// Trace detail level.
    pub detail: Detail,
    /// What metrics to compute.
    pub metrics: MetricsModel,
    /// The mobile nodes (`[mobile]`, `[[mobiles]]`, populations), in that order; a mobile
    /// node's index is its position here. In the JSON under `mobile`: one object when there is
    /// one, a list when there are several, absent when there is none.
    #[serde(rename = "mobile", default, skip_serializing_if = "Vec::is_empty", with = "one_or_many")]
    pub mobiles: Vec<MobileModel>,
    /// The address table: `addresses[i]` is `vhsim_net::Addr(i)`. Node `n` has address `n`;
    /// then come the care-of addresses of the mobile nodes' interfaces, mobile node by mobile
    /// node (`InterfaceModel::address`).
    pub addresses: Vec<AddressModel>,
    /// Node agents, in file order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<AgentModel>,
    /// Packet captures (`output.pcap`, `output.pcap_snaplen`); left out of the JSON when the
    /// file asks for none, so scenarios without captures keep their canonical JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcap: Option<PcapModel>,
}

impl Scenario {
    /// The mobile node that is node `node`, if it is one.
    pub fn mobile_at(&self, node: u32) -> Option<(u32, &MobileModel)> {
        self.mobiles.iter().enumerate().find(|(_, m)| m.node == node).map(|(i, m)| (i as u32, m))
    }
}

/// `Vec<MobileModel>` as one object (one mobile node, the JSON of scenarios from before there
/// could be several) or a list.
mod one_or_many {
    use super::MobileModel;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer>(v: &[MobileModel], s: S) -> Result<S::Ok, S::Error> {
        match v {
            [one] => one.serialize(s),
            many => many.serialize(s),
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(Box<MobileModel>),
        Many(Vec<MobileModel>),
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<MobileModel>, D::Error> {
        Ok(match OneOrMany::deserialize(d)? {
            OneOrMany::One(m) => vec![*m],
            OneOrMany::Many(v) => v,
        })
    }
}

/// Packet captures of link directions (docs/pcap.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PcapModel {
    /// Link directions to capture, in link order, each once.
    pub points: Vec<CapturePoint>,
    /// Bytes of each packet kept in the file (`None` = the whole packet).
    pub snaplen: Option<u32>,
}

/// One captured link direction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapturePoint {
    /// Link direction id.
    pub link: u32,
    /// The key that asked for it (`output.pcap[2]`, `--pcap`), for error messages.
    pub key: String,
}

impl CapturePoint {
    /// File name of the capture of link direction `link_name`: `<link>-<direction>.pcap`
    /// (`access/forward` -> `access-forward.pcap`; a simplex link `up` -> `up.pcap`).
    pub fn file_name(link_name: &str) -> String {
        format!("{}.pcap", link_name.replace('/', "-"))
    }
}

/// One address of the address table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressModel {
    /// IPv4 address (a dotted quad in the JSON; four bytes, not a string, in memory: issue #29,
    /// memory per flow).
    pub ipv4: std::net::Ipv4Addr,
    /// Node that owns it.
    pub node: u32,
    /// The mobile node's interface it belongs to (`None` for a node's own address).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interface: Option<u32>,
}

/// The mobile node and the routes of each of its interfaces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MobileModel {
    /// The mobile node.
    pub node: u32,
    /// Where the interfaces' paths part.
    pub anchor: u32,
    /// Index of the interface in use at the start.
    pub initial: u32,
    /// Interfaces, in file order.
    pub interfaces: Vec<InterfaceModel>,
    /// The movement that generated the handover, if `mobility` was given; left out of the JSON
    /// otherwise.
    /// Boxed: most mobile nodes of a population do not move (issue #29, memory per flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobility: Option<Box<MobilityModel>>,
    /// How the anchor's binding follows a handover.
    pub binding: BindingModel,
    /// Warning time of the `Imminent` link event before each handover (with the `srtt` rule:
    /// the lead used before the mobile node has an RTT estimate).
    pub warning: SimDuration,
    /// How the warning time is found: fixed (`warning`), or from the mobile node's own RTT
    /// estimate while the run goes; left out of the JSON when fixed.
    #[serde(default, skip_serializing_if = "WarningRule::is_fixed")]
    pub warning_rule: WarningRule,
}

/// How the mobile node times its handover warning (`mobile.warning`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum WarningRule {
    /// `warning` before each handover (a duration, or `"rtt"` computed from the topology).
    #[default]
    Fixed,
    /// `"srtt"`: the `Imminent` event comes when the time left before the handover falls to
    /// the largest current RTT estimate of the mobile node's endpoints plus `margin` (before
    /// any estimate: to `warning`, the empty-path round trip plus `margin`).
    Srtt {
        /// Added to the estimate (ns).
        margin: SimDuration,
    },
}

impl WarningRule {
    /// Whether this is the fixed rule (the default).
    pub fn is_fixed(&self) -> bool {
        *self == WarningRule::Fixed
    }
}

/// Fate of packets for the old care-of address during the binding latency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OldPath {
    /// Lost with cause `binding`.
    Drop,
    /// Forwarded to the new care-of address.
    Forward,
}

/// The anchor's binding update (Mobile IP registration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BindingModel {
    /// Time from the handover's completion until the binding names the new care-of address.
    pub latency: SimDuration,
    /// What happens to packets for the old care-of address meanwhile.
    pub old_path: OldPath,
}

/// Where in the overlap the handover happens (see docs/mobility.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// On entering the new cell, x = spacing - cell_radius.
    Enter,
    /// Where the new cell's signal becomes the stronger, x = spacing / 2.
    Midpoint,
    /// On leaving the old cell, x = cell_radius.
    Exit,
}

/// Straight-line movement across two overlapping cells, and the times it implies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MobilityModel {
    /// Speed in m/s.
    pub speed_mps: f64,
    /// Cell radius in m.
    pub cell_radius_m: f64,
    /// Distance between the two base stations in m.
    pub spacing_m: f64,
    /// Position of the MN at time 0, in m from the old base station.
    pub start_position_m: f64,
    /// Where the handover happens.
    pub trigger: Trigger,
    /// When the MN starts moving (0 unless `handover_at` is given).
    #[serde(default, skip_serializing_if = "is_time_zero")]
    pub depart: SimTime,
    /// When the MN enters the new cell (the overlap).
    pub overlap_enter: SimTime,
    /// When the handover starts.
    pub handover: SimTime,
    /// When the MN leaves the old cell (the overlap); may be after the end of the run.
    pub overlap_exit: SimTime,
    /// How long the handover lasts (its gap, pause or detection; zero for make-before-break).
    pub handoff: SimDuration,
    /// The band-crossing handoff that gave `handoff`, if it came from the movement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub band_crossing: Option<BandCrossing>,
    /// The warning distance the `Imminent` time came from, if given (m).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning_distance_m: Option<f64>,
}

fn is_time_zero(t: &SimTime) -> bool {
    *t == SimTime::ZERO
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Handoff length from the speed: `band_m / speed + latency` (docs/mobility.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BandCrossing {
    /// Distance crossed without a usable link (m).
    pub band_m: f64,
    /// Fixed L2/L3 latency.
    pub latency: SimDuration,
}

/// One interface of a mobile node.
///
/// A mobile node is a leaf of the network: on each interface it has one neighbour, the
/// `attach_node` (the other end of its own link, or the shared cell it is attached to), and
/// every route to or from it through that interface passes there (docs/handover.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InterfaceModel {
    /// Name from the file (one string shared by the mobile nodes that name an interface alike,
    /// a population's: issue #29, memory per flow).
    pub name: Arc<str>,
    /// Direction ids of the access link (what a handover takes down or pauses); empty for an
    /// interface attached to a shared cell, whose attachment goes down instead.
    pub access: Vec<u32>,
    /// The access link's direction towards the MN, or the cell's shared downlink (its rate and
    /// delay are what notifications report).
    pub downlink: u32,
    /// The mobile node's neighbour on this interface.
    pub attach_node: u32,
    /// The mobile node's own link on this side, `[towards the MN, from the MN]`; `None` when
    /// the interface is attached to the shared cell `attach_node`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attach: Option<[u32; 2]>,
    /// Its care-of address (index into [`Scenario::addresses`]).
    pub address: u32,
}

/// How a handover happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum HandoverKind {
    /// New packets take the new interface at once; packets on the old path still arrive.
    MakeBeforeBreak,
    /// The old access link drops everything in both directions for `gap`.
    BreakBeforeMake {
        /// Length of the outage.
        gap: SimDuration,
    },
    /// Nothing moves on the old access link for `duration`; nothing is lost.
    Pause {
        /// Length of the pause.
        duration: SimDuration,
    },
    /// The old access link fails at the start (drops everything, both directions, like
    /// break-before-make); the handover completes when a node agent declares the old interface
    /// failed (`vhsim-sim` `AgentAction::InterfaceFailed`), or after `detection` if none does.
    Forced {
        /// Latest completion, from the start.
        detection: SimDuration,
        /// Whether packets propagating on the old access link when it fails still arrive.
        in_flight: InFlight,
        /// When the mobile node starts sending by the new interface.
        uplink: Uplink,
    },
}

/// Forced handover: the fate of packets propagating on the old access link when it fails.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InFlight {
    /// Lost with the link (cause `link_down`), as ns-2's link failure does.
    #[default]
    Lost,
    /// They arrive; only what has not left the link yet is lost.
    Delivered,
}

/// Forced handover: when the mobile node sends by the new interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Uplink {
    /// When the handover completes (the binding changes then too).
    #[default]
    AtCompletion,
    /// When the old link fails: the mobile node sees its own link go and sends by the other
    /// interface at once, while the anchor's binding waits for the completion.
    AtFailure,
}

impl HandoverKind {
    /// Time from the start of the handover until traffic takes the new interface (for a
    /// forced handover, the latest such time: a node agent may complete it earlier).
    pub fn outage(&self) -> SimDuration {
        match *self {
            HandoverKind::MakeBeforeBreak => SimDuration::ZERO,
            HandoverKind::BreakBeforeMake { gap } => gap,
            HandoverKind::Pause { duration } => duration,
            HandoverKind::Forced { detection, .. } => detection,
        }
    }

    /// Its name in scenario files and summaries.
    pub fn name(&self) -> &'static str {
        match self {
            HandoverKind::MakeBeforeBreak => "make_before_break",
            HandoverKind::BreakBeforeMake { .. } => "break_before_make",
            HandoverKind::Pause { .. } => "pause",
            HandoverKind::Forced { .. } => "forced",
        }
    }
}

/// A node and its static routes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeModel {
    /// Name from the file.
    pub name: String,
    /// `routes[d]` = the link direction a packet for node `d` leaves on (`None` for the node
    /// itself, an unreachable node, or a mobile node attached to this node as a shared cell).
    /// Towards a mobile node: through the interface whose path from here is the shortest
    /// (docs/handover.md). Empty for a mobile node, which leaves by the interface in use.
    pub routes: Vec<Option<u32>>,
    /// Whether the node is a shared cell: mobile nodes attach to it by interfaces with `cell`
    /// and share the queues of its link (docs/handover.md "Shared cells").
    #[serde(default, skip_serializing_if = "is_false")]
    pub cell: bool,
}

/// One simplex link direction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkModel {
    /// `"<link name>/forward"` or `"<link name>/reverse"` (a simplex link: `"<link name>"`).
    pub name: String,
    /// Sending node.
    pub from: u32,
    /// Receiving node.
    pub to: u32,
    /// Rate (> 0); with a trace, the trace's mean rate (what a handover notice reports).
    pub rate: Rate,
    /// Propagation delay.
    pub delay: SimDuration,
    /// Queue capacity (> 0).
    pub queue: QueueLimit,
    /// Error model (per transmission attempt when `arq` is set).
    pub error: ErrorModelConfig,
    /// Link-layer ARQ (`None` = none). Left out of the JSON when `None`, so scenarios without
    /// it keep their canonical JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arq: Option<ArqConfig>,
    /// Reordering model (`None` = none); left out of the JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reorder: Option<ReorderConfig>,
    /// A recorded delivery-opportunity trace in the rate's role (`None` = the constant
    /// `rate`); left out of the JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<TraceConfig>,
}

/// The application feeding a sender.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AppModel {
    /// Infinite backlog.
    Bulk,
    /// Constant bit rate writes; the flows whose models are the same share one (a population's
    /// thousands of flows: issue #29, memory per flow; the JSON is the model's).
    Cbr(Arc<CbrModel>),
}

/// A constant-bit-rate application writing into a TCP sender (Sobral et al. §5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CbrModel {
    /// Bytes per write.
    pub packet_size: u32,
    /// Segments one write makes available: ceil(packet_size / segment_size).
    pub segments_per_write: u64,
    /// Payload rate, if the file gave one: write k happens at
    /// start + floor(k * 8 * packet_size * 10^9 / rate) ns (no rounding drift).
    pub rate: Option<Rate>,
    /// Time between writes (from `interval`, or the rate's rounded to the ns): without a
    /// rate, write k happens at start + k * interval.
    pub interval: SimDuration,
    /// Send buffer in segments (`None` = unlimited, ns-2's TcpAgent): a write is accepted only
    /// if the written data not yet acknowledged plus the write fit; otherwise it is refused and
    /// its data discarded. Left out of the JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_buffer: Option<u64>,
}

impl CbrModel {
    /// Offset of write `k` from the flow's start.
    pub fn write_offset(&self, k: u64) -> SimDuration {
        match self.rate {
            Some(r) => {
                let bits = u128::from(self.packet_size) * 8 * u128::from(k) * 1_000_000_000;
                let ns = bits / u128::from(r.bits_per_sec().max(1));
                SimDuration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX))
            }
            None => self.interval.saturating_mul(k),
        }
    }
}

/// One transport flow.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowModel {
    /// Name from the file.
    pub name: String,
    /// Sender's node.
    pub src: u32,
    /// Receiver's node.
    pub dst: u32,
    /// Address the receiver is reached at: its node's address, or a care-of address of the
    /// mobile node (`to_interface`); an index into [`Scenario::addresses`].
    pub dst_addr: u32,
    /// When the sender starts (the earliest start if `start_spread` is set).
    pub start: SimTime,
    /// Random start: the flow starts at start + U * spread, U uniform in [0, 1) (left out of
    /// the JSON when `None`).
    /// Boxed: rarely given, and a population has a model per flow (issue #29, memory per flow).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_spread: Option<Box<StartSpread>>,
    /// When the application stops offering data (`None` = never).
    pub stop: Option<SimTime>,
    /// Preset name the configuration came from (one string shared by the flows of a
    /// population: issue #29, memory per flow).
    pub scheme: Arc<str>,
    /// The transport and its configuration.
    pub transport: TransportModel,
    /// Application.
    pub app: AppModel,
}

/// A flow's transport, fully configured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "protocol", rename_all = "snake_case")]
pub enum TransportModel {
    /// TCP: a sender and a sink. The flows of a population with the same scheme and tables
    /// share one configuration (`Arc`), and so do their senders.
    Tcp {
        /// Sender configuration (preset + overrides).
        tcp: Arc<TcpConfig>,
        /// Sink configuration (preset + overrides).
        sink: Arc<SinkConfig>,
    },
    /// The minimal datagram transport.
    Datagram {
        /// Payload bytes per datagram.
        size: u32,
        /// Header bytes on the wire.
        header_size: u32,
    },
    /// An SCTP association (docs/sctp.md). Boxed: the model of every TCP flow would otherwise
    /// be as large as this (issue #29, memory per flow); the JSON is the same as a struct
    /// variant's.
    Sctp(Box<SctpModel>),
}

/// An SCTP association's configuration and addresses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SctpModel {
    /// Configuration of both endpoints (preset + overrides).
    pub config: SctpConfig,
    /// Addresses of the sending endpoint (indices into [`Scenario::addresses`]).
    pub from_addrs: Vec<u32>,
    /// Addresses of the receiving endpoint, in path order.
    pub to_addrs: Vec<u32>,
    /// The sending endpoint's primary destination (one of `to_addrs`).
    pub primary: u32,
    /// The receiving endpoint's primary destination (one of `from_addrs`).
    pub from_primary: u32,
    /// The endpoint on the mobile node, if the association has one (mSCTP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile: Option<SctpMobile>,
}

/// The endpoint of an SCTP association that runs on the mobile node: its interfaces and its
/// scripted ASCONF requests.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SctpMobile {
    /// Which endpoint (0 = sending, 1 = receiving).
    pub side: u8,
    /// Care-of address of each interface, in interface order.
    pub interfaces: Vec<u32>,
    /// Scripted requests, in time order.
    pub actions: Vec<AsconfActionModel>,
}

/// A scripted ASCONF request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AsconfActionModel {
    /// When.
    pub at: SimTime,
    /// What.
    pub op: AddressOpModel,
}

/// The request of an [`AsconfActionModel`] (an address index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AddressOpModel {
    /// Add-IP.
    Add(u32),
    /// Delete-IP.
    Delete(u32),
    /// Set-Primary.
    SetPrimary(u32),
}

impl FlowModel {
    /// The TCP sender configuration, if the flow is TCP.
    pub fn tcp(&self) -> Option<&TcpConfig> {
        match &self.transport {
            TransportModel::Tcp { tcp, .. } => Some(tcp.as_ref()),
            _ => None,
        }
    }

    /// The TCP sink configuration, if the flow is TCP.
    pub fn sink(&self) -> Option<&SinkConfig> {
        match &self.transport {
            TransportModel::Tcp { sink, .. } => Some(sink.as_ref()),
            _ => None,
        }
    }

    /// Payload bytes of one data unit.
    pub fn unit_size(&self) -> u32 {
        match &self.transport {
            TransportModel::Tcp { tcp, .. } => tcp.segment_size,
            TransportModel::Datagram { size, .. } => *size,
            TransportModel::Sctp(s) => s.config.chunk_payload(),
        }
    }
}

/// A start time drawn at random when the world is built (from the run's seed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartSpread {
    /// Length of the interval the start is drawn from.
    pub spread: SimDuration,
    /// Random stream of the draw: `flow/<name in the file>/start`.
    pub stream: String,
    /// Which draw of the stream (the flow's index in its `count` group).
    pub draw: u32,
}

/// A timeline action at a time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimelineEntry {
    /// When it happens (< duration).
    pub at: SimTime,
    /// What happens.
    pub action: Action,
}

/// Timeline actions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Take link directions down.
    LinkDown {
        /// Link direction ids.
        links: Vec<u32>,
    },
    /// Bring link directions up.
    LinkUp {
        /// Link direction ids.
        links: Vec<u32>,
    },
    /// Change rate and/or delay of link directions.
    SetLink {
        /// Link direction ids.
        links: Vec<u32>,
        /// New rate, if given.
        rate: Option<Rate>,
        /// New delay, if given.
        delay: Option<SimDuration>,
    },
    /// Move mobile node `mobile` from interface `from` to interface `to`.
    Handover {
        /// Which mobile node (index into [`Scenario::mobiles`]).
        #[serde(default, skip_serializing_if = "is_zero")]
        mobile: u32,
        /// How.
        #[serde(flatten)]
        kind: HandoverKind,
        /// Interface index in use before.
        from: u32,
        /// Interface index in use after.
        to: u32,
        /// Delay of the cross-layer notification after the handover completes.
        notify_delay: SimDuration,
    },
}

/// Metrics settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetricsModel {
    /// Interval of the goodput series.
    pub goodput_interval: SimDuration,
    /// Named time windows `[start, end)` over which goodput is reported in the summary.
    pub windows: Vec<GoodputWindow>,
    /// Length W of the windows before and after each handover (goodput and throughput over
    /// `[start - W, start)` and `[done, done + W)`; RTOs and spurious retransmissions over
    /// `[start, done + W)`).
    pub handover_window: SimDuration,
    /// n of the "time until n new segments are acknowledged" index (Daniel & Kojo: 100).
    pub handover_packets: u64,
    /// When the run ends (left out of the JSON when it is the default, `end`).
    #[serde(default, skip_serializing_if = "StopRule::is_end")]
    pub stop: StopRule,
}

/// When a run ends.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StopRule {
    /// At the scenario's duration.
    #[default]
    End,
    /// As soon as every handover metric (time to n acknowledged, interruption, goodput and
    /// throughput before and after, RTOs and spurious retransmissions of its window, its
    /// notifications) and every named goodput window is determined, with the same values as a
    /// run to the end; figures over the whole run are then marked truncated.
    WhenComplete,
}

impl StopRule {
    /// True for the default.
    pub fn is_end(&self) -> bool {
        *self == StopRule::End
    }
}

/// A named time window for goodput.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GoodputWindow {
    /// Name (key in the summary's `windows`).
    pub name: String,
    /// Start (inclusive).
    pub start: SimTime,
    /// End (exclusive, <= duration).
    pub end: SimTime,
}
