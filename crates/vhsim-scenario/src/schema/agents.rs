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
    /// timeout, buffer, timer) or at the mobile node (fields: interface, ack_size, ack_every,
    /// ack_delay, active_mode, active_mode_after); each needs its peer at the other end.
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
    /// delivery_service at the anchor: bound on the bytes of the copies kept for
    /// acknowledgement (default: unbounded). A packet that does not fit is forwarded without a
    /// copy (counted `unkept`). Sobral et al. §2.2: 80 kbit ("10kB") for 40 ms at 2 Mb/s.
    pub buffer: Option<Size>,
    /// delivery_service at the anchor: how the timeout is timed (default "restart_on_progress").
    pub timer: Option<DsTimerSpec>,
    /// delivery_service at the mobile node: bytes on the wire of one DS acknowledgement
    /// (default "40B").
    pub ack_size: Option<Size>,
    /// delivery_service at the mobile node: one acknowledgement per this many packets received
    /// (default 1: every packet).
    pub ack_every: Option<u32>,
    /// delivery_service at the mobile node, with `ack_every` > 1: the longest a received packet
    /// waits for its acknowledgement (default "10ms"; > 0).
    pub ack_delay: Option<Duration>,
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

/// How the anchor's Delivery Service times its timeout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DsTimerSpec {
    /// Restarted by every acknowledgement that frees a copy (a retransmission timer, RFC 6298
    /// §5): the interface fails after `timeout` without progress.
    RestartOnProgress,
    /// Per packet: the interface fails when the oldest kept copy is `timeout` old.
    PacketAge,
}
