//! The counter agent: counts every packet the node handles, by kind, and changes nothing.

use super::{AgentCounts, Hook, NodeAgent, Verdict};
use vhsim_core::SimTime;
use vhsim_net::Packet;

/// Counts packets.
#[derive(Clone, Debug, Default)]
pub struct Counter {
    counts: AgentCounts,
}

impl NodeAgent for Counter {
    fn on_packet(&mut self, _now: SimTime, pkt: &mut Packet, _hook: Hook) -> Verdict {
        self.counts.see(pkt);
        Verdict::Forward
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
