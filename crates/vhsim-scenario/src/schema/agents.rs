//! Node agents: hooks at a node called for every packet the node handles.

use crate::units::{Duration, Size};
use schemars::JsonSchema;
use serde::Deserialize;

/// Agent kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AgentKindSpec {
    /// Count the packets the node handles, by kind (fields: none).
    Counter,
    /// Drop the packets that match the rule (fields: flow, kinds, seqs), cause `agent`.
    DropFilter,
    /// Hold the packets that match the rule from `from` until `until`, then release them in
    /// order (fields: flow, kinds, seqs, from, until).
    Hold,
    /// Sobral et al.'s Delivery Service, at the mobile node's anchor (fields: interface,
    /// timeout) or at the mobile node (fields: interface, ack_size, active_mode); each needs
    /// its peer at the other end.
    DeliveryService,
}

/// Packet kinds a rule can match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum PacketKindSpec {
    /// Data.
    Data,
    /// Acknowledgments.
    Ack,
    /// Control packets.
    Control,
}

/// A node agent, e.g. `{ node = "r", kind = "drop_filter", flow = "bulk", kinds = ["data"],
/// seqs = [10, 11] }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentSpec {
    /// Node the agent runs at.
    pub node: String,
    /// What it does.
    pub kind: AgentKindSpec,
    /// Rule: only packets of this flow (default: every flow).
    pub flow: Option<String>,
    /// Rule: only packets of these kinds (default: every kind).
    pub kinds: Option<Vec<PacketKindSpec>>,
    /// Rule: only packets whose trace sequence number (data unit, or cumulative ACK) is listed
    /// (default: any).
    pub seqs: Option<Vec<u64>>,
    /// hold: start of the holding window.
    pub from: Option<Duration>,
    /// hold: end of the holding window, when held packets are released (before the end of the
    /// run).
    pub until: Option<Duration>,
    /// delivery_service: the mobile node's interface given the acknowledged service.
    pub interface: Option<String>,
    /// delivery_service at the anchor: no acknowledgement for this long while packets are
    /// unacknowledged declares the interface failed (> 0; Sobral et al.: 90 ms).
    pub timeout: Option<Duration>,
    /// delivery_service at the mobile node: bytes on the wire of one DS acknowledgement
    /// (default "40B").
    pub ack_size: Option<Size>,
    /// delivery_service at the mobile node: the active mode destroys repeated ACKs for this
    /// long after each handover to `interface` (> 0; default: no active mode).
    pub active_mode: Option<Duration>,
    /// delivery_service at the mobile node: which handovers start the active mode (default
    /// "handover_to": handovers to `interface`).
    pub active_mode_after: Option<ActiveModeAfterSpec>,
}

/// Which handovers start the Delivery Service's active mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ActiveModeAfterSpec {
    /// Handovers to the DS's interface (Sobral et al. §5.2).
    HandoverTo,
    /// Every handover of the mobile node (Sobral et al. Figure 7(b)).
    AnyHandover,
}
