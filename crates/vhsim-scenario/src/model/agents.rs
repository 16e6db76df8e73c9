//! The node agents of a resolved scenario (docs/agents.md): counters, drop filters, holds and
//! the two sides of the Delivery Service. Split from `model.rs`, which re-exports them.

use serde::{Deserialize, Serialize};
use vhsim_core::{SimDuration, SimTime};

use super::is_zero;

/// What a node agent does (docs/agents.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentModel {
    /// Node it runs at.
    pub node: u32,
    /// Its behaviour.
    pub kind: AgentKind,
}

/// Agent behaviours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgentKind {
    /// Count packets by kind.
    Counter,
    /// Drop the packets that match.
    DropFilter {
        /// Which packets.
        rule: PacketRule,
    },
    /// Hold the packets that match during `[from, until)`, release them in order at `until`.
    Hold {
        /// Which packets.
        rule: PacketRule,
        /// Start of the window.
        from: SimTime,
        /// End of the window.
        until: SimTime,
    },
    /// The Delivery Service at the mobile node's anchor (Sobral et al. §2.2: the HNAC).
    DeliveryServiceAnchor(DsAnchorModel),
    /// The Delivery Service at the mobile node, the anchor's peer.
    DeliveryServiceMobile(DsMobileModel),
}

/// The anchor side of the Delivery Service: an acknowledged service on one interface's path
/// of every mobile node it serves (each with its own copies and timer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DsAnchorModel {
    /// No acknowledgement for this long while copies are kept: the interface is declared failed.
    pub timeout: SimDuration,
    /// Bound on the bytes of the kept copies of one mobile node (`None` = unbounded).
    pub buffer: Option<u64>,
    /// How the timeout is timed.
    pub timer: DsTimer,
    /// The mobile nodes it serves: those anchored at its node with a Delivery Service of their
    /// own for the interface, in mobile node order.
    pub served: Vec<DsServed>,
}

/// One mobile node the anchor's Delivery Service serves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DsServed {
    /// The mobile node (index into [`Scenario::mobiles`]).
    pub mobile: u32,
    /// Its interface given the acknowledged service.
    pub interface: u32,
    /// The anchor's first hop onto that interface's path (the link direction it guards).
    pub guarded_link: u32,
    /// The mobile node's addresses (home and care-of), indices into the address table.
    pub addresses: Vec<u32>,
}

/// How the anchor's Delivery Service times its timeout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DsTimer {
    /// `timeout` after the last acknowledgement that freed a copy (or after the first copy kept
    /// when none was).
    #[default]
    RestartOnProgress,
    /// `timeout` after the oldest kept copy was kept.
    PacketAge,
}

/// The mobile node's side of the Delivery Service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DsMobileModel {
    /// The mobile node it runs at (index into [`Scenario::mobiles`]).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mobile: u32,
    /// The interface whose arrivals it acknowledges.
    pub interface: u32,
    /// That interface's care-of address (acknowledgements leave from it, so by that interface).
    pub address: u32,
    /// The anchor's address (acknowledgements go there).
    pub anchor_address: u32,
    /// Link directions by which that interface's packets reach the mobile node.
    pub arrivals: Vec<u32>,
    /// Bytes on the wire of one acknowledgement.
    pub ack_size: u32,
    /// One acknowledgement per this many packets received (1 = every packet).
    pub ack_every: u32,
    /// With `ack_every` > 1, the longest a received packet waits for its acknowledgement.
    pub ack_delay: SimDuration,
    /// Active mode: destroy repeated ACKs for this long after each handover to the interface
    /// (`None` = never active).
    pub active_mode: Option<SimDuration>,
    /// Which handovers start the active mode.
    pub active_mode_after: ActiveModeAfter,
}

/// Which handovers start the Delivery Service's active mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActiveModeAfter {
    /// Handovers to the DS's interface (Sobral et al. §5.2: "once it notices that there has been
    /// a handover to WLAN").
    HandoverTo,
    /// Every handover of the mobile node (their Figure 7(b): repeated ACKs also filtered after
    /// the return to 3G).
    AnyHandover,
}

/// Which packets a node agent acts on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PacketRule {
    /// Only this flow's packets (`None` = any).
    pub flow: Option<u32>,
    /// Only these kinds (codes of `vhsim_net::UnitKind`: 0 data, 1 ack, 2 control; empty =
    /// any).
    pub kinds: Vec<u8>,
    /// Only these trace sequence numbers (`None` = any).
    pub seqs: Option<Vec<u64>>,
}
