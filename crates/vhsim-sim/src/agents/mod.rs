//! Node agents: a hook at a node called for every packet the node handles — arriving from a
//! link (whether for the node itself or to forward) or leaving from an endpoint at the node —
//! before the node delivers or forwards it. An agent may let the packet pass, hold it (and
//! release it later through [`NodeAgent::poll_release`]), drop it (cause `agent`) or consume
//! it (a packet addressed to the agent itself); it has its own timers and may send packets of
//! its own. Agents at a node run in file order; a packet an agent releases continues with the
//! agents after it.
//!
//! Adding an agent: a module implementing [`NodeAgent`], a variant of [`AnyAgent`] and its
//! construction in [`AnyAgent::new`] (docs/architecture.md, "How to add a node agent").

mod counter;
mod drop_filter;
mod hold;

pub use counter::Counter;
pub use drop_filter::DropFilter;
pub use hold::Hold;

use serde::Serialize;
use vhsim_core::SimTime;
use vhsim_net::{Packet, UnitKind};
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
    /// The link direction it arrived on (`None`: it leaves an endpoint at this node).
    pub arrived_on: Option<u32>,
    /// Whether it is addressed to this node.
    pub local: bool,
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
}

impl AnyAgent {
    /// Build the agent of `m`.
    pub fn new(m: &AgentModel) -> Self {
        match &m.kind {
            AgentKind::Counter => AnyAgent::Counter(Counter::default()),
            AgentKind::DropFilter { rule } => AnyAgent::DropFilter(DropFilter::new(rule.clone())),
            AgentKind::Hold { rule, from, until } => AnyAgent::Hold(Hold::new(rule.clone(), *from, *until)),
        }
    }

    /// The kind's name, for the summary.
    pub fn kind_name(&self) -> &'static str {
        match self {
            AnyAgent::Counter(_) => "counter",
            AnyAgent::DropFilter(_) => "drop_filter",
            AnyAgent::Hold(_) => "hold",
        }
    }
}

macro_rules! each_agent {
    ($self:ident, $a:ident => $body:expr) => {
        match $self {
            AnyAgent::Counter($a) => $body,
            AnyAgent::DropFilter($a) => $body,
            AnyAgent::Hold($a) => $body,
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
    fn summary(&self) -> AgentCounts {
        each_agent!(self, a => a.summary())
    }
}
