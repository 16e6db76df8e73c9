//! Node agents: a hook at a node called for every packet the node handles — arriving from a
//! link (whether for the node itself or to forward) or leaving from an endpoint at the node —
//! before the node delivers or forwards it. An agent may let the packet pass, hold it (and
//! release it later through [`NodeAgent::poll_release`]), drop it (cause `agent`) or consume
//! it (a packet addressed to the agent itself); it has its own timers.
//!
//! What an agent may do besides deciding a packet's fate, each drained by the world after every
//! call into the agent (`on_packet`, `on_timeout`, `on_link_event`), in this order:
//!
//! 1. actions ([`NodeAgent::poll_action`]): e.g. declare an interface of the mobile node
//!    failed, which completes a forced handover away from it (`crate::handover`);
//! 2. held packets it releases ([`NodeAgent::poll_release`]);
//! 3. copies of packets it forwarded earlier and kept, sent again ([`NodeAgent::poll_resend`]:
//!    the same transmission, so the ground truth treats a copy as lost only if every instance
//!    of it is);
//! 4. packets of its own ([`NodeAgent::poll_send`], flow `NO_FLOW`, traced as `control_*`
//!    rows): they leave the node like an endpoint's, routed by destination address (and by
//!    source address at the mobile node, so an agent there picks the interface by the care-of
//!    address it sends from).
//!
//! Released, re-sent and own packets continue with the agents after this one at its node.
//! Agents at the mobile node also get its link events ([`NodeAgent::on_link_event`]), before
//! the endpoints there.
//!
//! Adding an agent: a module implementing [`NodeAgent`], a variant of [`AnyAgent`] and its
//! construction in [`AnyAgent::new`] (docs/architecture.md, "How to add a node agent").

mod counter;
mod delivery_service;
mod drop_filter;
mod hold;

pub use counter::Counter;
pub use delivery_service::{DsAnchor, DsMobile, DupAckFilter, DS_ACK_FLAG};
pub use drop_filter::DropFilter;
pub use hold::Hold;

use serde::Serialize;
use vhsim_core::SimTime;
use vhsim_net::{LinkEvent, Packet, UnitKind};
use vhsim_scenario::{AgentKind, AgentModel, PacketRule};

/// What an agent does with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Let it pass to the next agent, then to delivery or forwarding.
    Forward,
    /// The agent keeps it; it comes back through [`NodeAgent::poll_release`].
    Hold,
    /// Lost here, counted with cause `agent`.
    Drop,
    /// The agent took it (a packet addressed to the agent); not a loss.
    Consume,
}

/// Where the node met the packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hook {
    /// The link direction it arrived on (`None`: it leaves an endpoint at this node, or an
    /// agent released or sent it).
    pub arrived_on: Option<u32>,
    /// Whether it is addressed to this node.
    pub local: bool,
    /// The link direction the node would forward it on now (`None` if it is addressed to this
    /// node, or the node would drop it): at the mobile node's anchor this reflects the binding.
    pub next_link: Option<u32>,
}

/// Something an agent asks the world to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentAction {
    /// The agent declares interface `iface` of mobile node `mobile` failed (the Delivery
    /// Service at the anchor after its timeout): a forced handover of that mobile node away from
    /// that interface that is under way completes now. Otherwise nothing happens (a false
    /// alarm; the agent counts it).
    InterfaceFailed {
        /// The mobile node (index).
        mobile: u32,
        /// Its interface.
        iface: u32,
    },
}

/// A node agent.
pub trait NodeAgent {
    /// A packet at the node at `now`; the agent may change it (e.g. its headers) and decides
    /// its fate.
    fn on_packet(&mut self, now: SimTime, pkt: &mut Packet, hook: Hook) -> Verdict;
    /// A deadline reported by [`NodeAgent::poll_timeout`] is due.
    fn on_timeout(&mut self, _now: SimTime) {}
    /// The agent's next deadline.
    fn poll_timeout(&self) -> Option<SimTime> {
        None
    }
    /// A held packet that continues now, in the order the agent releases them.
    fn poll_release(&mut self, _now: SimTime) -> Option<Packet> {
        None
    }
    /// A kept copy of a packet the agent forwarded earlier, sent again now (same uid and tag).
    fn poll_resend(&mut self, _now: SimTime) -> Option<Packet> {
        None
    }
    /// A packet of the agent's own (flow `NO_FLOW`; the world sets its uid).
    fn poll_send(&mut self, _now: SimTime) -> Option<Packet> {
        None
    }
    /// An action for the world, carried out before the agent's packets leave.
    fn poll_action(&mut self) -> Option<AgentAction> {
        None
    }
    /// A link event of the mobile node (agents at the mobile node only).
    fn on_link_event(&mut self, _now: SimTime, _ev: &LinkEvent) {}
    /// What the agent did, for the summary.
    fn summary(&self) -> AgentCounts;
}

/// Counters every agent reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct AgentCounts {
    /// Data packets seen.
    pub data: u64,
    /// Acknowledgments seen.
    pub acks: u64,
    /// Control packets seen.
    pub control: u64,
    /// Packets dropped.
    pub dropped: u64,
    /// Packets held.
    pub held: u64,
    /// Held packets released.
    pub released: u64,
    /// Copies kept of packets it forwarded (an acknowledged service).
    pub kept: u64,
    /// Kept copies sent again.
    pub resent: u64,
    /// Packets forwarded without a kept copy (the acknowledged service's buffer was full).
    pub unkept: u64,
    /// Packets of its own sent.
    pub sent: u64,
    /// Packets addressed to it that it consumed.
    pub consumed: u64,
    /// Interfaces it declared failed.
    pub failures: u64,
}

impl AgentCounts {
    /// Count a packet seen.
    pub fn see(&mut self, pkt: &Packet) {
        match pkt.tag.kind {
            UnitKind::Data => self.data += 1,
            UnitKind::Ack => self.acks += 1,
            UnitKind::Control => self.control += 1,
        }
    }
}

/// Whether `pkt` matches `rule`.
pub fn matches(rule: &PacketRule, pkt: &Packet) -> bool {
    rule.flow.is_none_or(|f| f == pkt.flow)
        && (rule.kinds.is_empty() || rule.kinds.contains(&(pkt.tag.kind as u8)))
        && rule.seqs.as_ref().is_none_or(|s| s.contains(&pkt.tag.seq))
}

/// An agent of any kind.
#[derive(Clone, Debug)]
pub enum AnyAgent {
    /// Counts packets.
    Counter(Counter),
    /// Drops by rule.
    DropFilter(DropFilter),
    /// Holds by rule during a window.
    Hold(Hold),
    /// The Delivery Service at the mobile node's anchor.
    DsAnchor(DsAnchor),
    /// The Delivery Service at the mobile node.
    DsMobile(DsMobile),
}

impl AnyAgent {
    /// Build the agent of `m`.
    pub fn new(m: &AgentModel) -> Self {
        match &m.kind {
            AgentKind::Counter => AnyAgent::Counter(Counter::default()),
            AgentKind::DropFilter { rule } => AnyAgent::DropFilter(DropFilter::new(rule.clone())),
            AgentKind::Hold { rule, from, until } => AnyAgent::Hold(Hold::new(rule.clone(), *from, *until)),
            AgentKind::DeliveryServiceAnchor(m) => AnyAgent::DsAnchor(DsAnchor::new(m)),
            AgentKind::DeliveryServiceMobile(m) => AnyAgent::DsMobile(DsMobile::new(m)),
        }
    }

    /// The kind's name, for the summary.
    pub fn kind_name(&self) -> &'static str {
        match self {
            AnyAgent::Counter(_) => "counter",
            AnyAgent::DropFilter(_) => "drop_filter",
            AnyAgent::Hold(_) => "hold",
            AnyAgent::DsAnchor(_) | AnyAgent::DsMobile(_) => "delivery_service",
        }
    }
}

macro_rules! each_agent {
    ($self:ident, $a:ident => $body:expr) => {
        match $self {
            AnyAgent::Counter($a) => $body,
            AnyAgent::DropFilter($a) => $body,
            AnyAgent::Hold($a) => $body,
            AnyAgent::DsAnchor($a) => $body,
            AnyAgent::DsMobile($a) => $body,
        }
    };
}

impl NodeAgent for AnyAgent {
    fn on_packet(&mut self, now: SimTime, pkt: &mut Packet, hook: Hook) -> Verdict {
        each_agent!(self, a => a.on_packet(now, pkt, hook))
    }
    fn on_timeout(&mut self, now: SimTime) {
        each_agent!(self, a => a.on_timeout(now))
    }
    fn poll_timeout(&self) -> Option<SimTime> {
        each_agent!(self, a => a.poll_timeout())
    }
    fn poll_release(&mut self, now: SimTime) -> Option<Packet> {
        each_agent!(self, a => a.poll_release(now))
    }
    fn poll_resend(&mut self, now: SimTime) -> Option<Packet> {
        each_agent!(self, a => a.poll_resend(now))
    }
    fn poll_send(&mut self, now: SimTime) -> Option<Packet> {
        each_agent!(self, a => a.poll_send(now))
    }
    fn poll_action(&mut self) -> Option<AgentAction> {
        each_agent!(self, a => a.poll_action())
    }
    fn on_link_event(&mut self, now: SimTime, ev: &LinkEvent) {
        each_agent!(self, a => a.on_link_event(now, ev))
    }
    fn summary(&self) -> AgentCounts {
        each_agent!(self, a => a.summary())
    }
}
