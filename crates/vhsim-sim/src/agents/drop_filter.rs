//! The drop-filter agent: drops every packet that matches its rule (cause `agent`), e.g. a
//! firewall, or scripted losses at a node in tests.

use super::{matches, AgentCounts, Hook, NodeAgent, Verdict};
use vhsim_core::SimTime;
use vhsim_net::Packet;
use vhsim_scenario::PacketRule;

/// Drops by rule.
#[derive(Clone, Debug)]
pub struct DropFilter {
    rule: PacketRule,
    counts: AgentCounts,
}

impl DropFilter {
    /// Drop what matches `rule`.
    pub fn new(rule: PacketRule) -> Self {
        DropFilter { rule, counts: AgentCounts::default() }
    }
}

impl NodeAgent for DropFilter {
    fn on_packet(&mut self, _now: SimTime, pkt: &mut Packet, _hook: Hook) -> Verdict {
        self.counts.see(pkt);
        if matches(&self.rule, pkt) {
            self.counts.dropped += 1;
            Verdict::Drop
        } else {
            Verdict::Forward
        }
    }

    fn summary(&self) -> AgentCounts {
        self.counts
    }
}
